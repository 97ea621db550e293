// CUB back ends that the primitives' templates call into, compiled once in the msplit library (CUB's
// radix sort and scan are large to instantiate; every template user shares these copies).
#pragma once
#include <cuda_runtime.h>
#include <stddef.h>
#include <stdint.h>

#include "msplit/core.h"

namespace msplit {
namespace detail {

// CUB DeviceRadixSort::SortPairs on a DoubleBuffer (keys0/keys1, values0/values1), bits
// [0, end_bit). Two-phase: temp == NULL writes *temp_bytes. *selector receives the index (0 or 1)
// of the buffers that hold the result. n < 2^32.
msplit_status radix_sort_pairs_u32(void *temp, size_t *temp_bytes, uint32_t *keys0, uint32_t *keys1,
                                   uint32_t *values0, uint32_t *values1, size_t n, int end_bit,
                                   cudaStream_t stream, int *selector);

// CUB DeviceScan::ExclusiveSum over n uint32_t. Two-phase.
msplit_status exclusive_sum_u32(void *temp, size_t *temp_bytes, const uint32_t *in, uint32_t *out,
                                size_t n, cudaStream_t stream);

}  // namespace detail
}  // namespace msplit
