// msplit: a grid barrier that gives up, for kernels whose blocks are all resident at once
// (launched with cudaLaunchCooperativeKernel, or sized to what fits).
//
// cooperative_groups' grid.sync() waits forever if one block never arrives (a bug that makes the
// blocks disagree on how many barriers they pass, a block that ended early). grid_barrier waits
// at most a bound (MSPLIT_STALL_NS, 10 s of GPU time, unless init is given another): a block that
// passes it records MSPLIT_ERROR_STALLED in an error record (msplit/error_record.cuh) and ends,
// every other waiting block sees the record and ends too, so the kernel ends and the context stays
// usable. The host then reads the record (msplit_error_record_status, or msplit_check_sync when the
// record is the one at the start of a primitive's temporary storage).
//
// How it works: grid_barrier_state holds one counter in global memory that only grows. At each
// sync() thread 0 of every block adds one with release order after a block barrier (so the
// block's writes before the barrier are published), and waits with acquire loads until the
// counter has passed the block's own target, which grows by gridDim.x per barrier; a block
// barrier then lets the block's threads go on. The targets compare with wrapping arithmetic, so
// the counter may wrap; no block is ever more than one barrier ahead of another.
//
// Contract (preconditions; nothing here can check them):
//   - every block of the launch is resident at once, and every thread of every block calls
//     init() once at the start, then the same sequence of sync()s (as for grid.sync());
//   - init() reads the counter, so it is followed by one barrier of the launch that every block
//     passes before any block arrives at the first sync(): init does it with the `grid` it is
//     given (cooperative_groups::this_grid() for a cooperative launch). The counter needs no
//     reset: any value works, between launches too, as long as no other launch uses the same
//     state at the same time. Where the counter's value at the launch is known (zeroed in the
//     stream before it, and used by no launch since), init_at() takes it instead and needs no
//     barrier;
//   - the error record is zeroed (MSPLIT_SUCCESS) before the launch, or holds an error already,
//     in which case the first wait that is not met at once gives up;
//   - a block that gives up ends (PTX exit): code after a sync() runs only where it was passed.
//     Blocks that have ended do not arrive again, so a kernel that gave up leaves its state and
//     its outputs unfinished; only the record says what happened.
// It satisfies the Grid concept of msplit/grid_multisplit.cuh (a type with sync()).
//
// Cost: the same as grid.sync()'s (one reduction and one acquire poll per block); the clock is
// read only in a wait that fails STALL_POLLS polls, which is out of line.
//
// Example:
//
//     __global__ void rounds(float *data, msplit::grid_barrier_state *state, msplit_error_record *rec) {
//       cooperative_groups::grid_group grid = cooperative_groups::this_grid();
//       msplit::grid_barrier bar;
//       bar.init(grid, state, rec);
//       for (int r = 0; r < 100; ++r) {
//         step(data, r);  // writes that other blocks read after the barrier
//         bar.sync();
//       }
//     }
//
// and on the host, after the launch: copy *rec back and msplit_error_record_status(&host_rec).
#pragma once
#include <cuda/atomic>
#include <stdint.h>

#include "msplit/core.h"
#include "msplit/error_record.cuh"

namespace msplit {

// The barrier's state in global memory: any initial value (see the contract above).
struct grid_barrier_state {
  uint32_t arrived;  // arrivals of all blocks at all barriers so far (only grows)
};

// A block's view of the barrier (one per thread, in registers: every thread of a block keeps the
// same values).
class grid_barrier {
 public:
  // Every thread of every block, once, before the first sync(). record: where a give-up is
  // recorded (and polled); bound_ns: how long one wait may last; primitive: who the record names.
  template <typename Grid>
  __device__ void init(Grid &grid, grid_barrier_state *state, error_record *record,
                       unsigned long long bound_ns = MSPLIT_STALL_NS,
                       msplit_primitive primitive = MSPLIT_PRIMITIVE_NONE) {
    init_at(state, cuda::atomic_ref<uint32_t, cuda::thread_scope_device>(state->arrived).load(cuda::memory_order_relaxed),
            record, bound_ns, primitive);
    grid.sync();  // every block has read the counter before any block arrives
  }

  // Instead of init(), where the counter holds `start` when the launch begins: no launch-wide
  // barrier needed.
  __device__ void init_at(grid_barrier_state *state, uint32_t start, error_record *record,
                          unsigned long long bound_ns = MSPLIT_STALL_NS,
                          msplit_primitive primitive = MSPLIT_PRIMITIVE_NONE) {
    state_ = state;
    record_ = record;
    bound_ns_ = bound_ns;
    primitive_ = primitive;
    target_ = start;
  }

  // The barrier of every block of the launch: what a block wrote before it is visible to every
  // block after it. Ends the calling block if the wait gave up.
  __device__ __forceinline__ void sync() { pass(true); }

  // For tests of the give-up path only: passes this barrier without arriving, so that no block
  // (this one included) sees it complete and every waiter gives up after the bound.
  __device__ void sync_without_arriving() { pass(false); }

 private:
  grid_barrier_state *state_;
  error_record *record_;
  unsigned long long bound_ns_;
  uint32_t target_;  // arrivals the last barrier waited for
  msplit_primitive primitive_;

  __device__ __forceinline__ cuda::atomic_ref<uint32_t, cuda::thread_scope_device> counter() const {
    return cuda::atomic_ref<uint32_t, cuda::thread_scope_device>(state_->arrived);
  }

  __device__ __forceinline__ void pass(bool arrive) {
    __syncthreads();  // the block's writes come before thread 0's release
    target_ += gridDim.x;
    bool gave_up = false;
    if (threadIdx.x == 0) {
      // a reduction (nothing waits for its result), which atomic_ref's fetch_add is not
      if (arrive) asm volatile("red.release.gpu.global.add.u32 [%0], 1;" ::"l"(&state_->arrived) : "memory");
      if (int32_t(counter().load(cuda::memory_order_acquire) - target_) < 0) gave_up = !wait_long();
    }
    // the block's threads go on together, or end together
    if (__syncthreads_or(gave_up)) asm volatile("exit;");
  }

  // Thread 0, once the first poll found the barrier incomplete: polls until it is, or gives up
  // (returns false) after the bound or once another block has recorded an error.
  __device__ __noinline__ bool wait_long() {
    stall_clock clock(bound_ns_);
    for (;;) {
      const uint32_t seen = counter().load(cuda::memory_order_acquire);
      if (int32_t(seen - target_) >= 0) return true;
      if (clock.expired(record_)) {
        record_error(record_, MSPLIT_ERROR_STALLED, primitive_, MSPLIT_SITE_GRID_BARRIER, seen, target_,
                     clock.waited_ns);
        return false;
      }
    }
  }
};

}  // namespace msplit
