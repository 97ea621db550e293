// Block level of multisplit: the shared-memory layout of a tile, block-wide exclusive scans,
// functor staging, and the decoupled look-back over per-tile bucket counts (Merrill & Garland's
// single-pass scan, applied per bucket as CUB's one-sweep radix sort does per digit).
//
// Look-back invariant: status[t * m + b] is 0 (not yet published), FLAG_AGGREGATE | count of
// bucket b in tile t, or FLAG_PREFIX | count of bucket b in tiles 0..t of the portion. Flag and
// count share one 32-bit word, so a relaxed atomic load sees both or neither; counts therefore
// have 30 bits and the dispatch splits the input into portions of fewer than 2^30 elements.
// Tiles take their index from an atomic counter, so every tile a block waits for belongs to a
// block that is already running: the look-back cannot deadlock.
#pragma once
#include <cuda/atomic>
#include <stddef.h>
#include <stdint.h>

#include <type_traits>

#include "msplit/detail/warp_multisplit.cuh"

namespace msplit {
namespace detail {

// Placeholder value type of keys-only multisplit.
struct no_value {};

// ---- functor staging ----------------------------------------------------------------------
template <typename Op, typename = void>
struct is_staged : std::false_type {};
template <typename Op>
struct is_staged<Op, std::void_t<typename Op::msplit_staged>> : std::true_type {};

template <typename Op>
__device__ __forceinline__ Op stage_op(const Op &op, bool stage, void *smem, unsigned tid, unsigned nthreads) {
  if constexpr (is_staged<Op>::value) {
    if (stage) return op.stage(smem, tid, nthreads);
  }
  return op;
}

template <typename Key, typename Op>
__device__ __forceinline__ uint32_t clamped_bucket(const Op &op, const Key &key, uint32_t m) {
  const uint32_t b = op(key);
  return b < m ? b : m - 1;
}

// ---- shared-memory layout of one tile -------------------------------------------------------
__host__ __device__ constexpr size_t align_up(size_t x, size_t a) { return (x + a - 1) / a * a; }

struct tile_layout {
  size_t stage_off;     // staged functor table
  size_t exchange_off;  // TILE elements (keys, then values) for reordering
  size_t bucket_off;    // TILE bucket ids (uint8_t: m <= 256) for reordering
  size_t counts_off;    // WARPS x m counters: warp histograms, then offsets
  size_t dest_off;      // (WARPS or 1) x m global destinations (size_t)
  size_t scan_off;      // m bucket starts, m tile counts, 32 warp sums (64-bit), tile index
  size_t total;
};

// counts_words: size of the counter table in 32-bit words (0: WARPS x m, the warp histograms).
template <int BLOCK_THREADS, int ITEMS>
__host__ __device__ inline tile_layout make_tile_layout(uint32_t m, size_t stage_bytes, size_t elem_bytes,
                                                        bool reorder, bool warp_level, bool need_dest,
                                                        size_t counts_words = 0) {
  constexpr size_t WARPS = BLOCK_THREADS / WARP_SIZE;
  constexpr size_t TILE = size_t(BLOCK_THREADS) * ITEMS;
  tile_layout l{};
  size_t off = 0;
  l.stage_off = off;
  off = align_up(off + stage_bytes, 16);
  l.exchange_off = off;
  if (reorder) off = align_up(off + TILE * elem_bytes, 16);
  l.bucket_off = off;
  if (reorder) off = align_up(off + TILE, 16);
  l.counts_off = off;
  off = align_up(off + (counts_words ? counts_words : WARPS * m) * sizeof(uint32_t), 16);
  l.dest_off = off;
  if (need_dest) off = align_up(off + (warp_level ? WARPS : 1) * m * sizeof(size_t), 16);
  l.scan_off = off;
  off = align_up(off + 2 * m * sizeof(uint32_t), 16) + 32 * sizeof(unsigned long long) + 16;
  l.total = off;
  return l;
}

// ---- block-wide exclusive scan ----------------------------------------------------------
// Every thread of the block calls it with one value; `warp_sums` holds 32 T in shared memory.
// Contains __syncthreads().
template <int BLOCK_THREADS, typename T>
__device__ __forceinline__ T block_exclusive_scan(T v, T *warp_sums) {
  constexpr int WARPS = BLOCK_THREADS / WARP_SIZE;
  const unsigned lane = threadIdx.x % WARP_SIZE, warp = threadIdx.x / WARP_SIZE;
  const T incl = warp_inclusive_scan(v, lane);
  if (lane == WARP_SIZE - 1) warp_sums[warp] = incl;
  __syncthreads();
  if (warp == 0) {
    const T s = int(lane) < WARPS ? warp_sums[lane] : T(0);
    const T si = warp_inclusive_scan(s, lane);
    if (int(lane) < WARPS) warp_sums[lane] = si - s;
  }
  __syncthreads();
  return incl - v + warp_sums[warp];
}

// ---- decoupled look-back per bucket ---------------------------------------------------------
constexpr uint32_t LOOKBACK_FLAG_AGGREGATE = 1u << 30;
constexpr uint32_t LOOKBACK_FLAG_PREFIX = 2u << 30;
constexpr uint32_t LOOKBACK_FLAG_MASK = 3u << 30;
constexpr uint32_t LOOKBACK_COUNT_MASK = (1u << 30) - 1;
// Largest number of elements in one portion (counts must fit LOOKBACK_COUNT_MASK).
constexpr size_t LOOKBACK_MAX_PORTION = LOOKBACK_COUNT_MASK;

// Lanes per bucket of a tile's look-back: the largest power of two G <= 32 with G * m <= 32
// (1 from m = 17 up). Thread t serves bucket t / G as lane t % G of the bucket's group, so one
// warp walks for m <= 32 and ceil(m / 32) warps above. (Spreading the walk over the whole block,
// G * m <= BLOCK_THREADS, cost 17 % of the sweep's instructions at m = 32 in ncu.)
__device__ __forceinline__ unsigned lookback_group(uint32_t m) {
  unsigned G = WARP_SIZE;
  while (G > 1 && G * m > unsigned(WARP_SIZE)) G >>= 1;
  return G;
}

// Walks back from `tile` (> 0) of the portion for bucket b, as lane j of the bucket's group of G
// lanes, and returns in every lane of the group the count of bucket b in the portion's earlier
// tiles. Called by whole warps: lanes with no bucket pass active = false. Each round trip
// inspects G * LB_ITEMS predecessors (item i of lane j is at distance base + i * G + j + 1), so
// a look-back rarely costs more than one L2 latency even when the nearest inclusive prefix is
// many tiles back. Loops that contain shuffles are kept warp-uniform with __any_sync.
template <int LB_ITEMS>
__device__ __forceinline__ uint32_t lookback_walk(uint32_t *status, size_t tile, uint32_t m, uint32_t b,
                                                  unsigned j, unsigned G, bool active) {
  using ref = cuda::atomic_ref<uint32_t, cuda::thread_scope_device>;
  constexpr uint32_t NONE = 0xFFFFFFFFu;
  uint32_t sum = 0;
  size_t base = 0;
  bool done = !active;
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
