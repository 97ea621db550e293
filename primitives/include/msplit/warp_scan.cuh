// msplit: the warp-wide inclusive scan the primitives rank with, for device code of one's own
// (a frontier queue's warp-aggregated push, a tile's offsets).
//
//   const uint32_t x = msplit::warp_inclusive_scan(count, lane);   // every lane of the warp
//   const uint32_t total = __shfl_sync(0xffffffffu, x, 31);        // the warp's sum
//   // lane's exclusive offset: x - count
//
// Every lane of the warp must call it (it shuffles with the full mask), with its lane index.
// Five __shfl_up_sync steps; T is any type __shfl_up_sync moves and + adds.
#pragma once
#include <cuda_runtime.h>

#include "msplit/detail/warp.cuh"

namespace msplit {

template <typename T>
__device__ __forceinline__ T warp_inclusive_scan(T v, unsigned lane) {
  for (int d = 1; d < detail::WARP_SIZE; d <<= 1) {
    const T up = __shfl_up_sync(detail::FULL_WARP_MASK, v, d);
    if (int(lane) >= d) v += up;
  }
  return v;
}

}  // namespace msplit
