// The range tree's storage and build (msplit/range_tree.h): the points sorted by x with msplit's
// radix sort, level 0 gathered in that order, and each further level merged from the one below.
//
// Temporary storage, in order: the radix sort's own (its error record at the start is the
// build's), then n 32-bit point indices (the sort's input values).
#include "msplit/radix_sort.cuh"
#include "range_tree_impl.h"

namespace msplit {
namespace detail {
namespace {

constexpr int THREADS = tuning::RANGE_TREE_THREADS;

__global__ void __launch_bounds__(THREADS) rt_iota_kernel(uint32_t *out, uint64_t n) {
  const uint64_t i = uint64_t(blockIdx.x) * THREADS + threadIdx.x;
  if (i < n) out[i] = uint32_t(i);
}

// Level 0: the y of each x-rank, and the x-rank itself.
template <typename T>
__global__ void __launch_bounds__(THREADS)
    rt_level0_kernel(const T *y, const uint32_t *ids, uint64_t n, T *ys, uint32_t *ranks) {
  const uint64_t i = uint64_t(blockIdx.x) * THREADS + threadIdx.x;
  if (i >= n) return;
  ys[i] = y[ids[i]];
  ranks[i] = uint32_t(i);
}

// Level l + 1 from level l: the nodes of 2^l entries merged in pairs by y, stable (the left
// node's entry first among equal y, so equal y stay in x-rank order). An entry's place in the
// merged node is its place in its own node plus the entries of its sibling that go before it:
// those with smaller y (a left entry), or smaller or equal y (a right entry).
template <typename T>
__global__ void __launch_bounds__(THREADS)
    rt_merge_kernel(const T *ys, const uint32_t *ranks, uint64_t n, uint32_t l, T *ys_out, uint32_t *ranks_out) {
  const uint64_t i = uint64_t(blockIdx.x) * THREADS + threadIdx.x;
  if (i >= n) return;
  const uint64_t node = i >> l, size = uint64_t(1) << l, sib = node ^ 1;
  const uint64_t s0 = sib * size, s1 = s0 + size < n ? s0 + size : n;
  const uint64_t pair = (node & ~uint64_t(1)) * size, k = i - node * size;
  const T y = ys[i];
  uint64_t before = 0;
  if (s0 < n) before = ((node & 1) ? rt_upper_bound(ys, s0, s1, y) : rt_lower_bound(ys, s0, s1, y)) - s0;
  const uint64_t out = pair + k + before;
  ys_out[out] = y;
  ranks_out[out] = ranks[i];
}

}  // namespace

uint32_t rt_levels(uint64_t n) {
  uint32_t levels = 0;
  for (uint64_t m = n; m > 0 && levels < 64; m >>= 1) ++levels;
  return levels;
}

namespace {

// n fits the 32-bit x-ranks and point indices.
inline msplit_status rt_check_n(const char *fn, size_t n) {
  if (uint64_t(n) >= (uint64_t(1) << 32))
    return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: n is %zu; a tree holds fewer than 2^32 points", fn, n);
  return MSPLIT_SUCCESS;
}

}  // namespace

template <typename T>
msplit_status rt_storage_bytes_run(const char *fn, size_t n, size_t *bytes) {
  if (!bytes) return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: bytes is NULL", fn);
  MSPLIT_TRY(rt_check_n(fn, n));
  *bytes = rt_layout<T>(n, rt_levels(n)).total;
  return MSPLIT_SUCCESS;
}

template <typename T>
msplit_status rt_build_run(const char *fn, void *d_temp, size_t *temp_bytes, msplit_range_tree *tree,
                           void *d_storage, size_t storage_bytes, const T *x, const T *y, size_t n,
                           cudaStream_t stream) {
  // 1. check arguments; lay out the temporary storage (from n alone)
  if (!temp_bytes) return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: temp_bytes is NULL", fn);
  MSPLIT_TRY(rt_check_n(fn, n));
  size_t sort_bytes = 0;
  MSPLIT_TRY((radix_sort_pairs<T, uint32_t>(nullptr, &sort_bytes, nullptr, nullptr, nullptr, nullptr, n, 0,
                                            int(sizeof(T) * 8), stream)));
  sort_bytes = align_up(sort_bytes, TEMP_ALIGN);
  const size_t need = sort_bytes + align_up(n * sizeof(uint32_t), TEMP_ALIGN);
  if (!d_temp) {
    *temp_bytes = need;
    return MSPLIT_SUCCESS;
  }
  if (*temp_bytes < need)
    return set_error(MSPLIT_ERROR_TEMP_STORAGE, "%s: temp_bytes is %zu, %zu needed", fn, *temp_bytes, need);
  if (!tree) return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: tree is NULL", fn);
  if (!d_storage) return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: d_storage is NULL", fn);
  if (reinterpret_cast<uintptr_t>(d_storage) % TEMP_ALIGN != 0)
    return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: d_storage is not %zu-byte aligned", fn, TEMP_ALIGN);
  if (n > 0 && (!x || !y))
    return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: %s is NULL with n = %zu", fn, x ? "d_y" : "d_x", n);
  const uint32_t levels = rt_levels(n);
  const rt_layout<T> lay(n, levels);
  if (storage_bytes < lay.total)
    return set_error(MSPLIT_ERROR_TEMP_STORAGE, "%s: storage_bytes is %zu, %zu needed for %zu points", fn,
                     storage_bytes, lay.total, n);

  unsigned char *s = static_cast<unsigned char *>(d_storage), *temp = static_cast<unsigned char *>(d_temp);
  T *xs = reinterpret_cast<T *>(s + lay.xs), *ys = reinterpret_cast<T *>(s + lay.ys);
  uint32_t *ids = reinterpret_cast<uint32_t *>(s + lay.ids), *ranks = reinterpret_cast<uint32_t *>(s + lay.ranks);
  uint32_t *iota = reinterpret_cast<uint32_t *>(temp + sort_bytes);
  // 2. the x order: (x, index) pairs sorted by x (the sort clears the error record, even for n = 0)
  if (n > 0) {
    rt_iota_kernel<<<rt_blocks(n, THREADS), THREADS, 0, stream>>>(iota, n);
    MSPLIT_LAUNCH_CHECK();
  }
  size_t sb = sort_bytes;
  MSPLIT_TRY((radix_sort_pairs<T, uint32_t>(d_temp, &sb, x, xs, iota, ids, n, 0, int(sizeof(T) * 8), stream)));
  // 3. level 0, then each level merged from the one below
  if (n > 0) {
    rt_level0_kernel<T><<<rt_blocks(n, THREADS), THREADS, 0, stream>>>(y, ids, n, ys, ranks);
    MSPLIT_LAUNCH_CHECK();
  }
  const size_t ys_stride = lay.level_ys / sizeof(T), ranks_stride = lay.level_ranks / sizeof(uint32_t);
  for (uint32_t l = 0; l + 1 < levels; ++l) {
    rt_merge_kernel<T><<<rt_blocks(n, THREADS), THREADS, 0, stream>>>(ys + l * ys_stride, ranks + l * ranks_stride, n, l,
                                                            ys + (l + 1) * ys_stride,
                                                            ranks + (l + 1) * ranks_stride);
    MSPLIT_LAUNCH_CHECK();
  }
  tree->d_storage = d_storage;
  tree->n = n;
  tree->num_levels = levels;
  tree->coord_type = rt_type_tag<T>();
  return MSPLIT_SUCCESS;
}

#define MSPLIT_RT_BUILD_INST(T, TAG)                                                                          \
  template msplit_status rt_storage_bytes_run<T>(const char *, size_t, size_t *);                             \
  template msplit_status rt_build_run<T>(const char *, void *, size_t *, msplit_range_tree *, void *, size_t, \
                                         const T *, const T *, size_t, cudaStream_t);
MSPLIT_RANGE_TREE_TYPES(MSPLIT_RT_BUILD_INST)

}  // namespace detail
}  // namespace msplit
