// C API instantiation for int32_t keys (keys only, u32 and u64 values).
#include "multisplit/c_api_impl.cuh"

namespace msplit {
namespace detail {
MSPLIT_INSTANTIATE_C_MULTISPLIT(int32_t)
}  // namespace detail
}  // namespace msplit
