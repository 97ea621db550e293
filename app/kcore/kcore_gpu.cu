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
 * over its lanes. A window's levels run in one cooperative launch, levels and
 * sub-rounds separated by grid-wide barriers (no host round trip): a sub-round
 * of at most solo_items items and solo_arcs arcs (ds_kcore_gpu_options) is run
 * by block 0 alone, as many in a row as stay that small, with block barriers
 * (the road networks' long chains of tiny sub-rounds), the others wait at the
 * next grid barrier.
 *
 * Why the solo bound is low: an arc's work is a chain of dependent accesses
 * (its column, the neighbour's core, an atomic on its degree whose old value
 * decides what follows), so a thread's arcs run one after another at memory
 * latency. Block 0 alone takes solo_arcs / PEEL_BLOCK such steps, the grid one
 * step and a grid barrier; the solo path pays only while its steps cost less
 * than that barrier, a few arcs a thread (DEFAULT_SOLO_ARCS).
 *
 * Measurement: thread 0 of block 0 reads the global timer around each level's
 * filter and each sub-round, so a run reports the time of solo and grid
 * sub-rounds and of the levels' filters apart (ds_kcore_gpu_stats), and the
 * time of one pass over the arcs (a gather of every arc's neighbour degree) to
 * compare a round with.
 *
 * Limits: n < 2^32 and fewer than 2^32 items in one level (n + m / PIECE).
 */
#include <stdlib.h>
#include <string.h>

#include <cooperative_groups.h>
#include <msplit/multisplit.cuh>

#include "device_graph.cuh"
#include "kcore.h"

namespace cg = cooperative_groups;

namespace {

constexpr uint32_t UNSET = UINT32_MAX;      /* core number not given yet */
constexpr uint32_t WINDOW = 16;             /* degree buckets of one window */
constexpr uint32_t SPLIT_BUCKETS = WINDOW + 2; /* + overflow + peeled (dropped) */
constexpr uint32_t PIECE = 128;             /* arcs of one work item */
constexpr int WARP = 32;
constexpr int PEEL_BLOCK = 512;             /* threads of a block of the window kernel */
constexpr uint32_t MAX_SOLO_ITEMS = 1u << 20; /* option bounds: beyond, the grid always pays */
constexpr uint64_t MAX_SOLO_ARCS = 1ull << 24;
constexpr int FILTER_BLOCK = 256;
constexpr int COUNTERS = 3;                 /* sub-round r reads r % 3, fills r + 1, clears r + 2 */

/* Device counters of a window's levels. Sub-round r takes the items of buffer
 * r % 2 (count[r % 3] of them) and queues into buffer (r + 1) % 2 and
 * count[(r + 1) % 3]; count[(r + 2) % 3] was read in sub-round r - 1 and is
 * cleared in r, so one barrier a sub-round suffices. */
struct peel_state {
  unsigned long long arcs[COUNTERS]; /* arcs of the items queued */
  uint32_t count[COUNTERS];          /* items queued */
  uint32_t least[COUNTERS];          /* the least degree above k met by filter i (i % 3) */
  uint32_t entered;                  /* vertices that entered the window since it opened */
  uint32_t round;                    /* where block 0's sub-rounds left off */
  uint32_t levels, rounds;           /* statistics */
  uint32_t solo_rounds;              /* of rounds, those block 0 ran alone */
  unsigned long long solo_ns, grid_ns, level_ns; /* global timer, by thread 0 of block 0 */
  unsigned long long sink;           /* the arc pass's result, so that it is not optimised away */
};

struct peel_args {
  const uint64_t *row;
  const uint32_t *col;
  uint32_t *deg;
  uint32_t *core;
  uint64_t *items[2];
  uint32_t *entered; /* the window's late arrivals */
  peel_state *st;
  const uint32_t *win;   /* the window's vertices, by bucket */
  const size_t *offsets; /* the window's bucket offsets (multisplit's) */
  uint32_t base, top;    /* the window: degrees [base, top); from top on, the overflow */
  uint32_t solo_items;   /* block 0 alone takes sub-rounds of at most these items */
  uint64_t solo_arcs;    /* and arcs */
};

__device__ __forceinline__ unsigned long long now_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

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

/* Queues v (core number k) as its pieces for sub-round r. */
__device__ __forceinline__ void enqueue(const peel_args &a, uint32_t v, uint32_t k, uint32_t r) {
  a.core[v] = k;
  const uint64_t len = a.row[v + 1] - a.row[v];
  const uint32_t pieces = (uint32_t)((len + PIECE - 1) / PIECE);
  if (pieces == 0) return;
  atomicAdd(&a.st->arcs[r % COUNTERS], (unsigned long long)len);
  const uint32_t at = atomicAdd(&a.st->count[r % COUNTERS], pieces);
  uint64_t *items = a.items[r % 2];
  for (uint32_t p = 0; p < pieces; p++) items[at + p] = ((uint64_t)p << 32) | v;
}

/* Items first..first+31 of sub-round r, one per lane, by one warp: a degree
 * off each neighbour not peeled. The arcs of the 32 items are spread evenly
 * over the lanes (a scan of their lengths, then each lane finds the item of
 * its arc), so that a warp of low-degree vertices keeps its lanes busy. */
__device__ __forceinline__ void peel_chunk(const peel_args &a, uint32_t first, uint32_t count,
                                           uint32_t k, uint32_t r, int lane) {
  uint64_t begin = 0;
  uint32_t len = 0;
  if (first + lane < count) {
    const uint64_t item = a.items[r % 2][first + lane];
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
    if (old == k + 1) enqueue(a, u, k, r + 1);
    else if (old == a.top) a.entered[atomicAdd(&a.st->entered, 1u)] = u;
  }
}

/* The least degree of the vertices in list not peeled (into st->least[0]). */
__global__ void least_degree(const uint32_t *list, uint32_t count, const uint32_t *deg,
                             const uint32_t *core, peel_state *st) {
  uint32_t least = UINT32_MAX;
  for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < count; i += gridDim.x * blockDim.x) {
    const uint32_t v = list[i];
    if (core[v] == UNSET) least = min(least, deg[v]);
  }
  for (int o = WARP / 2; o > 0; o /= 2) least = min(least, __shfl_xor_sync(0xffffffffu, least, o));
  if ((threadIdx.x & (WARP - 1)) == 0 && least != UINT32_MAX) atomicMin(&st->least[0], least);
}

__device__ __forceinline__ uint32_t load_volatile(const uint32_t *p) {
  return *(const volatile uint32_t *)p;
}

/* Sub-round r by `threads` threads from `rank` on: warps take 32 items each. */
__device__ __forceinline__ void sub_round(const peel_args &a, uint32_t k, uint32_t r,
                                          uint32_t count, uint64_t rank, uint64_t threads) {
  const int lane = threadIdx.x & (WARP - 1);
  for (uint64_t i = rank / WARP * WARP; i < count; i += threads)
    peel_chunk(a, (uint32_t)i, count, k, r, lane);
}

/* Block 0 alone: sub-rounds from r while they stay small; returns where it
 * stopped (an empty queue, or one for the grid). */
__device__ uint32_t solo_rounds(const peel_args &a, uint32_t k, uint32_t r) {
  for (;;) {
    const uint32_t count = load_volatile(&a.st->count[r % COUNTERS]);
    const uint64_t arcs = *(const volatile unsigned long long *)&a.st->arcs[r % COUNTERS];
    if (count == 0 || count > a.solo_items || arcs > a.solo_arcs) return r;
    sub_round(a, k, r, count, threadIdx.x, blockDim.x);
    if (threadIdx.x == 0) {
      a.st->count[(r + 2) % COUNTERS] = 0;
      a.st->arcs[(r + 2) % COUNTERS] = 0;
      a.st->rounds++;
      a.st->solo_rounds++;
    }
    __syncthreads();
    r++;
  }
}

/* Every level of the window [a.base, a.top): for each, the queue of the
 * vertices of degree k (the window's buckets from k's on, and the late
 * arrivals), then its sub-rounds until the queue is empty. Levels with no
 * vertex are skipped to the least degree the filter met. Cooperative launch. */
__global__ void __launch_bounds__(PEEL_BLOCK) peel_window(peel_args a) {
  cg::grid_group grid = cg::this_grid();
  const uint64_t rank = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
  const uint64_t threads = (uint64_t)gridDim.x * blockDim.x;
  const uint32_t to = (uint32_t)a.offsets[WINDOW];
  for (uint32_t k = a.base, filter = 0; k < a.top; filter++) {
    unsigned long long t0 = rank == 0 ? now_ns() : 0;
    // 1. the level's queue into sub-round 0 (the least slots rotate as the counters do)
    if (rank == 0) a.st->least[(filter + 1) % COUNTERS] = UINT32_MAX; /* the next filter's */
    const uint32_t from = (uint32_t)a.offsets[k - a.base];
    const uint32_t own = to - from, late = load_volatile(&a.st->entered);
    for (uint64_t i = rank; i < (uint64_t)own + late; i += threads) {
      const uint32_t v = i < own ? a.win[from + i] : a.entered[i - own];
      if (a.core[v] != UNSET) continue;
      const uint32_t d = a.deg[v];
      if (d <= k) enqueue(a, v, k, 0);
      else atomicMin(&a.st->least[filter % COUNTERS], d);
    }
    grid.sync();
    const uint32_t least = load_volatile(&a.st->least[filter % COUNTERS]);
    if (load_volatile(&a.st->count[0]) == 0) {
      if (least >= a.top) {
        if (rank == 0) a.st->level_ns += now_ns() - t0;
        break; /* nothing left in the window */
      }
      k = least;
      grid.sync(); /* every thread has read count[0] before the next filter fills it */
      if (rank == 0) a.st->level_ns += now_ns() - t0;
      continue;
    }
    if (rank == 0) {
      a.st->levels++;
      a.st->level_ns += now_ns() - t0;
    }
    // 2. sub-rounds: block 0 alone while they are small, else the grid
    for (uint32_t r = 0;;) {
      const uint32_t count = load_volatile(&a.st->count[r % COUNTERS]);
      const uint64_t arcs = *(const volatile unsigned long long *)&a.st->arcs[r % COUNTERS];
      if (count == 0) break;
      const unsigned long long t1 = rank == 0 ? now_ns() : 0;
      if (count <= a.solo_items && arcs <= a.solo_arcs) {
        if (blockIdx.x == 0) {
          const uint32_t stop = solo_rounds(a, k, r);
          if (threadIdx.x == 0) a.st->round = stop;
        }
        grid.sync();
        r = load_volatile(&a.st->round);
        if (rank == 0) a.st->solo_ns += now_ns() - t1;
        continue;
      }
      sub_round(a, k, r, count, rank, threads);
      if (rank == 0) {
        a.st->count[(r + 2) % COUNTERS] = 0;
        a.st->arcs[(r + 2) % COUNTERS] = 0;
        a.st->rounds++;
      }
      grid.sync();
      if (rank == 0) a.st->grid_ns += now_ns() - t1;
      r++;
    }
    // 3. the counters cleared for the next level
    t0 = rank == 0 ? now_ns() : 0;
    if (rank == 0)
      for (int c = 0; c < COUNTERS; c++) a.st->count[c] = 0, a.st->arcs[c] = 0;
    grid.sync();
    if (rank == 0) a.st->level_ns += now_ns() - t0;
    k++;
  }
}

/* One pass over the arcs, as a peeling round touches them: every arc's
 * column and its neighbour's degree (the measure a round is compared with). */
__global__ void arc_pass(const uint32_t *col, uint64_t m, const uint32_t *deg, peel_state *st) {
  uint32_t sum = 0;
  for (uint64_t e = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; e < m;
       e += (uint64_t)gridDim.x * blockDim.x)
    sum += deg[col[e]];
  if (sum == UINT32_MAX) atomicAdd(&st->sink, 1ull); /* rare; only a data dependence */
}

struct kcore_dev {
  ds_device_graph g;
  ds_kcore_gpu_options opt;
  cudaEvent_t pass[2]; /* the arc pass's events */
  uint32_t *deg, *core, *list[2], *entered;
  uint64_t *items[2];
  size_t *offsets; /* SPLIT_BUCKETS + 1 */
  peel_state *st;
  void *temp;
  size_t temp_bytes;
  int grid_blocks; /* of FILTER_BLOCK threads, for the simple kernels */
  int peel_blocks; /* of PEEL_BLOCK threads, all resident: the window kernel */
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
  d->grid_blocks = sms * (2048 / FILTER_BLOCK);
  int per_sm = 0;
  DS_CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, peel_window, PEEL_BLOCK, 0));
  if (per_sm < 1)
    return ds_error_set(err, DS_ERR_DEVICE,
                        "ds_kcore_gpu_open: the peeling kernel does not fit an SM");
  if (d->opt.blocks_per_sm > 0 && d->opt.blocks_per_sm < (uint32_t)per_sm)
    per_sm = (int)d->opt.blocks_per_sm; /* fewer blocks: a cheaper grid barrier */
  d->peel_blocks = per_sm * sms;
  DS_CUDA_TRY(cudaEventCreate(&d->pass[0]));
  DS_CUDA_TRY(cudaEventCreate(&d->pass[1]));
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
  for (int i = 0; i < 2; i++)
    if (d->pass[i]) cudaEventDestroy(d->pass[i]);
  ds_device_graph_close(&d->g);
}

extern "C" ds_status ds_kcore_gpu_open(int device, const ds_graph *g,
                                       const ds_kcore_gpu_options *opt, ds_kcore_gpu **ctx,
                                       ds_error *err) {
  if (ctx == NULL) return ds_error_set(err, DS_ERR_ARG, "ds_kcore_gpu_open: ctx is NULL");
  *ctx = NULL;
  if (g == NULL) return ds_error_set(err, DS_ERR_ARG, "ds_kcore_gpu_open: g is NULL");
  if (!g->symmetric)
    return ds_error_set(err, DS_ERR_ARG, "ds_kcore_gpu_open: the graph is not symmetric");
  ds_kcore_gpu_options o;
  ds_kcore_gpu_options_default(&o);
  if (opt != NULL) o = *opt;
  if (o.solo_items > MAX_SOLO_ITEMS || o.solo_arcs > MAX_SOLO_ARCS)
    return ds_error_set(err, DS_ERR_ARG,
                        "ds_kcore_gpu_open: solo_items %u or solo_arcs %llu above %u and %llu",
                        o.solo_items, (unsigned long long)o.solo_arcs, MAX_SOLO_ITEMS,
                        (unsigned long long)MAX_SOLO_ARCS);
  ds_kcore_gpu *c = (ds_kcore_gpu *)calloc(1, sizeof *c);
  if (c == NULL) return ds_error_set(err, DS_ERR_NOMEM, "ds_kcore_gpu_open: out of memory");
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

static ds_status run_impl(kcore_dev *d, uint32_t *core, ds_kcore_gpu_stats *stats, ds_error *err) {
  const uint32_t n = d->g.n;
  cudaStream_t s = d->g.stream;
  peel_state h;
  memset(&h, 0, sizeof h);
  // 1. degrees, nothing peeled, every vertex in the overflow
  DS_CUDA_TRY(cudaEventRecord(d->g.start, s));
  DS_CUDA_TRY(cudaMemsetAsync(d->st, 0, sizeof(peel_state), s));
  init_vertices<<<d->grid_blocks, FILTER_BLOCK, 0, s>>>(d->g.row, n, d->deg, d->core, d->list[0]);
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
  a.offsets = d->offsets;
  a.solo_items = d->opt.solo_items;
  a.solo_arcs = d->opt.solo_arcs;
  // the overflow bucket: list `src` of `over` vertices; each window's multisplit
  // writes the other list, and the overflow it leaves there opens the next
  const uint32_t *src = d->list[0];
  int out = 1;
  uint32_t over = n;
  size_t off[SPLIT_BUCKETS + 1];
  // 2. windows: open one on the least degree left (a multisplit of the
  //    overflow into degree buckets), peel its levels in one launch
  while (over > 0) {
    DS_CUDA_TRY(cudaMemsetAsync(d->st->least, 0xFF, sizeof d->st->least, s));
    least_degree<<<blocks_for(over, FILTER_BLOCK, d->grid_blocks), FILTER_BLOCK, 0, s>>>(
        src, over, d->deg, d->core, d->st);
    DS_LAUNCH_CHECK("least_degree");
    DS_TRY(read_state(d, &h, err));
    if (h.least[0] == UINT32_MAX) break; /* all peeled */
    const uint32_t base = h.least[0];
    const window_bucket op{d->deg, d->core, base};
    size_t bytes = d->temp_bytes;
    uint32_t *win = d->list[out];
    DS_MSPLIT_TRY(msplit::multisplit_keys(d->temp, &bytes, src, win, over, SPLIT_BUCKETS, op,
                                          d->offsets, s));
    DS_CUDA_TRY(cudaMemsetAsync(&d->st->entered, 0, sizeof(uint32_t), s));
    DS_CUDA_TRY(cudaMemsetAsync(d->st->least, 0xFF, sizeof d->st->least, s));
    a.win = win;
    a.base = base;
    a.top = base + WINDOW;
    void *args[] = {&a};
    DS_CUDA_TRY(cudaLaunchCooperativeKernel((const void *)peel_window, d->peel_blocks, PEEL_BLOCK,
                                            args, 0, s));
    DS_CUDA_TRY(cudaMemcpyAsync(off, d->offsets, sizeof off, cudaMemcpyDeviceToHost, s));
    DS_CUDA_TRY(cudaStreamSynchronize(s));
    stats->windows++;
    src = win + off[WINDOW];
    over = (uint32_t)(off[WINDOW + 1] - off[WINDOW]);
    out ^= 1;
  }
  DS_CUDA_TRY(cudaEventRecord(d->g.stop, s));
  // 3. the pass over the arcs that a round is measured against (outside the run's time)
  DS_CUDA_TRY(cudaEventRecord(d->pass[0], s));
  arc_pass<<<d->grid_blocks, FILTER_BLOCK, 0, s>>>(d->g.col, d->g.m, d->deg, d->st);
  DS_LAUNCH_CHECK("arc_pass");
  DS_CUDA_TRY(cudaEventRecord(d->pass[1], s));
  DS_TRY(read_state(d, &h, err));
  float pass_ms = 0.0f;
  DS_CUDA_TRY(cudaEventElapsedTime(&pass_ms, d->pass[0], d->pass[1]));
  stats->levels = h.levels;
  stats->rounds = h.rounds;
  stats->solo_rounds = h.solo_rounds;
  stats->solo_ms = h.solo_ns * 1e-6;
  stats->grid_ms = h.grid_ns * 1e-6;
  stats->level_ms = h.level_ns * 1e-6;
  stats->arc_pass_ms = pass_ms;
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
