// msplit slab hash, the C API's bulk operations on 64-bit keys (c_api_impl.cuh): the kernels of a
// map and a set of 64-bit keys (in a file of their own, so that they compile in parallel with the
// 32-bit ones).
#include "c_api_impl.cuh"

template struct msplit::detail::slab::capi::bulk_ops<uint64_t>;
