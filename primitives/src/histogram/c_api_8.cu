// C API instantiation of the histogram for 8-bit integers.
#include "histogram/c_api_impl.cuh"

namespace msplit {
namespace detail {
MSPLIT_INSTANTIATE_C_HISTOGRAM(uint8_t)
MSPLIT_INSTANTIATE_C_HISTOGRAM(int8_t)
}  // namespace detail
}  // namespace msplit
