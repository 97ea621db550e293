/* Core numbers on the GPU by bucketed peeling: the bucketing of Dhulipala,
 * Blelloch and Shun, "Julienne: A Framework for Parallel Graph Algorithms
 * using Work-efficient Bucketing" (SPAA 2017), with the buckets kept by
 * msplit's multisplit, as delta-stepping keeps its buckets.
 *
 * The vertices not yet peeled are kept in `window` buckets by degree, [base,
 * base + window) (16 by default), and one overflow bucket beyond: one multisplit of the
 * overflow opens each window (base = the least degree left). Level k peels
 * every vertex of degree k: it is found among the window's buckets from k's
 * on (lower ones are peeled already) and the vertices that entered the window
 * since it opened; each is given core number k when it is queued. A queued
 * vertex takes one degree off each neighbour not yet peeled; a neighbour that
 * falls to k is queued in the same level (the next sub-round), one that falls
 * below base + window from the overflow enters the window. Sub-rounds repeat
 * until the level's queue is empty.
 *
 * Invariants: during level k every vertex not yet peeled has degree > k
 * outside the transient of a decrement; degrees only fall, so a neighbour
 * reaches k + 1 -> k (and base + window -> below) exactly once, and is queued
 * once. Work items are pieces of at most PIECE arcs of a queued vertex, so one
 * hub does not serialise a round; a warp takes 32 items (or, with spread, the
 * round's share of a warp) and spreads their arcs over its lanes. The peeling
 * kernel and its variants are in kcore_peel.cuh. A window's levels run in one
 * cooperative launch, levels and sub-rounds separated by grid-wide barriers
 * (no host round trip): a sub-round of at most solo_items items and solo_arcs
 * arcs (ds_kcore_gpu_options) is run by block 0 alone, as many in a row as
 * stay that small, with block barriers (the road networks' long chains of tiny
 * sub-rounds), the others wait at the next grid barrier.
 *
 * Why the solo bound is low: an arc's work is a chain of dependent accesses
 * (its column, the neighbour's core, an atomic on its degree whose old value
 * decides what follows), so a thread's arcs run one after another at memory
 * latency. Block 0 alone takes solo_arcs / PEEL_BLOCK such steps, the grid one
 * step and a grid barrier; the solo path pays only while its steps cost less
 * than that barrier, a few arcs a thread (DEFAULT_SOLO_ARCS). But the grid
 * takes one step only where its warps share the items: by default a warp takes
 * 32 items, up to 32 * PIECE arcs, 128 steps a lane, as soon as a round has 32
 * full pieces, however few that is for the grid; the spread variant deals a
 * round's items over all the warps (kcore_peel.cuh).
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

#include <msplit/multisplit.cuh>

#include "device_graph.cuh"
#include "kcore.h"
#include "kcore_peel.cuh"

namespace {

using namespace kcore_peel;

constexpr uint32_t DEFAULT_WINDOW = 16;     /* degree buckets of one window (option window 0) */
constexpr uint64_t DEFAULT_STALL_MS = 10000; /* a barrier wait's bound (option stall_ms 0) */
constexpr uint32_t MAX_WINDOW = 254;        /* + overflow + peeled: 256 buckets of a multisplit */
constexpr uint32_t MAX_SOLO_ITEMS = 1u << 20; /* option bounds: beyond, the grid always pays */
constexpr uint64_t MAX_SOLO_ARCS = 1ull << 24;
constexpr uint32_t MAX_LOCAL_ARCS = 1024;   /* a lane walks its budget of arcs one by one */
constexpr int FILTER_BLOCK = 256;

struct kcore_dev {
  ds_device_graph g;
  ds_kcore_gpu_options opt;
  cudaEvent_t pass[2]; /* the arc pass's events */
  uint32_t *deg, *core, *list[2], *entered;
  uint64_t *items[2];
  size_t *offsets; /* window + 3: the window's buckets, the overflow, the peeled, the end */
  uint32_t window; /* degree buckets of a window (opt.window, or the default) */
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

/* The multisplit of a window: its buckets, the overflow and the peeled. */
static uint32_t split_buckets(uint32_t window) { return window + 2; }

static size_t split_temp_bytes(uint32_t n, uint32_t window, ds_error *err, ds_status *st) {
  size_t bytes = 0;
  const window_bucket op{nullptr, nullptr, 0, window};
  if (msplit::multisplit_keys((void *)nullptr, &bytes, static_cast<const uint32_t *>(nullptr),
                              static_cast<uint32_t *>(nullptr), n, split_buckets(window), op,
                              static_cast<size_t *>(nullptr)) != MSPLIT_SUCCESS)
    *st = ds_error_set(err, DS_ERR_DEVICE, "ds_kcore_gpu: multisplit: %s",
                       msplit_last_error_message());
  return bytes;
}

static uint64_t bytes_for(uint32_t n, uint64_t m, uint32_t window) {
  ds_status st = DS_OK;
  const uint64_t nn = n ? n : 1;
  return ds_device_graph_bytes(n, m) + 4 * nn * 5 + 2 * 8 * items_capacity(n, m) +
         sizeof(size_t) * (split_buckets(window) + 1) + sizeof(peel_state) +
         split_temp_bytes(n, window, NULL, &st);
}

uint64_t ds_kcore_gpu_bytes(uint32_t n, uint64_t m) { return bytes_for(n, m, DEFAULT_WINDOW); }

static ds_status open_impl(int device, const ds_graph *g, kcore_dev *d, ds_error *err) {
  const uint64_t nn = g->n ? g->n : 1;
  ds_status st = DS_OK;
  d->window = d->opt.window ? d->opt.window : DEFAULT_WINDOW;
  d->temp_bytes = split_temp_bytes(g->n, d->window, err, &st);
  if (st != DS_OK) return st;
  const uint64_t work = bytes_for(g->n, g->m, d->window) - ds_device_graph_bytes(g->n, g->m);
  DS_TRY(ds_device_graph_open(device, g, work, "k-core", &d->g, err));
  DS_CUDA_TRY(cudaMalloc(&d->deg, 4 * nn));
  DS_CUDA_TRY(cudaMalloc(&d->core, 4 * nn));
  DS_CUDA_TRY(cudaMalloc(&d->list[0], 4 * nn));
  DS_CUDA_TRY(cudaMalloc(&d->list[1], 4 * nn));
  DS_CUDA_TRY(cudaMalloc(&d->entered, 4 * nn));
  DS_CUDA_TRY(cudaMalloc(&d->items[0], 8 * items_capacity(g->n, g->m)));
  DS_CUDA_TRY(cudaMalloc(&d->items[1], 8 * items_capacity(g->n, g->m)));
  DS_CUDA_TRY(cudaMalloc(&d->offsets, sizeof(size_t) * (split_buckets(d->window) + 1)));
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
  if (o.window == 1 || o.window > MAX_WINDOW)
    return ds_error_set(err, DS_ERR_ARG,
                        "ds_kcore_gpu_open: window %u is not 0 (the default) or 2 to %u", o.window,
                        MAX_WINDOW);
  if (o.force_stall > 1)
    return ds_error_set(err, DS_ERR_ARG, "ds_kcore_gpu_open: force_stall %u is not 0 or 1",
                        o.force_stall);
  if (o.local_arcs > MAX_LOCAL_ARCS || o.spread > 1 || o.aggregate > 1)
    return ds_error_set(err, DS_ERR_ARG,
                        "ds_kcore_gpu_open: local_arcs %u above %u, or spread %u or aggregate %u "
                        "not 0 or 1",
                        o.local_arcs, MAX_LOCAL_ARCS, o.spread, o.aggregate);
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

/* After a window: a barrier wait of the peeling kernel that gave up left its
 * record (the kernel ended unfinished; the core numbers are not usable). */
static ds_status stall_check(const msplit_error_record *r, ds_error *err) {
  if (r->code == MSPLIT_SUCCESS) return DS_OK;
  return ds_error_set(err, DS_ERR_DEVICE,
                      "the GPU k-core stalled: block %u gave up waiting at the grid barrier after "
                      "%.1f s (%llu of %llu arrivals)",
                      r->block, (double)r->detail[2] * 1e-9, (unsigned long long)r->detail[0],
                      (unsigned long long)r->detail[1]);
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
  a.spread = d->opt.spread;
  a.aggregate = d->opt.aggregate;
  a.local_arcs = d->opt.local_arcs;
  a.stall_ns = (d->opt.stall_ms ? d->opt.stall_ms : DEFAULT_STALL_MS) * 1000000ull;
  a.force_stall = d->opt.force_stall;
  // the overflow bucket: list `src` of `over` vertices; each window's multisplit
  // writes the other list, and the overflow it leaves there opens the next
  const uint32_t *src = d->list[0];
  int out = 1;
  uint32_t over = n;
  const uint32_t window = d->window;
  size_t off[MAX_WINDOW + 3];
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
    const window_bucket op{d->deg, d->core, base, window};
    size_t bytes = d->temp_bytes;
    uint32_t *win = d->list[out];
    DS_MSPLIT_TRY(msplit::multisplit_keys(d->temp, &bytes, src, win, over,
                                          split_buckets(window), op, d->offsets, s));
    DS_CUDA_TRY(cudaMemsetAsync(&d->st->entered, 0, sizeof(uint32_t), s));
    DS_CUDA_TRY(cudaMemsetAsync(d->st->least, 0xFF, sizeof d->st->least, s));
    /* the kernel leaves its last level's queue counters behind */
    DS_CUDA_TRY(cudaMemsetAsync(d->st->count, 0, sizeof d->st->count, s));
    DS_CUDA_TRY(cudaMemsetAsync(d->st->arcs, 0, sizeof d->st->arcs, s));
    a.win = win;
    a.base = base;
    a.top = base + window;
    a.window = window;
    void *args[] = {&a};
    DS_CUDA_TRY(cudaLaunchCooperativeKernel((const void *)peel_window, d->peel_blocks, PEEL_BLOCK, args, 0, s));
    a.force_stall = 0; /* a test's stall: in the first window only */
    DS_CUDA_TRY(cudaMemcpyAsync(off, d->offsets, sizeof(size_t) * (split_buckets(window) + 1),
                                cudaMemcpyDeviceToHost, s));
    DS_CUDA_TRY(cudaMemcpyAsync(d->g.pinned, &d->st->stall, sizeof(msplit_error_record),
                                cudaMemcpyDeviceToHost, s));
    DS_CUDA_TRY(cudaStreamSynchronize(s));
    DS_TRY(stall_check((const msplit_error_record *)d->g.pinned, err));
    stats->windows++;
    src = win + off[window];
    over = (uint32_t)(off[window + 1] - off[window]);
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
  stats->local_peels = h.local_peels;
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
