// C API instantiation of the histogram for 16-bit integers.
#include "histogram/c_api_impl.cuh"

namespace msplit {
namespace detail {
MSPLIT_INSTANTIATE_C_HISTOGRAM(uint16_t)
MSPLIT_INSTANTIATE_C_HISTOGRAM(int16_t)
}  // namespace detail
}  // namespace msplit
