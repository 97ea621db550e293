// C API instantiation of the segmented sort for float keys (keys only, u32 and u64 values; 32- and
// 64-bit offsets).
#include "segmented_sort/c_api_impl.cuh"

namespace msplit {
namespace detail {
MSPLIT_INSTANTIATE_C_SEGMENTED_SORT(float)
}  // namespace detail
}  // namespace msplit
