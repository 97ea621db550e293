// Small helpers of every primitive's kernels and dispatch: alignment, the keys-only value
// placeholder, integer log2, the alignment of temporary-storage pieces, the overlap test of
// argument checks, and the opt-in to more than 48 KB of dynamic shared memory.
#pragma once
#include <cuda_runtime.h>
#include <stddef.h>
#include <stdint.h>

#include "msplit/detail/error.cuh"

namespace msplit {
namespace detail {

// The value type of a keys-only call (no values are loaded or stored).
struct no_value {};

__host__ __device__ constexpr size_t align_up(size_t x, size_t a) { return (x + a - 1) / a * a; }

constexpr size_t TEMP_ALIGN = 256;

inline int ceil_log2(uint32_t m) {
  int bits = 0;
  while (bits < 32 && (uint64_t(1) << bits) < m) ++bits;
  return bits;
}

inline bool ranges_overlap(const void *a, size_t a_bytes, const void *b, size_t b_bytes) {
  const uintptr_t a0 = reinterpret_cast<uintptr_t>(a), b0 = reinterpret_cast<uintptr_t>(b);
  return a0 < b0 + b_bytes && b0 < a0 + a_bytes;
}

template <typename Kernel>
inline msplit_status prepare_kernel(Kernel kernel, size_t smem_bytes) {
  if (smem_bytes > 48 * 1024)
    MSPLIT_CUDA_TRY(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem_bytes)));
  return MSPLIT_SUCCESS;
}

}  // namespace detail
}  // namespace msplit
