// msplit C API for multisplit: a switch over the key type tag onto the instantiations in
// c_api_<key>.cu.
#include "common/status_impl.cuh"
#include "multisplit/c_api_impl.cuh"

namespace msplit {
namespace detail {
MSPLIT_DECLARE_C_MULTISPLIT(uint32_t)
MSPLIT_DECLARE_C_MULTISPLIT(int32_t)
MSPLIT_DECLARE_C_MULTISPLIT(float)
MSPLIT_DECLARE_C_MULTISPLIT(uint64_t)
}  // namespace detail
}  // namespace msplit

extern "C" msplit_status msplit_multisplit(void *d_temp, size_t *temp_bytes, const void *d_keys_in,
                                           void *d_keys_out, const void *d_values_in, void *d_values_out,
                                           size_t n, uint32_t num_buckets, msplit_bucket_desc bucket,
                                           size_t *d_bucket_offsets, msplit_type key_type,
                                           msplit_type value_type, msplit_variant variant, void *stream) {
  using namespace msplit::detail;
  cudaStream_t s = static_cast<cudaStream_t>(stream);
  switch (key_type) {
    case MSPLIT_TYPE_U32:
      return c_multisplit<uint32_t>(d_temp, temp_bytes, d_keys_in, d_keys_out, d_values_in, d_values_out, n,
                                    num_buckets, bucket, value_type, d_bucket_offsets, s, variant);
    case MSPLIT_TYPE_I32:
      return c_multisplit<int32_t>(d_temp, temp_bytes, d_keys_in, d_keys_out, d_values_in, d_values_out, n,
                                   num_buckets, bucket, value_type, d_bucket_offsets, s, variant);
    case MSPLIT_TYPE_F32:
      return c_multisplit<float>(d_temp, temp_bytes, d_keys_in, d_keys_out, d_values_in, d_values_out, n,
                                 num_buckets, bucket, value_type, d_bucket_offsets, s, variant);
    case MSPLIT_TYPE_U64:
      return c_multisplit<uint64_t>(d_temp, temp_bytes, d_keys_in, d_keys_out, d_values_in, d_values_out, n,
                                    num_buckets, bucket, value_type, d_bucket_offsets, s, variant);
    default:
      return set_error(MSPLIT_ERROR_UNSUPPORTED, "msplit_multisplit: key type %d is not supported (u32, i32, f32, u64)",
                       int(key_type));
  }
}

extern "C" msplit_status msplit_copy_offsets_sync(size_t *h_offsets, const size_t *d_bucket_offsets,
                                                  uint32_t num_buckets, void *stream) {
  if (!h_offsets || !d_bucket_offsets)
    return msplit::detail::set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "msplit_copy_offsets_sync: %s is NULL",
                                     h_offsets ? "d_bucket_offsets" : "h_offsets");
  cudaStream_t s = static_cast<cudaStream_t>(stream);
  MSPLIT_CUDA_TRY(cudaMemcpyAsync(h_offsets, d_bucket_offsets, (size_t(num_buckets) + 1) * sizeof(size_t),
                                  cudaMemcpyDeviceToHost, s));
  MSPLIT_CUDA_TRY(cudaStreamSynchronize(s));
  return MSPLIT_SUCCESS;
}

extern "C" const char *msplit_variant_name(msplit_variant variant) {
  switch (variant) {
    case MSPLIT_VARIANT_AUTO: return "auto";
    case MSPLIT_VARIANT_DIRECT: return "direct";
    case MSPLIT_VARIANT_ONEPASS: return "onepass";
    case MSPLIT_VARIANT_SORT: return "sort";
  }
  return "unknown";
}
