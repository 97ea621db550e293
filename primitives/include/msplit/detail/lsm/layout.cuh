// The GPU LSM's storage layout and the searches every query makes (msplit/lsm.h describes the
// structure). The storage is
//   counts  MSPLIT_LSM_MAX_LEVELS x 8 bytes: the entries of each level (a run may hold fewer
//           than its capacity after a cleanup), padded to LSM_COUNTS_BYTES
//   keys    b (2^L - 1) keys: level i at b (2^i - 1), capacity b 2^i
//   values  b (2^L - 1) values, laid out as the keys
// A level's run is sorted by key; equal keys in one run are ordered newest first, and a lower
// level is newer than a higher one, so a key's state is its first entry in the lowest level that
// holds it. The reserved value (all ones) is a tombstone.
#pragma once
#include <cuda_runtime.h>
#include <stddef.h>
#include <stdint.h>

#include "msplit/lsm.h"

namespace msplit {
namespace detail {

constexpr size_t LSM_COUNTS_BYTES = 512;
static_assert(MSPLIT_LSM_MAX_LEVELS * sizeof(uint64_t) <= LSM_COUNTS_BYTES, "the counts fit their slot");

// The tombstone of a value type (all ones).
template <typename V>
__host__ __device__ constexpr V lsm_deleted() {
  return ~V(0);
}

// Entries before level i (the start of its slice of the key and value arrays).
__host__ __device__ inline uint64_t lsm_level_start(uint64_t b, int i) { return b * ((uint64_t(1) << i) - 1); }
__host__ __device__ inline uint64_t lsm_level_capacity(uint64_t b, int i) { return b << i; }

// What a kernel needs of the structure: where the levels are, which are occupied (a host-known
// bit mask) and whether they are clean (unique keys, no tombstones).
template <typename K, typename V>
struct lsm_view {
  K *keys;
  V *values;
  uint64_t *counts;
  uint64_t b;
  uint64_t occupied;
  int num_levels;
  bool clean;
  __device__ K *level_keys(int i) const { return keys + lsm_level_start(b, i); }
  __device__ V *level_values(int i) const { return values + lsm_level_start(b, i); }
};

// Byte offsets of the key and value arrays in the storage.
template <typename K, typename V>
inline void lsm_storage_layout(uint64_t b, int levels, size_t *keys_off, size_t *values_off, size_t *total) {
  const uint64_t cap = lsm_level_start(b, levels);
  *keys_off = LSM_COUNTS_BYTES;
  *values_off = *keys_off + (cap * sizeof(K) + 255) / 256 * 256;
  *total = *values_off + (cap * sizeof(V) + 255) / 256 * 256;
}

template <typename K, typename V>
inline lsm_view<K, V> make_lsm_view(const msplit_lsm &h) {
  size_t ko, vo, total;
  lsm_storage_layout<K, V>(h.batch_size, int(h.num_levels), &ko, &vo, &total);
  unsigned char *base = static_cast<unsigned char *>(h.d_storage);
  lsm_view<K, V> v;
  v.keys = reinterpret_cast<K *>(base + ko);
  v.values = reinterpret_cast<V *>(base + vo);
  v.counts = reinterpret_cast<uint64_t *>(base);
  v.b = h.batch_size;
  v.occupied = h.occupied;
  v.num_levels = int(h.num_levels);
  v.clean = h.clean != 0;
  return v;
}

// The first position in keys[0, n) whose key is >= k (lower bound) or > k (upper bound).
template <bool UPPER, typename K>
__device__ __forceinline__ uint64_t lsm_search(const K *keys, uint64_t n, K k) {
  uint64_t lo = 0, hi = n;
  while (lo < hi) {
    const uint64_t mid = (lo + hi) / 2;
    const K m = keys[mid];
    if (UPPER ? !(k < m) : m < k) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

}  // namespace detail
}  // namespace msplit
