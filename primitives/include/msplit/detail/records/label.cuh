// The bucket labels of split_records_by (msplit/records.cuh): one thread per record calls the
// user's bucket functor on it and writes its bucket id, which the split by bucket ids then uses.
// Compiled in the user's code (the functor is theirs); everything after it is the library's.
#pragma once
#include <cuda_runtime.h>
#include <stddef.h>
#include <stdint.h>

#include "msplit/detail/records/tuning.h"

namespace msplit {
namespace detail {

template <typename Record, typename BucketOp>
__global__ void __launch_bounds__(tuning::RECORDS_ELEMENT_THREADS)
    records_label_kernel(const Record *records, uint32_t *bucket_ids, uint32_t n, BucketOp op) {
  const uint32_t i = blockIdx.x * tuning::RECORDS_ELEMENT_THREADS + threadIdx.x;
  if (i < n) bucket_ids[i] = uint32_t(op(records[i]));
}

}  // namespace detail
}  // namespace msplit
