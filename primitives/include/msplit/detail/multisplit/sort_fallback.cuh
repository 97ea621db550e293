// The multisplit for m > tuning::MULTISPLIT_MAX_FAST_BUCKETS: label every key with its bucket,
// sort the (label, index) pairs on ceil(log2 m) bits with CUB's radix sort (cub_backend.h), gather
// the keys (and values) by the sorted indices, and find the bucket offsets by binary search.
#pragma once
#include <stddef.h>
#include <stdint.h>

#include <type_traits>

#include "msplit/bucket.cuh"
#include "msplit/detail/util.cuh"

namespace msplit {
namespace detail {

// ---- SORT fallback -----------------------------------------------------------------------------
template <typename Key, typename Op>
__global__ void multisplit_label_kernel(const Key *keys, size_t n, uint32_t m, Op op0, bool stage,
                                        uint32_t *labels, uint32_t *index) {
  extern __shared__ __align__(16) unsigned char smem[];
  const Op op = stage_op(op0, stage, smem, threadIdx.x, blockDim.x);
  __syncthreads();
  for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
    labels[i] = clamped_bucket(op, keys[i], m);
    index[i] = uint32_t(i);
  }
}

template <typename Key, typename Value>
__global__ void multisplit_gather_kernel(const uint32_t *index, size_t n, const Key *keys_in, Key *keys_out,
                                         const Value *values_in, Value *values_out) {
  for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
    const uint32_t src = index[i];
    keys_out[i] = keys_in[src];
    if constexpr (!std::is_same_v<Value, no_value>) values_out[i] = values_in[src];
  }
}

// offsets[b] = first position of a label >= b in the sorted labels (b = 0..m).
template <typename = void>
__global__ void multisplit_offsets_from_labels_kernel(const uint32_t *labels, size_t n, uint32_t m,
                                                             size_t *offsets) {
  const size_t b = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (b > m) return;
  size_t lo = 0, len = n;
  while (len > 0) {
    const size_t half = len / 2;
    if (labels[lo + half] < b) {
      lo += half + 1;
      len -= half + 1;
    } else {
      len = half;
    }
  }
  offsets[b] = b == m ? n : lo;
}

}  // namespace detail
}  // namespace msplit
