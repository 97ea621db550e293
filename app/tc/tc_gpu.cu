/* Triangles on the GPU: orientation by rank, rows sorted by msplit's
 * segmented sort, rows binned by length with msplit's multisplit, and
 * intersections by a warp (short rows) or a block (long rows): tc_count.cu,
 * with the slab-hash sets of tc_hash.cu.
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
 *    are split by length (multisplit) into classes (tc.h): short rows, a warp
 *    each, and three bins of long rows, a block each, each bin probed as
 *    ds_tc_gpu_options says (search, bitmap or hash: tc_count.cu). Each class
 *    is one launch (a hash class: a set built, then probed, per batch), timed
 *    by events of its own, with its own counters of triangles and pairs.
 *
 * The whole of it is timed (preprocessing included). Counts are 64-bit.
 * Limits: m < 2^33 arcs (the oriented positions are 32-bit).
 */
#include <stdlib.h>
#include <string.h>

#include <cub/device/device_scan.cuh>
#include <msplit/multisplit.cuh>
#include <msplit/radix_sort.cuh>
#include <msplit/segmented_sort.cuh>

#include "device_graph.cuh"
#include "ds/device_layout.h"
#include "tc.h"
#include "tc_gpu_internal.cuh"

using namespace tc;

namespace {

constexpr uint32_t ARCS_PER_THREAD = 8;   /* orientation: arcs a thread classifies */
constexpr uint32_t CLASSES = DS_TC_GPU_CLASSES;
constexpr int EVENTS = 1 + CLASSES;        /* after preprocessing, after each class */
constexpr int COUNTERS = 3 * SPLIT_CLASSES; /* triangles, pairs, arcs of each class */

/* The class of row r: by its out-row length. */
struct row_class {
  const uint32_t *off;
  uint32_t short_max;
  __device__ __forceinline__ uint32_t operator()(uint32_t r) const {
    return class_of(off[r + 1] - off[r], short_max);
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

/* The out-arcs of each class (the hash sets' sizes): per block in shared
 * memory, then one atomic a class. */
__global__ void class_arcs(const uint32_t *off, uint32_t n, uint32_t short_max,
                           unsigned long long *arcs) {
  __shared__ unsigned long long sum[SPLIT_CLASSES];
  for (uint32_t c = threadIdx.x; c < SPLIT_CLASSES; c += blockDim.x) sum[c] = 0;
  __syncthreads();
  for (uint32_t r = blockIdx.x * blockDim.x + threadIdx.x; r < n; r += gridDim.x * blockDim.x) {
    const uint32_t len = off[r + 1] - off[r];
    atomicAdd(&sum[class_of(len, short_max)], (unsigned long long)len);
  }
  __syncthreads();
  for (uint32_t c = threadIdx.x; c < SPLIT_CLASSES; c += blockDim.x)
    if (sum[c]) atomicAdd(&arcs[c], sum[c]);
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
  size_t *class_offsets;                           /* SPLIT_CLASSES + 1 */
  unsigned long long *counts;                      /* COUNTERS: triangles, pairs, arcs */
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
  hash_sets hash;                   /* storage only where a bin is probed by hash */
  uint32_t hash_events[CLASSES][2]; /* each class's batches' events: [first, end) */
};

bool uses_hash(const ds_tc_gpu_options &o) {
  for (int b = 0; b < DS_TC_GPU_LONG_BINS; b++)
    if (o.long_probe[b] == DS_TC_PROBE_HASH) return true;
  return false;
}

/* Temporary storage of every library call of a run: the largest. */
msplit_status temp_needed(uint32_t n, uint64_t m, size_t *bytes) {
  size_t t = 0, most = 0;
  const row_class op{nullptr, 0};
  msplit_status st;
  if ((st = msplit::radix_sort_pairs((void *)nullptr, &t, static_cast<const uint32_t *>(nullptr),
                                     static_cast<uint32_t *>(nullptr),
                                     static_cast<const uint32_t *>(nullptr),
                                     static_cast<uint32_t *>(nullptr), n)) != MSPLIT_SUCCESS)
    return st;
  most = t > most ? t : most;
  if ((st = msplit::segmented_sort_keys((void *)nullptr, &t, static_cast<const uint32_t *>(nullptr),
                                        static_cast<uint32_t *>(nullptr), m / 2, n,
                                        static_cast<const uint32_t *>(nullptr),
                                        static_cast<const uint32_t *>(nullptr))) != MSPLIT_SUCCESS)
    return st;
  most = t > most ? t : most;
  if ((st = msplit::multisplit_keys((void *)nullptr, &t, static_cast<const uint32_t *>(nullptr),
                                    static_cast<uint32_t *>(nullptr), n, SPLIT_CLASSES, op,
                                    static_cast<size_t *>(nullptr))) != MSPLIT_SUCCESS)
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

/* Lays the buffers out in one block (base NULL: only the size); hash: the
 * bytes of the hash sets' storage and flag (0: no bin probed by hash). */
uint64_t layout(uint32_t n, uint64_t m, size_t temp_bytes, uint64_t hash, char *base,
                tc_buffers *b, hash_sets *h) {
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
  b->class_offsets = l.take<size_t>(SPLIT_CLASSES + 1);
  b->counts = l.take<unsigned long long>(COUNTERS);
  b->per_rank = l.take<unsigned long long>(nn);
  b->per = l.take<unsigned long long>(nn);
  b->temp = l.take<char>(temp_bytes);
  b->temp_bytes = temp_bytes;
  h->failed = hash ? l.take<uint32_t>(1) : nullptr;
  h->bytes = hash ? hash - ds_layout::ALIGN : 0;
  h->storage = hash ? l.take<char>(h->bytes) : nullptr;
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
  hash_sets h;
  return ds_device_graph_bytes(n, m) + layout(n, m, temp, 0, nullptr, &b, &h);
}

static ds_status open_impl(int device, const ds_graph *g, tc_dev *d, ds_error *err) {
  size_t temp = 0;
  if (temp_needed(g->n, g->m, &temp) != MSPLIT_SUCCESS)
    return ds_error_set(err, DS_ERR_DEVICE, "ds_tc_gpu_open: %s", msplit_last_error_message());
  /* a hash set may hold every oriented arc (one class, one batch) */
  const uint64_t hash = uses_hash(d->opt) ? hash_bytes(g->m / 2) : 0;
  if (hash == UINT64_MAX)
    return ds_error_set(err, DS_ERR_UNSUPPORTED, "ds_tc_gpu_open: %llu arcs are too many for "
                        "the hash probe", (unsigned long long)g->m);
  d->block_bytes = layout(g->n, g->m, temp, hash, nullptr, &d->b, &d->hash);
  DS_TRY(ds_device_graph_open(device, g, d->block_bytes, "triangle counting", &d->g, err));
  DS_CUDA_TRY(cudaMalloc(&d->block, d->block_bytes));
  layout(g->n, g->m, temp, hash, (char *)d->block, &d->b, &d->hash);
  for (int i = 0; i < EVENTS; i++) DS_CUDA_TRY(cudaEventCreate(&d->ev[i]));
  DS_CUDA_TRY(cudaDeviceGetAttribute(&d->sms, cudaDevAttrMultiProcessorCount, device));
  return DS_OK;
}

static void close_dev(tc_dev *d) {
  if (d->g.stream) cudaStreamSynchronize(d->g.stream);
  cudaFree(d->block);
  for (int i = 0; i < EVENTS; i++)
    if (d->ev[i]) cudaEventDestroy(d->ev[i]);
  hash_sets_free(&d->hash);
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
  for (int b = 0; b < DS_TC_GPU_LONG_BINS; b++)
    if ((unsigned)o.long_probe[b] >= DS_TC_PROBES)
      return ds_error_set(err, DS_ERR_ARG, "ds_tc_gpu_open: unknown long_probe[%d] %d", b,
                          (int)o.long_probe[b]);
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

/* Step 4 of the header: every class counted, each between events of its own.
 * A class probed by hash needs its rows and arcs on the host (one read-back). */
static ds_status count_classes(tc_dev *d, const graph_args &g, ds_error *err) {
  const tc_buffers &b = d->b;
  cudaStream_t s = d->g.stream;
  const unsigned grid = (unsigned)d->sms * 8;
  size_t rows[SPLIT_CLASSES + 1] = {0};
  unsigned long long *arcs = b.counts + 2 * SPLIT_CLASSES, arcs_h[SPLIT_CLASSES] = {0};
  if (uses_hash(d->opt)) {
    class_arcs<<<blocks_for(g.n, d->sms), BLOCK, 0, s>>>(g.off, g.n, d->opt.short_max, arcs);
    DS_LAUNCH_CHECK("class_arcs");
    char *pinned = (char *)d->g.pinned;
    DS_CUDA_TRY(cudaMemcpyAsync(pinned, b.class_offsets, sizeof rows, cudaMemcpyDeviceToHost, s));
    DS_CUDA_TRY(cudaMemcpyAsync(pinned + sizeof rows, arcs, sizeof arcs_h,
                                cudaMemcpyDeviceToHost, s));
    DS_CUDA_TRY(cudaStreamSynchronize(s));
    memcpy(rows, pinned, sizeof rows);
    memcpy(arcs_h, pinned + sizeof rows, sizeof arcs_h);
  }
  d->hash.events_used = 0;
  for (uint32_t c = 0; c < CLASSES; c++) {
    const class_rows r{b.classes_out, b.class_offsets, c, 0, UINT32_MAX, b.counts + c,
                       b.counts + SPLIT_CLASSES + c};
    const ds_tc_probe p = c == SHORT_ROWS ? DS_TC_PROBE_SEARCH : d->opt.long_probe[c - 1];
    d->hash_events[c][0] = d->hash_events[c][1] = d->hash.events_used;
    if (p == DS_TC_PROBE_HASH) {
      DS_TRY(count_hash_class(&d->hash, g, r, rows[c + 1] - rows[c], arcs_h[c], grid, s,
                              &d->hash_events[c][0], err));
      d->hash_events[c][1] = d->hash.events_used;
    } else {
      DS_TRY(count_class(g, r, p, nullptr, grid, s, err));
    }
    DS_CUDA_TRY(cudaEventRecord(d->ev[1 + c], s));
  }
  return DS_OK;
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
  DS_CUDA_TRY(cudaMemsetAsync(b.counts, 0, sizeof(unsigned long long) * COUNTERS, s));
  if (d->hash.failed) DS_CUDA_TRY(cudaMemsetAsync(d->hash.failed, 0, sizeof(uint32_t), s));
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
  DS_MSPLIT_TRY(msplit::multisplit_keys(b.temp, &tb, b.classes_in, b.classes_out, n,
                                        SPLIT_CLASSES, op, b.class_offsets, s));
  DS_CUDA_TRY(cudaEventRecord(d->ev[0], s));
  // 4. the intersections, class by class
  const graph_args g{b.off, b.col, n, per_vertex ? b.per_rank : nullptr};
  if (per_vertex) DS_CUDA_TRY(cudaMemsetAsync(b.per_rank, 0, 8ull * n, s));
  DS_TRY(count_classes(d, g, err));
  if (per_vertex) {
    unrank_counts<<<vb, BLOCK, 0, s>>>(b.rank, n, b.per_rank, b.per);
    DS_LAUNCH_CHECK("unrank_counts");
  }
  return DS_OK;
}

/* The read-back of a run: the class offsets, the counters, the hash flag. */
struct run_readback {
  size_t offsets[SPLIT_CLASSES + 1];
  unsigned long long counts[COUNTERS];
  uint32_t failed;
};
static_assert(sizeof(run_readback) <= DS_DEVICE_GRAPH_PINNED_BYTES, "the pinned read-back slot");

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
  run_readback *h = (run_readback *)d->g.pinned;
  DS_CUDA_TRY(cudaMemcpyAsync(h->offsets, d->b.class_offsets, sizeof h->offsets,
                              cudaMemcpyDeviceToHost, s));
  DS_CUDA_TRY(cudaMemcpyAsync(h->counts, d->b.counts, sizeof h->counts, cudaMemcpyDeviceToHost, s));
  h->failed = 0;
  if (d->hash.failed)
    DS_CUDA_TRY(cudaMemcpyAsync(&h->failed, d->hash.failed, 4, cudaMemcpyDeviceToHost, s));
  if (per_vertex != NULL && d->g.n > 0)
    DS_CUDA_TRY(cudaMemcpyAsync(per_vertex, d->b.per, 8ull * d->g.n, cudaMemcpyDeviceToHost, s));
  DS_CUDA_TRY(cudaStreamSynchronize(s));
  if (h->failed)
    return ds_error_set(err, DS_ERR_DEVICE, "ds_tc_gpu_run: a hash set ran out of slabs");
  *total = 0;
  for (uint32_t c = 0; c < CLASSES; c++) *total += h->counts[c];
  double run_ms = 0.0;
  DS_TRY(ds_device_graph_elapsed(&d->g, &run_ms, err));
  if (ms != NULL) *ms = run_ms;
  if (stats != NULL) {
    memset(stats, 0, sizeof *stats);
    float t = 0.0f;
    DS_CUDA_TRY(cudaEventElapsedTime(&t, d->g.start, d->ev[0]));
    stats->prep_ms = t;
    for (uint32_t c = 0; c < CLASSES; c++) {
      DS_CUDA_TRY(cudaEventElapsedTime(&t, d->ev[c], d->ev[c + 1]));
      stats->class_ms[c] = t;
      DS_TRY(hash_build_ms(&d->hash, d->hash_events[c][0], d->hash_events[c][1],
                           &stats->class_build_ms[c], err));
      stats->class_rows[c] = h->offsets[c + 1] - h->offsets[c];
      stats->class_triangles[c] = h->counts[c];
      stats->class_pairs[c] = h->counts[SPLIT_CLASSES + c];
      if (c == SHORT_ROWS) continue;
      stats->long_ms += t;
      stats->long_rows += stats->class_rows[c];
    }
    stats->short_ms = stats->class_ms[SHORT_ROWS];
    stats->short_rows = stats->class_rows[SHORT_ROWS];
  }
  return DS_OK;
}
