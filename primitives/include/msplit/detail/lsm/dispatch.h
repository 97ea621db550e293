// The GPU LSM's dispatch (the "device" level): argument checks, temporary storage and launches of
// its operations, one template per operation over the key and value types. The library holds the
// instantiations of the three type pairs (src/lsm/); the C API (msplit/lsm.h) and the C++ class
// (msplit/lsm.cuh) are thin layers over them. `fn` names the public call in error messages.
#pragma once
#include <cuda_runtime.h>
#include <stddef.h>
#include <stdint.h>

#include "msplit/core.h"
#include "msplit/lsm.h"

namespace msplit {
namespace detail {

// The levels for max_elements slots in batches of b (the fewest with b (2^L - 1) >= max_elements).
msplit_status lsm_levels(const char *fn, size_t max_elements, size_t b, int *levels);

template <typename K, typename V>
msplit_status lsm_storage_bytes_run(const char *fn, size_t max_elements, size_t b, size_t *bytes);
template <typename K, typename V>
msplit_status lsm_plan_run(const char *fn, msplit_lsm *h, size_t max_elements, size_t b);
template <typename K, typename V>
msplit_status lsm_init_run(const char *fn, msplit_lsm *h, void *d_storage, size_t bytes, size_t max_elements,
                           size_t b, cudaStream_t stream);
template <typename K, typename V>
msplit_status lsm_update_run(const char *fn, void *d_temp, size_t *temp_bytes, msplit_lsm *h, const K *keys,
                             const V *values, const uint8_t *ops, size_t n, cudaStream_t stream);
template <typename K, typename V>
msplit_status lsm_lookup_run(const char *fn, const msplit_lsm *h, const K *keys, size_t n, V *values_out,
                             uint8_t *found, cudaStream_t stream);
template <typename K, typename V>
msplit_status lsm_count_run(const char *fn, void *d_temp, size_t *temp_bytes, const msplit_lsm *h, const K *lo,
                            const K *hi, size_t n, uint32_t *counts, uint64_t *offsets, cudaStream_t stream);
template <typename K, typename V>
msplit_status lsm_range_run(const char *fn, void *d_temp, size_t *temp_bytes, const msplit_lsm *h, const K *lo,
                            const K *hi, size_t n, const uint64_t *offsets, K *keys_out, V *values_out,
                            cudaStream_t stream);
template <typename K, typename V>
msplit_status lsm_cleanup_run(const char *fn, void *d_temp, size_t *temp_bytes, msplit_lsm *h, cudaStream_t stream);
template <typename K, typename V>
msplit_status lsm_reclaim_run(const char *fn, msplit_lsm *h, uint64_t *size, cudaStream_t stream);

// The type pairs the library is compiled for: X(K, V, key msplit_type, value msplit_type).
#define MSPLIT_LSM_TYPE_PAIRS(X)                           \
  X(uint32_t, uint32_t, MSPLIT_TYPE_U32, MSPLIT_TYPE_U32) \
  X(uint64_t, uint32_t, MSPLIT_TYPE_U64, MSPLIT_TYPE_U32) \
  X(uint64_t, uint64_t, MSPLIT_TYPE_U64, MSPLIT_TYPE_U64)

}  // namespace detail
}  // namespace msplit
