// msplit C API for the histogram: a switch over the sample type tag onto the instantiations in
// c_api_<bits>.cu.
#include "common/status_impl.cuh"
#include "histogram/c_api_impl.cuh"

namespace msplit {
namespace detail {
MSPLIT_DECLARE_C_HISTOGRAM(uint8_t)
MSPLIT_DECLARE_C_HISTOGRAM(int8_t)
MSPLIT_DECLARE_C_HISTOGRAM(uint16_t)
MSPLIT_DECLARE_C_HISTOGRAM(int16_t)
MSPLIT_DECLARE_C_HISTOGRAM(uint32_t)
MSPLIT_DECLARE_C_HISTOGRAM(int32_t)
MSPLIT_DECLARE_C_HISTOGRAM(float)
MSPLIT_DECLARE_C_HISTOGRAM(double)

// Returns CALL(Sample) for the sample type tag, or reports the tag unsupported.
#define MSPLIT_HISTOGRAM_SWITCH(who, type, CALL)                                                              \
  switch (type) {                                                                                            \
    case MSPLIT_TYPE_U8: return CALL(uint8_t);                                                                \
    case MSPLIT_TYPE_I8: return CALL(int8_t);                                                                 \
    case MSPLIT_TYPE_U16: return CALL(uint16_t);                                                              \
    case MSPLIT_TYPE_I16: return CALL(int16_t);                                                               \
    case MSPLIT_TYPE_U32: return CALL(uint32_t);                                                              \
    case MSPLIT_TYPE_I32: return CALL(int32_t);                                                               \
    case MSPLIT_TYPE_F32: return CALL(float);                                                                 \
    case MSPLIT_TYPE_F64: return CALL(double);                                                                \
    default:                                                                                                 \
      return set_error(MSPLIT_ERROR_UNSUPPORTED,                                                             \
                       "%s: sample type %d is not supported (u8, i8, u16, i16, u32, i32, f32, f64)", who,   \
                       int(type));                                                                           \
  }
}  // namespace detail
}  // namespace msplit

extern "C" msplit_status msplit_histogram_even(void *d_temp, size_t *temp_bytes, const void *d_samples,
                                               void *d_histogram, size_t n, uint32_t num_bins, double lower,
                                               double width, msplit_type sample_type,
                                               msplit_type counter_type, int accumulate, void *stream) {
  using namespace msplit::detail;
  cudaStream_t s = static_cast<cudaStream_t>(stream);
#define MSPLIT_EVEN(T) \
  c_histogram_even<T>(d_temp, temp_bytes, d_samples, n, num_bins, lower, width, d_histogram, counter_type, accumulate, s)
  MSPLIT_HISTOGRAM_SWITCH("msplit_histogram_even", sample_type, MSPLIT_EVEN)
#undef MSPLIT_EVEN
}

extern "C" msplit_status msplit_histogram_range(void *d_temp, size_t *temp_bytes, const void *d_samples,
                                                void *d_histogram, size_t n, uint32_t num_bins,
                                                const void *d_levels, msplit_type sample_type,
                                                msplit_type counter_type, int accumulate, void *stream) {
  using namespace msplit::detail;
  cudaStream_t s = static_cast<cudaStream_t>(stream);
#define MSPLIT_RANGE(T) \
  c_histogram_range<T>(d_temp, temp_bytes, d_samples, n, num_bins, d_levels, d_histogram, counter_type, accumulate, s)
  MSPLIT_HISTOGRAM_SWITCH("msplit_histogram_range", sample_type, MSPLIT_RANGE)
#undef MSPLIT_RANGE
}
