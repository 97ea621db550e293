// msplit: stable GPU segmented sort, CUDA C++ template API.
//
// Sorts each segment of an array of keys (or key-value pairs) on its own, ascending or
// descending. Segment i is [d_begin_offsets[i], d_end_offsets[i]) (CUB's convention: for
// back-to-back segments pass d_offsets and d_offsets + 1). Segments may be empty, have gaps
// between them, and come in any order and any mix of lengths; items outside every segment are
// not written. The sort is stable: equal keys keep their input order.
//
// How (Hou, Liu, Wang and Feng, "Fast Segmented Sort on GPUs", ICS 2017): the segments are binned
// by length with msplit's multisplit; lengths up to 16 are sorted one segment per thread in
// registers, lengths up to 4,096 by groups of 2 to 256 threads (register sorts, then merges in
// shared memory), every bin in tiles of 4,096 slots loaded and stored coalesced; longer segments
// are sorted as 4,096-item chunks merged in passes over global memory, and the longest (more than
// 2^17 items with 4-byte keys, 2^21 with 8-byte ones, up to 2^30) by an LSD radix sort of each half
// of the segment, whose tables live in the other half's stretch of the output, then one merge.
// The tuning constants are in msplit/detail/segmented_sort/tuning.h.
//
// Key order: unsigned and signed integers as numbers; floats by value with -0.0 equal to +0.0
// (both keep their sign bit in the output), and NaNs after +inf (positive sign bit) or before
// -inf (negative sign bit), as CUB's radix sort orders them. Descending reverses the order;
// equal keys still keep their input order.
//
// Conventions (CUB's): two-phase temporary storage (with d_temp == NULL only *temp_bytes is
// written), asynchronous on `stream`, no device allocation, no synchronisation, a status for
// every error (msplit_last_error_message() says what was wrong). Link msplit::msplit. The C API
// of the same primitive is msplit/segmented_sort.h.
//
// Offsets live on the device, so they are checked on the device, without synchronising: a bad
// segment (begin > end, or end > n) stops the sort before it writes anything to the outputs, and
// msplit::check_sync (msplit_check_sync, msplit/core.h: it waits for the stream) returns
// MSPLIT_ERROR_INVALID_ARGUMENT with a message naming the first bad segment and its offsets, e.g.
// "segmented_sort: segment 2 is beyond n: d_end_offsets[2] = 12 > n = 10" (the outputs were not
// written), or MSPLIT_ERROR_STALLED if a wait of the sort gave up. d_temp must not be reused
// before the check.
#pragma once

#include <cuda_runtime.h>
#include <stddef.h>
#include <stdint.h>

#include "msplit/core.h"
#include "msplit/detail/segmented_sort/dispatch.cuh"

namespace msplit {

// Stable segmented sort of keys, ascending (descending = true: descending).
//
// [in]  d_temp, temp_bytes  temporary storage: with d_temp == NULL only *temp_bytes is written
//                           (nothing runs, no pointer is read); otherwise *temp_bytes must be at
//                           least that size: 4 bytes per segment, plus the larger of 5 bytes per
//                           segment with the multisplit's storage for the segment ids and (when
//                           n > 4,096, so that a segment may be long) a second buffer of n keys
//                           (and n values), plus 4 bytes per 4,097 items: at most CUB
//                           DeviceSegmentedSort's 8 bytes per segment beyond the second buffer
//                           (2^26 u32 pairs in segments of 4,096: 537.00 MB).
// [in]  d_keys_in           n keys (device)
// [out] d_keys_out          n keys (device); must not overlap d_keys_in. Items outside every
//                           segment are not written.
// [in]  n                   number of items; 0 is fine
// [in]  num_segments        number of segments (< 2^32); 0 is fine
// [in]  d_begin_offsets     num_segments offsets (device): where each segment starts
// [in]  d_end_offsets       num_segments offsets (device): one past each segment's end
// [in]  stream              the stream the work is queued on
// [in]  descending          false: ascending; true: descending
//
// Key: uint32_t, int32_t, float, uint64_t. Offset: any integer type (a negative offset counts as
// beyond n). Segments must not overlap one another.
// Synchronisation: none; the work is queued on `stream`. n == 0 or num_segments == 0 queues one
// memset (the error record) and nothing else; the offsets are not read then.
// Errors: MSPLIT_ERROR_INVALID_ARGUMENT (temp_bytes NULL, a NULL data pointer with n > 0, a NULL
// offsets pointer with num_segments > 0, overlapping buffers), MSPLIT_ERROR_TEMP_STORAGE,
// MSPLIT_ERROR_UNSUPPORTED (num_segments >= 2^32), MSPLIT_ERROR_CUDA. Nothing is written on an
// argument error. Bad offsets are found on the device: see msplit::check_sync above.
//
// Example (examples/segmented_sort_pairs.cu, built and run by CTest, which checks what it prints):
//
//     size_t temp_bytes = 0;
//     CHECK(msplit::segmented_sort_pairs(nullptr, &temp_bytes, d_keys, d_keys_out, d_values, d_values_out, n,
//                                        num_segments, d_offsets, d_offsets + 1, stream));
//     CHECK_CUDA(cudaMalloc(&d_temp, temp_bytes));
//     CHECK(msplit::segmented_sort_pairs(d_temp, &temp_bytes, d_keys, d_keys_out, d_values, d_values_out, n,
//                                        num_segments, d_offsets, d_offsets + 1, stream));
//     CHECK(msplit::segmented_sort_keys_descending(d_temp, &temp_bytes, d_keys, d_keys_out, n, num_segments,
//                                                  d_offsets, d_offsets + 1, stream));
//     CHECK(msplit::check_sync(d_temp, temp_bytes, stream));  // waits; the offsets were fine
//
// prints (the values are the keys' input positions: equal keys keep their order)
//
//     keys:       7 3 9 | | 5 1 5 0 | 2
//     sorted:     3 7 9 | | 0 1 5 5 | 2
//     values:     1 0 2 | | 6 4 3 5 | 7
//     descending: 9 7 3 | | 5 5 1 0 | 2
template <typename Key, typename Offset>
msplit_status segmented_sort_keys(void *d_temp, size_t *temp_bytes, const Key *d_keys_in, Key *d_keys_out, size_t n,
                                  size_t num_segments, const Offset *d_begin_offsets, const Offset *d_end_offsets,
                                  cudaStream_t stream = 0, bool descending = false) {
  return detail::segmented_sort_dispatch(d_temp, temp_bytes, d_keys_in, d_keys_out,
                                         static_cast<const detail::no_value *>(nullptr),
                                         static_cast<detail::no_value *>(nullptr), n, num_segments, d_begin_offsets,
                                         d_end_offsets, descending, stream);
}

// Stable segmented sort of key-value pairs: as segmented_sort_keys, each value following its key.
//
// [in]  d_values_in   n values (device)
// [out] d_values_out  n values (device); must not overlap d_values_in, d_keys_in or d_keys_out
// Value: any type of 4 or 8 bytes (uint32_t and uint64_t are the tested ones). The other
// parameters, the temporary storage, the synchronisation and the errors are segmented_sort_keys's.
// Example: above.
template <typename Key, typename Value, typename Offset>
msplit_status segmented_sort_pairs(void *d_temp, size_t *temp_bytes, const Key *d_keys_in, Key *d_keys_out,
                                   const Value *d_values_in, Value *d_values_out, size_t n, size_t num_segments,
                                   const Offset *d_begin_offsets, const Offset *d_end_offsets, cudaStream_t stream = 0,
                                   bool descending = false) {
  return detail::segmented_sort_dispatch(d_temp, temp_bytes, d_keys_in, d_keys_out, d_values_in, d_values_out, n,
                                         num_segments, d_begin_offsets, d_end_offsets, descending, stream);
}

// Descending forms (CUB's names): segmented_sort_keys / _pairs with descending = true.
// Example: above.
template <typename Key, typename Offset>
msplit_status segmented_sort_keys_descending(void *d_temp, size_t *temp_bytes, const Key *d_keys_in, Key *d_keys_out,
                                             size_t n, size_t num_segments, const Offset *d_begin_offsets,
                                             const Offset *d_end_offsets, cudaStream_t stream = 0) {
  return segmented_sort_keys(d_temp, temp_bytes, d_keys_in, d_keys_out, n, num_segments, d_begin_offsets,
                             d_end_offsets, stream, true);
}
template <typename Key, typename Value, typename Offset>
msplit_status segmented_sort_pairs_descending(void *d_temp, size_t *temp_bytes, const Key *d_keys_in, Key *d_keys_out,
                                              const Value *d_values_in, Value *d_values_out, size_t n,
                                              size_t num_segments, const Offset *d_begin_offsets,
                                              const Offset *d_end_offsets, cudaStream_t stream = 0) {
  return segmented_sort_pairs(d_temp, temp_bytes, d_keys_in, d_keys_out, d_values_in, d_values_out, n, num_segments,
                              d_begin_offsets, d_end_offsets, stream, true);
}

}  // namespace msplit
