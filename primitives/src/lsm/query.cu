// The GPU LSM's queries: lookup, count and range (msplit/detail/lsm/query.cuh has the searches
// and the walk over the levels). A count writes each query's number of live keys and, if asked,
// their exclusive scan (the slices of a range call's output); a range walks again and writes each
// query's entries into its slice.
//
// Temporary storage: lookup takes none; count the error record, n counts (used when the caller
// passes none) and the scan's tile sums; range the error record.
#include "lsm_impl.h"
#include "msplit/detail/lsm/query.cuh"
#include "msplit/detail/lsm/tuning.h"

namespace msplit {
namespace detail {
namespace {

constexpr int THREADS = tuning::LSM_THREADS, ITEMS = tuning::LSM_QUERY_ITEMS;
constexpr uint64_t BLOCK_QUERIES = uint64_t(THREADS) * ITEMS;

// Runs answer(i) for this thread's queries below n, after the block has loaded the fences.
template <typename K, typename V, typename Answer>
__device__ __forceinline__ void lsm_for_queries(const lsm_view<K, V> &s, lsm_fences<K> &f, uint64_t n, Answer answer) {
  lsm_load_fences(s, f);
  for (int r = 0; r < ITEMS; ++r) {
    const uint64_t i = uint64_t(blockIdx.x) * BLOCK_QUERIES + uint64_t(r) * THREADS + threadIdx.x;
    if (i < n) answer(i);
  }
}

template <typename K, typename V>
__global__ void __launch_bounds__(THREADS)
    lsm_lookup_kernel(lsm_view<K, V> s, const K *keys, uint64_t n, V *values_out, uint8_t *found) {
  __shared__ lsm_fences<K> f;
  lsm_for_queries(s, f, n, [&](uint64_t i) {
    V v;
    const bool live = lsm_lookup_one(s, f, keys[i], &v);
    if (values_out) values_out[i] = v;
    if (found) found[i] = live;
  });
}

struct lsm_no_emit {
  template <typename K, typename V>
  __device__ void operator()(uint64_t, K, V) const {}
};

template <typename K, typename V>
__global__ void __launch_bounds__(THREADS)
    lsm_count_kernel(lsm_view<K, V> s, const K *lo, const K *hi, uint64_t n, uint32_t *counts) {
  __shared__ lsm_fences<K> f;
  lsm_for_queries(s, f, n, [&](uint64_t i) { counts[i] = uint32_t(lsm_walk<true>(s, f, lo[i], hi[i], lsm_no_emit{})); });
}

// Writes a query's entries into its slice, the ones beyond the slice dropped.
template <typename K, typename V>
struct lsm_slice_emit {
  K *keys;
  V *values;
  uint64_t at, room;
  __device__ void operator()(uint64_t j, K k, V v) const {
    if (j >= room) return;
    if (keys) keys[at + j] = k;
    if (values) values[at + j] = v;
  }
};

template <typename K, typename V>
__global__ void __launch_bounds__(THREADS)
    lsm_range_kernel(lsm_view<K, V> s, const K *lo, const K *hi, uint64_t n, const uint64_t *offsets, K *keys_out,
                     V *values_out, error_record *record) {
  __shared__ lsm_fences<K> f;
  lsm_for_queries(s, f, n, [&](uint64_t i) {
    const uint64_t at = offsets[i], end = offsets[i + 1];
    const uint64_t room = end > at ? end - at : 0;
    const uint64_t got = lsm_walk<false>(s, f, lo[i], hi[i], lsm_slice_emit<K, V>{keys_out, values_out, at, room});
    if (got > room)
      record_error(record, MSPLIT_ERROR_INVALID_ARGUMENT, MSPLIT_PRIMITIVE_LSM, MSPLIT_SITE_LSM_RANGE_SLICE, i, got,
                   room);
  });
}

struct lsm_count_of {
  const uint32_t *counts;
  __device__ uint64_t operator()(uint64_t i) const { return counts[i]; }
};
struct lsm_offset_to {
  uint64_t *offsets;
  __device__ void operator()(uint64_t i, uint64_t at, uint64_t) const { offsets[i] = at; }
};

// Shared checks of count and range: the handle, and the query arrays.
template <typename K, typename V>
msplit_status lsm_check_queries(const char *fn, const msplit_lsm *h, const K *lo, const K *hi, size_t n) {
  MSPLIT_TRY((lsm_check_handle<K, V>(fn, h, true)));
  if (n > 0 && (!lo || !hi))
    return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: %s is NULL with n = %zu", fn, lo ? "d_hi" : "d_lo", n);
  return MSPLIT_SUCCESS;
}

}  // namespace

template <typename K, typename V>
msplit_status lsm_lookup_run(const char *fn, const msplit_lsm *h, const K *keys, size_t n, V *values_out,
                             uint8_t *found, cudaStream_t stream) {
  MSPLIT_TRY((lsm_check_handle<K, V>(fn, h, true)));
  if (n == 0) return MSPLIT_SUCCESS;
  if (!keys) return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: d_keys is NULL with n = %zu", fn, n);
  if (!values_out && !found)
    return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: d_values_out and d_found are both NULL", fn);
  lsm_lookup_kernel<K, V><<<lsm_blocks(n, int(BLOCK_QUERIES)), THREADS, 0, stream>>>(make_lsm_view<K, V>(*h), keys, n,
                                                                         values_out, found);
  MSPLIT_LAUNCH_CHECK();
  return MSPLIT_SUCCESS;
}

template <typename K, typename V>
msplit_status lsm_count_run(const char *fn, void *d_temp, size_t *temp_bytes, const msplit_lsm *h, const K *lo,
                            const K *hi, size_t n, uint32_t *counts, uint64_t *offsets, cudaStream_t stream) {
  // 1. check arguments; lay out the temporary storage
  if (!temp_bytes) return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: temp_bytes is NULL", fn);
  lsm_temp t;
  const size_t o_counts = t.add(n * sizeof(uint32_t)), o_tiles = t.add(lsm_scan_tiles(n) * sizeof(uint64_t));
  if (!d_temp) {
    *temp_bytes = t.total;
    return MSPLIT_SUCCESS;
  }
  MSPLIT_TRY(lsm_check_temp(fn, *temp_bytes, t.total));
  MSPLIT_TRY((lsm_check_queries<K, V>(fn, h, lo, hi, n)));
  if (!counts && !offsets)
    return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: d_counts and d_offsets are both NULL", fn);
  MSPLIT_TRY(clear_record(d_temp, stream));
  unsigned char *temp = static_cast<unsigned char *>(d_temp);
  uint32_t *c = counts ? counts : reinterpret_cast<uint32_t *>(temp + o_counts);
  // 2. the counts; 3. their scan (the total at offsets[n])
  if (n > 0) {
    lsm_count_kernel<K, V><<<lsm_blocks(n, int(BLOCK_QUERIES)), THREADS, 0, stream>>>(make_lsm_view<K, V>(*h), lo, hi, n, c);
    MSPLIT_LAUNCH_CHECK();
  }
  if (!offsets) return MSPLIT_SUCCESS;
  if (n == 0) {  // the total alone, without a launch
    MSPLIT_CUDA_TRY(cudaMemsetAsync(offsets, 0, sizeof(uint64_t), stream));
    return MSPLIT_SUCCESS;
  }
  return lsm_scan_launch(lsm_count_of{c}, lsm_offset_to{offsets}, lsm_length{n, nullptr}, n,
                         reinterpret_cast<uint64_t *>(temp + o_tiles), offsets + n, stream);
}

template <typename K, typename V>
msplit_status lsm_range_run(const char *fn, void *d_temp, size_t *temp_bytes, const msplit_lsm *h, const K *lo,
                            const K *hi, size_t n, const uint64_t *offsets, K *keys_out, V *values_out,
                            cudaStream_t stream) {
  if (!temp_bytes) return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: temp_bytes is NULL", fn);
  if (!d_temp) {
    *temp_bytes = RECORD_BYTES;
    return MSPLIT_SUCCESS;
  }
  MSPLIT_TRY(lsm_check_temp(fn, *temp_bytes, RECORD_BYTES));
  MSPLIT_TRY((lsm_check_queries<K, V>(fn, h, lo, hi, n)));
  if (n > 0 && !offsets) return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: d_offsets is NULL with n = %zu", fn, n);
  if (n > 0 && !keys_out && !values_out)
    return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: d_keys_out and d_values_out are both NULL", fn);
  MSPLIT_TRY(clear_record(d_temp, stream));
  if (n == 0) return MSPLIT_SUCCESS;
  lsm_range_kernel<K, V><<<lsm_blocks(n, int(BLOCK_QUERIES)), THREADS, 0, stream>>>(make_lsm_view<K, V>(*h), lo, hi, n, offsets,
                                                                        keys_out, values_out, temp_record(d_temp));
  MSPLIT_LAUNCH_CHECK();
  return MSPLIT_SUCCESS;
}

#define MSPLIT_LSM_QUERY_INST(K, V, KT, VT)                                                                        \
  template msplit_status lsm_lookup_run<K, V>(const char *, const msplit_lsm *, const K *, size_t, V *, uint8_t *,   \
                                              cudaStream_t);                                                       \
  template msplit_status lsm_count_run<K, V>(const char *, void *, size_t *, const msplit_lsm *, const K *,         \
                                             const K *, size_t, uint32_t *, uint64_t *, cudaStream_t);             \
  template msplit_status lsm_range_run<K, V>(const char *, void *, size_t *, const msplit_lsm *, const K *,         \
                                             const K *, size_t, const uint64_t *, K *, V *, cudaStream_t);
MSPLIT_LSM_TYPE_PAIRS(MSPLIT_LSM_QUERY_INST)

}  // namespace detail
}  // namespace msplit
