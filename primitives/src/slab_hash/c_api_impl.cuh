// msplit slab hash, the C API's bulk operations for keys of type K, with values of type K (a map)
// or none (a set): each fills the arguments of one bulk launch (msplit/detail/slab_hash/bulk.cuh)
// and runs it for the table's kind. MSPLIT_SLAB_HASH_C_API defines the extern "C" functions of one
// key width over them: c_api.cu for 32-bit keys, c_api_u64.cu for 64-bit ones; the table's own
// key and value types are checked by check_bulk.
#pragma once
#include "msplit/detail/slab_hash/bulk.cuh"
#include "msplit/slab_hash.h"

namespace msplit {
namespace detail {
namespace slab {
namespace capi {

// Runs one bulk launch of operation `op` on keys[0, n), its other arguments set by fill(args),
// with the format of the table's kind (a set if the table is NULL: check_bulk refuses it).
template <typename K, class Fill>
msplit_status run(const char *fn, const msplit_slab_hash *t, const K *keys, size_t n, uint32_t op,
                  void *stream, Fill fill) {
  const auto launch = [&](auto a) {
    a.keys = keys;
    a.n = n;
    a.op = op;
    fill(a);
    return bulk(fn, t, a, static_cast<cudaStream_t>(stream));
  };
  if (t && t->has_values) return launch(bulk_args<format<K, K>>{});
  return launch(bulk_args<format<K, void>>{});
}

inline msplit_status null_with_n(const char *fn, const char *arg, size_t n) {
  return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: %s is NULL with n = %zu", fn, arg, n);
}

template <typename K>
msplit_status insert(const char *fn, const msplit_slab_hash *t, const K *keys, const K *values,
                     size_t n, msplit_hash_op mode, uint8_t *results, void *stream) {
  if (!is_insert_host(uint32_t(mode)))
    return set_error(MSPLIT_ERROR_INVALID_ARGUMENT,
                     "%s: mode %d is not MSPLIT_HASH_OP_INSERT, _INSERT_OR_ASSIGN or _INSERT_DUP",
                     fn, int(mode));
  return run(fn, t, keys, n, mode, stream, [&](auto &a) {
    a.values = t && t->has_values ? values : nullptr;
    a.results = results;
  });
}

template <typename K>
msplit_status find(const char *fn, const msplit_slab_hash *t, const K *keys, size_t n,
                   K *values_out, uint8_t *results, void *stream) {
  return run(fn, t, keys, n, MSPLIT_HASH_OP_FIND, stream, [&](auto &a) {
    a.values_out = values_out;
    a.results = results;
  });
}

template <typename K>
msplit_status contains(const char *fn, const msplit_slab_hash *t, const K *keys, size_t n,
                       uint8_t *found, void *stream) {
  if (!found && n) return null_with_n(fn, "d_found", n);
  return run(fn, t, keys, n, MSPLIT_HASH_OP_FIND, stream, [&](auto &a) { a.found = found; });
}

template <typename K>
msplit_status erase(const char *fn, const msplit_slab_hash *t, const K *keys, size_t n, int all,
                    uint8_t *results, void *stream) {
  const uint32_t op = all ? MSPLIT_HASH_OP_ERASE_ALL : MSPLIT_HASH_OP_ERASE;
  return run(fn, t, keys, n, op, stream, [&](auto &a) { a.results = results; });
}

template <typename K>
msplit_status count(const char *fn, const msplit_slab_hash *t, const K *keys, size_t n,
                    uint32_t *counts, void *stream) {
  if (!counts && n) return null_with_n(fn, "d_counts", n);
  return run(fn, t, keys, n, MSPLIT_HASH_OP_COUNT, stream, [&](auto &a) { a.counts = counts; });
}

template <typename K>
msplit_status find_all(const char *fn, const msplit_slab_hash *t, const K *keys, size_t n,
                       const uint32_t *offsets, K *values_out, void *stream) {
  if (!offsets && n) return null_with_n(fn, "d_offsets", n);
  return run(fn, t, keys, n, MSPLIT_HASH_OP_FIND, stream, [&](auto &a) {
    a.offsets = offsets;
    a.values_out = values_out;
  });
}

template <typename K>
msplit_status apply(const char *fn, const msplit_slab_hash *t, const uint8_t *ops, const K *keys,
                    const K *values, size_t n, K *values_out, uint8_t *results, void *stream) {
  if (!ops && n) return null_with_n(fn, "d_ops", n);
  return run(fn, t, keys, n, MSPLIT_HASH_OP_NOP, stream, [&](auto &a) {
    a.ops = ops;
    a.values = t && t->has_values ? values : nullptr;
    a.values_out = values_out;
    a.results = results;
  });
}

}  // namespace capi
}  // namespace slab
}  // namespace detail
}  // namespace msplit

// The C API's bulk functions for keys (and values) of type K, named msplit_slab_hash_<op>SUFFIX.
#define MSPLIT_SLAB_HASH_C_API(SUFFIX, K)                                                          \
  namespace capi = msplit::detail::slab::capi;                                                     \
  extern "C" msplit_status msplit_slab_hash_insert##SUFFIX(                                        \
      const msplit_slab_hash *table, const K *d_keys, const K *d_values, size_t n,                 \
      msplit_hash_op mode, uint8_t *d_results, void *stream) {                                     \
    return capi::insert("msplit_slab_hash_insert" #SUFFIX, table, d_keys, d_values, n, mode,       \
                        d_results, stream);                                                        \
  }                                                                                                \
                                                                                                   \
  extern "C" msplit_status msplit_slab_hash_find##SUFFIX(                                          \
      const msplit_slab_hash *table, const K *d_keys, size_t n, K *d_values_out,                   \
      uint8_t *d_results, void *stream) {                                                          \
    return capi::find("msplit_slab_hash_find" #SUFFIX, table, d_keys, n, d_values_out, d_results,  \
                      stream);                                                                     \
  }                                                                                                \
                                                                                                   \
  extern "C" msplit_status msplit_slab_hash_contains##SUFFIX(                                      \
      const msplit_slab_hash *table, const K *d_keys, size_t n, uint8_t *d_found, void *stream) {  \
    return capi::contains("msplit_slab_hash_contains" #SUFFIX, table, d_keys, n, d_found, stream); \
  }                                                                                                \
                                                                                                   \
  extern "C" msplit_status msplit_slab_hash_erase##SUFFIX(const msplit_slab_hash *table,           \
                                                          const K *d_keys, size_t n, int all,      \
                                                          uint8_t *d_results, void *stream) {      \
    return capi::erase("msplit_slab_hash_erase" #SUFFIX, table, d_keys, n, all, d_results,         \
                       stream);                                                                    \
  }                                                                                                \
                                                                                                   \
  extern "C" msplit_status msplit_slab_hash_count##SUFFIX(const msplit_slab_hash *table,           \
                                                          const K *d_keys, size_t n,               \
                                                          uint32_t *d_counts, void *stream) {      \
    return capi::count("msplit_slab_hash_count" #SUFFIX, table, d_keys, n, d_counts, stream);      \
  }                                                                                                \
                                                                                                   \
  extern "C" msplit_status msplit_slab_hash_find_all##SUFFIX(                                      \
      const msplit_slab_hash *table, const K *d_keys, size_t n, const uint32_t *d_offsets,         \
      K *d_values_out, void *stream) {                                                             \
    return capi::find_all("msplit_slab_hash_find_all" #SUFFIX, table, d_keys, n, d_offsets,        \
                          d_values_out, stream);                                                   \
  }                                                                                                \
                                                                                                   \
  extern "C" msplit_status msplit_slab_hash_apply##SUFFIX(                                         \
      const msplit_slab_hash *table, const uint8_t *d_ops, const K *d_keys, const K *d_values,     \
      size_t n, K *d_values_out, uint8_t *d_results, void *stream) {                               \
    return capi::apply("msplit_slab_hash_apply" #SUFFIX, table, d_ops, d_keys, d_values, n,        \
                       d_values_out, d_results, stream);                                           \
  }
