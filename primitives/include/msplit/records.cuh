// msplit: split, gather, scatter and sort of records, CUDA C++ template API.
//
// A record is any trivially copyable type of 4 to 256 bytes (an edge with its attributes, a
// vertex record). As in Patidar and Narayanan, "Scalable Split and Gather Primitives for the GPU"
// (2009), records are moved by consecutive threads with one vector access of up to 16 bytes each,
// so a record is read and written in whole sectors whatever the order: by an index array (gather,
// scatter), by their buckets (a split into up to 256 buckets ranks each tile of records and writes
// them in runs of equal buckets; larger splits and the sort order (bucket or key, position) pairs
// first and then gather the records once). The kernels are compiled into msplit::msplit once for every record size (the size
// is a runtime value); only split_records_by's labelling kernel is compiled in the caller's code,
// for its functor. The C API of the same primitive, with the cost of each call and what bounds
// it, is msplit/records.h.
//
// Conventions (CUB's): two-phase temporary storage (with d_temp == NULL only *temp_bytes is
// written and no pointer is looked at), asynchronous on `stream`, no device allocation, no
// synchronisation, a status for every error (msplit_last_error_message() says what was wrong);
// an index or bucket id out of range is found on the device and reported by
// msplit::check_sync(d_temp, temp_bytes, stream) (msplit/error_record.cuh).
#pragma once

#include <cuda_runtime.h>
#include <stddef.h>
#include <stdint.h>

#include <type_traits>

#include "msplit/core.h"
#include "msplit/detail/error.cuh"
#include "msplit/detail/records/dispatch.h"
#include "msplit/detail/records/label.cuh"
#include "msplit/detail/util.cuh"
#include "msplit/error_record.cuh"

namespace msplit {

namespace detail {
template <typename Record>
constexpr void check_record_type() {
  static_assert(std::is_trivially_copyable_v<Record>, "records are moved as bytes: trivially copyable types only");
  static_assert(sizeof(Record) >= RECORDS_MIN_BYTES && sizeof(Record) <= RECORDS_MAX_BYTES,
                "records are 4 to 256 bytes");
}
}  // namespace detail

// Gather: out[i] = in[indexes[i]] for i < n. Parameters, storage (256 bytes), errors and the
// device-side index check are msplit_gather_records's (msplit/records.h).
template <typename Record>
msplit_status gather_records(void *d_temp, size_t *temp_bytes, const Record *d_records_in, const uint32_t *d_indexes,
                             Record *d_records_out, size_t n, size_t num_records_in, cudaStream_t stream = 0) {
  detail::check_record_type<Record>();
  return detail::records_move_run("gather_records", d_temp, temp_bytes, d_records_in, d_indexes, d_records_out, n,
                                  num_records_in, sizeof(Record), false, stream);
}

// Scatter: out[indexes[i]] = in[i] for i < n, as msplit_scatter_records.
template <typename Record>
msplit_status scatter_records(void *d_temp, size_t *temp_bytes, const Record *d_records_in, const uint32_t *d_indexes,
                              Record *d_records_out, size_t n, size_t num_records_out, cudaStream_t stream = 0) {
  detail::check_record_type<Record>();
  return detail::records_move_run("scatter_records", d_temp, temp_bytes, d_records_in, d_indexes, d_records_out, n,
                                  num_records_out, sizeof(Record), true, stream);
}

// Stable split by a bucket id per record, as msplit_split_records: d_records_out (the records in
// split order) and/or d_permutation (the input position of each output record), and the bucket
// offsets (NULL, or m + 1 entries).
template <typename Record>
msplit_status split_records(void *d_temp, size_t *temp_bytes, const Record *d_records_in, const uint32_t *d_bucket_ids,
                            Record *d_records_out, uint32_t *d_permutation, size_t n, uint32_t num_buckets,
                            size_t *d_bucket_offsets, cudaStream_t stream = 0) {
  detail::check_record_type<Record>();
  return detail::records_split_run("split_records", d_temp, temp_bytes, d_records_in, d_bucket_ids, d_records_out,
                                   d_permutation, n, sizeof(Record), num_buckets, d_bucket_offsets, stream);
}

// Stable split by a bucket functor of the record: bucket_op(const Record &) returns the bucket, a
// value below num_buckets (one at or beyond it is reported as split_records reports a bad id).
// The same outputs as split_records. Temporary storage: split_records's + 4 n bytes (the labels);
// the labelling reads every record once more (in whole sectors) before the split.
//
// Example (examples/records_split.cu, built and run by CTest, which checks what it prints):
//
//     struct by_source {  // bucket = the edge's source vertex
//       __device__ uint32_t operator()(const edge &e) const { return e.src; }
//     };
//     size_t temp_bytes = 0, sort_bytes = 0;
//     CHECK(msplit::split_records_by(nullptr, &temp_bytes, d_edges, d_out, d_perm, n, 5, by_source{}, d_offsets));
//     CHECK(msplit::sort_records<uint64_t>(nullptr, &sort_bytes, d_out, d_sorted, nullptr, n, offsetof(edge, stamp)));
//     if (sort_bytes > temp_bytes) temp_bytes = sort_bytes;  // one allocation for both calls
//     CHECK_CUDA(cudaMalloc(&d_temp, temp_bytes));
//     CHECK(msplit::split_records_by(d_temp, &temp_bytes, d_edges, d_out, d_perm, n, 5, by_source{}, d_offsets,
//                                    stream));
//     CHECK(msplit::sort_records<uint64_t>(d_temp, &temp_bytes, d_out, d_sorted, nullptr, n, offsetof(edge, stamp),
//                                          stream));
//
// prints (edges are (src,dst,weight), the stamps 40 20 60 5 10 30 not shown; then edge 3's source
// becomes 7)
//
//     by source: (0,3,0.5) | (1,2,1.5) (1,0,2.5) | | (3,4,3) (3,1,1) | (4,4,2)
//     perm:      2 0 5 1 4 3
//     offsets:   0 1 3 3 5 6
//     by stamp:  (4,4,2) (3,1,1) (3,4,3) (1,0,2.5) (1,2,1.5) (0,3,0.5)
//     src 7 of 5 buckets: invalid argument: msplit: split_records: the bucket of record 3 is 7, not below num_buckets = 5
template <typename Record, typename BucketOp>
msplit_status split_records_by(void *d_temp, size_t *temp_bytes, const Record *d_records_in, Record *d_records_out,
                               uint32_t *d_permutation, size_t n, uint32_t num_buckets, BucketOp bucket_op,
                               size_t *d_bucket_offsets, cudaStream_t stream = 0) {
  detail::check_record_type<Record>();
  constexpr const char *FN = "split_records_by";
  constexpr int THREADS = tuning::RECORDS_ELEMENT_THREADS;
  // 1. the split's storage (a query), then the labels after it
  if (!temp_bytes) return detail::set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: temp_bytes is NULL", FN);
  size_t split_bytes = 0;
  MSPLIT_TRY(detail::records_split_run(FN, nullptr, &split_bytes, nullptr, nullptr, nullptr, nullptr, n,
                                       sizeof(Record), num_buckets, nullptr, stream));
  split_bytes = detail::align_up(split_bytes, detail::TEMP_ALIGN);
  const size_t total = split_bytes + n * sizeof(uint32_t);
  if (!d_temp) {
    *temp_bytes = total;
    return MSPLIT_SUCCESS;
  }
  if (n > 0 && !d_records_in)
    return detail::set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: d_records_in is NULL with n = %zu", FN, n);
  if (*temp_bytes < total)
    return detail::set_error(MSPLIT_ERROR_TEMP_STORAGE, "%s: temp_bytes is %zu, %zu needed", FN, *temp_bytes, total);
  // 2. the labels, then the split by them (which checks the other arguments before it writes)
  uint32_t *labels = reinterpret_cast<uint32_t *>(static_cast<unsigned char *>(d_temp) + split_bytes);
  if (n > 0) {
    detail::records_label_kernel<<<unsigned((n + THREADS - 1) / THREADS), THREADS, 0, stream>>>(
        d_records_in, labels, uint32_t(n), bucket_op);
    MSPLIT_LAUNCH_CHECK();
  }
  return detail::records_split_run(FN, d_temp, &split_bytes, d_records_in, labels, d_records_out, d_permutation, n,
                                   sizeof(Record), num_buckets, d_bucket_offsets, stream);
}

// Stable sort of records by the unsigned Key (uint32_t or uint64_t) at key_offset in the record,
// ascending, as msplit_sort_records: d_records_out and/or d_permutation.
template <typename Key, typename Record>
msplit_status sort_records(void *d_temp, size_t *temp_bytes, const Record *d_records_in, Record *d_records_out,
                           uint32_t *d_permutation, size_t n, size_t key_offset, cudaStream_t stream = 0) {
  detail::check_record_type<Record>();
  static_assert(std::is_same_v<Key, uint32_t> || std::is_same_v<Key, uint64_t>, "keys are uint32_t or uint64_t");
  return detail::records_sort_run("sort_records", d_temp, temp_bytes, d_records_in, d_records_out, d_permutation, n,
                                  sizeof(Record), key_offset, sizeof(Key), stream);
}

}  // namespace msplit
