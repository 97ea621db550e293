// The range tree's layout in its storage and the per-query side of its queries: binary searches,
// the canonical nodes of a box, and the walks (count, skyline). msplit/range_tree.h describes the
// structure. The searches and walks are host and device functions: over the same layout in host
// memory they are a CPU range tree (bench/range_tree_bench.cu's CPU baseline).
#pragma once
#include <cuda_runtime.h>
#include <stddef.h>
#include <stdint.h>

#include "msplit/detail/range_tree/dispatch.h"
#include "msplit/detail/util.cuh"

namespace msplit {
namespace detail {

// The pieces of a tree's storage, each at a TEMP_ALIGN boundary: the x order (sorted x, then the
// point index of each x-rank), then for each level its y coordinates and its x-ranks.
template <typename T>
struct rt_layout {
  size_t xs, ids, ys, ranks, level_ys, level_ranks, total;
  rt_layout(uint64_t n, uint32_t levels) {
    const size_t coords = align_up(n * sizeof(T), TEMP_ALIGN), words = align_up(n * sizeof(uint32_t), TEMP_ALIGN);
    xs = 0;
    ids = coords;
    ys = ids + words;
    level_ys = coords;
    ranks = ys + levels * coords;
    level_ranks = words;
    total = ranks + levels * words;
    if (total == 0) total = TEMP_ALIGN;  // n == 0: a tree still has storage of its own
  }
};

// What the kernels read of a tree: level l's y coordinates are ys + l * ys_stride, and so on.
template <typename T>
struct rt_view {
  uint64_t n;
  uint32_t levels;
  const T *xs;
  const uint32_t *ids;
  const T *ys;
  const uint32_t *ranks;
  uint64_t ys_stride, ranks_stride;  // elements between levels (n rounded up to the alignment)
};

template <typename T>
inline rt_view<T> make_rt_view(const msplit_range_tree &h) {
  const rt_layout<T> lay(h.n, h.num_levels);
  const unsigned char *s = static_cast<const unsigned char *>(h.d_storage);
  return {h.n,
          h.num_levels,
          reinterpret_cast<const T *>(s + lay.xs),
          reinterpret_cast<const uint32_t *>(s + lay.ids),
          reinterpret_cast<const T *>(s + lay.ys),
          reinterpret_cast<const uint32_t *>(s + lay.ranks),
          lay.level_ys / sizeof(T),
          lay.level_ranks / sizeof(uint32_t)};
}

// First i in [lo, hi) with a[i] >= v (hi if none); a sorted ascending. Halves [lo, hi) each step,
// so at most 64 steps.
template <typename T>
__host__ __device__ __forceinline__ uint64_t rt_lower_bound(const T *a, uint64_t lo, uint64_t hi, T v) {
  while (lo < hi) {
    const uint64_t mid = lo + (hi - lo) / 2;
    if (a[mid] < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

// First i in [lo, hi) with a[i] > v (hi if none).
template <typename T>
__host__ __device__ __forceinline__ uint64_t rt_upper_bound(const T *a, uint64_t lo, uint64_t hi, T v) {
  while (lo < hi) {
    const uint64_t mid = lo + (hi - lo) / 2;
    if (v < a[mid]) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

// The x-ranks [*lo, *hi) of a box's x range; false (an empty box) when it has no points in x or
// its bounds are inverted or NaN (!(a <= b) holds for both).
template <typename T>
__host__ __device__ __forceinline__ bool rt_x_ranks(const rt_view<T> &t, const range_box<T> &b, uint64_t *lo, uint64_t *hi) {
  if (!(b.x_lo <= b.x_hi) || !(b.y_lo <= b.y_hi)) return false;
  *lo = rt_lower_bound(t.xs, 0, t.n, b.x_lo);
  *hi = rt_upper_bound(t.xs, 0, t.n, b.x_hi);
  return *lo < *hi;
}

// Calls f(level, first, last) for the canonical nodes of x-ranks [lo, hi): the fewest whole nodes
// that cover them, at most two per level, [first, last) their entries in the level. Bottom-up: at
// level l, lo and hi are node numbers; an odd lo is a right child whose parent reaches below the
// range, so it is taken alone, and likewise an odd hi's left neighbour. Nodes taken lie inside
// [lo, hi) <= n, so none is a shortened last node. One level per step: at most 64 steps.
template <typename F>
__host__ __device__ __forceinline__ void rt_for_canonical(uint64_t lo, uint64_t hi, F f) {
  for (uint32_t l = 0; lo < hi && l < 64; ++l, lo >>= 1, hi >>= 1) {
    if (lo & 1) {
      f(l, lo << l, (lo + 1) << l);
      ++lo;
    }
    if (hi & 1) {
      --hi;
      f(l, hi << l, (hi + 1) << l);
    }
  }
}

// The number of points in box b.
template <typename T>
__host__ __device__ __forceinline__ uint64_t rt_count_box(const rt_view<T> &t, const range_box<T> &b) {
  uint64_t lo, hi, count = 0;
  if (!rt_x_ranks(t, b, &lo, &hi)) return 0;
  rt_for_canonical(lo, hi, [&](uint32_t l, uint64_t first, uint64_t last) {
    const T *ys = t.ys + l * t.ys_stride;
    count += rt_upper_bound(ys, first, last, b.y_hi) - rt_lower_bound(ys, first, last, b.y_lo);
  });
  return count;
}

// The skyline of box b (msplit/range_tree.h): emit(j, index) for its j-th point, top down, and
// returns their number. The region left to search is x-ranks [from, hi) and y in [y_lo, top]
// (top excluded after the first step). Each step finds the region's highest y (the highest entry
// <= top in each canonical node), emits every point of that y in the region (none dominates
// another, and none is dominated: every higher point of the box lies left of them), and narrows
// the region to x >= the x of the rightmost of them: a point left of that x, and lower, is
// dominated by it. Each step emits at least one point and lowers top, so at most n + 1 steps.
template <typename T, typename Emit>
__host__ __device__ uint64_t rt_skyline_box(const rt_view<T> &t, const range_box<T> &b, Emit emit) {
  uint64_t from, hi, got = 0;
  if (!rt_x_ranks(t, b, &from, &hi)) return 0;
  T top = b.y_hi;
  bool inclusive = true;
  for (uint64_t step = 0; step <= t.n && from < hi; ++step) {
    bool found = false;
    T best = b.y_lo;
    rt_for_canonical(from, hi, [&](uint32_t l, uint64_t first, uint64_t last) {
      const T *ys = t.ys + l * t.ys_stride;
      const uint64_t end = inclusive ? rt_upper_bound(ys, first, last, top) : rt_lower_bound(ys, first, last, top);
      if (end > first && !(ys[end - 1] < b.y_lo) && (!found || best < ys[end - 1])) {
        best = ys[end - 1];
        found = true;
      }
    });
    if (!found) break;
    uint64_t rightmost = 0;
    rt_for_canonical(from, hi, [&](uint32_t l, uint64_t first, uint64_t last) {
      const T *ys = t.ys + l * t.ys_stride;
      const uint32_t *ranks = t.ranks + l * t.ranks_stride;
      const uint64_t s = rt_lower_bound(ys, first, last, best), e = rt_upper_bound(ys, s, last, best);
      for (uint64_t k = s; k < e; ++k) {  // equal y: in x-rank order, the last the rightmost
        emit(got++, t.ids[ranks[k]]);
        if (ranks[k] > rightmost) rightmost = ranks[k];
      }
    });
    from = rt_lower_bound(t.xs, from, hi, t.xs[rightmost]);
    top = best;
    inclusive = false;
  }
  return got;
}

}  // namespace detail
}  // namespace msplit
