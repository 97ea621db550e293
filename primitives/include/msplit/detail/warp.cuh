// Warp basics shared by every primitive: the warp size, the full-warp mask of the _sync
// intrinsics, and the lane registers.
#pragma once
#include <cuda_runtime.h>
#include <stdint.h>

namespace msplit {
namespace detail {

constexpr int WARP_SIZE = 32;
constexpr unsigned FULL_WARP_MASK = 0xFFFFFFFFu;

__device__ __forceinline__ unsigned lane_id() {
  unsigned id;
  asm("mov.u32 %0, %%laneid;" : "=r"(id));
  return id;
}

__device__ __forceinline__ unsigned lanemask_lt() {
  unsigned mask;
  asm("mov.u32 %0, %%lanemask_lt;" : "=r"(mask));
  return mask;
}

}  // namespace detail
}  // namespace msplit
