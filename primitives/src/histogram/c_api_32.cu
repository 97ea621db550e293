// C API instantiation of the histogram for 32-bit samples.
#include "histogram/c_api_impl.cuh"

namespace msplit {
namespace detail {
MSPLIT_INSTANTIATE_C_HISTOGRAM(uint32_t)
MSPLIT_INSTANTIATE_C_HISTOGRAM(int32_t)
MSPLIT_INSTANTIATE_C_HISTOGRAM(float)
}  // namespace detail
}  // namespace msplit
