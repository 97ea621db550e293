/* msplit C API: histogram.
 *
 * Counts n samples into m bins, even (bin = (x - lower) / width) or by ranges (bin b holds
 * levels[b] <= x < levels[b + 1]). Samples in no bin are not counted: below the first bin, at or
 * above the end of the last, and NaN (as CUB's DeviceHistogram). The CUDA C++ API of the same
 * primitive, which also takes any device functor, is msplit/histogram.cuh; it says how the
 * counting works.
 *
 * Shared by both calls:
 *   Samples: sample_type U8, I8, U16, I16, U32, I32, F32 or F64; d_samples at any alignment of
 *     that type. Bounds and boundaries have the "level type": I32 for I8 and I16 samples, U32 for
 *     U8 and U16 samples (so that a bin of 8-bit samples may end at 256), the sample type otherwise.
 *   Counters: counter_type U32 or U64; d_histogram holds num_bins of them, aligned to their size.
 *     accumulate == 0: the histogram is overwritten; != 0: the counts are added to it.
 *   Temporary storage: with d_temp == NULL only *temp_bytes is written (nothing runs and no
 *     other argument is read). It is 48 bytes whatever n, num_bins and the types: the error
 *     record (msplit/core.h), which msplit_check_sync reads.
 *   Synchronisation: none; the work is queued on `stream` (a cudaStream_t, NULL for the default
 *     stream). n == 0 queues only the zeroing of the histogram (and, for ranges, the check below).
 *   Errors: MSPLIT_ERROR_INVALID_ARGUMENT (temp_bytes NULL; num_bins 0 or above 2^30; d_samples
 *     NULL with n > 0; d_histogram or d_levels NULL; a pointer not aligned to its type; overlapping
 *     buffers; lower or width not a value of the level type, width <= 0), MSPLIT_ERROR_TEMP_STORAGE
 *     (*temp_bytes < 48), MSPLIT_ERROR_UNSUPPORTED (another sample or counter type),
 *     MSPLIT_ERROR_CUDA. Nothing is written on an argument error.
 *
 * Example (examples/histogram_c.c, built and run by CTest, which checks what it prints):
 *
 *     size_t temp_bytes = 0;
 *     void *d_temp = NULL;
 *     CHECK(msplit_histogram_even(NULL, &temp_bytes, d_samples, d_hist, n, 4, 0.0, 0.25, MSPLIT_TYPE_F32,
 *                                 MSPLIT_TYPE_U32, 0, NULL));
 *     CHECK_CUDA(cudaMalloc(&d_temp, temp_bytes));
 *     CHECK(msplit_histogram_even(d_temp, &temp_bytes, d_samples, d_hist, n, 4, 0.0, 0.25, MSPLIT_TYPE_F32,
 *                                 MSPLIT_TYPE_U32, 0, NULL));
 *     const float levels[] = {-1.0f, 0.0f, 0.5f, 2.0f}; // 3 bins: [-1, 0) [0, 0.5) [0.5, 2)
 *     CHECK(msplit_histogram_range(d_temp, &temp_bytes, d_samples, d_hist, n, 3, d_levels, MSPLIT_TYPE_F32,
 *                                  MSPLIT_TYPE_U32, 0, NULL));
 *
 * prints
 *
 *     samples: 0.1 0.3 0.6 0.9 -0.5 1 0.2 0.8 nan 0.55
 *     even:    2 1 2 2
 *     range:   1 3 5
 *     unsorted: invalid argument: histogram: d_levels is not sorted: d_levels[1] = 0.5, d_levels[2] = 0
 *     range with them: 1 3 5 (left as it was)
 *     with 0 bins: invalid argument: msplit_histogram_even: num_bins is 0 (need at least 1)
 */
#ifndef MSPLIT_HISTOGRAM_H
#define MSPLIT_HISTOGRAM_H

#include "msplit/core.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Even bins: bin b holds lower + b * width <= x < lower + (b + 1) * width, b < num_bins,
 * computed as (x - lower) / width in the level type (integer division for integers, one IEEE
 * division for floats). The arguments come in the order of every msplit call (msplit/core.h).
 * [in]  d_temp, temp_bytes  temporary storage (48 bytes; see above)
 * [in]  d_samples           n samples of sample_type (device)
 * [out] d_histogram         num_bins counters of counter_type (device)
 * [in]  n                   number of samples; 0 is fine
 * [in]  num_bins            m, 1 to 2^30
 * [in]  lower, width        values of the level type (integers: whole numbers in its range);
 *                           width > 0. For F32 they are rounded to float.
 * [in]  sample_type         see above
 * [in]  counter_type        U32 or U64
 * [in]  accumulate          0: overwrite the histogram; 1: add to it
 * [in]  stream              a cudaStream_t, or NULL
 * Errors: see above. */
msplit_status msplit_histogram_even(void *d_temp, size_t *temp_bytes, const void *d_samples,
                                    void *d_histogram, size_t n, uint32_t num_bins, double lower,
                                    double width, msplit_type sample_type, msplit_type counter_type,
                                    int accumulate, void *stream /* cudaStream_t */);

/* Range bins: bin b holds d_levels[b] <= x < d_levels[b + 1], b < num_bins.
 * [in]  d_levels            num_bins + 1 sorted boundaries of the level type (device); equal
 *                           neighbours make an empty bin. Checked on the device without waiting:
 *                           when two neighbours are out of order (or one is NaN) the histogram is
 *                           left as it was (not zeroed, not counted into) while the call has
 *                           already returned MSPLIT_SUCCESS; msplit_check_sync (msplit/core.h)
 *                           gives the status when the caller can wait.
 * The other parameters are msplit_histogram_even's. Errors: see above. */
msplit_status msplit_histogram_range(void *d_temp, size_t *temp_bytes, const void *d_samples,
                                     void *d_histogram, size_t n, uint32_t num_bins, const void *d_levels,
                                     msplit_type sample_type, msplit_type counter_type, int accumulate,
                                     void *stream /* cudaStream_t */);

#ifdef __cplusplus
}
#endif
#endif /* MSPLIT_HISTOGRAM_H */
