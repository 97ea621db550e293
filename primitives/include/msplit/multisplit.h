/* msplit C API: multisplit.
 *
 * Multisplit permutes n keys (or key-value pairs) so that they are grouped into m contiguous
 * buckets in bucket order, each bucket keeping the input order of its elements (stable), as in
 * Ashkiani, Davidson, Meyer and Owens, "GPU Multisplit" (PPoPP 2016). The bucket of a key is
 * given by a built-in bucket function (msplit/bucket.h). The CUDA C++ API of the same
 * primitive, which takes any device functor, is msplit/multisplit.cuh.
 *
 * Example (examples/multisplit_c.c, built and run by CTest, which checks what it prints):
 *
 *     msplit_bucket_desc bucket = {0};
 *     bucket.kind = MSPLIT_BUCKET_DELTA;
 *     bucket.base.u = 0;
 *     bucket.delta.u = 10; // buckets [0, 10) [10, 20) [20, ...)
 *     size_t temp_bytes = 0;
 *     void *d_temp = NULL;
 *     CHECK(msplit_multisplit(NULL, &temp_bytes, d_keys, d_out, NULL, NULL, n, 3, bucket, d_offsets,
 *                             MSPLIT_TYPE_U32, MSPLIT_TYPE_NONE, MSPLIT_VARIANT_AUTO, NULL));
 *     CHECK_CUDA(cudaMalloc(&d_temp, temp_bytes));
 *     CHECK(msplit_multisplit(d_temp, &temp_bytes, d_keys, d_out, NULL, NULL, n, 3, bucket, d_offsets,
 *                             MSPLIT_TYPE_U32, MSPLIT_TYPE_NONE, MSPLIT_VARIANT_AUTO, NULL));
 *     CHECK(msplit_copy_offsets_sync(offsets, d_offsets, 3, NULL));
 *
 * prints
 *
 *     in:      25 3 17 9 0 30 12 5 21 14
 *     out:     3 9 0 5 | 17 12 14 | 25 30 21
 *     offsets: 0 4 7 10
 *     with 0 buckets: invalid argument: multisplit: num_buckets is 0 (need at least 1)
 *     variant names: auto direct onepass sort
 *     version: 0.3.0
 */
#ifndef MSPLIT_MULTISPLIT_H
#define MSPLIT_MULTISPLIT_H

#include "msplit/bucket.h"
#include "msplit/core.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Which multisplit implementation runs. AUTO picks from m and n, by measurements on an H100:
 * DIRECT for m <= 2, ONEPASS for m = 3..256 and whenever n >= 2^32, and SORT for m > 256.
 * DIRECT is the paper's three-pass variant without reordering (prescan / scan / postscan) and
 * needs n < 2^32; ONEPASS counts the buckets in one pass, then reorders in one sweep whose tiles
 * find their global offsets by decoupled look-back (12 bytes moved per key). For m > 256 every
 * variant runs as SORT. The result is the same whichever runs; only the speed differs. (The
 * paper's WMS and BMS, which the one-pass sweep outruns at every m, are not in the library.) */
typedef enum {
  MSPLIT_VARIANT_AUTO = 0,
  MSPLIT_VARIANT_DIRECT = 1,  /* DMS: warp subproblems, direct scatter          */
  MSPLIT_VARIANT_ONEPASS = 4, /* histogram + one sweep with decoupled look-back */
  MSPLIT_VARIANT_SORT = 5     /* bucket labels + CUB radix sort on log2(m) bits */
} msplit_variant;

/* Stable multisplit of keys (value_type == MSPLIT_TYPE_NONE) or key-value pairs. The arguments
 * come in the order of every msplit call (msplit/core.h).
 *
 * [in]  d_temp, temp_bytes  temporary storage: with d_temp == NULL only *temp_bytes is written
 *                           (nothing runs, the other pointers are not read); otherwise
 *                           *temp_bytes must be at least that size. The size depends on n, m,
 *                           the types and the variant: ONEPASS about 4 * m bytes per tile of
 *                           2,048 to 4,096 elements, the three-pass variants up to 16 times
 *                           that, SORT 16 * n bytes plus CUB's radix sort storage; all after
 *                           256 bytes that hold the error record (msplit/core.h).
 * [in]  d_keys_in           n keys of key_type (device)
 * [out] d_keys_out          n keys (device); must not overlap the inputs
 * [in]  d_values_in         n values of value_type (device); ignored for MSPLIT_TYPE_NONE
 * [out] d_values_out        n values (device); must not overlap the inputs or d_keys_out
 * [in]  n                   number of elements; 0 is fine
 * [in]  num_buckets         m >= 1
 * [in]  bucket              the bucket function (msplit/bucket.h); results >= m go to m - 1
 * [out] d_bucket_offsets    NULL, or m + 1 size_t (device): the start of bucket b in the
 *                           output, and [m] = n
 * [in]  key_type            U32, I32, F32 or U64
 * [in]  value_type          NONE, U32 or U64
 * [in]  variant             MSPLIT_VARIANT_AUTO, or a variant to force (see msplit_variant)
 * [in]  stream              a cudaStream_t, or NULL for the default stream
 *
 * Result: buckets are contiguous and in bucket order; within a bucket the input order is kept.
 * Synchronisation: none; the work is queued on `stream` (the host may return before it runs).
 * n == 0 queues one memset (the error record) and, when d_bucket_offsets is given, one that
 * zeroes it.
 * Errors: MSPLIT_ERROR_INVALID_ARGUMENT (temp_bytes NULL, NULL data pointer with n > 0, m == 0,
 * delta <= 0, NULL splitters with m > 1, a bit field out of range, overlapping buffers, an
 * unknown variant or bucket kind), MSPLIT_ERROR_TEMP_STORAGE (*temp_bytes too small),
 * MSPLIT_ERROR_UNSUPPORTED (a type combination not listed above, a three-pass variant or m > 256
 * with n >= 2^32), MSPLIT_ERROR_CUDA (a launch or CUDA call failed). Nothing is written on an
 * argument error. On the device: msplit_check_sync (msplit/core.h) reports MSPLIT_ERROR_STALLED
 * if the ONEPASS look-back waited past its bound (the output is then wrong). */
msplit_status msplit_multisplit(void *d_temp, size_t *temp_bytes, const void *d_keys_in, void *d_keys_out,
                                const void *d_values_in, void *d_values_out, size_t n, uint32_t num_buckets,
                                msplit_bucket_desc bucket, size_t *d_bucket_offsets, msplit_type key_type,
                                msplit_type value_type, msplit_variant variant,
                                void *stream /* cudaStream_t */);

/* Copies the m + 1 bucket offsets that msplit_multisplit wrote to the host, in one transfer
 * queued on `stream`, and waits for it (synchronises `stream`, so the multisplit before it on the
 * stream has finished when it returns).
 * [out] h_offsets          m + 1 size_t (host)
 * [in]  d_bucket_offsets   m + 1 size_t (device)
 * Errors: MSPLIT_ERROR_INVALID_ARGUMENT (a NULL pointer), MSPLIT_ERROR_CUDA (the copy or an
 * earlier asynchronous error on the stream). */
msplit_status msplit_copy_offsets_sync(size_t *h_offsets, const size_t *d_bucket_offsets,
                                       uint32_t num_buckets, void *stream /* cudaStream_t */);

/* Static name of a variant ("auto", "direct", "warp", "block", "onepass", "sort"; "unknown"
 * for any other value). */
const char *msplit_variant_name(msplit_variant variant);

#ifdef __cplusplus
}
#endif
#endif /* MSPLIT_MULTISPLIT_H */
