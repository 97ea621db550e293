// msplit C API for the segmented sort: a switch over the key type tag onto the instantiations in
// c_api_<key>.cu, and the offsets check's report.
#include "common/status_impl.cuh"
#include "segmented_sort/c_api_impl.cuh"

namespace msplit {
namespace detail {
MSPLIT_DECLARE_C_SEGMENTED_SORT(uint32_t)
MSPLIT_DECLARE_C_SEGMENTED_SORT(int32_t)
MSPLIT_DECLARE_C_SEGMENTED_SORT(float)
MSPLIT_DECLARE_C_SEGMENTED_SORT(uint64_t)
}  // namespace detail
}  // namespace msplit

extern "C" msplit_status msplit_segmented_sort(void *d_temp, size_t *temp_bytes, const void *d_keys_in,
                                               void *d_keys_out, const void *d_values_in, void *d_values_out,
                                               size_t n, size_t num_segments, const void *d_begin_offsets,
                                               const void *d_end_offsets, msplit_type key_type, msplit_type value_type,
                                               msplit_type offset_type, int descending, void *stream) {
  using namespace msplit::detail;
  cudaStream_t s = static_cast<cudaStream_t>(stream);
  const bool desc = descending != 0;
  switch (key_type) {
    case MSPLIT_TYPE_U32:
      return c_segmented_sort<uint32_t>(d_temp, temp_bytes, d_keys_in, d_keys_out, d_values_in, d_values_out, n,
                                        num_segments, d_begin_offsets, d_end_offsets, value_type, offset_type, desc, s);
    case MSPLIT_TYPE_I32:
      return c_segmented_sort<int32_t>(d_temp, temp_bytes, d_keys_in, d_keys_out, d_values_in, d_values_out, n,
                                       num_segments, d_begin_offsets, d_end_offsets, value_type, offset_type, desc, s);
    case MSPLIT_TYPE_F32:
      return c_segmented_sort<float>(d_temp, temp_bytes, d_keys_in, d_keys_out, d_values_in, d_values_out, n,
                                     num_segments, d_begin_offsets, d_end_offsets, value_type, offset_type, desc, s);
    case MSPLIT_TYPE_U64:
      return c_segmented_sort<uint64_t>(d_temp, temp_bytes, d_keys_in, d_keys_out, d_values_in, d_values_out, n,
                                        num_segments, d_begin_offsets, d_end_offsets, value_type, offset_type, desc, s);
    default:
      return set_error(MSPLIT_ERROR_UNSUPPORTED,
                       "msplit_segmented_sort: key type %d is not supported (u32, i32, f32, u64)", int(key_type));
  }
}
