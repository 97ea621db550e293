/* msplit C API: segmented sort.
 *
 * Sorts each segment of an array of keys (or key-value pairs) on its own, stable (equal keys keep
 * their input order), ascending or descending. Segment i is [d_begin_offsets[i],
 * d_end_offsets[i]) (CUB's convention: for back-to-back segments pass d_offsets and
 * d_offsets + 1); segments may be empty, have gaps between them and any mix of lengths, and must
 * not overlap; items outside every segment are not written. Length-binned as in Hou, Liu, Wang
 * and Feng, "Fast Segmented Sort on GPUs" (ICS 2017); msplit/segmented_sort.cuh (the CUDA C++
 * API of the same primitive) says how, and which order float keys get (-0.0 equals +0.0; NaNs
 * beyond the infinities, by sign).
 *
 * Example (examples/segmented_sort_c.c, built and run by CTest, which checks what it prints):
 *
 *     size_t temp_bytes = 0;
 *     CHECK(msplit_segmented_sort(NULL, &temp_bytes, d_keys, d_keys_out, NULL, NULL, n, 3, d_offsets,
 *                                 d_offsets + 1, MSPLIT_TYPE_F32, MSPLIT_TYPE_NONE, MSPLIT_TYPE_U32, 0, NULL));
 *     CHECK_CUDA(cudaMalloc(&d_temp, temp_bytes));
 *     CHECK(msplit_segmented_sort(d_temp, &temp_bytes, d_keys, d_keys_out, NULL, NULL, n, 3, d_offsets,
 *                                 d_offsets + 1, MSPLIT_TYPE_F32, MSPLIT_TYPE_NONE, MSPLIT_TYPE_U32, 0, NULL));
 *     CHECK(msplit_check_sync(d_temp, temp_bytes, NULL));
 *     st = msplit_segmented_sort(d_temp, &temp_bytes, d_keys, d_keys_out, NULL, NULL, n, 3, d_bad_offsets,
 *                                d_bad_offsets + 1, MSPLIT_TYPE_F32, MSPLIT_TYPE_NONE, MSPLIT_TYPE_U32, 0, NULL);
 *     st = msplit_check_sync(d_temp, temp_bytes, NULL);
 *
 * prints
 *
 *     keys:   2.5 -1 0.5 | 3 -0 0 -2 | inf nan -inf 1
 *     sorted: -1 0.5 2.5 | -2 -0 0 3 | -inf 1 inf nan
 *     queued: success
 *     checked: invalid argument: segmented_sort: segment 2 is beyond n: d_end_offsets[2] = 12 > n = 11
 *     output untouched: yes
 */
#ifndef MSPLIT_SEGMENTED_SORT_H
#define MSPLIT_SEGMENTED_SORT_H

#include "msplit/core.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Stable segmented sort of keys (value_type == MSPLIT_TYPE_NONE) or key-value pairs.
 *
 * [in]  d_temp, temp_bytes  temporary storage: with d_temp == NULL only *temp_bytes is written
 *                           (nothing runs, no other pointer is read); otherwise *temp_bytes must
 *                           be at least that size: 4 bytes per segment, plus the larger of 5
 *                           bytes per segment with the multisplit's storage for the segment ids
 *                           and (when n > 4,096) a second array of n keys (and n values), plus 4
 *                           bytes per 4,097 items (CUB's DeviceSegmentedSort: the second array
 *                           and 8 bytes per segment). The error record is at its start (see
 *                           msplit_check_sync, msplit/core.h).
 * [in]  d_keys_in           n keys of key_type (device)
 * [out] d_keys_out          n keys (device); must not overlap the inputs. Items outside every
 *                           segment are not written.
 * [in]  d_values_in         n values of value_type (device); ignored for MSPLIT_TYPE_NONE
 * [out] d_values_out        n values (device); must not overlap the inputs or d_keys_out
 * [in]  n                   number of items; 0 is fine
 * [in]  num_segments        number of segments (< 2^32); 0 is fine
 * [in]  d_begin_offsets     num_segments offsets of offset_type (device): segment starts
 * [in]  d_end_offsets       num_segments offsets of offset_type (device): segment ends
 * [in]  key_type            U32, I32, F32 or U64
 * [in]  value_type          NONE, U32 or U64
 * [in]  offset_type         U32, I32, U64 or I64 (a negative offset counts as beyond n)
 * [in]  descending          0: ascending; otherwise descending
 * [in]  stream              a cudaStream_t, or NULL for the default stream
 *
 * Synchronisation: none; the work is queued on `stream`. n == 0 or num_segments == 0 queues one
 * memset (the error record) and nothing else.
 * Errors: MSPLIT_ERROR_INVALID_ARGUMENT (temp_bytes NULL, a NULL data pointer with n > 0, a NULL
 * offsets pointer with num_segments > 0, overlapping buffers), MSPLIT_ERROR_TEMP_STORAGE
 * (*temp_bytes too small), MSPLIT_ERROR_UNSUPPORTED (a type not listed above, num_segments >=
 * 2^32), MSPLIT_ERROR_CUDA. Nothing is written on an argument error. The offsets are on the
 * device and are checked there without synchronising: a segment with begin > end or end > n stops
 * the sort before it writes any output, and msplit_check_sync (msplit/core.h) reports it, with a
 * message that names the first bad segment and its offsets; it reports MSPLIT_ERROR_STALLED if a
 * wait of the sort gave up (see msplit/core.h). */
msplit_status msplit_segmented_sort(void *d_temp, size_t *temp_bytes, const void *d_keys_in, void *d_keys_out,
                                    const void *d_values_in, void *d_values_out, size_t n, size_t num_segments,
                                    const void *d_begin_offsets, const void *d_end_offsets, msplit_type key_type,
                                    msplit_type value_type, msplit_type offset_type, int descending,
                                    void *stream /* cudaStream_t */);

#ifdef __cplusplus
}
#endif
#endif /* MSPLIT_SEGMENTED_SORT_H */
