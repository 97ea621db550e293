// msplit: stable GPU multisplit, CUDA C++ template API.
//
// Multisplit permutes n keys (or key-value pairs) so that they are grouped into m contiguous
// buckets in bucket order, each bucket keeping the input order of its elements (stable), as in
// Ashkiani, Davidson, Meyer and Owens, "GPU Multisplit" (PPoPP 2016) and chapter 3 of Ashkiani's
// thesis (UC Davis, 2017). The bucket of a key is given by a functor: one of msplit/bucket.cuh's
// or any device functor of one's own. The C API of the same primitive is msplit/multisplit.h.
//
// Conventions (CUB's): two-phase temporary storage (with d_temp == NULL only *temp_bytes is
// written), asynchronous on `stream`, no device allocation, no synchronisation, a status for
// every error (msplit_last_error_message() says what was wrong). Link msplit::msplit (the error
// messages and the sort and scan back ends live there).
//
// Variants (msplit_variant, msplit/multisplit.h): AUTO picks DIRECT for m <= 2, ONEPASS for
// m = 3..256 and SORT above; DIRECT / WARP / BLOCK are the paper's three-pass variants (n < 2^32
// only); every variant runs as SORT (bucket labels + CUB radix sort on ceil(log2 m) bits) for
// m > 256. All give the same result.
#pragma once

#include <cuda_runtime.h>
#include <stddef.h>
#include <stdint.h>

#include "msplit/bucket.cuh"
#include "msplit/multisplit.h"

namespace msplit {

// Stable multisplit of keys.
//
// [in]  d_temp, temp_bytes  temporary storage: with d_temp == NULL only *temp_bytes is written
//                           (nothing runs); otherwise *temp_bytes must be at least that size.
//                           The size depends on n, m, the types and the variant (see
//                           msplit_multisplit in msplit/multisplit.h), not on the keys.
// [in]  d_keys_in           n keys (device)
// [out] d_keys_out          n keys (device); must not overlap d_keys_in
// [in]  n                   number of keys; 0 is fine
// [in]  num_buckets         m >= 1
// [in]  bucket_op           bucket functor (msplit/bucket.cuh); results >= m go to m - 1
// [out] d_bucket_offsets    NULL, or m + 1 entries (device): the start of bucket b in
//                           d_keys_out, and [m] = n
// [in]  stream              the stream the work is queued on
// [in]  variant             MSPLIT_VARIANT_AUTO, or a variant to force
//
// Key: the type the functor takes (uint32_t, int32_t, float and uint64_t are the tested ones).
// Synchronisation: none; the work is queued on `stream`. n == 0 queues one memset (the error
// record) and, when d_bucket_offsets is given, one that zeroes it.
// Errors: MSPLIT_ERROR_INVALID_ARGUMENT (temp_bytes NULL, a NULL pointer with n > 0, m == 0,
// overlapping buffers, an unknown variant), MSPLIT_ERROR_TEMP_STORAGE, MSPLIT_ERROR_UNSUPPORTED
// (a three-pass variant or m > 256 with n >= 2^32), MSPLIT_ERROR_CUDA. Nothing is written on an
// argument error. On the device: msplit::check_sync(d_temp, temp_bytes, stream) reports
// MSPLIT_ERROR_STALLED if a look-back waited past its bound (msplit/core.h).
//
// Example (examples/multisplit_keys.cu, built and run by CTest, which checks what it prints):
//
//     msplit::delta_bucket<uint32_t> tens(0, 10, 3);  // buckets [0, 10) [10, 20) [20, ...)
//     size_t temp_bytes = 0;
//     CHECK(msplit::multisplit_keys(nullptr, &temp_bytes, d_keys, d_out, n, 3, tens, d_offsets, stream));
//     CHECK_CUDA(cudaMalloc(&d_temp, temp_bytes));
//     CHECK(msplit::multisplit_keys(d_temp, &temp_bytes, d_keys, d_out, n, 3, tens, d_offsets, stream));
//
//     struct mod3 {  // a bucket functor of one's own
//       __device__ uint32_t operator()(uint32_t key) const { return key % 3; }
//     };
//     CHECK(msplit::multisplit_keys(d_temp, &temp_bytes, d_keys, d_out, n, 3, mod3{}, d_offsets, stream));
//
// prints
//
//     in:      25 3 17 9 0 30 12 5 21 14
//     tens:    3 9 0 5 | 17 12 14 | 25 30 21
//     offsets: 0 4 7 10
//     mod3:    3 9 0 30 12 21 | 25 | 17 5 14
//     offsets: 0 6 7 10
//     variant for m = 3: onepass, for m = 2: direct
template <typename Key, typename BucketOp>
msplit_status multisplit_keys(void *d_temp, size_t *temp_bytes, const Key *d_keys_in,
                              Key *d_keys_out, size_t n, uint32_t num_buckets, BucketOp bucket_op,
                              size_t *d_bucket_offsets, cudaStream_t stream = 0,
                              msplit_variant variant = MSPLIT_VARIANT_AUTO);

// Stable multisplit of key-value pairs: as multisplit_keys, each value following its key.
//
// [in]  d_values_in         n values (device)
// [out] d_values_out        n values (device); must not overlap d_values_in, d_keys_in or
//                           d_keys_out
// The other parameters, the temporary storage, the synchronisation and the errors are
// multisplit_keys's (NULL value pointers with n > 0 are argument errors too).
//
// Example (examples/multisplit_pairs.cu, built and run by CTest, which checks what it prints):
//
//     const msplit::splitter_bucket<uint32_t> split{d_splitters, 2};  // splitters 5 and 20
//     size_t temp_bytes = 0;
//     CHECK(msplit::multisplit_pairs(nullptr, &temp_bytes, d_keys, d_keys_out, d_values, d_values_out, n, 3,
//                                    split, d_offsets, stream));
//     CHECK_CUDA(cudaMalloc(&d_temp, temp_bytes));
//     CHECK(msplit::multisplit_pairs(d_temp, &temp_bytes, d_keys, d_keys_out, d_values, d_values_out, n, 3,
//                                    split, d_offsets, stream));
//
// prints (the values are the keys' input positions)
//
//     keys:    3 0 | 17 9 12 5 14 | 25 30 21
//     values:  1 4 | 2 3 6 7 9 | 0 5 8
template <typename Key, typename Value, typename BucketOp>
msplit_status multisplit_pairs(void *d_temp, size_t *temp_bytes, const Key *d_keys_in,
                               Key *d_keys_out, const Value *d_values_in, Value *d_values_out,
                               size_t n, uint32_t num_buckets, BucketOp bucket_op,
                               size_t *d_bucket_offsets, cudaStream_t stream = 0,
                               msplit_variant variant = MSPLIT_VARIANT_AUTO);

// The variant that `requested` runs as for m buckets, key_bytes and value_bytes (0: keys only)
// per element and n elements (0: any n below 2^32). Host only; no GPU needed, no error.
// Example: examples/multisplit_keys.cu (its last line above).
inline msplit_variant multisplit_resolve_variant(msplit_variant requested, uint32_t num_buckets,
                                                 size_t key_bytes, size_t value_bytes, size_t n = 0);

}  // namespace msplit

#include "msplit/detail/multisplit/dispatch.cuh"
