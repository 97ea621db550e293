// msplit slab hash, the C API's bulk operations: each takes untyped keys and values and serves
// them at the table's key and value types (msplit_slab_hash_init), through the width's bulk_ops
// (c_api_impl.cuh; compiled in c_api_u32.cu and c_api_u64.cu).
#include "c_api_impl.cuh"

namespace {

namespace capi = msplit::detail::slab::capi;
namespace sl = msplit::detail::slab;

// Calls f(bulk_ops<K>{}) for the table's key type K. The C API serves maps of K to K and sets of
// K (the kernels it compiles); a table of other types gets MSPLIT_ERROR_UNSUPPORTED. A NULL or
// uninitialised table goes to the 32-bit operations, whose check_bulk names what is wrong.
template <class Fn>
msplit_status by_key(const char *fn, const msplit_slab_hash *t, Fn f) {
  if (!t || !t->d_storage || t->num_buckets == 0) return f(capi::bulk_ops<uint32_t>{});
  const bool set = t->value_type == MSPLIT_TYPE_NONE;
  if (t->key_type == MSPLIT_TYPE_U32 && (set || t->value_type == MSPLIT_TYPE_U32))
    return f(capi::bulk_ops<uint32_t>{});
  if (t->key_type == MSPLIT_TYPE_U64 && (set || t->value_type == MSPLIT_TYPE_U64))
    return f(capi::bulk_ops<uint64_t>{});
  return msplit::detail::set_error(
      MSPLIT_ERROR_UNSUPPORTED,
      "%s: the table holds %s keys and %s values; the C API serves maps of 32-bit keys to 32-bit "
      "values and of 64-bit to 64-bit, and sets (slab_hash.cuh has the others)",
      fn, sl::type_name(t->key_type), sl::type_name(t->value_type));
}

}  // namespace

extern "C" msplit_status msplit_slab_hash_insert(const msplit_slab_hash *table, const void *d_keys,
                                                 const void *d_values, size_t n,
                                                 msplit_hash_op mode, uint8_t *d_results,
                                                 void *stream) {
  constexpr const char *FN = "msplit_slab_hash_insert";
  return by_key(FN, table, [&](auto o) {
    return decltype(o)::insert(FN, table, d_keys, d_values, n, mode, d_results, stream);
  });
}

extern "C" msplit_status msplit_slab_hash_find(const msplit_slab_hash *table, const void *d_keys,
                                               size_t n, void *d_values_out, uint8_t *d_results,
                                               void *stream) {
  constexpr const char *FN = "msplit_slab_hash_find";
  return by_key(FN, table, [&](auto o) {
    return decltype(o)::find(FN, table, d_keys, n, d_values_out, d_results, stream);
  });
}

extern "C" msplit_status msplit_slab_hash_contains(const msplit_slab_hash *table,
                                                   const void *d_keys, size_t n, uint8_t *d_found,
                                                   void *stream) {
  constexpr const char *FN = "msplit_slab_hash_contains";
  return by_key(FN, table, [&](auto o) {
    return decltype(o)::contains(FN, table, d_keys, n, d_found, stream);
  });
}

extern "C" msplit_status msplit_slab_hash_erase(const msplit_slab_hash *table, const void *d_keys,
                                                size_t n, int all, uint8_t *d_results,
                                                void *stream) {
  constexpr const char *FN = "msplit_slab_hash_erase";
  return by_key(FN, table, [&](auto o) {
    return decltype(o)::erase(FN, table, d_keys, n, all, d_results, stream);
  });
}

extern "C" msplit_status msplit_slab_hash_count(const msplit_slab_hash *table, const void *d_keys,
                                                size_t n, uint32_t *d_counts, void *stream) {
  constexpr const char *FN = "msplit_slab_hash_count";
  return by_key(FN, table, [&](auto o) {
    return decltype(o)::count(FN, table, d_keys, n, d_counts, stream);
  });
}

extern "C" msplit_status msplit_slab_hash_find_all(const msplit_slab_hash *table,
                                                   const void *d_keys, size_t n,
                                                   const uint32_t *d_offsets, void *d_values_out,
                                                   void *stream) {
  constexpr const char *FN = "msplit_slab_hash_find_all";
  return by_key(FN, table, [&](auto o) {
    return decltype(o)::find_all(FN, table, d_keys, n, d_offsets, d_values_out, stream);
  });
}

extern "C" msplit_status msplit_slab_hash_apply(const msplit_slab_hash *table,
                                                const uint8_t *d_ops, const void *d_keys,
                                                const void *d_values, size_t n,
                                                void *d_values_out, uint8_t *d_results,
                                                void *stream) {
  constexpr const char *FN = "msplit_slab_hash_apply";
  return by_key(FN, table, [&](auto o) {
    return decltype(o)::apply(FN, table, d_ops, d_keys, d_values, n, d_values_out, d_results,
                              stream);
  });
}
