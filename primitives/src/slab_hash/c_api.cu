// msplit slab hash, the C API's bulk operations: each fills the arguments of one bulk launch
// (msplit/detail/slab_hash/bulk.cuh) and runs it for the table's kind (set or map), the two
// instantiations the library holds.
#include "msplit/detail/slab_hash/bulk.cuh"
#include "msplit/slab_hash.h"

using msplit::detail::set_error;
namespace sl = msplit::detail::slab;

namespace {

sl::bulk_args args(const uint32_t *keys, size_t n, uint32_t op) {
  sl::bulk_args a{};
  a.keys = keys;
  a.n = n;
  a.op = op;
  return a;
}

}  // namespace

extern "C" msplit_status msplit_slab_hash_insert(const msplit_slab_hash *table,
                                                 const uint32_t *d_keys, const uint32_t *d_values,
                                                 size_t n, msplit_hash_op mode, uint8_t *d_results,
                                                 void *stream) {
  constexpr const char *FN = "msplit_slab_hash_insert";
  if (!sl::is_insert_host(uint32_t(mode)))
    return set_error(MSPLIT_ERROR_INVALID_ARGUMENT,
                     "%s: mode %d is not MSPLIT_HASH_OP_INSERT, _INSERT_OR_ASSIGN or _INSERT_DUP",
                     FN, int(mode));
  sl::bulk_args a = args(d_keys, n, mode);
  a.values = table && table->has_values ? d_values : nullptr;
  a.results = d_results;
  return sl::bulk(FN, table, a, static_cast<cudaStream_t>(stream));
}

extern "C" msplit_status msplit_slab_hash_find(const msplit_slab_hash *table,
                                               const uint32_t *d_keys, size_t n,
                                               uint32_t *d_values_out, uint8_t *d_results,
                                               void *stream) {
  sl::bulk_args a = args(d_keys, n, MSPLIT_HASH_OP_FIND);
  a.values_out = d_values_out;
  a.results = d_results;
  return sl::bulk("msplit_slab_hash_find", table, a, static_cast<cudaStream_t>(stream));
}

extern "C" msplit_status msplit_slab_hash_contains(const msplit_slab_hash *table,
                                                   const uint32_t *d_keys, size_t n,
                                                   uint8_t *d_found, void *stream) {
  constexpr const char *FN = "msplit_slab_hash_contains";
  if (!d_found && n)
    return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: d_found is NULL with n = %zu", FN, n);
  sl::bulk_args a = args(d_keys, n, MSPLIT_HASH_OP_FIND);
  a.found = d_found;
  return sl::bulk(FN, table, a, static_cast<cudaStream_t>(stream));
}

extern "C" msplit_status msplit_slab_hash_erase(const msplit_slab_hash *table,
                                                const uint32_t *d_keys, size_t n, int all,
                                                uint8_t *d_results, void *stream) {
  sl::bulk_args a = args(d_keys, n, all ? MSPLIT_HASH_OP_ERASE_ALL : MSPLIT_HASH_OP_ERASE);
  a.results = d_results;
  return sl::bulk("msplit_slab_hash_erase", table, a, static_cast<cudaStream_t>(stream));
}

extern "C" msplit_status msplit_slab_hash_count(const msplit_slab_hash *table,
                                                const uint32_t *d_keys, size_t n,
                                                uint32_t *d_counts, void *stream) {
  constexpr const char *FN = "msplit_slab_hash_count";
  if (!d_counts && n)
    return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: d_counts is NULL with n = %zu", FN, n);
  sl::bulk_args a = args(d_keys, n, MSPLIT_HASH_OP_COUNT);
  a.values_out = d_counts;
  return sl::bulk(FN, table, a, static_cast<cudaStream_t>(stream));
}

extern "C" msplit_status msplit_slab_hash_find_all(const msplit_slab_hash *table,
                                                   const uint32_t *d_keys, size_t n,
                                                   const uint32_t *d_offsets,
                                                   uint32_t *d_values_out, void *stream) {
  constexpr const char *FN = "msplit_slab_hash_find_all";
  if (!d_offsets && n)
    return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: d_offsets is NULL with n = %zu", FN, n);
  sl::bulk_args a = args(d_keys, n, MSPLIT_HASH_OP_FIND);
  a.offsets = d_offsets;
  a.values_out = d_values_out;
  return sl::bulk(FN, table, a, static_cast<cudaStream_t>(stream));
}

extern "C" msplit_status msplit_slab_hash_apply(const msplit_slab_hash *table, const uint8_t *d_ops,
                                                const uint32_t *d_keys, const uint32_t *d_values,
                                                size_t n, uint32_t *d_values_out,
                                                uint8_t *d_results, void *stream) {
  constexpr const char *FN = "msplit_slab_hash_apply";
  if (!d_ops && n)
    return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: d_ops is NULL with n = %zu", FN, n);
  sl::bulk_args a = args(d_keys, n, MSPLIT_HASH_OP_NOP);
  a.ops = d_ops;
  a.values = table && table->has_values ? d_values : nullptr;
  a.values_out = d_values_out;
  a.results = d_results;
  return sl::bulk(FN, table, a, static_cast<cudaStream_t>(stream));
}
