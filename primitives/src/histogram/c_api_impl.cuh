// C API over the histogram templates: the per-sample-type entries (instantiated in
// c_api_<bits>.cu, a few sample types per file so that they compile in parallel).
#pragma once
#include "msplit/histogram.cuh"
#include "msplit/histogram.h"

namespace msplit {
namespace detail {

inline msplit_status c_histogram_counter_bytes(const char *who, msplit_type counter_type, size_t *bytes) {
  switch (counter_type) {
    case MSPLIT_TYPE_U32: *bytes = 4; return MSPLIT_SUCCESS;
    case MSPLIT_TYPE_U64: *bytes = 8; return MSPLIT_SUCCESS;
    default:
      return set_error(MSPLIT_ERROR_UNSUPPORTED, "%s: counter type %d is not supported (u32, u64)", who,
                       int(counter_type));
  }
}

template <typename Sample>
msplit_status c_histogram_even(void *d_temp, size_t *temp_bytes, const void *samples, size_t n, uint32_t m,
                               double lower, double width, void *hist, msplit_type counter_type, int accumulate,
                               cudaStream_t stream) {
  using L = histogram_level<Sample>;
  const char *who = "msplit_histogram_even";
  size_t counter_bytes = 0;
  MSPLIT_TRY(c_histogram_counter_bytes(who, counter_type, &counter_bytes));
  // the bounds must be values of the level type (checked once the call is not a size query)
  const bool fit = histogram_scalar_fits<L>(lower) && histogram_scalar_fits<L>(width);
  if (d_temp && temp_bytes && !fit)
    return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: lower %g or width %g is not a value of the %zu-byte %s level type",
                     who, lower, width, sizeof(L), std::is_floating_point_v<L> ? "floating-point" : "integer");
  return histogram_even_entry(who, d_temp, temp_bytes, static_cast<const Sample *>(samples), n, m, fit ? L(lower) : L(0),
                              fit ? L(width) : L(1), hist, counter_bytes, accumulate != 0, stream);
}

template <typename Sample>
msplit_status c_histogram_range(void *d_temp, size_t *temp_bytes, const void *samples, size_t n, uint32_t m,
                                const void *levels, void *hist, msplit_type counter_type, int accumulate,
                                cudaStream_t stream) {
  using L = histogram_level<Sample>;
  const char *who = "msplit_histogram_range";
  size_t counter_bytes = 0;
  MSPLIT_TRY(c_histogram_counter_bytes(who, counter_type, &counter_bytes));
  return histogram_range_entry(who, d_temp, temp_bytes, static_cast<const Sample *>(samples), n, m,
                               static_cast<const L *>(levels), hist, counter_bytes, accumulate != 0, stream);
}

#define MSPLIT_HISTOGRAM_C_TEMPLATES(X, Sample)                                                                  \
  X template msplit_status c_histogram_even<Sample>(void *, size_t *, const void *, size_t, uint32_t, double,   \
                                                    double, void *, msplit_type, int, cudaStream_t);           \
  X template msplit_status c_histogram_range<Sample>(void *, size_t *, const void *, size_t, uint32_t,          \
                                                     const void *, void *, msplit_type, int, cudaStream_t);
#define MSPLIT_DECLARE_C_HISTOGRAM(Sample) MSPLIT_HISTOGRAM_C_TEMPLATES(extern, Sample)
#define MSPLIT_INSTANTIATE_C_HISTOGRAM(Sample) MSPLIT_HISTOGRAM_C_TEMPLATES(, Sample)

}  // namespace detail
}  // namespace msplit
