// msplit C API for records: the type tags and the stream, onto the dispatch (dispatch.h).
#include "msplit/detail/error.cuh"
#include "msplit/detail/records/dispatch.h"
#include "msplit/records.h"

using msplit::detail::set_error;

extern "C" msplit_status msplit_gather_records(void *d_temp, size_t *temp_bytes, const void *d_records_in,
                                               const uint32_t *d_indexes, void *d_records_out, size_t n,
                                               size_t num_records_in, size_t record_bytes, void *stream) {
  return msplit::detail::records_move_run("msplit_gather_records", d_temp, temp_bytes, d_records_in, d_indexes,
                                          d_records_out, n, num_records_in, record_bytes, false,
                                          static_cast<cudaStream_t>(stream));
}

extern "C" msplit_status msplit_scatter_records(void *d_temp, size_t *temp_bytes, const void *d_records_in,
                                                const uint32_t *d_indexes, void *d_records_out, size_t n,
                                                size_t num_records_out, size_t record_bytes, void *stream) {
  return msplit::detail::records_move_run("msplit_scatter_records", d_temp, temp_bytes, d_records_in, d_indexes,
                                          d_records_out, n, num_records_out, record_bytes, true,
                                          static_cast<cudaStream_t>(stream));
}

extern "C" msplit_status msplit_split_records(void *d_temp, size_t *temp_bytes, const void *d_records_in,
                                              const uint32_t *d_bucket_ids, void *d_records_out,
                                              uint32_t *d_permutation, size_t n, size_t record_bytes,
                                              uint32_t num_buckets, size_t *d_bucket_offsets, void *stream) {
  return msplit::detail::records_split_run("msplit_split_records", d_temp, temp_bytes, d_records_in, d_bucket_ids,
                                           d_records_out, d_permutation, n, record_bytes, num_buckets,
                                           d_bucket_offsets, static_cast<cudaStream_t>(stream));
}

extern "C" msplit_status msplit_sort_records(void *d_temp, size_t *temp_bytes, const void *d_records_in,
                                             void *d_records_out, uint32_t *d_permutation, size_t n,
                                             size_t record_bytes, size_t key_offset, msplit_type key_type,
                                             void *stream) {
  constexpr const char *FN = "msplit_sort_records";
  size_t key_bytes = 0;
  switch (key_type) {
    case MSPLIT_TYPE_U32: key_bytes = 4; break;
    case MSPLIT_TYPE_U64: key_bytes = 8; break;
    default:
      return set_error(MSPLIT_ERROR_UNSUPPORTED, "%s: key type %d is not supported (u32 or u64)", FN, int(key_type));
  }
  return msplit::detail::records_sort_run(FN, d_temp, temp_bytes, d_records_in, d_records_out, d_permutation, n,
                                          record_bytes, key_offset, key_bytes, static_cast<cudaStream_t>(stream));
}
