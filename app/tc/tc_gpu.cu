/* Triangles on the GPU: orientation by rank, rows sorted by msplit's
 * segmented sort, rows binned by length with msplit's multisplit, and
 * intersections by a warp (short rows) or a block (long rows).
 *
 * 1. Rank: the vertices sorted by (degree, id) with msplit's radix sort (the
 *    degree as key, stable, so ties keep id order). Every edge is oriented
 *    from its lower-ranked end to the higher (Schank and Wagner, "Finding,
 *    Counting and Listing all Triangles in Large Graphs"): each triangle is
 *    found once, from its lowest vertex u, as u -> v -> w with w in both out-
 *    rows of u and v, and no out-row is longer than sqrt(2m).
 * 2. The oriented graph is renumbered by rank, so that the out-row of u holds
 *    ranks above u only: for a long row (a hub: a high rank) the range
 *    (u, n) is short, and a bitmap of it fits in shared memory. Renumbering
 *    unsorts the rows; msplit's segmented sort sorts them again.
 * 3. Rows with fewer than two out-neighbours close no triangle; the others
 *    are split by length (multisplit) into short rows, a warp each, and long
 *    rows, a block each. A group walks the pairs (v in N+(u), w in N+(v)) of
 *    its row spread evenly over its threads (a scan of the out-row lengths of
 *    a chunk of v, then a search for each thread's pair), and probes each w
 *    in N+(u): by binary search in a copy of N+(u) in shared memory, or, for
 *    long rows, in a bitmap of (u, n) in shared memory where it is that short
 *    (the probe chosen per class: ds_tc_gpu_options).
 *
 * The whole of it is timed (preprocessing included). Counts are 64-bit.
 * Limits: m < 2^33 arcs (the oriented positions are 32-bit).
 */
#include <stdlib.h>
#include <string.h>

#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/warp/warp_scan.cuh>
#include <msplit/multisplit.cuh>
#include <msplit/radix_sort.cuh>
#include <msplit/segmented_sort.cuh>

#include "device_graph.cuh"
#include "ds/device_layout.h"
#include "tc.h"

namespace {

constexpr int WARP = 32;
constexpr int BLOCK = 256;
constexpr uint32_t ARCS_PER_THREAD = 8;   /* orientation: arcs a thread classifies */
constexpr uint32_t SHORT_CAP = 512;       /* the longest short row (warp cache) */
constexpr uint32_t LONG_CACHE = 8192;     /* long rows cached in shared memory up to this */
constexpr uint32_t BITMAP_WORDS = LONG_CACHE; /* the same shared words as a bitmap */
constexpr uint32_t BITMAP_BITS = BITMAP_WORDS * 32;
constexpr uint32_t CLASSES = 3;            /* short, long, none (fewer than two out-arcs) */
constexpr uint32_t SHORT_ROWS = 0, LONG_ROWS = 1, NO_TRIANGLE = 2;
constexpr int EVENTS = 3;                  /* after preprocessing, short rows, long rows */

struct tc_args {
  const uint32_t *off; /* n + 1: the oriented rows in rank space */
  const uint32_t *col; /* m / 2 ranks, each row sorted */
  uint32_t n;
  unsigned long long *total;
  unsigned long long *per; /* NULL, or n per-rank counts */
};

/* The class of row r: by its out-row length. */
struct row_class {
  const uint32_t *off;
  uint32_t short_max;
  __device__ __forceinline__ uint32_t operator()(uint32_t r) const {
    const uint32_t len = off[r + 1] - off[r];
    return len < 2 ? NO_TRIANGLE : len <= short_max ? SHORT_ROWS : LONG_ROWS;
  }
};

__global__ void degree_keys(const uint64_t *row, uint32_t n, uint32_t *deg, uint32_t *ids) {
  for (uint32_t v = blockIdx.x * blockDim.x + threadIdx.x; v < n; v += gridDim.x * blockDim.x) {
    deg[v] = (uint32_t)(row[v + 1] - row[v]);
    ids[v] = v;
  }
}

__global__ void scatter_rank(const uint32_t *order, uint32_t n, uint32_t *rank) {
  for (uint32_t r = blockIdx.x * blockDim.x + threadIdx.x; r < n; r += gridDim.x * blockDim.x)
    rank[order[r]] = r;
}

/* The source of arc e: the last row starting at or before e. */
__device__ __forceinline__ uint32_t arc_source(const uint64_t *row, uint32_t n, uint64_t e) {
  uint32_t lo = 0, hi = n; /* row[lo] <= e < row[hi] */
  while (hi - lo > 1) {
    const uint32_t mid = lo + (hi - lo) / 2;
    if (row[mid] <= e) lo = mid;
    else hi = mid;
  }
  return lo;
}

/* keep[e] = 1 for the arcs that go up in rank; keep[m] = 0. */
__global__ void orient_flags(const uint64_t *row, const uint32_t *col, uint32_t n, uint64_t m,
                             const uint32_t *rank, uint32_t *keep) {
  const uint64_t first = ((uint64_t)blockIdx.x * blockDim.x + threadIdx.x) * ARCS_PER_THREAD;
  if (first == 0) keep[m] = 0; /* the scan's last entry: the total */
  if (first >= m) return;
  uint32_t u = arc_source(row, n, first);
  const uint64_t end = min(first + ARCS_PER_THREAD, m);
  for (uint64_t e = first; e < end; e++) {
    while (row[u + 1] <= e) u++;
    keep[e] = rank[col[e]] > rank[u];
  }
}

/* The oriented row lengths in rank space: len[rank u] (pos: the scanned flags). */
__global__ void oriented_lengths(const uint64_t *row, uint32_t n, const uint32_t *rank,
                                 const uint32_t *pos, uint32_t *len) {
  for (uint32_t u = blockIdx.x * blockDim.x + threadIdx.x; u < n; u += gridDim.x * blockDim.x)
    len[rank[u]] = pos[row[u + 1]] - pos[row[u]];
  if (blockIdx.x == 0 && threadIdx.x == 0) len[n] = 0;
}

/* Every kept arc u -> v as rank v in row rank u, in the input's order. */
__global__ void oriented_arcs(const uint64_t *row, const uint32_t *col, uint32_t n, uint64_t m,
                              const uint32_t *rank, const uint32_t *pos, const uint32_t *off,
                              uint32_t *out) {
  const uint64_t first = ((uint64_t)blockIdx.x * blockDim.x + threadIdx.x) * ARCS_PER_THREAD;
  if (first >= m) return;
  uint32_t u = arc_source(row, n, first);
  const uint64_t end = min(first + ARCS_PER_THREAD, m);
  for (uint64_t e = first; e < end; e++) {
    while (row[u + 1] <= e) u++;
    if (pos[e + 1] != pos[e]) out[off[rank[u]] + pos[e] - pos[row[u]]] = rank[col[e]];
  }
}

__global__ void iota(uint32_t *a, uint32_t n) {
  for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    a[i] = i;
}

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

/* Shared memory of one group: the scanned lengths of a chunk of N+(u), and
 * N+(u) itself as a list (cap entries) or a bitmap. */
template <int G> struct group_smem {
  typename group<G>::scan::TempStorage scan;
  uint32_t incl[G];
  uint32_t v[G];
  uint32_t start[G];
};

/* The triangles closed by row u (rank), counted by a group of G threads:
 * every pair (v in N+(u), w in N+(v)) probed against N+(u). set: N+(u) in
 * shared memory (sorted copy, or bitmap of (u, u + 1 + BITMAP_BITS)). */
template <int G, bool BITMAP, bool PER>
__device__ void count_row(const tc_args &a, uint32_t u, group_smem<G> &sm, uint32_t *set,
                          uint32_t cache_cap, uint64_t &found) {
  const int t = group<G>::rank();
  const uint32_t begin = a.off[u], len = a.off[u + 1] - begin;
  const uint32_t *row_u = a.col + begin;
  // 1. N+(u) into shared memory where it fits (else probed in global memory)
  const bool cached = BITMAP || len <= cache_cap;
  for (uint32_t i = t; cached && i < len; i += G) {
    const uint32_t w = row_u[i];
    if (BITMAP) atomicOr(&set[(w - u - 1) / 32], 1u << ((w - u - 1) % 32));
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
    for (uint32_t p = t; p < pairs; p += G) {
      uint32_t lo = 0, hi = G - 1; /* the first k with incl[k] > p */
      while (lo < hi) {
        const uint32_t mid = (lo + hi) / 2;
        if (sm.incl[mid] > p) hi = mid;
        else lo = mid + 1;
      }
      const uint32_t before = lo ? sm.incl[lo - 1] : 0;
      const uint32_t w = a.col[sm.start[lo] + p - before];
      bool hit;
      if (BITMAP) hit = (set[(w - u - 1) / 32] >> ((w - u - 1) % 32)) & 1u;
      else hit = in_sorted(list, len, w);
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
  for (uint32_t i = t; BITMAP && i < len; i += G) {
    const uint32_t w = row_u[i];
    set[(w - u - 1) / 32] = 0;
  }
  group<G>::sync();
  if (PER && here) atomicAdd(&a.per[u], (unsigned long long)here);
  found += here;
}

/* Adds the block's count to the total. */
__device__ __forceinline__ void add_total(const tc_args &a, uint64_t found) {
  using reduce = cub::BlockReduce<unsigned long long, BLOCK>;
  __shared__ typename reduce::TempStorage tmp;
  const unsigned long long sum = reduce(tmp).Sum((unsigned long long)found);
  if (threadIdx.x == 0 && sum) atomicAdd(a.total, sum);
}

/* Short rows: a warp each, N+(u) copied into the warp's shared slice. */
template <bool PER>
__global__ void __launch_bounds__(BLOCK) count_short(tc_args a, const uint32_t *rows,
                                                     const size_t *offsets) {
  constexpr int WARPS = BLOCK / WARP;
  __shared__ group_smem<WARP> sm[WARPS];
  __shared__ uint32_t cache[WARPS][SHORT_CAP];
  const int w = threadIdx.x / WARP;
  const size_t first = offsets[SHORT_ROWS], count = offsets[SHORT_ROWS + 1] - first;
  uint64_t found = 0;
  for (size_t i = ((size_t)blockIdx.x * blockDim.x + threadIdx.x) / WARP; i < count;
       i += (size_t)gridDim.x * WARPS)
    count_row<WARP, false, PER>(a, rows[first + i], sm[w], cache[w], SHORT_CAP, found);
  add_total(a, found);
}

/* Long rows: a block each, N+(u) as a sorted copy or, where (u, n) is short
 * enough and bitmap is set, as a bitmap. */
template <bool PER>
__global__ void __launch_bounds__(BLOCK) count_long(tc_args a, const uint32_t *rows,
                                                    const size_t *offsets, bool bitmap) {
  __shared__ group_smem<BLOCK> sm;
  __shared__ uint32_t set[LONG_CACHE];
  const size_t first = offsets[LONG_ROWS], count = offsets[LONG_ROWS + 1] - first;
  if (bitmap)
    for (uint32_t i = threadIdx.x; i < BITMAP_WORDS; i += BLOCK) set[i] = 0;
  __syncthreads();
  uint64_t found = 0;
  for (size_t i = blockIdx.x; i < count; i += gridDim.x) {
    const uint32_t u = rows[first + i];
    if (bitmap && a.n - u - 1 <= BITMAP_BITS)
      count_row<BLOCK, true, PER>(a, u, sm, set, LONG_CACHE, found);
    else {
      count_row<BLOCK, false, PER>(a, u, sm, set, LONG_CACHE, found);
      if (bitmap) { /* the copy of N+(u) off the bitmap's words */
        const uint32_t len = a.off[u + 1] - a.off[u];
        for (uint32_t j = threadIdx.x; j < len && j < LONG_CACHE; j += BLOCK) set[j] = 0;
        __syncthreads();
      }
    }
  }
  add_total(a, found);
}

/* The per-vertex counts back in the input's numbering. */
__global__ void unrank_counts(const uint32_t *rank, uint32_t n, const unsigned long long *per_rank,
                              unsigned long long *per) {
  for (uint32_t v = blockIdx.x * blockDim.x + threadIdx.x; v < n; v += gridDim.x * blockDim.x)
    per[v] = per_rank[rank[v]];
}

/* Device buffers of a run, all in one allocation. */
struct tc_buffers {
  uint32_t *deg, *ids, *deg_sorted, *order, *rank; /* n each */
  uint32_t *pos;                                   /* m + 1: kept flags, then their scan */
  uint32_t *len, *off;                             /* n + 1 each */
  uint32_t *col_unsorted, *col;                    /* m / 2 each */
  uint32_t *classes_in, *classes_out;              /* n each */
  size_t *class_offsets;                           /* CLASSES + 1 */
  unsigned long long *total;                       /* 1 */
  unsigned long long *per_rank, *per;              /* n each */
  void *temp;
  size_t temp_bytes;
};

struct tc_dev {
  ds_device_graph g;
  ds_tc_gpu_options opt;
  tc_buffers b;
  void *block;
  uint64_t block_bytes;
  cudaEvent_t ev[EVENTS];
  int sms;
};

/* Temporary storage of every library call of a run: the largest. */
msplit_status temp_needed(uint32_t n, uint64_t m, size_t *bytes) {
  size_t t = 0, most = 0;
  const row_class op{nullptr, 0};
  msplit_status st;
  if ((st = msplit::radix_sort_pairs((void *)nullptr, &t, ds_size_query_ptr<const uint32_t>(0),
                                     ds_size_query_ptr<uint32_t>(1),
                                     ds_size_query_ptr<const uint32_t>(2),
                                     ds_size_query_ptr<uint32_t>(3), n)) != MSPLIT_SUCCESS)
    return st;
  most = t > most ? t : most;
  if ((st = msplit::segmented_sort_keys((void *)nullptr, &t, ds_size_query_ptr<const uint32_t>(0),
                                        ds_size_query_ptr<uint32_t>(1), m / 2, n,
                                        ds_size_query_ptr<const uint32_t>(2),
                                        ds_size_query_ptr<const uint32_t>(3))) != MSPLIT_SUCCESS)
    return st;
  most = t > most ? t : most;
  if ((st = msplit::multisplit_keys((void *)nullptr, &t, ds_size_query_ptr<const uint32_t>(0),
                                    ds_size_query_ptr<uint32_t>(1), n, CLASSES, op,
                                    ds_size_query_ptr<size_t>(2))) != MSPLIT_SUCCESS)
    return st;
  most = t > most ? t : most;
  const uint64_t scanned = (m > n ? m : n) + 1;
  if (cub::DeviceScan::ExclusiveSum(nullptr, t, (uint32_t *)nullptr, (uint32_t *)nullptr,
                                    (int64_t)scanned) != cudaSuccess)
    return MSPLIT_ERROR_CUDA;
  most = t > most ? t : most;
  *bytes = most;
  return MSPLIT_SUCCESS;
}

/* Lays the buffers out in one block (base NULL: only the size). */
uint64_t layout(uint32_t n, uint64_t m, size_t temp_bytes, char *base, tc_buffers *b) {
  const uint64_t nn = (uint64_t)n + 1, half = m / 2 + 1;
  ds_layout l(base);
  b->deg = l.take<uint32_t>(nn);
  b->ids = l.take<uint32_t>(nn);
  b->deg_sorted = l.take<uint32_t>(nn);
  b->order = l.take<uint32_t>(nn);
  b->rank = l.take<uint32_t>(nn);
  b->pos = l.take<uint32_t>(m + 1);
  b->len = l.take<uint32_t>(nn);
  b->off = l.take<uint32_t>(nn);
  b->col_unsorted = l.take<uint32_t>(half);
  b->col = l.take<uint32_t>(half);
  b->classes_in = l.take<uint32_t>(nn);
  b->classes_out = l.take<uint32_t>(nn);
  b->class_offsets = l.take<size_t>(CLASSES + 1);
  b->total = l.take<unsigned long long>(1);
  b->per_rank = l.take<unsigned long long>(nn);
  b->per = l.take<unsigned long long>(nn);
  b->temp = l.take<char>(temp_bytes);
  b->temp_bytes = temp_bytes;
  return l.bytes();
}

unsigned blocks_for(uint64_t items, int sms) {
  const uint64_t want = (items + BLOCK - 1) / BLOCK, most = (uint64_t)sms * 16;
  return (unsigned)(want < 1 ? 1 : want < most ? want : most);
}

}  // namespace

struct ds_tc_gpu {
  tc_dev d;
};

extern "C" uint64_t ds_tc_gpu_bytes(uint32_t n, uint64_t m) {
  size_t temp = 0;
  if (temp_needed(n, m, &temp) != MSPLIT_SUCCESS) return UINT64_MAX;
  tc_buffers b;
  return ds_device_graph_bytes(n, m) + layout(n, m, temp, nullptr, &b);
}

static ds_status open_impl(int device, const ds_graph *g, tc_dev *d, ds_error *err) {
  size_t temp = 0;
  if (temp_needed(g->n, g->m, &temp) != MSPLIT_SUCCESS)
    return ds_error_set(err, DS_ERR_DEVICE, "ds_tc_gpu_open: %s", msplit_last_error_message());
  d->block_bytes = layout(g->n, g->m, temp, nullptr, &d->b);
  DS_TRY(ds_device_graph_open(device, g, d->block_bytes, "triangle counting", &d->g, err));
  DS_CUDA_TRY(cudaMalloc(&d->block, d->block_bytes));
  layout(g->n, g->m, temp, (char *)d->block, &d->b);
  for (int i = 0; i < EVENTS; i++) DS_CUDA_TRY(cudaEventCreate(&d->ev[i]));
  DS_CUDA_TRY(cudaDeviceGetAttribute(&d->sms, cudaDevAttrMultiProcessorCount, device));
  return DS_OK;
}

static void close_dev(tc_dev *d) {
  if (d->g.stream) cudaStreamSynchronize(d->g.stream);
  cudaFree(d->block);
  for (int i = 0; i < EVENTS; i++)
    if (d->ev[i]) cudaEventDestroy(d->ev[i]);
  ds_device_graph_close(&d->g);
}

extern "C" ds_status ds_tc_gpu_open(int device, const ds_graph *g, const ds_tc_gpu_options *opt,
                                    ds_tc_gpu **ctx, ds_error *err) {
  if (ctx == NULL) return ds_error_set(err, DS_ERR_ARG, "ds_tc_gpu_open: ctx is NULL");
  *ctx = NULL;
  if (g == NULL) return ds_error_set(err, DS_ERR_ARG, "ds_tc_gpu_open: g is NULL");
  if (!g->symmetric)
    return ds_error_set(err, DS_ERR_ARG, "ds_tc_gpu_open: the graph is not symmetric");
  if (g->m >= (1ull << 33))
    return ds_error_set(err, DS_ERR_UNSUPPORTED,
                        "ds_tc_gpu_open: %llu arcs: the GPU backend takes fewer than 2^33",
                        (unsigned long long)g->m);
  ds_tc_gpu_options o;
  ds_tc_gpu_options_default(&o);
  if (opt != NULL) o = *opt;
  if (o.short_max < 2 || o.short_max > SHORT_CAP)
    return ds_error_set(err, DS_ERR_ARG, "ds_tc_gpu_open: short_max %u is outside 2..%u",
                        o.short_max, SHORT_CAP);
  if (o.long_probe != DS_TC_PROBE_SEARCH && o.long_probe != DS_TC_PROBE_BITMAP)
    return ds_error_set(err, DS_ERR_ARG, "ds_tc_gpu_open: unknown long_probe %d",
                        (int)o.long_probe);
  ds_tc_gpu *c = (ds_tc_gpu *)calloc(1, sizeof *c);
  if (c == NULL) return ds_error_set(err, DS_ERR_NOMEM, "ds_tc_gpu_open: out of memory");
  c->d.opt = o;
  const ds_status st = open_impl(device, g, &c->d, err);
  if (st != DS_OK) {
    close_dev(&c->d);
    free(c);
    return st;
  }
  *ctx = c;
  return DS_OK;
}

extern "C" void ds_tc_gpu_close(ds_tc_gpu *ctx) {
  if (ctx == NULL) return;
  close_dev(&ctx->d);
  free(ctx);
}

static ds_status run_impl(tc_dev *d, bool per_vertex, ds_error *err) {
  const uint32_t n = d->g.n;
  const uint64_t m = d->g.m;
  const tc_buffers &b = d->b;
  cudaStream_t s = d->g.stream;
  size_t tb = b.temp_bytes;
  const unsigned vb = blocks_for(n, d->sms);
  const uint64_t arc_threads = (m + ARCS_PER_THREAD - 1) / ARCS_PER_THREAD + 1;
  const unsigned ab = (unsigned)((arc_threads + BLOCK - 1) / BLOCK);
  // 1. rank by (degree, id)
  DS_CUDA_TRY(cudaMemsetAsync(b.total, 0, 8, s));
  degree_keys<<<vb, BLOCK, 0, s>>>(d->g.row, n, b.deg, b.ids);
  DS_LAUNCH_CHECK("degree_keys");
  DS_MSPLIT_TRY(msplit::radix_sort_pairs(b.temp, &tb, b.deg, b.deg_sorted, b.ids, b.order, n, 0,
                                         32, s));
  scatter_rank<<<vb, BLOCK, 0, s>>>(b.order, n, b.rank);
  DS_LAUNCH_CHECK("scatter_rank");
  // 2. orientation: the arcs that go up in rank, their positions, the rows
  orient_flags<<<ab, BLOCK, 0, s>>>(d->g.row, d->g.col, n, m, b.rank, b.pos);
  DS_LAUNCH_CHECK("orient_flags");
  tb = b.temp_bytes;
  DS_CUDA_TRY(cub::DeviceScan::ExclusiveSum(b.temp, tb, b.pos, b.pos, (int64_t)m + 1, s));
  oriented_lengths<<<vb, BLOCK, 0, s>>>(d->g.row, n, b.rank, b.pos, b.len);
  DS_LAUNCH_CHECK("oriented_lengths");
  tb = b.temp_bytes;
  DS_CUDA_TRY(cub::DeviceScan::ExclusiveSum(b.temp, tb, b.len, b.off, (int64_t)n + 1, s));
  oriented_arcs<<<ab, BLOCK, 0, s>>>(d->g.row, d->g.col, n, m, b.rank, b.pos, b.off,
                                     b.col_unsorted);
  DS_LAUNCH_CHECK("oriented_arcs");
  // 3. rows sorted (renumbering unsorted them), then binned by length
  tb = b.temp_bytes;
  DS_MSPLIT_TRY(msplit::segmented_sort_keys(b.temp, &tb, b.col_unsorted, b.col, m / 2, n, b.off,
                                            b.off + 1, s));
  iota<<<vb, BLOCK, 0, s>>>(b.classes_in, n);
  DS_LAUNCH_CHECK("iota");
  tb = b.temp_bytes;
  const row_class op{b.off, d->opt.short_max};
  DS_MSPLIT_TRY(msplit::multisplit_keys(b.temp, &tb, b.classes_in, b.classes_out, n, CLASSES, op,
                                        b.class_offsets, s));
  DS_CUDA_TRY(cudaEventRecord(d->ev[0], s));
  // 4. the intersections: short rows, then long rows
  tc_args a{b.off, b.col, n, b.total, per_vertex ? b.per_rank : nullptr};
  if (per_vertex) DS_CUDA_TRY(cudaMemsetAsync(b.per_rank, 0, 8ull * n, s));
  const unsigned grid = (unsigned)d->sms * 8;
  if (per_vertex) count_short<true><<<grid, BLOCK, 0, s>>>(a, b.classes_out, b.class_offsets);
  else count_short<false><<<grid, BLOCK, 0, s>>>(a, b.classes_out, b.class_offsets);
  DS_LAUNCH_CHECK("count_short");
  DS_CUDA_TRY(cudaEventRecord(d->ev[1], s));
  const bool bitmap = d->opt.long_probe == DS_TC_PROBE_BITMAP;
  if (per_vertex)
    count_long<true><<<grid, BLOCK, 0, s>>>(a, b.classes_out, b.class_offsets, bitmap);
  else count_long<false><<<grid, BLOCK, 0, s>>>(a, b.classes_out, b.class_offsets, bitmap);
  DS_LAUNCH_CHECK("count_long");
  DS_CUDA_TRY(cudaEventRecord(d->ev[2], s));
  if (per_vertex) {
    unrank_counts<<<vb, BLOCK, 0, s>>>(b.rank, n, b.per_rank, b.per);
    DS_LAUNCH_CHECK("unrank_counts");
  }
  return DS_OK;
}

extern "C" ds_status ds_tc_gpu_run(ds_tc_gpu *ctx, uint64_t *total, uint64_t *per_vertex,
                                   double *ms, ds_tc_gpu_stats *stats, ds_error *err) {
  if (ctx == NULL) return ds_error_set(err, DS_ERR_ARG, "ds_tc_gpu_run: ctx is NULL");
  if (total == NULL) return ds_error_set(err, DS_ERR_ARG, "ds_tc_gpu_run: total is NULL");
  tc_dev *d = &ctx->d;
  cudaStream_t s = d->g.stream;
  DS_CUDA_TRY(cudaSetDevice(d->g.device));
  DS_CUDA_TRY(cudaEventRecord(d->g.start, s));
  DS_TRY(run_impl(d, per_vertex != NULL, err));
  DS_CUDA_TRY(cudaEventRecord(d->g.stop, s));
  unsigned long long *h = (unsigned long long *)d->g.pinned;
  size_t *classes = (size_t *)(h + 1);
  DS_CUDA_TRY(cudaMemcpyAsync(h, d->b.total, 8, cudaMemcpyDeviceToHost, s));
  DS_CUDA_TRY(cudaMemcpyAsync(classes, d->b.class_offsets, sizeof(size_t) * (CLASSES + 1),
                              cudaMemcpyDeviceToHost, s));
  if (per_vertex != NULL && d->g.n > 0)
    DS_CUDA_TRY(cudaMemcpyAsync(per_vertex, d->b.per, 8ull * d->g.n, cudaMemcpyDeviceToHost, s));
  DS_CUDA_TRY(cudaStreamSynchronize(s));
  *total = h[0];
  double run_ms = 0.0;
  DS_TRY(ds_device_graph_elapsed(&d->g, &run_ms, err));
  if (ms != NULL) *ms = run_ms;
  if (stats != NULL) {
    float t[EVENTS] = {0, 0, 0};
    DS_CUDA_TRY(cudaEventElapsedTime(&t[0], d->g.start, d->ev[0]));
    DS_CUDA_TRY(cudaEventElapsedTime(&t[1], d->ev[0], d->ev[1]));
    DS_CUDA_TRY(cudaEventElapsedTime(&t[2], d->ev[1], d->ev[2]));
    stats->prep_ms = t[0];
    stats->short_ms = t[1];
    stats->long_ms = t[2];
    stats->short_rows = classes[SHORT_ROWS + 1] - classes[SHORT_ROWS];
    stats->long_rows = classes[LONG_ROWS + 1] - classes[LONG_ROWS];
  }
  return DS_OK;
}
