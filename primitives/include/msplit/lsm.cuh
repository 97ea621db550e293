// msplit: the GPU LSM, CUDA C++ API. An ordered dictionary of Key -> Value taking batches of
// inserts and deletes and answering lookups, counts and range queries in batches (Ashkiani et
// al., "GPU LSM: A Dynamic Dictionary Data Structure for the GPU", IPDPS 2018). msplit/lsm.h, the
// C API of the same structure, describes the design, the order of updates, the cost of each
// operation and the capacity; each method here is the C call of the same name, typed.
//
// Types: lsm<uint32_t, uint32_t>, lsm<uint64_t, uint32_t> and lsm<uint64_t, uint64_t> (the
// library is compiled for these). The value ~Value(0) (lsm::DELETED) is reserved: it marks a
// deleted key and is what lookup writes for an absent one.
//
// Conventions (CUB's): the structure's storage and every operation's temporary storage are the
// caller's (with d_temp == nullptr only *temp_bytes is written, from the shape alone), the work
// is queued on `stream`, nothing synchronises, every error is a status (msplit_last_error_message()
// says what was wrong), and what the device finds is reported by msplit::check_sync(d_temp,
// temp_bytes, stream) (msplit/error_record.cuh). The object is the host state of one structure:
// update and cleanup change it; use it from one stream at a time.
//
// Example (examples/lsm_edges.cu, built and run by CTest, which checks what it prints): a
// dictionary of edges keyed by (source << 32 | target) with 32-bit weights, the out-edges of a
// vertex found by a range query.
//
//     using edge_map = msplit::lsm<uint64_t, uint32_t>;
//     edge_map edges;
//     CHECK(edge_map::storage_bytes(max_edges, batch, &bytes));
//     CHECK(edges.init(d_storage, bytes, max_edges, batch, stream));
//     CHECK(edges.update(nullptr, &temp_bytes, d_keys, d_weights, d_ops, n, stream));
//     CHECK(edges.update(d_temp, &temp_bytes, d_keys, d_weights, d_ops, n, stream));
//     CHECK(edges.count(d_temp, &temp_bytes, d_lo, d_hi, q, nullptr, d_offsets, stream));
//     CHECK(edges.range(d_temp, &temp_bytes, d_lo, d_hi, q, d_offsets, d_out_keys, d_out_weights, stream));
//     CHECK(msplit::check_sync(d_temp, temp_bytes, stream));
//
// prints
//
//     out-edges of 1: 1->2 (7) 1->5 (3)
//     out-edges of 2: (none)
//     out-edges of 3: 3->0 (9) 3->1 (4) 3->4 (6)
//     an insert of the reserved weight: invalid argument: msplit: lsm_update: entry 0 inserts the reserved value 0xffffffff (stored as a delete)
#pragma once

#include <cuda_runtime.h>
#include <stddef.h>
#include <stdint.h>

#include <type_traits>

#include "msplit/core.h"
#include "msplit/detail/lsm/dispatch.h"
#include "msplit/error_record.cuh"
#include "msplit/lsm.h"

namespace msplit {

template <typename Key, typename Value>
class lsm {
  static_assert(std::is_same_v<Key, uint32_t> || std::is_same_v<Key, uint64_t>, "keys are uint32_t or uint64_t");
  static_assert(std::is_same_v<Value, uint32_t> || std::is_same_v<Value, uint64_t>,
                "values are uint32_t or uint64_t");
  static_assert(sizeof(Value) <= sizeof(Key), "32-bit keys take 32-bit values (the pairs the library holds)");

 public:
  using key_type = Key;
  using value_type = Value;
  // The reserved value: a deleted key's tombstone, and lookup's answer for an absent key.
  static constexpr Value DELETED = ~Value(0);

  // Bytes of device storage for at most max_elements slots in batches of batch_size.
  static msplit_status storage_bytes(size_t max_elements, size_t batch_size, size_t *bytes) {
    return detail::lsm_storage_bytes_run<Key, Value>("lsm::storage_bytes", max_elements, batch_size, bytes);
  }
  // The shape without storage (msplit_lsm_plan): the operations' temporary storage can be sized.
  msplit_status plan(size_t max_elements, size_t batch_size) {
    return detail::lsm_plan_run<Key, Value>("lsm::plan", &h_, max_elements, batch_size);
  }
  // An empty structure in d_storage (msplit_lsm_init).
  msplit_status init(void *d_storage, size_t bytes, size_t max_elements, size_t batch_size, cudaStream_t stream = 0) {
    return detail::lsm_init_run<Key, Value>("lsm::init", &h_, d_storage, bytes, max_elements, batch_size, stream);
  }
  // n updates: d_ops[i] (msplit_lsm_op; nullptr: all inserts) on d_keys[i] with d_values[i]
  // (msplit_lsm_update).
  msplit_status update(void *d_temp, size_t *temp_bytes, const Key *d_keys, const Value *d_values,
                       const uint8_t *d_ops, size_t n, cudaStream_t stream = 0) {
    return detail::lsm_update_run<Key, Value>("lsm::update", d_temp, temp_bytes, &h_, d_keys, d_values, d_ops, n,
                                              stream);
  }
  // d_values_out[i]: the value of d_keys[i] or DELETED; d_found[i] (or nullptr): 1 if present.
  msplit_status lookup(const Key *d_keys, size_t n, Value *d_values_out, uint8_t *d_found = nullptr,
                       cudaStream_t stream = 0) const {
    return detail::lsm_lookup_run<Key, Value>("lsm::lookup", &h_, d_keys, n, d_values_out, d_found, stream);
  }
  // The live keys of [d_lo[i], d_hi[i]]: counts and/or their exclusive scan (n + 1 offsets).
  msplit_status count(void *d_temp, size_t *temp_bytes, const Key *d_lo, const Key *d_hi, size_t n,
                      uint32_t *d_counts, uint64_t *d_offsets, cudaStream_t stream = 0) const {
    return detail::lsm_count_run<Key, Value>("lsm::count", d_temp, temp_bytes, &h_, d_lo, d_hi, n, d_counts,
                                             d_offsets, stream);
  }
  // The live entries of each query into its slice [d_offsets[i], d_offsets[i + 1]), in key order.
  msplit_status range(void *d_temp, size_t *temp_bytes, const Key *d_lo, const Key *d_hi, size_t n,
                      const uint64_t *d_offsets, Key *d_keys_out, Value *d_values_out,
                      cudaStream_t stream = 0) const {
    return detail::lsm_range_run<Key, Value>("lsm::range", d_temp, temp_bytes, &h_, d_lo, d_hi, n, d_offsets,
                                             d_keys_out, d_values_out, stream);
  }
  // Drops stale entries and tombstones: one sorted run (msplit_lsm_cleanup).
  msplit_status cleanup(void *d_temp, size_t *temp_bytes, cudaStream_t stream = 0) {
    return detail::lsm_cleanup_run<Key, Value>("lsm::cleanup", d_temp, temp_bytes, &h_, stream);
  }

  // After a cleanup: frees the slots it dropped; *size (or nullptr) gets the live entries
  // (msplit_lsm_reclaim_sync: waits for `stream`).
  msplit_status reclaim_sync(uint64_t *size = nullptr, cudaStream_t stream = 0) {
    return detail::lsm_reclaim_run<Key, Value>("lsm::reclaim_sync", &h_, size, stream);
  }

  // The C handle (for the C API, or to read the shape and occupancy).
  const msplit_lsm &handle() const { return h_; }

 private:
  msplit_lsm h_{};
};

}  // namespace msplit
