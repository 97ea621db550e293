// C API instantiation for float keys (keys only, u32 and u64 values).
#include "multisplit/c_api_impl.cuh"

namespace msplit {
namespace detail {
MSPLIT_INSTANTIATE_C_MULTISPLIT(float)
}  // namespace detail
}  // namespace msplit
