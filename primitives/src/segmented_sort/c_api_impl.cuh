// C API over the segmented sort templates: the per-key-type entry (instantiated in
// c_api_<key>.cu, one small file per key type so that they compile in parallel), dispatching on
// the value and offset types.
#pragma once
#include "common/status_impl.cuh"
#include "msplit/segmented_sort.cuh"
#include "msplit/segmented_sort.h"

namespace msplit {
namespace detail {

template <typename Key, typename Offset>
msplit_status c_segmented_sort_offsets(void *d_temp, size_t *temp_bytes, const void *keys_in, void *keys_out,
                                       const void *values_in, void *values_out, size_t n, size_t num_segments,
                                       const void *begin, const void *end, msplit_type value_type, bool descending,
                                       cudaStream_t stream) {
  const Key *kin = static_cast<const Key *>(keys_in);
  Key *kout = static_cast<Key *>(keys_out);
  const Offset *b = static_cast<const Offset *>(begin), *e = static_cast<const Offset *>(end);
  switch (value_type) {
    case MSPLIT_TYPE_NONE:
      return segmented_sort_keys(d_temp, temp_bytes, kin, kout, n, num_segments, b, e, stream, descending);
    case MSPLIT_TYPE_U32:
      return segmented_sort_pairs(d_temp, temp_bytes, kin, kout, static_cast<const uint32_t *>(values_in),
                                  static_cast<uint32_t *>(values_out), n, num_segments, b, e, stream, descending);
    case MSPLIT_TYPE_U64:
      return segmented_sort_pairs(d_temp, temp_bytes, kin, kout, static_cast<const uint64_t *>(values_in),
                                  static_cast<uint64_t *>(values_out), n, num_segments, b, e, stream, descending);
    default:
      return set_error(MSPLIT_ERROR_UNSUPPORTED,
                       "msplit_segmented_sort: value type %d is not supported (none, u32, u64)", int(value_type));
  }
}

// Signed offsets run as the unsigned type of their size: a negative one reads as a huge offset,
// which the offsets check reports as beyond n.
template <typename Key>
msplit_status c_segmented_sort(void *d_temp, size_t *temp_bytes, const void *keys_in, void *keys_out,
                               const void *values_in, void *values_out, size_t n, size_t num_segments,
                               const void *begin, const void *end, msplit_type value_type, msplit_type offset_type,
                               bool descending, cudaStream_t stream) {
  switch (offset_type) {
    case MSPLIT_TYPE_U32:
    case MSPLIT_TYPE_I32:
      return c_segmented_sort_offsets<Key, uint32_t>(d_temp, temp_bytes, keys_in, keys_out, values_in, values_out, n,
                                                     num_segments, begin, end, value_type, descending, stream);
    case MSPLIT_TYPE_U64:
    case MSPLIT_TYPE_I64:
      return c_segmented_sort_offsets<Key, uint64_t>(d_temp, temp_bytes, keys_in, keys_out, values_in, values_out, n,
                                                     num_segments, begin, end, value_type, descending, stream);
    default:
      return set_error(MSPLIT_ERROR_UNSUPPORTED,
                       "msplit_segmented_sort: offset type %d is not supported (u32, i32, u64, i64)", int(offset_type));
  }
}

#define MSPLIT_SEGSORT_C_SIGNATURE(Key)                                                                         \
  msplit_status c_segmented_sort<Key>(void *, size_t *, const void *, void *, const void *, void *, size_t, size_t, \
                                      const void *, const void *, msplit_type, msplit_type, bool, cudaStream_t)
#define MSPLIT_DECLARE_C_SEGMENTED_SORT(Key) extern template MSPLIT_SEGSORT_C_SIGNATURE(Key);
#define MSPLIT_INSTANTIATE_C_SEGMENTED_SORT(Key) template MSPLIT_SEGSORT_C_SIGNATURE(Key);

}  // namespace detail
}  // namespace msplit
