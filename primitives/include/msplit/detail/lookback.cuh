// Decoupled look-back over per-tile counts (Merrill & Garland's single-pass scan, applied per
// bucket as CUB's one-sweep radix sort does per digit): a tile publishes its count of each bucket
// as soon as it has it, and finds the count of the bucket in all earlier tiles by walking back
// over its predecessors' published words.
//
// Invariant: status[t * m + b] is 0 (not yet published), FLAG_AGGREGATE | count of bucket b in
// tile t, or FLAG_PREFIX | count of bucket b in tiles 0..t of the portion. Flag and count share
// one 32-bit word, so a relaxed atomic load sees both or neither; counts therefore have 30 bits
// and a dispatch splits its input into portions of at most LOOKBACK_MAX_PORTION elements.
// Tiles must take their index from an atomic counter, so that every tile a block waits for
// belongs to a block that is already running: the look-back cannot deadlock while every block
// publishes. Should one never publish (a bug, a block that ended), the wait is still bounded: a
// walk that has waited lookback_stall::bound_ns records MSPLIT_ERROR_STALLED and returns what it
// has summed; its caller publishes its own prefix as usual, so its successors are not held, and
// every other waiter sees the record and gives up within STALL_POLLS polls. The sums are then
// wrong, and msplit_check_sync says so.
#pragma once
#include <cuda/atomic>
#include <stddef.h>
#include <stdint.h>

#include "msplit/detail/warp.cuh"
#include "msplit/error_record.cuh"

namespace msplit {
namespace detail {

constexpr uint32_t LOOKBACK_FLAG_AGGREGATE = 1u << 30;
constexpr uint32_t LOOKBACK_FLAG_PREFIX = 2u << 30;
constexpr uint32_t LOOKBACK_FLAG_MASK = 3u << 30;
constexpr uint32_t LOOKBACK_COUNT_MASK = (1u << 30) - 1;
// Largest number of elements in one portion (counts must fit LOOKBACK_COUNT_MASK).
constexpr size_t LOOKBACK_MAX_PORTION = LOOKBACK_COUNT_MASK;

// Where a look-back that waits too long records it, after how long, and for which primitive.
struct lookback_stall {
  error_record *record;
  unsigned long long bound_ns;
  msplit_primitive primitive;
};

// Lanes per bucket of a tile's look-back: the largest power of two G <= 32 with G * m <= 32
// (1 from m = 17 up). Thread t serves bucket t / G as lane t % G of the bucket's group, so one
// warp walks for m <= 32 and ceil(m / 32) warps above. (Spreading the walk over the whole block,
// G * m <= BLOCK_THREADS, cost 17 % of the sweep's instructions at m = 32 in ncu.)
__device__ __forceinline__ unsigned lookback_group(uint32_t m) {
  unsigned G = WARP_SIZE;
  while (G > 1 && G * m > unsigned(WARP_SIZE)) G >>= 1;
  return G;
}

// lookback_group(m) at compile time for a kernel compiled per bucket width BITS = ceil(log2 m)
// (1..8): the same G for every m of that width (2^(BITS-1) < m <= 2^BITS), except m = 1, run at
// width 1, which gets 16 lanes instead of 32 (G x m <= 32 still holds). With a run-time G the
// walk's shuffle loops stayed loops: 133 more SASS instructions in the sweep of u32 keys at
// m = 256 (3,016 against 2,883).
template <int BITS>
__host__ __device__ constexpr unsigned lookback_group_of_bits() {
  return BITS >= 5 ? 1u : unsigned(WARP_SIZE) >> BITS;
}

// Walks back from `tile` (> 0) of the portion for bucket b, as lane j of the bucket's group of G
// lanes, and returns in every lane of the group the count of bucket b in the portion's earlier
// tiles. Called by whole warps: lanes with no bucket pass active = false. Each round trip
// inspects G * LB_ITEMS predecessors (item i of lane j is at distance base + i * G + j + 1), so
// a look-back rarely costs more than one L2 latency even when the nearest inclusive prefix is
// many tiles back. Loops that contain shuffles are kept warp-uniform with __any_sync. A wait
// that passes stall.bound_ns gives up (see the top): the clock is read only inside the wait, and
// only every STALL_POLLS failed polls.
//
// The bound is kept here in two values, the failed polls and the clock at the first read,
// rather than in a stall_clock, which also holds the bound and the last wait: the walk runs while
// its caller holds a tile's ranks and values in registers, and at 64 registers a thread (the
// one-pass sweep) the stall_clock's four more were spilled (pairs at m = 5..8: 32 bytes stored,
// 48 loaded a tile, none without the bound).
template <int LB_ITEMS>
__device__ __forceinline__ uint32_t lookback_walk(uint32_t *status, size_t tile, uint32_t m, uint32_t b,
                                                  unsigned j, unsigned G, bool active, const lookback_stall &stall) {
  using ref = cuda::atomic_ref<uint32_t, cuda::thread_scope_device>;
  constexpr uint32_t NONE = 0xFFFFFFFFu;
  uint32_t sum = 0;
  size_t base = 0;
  bool done = !active;
  uint32_t polls = 0;         // failed polls (the same in every lane: the loop is warp-uniform)
  unsigned long long t0 = 0;  // the clock at the STALL_POLLS-th
  while (__any_sync(FULL_WARP_MASK, !done)) {
    uint32_t v[LB_ITEMS];
    uint32_t first_prefix;
    for (;;) {
      uint32_t first_zero = NONE;
      first_prefix = NONE;
#pragma unroll
      for (int i = 0; i < LB_ITEMS; ++i) {
        const uint32_t w = uint32_t(i) * G + j;  // position in the window
        const size_t d = base + w + 1;
        if (done || d > tile)
          v[i] = LOOKBACK_FLAG_PREFIX;  // before the portion: an empty inclusive prefix
        else
          v[i] = ref(status[(tile - d) * m + b]).load(cuda::memory_order_relaxed);
        if ((v[i] & LOOKBACK_FLAG_MASK) == 0 && w < first_zero) first_zero = w;
        if ((v[i] & LOOKBACK_FLAG_PREFIX) && w < first_prefix) first_prefix = w;
      }
      for (unsigned off = G / 2; off > 0; off >>= 1) {
        first_zero = min(first_zero, __shfl_xor_sync(FULL_WARP_MASK, first_zero, off, G));
        first_prefix = min(first_prefix, __shfl_xor_sync(FULL_WARP_MASK, first_prefix, off, G));
      }
      const bool wait = !done && first_zero < first_prefix;  // an unpublished tile before the prefix
      if (!__any_sync(FULL_WARP_MASK, wait)) break;
      if (++polls % STALL_POLLS != 0) continue;
      const unsigned long long t = globaltimer_ns();
      if (polls == STALL_POLLS) t0 = t;
      if (__any_sync(FULL_WARP_MASK, t - t0 > stall.bound_ns || error_raised(stall.record))) {
        const unsigned waiting = __ballot_sync(FULL_WARP_MASK, wait);
        if ((threadIdx.x % WARP_SIZE) == unsigned(__ffs(waiting) - 1))
          record_error(stall.record, MSPLIT_ERROR_STALLED, stall.primitive, MSPLIT_SITE_LOOKBACK, tile,
                       tile - (base + first_zero + 1), t - t0);
        return sum;
      }
    }
    uint32_t part = 0;
#pragma unroll
    for (int i = 0; i < LB_ITEMS; ++i)
      if (uint32_t(i) * G + j <= first_prefix) part += v[i] & LOOKBACK_COUNT_MASK;
    for (unsigned off = G / 2; off > 0; off >>= 1) part += __shfl_xor_sync(FULL_WARP_MASK, part, off, G);
    if (!done) {
      sum += part;
      if (first_prefix != NONE)
        done = true;
      else
        base += size_t(G) * LB_ITEMS;
    }
  }
  return sum;
}

}  // namespace detail
}  // namespace msplit
