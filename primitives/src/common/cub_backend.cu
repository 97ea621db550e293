// CUB back ends of the primitives (see msplit/detail/cub_backend.h), instantiated once here.
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>

#include "common/status_impl.cuh"
#include "msplit/detail/cub_backend.h"

namespace msplit {
namespace detail {

msplit_status radix_sort_pairs_u32(void *temp, size_t *temp_bytes, uint32_t *keys0, uint32_t *keys1,
                                   uint32_t *values0, uint32_t *values1, size_t n, int end_bit,
                                   cudaStream_t stream, int *selector) {
  cub::DoubleBuffer<uint32_t> keys(keys0, keys1), values(values0, values1);
  MSPLIT_CUDA_TRY(cub::DeviceRadixSort::SortPairs(temp, *temp_bytes, keys, values, int64_t(n), 0,
                                                  end_bit, stream));
  *selector = keys.selector;
  return MSPLIT_SUCCESS;
}

msplit_status exclusive_sum_u32(void *temp, size_t *temp_bytes, const uint32_t *in, uint32_t *out,
                                size_t n, cudaStream_t stream) {
  MSPLIT_CUDA_TRY(cub::DeviceScan::ExclusiveSum(temp, *temp_bytes, in, out, int64_t(n), stream));
  return MSPLIT_SUCCESS;
}

}  // namespace detail
}  // namespace msplit
