/* Core numbers on the GPU by bucketed peeling: the bucketing of Dhulipala,
 * Blelloch and Shun, "Julienne: A Framework for Parallel Graph Algorithms
 * using Work-efficient Bucketing" (SPAA 2017), with the buckets kept by
 * msplit's multisplit, as delta-stepping keeps its buckets.
 *
 * The vertices not yet peeled are kept in WINDOW buckets by degree, [base,
 * base + WINDOW), and one overflow bucket beyond: one multisplit of the
 * overflow opens each window (base = the least degree left). Level k peels
 * every vertex of degree k: it is found among the window's buckets from k's
 * on (lower ones are peeled already) and the vertices that entered the window
 * since it opened; each is given core number k when it is queued. A queued
 * vertex takes one degree off each neighbour not yet peeled; a neighbour that
 * falls to k is queued in the same level (the next sub-round), one that falls
 * below base + WINDOW from the overflow enters the window. Sub-rounds repeat
 * until the level's queue is empty.
 *
 * Invariants: during level k every vertex not yet peeled has degree > k
 * outside the transient of a decrement; degrees only fall, so a neighbour
 * reaches k + 1 -> k (and base + WINDOW -> below) exactly once, and is queued
 * once. Work items are pieces of at most PIECE arcs of a queued vertex, so one
 * hub does not serialise a round; a warp takes 32 items and spreads their arcs
 * over its lanes. Small queues are run by one block, all
 * their sub-rounds in one launch (the road networks' long chains of tiny
 * sub-rounds); large ones by the grid, a launch per sub-round.
 *
 * Limits: n < 2^32 and fewer than 2^32 items in one level (n + m / PIECE).
 */
#include <stdlib.h>
#include <string.h>

#include <msplit/multisplit.cuh>

#include "device_graph.cuh"
#include "kcore.h"

namespace {

constexpr uint32_t UNSET = UINT32_MAX;      /* core number not given yet */
constexpr uint32_t WINDOW = 16;             /* degree buckets of one window */
constexpr uint32_t SPLIT_BUCKETS = WINDOW + 2; /* + overflow + peeled (dropped) */
constexpr uint32_t PIECE = 128;             /* arcs of one work item */
constexpr int WARP = 32;
constexpr int GRID_BLOCK = 256;
constexpr int SOLO_BLOCK = 1024;
constexpr uint32_t SOLO_MAX = 4096;         /* items a single block takes a sub-round of, */
constexpr uint64_t SOLO_ARCS = 32768;       /* and arcs: 32 per thread */
constexpr int FILTER_BLOCK = 256;

/* Device counters of a level; read back after each launch that decides. */
struct peel_state {
  unsigned long long arcs[2]; /* their arcs */
  uint32_t count[2];  /* items queued in frontier buffer 0 / 1 */
  uint32_t cur;       /* the buffer that holds the current sub-round */
  uint32_t entered;   /* vertices that entered the window since it opened */
  uint32_t least;     /* the least degree above k met by the level's filter */
  uint32_t rounds;    /* sub-rounds run by single-block launches */
};

struct peel_args {
  const uint64_t *row;
  const uint32_t *col;
  uint32_t *deg;
  uint32_t *core;
  uint64_t *items[2];
  uint32_t *entered; /* the window's late arrivals */
  peel_state *st;
  uint32_t top;      /* base + WINDOW: degrees from here are in the overflow */
};

/* The bucket of a vertex when a window opens: its degree's bucket, the
 * overflow, or a bucket of its own for the peeled (dropped). */
struct window_bucket {
  const uint32_t *deg, *core;
  uint32_t base;
  __device__ __forceinline__ uint32_t operator()(uint32_t v) const {
    if (core[v] != UNSET) return WINDOW + 1;
    const uint32_t d = deg[v] - base;
    return d < WINDOW ? d : WINDOW;
  }
};

/* Queues v (core number k) as its pieces into buffer b. */
__device__ __forceinline__ void enqueue(const peel_args &a, uint32_t v, uint32_t k, int b) {
  a.core[v] = k;
  const uint64_t len = a.row[v + 1] - a.row[v];
  const uint32_t pieces = (uint32_t)((len + PIECE - 1) / PIECE);
  if (pieces == 0) return;
  atomicAdd(&a.st->arcs[b], (unsigned long long)len);
  const uint32_t at = atomicAdd(&a.st->count[b], pieces);
  for (uint32_t p = 0; p < pieces; p++) a.items[b][at + p] = ((uint64_t)p << 32) | v;
}

/* Items first..first+31 of buffer cur, one per lane, by one warp: a degree
 * off each neighbour not peeled. The arcs of the 32 items are spread evenly
 * over the lanes (a scan of their lengths, then each lane finds the item of
 * its arc), so that a warp of low-degree vertices keeps its lanes busy. */
__device__ __forceinline__ void peel_chunk(const peel_args &a, uint32_t first, uint32_t count,
                                           uint32_t k, int cur, int lane) {
  uint64_t begin = 0;
  uint32_t len = 0;
  if (first + lane < count) {
    const uint64_t item = a.items[cur][first + lane];
    const uint32_t v = (uint32_t)item;
    begin = a.row[v] + (item >> 32) * PIECE;
    const uint64_t left = a.row[v + 1] - begin;
    len = left < PIECE ? (uint32_t)left : PIECE;
  }
  uint32_t incl = len;
  for (int d = 1; d < WARP; d *= 2) {
    const uint32_t up = __shfl_up_sync(0xffffffffu, incl, d);
    if (lane >= d) incl += up;
  }
  const uint32_t total = __shfl_sync(0xffffffffu, incl, WARP - 1);
  for (uint32_t base = 0; base < total; base += WARP) {
    const uint32_t t = base + lane;
    int lo = 0, hi = WARP - 1; /* the first lane whose inclusive sum exceeds t */
    while (lo < hi) {
      const int mid = (lo + hi) / 2;
      if (__shfl_sync(0xffffffffu, incl, mid) > t) hi = mid;
      else lo = mid + 1;
    }
    const uint32_t owner_incl = __shfl_sync(0xffffffffu, incl, lo);
    const uint32_t owner_len = __shfl_sync(0xffffffffu, len, lo);
    const uint64_t owner_begin = __shfl_sync(0xffffffffu, begin, lo);
    if (t >= total) continue;
    const uint32_t u = a.col[owner_begin + (t - (owner_incl - owner_len))];
    if (a.core[u] != UNSET) continue;
    const uint32_t old = atomicSub(&a.deg[u], 1u);
    if (old == k + 1) enqueue(a, u, k, cur ^ 1);
    else if (old == a.top) a.entered[atomicAdd(&a.st->entered, 1u)] = u;
  }
}

/* The least degree of the vertices in list not peeled (into st->least). */
__global__ void least_degree(const uint32_t *list, uint32_t count, const uint32_t *deg,
                             const uint32_t *core, peel_state *st) {
  uint32_t least = UINT32_MAX;
  for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < count; i += gridDim.x * blockDim.x) {
    const uint32_t v = list[i];
    if (core[v] == UNSET) least = min(least, deg[v]);
  }
  for (int o = WARP / 2; o > 0; o /= 2) least = min(least, __shfl_xor_sync(0xffffffffu, least, o));
  if ((threadIdx.x & (WARP - 1)) == 0 && least != UINT32_MAX) atomicMin(&st->least, least);
}

/* Level k's queue: the vertices of degree k among win[from, to) and the
 * late arrivals; the least other degree into st->least. */
__global__ void level_filter(peel_args a, const uint32_t *win, uint32_t from, uint32_t to,
                             uint32_t k) {
  const uint32_t own = to - from, late = a.st->entered;
  for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < own + late;
       i += gridDim.x * blockDim.x) {
    const uint32_t v = i < own ? win[from + i] : a.entered[i - own];
    if (a.core[v] != UNSET) continue;
    const uint32_t d = a.deg[v];
    if (d <= k) enqueue(a, v, k, 0);
    else atomicMin(&a.st->least, d);
  }
}

/* One sub-round by the grid: buffer cur into buffer cur ^ 1. */
__global__ void peel_grid(peel_args a, uint32_t k, int cur) {
  const uint32_t count = a.st->count[cur];
  const int lane = threadIdx.x & (WARP - 1);
  const uint32_t stride = gridDim.x * blockDim.x; /* items: a warp takes WARP at once */
  for (uint32_t i = (blockIdx.x * blockDim.x + threadIdx.x) / WARP * WARP; i < count; i += stride)
    peel_chunk(a, i, count, k, cur, lane);
}

/* Sub-rounds by one block while the queue stays within SOLO_MAX and SOLO_ARCS:
 * the level ends here, or the grid takes over from st->cur. */
__global__ void peel_solo(peel_args a, uint32_t k, int cur) {
  const int lane = threadIdx.x & (WARP - 1), warp = threadIdx.x / WARP;
  uint32_t rounds = 0;
  for (;;) {
    const uint32_t count = *(volatile uint32_t *)&a.st->count[cur];
    const uint64_t arcs = *(volatile unsigned long long *)&a.st->arcs[cur];
    if (count == 0 || count > SOLO_MAX || arcs > SOLO_ARCS) break;
    for (uint32_t i = warp * WARP; i < count; i += SOLO_BLOCK)
      peel_chunk(a, i, count, k, cur, lane);
    __syncthreads();
    if (threadIdx.x == 0) a.st->count[cur] = 0, a.st->arcs[cur] = 0;
    __threadfence_block();
    __syncthreads();
    cur ^= 1;
    rounds++;
  }
  if (threadIdx.x == 0) {
    a.st->cur = (uint32_t)cur;
    a.st->rounds += rounds;
  }
}

struct kcore_dev {
  ds_device_graph g;
  uint32_t *deg, *core, *list[2], *entered;
  uint64_t *items[2];
  size_t *offsets; /* SPLIT_BUCKETS + 1 */
  peel_state *st;
  void *temp;
  size_t temp_bytes;
  int grid_blocks;
};

uint64_t items_capacity(uint32_t n, uint64_t m) { return (uint64_t)n + m / PIECE + 1; }

/* Blocks for `threads` threads of `block`, at most `most`, at least one. */
uint32_t blocks_for(uint64_t threads, int block, int most) {
  const uint64_t want = (threads + block - 1) / block;
  return (uint32_t)(want < 1 ? 1 : want < (uint64_t)most ? want : most);
}

}  // namespace

struct ds_kcore_gpu {
  kcore_dev d;
};

static size_t split_temp_bytes(uint32_t n, ds_error *err, ds_status *st) {
  size_t bytes = 0;
  const window_bucket op{nullptr, nullptr, 0};
  if (msplit::multisplit_keys((void *)nullptr, &bytes, ds_size_query_ptr<const uint32_t>(0),
                              ds_size_query_ptr<uint32_t>(1), n, SPLIT_BUCKETS, op,
                              ds_size_query_ptr<size_t>(2)) != MSPLIT_SUCCESS)
    *st = ds_error_set(err, DS_ERR_DEVICE, "ds_kcore_gpu: multisplit: %s",
                       msplit_last_error_message());
  return bytes;
}

uint64_t ds_kcore_gpu_bytes(uint32_t n, uint64_t m) {
  ds_status st = DS_OK;
  const uint64_t nn = n ? n : 1;
  return ds_device_graph_bytes(n, m) + 4 * nn * 5 + 2 * 8 * items_capacity(n, m) +
         sizeof(size_t) * (SPLIT_BUCKETS + 1) + sizeof(peel_state) + split_temp_bytes(n, NULL, &st);
}

static ds_status open_impl(int device, const ds_graph *g, kcore_dev *d, ds_error *err) {
  const uint64_t nn = g->n ? g->n : 1;
  ds_status st = DS_OK;
  d->temp_bytes = split_temp_bytes(g->n, err, &st);
  if (st != DS_OK) return st;
  const uint64_t work = ds_kcore_gpu_bytes(g->n, g->m) - ds_device_graph_bytes(g->n, g->m);
  DS_TRY(ds_device_graph_open(device, g, work, "k-core", &d->g, err));
  DS_CUDA_TRY(cudaMalloc(&d->deg, 4 * nn));
  DS_CUDA_TRY(cudaMalloc(&d->core, 4 * nn));
  DS_CUDA_TRY(cudaMalloc(&d->list[0], 4 * nn));
  DS_CUDA_TRY(cudaMalloc(&d->list[1], 4 * nn));
  DS_CUDA_TRY(cudaMalloc(&d->entered, 4 * nn));
  DS_CUDA_TRY(cudaMalloc(&d->items[0], 8 * items_capacity(g->n, g->m)));
  DS_CUDA_TRY(cudaMalloc(&d->items[1], 8 * items_capacity(g->n, g->m)));
  DS_CUDA_TRY(cudaMalloc(&d->offsets, sizeof(size_t) * (SPLIT_BUCKETS + 1)));
  DS_CUDA_TRY(cudaMalloc(&d->st, sizeof(peel_state)));
  DS_CUDA_TRY(cudaMalloc(&d->temp, d->temp_bytes ? d->temp_bytes : 1));
  int sms = 0;
  DS_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  d->grid_blocks = sms * (2048 / GRID_BLOCK);
  return DS_OK;
}

static void close_dev(kcore_dev *d) {
  if (d->g.stream) cudaStreamSynchronize(d->g.stream);
  cudaFree(d->deg);
  cudaFree(d->core);
  cudaFree(d->list[0]);
  cudaFree(d->list[1]);
  cudaFree(d->entered);
  cudaFree(d->items[0]);
  cudaFree(d->items[1]);
  cudaFree(d->offsets);
  cudaFree(d->st);
  cudaFree(d->temp);
  ds_device_graph_close(&d->g);
}

extern "C" ds_status ds_kcore_gpu_open(int device, const ds_graph *g, ds_kcore_gpu **ctx,
                                       ds_error *err) {
  if (ctx == NULL) return ds_error_set(err, DS_ERR_ARG, "ds_kcore_gpu_open: ctx is NULL");
  *ctx = NULL;
  if (g == NULL) return ds_error_set(err, DS_ERR_ARG, "ds_kcore_gpu_open: g is NULL");
  if (!g->symmetric)
    return ds_error_set(err, DS_ERR_ARG, "ds_kcore_gpu_open: the graph is not symmetric");
  ds_kcore_gpu *c = (ds_kcore_gpu *)calloc(1, sizeof *c);
  if (c == NULL) return ds_error_set(err, DS_ERR_NOMEM, "ds_kcore_gpu_open: out of memory");
  const ds_status st = open_impl(device, g, &c->d, err);
  if (st != DS_OK) {
    close_dev(&c->d);
    free(c);
    return st;
  }
  *ctx = c;
  return DS_OK;
}

extern "C" void ds_kcore_gpu_close(ds_kcore_gpu *ctx) {
  if (ctx == NULL) return;
  close_dev(&ctx->d);
  free(ctx);
}

__global__ void init_vertices(const uint64_t *row, uint32_t n, uint32_t *deg, uint32_t *core,
                              uint32_t *list) {
  for (uint32_t v = blockIdx.x * blockDim.x + threadIdx.x; v < n; v += gridDim.x * blockDim.x) {
    deg[v] = (uint32_t)(row[v + 1] - row[v]);
    core[v] = UNSET;
    list[v] = v;
  }
}

/* Reads the level counters back (waits for the stream). */
static ds_status read_state(kcore_dev *d, peel_state *h, ds_error *err) {
  DS_CUDA_TRY(cudaMemcpyAsync(d->g.pinned, d->st, sizeof *h, cudaMemcpyDeviceToHost, d->g.stream));
  DS_CUDA_TRY(cudaStreamSynchronize(d->g.stream));
  memcpy(h, d->g.pinned, sizeof *h);
  return DS_OK;
}

static ds_status set_least(kcore_dev *d, ds_error *err) {
  DS_CUDA_TRY(cudaMemsetAsync(&d->st->least, 0xFF, sizeof(uint32_t), d->g.stream));
  return DS_OK;
}

/* Level k's sub-rounds, its queue in buffer 0 with count items. */
static ds_status peel_level(kcore_dev *d, const peel_args &a, uint32_t k, uint32_t count,
                            uint64_t arcs, ds_kcore_gpu_stats *stats, ds_error *err) {
  int cur = 0;
  peel_state h;
  while (count > 0) {
    if (count <= SOLO_MAX && arcs <= SOLO_ARCS) {
      peel_solo<<<1, SOLO_BLOCK, 0, d->g.stream>>>(a, k, cur);
      DS_LAUNCH_CHECK("peel_solo");
      DS_TRY(read_state(d, &h, err));
      cur = (int)h.cur;
    } else {
      const uint32_t blocks = blocks_for(count, GRID_BLOCK, d->grid_blocks);
      peel_grid<<<blocks, GRID_BLOCK, 0, d->g.stream>>>(a, k, cur);
      DS_LAUNCH_CHECK("peel_grid");
      DS_CUDA_TRY(cudaMemsetAsync(&d->st->count[cur], 0, sizeof(uint32_t), d->g.stream));
      DS_CUDA_TRY(cudaMemsetAsync(&d->st->arcs[cur], 0, sizeof(uint64_t), d->g.stream));
      cur ^= 1;
      stats->rounds++;
      DS_TRY(read_state(d, &h, err));
    }
    count = h.count[cur];
    arcs = h.arcs[cur];
  }
  return DS_OK;
}

static ds_status run_impl(kcore_dev *d, uint32_t *core, ds_kcore_gpu_stats *stats, ds_error *err) {
  const uint32_t n = d->g.n;
  cudaStream_t s = d->g.stream;
  peel_state h;
  memset(&h, 0, sizeof h);
  // 1. degrees, nothing peeled, every vertex in the overflow
  DS_CUDA_TRY(cudaEventRecord(d->g.start, s));
  DS_CUDA_TRY(cudaMemsetAsync(d->st, 0, sizeof(peel_state), s));
  init_vertices<<<d->grid_blocks, GRID_BLOCK, 0, s>>>(d->g.row, n, d->deg, d->core, d->list[0]);
  DS_LAUNCH_CHECK("init_vertices");
  peel_args a;
  a.row = d->g.row;
  a.col = d->g.col;
  a.deg = d->deg;
  a.core = d->core;
  a.items[0] = d->items[0];
  a.items[1] = d->items[1];
  a.entered = d->entered;
  a.st = d->st;
  // the overflow bucket: list `src` of `over` vertices; each window's multisplit
  // writes the other list, and the overflow it leaves there opens the next
  const uint32_t *src = d->list[0];
  int out = 1;
  uint32_t over = n;
  size_t off[SPLIT_BUCKETS + 1];
  // 2. windows: open one on the least degree left, peel its levels
  while (over > 0) {
    DS_TRY(set_least(d, err));
    const uint32_t blocks = blocks_for(over, FILTER_BLOCK, d->grid_blocks);
    least_degree<<<blocks, FILTER_BLOCK, 0, s>>>(src, over, d->deg, d->core, d->st);
    DS_LAUNCH_CHECK("least_degree");
    DS_TRY(read_state(d, &h, err));
    if (h.least == UINT32_MAX) break; /* all peeled */
    const uint32_t base = h.least;
    const window_bucket op{d->deg, d->core, base};
    size_t bytes = d->temp_bytes;
    uint32_t *win = d->list[out];
    if (msplit::multisplit_keys(d->temp, &bytes, src, win, over, SPLIT_BUCKETS, op, d->offsets,
                                s) != MSPLIT_SUCCESS)
      return ds_error_set(err, DS_ERR_DEVICE, "ds_kcore_gpu_run: multisplit: %s",
                          msplit_last_error_message());
    DS_CUDA_TRY(cudaMemcpyAsync(off, d->offsets, sizeof off, cudaMemcpyDeviceToHost, s));
    DS_CUDA_TRY(cudaMemsetAsync(&d->st->entered, 0, sizeof(uint32_t), s));
    DS_CUDA_TRY(cudaStreamSynchronize(s));
    stats->windows++;
    a.top = base + WINDOW;
    for (uint32_t k = base; k < base + WINDOW;) {
      DS_TRY(set_least(d, err));
      const uint32_t from = (uint32_t)off[k - base], to = (uint32_t)off[WINDOW];
      const uint64_t span = (uint64_t)(to - from) + n / 64 + 1; /* the late arrivals are few */
      const uint32_t fb = blocks_for(span, FILTER_BLOCK, d->grid_blocks);
      level_filter<<<fb, FILTER_BLOCK, 0, s>>>(a, win, from, to, k);
      DS_LAUNCH_CHECK("level_filter");
      DS_TRY(read_state(d, &h, err));
      if (h.count[0] == 0) {
        if (h.least >= base + WINDOW) break; /* nothing left in the window */
        k = h.least;
        continue;
      }
      stats->levels++;
      DS_TRY(peel_level(d, a, k, h.count[0], h.arcs[0], stats, err));
      k++;
    }
    src = win + off[WINDOW];
    over = (uint32_t)(off[WINDOW + 1] - off[WINDOW]);
    out ^= 1;
  }
  DS_CUDA_TRY(cudaEventRecord(d->g.stop, s));
  DS_TRY(read_state(d, &h, err));
  stats->rounds += h.rounds;
  if (n > 0) DS_CUDA_TRY(cudaMemcpyAsync(core, d->core, 4ull * n, cudaMemcpyDeviceToHost, s));
  DS_CUDA_TRY(cudaStreamSynchronize(s));
  return DS_OK;
}

extern "C" ds_status ds_kcore_gpu_run(ds_kcore_gpu *ctx, uint32_t *core, double *ms,
                                      ds_kcore_gpu_stats *stats, ds_error *err) {
  if (ctx == NULL) return ds_error_set(err, DS_ERR_ARG, "ds_kcore_gpu_run: ctx is NULL");
  if (core == NULL && ctx->d.g.n > 0)
    return ds_error_set(err, DS_ERR_ARG, "ds_kcore_gpu_run: core is NULL");
  ds_kcore_gpu_stats local;
  memset(&local, 0, sizeof local);
  DS_CUDA_TRY(cudaSetDevice(ctx->d.g.device));
  DS_TRY(run_impl(&ctx->d, core, &local, err));
  if (ms != NULL) DS_TRY(ds_device_graph_elapsed(&ctx->d.g, ms, err));
  if (stats != NULL) *stats = local;
  return DS_OK;
}
