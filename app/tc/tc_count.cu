/* The intersections of a class of rows: the triangles closed at each row u
 * of the class, counted by a group of threads (a warp for short rows, a block
 * for long ones). The group walks the pairs (v in N+(u), w in N+(v)) of its
 * row spread evenly over its threads (a scan of the out-row lengths of a
 * chunk of v, then a search for each thread's pair), and probes each w in
 * N+(u), one of three ways (ds_tc_probe):
 *   search: binary search in a sorted copy of N+(u) in shared memory (in
 *           global memory when the row is longer than the copy);
 *   bitmap: one bit per rank of (u, n) in shared memory, where that range is
 *           short enough, else the search;
 *   hash:   msplit's slab hash, a set of the class's arcs in global memory
 *           (tc_hash.cu builds it), probed by whole warps through its device
 *           reference: no shared memory, so no limit on the row's length or
 *           range, for a 128-byte load or more per probe.
 * Every triangle is found once, at its lowest-ranked vertex. Counts are 64-bit.
 */
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/warp/warp_scan.cuh>
#include <msplit/slab_hash.cuh>

#include "ds/cuda_try.h"
#include "tc_gpu_internal.cuh"

namespace tc {
namespace {

using hash_ref = msplit::slab_hash_ref<false>;

/* Whether w is in the sorted list a[0, len). */
__device__ __forceinline__ bool in_sorted(const uint32_t *a, uint32_t len, uint32_t w) {
  uint32_t lo = 0, hi = len;
  while (lo < hi) {
    const uint32_t mid = (lo + hi) / 2;
    if (a[mid] < w) lo = mid + 1;
    else hi = mid;
  }
  return lo < len && a[lo] == w;
}

template <int G> struct group;
template <> struct group<WARP> {
  using scan = cub::WarpScan<uint32_t>;
  static __device__ __forceinline__ void sync() { __syncwarp(); }
  static __device__ __forceinline__ int rank() { return threadIdx.x & (WARP - 1); }
};
template <> struct group<BLOCK> {
  using scan = cub::BlockScan<uint32_t, BLOCK>;
  static __device__ __forceinline__ void sync() { __syncthreads(); }
  static __device__ __forceinline__ int rank() { return threadIdx.x; }
};

/* Shared memory of one group: the scanned lengths of a chunk of N+(u). */
template <int G> struct group_smem {
  typename group<G>::scan::TempStorage scan;
  uint32_t incl[G];
  uint32_t v[G];
  uint32_t start[G];
};

/* What a group counts with: its shared list or bitmap, or the hash set and the
 * key of the row's first neighbour slot (the row's place in its batch times n). */
struct probe_state {
  uint32_t *set;      /* shared: sorted copy (cache_cap entries) or bitmap */
  uint32_t cache_cap;
  hash_ref *ref;
  uint32_t key_base;
};

/* The triangles closed by row u (rank), counted by a group of G threads:
 * every pair (v in N+(u), w in N+(v)) probed against N+(u). The pairs loop
 * runs the same number of steps on every lane of a warp, as the hash's warp
 * operations need. */
template <int G, ds_tc_probe P, bool PER>
__device__ void count_row(const graph_args &a, uint32_t u, group_smem<G> &sm, probe_state ps,
                          uint64_t &found, uint64_t &probed) {
  const int t = group<G>::rank();
  const uint32_t begin = a.off[u], len = a.off[u + 1] - begin;
  const uint32_t *row_u = a.col + begin;
  uint32_t *set = ps.set;
  // 1. N+(u) into shared memory where it fits (else probed in global memory)
  const bool cached = P == DS_TC_PROBE_BITMAP || (P == DS_TC_PROBE_SEARCH && len <= ps.cache_cap);
  for (uint32_t i = t; cached && i < len; i += G) {
    const uint32_t w = row_u[i];
    if (P == DS_TC_PROBE_BITMAP) atomicOr(&set[(w - u - 1) / 32], 1u << ((w - u - 1) % 32));
    else set[i] = w;
  }
  group<G>::sync();
  const uint32_t *list = cached ? set : row_u;
  uint64_t here = 0;
  // 2. chunks of G out-neighbours v: their rows' pairs spread over the group
  for (uint32_t c = 0; c < len; c += G) {
    const uint32_t j = c + t;
    uint32_t v = 0, vlen = 0, vstart = 0;
    if (j < len) {
      v = row_u[j];
      vstart = a.off[v];
      vlen = a.off[v + 1] - vstart;
    }
    uint32_t incl, pairs;
    typename group<G>::scan(sm.scan).InclusiveSum(vlen, incl, pairs);
    sm.incl[t] = incl;
    sm.v[t] = v;
    sm.start[t] = vstart;
    group<G>::sync();
    if (t == 0) probed += pairs;
    for (uint32_t p0 = 0; p0 < pairs; p0 += G) {
      const uint32_t p = p0 + t;
      const bool live = p < pairs;
      uint32_t lo = 0, w = 0;
      if (live) {
        uint32_t hi = G - 1; /* the first k with incl[k] > p */
        while (lo < hi) {
          const uint32_t mid = (lo + hi) / 2;
          if (sm.incl[mid] > p) hi = mid;
          else lo = mid + 1;
        }
        const uint32_t before = lo ? sm.incl[lo - 1] : 0;
        w = a.col[sm.start[lo] + p - before];
      }
      bool hit;
      if (P == DS_TC_PROBE_HASH) hit = ps.ref->contains(live, ps.key_base + w);
      else if (P == DS_TC_PROBE_BITMAP) hit = live && ((set[(w - u - 1) / 32] >> ((w - u - 1) % 32)) & 1u);
      else hit = live && in_sorted(list, len, w);
      if (hit) {
        here++;
        if (PER) {
          atomicAdd(&a.per[sm.v[lo]], 1ull);
          atomicAdd(&a.per[w], 1ull);
        }
      }
    }
    group<G>::sync();
  }
  // 3. the bitmap cleared for the next row
  for (uint32_t i = t; P == DS_TC_PROBE_BITMAP && i < len; i += G) {
    const uint32_t w = row_u[i];
    set[(w - u - 1) / 32] = 0;
  }
  group<G>::sync();
  if (PER && here) atomicAdd(&a.per[u], (unsigned long long)here);
  found += here;
}

/* Adds the block's counts to the class's counters. */
__device__ __forceinline__ void add_counts(const class_rows &r, uint64_t found, uint64_t probed) {
  using reduce = cub::BlockReduce<unsigned long long, BLOCK>;
  __shared__ typename reduce::TempStorage tmp;
  const unsigned long long sum = reduce(tmp).Sum((unsigned long long)found);
  __syncthreads();
  const unsigned long long pairs = reduce(tmp).Sum((unsigned long long)probed);
  if (threadIdx.x == 0) {
    if (sum) atomicAdd(r.triangles, sum);
    if (pairs) atomicAdd(r.pairs, pairs);
  }
}

/* Rows [r.lo, r.hi) of the class, clipped to its size: *first (in the list) and *count. */
__device__ __forceinline__ void rows_of(const class_rows &r, size_t *first, size_t *count) {
  const size_t size = r.offsets[r.cls + 1] - r.offsets[r.cls];
  const size_t hi = r.hi < size ? r.hi : size;
  *first = r.offsets[r.cls] + r.lo;
  *count = hi > r.lo ? hi - r.lo : 0;
}

/* Short rows: a warp each, N+(u) copied into the warp's shared slice. */
template <bool PER>
__global__ void __launch_bounds__(BLOCK) count_short(graph_args a, class_rows r) {
  constexpr int WARPS = BLOCK / WARP;
  __shared__ group_smem<WARP> sm[WARPS];
  __shared__ uint32_t cache[WARPS][SHORT_CAP];
  const int w = threadIdx.x / WARP;
  size_t first, count;
  rows_of(r, &first, &count);
  uint64_t found = 0, probed = 0;
  const probe_state ps{cache[w], SHORT_CAP, nullptr, 0};
  for (size_t i = ((size_t)blockIdx.x * blockDim.x + threadIdx.x) / WARP; i < count;
       i += (size_t)gridDim.x * WARPS)
    count_row<WARP, DS_TC_PROBE_SEARCH, PER>(a, r.list[first + i], sm[w], ps, found, probed);
  add_counts(r, found, probed);
}

/* Long rows: a block each, probed by P (the bitmap where (u, n) is short
 * enough, else the search; the hash set's keys count rows from r.lo). */
template <bool PER, ds_tc_probe P>
__global__ void __launch_bounds__(BLOCK) count_long(graph_args a, class_rows r, hash_ref ref) {
  __shared__ group_smem<BLOCK> sm;
  __shared__ uint32_t set[LONG_CACHE];
  size_t first, count;
  rows_of(r, &first, &count);
  if (P == DS_TC_PROBE_BITMAP)
    for (uint32_t i = threadIdx.x; i < BITMAP_WORDS; i += BLOCK) set[i] = 0;
  __syncthreads();
  uint64_t found = 0, probed = 0;
  probe_state ps{set, LONG_CACHE, &ref, 0};
  for (size_t i = blockIdx.x; i < count; i += gridDim.x) {
    const uint32_t u = r.list[first + i];
    if (P == DS_TC_PROBE_HASH) {
      ps.key_base = (uint32_t)i * a.n;
      count_row<BLOCK, DS_TC_PROBE_HASH, PER>(a, u, sm, ps, found, probed);
    } else if (P == DS_TC_PROBE_BITMAP && a.n - u - 1 <= BITMAP_BITS) {
      count_row<BLOCK, DS_TC_PROBE_BITMAP, PER>(a, u, sm, ps, found, probed);
    } else {
      count_row<BLOCK, DS_TC_PROBE_SEARCH, PER>(a, u, sm, ps, found, probed);
      if (P == DS_TC_PROBE_BITMAP) { /* the copy of N+(u) off the bitmap's words */
        const uint32_t len = a.off[u + 1] - a.off[u];
        for (uint32_t j = threadIdx.x; j < len && j < LONG_CACHE; j += BLOCK) set[j] = 0;
        __syncthreads();
      }
    }
  }
  add_counts(r, found, probed);
}

/* The arcs of rows [r.lo, r.hi) of the class into the set, a warp a row. */
__global__ void __launch_bounds__(BLOCK) insert_rows(graph_args a, class_rows r, hash_ref ref,
                                                     uint32_t *failed) {
  size_t first, count;
  rows_of(r, &first, &count);
  const int lane = threadIdx.x & (WARP - 1);
  for (size_t i = ((size_t)blockIdx.x * blockDim.x + threadIdx.x) / WARP; i < count;
       i += (size_t)gridDim.x * (BLOCK / WARP)) {
    const uint32_t u = r.list[first + i], begin = a.off[u], len = a.off[u + 1] - begin;
    const uint32_t key_base = (uint32_t)i * a.n;
    for (uint32_t j0 = 0; j0 < len; j0 += WARP) { /* the same steps on every lane */
      const uint32_t j = j0 + lane;
      const bool live = j < len;
      const uint32_t res = ref.insert(live, live ? key_base + a.col[begin + j] : 0);
      if (res == MSPLIT_HASH_OUT_OF_SLABS) atomicOr(failed, 1u);
    }
  }
}

template <bool PER>
ds_status launch_class(const graph_args &g, const class_rows &r, ds_tc_probe p, hash_ref ref,
                       unsigned grid, cudaStream_t s, ds_error *err) {
  if (r.cls == SHORT_ROWS) count_short<PER><<<grid, BLOCK, 0, s>>>(g, r);
  else if (p == DS_TC_PROBE_HASH) count_long<PER, DS_TC_PROBE_HASH><<<grid, BLOCK, 0, s>>>(g, r, ref);
  else if (p == DS_TC_PROBE_BITMAP)
    count_long<PER, DS_TC_PROBE_BITMAP><<<grid, BLOCK, 0, s>>>(g, r, ref);
  else count_long<PER, DS_TC_PROBE_SEARCH><<<grid, BLOCK, 0, s>>>(g, r, ref);
  DS_LAUNCH_CHECK("tc count_class");
  return DS_OK;
}

}  // namespace

ds_status count_class(const graph_args &g, const class_rows &r, ds_tc_probe p,
                      const msplit_slab_hash *table, unsigned grid, cudaStream_t s,
                      ds_error *err) {
  /* a reference to no table where none is probed: it is never used */
  const msplit_slab_hash none{nullptr, 1, 0, 0, MSPLIT_TYPE_U32, MSPLIT_TYPE_NONE};
  const hash_ref ref(p == DS_TC_PROBE_HASH && table ? *table : none);
  return g.per ? launch_class<true>(g, r, p, ref, grid, s, err)
               : launch_class<false>(g, r, p, ref, grid, s, err);
}

ds_status build_class_set(const graph_args &g, const class_rows &r,
                          const msplit_slab_hash &table, uint32_t *failed, unsigned grid,
                          cudaStream_t s, ds_error *err) {
  insert_rows<<<grid, BLOCK, 0, s>>>(g, r, hash_ref(table), failed);
  DS_LAUNCH_CHECK("tc insert_rows");
  return DS_OK;
}

}  // namespace tc
