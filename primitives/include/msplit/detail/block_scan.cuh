// Block-wide scan over one value per thread, built from warp scans.
#pragma once
#include <cuda_runtime.h>

#include "msplit/detail/warp_scan.cuh"

namespace msplit {
namespace detail {

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

}  // namespace detail
}  // namespace msplit
