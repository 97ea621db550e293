// The GPU LSM's queries, one thread per query (msplit/lsm.h describes the structure); every
// search of a level goes through the level's fences cached by the query's block.
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
#include "msplit/detail/lsm/tuning.h"

namespace msplit {
namespace detail {

// The fences of the lowest LSM_FENCE_LEVELS occupied levels that hold entries, in shared memory:
// fence j of a level of n entries is its key at position j n / F. A search finds its key among a
// level's fences first (shared memory), then searches only the slice between two fences: the
// top log2(F) steps of every search cost no global load.
template <typename K>
struct lsm_fences {
  K key[tuning::LSM_FENCE_LEVELS][tuning::LSM_FENCES];
};

// Block-wide (every thread calls it; it ends with __syncthreads): loads the fences. The cached
// levels are, in order, the occupied levels with entries, lowest first: slot c of a query's walk
// over those levels is cached if c < LSM_FENCE_LEVELS.
template <typename K, typename V>
__device__ void lsm_load_fences(const lsm_view<K, V> &s, lsm_fences<K> &f) {
  constexpr int F = tuning::LSM_FENCES, FL = tuning::LSM_FENCE_LEVELS;
  int c = 0;
  for (int i = 0; i < s.num_levels && c < FL; ++i) {
    if (!((s.occupied >> i) & 1)) continue;
    const uint64_t n = s.counts[i];
    if (n == 0) continue;
    const K *keys = s.level_keys(i);
    for (int j = threadIdx.x; j < F; j += blockDim.x) f.key[c][j] = keys[uint64_t(j) * n / F];
    ++c;
  }
  __syncthreads();
}

// lower_bound (UPPER false) or upper_bound of k in keys[0, n), through the level's fences (n > 0).
// With j the fences below k (at or below, for UPPER), the bound lies in (p(j - 1), p(j)], p(j) the
// position of fence j: keys[p(j - 1)] is below k and keys[p(j)] is not.
template <bool UPPER, typename K>
__device__ __forceinline__ uint64_t lsm_fenced_search(const K *fence, const K *keys, uint64_t n, K k) {
  constexpr int F = tuning::LSM_FENCES;
  const uint64_t j = lsm_search<UPPER>(fence, F, k);
  const uint64_t lo = j > 0 ? (j - 1) * n / F + 1 : 0, hi = j < F ? j * n / F : n;
  return lo + lsm_search<UPPER>(keys + lo, hi - lo, k);
}

// The search in the c-th level with entries (of n > 0), through its fences if they are cached.
template <bool UPPER, typename K>
__device__ __forceinline__ uint64_t lsm_level_search(const lsm_fences<K> &f, int c, const K *keys, uint64_t n, K k) {
  return c < tuning::LSM_FENCE_LEVELS ? lsm_fenced_search<UPPER>(f.key[c], keys, n, k)
                                      : lsm_search<UPPER>(keys, n, k);
}

// Whether key k is live; its value in *value (the tombstone when it is not).
template <typename K, typename V>
__device__ __forceinline__ bool lsm_lookup_one(const lsm_view<K, V> &s, const lsm_fences<K> &f, K k, V *value) {
  int c = 0;
  for (int i = 0; i < s.num_levels; ++i) {
    if (!((s.occupied >> i) & 1)) continue;
    const uint64_t n = s.counts[i];
    if (n == 0) continue;
    const K *keys = s.level_keys(i);
    const uint64_t p = lsm_level_search<false>(f, c++, keys, n, k);
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
__device__ uint64_t lsm_walk(const lsm_view<K, V> &s, const lsm_fences<K> &f, K lo, K hi, Emit emit) {
  if (hi < lo) return 0;
  uint64_t cur[MSPLIT_LSM_MAX_LEVELS], end[MSPLIT_LSM_MAX_LEVELS];
  K head[MSPLIT_LSM_MAX_LEVELS];
  int level[MSPLIT_LSM_MAX_LEVELS];
  int m = 0, c = 0;
  uint64_t sum = 0;
  // 1. each occupied level's candidates, lowest level first
  for (int i = 0; i < s.num_levels; ++i) {
    if (!((s.occupied >> i) & 1)) continue;
    const uint64_t n = s.counts[i];
    if (n == 0) continue;
    const K *keys = s.level_keys(i);
    const uint64_t b = lsm_level_search<false>(f, c, keys, n, lo), e = lsm_level_search<true>(f, c, keys, n, hi);
    ++c;
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
