// Small helpers of every primitive's kernels and dispatch: alignment, the keys-only value
// placeholder, integer log2, the alignment of temporary-storage pieces, the overlap test of
// argument checks, and the opt-in to more than 48 KB of dynamic shared memory.
#pragma once
#include <cuda_runtime.h>
#include <stddef.h>
#include <stdint.h>

#include "msplit/detail/error.cuh"
#include "msplit/error_record.cuh"

namespace msplit {
namespace detail {

// The value type of a keys-only call (no values are loaded or stored).
struct no_value {};

__host__ __device__ constexpr size_t align_up(size_t x, size_t a) { return (x + a - 1) / a * a; }

constexpr size_t TEMP_ALIGN = 256;

// The slot of the error record (msplit_error_record, msplit/core.h) at the start of every call's
// temporary storage: a whole TEMP_ALIGN, so that the pieces after it keep their alignment.
constexpr size_t RECORD_BYTES = TEMP_ALIGN;
static_assert(sizeof(msplit_error_record) <= RECORD_BYTES, "the record fits its slot");
inline error_record *temp_record(void *d_temp) { return static_cast<error_record *>(d_temp); }

// Clears a call's error record in its stream: for the calls whose first step is no memset of
// the storage's start (which clears the record with the rest).
inline msplit_status clear_record(void *d_temp, cudaStream_t stream) {
  MSPLIT_CUDA_TRY(cudaMemsetAsync(d_temp, 0, sizeof(msplit_error_record), stream));
  return MSPLIT_SUCCESS;
}

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
