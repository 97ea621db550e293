// msplit slab hash, the C API's bulk operations for keys of type K, with values of type K (a map)
// or none (a set): each fills the arguments of one bulk launch (msplit/detail/slab_hash/bulk.cuh)
// and runs it for the table's kind. bulk_ops<K> is compiled once per key width, in c_api_u32.cu and
// c_api_u64.cu (so that the two widths' kernels compile in parallel); c_api.cu holds the extern "C"
// functions, which pick the width from the table's key type; the table's value type is checked by
// check_bulk.
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

// The bulk operations on a table of key_type K: keys and values (of type K too) come as the C
// API's untyped pointers. Defined out of the class, so that the `extern template` below keeps
// every translation unit but the width's own from compiling its kernels.
template <typename K>
struct bulk_ops {
  static msplit_status insert(const char *fn, const msplit_slab_hash *t, const void *keys,
                              const void *values, size_t n, msplit_hash_op mode, uint8_t *results,
                              void *stream);
  static msplit_status find(const char *fn, const msplit_slab_hash *t, const void *keys, size_t n,
                            void *values_out, uint8_t *results, void *stream);
  static msplit_status contains(const char *fn, const msplit_slab_hash *t, const void *keys,
                                size_t n, uint8_t *found, void *stream);
  static msplit_status erase(const char *fn, const msplit_slab_hash *t, const void *keys, size_t n,
                             int all, uint8_t *results, void *stream);
  static msplit_status count(const char *fn, const msplit_slab_hash *t, const void *keys, size_t n,
                             uint32_t *counts, void *stream);
  static msplit_status find_all(const char *fn, const msplit_slab_hash *t, const void *keys,
                                size_t n, const uint32_t *offsets, void *values_out, void *stream);
  static msplit_status apply(const char *fn, const msplit_slab_hash *t, const uint8_t *ops,
                             const void *keys, const void *values, size_t n, void *values_out,
                             uint8_t *results, void *stream);
};

template <typename K>
msplit_status bulk_ops<K>::insert(const char *fn, const msplit_slab_hash *t, const void *keys,
                                  const void *values, size_t n, msplit_hash_op mode,
                                  uint8_t *results, void *stream) {
  if (!is_insert_host(uint32_t(mode)))
    return set_error(MSPLIT_ERROR_INVALID_ARGUMENT,
                     "%s: mode %d is not MSPLIT_HASH_OP_INSERT, _INSERT_OR_ASSIGN or _INSERT_DUP",
                     fn, int(mode));
  return run(fn, t, static_cast<const K *>(keys), n, mode, stream, [&](auto &a) {
    a.values = t && t->has_values ? static_cast<const K *>(values) : nullptr;
    a.results = results;
  });
}

template <typename K>
msplit_status bulk_ops<K>::find(const char *fn, const msplit_slab_hash *t, const void *keys,
                                size_t n, void *values_out, uint8_t *results, void *stream) {
  return run(fn, t, static_cast<const K *>(keys), n, MSPLIT_HASH_OP_FIND, stream, [&](auto &a) {
    a.values_out = static_cast<K *>(values_out);
    a.results = results;
  });
}

template <typename K>
msplit_status bulk_ops<K>::contains(const char *fn, const msplit_slab_hash *t, const void *keys,
                                    size_t n, uint8_t *found, void *stream) {
  if (!found && n) return null_with_n(fn, "d_found", n);
  return run(fn, t, static_cast<const K *>(keys), n, MSPLIT_HASH_OP_FIND, stream,
             [&](auto &a) { a.found = found; });
}

template <typename K>
msplit_status bulk_ops<K>::erase(const char *fn, const msplit_slab_hash *t, const void *keys,
                                 size_t n, int all, uint8_t *results, void *stream) {
  const uint32_t op = all ? MSPLIT_HASH_OP_ERASE_ALL : MSPLIT_HASH_OP_ERASE;
  return run(fn, t, static_cast<const K *>(keys), n, op, stream,
             [&](auto &a) { a.results = results; });
}

template <typename K>
msplit_status bulk_ops<K>::count(const char *fn, const msplit_slab_hash *t, const void *keys,
                                 size_t n, uint32_t *counts, void *stream) {
  if (!counts && n) return null_with_n(fn, "d_counts", n);
  return run(fn, t, static_cast<const K *>(keys), n, MSPLIT_HASH_OP_COUNT, stream,
             [&](auto &a) { a.counts = counts; });
}

template <typename K>
msplit_status bulk_ops<K>::find_all(const char *fn, const msplit_slab_hash *t, const void *keys,
                                    size_t n, const uint32_t *offsets, void *values_out,
                                    void *stream) {
  if (!offsets && n) return null_with_n(fn, "d_offsets", n);
  return run(fn, t, static_cast<const K *>(keys), n, MSPLIT_HASH_OP_FIND, stream, [&](auto &a) {
    a.offsets = offsets;
    a.values_out = static_cast<K *>(values_out);
  });
}

template <typename K>
msplit_status bulk_ops<K>::apply(const char *fn, const msplit_slab_hash *t, const uint8_t *ops,
                                 const void *keys, const void *values, size_t n, void *values_out,
                                 uint8_t *results, void *stream) {
  if (!ops && n) return null_with_n(fn, "d_ops", n);
  return run(fn, t, static_cast<const K *>(keys), n, MSPLIT_HASH_OP_NOP, stream, [&](auto &a) {
    a.ops = ops;
    a.values = t && t->has_values ? static_cast<const K *>(values) : nullptr;
    a.values_out = static_cast<K *>(values_out);
    a.results = results;
  });
}

extern template struct bulk_ops<uint32_t>;
extern template struct bulk_ops<uint64_t>;

}  // namespace capi
}  // namespace slab
}  // namespace detail
}  // namespace msplit

