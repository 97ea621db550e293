// msplit: the slab hash, a dynamic GPU hash table (set, map, multimap of 32-bit keys and 32-bit
// values), CUDA C++ API: a host object for bulk operations and a device reference for a user's
// own kernels. The C API of the same table is msplit/slab_hash.h (its types are used here).
//
// Design (Ashkiani, Farach-Colton and Owens, "A Dynamic Hash Table for the GPU", IPDPS 2018, and
// Ashkiani's thesis): num_buckets head slabs, each the start of a linked list of 128-byte slabs
// (15 key-value pairs or 30 keys per slab, and the next slab's index); further slabs come from a
// pool of capacity_slabs slabs with a bitmap per 1,024-slab block, allocated by whole warps that
// keep a resident block (detail/slab_hash/allocator.cuh). Operations are served by whole warps:
// each lane brings one; the warp walks the chains of all its lanes' operations together, one
// round of coalesced slab loads per chain step, each lane settling its own operation with at most
// one atomic, and only inserts that need a new slab are served one at a time by the whole warp
// (detail/slab_hash/warp_ops.cuh, which also argues why keys stay unique).
//
// Invariants and limits:
//   - keys are 32-bit, values 32-bit; 0xFFFFFFFF and 0xFFFFFFFE are reserved (empty and erased
//     markers) and are refused per operation with MSPLIT_HASH_RESERVED_KEY. (64-bit keys would
//     need a 128-bit pair CAS for maps and a second slab layout; not offered.)
//   - erase marks the slot erased; inserts never reuse an erased slot (reusing one would let two
//     concurrent inserts of one key land in two slots), so a table with many erases grows its
//     chains until flush() compacts them and returns the emptied slabs to the pool.
//   - flush() must not overlap any other operation on the table, on any stream or in any kernel.
//   - operations of one batch (one launch) run concurrently and each is atomic: the outcome is
//     that of some serial order of them. Operations on distinct keys commute.
//   - when the pool is used up, inserts that need a new slab report MSPLIT_HASH_OUT_OF_SLABS and
//     do nothing; the table stays valid and every other operation still works.
//   - size() counts live entries (each copy of a multimap key once), kept by every operation.
//   - a found value is read in the same 128-byte load as its key, and a pair is written by one
//     64-bit CAS; a reader is assumed to see both words of an aligned pair from one write (one
//     32-byte sector is read whole), as SlabHash assumes.
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

#include "msplit/core.h"
#include "msplit/detail/slab_hash/bulk.cuh"
#include "msplit/slab_hash.h"
#include "msplit/slab_hash_tuning.h"

namespace msplit {

// A device reference: what a user's kernel holds to use a table. Pass it by value to the kernel;
// each warp works on its own copy (it carries the warp's allocator state). Every member function
// must be called by all 32 lanes of a warp together, converged; `active` says whether this lane
// has an operation. Each returns this lane's msplit_hash_result (MSPLIT_HASH_DONE for an inactive
// lane) and updates the table's counters before it returns.
template <bool HasValues, int ProbeGroup = tuning::HASH_PROBE_GROUP>
class slab_hash_ref {
 public:
  explicit slab_hash_ref(const msplit_slab_hash &t) { ops_.v = detail::slab::make_view(t); }

  // Insert with mode MSPLIT_HASH_OP_INSERT (a present key keeps its value), _INSERT_OR_ASSIGN
  // (it gets `value`) or _INSERT_DUP (one more copy). `value` is ignored for a set.
  __device__ uint32_t insert(bool active, uint32_t key, uint32_t value = 0,
                             msplit_hash_op mode = MSPLIT_HASH_OP_INSERT) {
    uint32_t out = 0;
    return run(active, mode, key, value, out);
  }
  // value: the value of one copy (the key itself for a set), or MSPLIT_HASH_ABSENT_VALUE.
  __device__ uint32_t find(bool active, uint32_t key, uint32_t &value) {
    return run(active, MSPLIT_HASH_OP_FIND, key, 0, value);
  }
  __device__ bool contains(bool active, uint32_t key) {
    uint32_t value = 0;
    return run(active, MSPLIT_HASH_OP_FIND, key, 0, value) == MSPLIT_HASH_DONE && active;
  }
  // Erases one copy, or every copy with all (then `erased` gets how many).
  __device__ uint32_t erase(bool active, uint32_t key, bool all = false) {
    uint32_t erased = 0;
    return run(active, all ? MSPLIT_HASH_OP_ERASE_ALL : MSPLIT_HASH_OP_ERASE, key, 0, erased);
  }
  __device__ uint32_t count(bool active, uint32_t key, uint32_t &copies) {
    return run(active, MSPLIT_HASH_OP_COUNT, key, 0, copies);
  }
  // Any operation by its tag; `out` as in msplit_slab_hash_apply.
  __device__ uint32_t apply(bool active, msplit_hash_op op, uint32_t key, uint32_t value,
                            uint32_t &out) {
    return run(active, op, key, value, out);
  }

 private:
  __device__ uint32_t run(bool active, uint32_t op, uint32_t key, uint32_t value, uint32_t &out) {
    const uint32_t r = ops_.apply(active, op, key, value, out);
    ops_.commit();
    return r;
  }
  detail::slab::warp_ops<HasValues, ProbeGroup> ops_{};
};

// The host object: a table in storage that the caller provides. Copyable (it only describes the
// storage). HasValues: a map (keys with values) or a set. The bulk members are the C API's, with
// the same arguments, statuses and synchronisation (none unless the name ends in _sync); see
// msplit/slab_hash.h for each one's contract.
template <bool HasValues, int ProbeGroup = tuning::HASH_PROBE_GROUP>
class slab_hash {
 public:
  static msplit_status storage_bytes(uint32_t num_buckets, uint32_t capacity_slabs, size_t *bytes) {
    return msplit_slab_hash_storage_bytes(num_buckets, capacity_slabs, HasValues, bytes);
  }
  msplit_status init(void *d_storage, size_t bytes, uint32_t num_buckets, uint32_t capacity_slabs,
                     cudaStream_t stream = 0) {
    return msplit_slab_hash_init(&t_, d_storage, bytes, num_buckets, capacity_slabs, HasValues,
                                 stream);
  }
  msplit_status insert(const uint32_t *d_keys, const uint32_t *d_values, size_t n,
                       msplit_hash_op mode = MSPLIT_HASH_OP_INSERT, uint8_t *d_results = nullptr,
                       cudaStream_t stream = 0) const {
    if (!detail::slab::is_insert_host(mode))
      return detail::set_error(MSPLIT_ERROR_INVALID_ARGUMENT,
                               "slab_hash::insert: mode %d is not an insert", int(mode));
    return run("slab_hash::insert", mode, d_keys, HasValues ? d_values : nullptr, n, nullptr,
               d_results, stream);
  }
  msplit_status find(const uint32_t *d_keys, size_t n, uint32_t *d_values_out,
                     uint8_t *d_results = nullptr, cudaStream_t stream = 0) const {
    return run("slab_hash::find", MSPLIT_HASH_OP_FIND, d_keys, nullptr, n, d_values_out, d_results,
               stream);
  }
  msplit_status erase(const uint32_t *d_keys, size_t n, bool all = false,
                      uint8_t *d_results = nullptr, cudaStream_t stream = 0) const {
    return run("slab_hash::erase", all ? MSPLIT_HASH_OP_ERASE_ALL : MSPLIT_HASH_OP_ERASE, d_keys,
               nullptr, n, nullptr, d_results, stream);
  }
  msplit_status count(const uint32_t *d_keys, size_t n, uint32_t *d_counts,
                      cudaStream_t stream = 0) const {
    return run("slab_hash::count", MSPLIT_HASH_OP_COUNT, d_keys, nullptr, n, d_counts, nullptr,
               stream);
  }
  // A mixed batch (msplit_slab_hash_apply).
  msplit_status apply(const uint8_t *d_ops, const uint32_t *d_keys, const uint32_t *d_values,
                      size_t n, uint32_t *d_values_out, uint8_t *d_results = nullptr,
                      cudaStream_t stream = 0) const {
    if (!d_ops && n)
      return detail::set_error(MSPLIT_ERROR_INVALID_ARGUMENT,
                               "slab_hash::apply: d_ops is NULL with n = %zu", n);
    detail::slab::bulk_args a{};
    a.ops = d_ops;
    a.op = MSPLIT_HASH_OP_NOP;
    a.keys = d_keys;
    a.values = HasValues ? d_values : nullptr;
    a.n = n;
    a.values_out = d_values_out;
    a.results = d_results;
    return launch("slab_hash::apply", a, stream);
  }
  msplit_status find_all(const uint32_t *d_keys, size_t n, const uint32_t *d_offsets,
                         uint32_t *d_values_out, cudaStream_t stream = 0) const {
    return msplit_slab_hash_find_all(&t_, d_keys, n, d_offsets, d_values_out, stream);
  }
  msplit_status contains(const uint32_t *d_keys, size_t n, uint8_t *d_found,
                         cudaStream_t stream = 0) const {
    return msplit_slab_hash_contains(&t_, d_keys, n, d_found, stream);
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

  slab_hash_ref<HasValues, ProbeGroup> ref() const {
    return slab_hash_ref<HasValues, ProbeGroup>(t_);
  }
  const msplit_slab_hash &c_table() const { return t_; }

 private:
  msplit_status run(const char *fn, uint32_t op, const uint32_t *keys, const uint32_t *values,
                    size_t n, uint32_t *values_out, uint8_t *results, cudaStream_t stream) const {
    detail::slab::bulk_args a{};
    a.op = op;
    a.keys = keys;
    a.values = values;
    a.n = n;
    a.values_out = values_out;
    a.results = results;
    return launch(fn, a, stream);
  }
  msplit_status launch(const char *fn, const detail::slab::bulk_args &a,
                       cudaStream_t stream) const {
    MSPLIT_TRY(detail::slab::check_bulk(fn, &t_, a));
    if (bool(t_.has_values) != HasValues)
      return detail::set_error(MSPLIT_ERROR_INVALID_ARGUMENT,
                               "%s: the table was initialised as a %s", fn,
                               t_.has_values ? "map" : "set");
    return detail::slab::bulk_run<HasValues, ProbeGroup>(t_, a, stream);
  }
  msplit_slab_hash t_{};
};

}  // namespace msplit
