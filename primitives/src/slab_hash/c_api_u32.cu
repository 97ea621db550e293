// msplit slab hash, the C API's bulk operations on 32-bit keys (c_api_impl.cuh): the kernels of a
// map and a set of 32-bit keys.
#include "c_api_impl.cuh"

template struct msplit::detail::slab::capi::bulk_ops<uint32_t>;
