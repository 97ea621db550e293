/* msplit C API: radix sort.
 *
 * Stable LSD radix sort of keys or key-value pairs by the bits [begin_bit, end_bit) of the keys,
 * ascending or descending (Adinets and Merrill, "Onesweep: A Faster Least Significant Digit Radix
 * Sort for GPUs", 2022). The CUDA C++ API of the same primitive, with double-buffer forms, is
 * msplit/radix_sort.cuh, which also describes the order of each key type in full: unsigned,
 * two's complement, IEEE for F32/F64 with -0.0 before +0.0 and every NaN after +inf; descending
 * is the exact reverse.
 *
 * Example (examples/radix_sort_c.c, built and run by CTest, which checks what it prints):
 *
 *     size_t temp_bytes = 0;
 *     void *d_temp = NULL;
 *     CHECK(msplit_radix_sort(NULL, &temp_bytes, d_keys, d_keys_out, d_values, d_values_out, n, MSPLIT_TYPE_I32,
 *                             MSPLIT_TYPE_U32, 0, 0, 32, NULL));
 *     CHECK_CUDA(cudaMalloc(&d_temp, temp_bytes));
 *     CHECK(msplit_radix_sort(d_temp, &temp_bytes, d_keys, d_keys_out, d_values, d_values_out, n, MSPLIT_TYPE_I32,
 *                             MSPLIT_TYPE_U32, 0, 0, 32, NULL));
 *     CHECK(msplit_radix_sort(d_temp, &temp_bytes, d_keys, d_keys_out, NULL, NULL, n, MSPLIT_TYPE_I32,
 *                             MSPLIT_TYPE_NONE, 1, 0, 32, NULL));
 *
 * prints
 *
 *     keys:       -2147483648 -5 -5 0 3 3 2147483647
 *     values:     4 1 5 2 0 6 3
 *     descending: 2147483647 3 3 0 -5 -5 -2147483648
 *     with end_bit 33: invalid argument: msplit_radix_sort: end_bit 33 is not in (begin_bit, 32] = (0, 32]
 */
#ifndef MSPLIT_RADIX_SORT_H
#define MSPLIT_RADIX_SORT_H

#include "msplit/core.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Stable radix sort of keys (value_type == MSPLIT_TYPE_NONE) or key-value pairs.
 *
 * [in]  d_temp, temp_bytes  temporary storage: with d_temp == NULL only *temp_bytes is written
 *                           (nothing runs, only the types and the bit range are looked at);
 *                           otherwise *temp_bytes must be at least that size. The size depends on
 *                           n, the types and the bit range, not on the keys: 256 bytes (the
 *                           error record, msplit/core.h, which every size includes) for n of
 *                           at most one tile of 4,608 to 12,288 elements (sorted by one block);
 *                           above, with P = ceil((end_bit - begin_bit) / 8) passes, n x (key +
 *                           value bytes) for the ping-pong buffers when P > 1, plus about 1 KB
 *                           per tile (see msplit/radix_sort.cuh) and 2 KB per pass.
 * [in]  d_keys_in           n keys of key_type (device); not modified
 * [out] d_keys_out          n keys (device); must not overlap d_keys_in
 * [in]  d_values_in         n values of value_type (device); ignored for MSPLIT_TYPE_NONE
 * [out] d_values_out        n values (device); must not overlap the inputs or d_keys_out
 * [in]  n                   number of elements; 0 is fine
 * [in]  key_type            U32, I32, F32, U64, I64 or F64
 * [in]  value_type          NONE, or any 32-bit or 64-bit type (U32, I32, F32, U64, I64, F64)
 * [in]  descending          0: ascending, otherwise descending
 * [in]  begin_bit, end_bit  the key bits to sort by: 0 <= begin_bit < end_bit <= key bits
 *                           (0 and 32 or 64 for whole keys)
 * [in]  stream              a cudaStream_t, or NULL for the default stream
 *
 * Synchronisation: none; the work is queued on `stream`. n == 0 queues one memset (the error
 * record).
 * Errors: MSPLIT_ERROR_INVALID_ARGUMENT (temp_bytes NULL, a bit range outside the key, a NULL data
 * pointer with n > 0, overlapping buffers), MSPLIT_ERROR_TEMP_STORAGE (*temp_bytes too small),
 * MSPLIT_ERROR_UNSUPPORTED (a key or value type not listed above), MSPLIT_ERROR_CUDA. Nothing is
 * written on an argument error. On the device: msplit_check_sync (msplit/core.h) reports
 * MSPLIT_ERROR_STALLED if a look-back waited past its bound. */
msplit_status msplit_radix_sort(void *d_temp, size_t *temp_bytes, const void *d_keys_in, void *d_keys_out,
                                const void *d_values_in, void *d_values_out, size_t n, msplit_type key_type,
                                msplit_type value_type, int descending, int begin_bit, int end_bit,
                                void *stream /* cudaStream_t */);

#ifdef __cplusplus
}
#endif
#endif /* MSPLIT_RADIX_SORT_H */
