// Histogram dispatch (the "device" level): checks arguments, sizes temporary storage, picks the
// way to count (count.cuh) from m, sizes the grid to the SMs and launches.
//
// Temporary storage is the error record alone (HISTOGRAM_TEMP_BYTES, whatever n and m): the
// verdict of the range boundary check, which msplit_check_sync reads. The block counters live in
// shared memory, so nothing of size O(m) per block is kept in global memory.
#pragma once
#include <cuda_runtime.h>
#include <stddef.h>
#include <stdint.h>

#include <cmath>
#include <limits>
#include <type_traits>

#include "msplit/bucket.cuh"
#include "msplit/detail/error.cuh"
#include "msplit/detail/histogram/count.cuh"
#include "msplit/detail/histogram/few_bins.cuh"
#include "msplit/detail/util.cuh"
#include "msplit/detail/histogram/tuning.h"

namespace msplit {
namespace detail {

constexpr size_t HISTOGRAM_TEMP_BYTES = sizeof(msplit_error_record);
// Largest m: the histogram itself is then 4 or 8 GB.
constexpr uint32_t HISTOGRAM_MAX_BINS = uint32_t(1) << 30;

// How a call counts: the mode, the slices, the functor staging and the shared memory.
struct hist_plan {
  hist_mode mode;
  uint32_t slice_bins, num_slices;
  size_t stage_bytes, stage_offset, smem_bytes;
};

// The plan of a given mode; SHARED cuts m into slices of at most max_slice_bins. stage_bytes:
// histogram_stage_bytes of the functor (0: not staged).
inline hist_plan plan_for_mode(hist_mode mode, uint32_t m, uint32_t max_slice_bins, size_t stage_bytes) {
  hist_plan p{};
  p.mode = mode;
  p.num_slices = mode == hist_mode::SHARED ? (m + max_slice_bins - 1) / max_slice_bins : 1;
  // balanced slices: m = 16385 gives two of 8193, not 16384 and 1
  p.slice_bins = (m + p.num_slices - 1) / p.num_slices;
  const size_t counter_bytes = mode == hist_mode::GLOBAL ? 0
                               : mode == hist_mode::BYTE ? 2 * BYTE_VALUES * sizeof(uint32_t)
                                                         : size_t(p.slice_bins) * sizeof(uint32_t);
  if (mode == hist_mode::BYTE) stage_bytes = 0;  // 256 bins computed per block: from global memory
  p.stage_bytes = stage_bytes;
  p.stage_offset = align_up(counter_bytes, 16);
  p.smem_bytes = p.stage_offset + stage_bytes;
  return p;
}

// The library's choice for m bins of sample_bytes samples (detail/histogram/tuning.h says why).
// stage_bytes: what the functor stages; full_stage_bytes: what it would stage without a limit
// (more means that part of every bin is computed from global memory).
inline hist_plan make_hist_plan(uint32_t m, size_t sample_bytes, size_t stage_bytes, size_t full_stage_bytes) {
  const uint32_t slices = (m + tuning::HIST_MAX_SLICE_BINS - 1) / tuning::HIST_MAX_SLICE_BINS;
  // slices compute every bin once per slice: not when a bin reads global memory
  const bool costly_bins = stage_bytes < full_stage_bytes;
  hist_mode mode = hist_mode::SHARED;
  if (sample_bytes == 1) mode = hist_mode::BYTE;
  else if (slices > tuning::HIST_MAX_SLICES || (slices > 1 && costly_bins)) mode = hist_mode::GLOBAL;
  return plan_for_mode(mode, m, tuning::HIST_MAX_SLICE_BINS, stage_bytes);
}

// The first checks of every entry: temp_bytes, then the size query (d_temp == NULL). Returns
// true in *done when the call is answered (a query, or an error in the returned status).
inline msplit_status histogram_temp_query(const char *who, const void *d_temp, size_t *temp_bytes, bool *done) {
  *done = true;
  if (!temp_bytes) return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: temp_bytes is NULL", who);
  if (!d_temp) {
    *temp_bytes = HISTOGRAM_TEMP_BYTES;
    return MSPLIT_SUCCESS;
  }
  *done = false;
  return MSPLIT_SUCCESS;
}

template <hist_mode MODE, typename Sample, typename Key, typename Op>
msplit_status launch_histogram(const hist_args<Sample, Op> &a, const hist_plan &p, size_t n, cudaStream_t stream) {
  constexpr int BT = tuning::HIST_BLOCK_THREADS;
  constexpr size_t TILE = size_t(BT) * tuning::HIST_LOADS_PER_THREAD * (16 / sizeof(Sample));
  auto kernel = histogram_kernel<MODE, Sample, Key, Op>;
  MSPLIT_TRY(prepare_kernel(kernel, p.smem_bytes));
  int device = 0, sms = 1, per_sm = 0;
  MSPLIT_CUDA_TRY(cudaGetDevice(&device));
  MSPLIT_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  MSPLIT_CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, BT, p.smem_bytes));
  if (per_sm < 1)
    return set_error(MSPLIT_ERROR_INTERNAL, "histogram: %zu bytes of shared memory per block do not fit an SM",
                     p.smem_bytes);
  // blocks per slice: enough to fill the SMs, no more than there are tiles, and enough that
  // none counts 2^31 samples
  size_t parts = (size_t(per_sm) * sms + p.num_slices - 1) / p.num_slices;
  const size_t tiles = (n + TILE - 1) / TILE;
  if (parts > tiles) parts = tiles;
  const size_t min_parts = (n + tuning::HIST_MAX_SAMPLES_PER_BLOCK - 1) / tuning::HIST_MAX_SAMPLES_PER_BLOCK;
  if (parts < min_parts) parts = min_parts;
  if (parts < 1) parts = 1;
  const size_t grid = parts * p.num_slices;
  if (grid > 0x7FFFFFFFu) return set_error(MSPLIT_ERROR_UNSUPPORTED, "histogram: n = %zu needs too many blocks", n);
  kernel<<<unsigned(grid), BT, p.smem_bytes, stream>>>(a);
  MSPLIT_LAUNCH_CHECK();
  return MSPLIT_SUCCESS;
}

// Launches the counting kernel of plan p (the histogram is zeroed already, unless accumulating).
template <typename Sample, typename Key, typename Op>
msplit_status histogram_run_plan(const hist_plan &p, const Sample *samples, size_t n, uint32_t m, const Op &op,
                                 void *hist, bool wide, error_record *record, bool levels_checked,
                                 cudaStream_t stream) {
  const hist_args<Sample, Op> a{samples, n, op, m, p.slice_bins, p.num_slices, uint32_t(p.stage_bytes),
                                uint32_t(p.stage_offset), hist, wide, record, levels_checked};
  switch (p.mode) {
    case hist_mode::SHARED: return launch_histogram<hist_mode::SHARED, Sample, Key>(a, p, n, stream);
    case hist_mode::BYTE:
      if constexpr (sizeof(Sample) == 1) return launch_histogram<hist_mode::BYTE, Sample, Key>(a, p, n, stream);
      return set_error(MSPLIT_ERROR_INTERNAL, "histogram: byte counting of %zu-byte samples", sizeof(Sample));
    default: return launch_histogram<hist_mode::GLOBAL, Sample, Key>(a, p, n, stream);
  }
}

// Counts n samples into m bins of `hist` (4- or 8-byte counters): bin of sample s =
// histogram_bin(op, Key(s)). `levels` (range bins only, else NULL): the m + 1 boundaries that
// the device checks before anything is written. The caller has answered the size query and
// checked the functor's own parameters.
template <typename Sample, typename Key, typename Op>
msplit_status histogram_dispatch(const char *who, void *d_temp, size_t temp_bytes, const Sample *samples, size_t n,
                                 uint32_t m, const Op &op, void *hist, size_t counter_bytes, bool accumulate,
                                 cudaStream_t stream, const Key *levels) {
  // 1. check the arguments (nothing is written before every check has passed)
  if (m == 0) return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: num_bins is 0 (need at least 1)", who);
  if (m > HISTOGRAM_MAX_BINS)
    return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: num_bins is %u (at most %u)", who, m, HISTOGRAM_MAX_BINS);
  if (!samples && n > 0) return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: d_samples is NULL with n = %zu", who, n);
  if (!hist) return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: d_histogram is NULL", who);
  if (reinterpret_cast<uintptr_t>(samples) % sizeof(Sample))
    return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: d_samples is not aligned to its %zu-byte type", who,
                     sizeof(Sample));
  if (reinterpret_cast<uintptr_t>(hist) % counter_bytes)
    return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: d_histogram is not aligned to its %zu-byte counters", who,
                     counter_bytes);
  const size_t hist_bytes = size_t(m) * counter_bytes;
  if (n > 0 && ranges_overlap(samples, n * sizeof(Sample), hist, hist_bytes))
    return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: d_histogram overlaps d_samples", who);
  if (levels && ranges_overlap(levels, (size_t(m) + 1) * sizeof(Key), hist, hist_bytes))
    return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: d_histogram overlaps d_levels", who);
  if (temp_bytes < HISTOGRAM_TEMP_BYTES)
    return set_error(MSPLIT_ERROR_TEMP_STORAGE, "%s: temp_bytes is %zu, %zu needed", who, temp_bytes,
                     HISTOGRAM_TEMP_BYTES);
  if (reinterpret_cast<uintptr_t>(d_temp) % alignof(msplit_error_record))
    return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: d_temp is not %zu-byte aligned", who,
                     alignof(msplit_error_record));
  if (ranges_overlap(d_temp, HISTOGRAM_TEMP_BYTES, hist, hist_bytes))
    return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: d_temp overlaps d_histogram", who);

  // 2. zero the histogram (unless accumulating); range bins: check the boundaries first (which
  //    clears the error record or fills it; otherwise the counting kernel clears it)
  const bool wide = counter_bytes == 8;
  error_record *record = temp_record(d_temp);
  if (levels) {
    histogram_check_levels_kernel<Key><<<1, 1024, 0, stream>>>(levels, m, record, hist, wide, !accumulate);
    MSPLIT_LAUNCH_CHECK();
  } else if (!accumulate) {
    MSPLIT_CUDA_TRY(cudaMemsetAsync(hist, 0, hist_bytes, stream));
  }
  if (n == 0) return levels ? MSPLIT_SUCCESS : clear_record(d_temp, stream);

  // 3. count
  const hist_plan p = make_hist_plan(m, sizeof(Sample), histogram_stage_bytes(op, tuning::HIST_MAX_STAGE_BYTES),
                                     histogram_stage_bytes(op, SIZE_MAX));
  return histogram_run_plan<Sample, Key>(p, samples, n, m, op, hist, wide, record, levels != nullptr, stream);
}

// Bounds and boundaries of Sample samples (msplit::histogram_level_t).
template <typename Sample>
using histogram_level = std::conditional_t<std::is_integral_v<Sample> && (sizeof(Sample) < 4),
                                           std::conditional_t<std::is_signed_v<Sample>, int32_t, uint32_t>, Sample>;

// The entries of histogram_even and histogram_range (C++ and C API), `who` naming the caller.
template <typename Sample>
msplit_status histogram_even_entry(const char *who, void *d_temp, size_t *temp_bytes, const Sample *samples, size_t n,
                                   uint32_t m, histogram_level<Sample> lower, histogram_level<Sample> width, void *hist,
                                   size_t counter_bytes, bool accumulate, cudaStream_t stream) {
  using L = histogram_level<Sample>;
  bool done = false;
  const msplit_status st = histogram_temp_query(who, d_temp, temp_bytes, &done);
  if (done) return st;
  if (!(width > L(0))) return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: width must be > 0", who);
  if constexpr (std::is_floating_point_v<L>) {
    if (!(lower - lower == L(0)) || !(width - width == L(0)))  // inf - inf and NaN - NaN are NaN
      return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: lower and width must be finite", who);
  }
  const delta_bucket<L> op(lower, width, m);
  return histogram_dispatch<Sample, L>(who, d_temp, *temp_bytes, samples, n, m, op, hist, counter_bytes, accumulate,
                                       stream, static_cast<const L *>(nullptr));
}

template <typename Sample>
msplit_status histogram_range_entry(const char *who, void *d_temp, size_t *temp_bytes, const Sample *samples, size_t n,
                                    uint32_t m, const histogram_level<Sample> *levels, void *hist, size_t counter_bytes,
                                    bool accumulate, cudaStream_t stream) {
  using L = histogram_level<Sample>;
  bool done = false;
  const msplit_status st = histogram_temp_query(who, d_temp, temp_bytes, &done);
  if (done) return st;
  if (!levels) return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: d_levels is NULL", who);
  if (m < few_splitter_bins<L>::MAX_SPLITTERS) {
    few_splitter_bins<L> few;
    few.splitters = levels;
    few.num_splitters = m + 1;
    return histogram_dispatch<Sample, L>(who, d_temp, *temp_bytes, samples, n, m, few, hist, counter_bytes,
                                         accumulate, stream, levels);
  }
  splitter_bucket<L> op;
  op.splitters = levels;
  op.num_splitters = m + 1;
  return histogram_dispatch<Sample, L>(who, d_temp, *temp_bytes, samples, n, m, op, hist, counter_bytes, accumulate,
                                       stream, levels);
}

// Whether a C API scalar (a double) is a value of the level type L: integral and in range for
// integers, finite for floating point.
template <typename L>
bool histogram_scalar_fits(double v) {
  if constexpr (std::is_floating_point_v<L>) {
    return std::isfinite(v) && std::fabs(v) <= double(std::numeric_limits<L>::max());
  } else {
    return v == std::floor(v) && v >= double(std::numeric_limits<L>::min()) &&
           v <= double(std::numeric_limits<L>::max());
  }
}

}  // namespace detail
}  // namespace msplit
