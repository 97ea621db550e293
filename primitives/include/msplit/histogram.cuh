// msplit: GPU histogram, CUDA C++ template API.
//
// A histogram counts n samples into m bins: even bins (bin = (x - lower) / width), range bins
// (bin b holds levels[b] <= x < levels[b + 1]), or the bins of any device functor, with the
// bucket functors of msplit/bucket.cuh that multisplit uses (a histogram asks them for bin(),
// which does not clamp: see "Histogram bins" there). Samples in no bin are not counted (below
// the lowest bin, at or above the highest, NaN), as in CUB's DeviceHistogram. The C API of the
// same primitive is msplit/histogram.h.
//
// How it counts: each block counts its part of the samples in private counters in shared memory,
// one atomicAdd per sample, and adds them to the histogram once at the end; 8-bit samples are
// counted by value (256 counters) and mapped to their bins at the end. With more than
// tuning::HIST_MAX_SLICE_BINS bins (16,384) the bins are cut into slices, one per block, each
// slice's blocks reading all the samples; above 8 slices (m > 131,072), or range boundaries
// too many for shared memory, the counts go straight to global memory, one atomicAdd per bin
// per warp. Range boundaries are staged in shared memory as a breadth-first search tree, or,
// for m <= 15, held in registers and compared with every sample. The samples are read with
// 16-byte loads at any alignment. Warp votes (Ashkiani's thesis, section 3.7.3) are there for
// small m but lose to shared atomics on Hopper. Tuning and the
// measurements behind it: msplit/detail/histogram/tuning.h.
//
// Conventions of every call (CUB's):
//   Temporary storage: with d_temp == NULL only *temp_bytes is written (nothing runs, no other
//     argument is read). The size is HISTOGRAM_TEMP_BYTES = 48 bytes whatever n, m and the types:
//     the error record (msplit/core.h), which holds the verdict of the range boundary check.
//   Counters: Counter is uint32_t or uint64_t; 32-bit counters wrap past 2^32 - 1 samples in one
//     bin. accumulate == false: the histogram is overwritten; true: the counts are added to it.
//   Synchronisation: none; the work is queued on `stream`. n == 0 queues only the zeroing of the
//     histogram (and, for range bins, the boundary check).
//   Errors: MSPLIT_ERROR_INVALID_ARGUMENT (temp_bytes NULL; num_bins 0 or above 2^30; d_samples
//     NULL with n > 0; d_histogram NULL; a pointer not aligned to its type; d_histogram overlapping
//     d_samples, d_levels or d_temp; width <= 0 or a non-finite float bound), MSPLIT_ERROR_TEMP_STORAGE
//     (*temp_bytes < 48), MSPLIT_ERROR_CUDA (a launch failed). Nothing is written on an argument error.
//   Unsorted range boundaries are found on the device, without synchronising: a check kernel reads
//     them before the counting kernel, and when two consecutive ones are out of order (or one is
//     NaN) the histogram is left as it was, not zeroed and not counted into; the call itself has
//     returned MSPLIT_SUCCESS by then. msplit::check_sync(d_temp, temp_bytes, stream) (msplit_check_sync,
//     msplit/core.h) waits and gives the status, with a message naming the first pair out of order
//     ("histogram: d_levels is not sorted: d_levels[4] = 7, d_levels[5] = 3"). (Checking on the
//     host would need the boundaries there, i.e. a copy and a wait in every call.)
// Link msplit::msplit (the error messages live there).
#pragma once

#include <cuda_runtime.h>
#include <stddef.h>
#include <stdint.h>

#include <type_traits>

#include "msplit/bucket.cuh"
#include "msplit/core.h"
#include "msplit/detail/histogram/dispatch.cuh"

namespace msplit {

// The type of even bounds and range boundaries for Sample samples: 32-bit for 8- and 16-bit
// integers (so that 8-bit samples can have a bin ending at 256), Sample otherwise.
template <typename Sample>
using histogram_level_t = detail::histogram_level<Sample>;

// Temporary storage of every histogram call, in bytes.
constexpr size_t HISTOGRAM_TEMP_BYTES = detail::HISTOGRAM_TEMP_BYTES;

namespace detail {
template <typename Counter>
constexpr void histogram_check_counter() {
  static_assert(std::is_integral_v<Counter> && std::is_unsigned_v<Counter> && (sizeof(Counter) == 4 || sizeof(Counter) == 8),
                "histogram counters are uint32_t or uint64_t");
}
}  // namespace detail

// Even bins: bin b holds lower + b * width <= x < lower + (b + 1) * width, b < num_bins; the
// bin of x is computed as (x - lower) / width in the level type (an integer division for
// integers, one IEEE division for floats, so a sample within rounding of a bin edge is counted
// where that expression puts it).
//
// [in]  d_temp, temp_bytes  temporary storage (see above: 4 bytes)
// [in]  d_samples           n samples (device); any alignment of their type
// [in]  n                   number of samples; 0 is fine
// [in]  num_bins            m, 1 to 2^30
// [in]  lower, width        the bins' start and width (> 0; finite for floats)
// [out] d_histogram         m counters (device), aligned to their type
// [in]  stream, accumulate  see above
//
// Sample: uint8_t, int8_t, uint16_t, int16_t, uint32_t, int32_t, float or double.
//
// Example (examples/histogram_even.cu, built and run by CTest, which checks what it prints):
//
//     // 4 bins of width 10 from 0: [0, 10) [10, 20) [20, 30) [30, 40); 45 is in none
//     size_t temp_bytes = 0;
//     CHECK(msplit::histogram_even(nullptr, &temp_bytes, d_samples, n, 4, 0u, 10u, d_hist, stream));
//     CHECK_CUDA(cudaMalloc(&d_temp, temp_bytes));
//     CHECK(msplit::histogram_even(d_temp, &temp_bytes, d_samples, n, 4, 0u, 10u, d_hist, stream));
//     // accumulate = true adds the counts to those in d_hist
//     CHECK(msplit::histogram_even(d_temp, &temp_bytes, d_samples, n, 4, 0u, 10u, d_hist, stream, true));
//
//     struct last_digit {  // a bin functor of one's own: bins 0..9 by the last decimal digit
//       __device__ uint32_t operator()(uint8_t x) const { return x % 10; }
//     };
//     CHECK(msplit::histogram(d_temp, &temp_bytes, d_samples, n, 10, last_digit{}, d_digits, stream));
//
// prints
//
//     samples:    25 3 17 9 0 30 12 5 21 45 14 39
//     even:       4 3 2 2
//     again:      8 6 4 4
//     last digit: 2 1 1 1 1 3 0 1 0 2
template <typename Sample, typename Counter>
msplit_status histogram_even(void *d_temp, size_t *temp_bytes, const Sample *d_samples, size_t n, uint32_t num_bins,
                             histogram_level_t<Sample> lower, histogram_level_t<Sample> width, Counter *d_histogram,
                             cudaStream_t stream = 0, bool accumulate = false) {
  detail::histogram_check_counter<Counter>();
  return detail::histogram_even_entry("histogram_even", d_temp, temp_bytes, d_samples, n, num_bins, lower, width,
                                      static_cast<void *>(d_histogram), sizeof(Counter), accumulate, stream);
}

// Range bins: bin b holds d_levels[b] <= x < d_levels[b + 1], b < num_bins. Each sample takes
// bit_length(m + 1) branch-free search steps, in a breadth-first tree of the boundaries staged
// in shared memory (all of them while the tree fits tuning::HIST_MAX_STAGE_BYTES, 32 KB: up to
// m = 8,190 for 32-bit levels), the last steps in global memory for larger m.
//
// [in]  d_levels            num_bins + 1 boundaries of histogram_level_t<Sample> (device), sorted
//                           (equal neighbours make an empty bin). Unsorted ones are found on the
//                           device and leave the histogram untouched (see above).
// The other parameters, the temporary storage and the errors are histogram_even's (d_levels NULL
// is an argument error).
//
// Example: examples/histogram_c.c (msplit/histogram.h) shows the same call in C.
template <typename Sample, typename Counter>
msplit_status histogram_range(void *d_temp, size_t *temp_bytes, const Sample *d_samples, size_t n, uint32_t num_bins,
                              const histogram_level_t<Sample> *d_levels, Counter *d_histogram, cudaStream_t stream = 0,
                              bool accumulate = false) {
  detail::histogram_check_counter<Counter>();
  return detail::histogram_range_entry("histogram_range", d_temp, temp_bytes, d_samples, n, num_bins, d_levels,
                                       static_cast<void *>(d_histogram), sizeof(Counter), accumulate, stream);
}

// Bins of any device functor: the bin of x is bin_op.bin(x) where BinOp declares bin(), and
// bin_op(x) otherwise; results >= num_bins are not counted (no clamping, unlike multisplit). A
// functor that stages a table (msplit/bucket.cuh, "staging") has it staged when it takes at most
// tuning::HIST_MAX_STAGE_BYTES. The parameters, temporary storage and errors are
// histogram_even's. Example: examples/histogram_even.cu (above).
template <typename Sample, typename BinOp, typename Counter>
msplit_status histogram(void *d_temp, size_t *temp_bytes, const Sample *d_samples, size_t n, uint32_t num_bins,
                        BinOp bin_op, Counter *d_histogram, cudaStream_t stream = 0, bool accumulate = false) {
  detail::histogram_check_counter<Counter>();
  bool done = false;
  const msplit_status st = detail::histogram_temp_query("histogram", d_temp, temp_bytes, &done);
  if (done) return st;
  return detail::histogram_dispatch<Sample, Sample>("histogram", d_temp, *temp_bytes, d_samples, n, num_bins, bin_op,
                                                    d_histogram, sizeof(Counter), accumulate, stream,
                                                    static_cast<const Sample *>(nullptr));
}

}  // namespace msplit
