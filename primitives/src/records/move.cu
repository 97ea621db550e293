// Gather and scatter of records: argument checks, then one launch of the collective move kernel
// (msplit/detail/records/move.cuh) at the widest vector width the record size and the two arrays'
// alignment allow. Four kernels (V = 16, 8, 4, 1 bytes) serve every record size.
#include "msplit/detail/records/dispatch.h"
#include "msplit/detail/records/move.cuh"
#include "msplit/detail/util.cuh"
#include "records_impl.h"

namespace msplit {
namespace detail {

msplit_status records_check_sizes(const char *fn, size_t n, size_t record_bytes) {
  if (record_bytes < RECORDS_MIN_BYTES || record_bytes > RECORDS_MAX_BYTES)
    return set_error(MSPLIT_ERROR_UNSUPPORTED, "%s: record_bytes is %zu (records of %zu to %zu bytes are supported)",
                     fn, record_bytes, RECORDS_MIN_BYTES, RECORDS_MAX_BYTES);
  if (n > UINT32_MAX)
    return set_error(MSPLIT_ERROR_UNSUPPORTED, "%s: n is %zu (positions and indexes are 32-bit: at most %u records)",
                     fn, n, UINT32_MAX);
  return MSPLIT_SUCCESS;
}

int records_move_width(const void *in, const void *out, size_t record_bytes) {
  const uintptr_t bits = reinterpret_cast<uintptr_t>(in) | reinterpret_cast<uintptr_t>(out) | record_bytes;
  for (int v : {16, 8, 4})
    if (bits % uintptr_t(v) == 0) return v;
  return 1;
}

namespace {

template <int V>
msplit_status launch(records_move_args a, cudaStream_t stream) {
  const uint32_t grid = (a.n + a.tile_records - 1) / a.tile_records;
  records_move_kernel<V><<<grid, tuning::RECORDS_MOVE_THREADS, 0, stream>>>(a);
  MSPLIT_LAUNCH_CHECK();
  return MSPLIT_SUCCESS;
}

}  // namespace

msplit_status records_move_launch(const void *in, const uint32_t *index, void *out, size_t n, size_t bound,
                                  size_t record_bytes, bool scatter, bool stop_on_error, error_record *record,
                                  cudaStream_t stream) {
  if (n == 0) return MSPLIT_SUCCESS;
  const int v = records_move_width(in, out, record_bytes);
  records_move_args a{};
  a.in = in;
  a.out = out;
  a.index = index;
  a.n = uint32_t(n);
  a.bound = bound;
  a.words = uint32_t(record_bytes / size_t(v));
  a.tile_records = tuning::RECORDS_TILE_WORDS > a.words ? tuning::RECORDS_TILE_WORDS / a.words : 1;
  a.per_record = fast_divider::make(a.words);
  a.scatter = scatter;
  a.stop_on_error = stop_on_error;
  a.record = record;
  switch (v) {
    case 16: return launch<16>(a, stream);
    case 8: return launch<8>(a, stream);
    case 4: return launch<4>(a, stream);
    default: return launch<1>(a, stream);
  }
}

msplit_status records_move_run(const char *fn, void *d_temp, size_t *temp_bytes, const void *in,
                               const uint32_t *index, void *out, size_t n, size_t bound, size_t record_bytes,
                               bool scatter, cudaStream_t stream) {
  // 1. check arguments (a size query answers before any pointer is looked at)
  if (!temp_bytes) return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: temp_bytes is NULL", fn);
  MSPLIT_TRY(records_check_sizes(fn, n, record_bytes));
  if (!d_temp) {
    *temp_bytes = RECORD_BYTES;  // the error record alone
    return MSPLIT_SUCCESS;
  }
  const size_t in_records = scatter ? n : bound, out_records = scatter ? bound : n;
  if (n > 0 && !index) return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: d_indexes is NULL with n = %zu", fn, n);
  if (n > 0 && !in) return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: d_records_in is NULL with n = %zu", fn, n);
  if (n > 0 && !out) return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: d_records_out is NULL with n = %zu", fn, n);
  if (n > 0 && ranges_overlap(in, in_records * record_bytes, out, out_records * record_bytes))
    return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: d_records_out overlaps d_records_in", fn);
  if (n > 0 && ranges_overlap(index, n * sizeof(uint32_t), out, out_records * record_bytes))
    return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: d_records_out overlaps d_indexes", fn);
  if (*temp_bytes < RECORD_BYTES)
    return set_error(MSPLIT_ERROR_TEMP_STORAGE, "%s: temp_bytes is %zu, %zu needed", fn, *temp_bytes, RECORD_BYTES);

  // 2. clear the error record, then move
  MSPLIT_TRY(clear_record(d_temp, stream));
  return records_move_launch(in, index, out, n, bound, record_bytes, scatter, false, temp_record(d_temp), stream);
}

}  // namespace detail
}  // namespace msplit
