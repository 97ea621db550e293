// The radix sort's instantiations for 32-bit keys (keys only, 32-bit and 64-bit values); every
// 32-bit key type runs as these (msplit/detail/radix_sort/key_codec.cuh).
#define MSPLIT_RADIX_SORT_INSTANTIATING
#include "msplit/radix_sort.cuh"

namespace msplit {
namespace detail {
MSPLIT_RADIX_SORT_RUN(, uint32_t, no_value)
MSPLIT_RADIX_SORT_RUN(, uint32_t, uint32_t)
MSPLIT_RADIX_SORT_RUN(, uint32_t, uint64_t)
}  // namespace detail
}  // namespace msplit
