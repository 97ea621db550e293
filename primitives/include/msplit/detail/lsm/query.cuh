// The GPU LSM's queries, one thread per query (msplit/lsm.h describes the structure).
//   lookup  the levels newest first (lowest index first); in each a lower-bound search; the first
//           level that holds the key decides: its first entry there is the key's newest.
//   walk    for a closed key range [lo, hi]: a lower and an upper bound in every occupied level
//           give each level's candidates; they are visited in key order as a k-way merge of the
//           levels' slices, and each distinct key is decided by its entry in the lowest level
//           that holds it (a level's first equal key is its newest). Live keys go to `emit`.
//           On clean levels (unique keys, no tombstones, disjoint runs) a count is the sum of the
//           slices' lengths.
// The walk keeps each occupied level's cursor, end and head key in local memory: its cost is the
// binary searches plus (levels with candidates) steps per candidate key; where one level holds
// all the candidates it reads that slice in order.
#pragma once
#include <cuda_runtime.h>
#include <stdint.h>

#include "msplit/detail/lsm/layout.cuh"

namespace msplit {
namespace detail {

// Whether key k is live; its value in *value (the tombstone when it is not).
template <typename K, typename V>
__device__ __forceinline__ bool lsm_lookup_one(const lsm_view<K, V> &s, K k, V *value) {
  for (int i = 0; i < s.num_levels; ++i) {
    if (!((s.occupied >> i) & 1)) continue;
    const K *keys = s.level_keys(i);
    const uint64_t n = s.counts[i];
    const uint64_t p = lsm_search<false>(keys, n, k);
    if (p < n && keys[p] == k) {
      *value = s.level_values(i)[p];
      return *value != lsm_deleted<V>();
    }
  }
  *value = lsm_deleted<V>();
  return false;
}

// Visits the live keys of [lo, hi] in key order: emit(j, key, value) for the j-th; returns their
// number. With count_only on clean levels, only the searches run.
template <bool COUNT_ONLY, typename K, typename V, typename Emit>
__device__ uint64_t lsm_walk(const lsm_view<K, V> &s, K lo, K hi, Emit emit) {
  if (hi < lo) return 0;
  uint64_t cur[MSPLIT_LSM_MAX_LEVELS], end[MSPLIT_LSM_MAX_LEVELS];
  K head[MSPLIT_LSM_MAX_LEVELS];
  int level[MSPLIT_LSM_MAX_LEVELS];
  int m = 0;
  uint64_t sum = 0;
  // 1. each occupied level's candidates, lowest level first
  for (int i = 0; i < s.num_levels; ++i) {
    if (!((s.occupied >> i) & 1)) continue;
    const K *keys = s.level_keys(i);
    const uint64_t n = s.counts[i];
    const uint64_t b = lsm_search<false>(keys, n, lo), e = b + lsm_search<true>(keys + b, n - b, hi);
    if (b >= e) continue;
    sum += e - b;
    cur[m] = b;
    end[m] = e;
    head[m] = keys[b];
    level[m++] = i;
  }
  if (COUNT_ONLY && s.clean) return sum;
  uint64_t live = 0;
  if (m == 1) {  // 2a. one level holds candidates: its slice in order, each key's first entry
    const K *keys = s.level_keys(level[0]);
    const V *values = s.level_values(level[0]);
    for (uint64_t p = cur[0]; p < end[0]; ++p) {
      if (p > cur[0] && keys[p] == keys[p - 1]) continue;  // an older entry of the same key
      const V v = values[p];
      if (v != lsm_deleted<V>()) emit(live++, keys[p], v);
    }
    return live;
  }
  // 2b. the k-way walk: the smallest head key, decided by the lowest level holding it
  for (;;) {
    int win = -1;
    K kmin = K(0);
    for (int j = 0; j < m; ++j)
      if (cur[j] < end[j] && (win < 0 || head[j] < kmin)) {
        win = j;
        kmin = head[j];
      }
    if (win < 0) break;
    const V v = s.level_values(level[win])[cur[win]];
    if (v != lsm_deleted<V>()) emit(live++, kmin, v);
    for (int j = 0; j < m; ++j) {
      const K *keys = s.level_keys(level[j]);
      while (cur[j] < end[j] && head[j] == kmin) {
        if (++cur[j] < end[j]) head[j] = keys[cur[j]];
      }
    }
  }
  return live;
}

}  // namespace detail
}  // namespace msplit
