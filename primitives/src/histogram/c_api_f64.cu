// C API instantiation of the histogram for double samples.
#include "histogram/c_api_impl.cuh"

namespace msplit {
namespace detail {
MSPLIT_INSTANTIATE_C_HISTOGRAM(double)
}  // namespace detail
}  // namespace msplit
