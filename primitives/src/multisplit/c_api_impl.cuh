// C API over the multisplit templates: the per-key-type entry (instantiated in c_api_<key>.cu,
// one small file per key type so that they compile in parallel).
#pragma once
#include "common/desc_bucket.cuh"
#include "msplit/multisplit.cuh"

namespace msplit {
namespace detail {

template <typename Key>
msplit_status c_multisplit(void *d_temp, size_t *temp_bytes, const void *keys_in, void *keys_out,
                           const void *values_in, void *values_out, size_t n, uint32_t m,
                           const msplit_bucket_desc &desc, msplit_type value_type, size_t *offsets,
                           cudaStream_t stream, msplit_variant variant) {
  // 1. build the functor (checking its parameters)
  desc_bucket<Key> op{};
  MSPLIT_TRY(make_desc_bucket("msplit_multisplit", desc, m, &op, d_temp == nullptr));
  // 2. dispatch on the value type
  const Key *kin = static_cast<const Key *>(keys_in);
  Key *kout = static_cast<Key *>(keys_out);
  switch (value_type) {
    case MSPLIT_TYPE_NONE:
      return multisplit_keys(d_temp, temp_bytes, kin, kout, n, m, op, offsets, stream, variant);
    case MSPLIT_TYPE_U32:
      return multisplit_pairs(d_temp, temp_bytes, kin, kout, static_cast<const uint32_t *>(values_in),
                              static_cast<uint32_t *>(values_out), n, m, op, offsets, stream, variant);
    case MSPLIT_TYPE_U64:
      return multisplit_pairs(d_temp, temp_bytes, kin, kout, static_cast<const uint64_t *>(values_in),
                              static_cast<uint64_t *>(values_out), n, m, op, offsets, stream, variant);
    default:
      return set_error(MSPLIT_ERROR_UNSUPPORTED, "msplit_multisplit: value type %d is not supported (none, u32, u64)",
                       int(value_type));
  }
}

#define MSPLIT_DECLARE_C_MULTISPLIT(Key)                                                                   \
  extern template msplit_status c_multisplit<Key>(void *, size_t *, const void *, void *, const void *,   \
                                                  void *, size_t, uint32_t, const msplit_bucket_desc &,  \
                                                  msplit_type, size_t *, cudaStream_t, msplit_variant);
#define MSPLIT_INSTANTIATE_C_MULTISPLIT(Key)                                                        \
  template msplit_status c_multisplit<Key>(void *, size_t *, const void *, void *, const void *,   \
                                           void *, size_t, uint32_t, const msplit_bucket_desc &,  \
                                           msplit_type, size_t *, cudaStream_t, msplit_variant);

}  // namespace detail
}  // namespace msplit
