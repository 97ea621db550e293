// The GPU LSM's scan (reduce, then scan): the exclusive offsets of one small count per element,
// used for the slices of range results (a count per query) and for the compaction of cleanup (a
// keep flag per entry). Three kernels: each tile of LSM_SCAN_THREADS x LSM_SCAN_ITEMS elements
// sums its counts; one block scans the tile sums; each tile scans its counts again, starting at
// its tile's offset, and hands every element its offset. The counts come from a functor
// (count(i)), evaluated twice, which is cheaper than storing them when they are flags; the
// element count may live on the device (a run's length after merges), the grids are then sized
// by a bound.
#pragma once
#include <cuda_runtime.h>
#include <stdint.h>

#include "msplit/detail/block_scan.cuh"
#include "msplit/detail/lsm/tuning.h"

namespace msplit {
namespace detail {

constexpr int LSM_SCAN_TILE = tuning::LSM_SCAN_THREADS * tuning::LSM_SCAN_ITEMS;

// An element count known on the host, or read on the device (dev != nullptr).
struct lsm_length {
  uint64_t host;
  const uint64_t *dev;
  __device__ uint64_t get() const { return dev ? *dev : host; }
};

template <typename Count>
__global__ void __launch_bounds__(tuning::LSM_SCAN_THREADS)
    lsm_tile_sums_kernel(Count count, lsm_length length, uint64_t *tile_sums) {
  __shared__ uint64_t warp_sums[32];
  const uint64_t n = length.get(), base = uint64_t(blockIdx.x) * LSM_SCAN_TILE;
  if (base >= n) return;
  uint64_t sum = 0;
  for (int i = 0; i < tuning::LSM_SCAN_ITEMS; ++i) {
    const uint64_t e = base + uint64_t(threadIdx.x) * tuning::LSM_SCAN_ITEMS + i;
    if (e < n) sum += count(e);
  }
  const uint64_t before = block_exclusive_scan<tuning::LSM_SCAN_THREADS>(sum, warp_sums);
  if (threadIdx.x == tuning::LSM_SCAN_THREADS - 1) tile_sums[blockIdx.x] = before + sum;
}

// One block: tile_sums[0, tiles) becomes its exclusive scan; *total gets the sum. (A template,
// so that every source including this header may instantiate it: one definition at link time.)
template <int THREADS>
__global__ void __launch_bounds__(THREADS) lsm_scan_tiles_kernel(uint64_t *tile_sums, lsm_length length,
                                                                 uint64_t *total) {
  static_assert(THREADS == tuning::LSM_SCAN_THREADS, "the scan's block shape");
  __shared__ uint64_t warp_sums[32];
  const uint64_t tiles = (length.get() + LSM_SCAN_TILE - 1) / LSM_SCAN_TILE;
  __shared__ uint64_t round_total;
  uint64_t carry = 0;
  for (uint64_t first = 0; first < tiles; first += tuning::LSM_SCAN_THREADS) {
    const uint64_t t = first + threadIdx.x;
    const uint64_t v = t < tiles ? tile_sums[t] : 0;
    const uint64_t before = block_exclusive_scan<tuning::LSM_SCAN_THREADS>(v, warp_sums);
    if (t < tiles) tile_sums[t] = carry + before;
    if (threadIdx.x == tuning::LSM_SCAN_THREADS - 1) round_total = before + v;
    __syncthreads();
    carry += round_total;
    __syncthreads();  // round_total and warp_sums are written again by the next round
  }
  if (threadIdx.x == 0) *total = carry;
}

template <typename Count, typename Apply>
__global__ void __launch_bounds__(tuning::LSM_SCAN_THREADS)
    lsm_tile_apply_kernel(Count count, Apply apply, lsm_length length, const uint64_t *tile_offsets) {
  __shared__ uint64_t warp_sums[32];
  constexpr int ITEMS = tuning::LSM_SCAN_ITEMS;
  const uint64_t n = length.get(), base = uint64_t(blockIdx.x) * LSM_SCAN_TILE;
  if (base >= n) return;
  const uint64_t first = base + uint64_t(threadIdx.x) * ITEMS;
  uint64_t c[ITEMS], sum = 0;
#pragma unroll
  for (int i = 0; i < ITEMS; ++i) {
    c[i] = first + i < n ? count(first + i) : 0;
    sum += c[i];
  }
  uint64_t at = tile_offsets[blockIdx.x] + block_exclusive_scan<tuning::LSM_SCAN_THREADS>(sum, warp_sums);
#pragma unroll
  for (int i = 0; i < ITEMS; ++i) {
    if (first + i < n) apply(first + i, at, c[i]);
    at += c[i];
  }
}

}  // namespace detail
}  // namespace msplit
