/* msplit C API: split, gather, scatter and sort of records.
 *
 * Records are fixed-size byte strings of 4 to 256 bytes (any size in that range, a multiple of 4
 * or not): edges with several attributes, vertex records. Patidar and Narayanan, "Scalable Split
 * and Gather Primitives for the GPU" (2009): records are moved collectively, consecutive threads
 * moving one record with one vector access of up to 16 bytes each (the widest that the record
 * size and both arrays' alignment allow), so a record's bytes are read and written in whole
 * sectors whatever the order. The CUDA C++ API of the same primitive, with record types and
 * bucket functors, is msplit/records.cuh.
 *
 * Cost and bound (R bytes per record):
 *   gather/scatter  4 + 2 R bytes per record (index, record read, record written), at the copy
 *                   bandwidth when R is a multiple of 32; a random access to a record under 32
 *                   bytes still costs a whole 32-byte sector (16-byte records: at most half).
 *   split, m <= 256 each tile of 2,048 records counts its bucket ids, then ranks its records
 *                   stably and writes them itself, read in order and written in runs of equal
 *                   buckets: 8 + 2 R bytes per record (4 more with the permutation), no gather.
 *   split, m > 256  msplit's multisplit of (bucket id, position) pairs, then a gather of the
 *                   records: about 28 + 2 R bytes per record.
 *   sort            the keys and positions copied out, msplit's radix sort of (key, position)
 *                   pairs (8 or 12 bytes a pass), then a gather of the records.
 * Indexes and positions are 32-bit: n is at most 2^32 - 1.
 *
 * Example (examples/records_c.c, built and run by CTest, which checks what it prints):
 *
 *     size_t temp_bytes = 0, sort_bytes = 0;
 *     CHECK(msplit_split_records(NULL, &temp_bytes, d_records, d_buckets, d_out, d_perm, n, sizeof(edge), 3,
 *                                d_offsets, NULL));
 *     CHECK(msplit_sort_records(NULL, &sort_bytes, d_records, d_out, NULL, n, sizeof(edge), offsetof(edge, weight),
 *                               MSPLIT_TYPE_U32, NULL));
 *     if (sort_bytes > temp_bytes) temp_bytes = sort_bytes;
 *     CHECK_CUDA(cudaMalloc(&d_temp, temp_bytes));
 *     CHECK(msplit_split_records(d_temp, &temp_bytes, d_records, d_buckets, d_out, d_perm, n, sizeof(edge), 3,
 *                                d_offsets, NULL));
 *     CHECK(msplit_sort_records(d_temp, &temp_bytes, d_records, d_out, NULL, n, sizeof(edge),
 *                               offsetof(edge, weight), MSPLIT_TYPE_U32, NULL));
 *     CHECK(msplit_gather_records(d_temp, &temp_bytes, d_records, d_idx, d_out, 3, n, sizeof(edge), NULL));
 *
 * prints (edges are (src,dst,weight); the buckets are 2 0 1 0 1 0 2, the indexes 6 0 6, then 6 9 0)
 *
 *     split:   (4,1,40) (0,3,30) (2,5,10) | (1,2,70) (4,4,20) | (3,0,50) (3,6,60)
 *     perm:    1 3 5 2 4 0 6
 *     offsets: 0 3 5 7
 *     sorted:  (2,5,10) (4,4,20) (0,3,30) (4,1,40) (3,0,50) (3,6,60) (1,2,70)
 *     gather:  (3,6,60) (3,0,50) (3,6,60)
 *     bad index: invalid argument: msplit: gather_records: d_indexes[1] = 9 is out of range: the input array holds 7 records
 */
#ifndef MSPLIT_RECORDS_H
#define MSPLIT_RECORDS_H

#include "msplit/core.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Gather: d_records_out[i] = d_records_in[d_indexes[i]] for i < n (record_bytes each).
 *
 * [in]  d_temp, temp_bytes  temporary storage: with d_temp == NULL only *temp_bytes is written
 *                           (nothing runs, no pointer is looked at); it is 256 bytes, the error
 *                           record (msplit/core.h)
 * [in]  d_records_in        num_records_in records (device)
 * [in]  d_indexes           n indexes below num_records_in (device)
 * [out] d_records_out       n records (device); must not overlap d_records_in or d_indexes
 * [in]  n                   records to gather; 0 is fine; at most 2^32 - 1
 * [in]  num_records_in      the records of d_records_in
 * [in]  record_bytes        4 to 256
 * [in]  stream              a cudaStream_t, or NULL for the default stream
 *
 * Synchronisation: none. Errors: MSPLIT_ERROR_INVALID_ARGUMENT (temp_bytes NULL, a NULL pointer
 * with n > 0, overlapping buffers), MSPLIT_ERROR_TEMP_STORAGE, MSPLIT_ERROR_UNSUPPORTED (a record
 * size outside 4..256, n >= 2^32), MSPLIT_ERROR_CUDA. On the device: an index at or beyond
 * num_records_in is recorded (msplit_check_sync returns MSPLIT_ERROR_INVALID_ARGUMENT and names
 * the first one found); its output record is not written, the others are. */
msplit_status msplit_gather_records(void *d_temp, size_t *temp_bytes, const void *d_records_in,
                                    const uint32_t *d_indexes, void *d_records_out, size_t n, size_t num_records_in,
                                    size_t record_bytes, void *stream /* cudaStream_t */);

/* Scatter: d_records_out[d_indexes[i]] = d_records_in[i] for i < n. As msplit_gather_records,
 * with the indexes below num_records_out (the records of d_records_out) and d_records_out not
 * overlapping d_records_in or d_indexes. Where two indexes are equal, one of their records is
 * written, which one is not specified; output records that no index names are left as they are.
 * An index out of range is recorded and its record not written. */
msplit_status msplit_scatter_records(void *d_temp, size_t *temp_bytes, const void *d_records_in,
                                     const uint32_t *d_indexes, void *d_records_out, size_t n, size_t num_records_out,
                                     size_t record_bytes, void *stream /* cudaStream_t */);

/* Stable split of n records into num_buckets contiguous buckets, in bucket order, by a bucket id
 * per record; within a bucket the input order is kept.
 *
 * [in]  d_temp, temp_bytes  temporary storage: with d_temp == NULL only *temp_bytes is written
 *                           (no pointer is looked at): for m <= 256, 256 bytes (the error
 *                           record) + 4 m bytes per 2,048 records + 4 m; for larger m, msplit's
 *                           multisplit storage for n U32 pairs and m buckets (which asks CUB's
 *                           size query: a CUDA device is needed) + 12 n + 8 (m + 1) bytes.
 *                           The size asked for is enough whichever outputs are given.
 * [in]  d_records_in        n records (device); may be NULL if d_records_out is
 * [in]  d_bucket_ids        n bucket ids below num_buckets (device)
 * [out] d_records_out       NULL, or n records (device): the records in split order
 * [out] d_permutation       NULL, or n uint32_t (device): the input position of each output
 *                           record (the index form); at least one of the two outputs is given
 * [in]  n                   0 is fine; at most 2^32 - 1
 * [in]  record_bytes        4 to 256
 * [in]  num_buckets         m >= 1
 * [out] d_bucket_offsets    NULL, or m + 1 size_t (device): the start of bucket b, and [m] = n
 * [in]  stream              a cudaStream_t, or NULL for the default stream
 *
 * Synchronisation: none. Errors: as msplit_gather_records, and m == 0, both outputs NULL. On the
 * device: a bucket id at or beyond m is recorded (msplit_check_sync names the first record found
 * with one); no record is then written to d_records_out, and d_permutation and the offsets are
 * unspecified. */
msplit_status msplit_split_records(void *d_temp, size_t *temp_bytes, const void *d_records_in,
                                   const uint32_t *d_bucket_ids, void *d_records_out, uint32_t *d_permutation,
                                   size_t n, size_t record_bytes, uint32_t num_buckets, size_t *d_bucket_offsets,
                                   void *stream /* cudaStream_t */);

/* Stable sort of n records by the unsigned key at key_offset inside each record, ascending.
 *
 * [in]  d_temp, temp_bytes  temporary storage: with d_temp == NULL only *temp_bytes is written
 *                           (no pointer is looked at): msplit's radix sort storage for n (key,
 *                           U32) pairs (msplit/radix_sort.h) + n x (2 key bytes + 8), enough
 *                           whichever outputs are given
 * [in]  d_records_in        n records (device)
 * [out] d_records_out       NULL, or n records (device): the sorted records
 * [out] d_permutation       NULL, or n uint32_t (device): the input position of each output
 *                           record; at least one of the two outputs is given
 * [in]  n                   0 is fine; at most 2^32 - 1
 * [in]  record_bytes        4 to 256
 * [in]  key_offset          the key's byte offset in the record; key_offset + key bytes <=
 *                           record_bytes; any alignment (unaligned keys are read by bytes)
 * [in]  key_type            MSPLIT_TYPE_U32 or MSPLIT_TYPE_U64 (little-endian, as the GPU)
 * [in]  stream              a cudaStream_t, or NULL for the default stream
 *
 * Synchronisation: none. Errors: as msplit_gather_records, and a key outside the record, both
 * outputs NULL, another key type (MSPLIT_ERROR_UNSUPPORTED). */
msplit_status msplit_sort_records(void *d_temp, size_t *temp_bytes, const void *d_records_in, void *d_records_out,
                                  uint32_t *d_permutation, size_t n, size_t record_bytes, size_t key_offset,
                                  msplit_type key_type, void *stream /* cudaStream_t */);

#ifdef __cplusplus
}
#endif
#endif /* MSPLIT_RECORDS_H */
