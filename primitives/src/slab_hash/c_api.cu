// msplit slab hash, the C API's bulk operations on 32-bit keys and values (c_api_impl.cuh): the
// kernels of a map and a set of 32-bit keys.
#include "c_api_impl.cuh"

MSPLIT_SLAB_HASH_C_API(, uint32_t)
