// msplit C API for the GPU LSM: the structure's type tags onto the dispatch's instantiations
// (msplit/detail/lsm/dispatch.h), and the stream.
#include "msplit/detail/error.cuh"
#include "msplit/detail/lsm/dispatch.h"
#include "msplit/lsm.h"

using msplit::detail::set_error;

namespace {

// Calls f(K{}, V{}) for the instantiated pair (key_type, value_type).
template <typename F>
msplit_status by_types(const char *fn, msplit_type key_type, msplit_type value_type, F f) {
#define MSPLIT_LSM_CASE(K, V, KT, VT) \
  if (key_type == KT && value_type == VT) return f(K{}, V{});
  MSPLIT_LSM_TYPE_PAIRS(MSPLIT_LSM_CASE)
#undef MSPLIT_LSM_CASE
  return set_error(MSPLIT_ERROR_UNSUPPORTED,
                   "%s: key type %d with value type %d is not supported (U32 with U32, U64 with U32 or U64)", fn,
                   int(key_type), int(value_type));
}

// The same for a handle's types.
template <typename F>
msplit_status by_handle(const char *fn, const msplit_lsm *lsm, F f) {
  if (!lsm) return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: lsm is NULL", fn);
  return by_types(fn, lsm->key_type, lsm->value_type, f);
}

cudaStream_t as_stream(void *s) { return static_cast<cudaStream_t>(s); }

}  // namespace

extern "C" msplit_status msplit_lsm_storage_bytes(size_t max_elements, size_t batch_size, msplit_type key_type,
                                                  msplit_type value_type, size_t *bytes) {
  constexpr const char *FN = "msplit_lsm_storage_bytes";
  return by_types(FN, key_type, value_type, [&](auto k, auto v) {
    return msplit::detail::lsm_storage_bytes_run<decltype(k), decltype(v)>(FN, max_elements, batch_size, bytes);
  });
}

extern "C" msplit_status msplit_lsm_plan(msplit_lsm *lsm, size_t max_elements, size_t batch_size,
                                         msplit_type key_type, msplit_type value_type) {
  constexpr const char *FN = "msplit_lsm_plan";
  return by_types(FN, key_type, value_type, [&](auto k, auto v) {
    return msplit::detail::lsm_plan_run<decltype(k), decltype(v)>(FN, lsm, max_elements, batch_size);
  });
}

extern "C" msplit_status msplit_lsm_init(msplit_lsm *lsm, void *d_storage, size_t bytes, size_t max_elements,
                                         size_t batch_size, msplit_type key_type, msplit_type value_type,
                                         void *stream) {
  constexpr const char *FN = "msplit_lsm_init";
  return by_types(FN, key_type, value_type, [&](auto k, auto v) {
    return msplit::detail::lsm_init_run<decltype(k), decltype(v)>(FN, lsm, d_storage, bytes, max_elements, batch_size,
                                                                  as_stream(stream));
  });
}

extern "C" msplit_status msplit_lsm_update(void *d_temp, size_t *temp_bytes, msplit_lsm *lsm, const void *d_keys,
                                           const void *d_values, const uint8_t *d_ops, size_t n, void *stream) {
  constexpr const char *FN = "msplit_lsm_update";
  return by_handle(FN, lsm, [&](auto k, auto v) {
    using K = decltype(k);
    using V = decltype(v);
    return msplit::detail::lsm_update_run<K, V>(FN, d_temp, temp_bytes, lsm, static_cast<const K *>(d_keys),
                                                static_cast<const V *>(d_values), d_ops, n, as_stream(stream));
  });
}

extern "C" msplit_status msplit_lsm_lookup(const msplit_lsm *lsm, const void *d_keys, size_t n, void *d_values_out,
                                           uint8_t *d_found, void *stream) {
  constexpr const char *FN = "msplit_lsm_lookup";
  return by_handle(FN, lsm, [&](auto k, auto v) {
    using K = decltype(k);
    using V = decltype(v);
    return msplit::detail::lsm_lookup_run<K, V>(FN, lsm, static_cast<const K *>(d_keys), n,
                                                static_cast<V *>(d_values_out), d_found, as_stream(stream));
  });
}

extern "C" msplit_status msplit_lsm_count(void *d_temp, size_t *temp_bytes, const msplit_lsm *lsm, const void *d_lo,
                                          const void *d_hi, size_t n, uint32_t *d_counts, uint64_t *d_offsets,
                                          void *stream) {
  constexpr const char *FN = "msplit_lsm_count";
  return by_handle(FN, lsm, [&](auto k, auto v) {
    using K = decltype(k);
    return msplit::detail::lsm_count_run<K, decltype(v)>(FN, d_temp, temp_bytes, lsm, static_cast<const K *>(d_lo),
                                                         static_cast<const K *>(d_hi), n, d_counts, d_offsets,
                                                         as_stream(stream));
  });
}

extern "C" msplit_status msplit_lsm_range(void *d_temp, size_t *temp_bytes, const msplit_lsm *lsm, const void *d_lo,
                                          const void *d_hi, size_t n, const uint64_t *d_offsets, void *d_keys_out,
                                          void *d_values_out, void *stream) {
  constexpr const char *FN = "msplit_lsm_range";
  return by_handle(FN, lsm, [&](auto k, auto v) {
    using K = decltype(k);
    using V = decltype(v);
    return msplit::detail::lsm_range_run<K, V>(FN, d_temp, temp_bytes, lsm, static_cast<const K *>(d_lo),
                                               static_cast<const K *>(d_hi), n, d_offsets,
                                               static_cast<K *>(d_keys_out), static_cast<V *>(d_values_out),
                                               as_stream(stream));
  });
}

extern "C" msplit_status msplit_lsm_cleanup(void *d_temp, size_t *temp_bytes, msplit_lsm *lsm, void *stream) {
  constexpr const char *FN = "msplit_lsm_cleanup";
  return by_handle(FN, lsm, [&](auto k, auto v) {
    return msplit::detail::lsm_cleanup_run<decltype(k), decltype(v)>(FN, d_temp, temp_bytes, lsm, as_stream(stream));
  });
}

extern "C" msplit_status msplit_lsm_reclaim_sync(msplit_lsm *lsm, uint64_t *size, void *stream) {
  constexpr const char *FN = "msplit_lsm_reclaim_sync";
  return by_handle(FN, lsm, [&](auto k, auto v) {
    return msplit::detail::lsm_reclaim_run<decltype(k), decltype(v)>(FN, lsm, size, as_stream(stream));
  });
}
