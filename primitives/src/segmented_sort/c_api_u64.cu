// C API instantiation of the segmented sort for uint64_t keys (keys only, u32 and u64 values; 32- and
// 64-bit offsets).
#include "segmented_sort/c_api_impl.cuh"

namespace msplit {
namespace detail {
MSPLIT_INSTANTIATE_C_SEGMENTED_SORT(uint64_t)
}  // namespace detail
}  // namespace msplit
