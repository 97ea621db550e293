// msplit: the slab hash, a dynamic GPU hash table (set, map, multimap of 32- or 64-bit keys and
// 32- or 64-bit values), CUDA C++ API: a host object for bulk operations and a device reference for a user's
// own kernels. The C API of the same table is msplit/slab_hash.h (its types are used here).
//
// Design (Ashkiani, Farach-Colton and Owens, "A Dynamic Hash Table for the GPU", IPDPS 2018, and
// Ashkiani's thesis): num_buckets head slabs, each the start of a linked list of 128-byte slabs
// (entries of 4, 8 or 16 bytes: 30 keys or 15 pairs of 32 bits, 15 keys or 7 pairs of 64 bits,
// and the next slab's index; detail/slab_hash/slab.cuh has the layout); further slabs come from a
// pool of capacity_slabs slabs with a bitmap per 1,024-slab block, allocated by whole warps that
// keep a resident block (detail/slab_hash/allocator.cuh). Operations are served by whole warps:
// each lane brings one; the warp walks the chains of all its lanes' operations together, one
// round of coalesced slab loads per chain step, each lane settling its own operation with at most
// one atomic, and only inserts that need a new slab are served one at a time by the whole warp
// (detail/slab_hash/warp_ops.cuh, which also argues why keys stay unique).
//
// Invariants and limits:
//   - keys are uint32_t or uint64_t, values uint32_t, uint64_t or none (a set); one template
//     serves every width (the entry format, detail/slab_hash/slab.cuh). The all-ones key and the
//     all-ones key less one (0xFFFFFFFF and 0xFFFFFFFE, or their 64-bit forms) are reserved
//     (empty and erased markers) and are refused per operation with MSPLIT_HASH_RESERVED_KEY.
//   - an entry is claimed by one CAS of its whole width: 32 or 64 bits, or 128 bits for a 64-bit
//     key or value with a value, which needs sm_90 (bulk calls on older code return
//     MSPLIT_ERROR_UNSUPPORTED, and init refuses an older device).
//   - erase marks the slot erased; inserts never reuse an erased slot (reusing one would let two
//     concurrent inserts of one key land in two slots), so a table with many erases grows its
//     chains until flush() compacts them and returns the emptied slabs to the pool.
//   - flush() must not overlap any other operation on the table, on any stream or in any kernel.
//   - operations of one batch (one launch) run concurrently and each is atomic: the outcome is
//     that of some serial order of them. Operations on distinct keys commute.
//   - when the pool is used up, inserts that need a new slab report MSPLIT_HASH_OUT_OF_SLABS and
//     do nothing; the table stays valid and every other operation still works.
//   - no operation loops forever: a walk longer than the pool (a cycle) or retries beyond any
//     contention mean a corrupted table, and the operation reports MSPLIT_HASH_GAVE_UP, does
//     nothing, and is counted in the table, for check_sync (MSPLIT_ERROR_STALLED).
//   - size() counts live entries (each copy of a multimap key once), kept by every operation.
//   - a found value is read in the same 128-byte load as its key, and an entry is written by one
//     CAS; a reader is assumed to see all words of an aligned entry from one write (one 32-byte
//     sector is read whole), as SlabHash assumes for its pairs.
//
// Example (examples/slab_hash_map.cu, built and run by CTest, which checks what it prints):
//
//     msplit::slab_hash<true> table;
//     CHECK(table.init(d_storage, bytes, num_buckets, capacity, stream));
//     CHECK(table.insert(d_keys, d_values, n, MSPLIT_HASH_OP_INSERT, nullptr, stream));
//     lookup_kernel<<<1, 32, 0, stream>>>(table.ref(), d_queries, d_out);
//     CHECK(table.erase(d_keys, 3, false, nullptr, stream));
//     CHECK(table.flush(stream));
//
// where lookup_kernel's warp asks ref.find(lane < 4, queries[lane], value), and it prints
//
//     from a kernel: 7->70 8->80 9->(absent) 3->30
//     size 8, pool slabs 0
//     after erasing 3 keys and a flush: size 5, find 1: (absent)
#pragma once

#include <cuda_runtime.h>
#include <stddef.h>
#include <stdint.h>

#include <type_traits>

#include "msplit/core.h"
#include "msplit/detail/slab_hash/bulk.cuh"
#include "msplit/slab_hash.h"
#include "msplit/detail/slab_hash/tuning.h"

namespace msplit {

// A device reference: what a user's kernel holds to use a table of Key (uint32_t, uint64_t) and
// Value (uint32_t, uint64_t, or void for a set). Pass it by value to the kernel; each warp works
// on its own copy (it carries the warp's allocator state). Every member function must be called
// by all 32 lanes of a warp together, converged; `active` says whether this lane has an
// operation. Each returns this lane's msplit_hash_result (MSPLIT_HASH_DONE for an inactive lane)
// and updates the table's counters before it returns.
template <typename Key, typename Value, int ProbeGroup = tuning::HASH_PROBE_GROUP>
class basic_slab_hash_ref {
 public:
  using format = detail::slab::format<Key, Value>;
  using key_type = Key;
  // What insert takes and find gives: the value, or the key itself for a set.
  using value_type = typename format::value_t;

  explicit basic_slab_hash_ref(const msplit_slab_hash &t) { ops_.v = detail::slab::make_view(t); }

  // Insert with mode MSPLIT_HASH_OP_INSERT (a present key keeps its value), _INSERT_OR_ASSIGN
  // (it gets `value`) or _INSERT_DUP (one more copy). `value` is ignored for a set.
  __device__ uint32_t insert(bool active, Key key, value_type value = 0,
                             msplit_hash_op mode = MSPLIT_HASH_OP_INSERT) {
    value_type out = 0;
    return run(active, mode, key, value, out);
  }
  // value: the value of one copy (the key itself for a set), or all ones (format::ABSENT).
  __device__ uint32_t find(bool active, Key key, value_type &value) {
    return run(active, MSPLIT_HASH_OP_FIND, key, 0, value);
  }
  __device__ bool contains(bool active, Key key) {
    value_type value = 0;
    return run(active, MSPLIT_HASH_OP_FIND, key, 0, value) == MSPLIT_HASH_DONE && active;
  }
  // Erases one copy, or every copy with all.
  __device__ uint32_t erase(bool active, Key key, bool all = false) {
    value_type erased = 0;
    return run(active, all ? MSPLIT_HASH_OP_ERASE_ALL : MSPLIT_HASH_OP_ERASE, key, 0, erased);
  }
  __device__ uint32_t count(bool active, Key key, uint32_t &copies) {
    value_type c = 0;
    const uint32_t r = run(active, MSPLIT_HASH_OP_COUNT, key, 0, c);
    copies = uint32_t(c);
    return r;
  }
  // Any operation by its tag; `out` as in msplit_slab_hash_apply.
  __device__ uint32_t apply(bool active, msplit_hash_op op, Key key, value_type value,
                            value_type &out) {
    return run(active, op, key, value, out);
  }

 private:
  __device__ uint32_t run(bool active, uint32_t op, Key key, value_type value, value_type &out) {
    const uint32_t r = ops_.apply(active, op, key, value, out);
    ops_.commit();
    return r;
  }
  detail::slab::warp_ops<format, ProbeGroup> ops_{};
};

// The host object: a table in storage that the caller provides. Copyable (it only describes the
// storage). Key and Value as for the device reference. The bulk members are the C API's, with
// the same arguments, statuses and synchronisation (none unless the name ends in _sync), on
// arrays of Key and value_type; see msplit/slab_hash.h for each one's contract.
template <typename Key, typename Value, int ProbeGroup = tuning::HASH_PROBE_GROUP>
class basic_slab_hash {
 public:
  using format = detail::slab::format<Key, Value>;
  using key_type = Key;
  using value_type = typename format::value_t;
  static constexpr bool has_values = format::HAS_VALUES;

  static msplit_status storage_bytes(uint32_t num_buckets, uint32_t capacity_slabs, size_t *bytes) {
    return msplit_slab_hash_storage_bytes(num_buckets, capacity_slabs, bytes);
  }
  static msplit_status plan(size_t expected_keys, double utilization, uint32_t *num_buckets,
                            uint32_t *expected_pool_slabs) {
    return msplit_slab_hash_plan(expected_keys, utilization, format::KEY_TYPE, format::VALUE_TYPE,
                                 num_buckets, expected_pool_slabs);
  }
  msplit_status init(void *d_storage, size_t bytes, uint32_t num_buckets, uint32_t capacity_slabs,
                     cudaStream_t stream = 0) {
    return msplit_slab_hash_init(&t_, d_storage, bytes, num_buckets, capacity_slabs,
                                 format::KEY_TYPE, format::VALUE_TYPE, stream);
  }
  msplit_status insert(const Key *d_keys, const value_type *d_values, size_t n,
                       msplit_hash_op mode = MSPLIT_HASH_OP_INSERT, uint8_t *d_results = nullptr,
                       cudaStream_t stream = 0) const {
    if (!detail::slab::is_insert_host(mode))
      return detail::set_error(MSPLIT_ERROR_INVALID_ARGUMENT,
                               "slab_hash::insert: mode %d is not an insert", int(mode));
    args a = make(mode, d_keys, n);
    a.values = has_values ? d_values : nullptr;
    a.results = d_results;
    return launch("slab_hash::insert", a, stream);
  }
  msplit_status find(const Key *d_keys, size_t n, value_type *d_values_out,
                     uint8_t *d_results = nullptr, cudaStream_t stream = 0) const {
    args a = make(MSPLIT_HASH_OP_FIND, d_keys, n);
    a.values_out = d_values_out;
    a.results = d_results;
    return launch("slab_hash::find", a, stream);
  }
  msplit_status erase(const Key *d_keys, size_t n, bool all = false, uint8_t *d_results = nullptr,
                      cudaStream_t stream = 0) const {
    args a = make(all ? MSPLIT_HASH_OP_ERASE_ALL : MSPLIT_HASH_OP_ERASE, d_keys, n);
    a.results = d_results;
    return launch("slab_hash::erase", a, stream);
  }
  msplit_status count(const Key *d_keys, size_t n, uint32_t *d_counts,
                      cudaStream_t stream = 0) const {
    if (!d_counts && n)
      return detail::set_error(MSPLIT_ERROR_INVALID_ARGUMENT,
                               "slab_hash::count: d_counts is NULL with n = %zu", n);
    args a = make(MSPLIT_HASH_OP_COUNT, d_keys, n);
    a.counts = d_counts;
    return launch("slab_hash::count", a, stream);
  }
  // A mixed batch (msplit_slab_hash_apply).
  msplit_status apply(const uint8_t *d_ops, const Key *d_keys, const value_type *d_values,
                      size_t n, value_type *d_values_out, uint8_t *d_results = nullptr,
                      cudaStream_t stream = 0) const {
    if (!d_ops && n)
      return detail::set_error(MSPLIT_ERROR_INVALID_ARGUMENT,
                               "slab_hash::apply: d_ops is NULL with n = %zu", n);
    args a = make(MSPLIT_HASH_OP_NOP, d_keys, n);
    a.ops = d_ops;
    a.values = has_values ? d_values : nullptr;
    a.values_out = d_values_out;
    a.results = d_results;
    return launch("slab_hash::apply", a, stream);
  }
  msplit_status find_all(const Key *d_keys, size_t n, const uint32_t *d_offsets,
                         value_type *d_values_out, cudaStream_t stream = 0) const {
    if (!d_offsets && n)
      return detail::set_error(MSPLIT_ERROR_INVALID_ARGUMENT,
                               "slab_hash::find_all: d_offsets is NULL with n = %zu", n);
    args a = make(MSPLIT_HASH_OP_FIND, d_keys, n);
    a.offsets = d_offsets;
    a.values_out = d_values_out;
    return launch("slab_hash::find_all", a, stream);
  }
  msplit_status contains(const Key *d_keys, size_t n, uint8_t *d_found,
                         cudaStream_t stream = 0) const {
    if (!d_found && n)
      return detail::set_error(MSPLIT_ERROR_INVALID_ARGUMENT,
                               "slab_hash::contains: d_found is NULL with n = %zu", n);
    args a = make(MSPLIT_HASH_OP_FIND, d_keys, n);
    a.found = d_found;
    return launch("slab_hash::contains", a, stream);
  }
  msplit_status flush(cudaStream_t stream = 0) const { return msplit_slab_hash_flush(&t_, stream); }
  msplit_status stats_sync(msplit_slab_hash_stats *stats, cudaStream_t stream = 0) const {
    return msplit_slab_hash_stats_sync(&t_, stats, stream);
  }
  // Live entries (synchronises the stream); 0 if the counters cannot be read (see the status of
  // stats_sync for why).
  uint64_t size_sync(cudaStream_t stream = 0) const {
    msplit_slab_hash_stats s{};
    return stats_sync(&s, stream) == MSPLIT_SUCCESS ? s.size : 0;
  }
  msplit_status check_sync(cudaStream_t stream = 0) const {
    return msplit_slab_hash_check_sync(&t_, stream);
  }

  basic_slab_hash_ref<Key, Value, ProbeGroup> ref() const {
    return basic_slab_hash_ref<Key, Value, ProbeGroup>(t_);
  }
  const msplit_slab_hash &c_table() const { return t_; }

 private:
  using args = detail::slab::bulk_args<format>;
  static args make(uint32_t op, const Key *keys, size_t n) {
    args a{};
    a.op = op;
    a.keys = keys;
    a.n = n;
    return a;
  }
  msplit_status launch(const char *fn, const args &a, cudaStream_t stream) const {
    MSPLIT_TRY(detail::slab::check_bulk(fn, &t_, a));
    return detail::slab::bulk_run<format, ProbeGroup>(t_, a, stream);
  }
  msplit_slab_hash t_{};
};

// The 32-bit table as it was first offered: a map (HasValues) or a set of 32-bit keys.
template <bool HasValues, int ProbeGroup = tuning::HASH_PROBE_GROUP>
using slab_hash =
    basic_slab_hash<uint32_t, std::conditional_t<HasValues, uint32_t, void>, ProbeGroup>;
template <bool HasValues, int ProbeGroup = tuning::HASH_PROBE_GROUP>
using slab_hash_ref =
    basic_slab_hash_ref<uint32_t, std::conditional_t<HasValues, uint32_t, void>, ProbeGroup>;
// Any widths: slab_map<uint64_t, uint64_t>, slab_set<uint64_t>, ...
template <typename Key, typename Value, int ProbeGroup = tuning::HASH_PROBE_GROUP>
using slab_map = basic_slab_hash<Key, Value, ProbeGroup>;
template <typename Key, int ProbeGroup = tuning::HASH_PROBE_GROUP>
using slab_set = basic_slab_hash<Key, void, ProbeGroup>;

}  // namespace msplit
