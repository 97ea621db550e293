// The host side of the device-side error record (msplit/core.h): reading it back after a call
// (msplit_check_sync) and turning it into a status with its message.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>

#include "msplit/core.h"
#include "msplit/lsm.h"
#include "status_impl.cuh"

namespace {

const char *primitive_name(uint32_t p) {
  switch (p) {
    case MSPLIT_PRIMITIVE_MULTISPLIT: return "multisplit";
    case MSPLIT_PRIMITIVE_HISTOGRAM: return "histogram";
    case MSPLIT_PRIMITIVE_RADIX_SORT: return "radix_sort";
    case MSPLIT_PRIMITIVE_SEGMENTED_SORT: return "segmented_sort";
    case MSPLIT_PRIMITIVE_SLAB_HASH: return "slab_hash";
    case MSPLIT_PRIMITIVE_RECORDS: return "records";
    case MSPLIT_PRIMITIVE_LSM: return "lsm";
    case MSPLIT_PRIMITIVE_RANGE_TREE: return "range_tree";
    default: return "kernel";
  }
}

// A level's bits (the record keeps them as raw bits, widened) printed as its type.
void format_level(char *out, size_t size, uint64_t bits, uint32_t type) {
  switch (type) {
    case MSPLIT_TYPE_F32: {
      float f;
      const uint32_t b = uint32_t(bits);
      std::memcpy(&f, &b, sizeof f);
      std::snprintf(out, size, "%g", double(f));
      return;
    }
    case MSPLIT_TYPE_F64: {
      double d;
      std::memcpy(&d, &bits, sizeof d);
      std::snprintf(out, size, "%g", d);
      return;
    }
    case MSPLIT_TYPE_I32:
    case MSPLIT_TYPE_I64: std::snprintf(out, size, "%lld", (long long)bits); return;
    default: std::snprintf(out, size, "%llu", (unsigned long long)bits); return;
  }
}

}  // namespace

extern "C" msplit_status msplit_error_record_status(const msplit_error_record *r) {
  using msplit::detail::set_error;
  if (!r) return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "msplit_error_record_status: record is NULL");
  const msplit_status code = msplit_status(r->code);
  if (code == MSPLIT_SUCCESS) return MSPLIT_SUCCESS;
  const char *who = primitive_name(r->primitive);
  const unsigned long long *d = reinterpret_cast<const unsigned long long *>(r->detail);
  switch (r->site) {
    case MSPLIT_SITE_LOOKBACK:
      return set_error(code, "msplit: %s: block %u gave up waiting at the look-back after %.3f s (tile %llu waited for tile %llu)",
                       who, r->block, double(d[2]) * 1e-9, d[0], d[1]);
    case MSPLIT_SITE_GRID_BARRIER:
      return set_error(code, "msplit: %s: block %u gave up waiting at a grid barrier after %.3f s (%llu arrivals of %llu)",
                       who, r->block, double(d[2]) * 1e-9, d[0], d[1]);
    case MSPLIT_SITE_SEGMENT_OFFSETS:
      if (d[1] > d[2])
        return set_error(code,
                         "segmented_sort: segment %llu is out of order: d_begin_offsets[%llu] = %llu > d_end_offsets[%llu] = %llu",
                         d[0], d[0], d[1], d[0], d[2]);
      if (d[2] > d[3])
        return set_error(code, "segmented_sort: segment %llu is beyond n: d_end_offsets[%llu] = %llu > n = %llu", d[0],
                         d[0], d[2], d[3]);
      return set_error(code,
                       "segmented_sort: segment %llu = [%llu, %llu) overlaps other segments (the segments hold more "
                       "than n = %llu items)",
                       d[0], d[1], d[2], d[3]);
    case MSPLIT_SITE_HISTOGRAM_LEVELS: {
      char lo[48], hi[48];
      format_level(lo, sizeof lo, d[1], uint32_t(d[3]));
      format_level(hi, sizeof hi, d[2], uint32_t(d[3]));
      return set_error(code, "histogram: d_levels is not sorted: d_levels[%llu] = %s, d_levels[%llu] = %s", d[0], lo,
                       d[0] + 1, hi);
    }
    case MSPLIT_SITE_HASH_CHAIN:
      return set_error(code, "msplit: slab_hash: %llu operation(s) gave up; the first walked %llu slabs of bucket "
                       "%llu's chain, more than the table holds (a cycle: the table is corrupted)", d[2], d[1], d[0]);
    case MSPLIT_SITE_HASH_RETRY:
      return set_error(code, "msplit: slab_hash: %llu operation(s) gave up; the first lost %llu compare-and-swaps in "
                       "bucket %llu's chain or the pool, more than contention allows (the table is corrupted)",
                       d[2], d[1], d[0]);
    case MSPLIT_SITE_RECORD_INDEX:
      return set_error(code, "msplit: %s: d_indexes[%llu] = %llu is out of range: the %s array holds %llu records",
                       d[3] ? "scatter_records" : "gather_records", d[0], d[1], d[3] ? "output" : "input", d[2]);
    case MSPLIT_SITE_BUCKET_ID:
      return set_error(code, "msplit: split_records: the bucket of record %llu is %llu, not below num_buckets = %llu",
                       d[0], d[1], d[2]);
    case MSPLIT_SITE_LSM_UPDATE:
      if (d[1] > MSPLIT_LSM_DELETE)
        return set_error(code, "msplit: lsm_update: d_ops[%llu] = %llu is not an msplit_lsm_op (stored as a delete)",
                         d[0], d[1]);
      return set_error(code, "msplit: lsm_update: entry %llu inserts the reserved value %#llx (stored as a delete)",
                       d[0], d[2]);
    case MSPLIT_SITE_LSM_RANGE_SLICE:
      return set_error(code, "msplit: lsm_range: query %llu has %llu entries but its slice of the output holds %llu "
                       "(offsets not from lsm_count of the same queries and structure?)", d[0], d[1], d[2]);
    case MSPLIT_SITE_RANGE_TREE_SLICE:
      return set_error(code, "msplit: range_tree: query %llu has %llu points but its slice of the output holds %llu "
                       "(offsets not from the count call of the same queries and tree?)", d[0], d[1], d[2]);
    default:
      return set_error(code, "msplit: %s: block %u recorded %s at site %u", who, r->block, msplit_status_string(code),
                       r->site);
  }
}

extern "C" msplit_status msplit_check_sync(const void *d_temp, size_t temp_bytes, void *stream) {
  using msplit::detail::set_error;
  if (!d_temp) return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "msplit_check_sync: d_temp is NULL");
  if (temp_bytes < sizeof(msplit_error_record))
    return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "msplit_check_sync: temp_bytes is %zu (the record alone is %zu)",
                     temp_bytes, sizeof(msplit_error_record));
  const cudaStream_t s = static_cast<cudaStream_t>(stream);
  msplit_error_record r;
  MSPLIT_CUDA_TRY(cudaMemcpyAsync(&r, d_temp, sizeof r, cudaMemcpyDeviceToHost, s));
  MSPLIT_CUDA_TRY(cudaStreamSynchronize(s));
  return msplit_error_record_status(&r);
}
