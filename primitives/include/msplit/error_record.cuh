// msplit: the device side of the error record (msplit_error_record, msplit/core.h), and the
// clock that bounds every wait of a kernel on another block.
//
// A kernel cannot return a status, and a block that waits for another one (a look-back, a grid
// barrier) would spin forever if that block never comes (a bug, a corrupted input, a launch that
// is not co-resident). So a waiter gives up after a bound far above any legitimate wait, records
// what it waited for in the record, and leaves; every other waiter sees the record's code and
// leaves too, so one stall costs one bound, not one per waiter. The host reads the record with
// msplit_check_sync (temporary storage) or msplit_error_record_status (a record of its own).
//
// First error wins: record() claims `code` with a compare-and-swap from MSPLIT_SUCCESS, and only
// the claimant writes the other fields (the host reads them after the stream has finished).
#pragma once
#include <cuda/atomic>
#include <cuda_runtime.h>
#include <stddef.h>
#include <stdint.h>

#include "msplit/core.h"

namespace msplit {

using error_record = msplit_error_record;

// Polls between two reads of the clock: the clock is read only once a wait has failed this
// often, so a wait that is met at once costs nothing more than before.
constexpr uint32_t STALL_POLLS = 32;

// GPU time in nanoseconds (%globaltimer: the same on every SM).
__device__ __forceinline__ unsigned long long globaltimer_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// Whether any error has been recorded: the word every waiter polls to give up at once.
__device__ __forceinline__ bool error_raised(const error_record *r) {
  return cuda::atomic_ref<const uint32_t, cuda::thread_scope_device>(r->code).load(cuda::memory_order_relaxed) !=
         MSPLIT_SUCCESS;
}

// Records an error unless one is recorded already; returns whether this one was.
__device__ __forceinline__ bool record_error(error_record *r, msplit_status code, msplit_primitive primitive,
                                             msplit_error_site site, unsigned long long d0, unsigned long long d1 = 0,
                                             unsigned long long d2 = 0, unsigned long long d3 = 0) {
  if (atomicCAS(&r->code, uint32_t(MSPLIT_SUCCESS), uint32_t(code)) != uint32_t(MSPLIT_SUCCESS)) return false;
  r->primitive = uint32_t(primitive);
  r->site = uint32_t(site);
  r->block = blockIdx.x;
  r->detail[0] = d0;
  r->detail[1] = d1;
  r->detail[2] = d2;
  r->detail[3] = d3;
  return true;
}

// The bound of one wait. Call expired() after each poll that found the wait unmet: every
// STALL_POLLS calls it reads the clock (the first read starts the wait's time) and the record,
// and returns true once bound_ns has passed or another waiter has recorded an error.
struct stall_clock {
  unsigned long long bound_ns;
  unsigned long long t0 = 0;
  unsigned long long waited_ns = 0;
  uint32_t polls = 0;

  __device__ explicit stall_clock(unsigned long long bound) : bound_ns(bound) {}

  __device__ __forceinline__ bool expired(const error_record *r) {
    if (++polls % STALL_POLLS != 0) return false;
    const unsigned long long t = globaltimer_ns();
    if (polls == STALL_POLLS) t0 = t;
    waited_ns = t - t0;
    return waited_ns > bound_ns || error_raised(r);
  }
};

// msplit_check_sync (msplit/core.h) for the C++ API: waits for `stream` and returns the status
// of the last call that ran with this temporary storage, with its message.
inline msplit_status check_sync(const void *d_temp, size_t temp_bytes, cudaStream_t stream = 0) {
  return msplit_check_sync(d_temp, temp_bytes, stream);
}

}  // namespace msplit
