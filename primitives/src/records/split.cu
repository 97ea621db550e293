// Stable split of records by a bucket id per record (Patidar and Narayanan, "Scalable Split and
// Gather Primitives for the GPU", 2009, section 3), by one of two paths:
//   m <= RECORDS_SPLIT_MAX_BUCKETS: the tiled split (msplit/detail/records/split_tile.cuh): count,
//     scan, then each tile ranks its records and moves them itself, read in order and written in
//     runs of equal buckets; no gather, no pairs written.
//   larger m: msplit's multisplit of (bucket id, position) pairs with the identity bucket (its
//     storage first in ours, so that its error record is the call's), a check of the last bucket
//     (where the multisplit puts every id at or beyond m), then the collective gather of the
//     records by the permutation (move.cu), which moves nothing if an id was out of range.
//
// Temporary storage after the error record: tiled, m x ceil(n / tile) x 4 bytes of counts and
// m x 4 of row totals; otherwise the multisplit's storage (msplit_multisplit of U32 keys and U32
// values), positions n x 4, sorted bucket ids n x 4, and the permutation n x 4 and the offsets
// (m + 1) x 8 where the caller passes none.
#include "msplit/detail/records/dispatch.h"
#include "msplit/detail/records/split_tile.cuh"
#include "msplit/detail/records/tuning.h"
#include "msplit/detail/util.cuh"
#include "msplit/multisplit.h"
#include "records_impl.h"

namespace msplit {
namespace detail {
namespace {

constexpr int THREADS = tuning::RECORDS_ELEMENT_THREADS;

__global__ void __launch_bounds__(THREADS) positions_kernel(uint32_t *positions, uint32_t n) {
  const uint32_t i = blockIdx.x * THREADS + threadIdx.x;
  if (i < n) positions[i] = i;
}

// Ids at or beyond m are all in the last bucket, [offsets[m - 1], n), each with its input
// position: the first one found is recorded.
__global__ void __launch_bounds__(THREADS) check_last_bucket_kernel(const uint32_t *sorted_ids, const uint32_t *perm,
                                                                    const size_t *offsets, uint32_t n, uint32_t m,
                                                                    error_record *record) {
  const size_t stride = size_t(gridDim.x) * THREADS;
  for (size_t j = offsets[m - 1] + size_t(blockIdx.x) * THREADS + threadIdx.x; j < n; j += stride) {
    const uint32_t id = sorted_ids[j];
    if (id >= m) {
      record_error(record, MSPLIT_ERROR_INVALID_ARGUMENT, MSPLIT_PRIMITIVE_RECORDS, MSPLIT_SITE_BUCKET_ID, perm[j],
                   id, m);
      return;
    }
  }
}

// Pieces of temporary storage (off[0] is the error record's or the multisplit's storage).
//   tiled:      1 counts (m x tiles x 4), 2 row totals (m x 4)
//   multisplit: 1 positions, 2 sorted ids, 3 permutation, 4 offsets
struct split_plan {
  bool tiled;
  uint32_t tiles;
  size_t off[5];
  size_t total;
};

// msplit's multisplit of (bucket id, position) pairs by the identity bucket (ids at or beyond m go
// to bucket m - 1); with temp == NULL, its size query.
msplit_status split_pairs(const char *fn, void *temp, size_t *bytes, const uint32_t *ids, uint32_t *sorted_ids,
                          const uint32_t *positions, uint32_t *perm, size_t n, uint32_t m, size_t *offsets,
                          cudaStream_t stream) {
  msplit_bucket_desc identity{};
  identity.kind = MSPLIT_BUCKET_IDENTITY;
  const msplit_status st = msplit_multisplit(temp, bytes, ids, sorted_ids, positions, perm, n, m, identity, offsets,
                                             MSPLIT_TYPE_U32, MSPLIT_TYPE_U32, MSPLIT_VARIANT_AUTO, stream);
  if (st != MSPLIT_SUCCESS)
    return set_error(st, "%s: the multisplit of the bucket ids: %s", fn, msplit_last_error_message());
  return MSPLIT_SUCCESS;
}

msplit_status plan_split(const char *fn, size_t n, uint32_t m, bool own_perm, bool own_offsets, split_plan &p) {
  p.tiled = m <= SPLIT_MAX_BUCKETS;
  p.tiles = uint32_t((n + SPLIT_TILE - 1) / SPLIT_TILE);
  if (p.tiled) {
    const size_t sizes[3] = {RECORD_BYTES, size_t(m) * p.tiles * sizeof(uint32_t), size_t(m) * sizeof(uint32_t)};
    p.total = records_place(sizes, 3, p.off);
    return MSPLIT_SUCCESS;
  }
  size_t multisplit_bytes = 0;
  MSPLIT_TRY(split_pairs(fn, nullptr, &multisplit_bytes, nullptr, nullptr, nullptr, nullptr, n, m, nullptr, nullptr));
  const size_t sizes[5] = {multisplit_bytes, n * sizeof(uint32_t), n * sizeof(uint32_t),
                           own_perm ? n * sizeof(uint32_t) : 0,
                           own_offsets ? (size_t(m) + 1) * sizeof(size_t) : 0};
  p.total = records_place(sizes, 5, p.off);
  return MSPLIT_SUCCESS;
}

template <int V>
msplit_status launch_scatter(const split_tile_args &a, cudaStream_t stream) {
  split_scatter_kernel<V><<<a.tiles, SPLIT_THREADS, 0, stream>>>(a);
  MSPLIT_LAUNCH_CHECK();
  return MSPLIT_SUCCESS;
}

msplit_status split_tiled(const split_plan &plan, unsigned char *temp, const void *in, const uint32_t *bucket_ids,
                          void *out, uint32_t *perm, size_t n, size_t record_bytes, uint32_t m,
                          size_t *bucket_offsets, cudaStream_t stream) {
  const int v = out ? records_move_width(in, out, record_bytes) : 1;
  split_tile_args a{};
  a.in = in;
  a.ids = bucket_ids;
  a.out = out;
  a.perm = perm;
  a.offsets = bucket_offsets;
  a.counts = reinterpret_cast<uint32_t *>(temp + plan.off[1]);
  a.row_totals = reinterpret_cast<uint32_t *>(temp + plan.off[2]);
  a.n = uint32_t(n);
  a.m = m;
  a.tiles = plan.tiles;
  a.words = uint32_t(record_bytes / size_t(v));
  a.per_record = fast_divider::make(a.words);
  a.record = temp_record(temp);
  MSPLIT_TRY(clear_record(temp, stream));
  split_count_kernel<<<a.tiles, SPLIT_THREADS, 0, stream>>>(a);
  MSPLIT_LAUNCH_CHECK();
  split_row_scan_kernel<<<m, SPLIT_THREADS, 0, stream>>>(a);
  MSPLIT_LAUNCH_CHECK();
  switch (v) {
    case 16: return launch_scatter<16>(a, stream);
    case 8: return launch_scatter<8>(a, stream);
    case 4: return launch_scatter<4>(a, stream);
    default: return launch_scatter<1>(a, stream);
  }
}

msplit_status split_by_multisplit(const char *fn, const split_plan &plan, unsigned char *temp, const void *in,
                                  const uint32_t *bucket_ids, void *out, uint32_t *perm, size_t n,
                                  size_t record_bytes, uint32_t m, size_t *bucket_offsets, cudaStream_t stream) {
  // 1. the positions, split by bucket id (the multisplit clears the error record)
  uint32_t *positions = reinterpret_cast<uint32_t *>(temp + plan.off[1]);
  uint32_t *sorted_ids = reinterpret_cast<uint32_t *>(temp + plan.off[2]);
  uint32_t *p = perm ? perm : reinterpret_cast<uint32_t *>(temp + plan.off[3]);
  size_t *offsets = bucket_offsets ? bucket_offsets : reinterpret_cast<size_t *>(temp + plan.off[4]);
  positions_kernel<<<unsigned((n + THREADS - 1) / THREADS), THREADS, 0, stream>>>(positions, uint32_t(n));
  MSPLIT_LAUNCH_CHECK();
  size_t multisplit_bytes = plan.off[1];
  MSPLIT_TRY(split_pairs(fn, temp, &multisplit_bytes, bucket_ids, sorted_ids, positions, p, n, m, offsets, stream));

  // 2. ids out of range, found in the last bucket
  int device = 0, sms = 1;
  MSPLIT_CUDA_TRY(cudaGetDevice(&device));
  MSPLIT_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  const size_t blocks = (n + THREADS - 1) / THREADS, max_blocks = size_t(sms) * 4;
  check_last_bucket_kernel<<<unsigned(blocks < max_blocks ? blocks : max_blocks), THREADS, 0, stream>>>(
      sorted_ids, p, offsets, uint32_t(n), m, temp_record(temp));
  MSPLIT_LAUNCH_CHECK();

  // 3. the records, gathered by the permutation
  if (!out) return MSPLIT_SUCCESS;
  return records_move_launch(in, p, out, n, n, record_bytes, false, true, temp_record(temp), stream);
}

}  // namespace

msplit_status records_split_run(const char *fn, void *d_temp, size_t *temp_bytes, const void *in,
                                const uint32_t *bucket_ids, void *out, uint32_t *perm, size_t n,
                                size_t record_bytes, uint32_t num_buckets, size_t *bucket_offsets,
                                cudaStream_t stream) {
  // 1. check arguments (a size query answers before any data pointer is looked at; its size
  // assumes the call passes neither a permutation nor offsets, the most it can need)
  if (!temp_bytes) return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: temp_bytes is NULL", fn);
  MSPLIT_TRY(records_check_sizes(fn, n, record_bytes));
  if (num_buckets == 0) return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: num_buckets is 0 (need at least 1)", fn);
  split_plan plan{};
  MSPLIT_TRY(plan_split(fn, n, num_buckets, !d_temp || !perm, !d_temp || !bucket_offsets, plan));
  if (!d_temp) {
    *temp_bytes = plan.total;
    return MSPLIT_SUCCESS;
  }
  const size_t rb = n * record_bytes, ib = n * sizeof(uint32_t);
  if (!out && !perm)
    return set_error(MSPLIT_ERROR_INVALID_ARGUMENT,
                     "%s: d_records_out and d_permutation are both NULL (nothing to write)", fn);
  if (n > 0 && !bucket_ids)
    return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: d_bucket_ids is NULL with n = %zu", fn, n);
  if (n > 0 && out && !in)
    return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: d_records_in is NULL with n = %zu and d_records_out given",
                     fn, n);
  if (n > 0 && out &&
      (ranges_overlap(in, rb, out, rb) || ranges_overlap(bucket_ids, ib, out, rb) || ranges_overlap(perm, ib, out, rb)))
    return set_error(MSPLIT_ERROR_INVALID_ARGUMENT,
                     "%s: d_records_out overlaps d_records_in, d_bucket_ids or d_permutation", fn);
  if (n > 0 && perm && (ranges_overlap(bucket_ids, ib, perm, ib) || (in && ranges_overlap(in, rb, perm, ib))))
    return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: d_permutation overlaps d_bucket_ids or d_records_in", fn);
  if (*temp_bytes < plan.total)
    return set_error(MSPLIT_ERROR_TEMP_STORAGE, "%s: temp_bytes is %zu, %zu needed", fn, *temp_bytes, plan.total);
  unsigned char *temp = static_cast<unsigned char *>(d_temp);
  if (n == 0) {
    if (bucket_offsets)
      MSPLIT_CUDA_TRY(cudaMemsetAsync(bucket_offsets, 0, (size_t(num_buckets) + 1) * sizeof(size_t), stream));
    return clear_record(d_temp, stream);
  }

  // 2. split
  if (plan.tiled)
    return split_tiled(plan, temp, in, bucket_ids, out, perm, n, record_bytes, num_buckets, bucket_offsets, stream);
  return split_by_multisplit(fn, plan, temp, in, bucket_ids, out, perm, n, record_bytes, num_buckets, bucket_offsets,
                             stream);
}

}  // namespace detail
}  // namespace msplit
