/* deltasplit GPU SSSP: the C interface (gpu_sssp.h): device discovery, the
 * options and their checks, the graph upload with its memory check,
 * per-search reset, dispatch to the algorithms, and the result read-back
 * (distances, predecessors, counts, the trace).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <vector>

#include "barriers.cuh"
#include "ds/device.h"
#include "huge_list.cuh"

using namespace dsgpu;

namespace {

constexpr uint32_t DONE_NEVER = 0xFFFFFFFFu; /* no distance has these bits (uint INF is never expanded) */
/* Queue and scratch bytes per vertex beyond the vertex arrays, the largest of
 * any algorithm (bucket engine: two frontiers, fbuf, fill, spill and log = 12n
 * words; the sort's labels 8n words and CUB's double buffers ~16n words), plus
 * fixed piece lists (<= 29 MB at m = 256) and multisplit temporaries. */
constexpr uint64_t QUEUE_BYTES_PER_VERTEX = 4 * 40;
constexpr uint64_t FIXED_BYTES = 64ull << 20;
__global__ void reset_kernel(dev_vertex_state vs, uint32_t n, uint32_t source, uint32_t inf_bits) {
  for (uint64_t v = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; v < n;
       v += (uint64_t)gridDim.x * blockDim.x) {
    vs.dist[v] = pack(v == source ? 0u : inf_bits, NO_PRED);
    vs.done[v] = DONE_NEVER;
    vs.stamp[v] = 0;
    vs.stamp2[v] = 0;
  }
}

/* Interleaves `len` targets and weights into arcs; with canonical (float
 * weights), -0.0f becomes +0.0f so that distance bits order like values. */
__global__ void pack_arcs_kernel(const uint32_t *col, const uint32_t *w, uint2 *arc, uint64_t len,
                                 int canonical) {
  for (uint64_t e = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; e < len;
       e += (uint64_t)gridDim.x * blockDim.x) {
    uint32_t x = w[e];
    if (canonical && x == 0x80000000u) x = 0;
    arc[e] = make_uint2(col[e], x);
  }
}

/* Unpacks the results and counts, in stats: [0] the reached vertices, [1]
 * their out-arcs, [2] those whose done mark is not their final distance. Every
 * reached vertex is expanded at its final distance, and done only goes down
 * (relax_frontier.cuh), so [2] is 0 unless the bookkeeping lost a store: the
 * bucket engine then takes expanded vertices for pending (self_check). */
/* What finish_kernel counts, in ctx->d_stats. STAT_SATURATED holds the
 * largest n - v over vertices v left at the saturation value (a distance the
 * 32-bit search could not hold), so 0 means none and the first such vertex is
 * n - stat. */
enum { STAT_REACHED = 0, STAT_ARCS, STAT_MARKED_OFF, STAT_SATURATED, STAT_COUNT };

__global__ void finish_kernel(const unsigned long long *dist, const uint32_t *done, const uint64_t *row,
                              uint32_t n, uint32_t inf_bits, uint32_t sat_bits, uint32_t *dist_out,
                              uint32_t *pred_out, unsigned long long *stats) {
  unsigned long long reached = 0, arcs = 0, marked_off = 0, saturated = 0;
  for (uint64_t v = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; v < n;
       v += (uint64_t)gridDim.x * blockDim.x) {
    uint64_t p = dist[v];
    uint32_t d = dist_of(p);
    dist_out[v] = d;
    pred_out[v] = d == inf_bits ? NO_PRED : pred_of(p);
    if (d != inf_bits) {
      ++reached;
      arcs += row[v + 1] - row[v];
      marked_off += done[v] != d;
      if (d == sat_bits && n - v > saturated) saturated = n - v;
    }
  }
  if (reached) atomicAdd(&stats[STAT_REACHED], reached);
  if (arcs) atomicAdd(&stats[STAT_ARCS], arcs);
  if (marked_off) atomicAdd(&stats[STAT_MARKED_OFF], marked_off);
  if (saturated) atomicMax(&stats[STAT_SATURATED], saturated);
}

int grid_for(const ds_gpu_ctx *ctx, uint64_t items) {
  uint64_t g = (items + FILL_BLOCK - 1) / FILL_BLOCK;
  uint64_t cap = 8ull * ctx->num_sms;
  return (int)(g < 1 ? 1 : g > cap ? cap : g);
}

/* Arcs go up in chunks through a staging buffer of 2 * ARC_CHUNK words
 * (within FIXED_BYTES). */
ds_status upload_arcs(ds_gpu_ctx *c, const ds_graph *g, ds_error *err) {
  const uint64_t m = c->m, chunk = m < ARC_CHUNK ? m : ARC_CHUNK;
  uint32_t *stage = NULL;
  DS_CUDA_TRY(cudaMalloc(&stage, 8 * chunk));
  ds_status st = DS_OK;
  for (uint64_t off = 0; off < m && st == DS_OK; off += chunk) {
    const uint64_t len = m - off < chunk ? m - off : chunk;
    cudaError_t e = cudaMemcpyAsync(stage, g->col + off, 4 * len, cudaMemcpyHostToDevice, c->stream);
    if (e == cudaSuccess)
      e = cudaMemcpyAsync(stage + chunk, (const uint32_t *)g->weights + off, 4 * len, cudaMemcpyHostToDevice,
                          c->stream);
    if (e == cudaSuccess) {
      pack_arcs_kernel<<<grid_for(c, len), FILL_BLOCK, 0, c->stream>>>(stage, stage + chunk, c->d_arc + off, len,
                                                                      g->weight_type == DS_WEIGHT_F32);
      e = cudaGetLastError();
    }
    if (e == cudaSuccess) e = cudaStreamSynchronize(c->stream);
    if (e != cudaSuccess)
      st = ds_error_set(err, DS_ERR_DEVICE, "uploading the arcs of %s failed: %s", g->name, cudaGetErrorString(e));
  }
  cudaFree(stage);
  return st;
}

} // namespace

ds_status dsgpu::stall_report(ds_gpu_ctx *ctx, const stall_record *dev, uint32_t grid, const char *who,
                              ds_error *err) {
  stall_record r;
  if (cudaMemcpyAsync(&r, dev, sizeof r, cudaMemcpyDeviceToHost, ctx->stream) != cudaSuccess ||
      cudaStreamSynchronize(ctx->stream) != cudaSuccess)
    return ds_error_set(err, DS_ERR_DEVICE, "the GPU search stalled: %s: reading where failed: %s", who,
                        cudaGetErrorString(cudaGetLastError()));
  static const char *const SITES[] = {"no barrier", "the grid barrier", "the team's check-in",
                                      "the team barrier"};
  auto site_name = [](uint32_t s) { return SITES[s < sizeof SITES / sizeof SITES[0] ? s : 0]; };
  char where[DS_ERROR_MSG_LEN] = "";
  /* where every block was: blocks grouped by the barrier and the count they
     waited for (a handful of groups; the first ranks of each) */
  std::vector<block_wait> w(grid < ctx->max_blocks ? grid : ctx->max_blocks);
  if (cudaMemcpy(w.data(), ctx->d_block_waits, sizeof(block_wait) * w.size(), cudaMemcpyDeviceToHost) ==
      cudaSuccess) {
    std::vector<bool> told(w.size(), false);
    size_t len = 0;
    for (size_t i = 0; i < w.size() && len + 64 < sizeof where; ++i) {
      if (told[i]) continue;
      uint32_t count = 0;
      char ranks[96] = "";
      size_t rl = 0;
      for (size_t j = i; j < w.size(); ++j) {
        if (told[j] || w[j].site != w[i].site || w[j].want != w[i].want) continue;
        told[j] = true;
        if (++count <= 4 && rl + 12 < sizeof ranks) rl += snprintf(ranks + rl, sizeof ranks - rl, "%s%zu", rl ? " " : "", j);
      }
      len += snprintf(where + len, sizeof where - len, "; %u block%s (rank %s%s) at %s", count, count > 1 ? "s" : "",
                      ranks, count > 4 ? " ..." : "", site_name(w[i].site));
      if (w[i].site != STALL_NONE)
        len += snprintf(where + len, sizeof where - len, " waiting for %u (grid barriers passed to %u, team %u)",
                        w[i].want, w[i].all, w[i].team);
    }
  }
  return ds_error_set(err, DS_ERR_DEVICE,
                      "the GPU search stalled: %s: block %u gave up waiting at %s after %.1f s (%u of the arrivals it "
                      "waited for missing); the search was stopped%s",
                      who, r.rank, site_name(r.site), r.waited_ns / 1e9, r.want - r.seen, where);
}

extern "C" void ds_gpu_options_default(ds_gpu_options *o) {
  memset(o, 0, sizeof *o);
  o->blocks_per_sm = 0; /* by the graph: PERSISTENT_BLOCKS_PER_SM, or 1 for sparse graphs */
  o->solo_max = SOLO_MAX_FRONTIER;
  o->team_blocks = TEAM_BLOCKS;
  o->team_max = TEAM_MAX_FRONTIER;
  o->solo_local = SOLO_LOCAL;
  o->rank_blocks = RANK_BLOCKS;
  o->dynamic_tiles = DYNAMIC_TILES;
  o->min_tile = MIN_TILE;
  o->huge_degree = 0; /* by the graph: HUB_HUGE_DEGREE in hub order, else HUGE_DEGREE */
  o->local_solo = LOCAL_SOLO;
  o->local_team = LOCAL_TEAM;
  o->local_grid = LOCAL_GRID;
  o->local_order = 0; /* by the graph: ORDERED_LOCAL_STEPS on the denser sparse graphs */
  o->hub_order = 0;  /* by the graph: HUB_ORDER where hubs hold many arcs (hub_share) */
  o->hub_degree = 0; /* HUB_DEGREE */
  o->dense_div = 0; /* DENSE_FRONTIER_DIV */
  o->spill_limit = 0;
  o->self_check = 0;
  o->stall_ms = 0; /* STALL_MS */
  o->force_stall = 0;
  o->trace = NULL;
}

/* Checks the options that have a range (DS_ERR_ARG names the first one out of it). */
static ds_status check_options(const ds_gpu_options *o, ds_error *err) {
  const struct {
    const char *name;
    long long value, lo, hi;
  } range[] = {{"blocks_per_sm", o->blocks_per_sm, 0, INT32_MAX},
               {"team_blocks", o->team_blocks, 1, UINT32_MAX},
               {"solo_local", o->solo_local, 0, 1},
               {"rank_blocks", o->rank_blocks, 0, 1},
               {"dynamic_tiles", o->dynamic_tiles, 0, 2},
               {"min_tile", o->min_tile, 1, UINT32_MAX},
               {"huge_degree", o->huge_degree, 0, UINT32_MAX},
               {"local_solo", o->local_solo, 0, LOCAL_STEPS_MAX},
               {"local_team", o->local_team, 0, LOCAL_STEPS_MAX},
               {"local_grid", o->local_grid, 0, LOCAL_STEPS_MAX},
               {"self_check", o->self_check, 0, 1},
               {"force_stall", o->force_stall, 0, 2}};
  for (const auto &r : range)
    if (r.value < r.lo || r.value > r.hi)
      return ds_error_set(err, DS_ERR_ARG, "GPU option %s = %lld is out of range: %lld..%lld", r.name, r.value, r.lo,
                          r.hi);
  if (o->trace && (!o->trace->records || o->trace->capacity < 2))
    return ds_error_set(err, DS_ERR_ARG, "GPU option trace: needs records and a capacity of at least 2");
  return DS_OK;
}

extern "C" void ds_gpu_close(ds_gpu_ctx *ctx) {
  if (!ctx) return;
  cudaSetDevice(ctx->device);
  cudaFree(ctx->d_row);
  cudaFree(ctx->d_arc);
  cudaFree(ctx->vs.dist);
  cudaFree(ctx->vs.done);
  cudaFree(ctx->d_counters);
  cudaFree(ctx->d_dist_out);
  cudaFree(ctx->d_stats);
  cudaFree(ctx->d_huge_word);
  cudaFree(ctx->d_huge);
  cudaFree(ctx->d_block_waits);
  cudaFree(ctx->trace.t);
  if (ctx->stream) cudaStreamDestroy(ctx->stream);
  if (ctx->ev_start) cudaEventDestroy(ctx->ev_start);
  if (ctx->ev_stop) cudaEventDestroy(ctx->ev_stop);
  free(ctx);
}

/* Whether vertices of at least HUB_SHARE_DEGREE arcs hold 1 / HUB_SHARE_PART
 * of the arcs or more: the graphs where hub order pays (tuning.cuh). */
static bool hub_share(const ds_graph *g) {
  uint64_t arcs = 0;
  for (uint32_t v = 0; v < g->n; ++v) {
    const uint64_t d = g->row_offsets[v + 1] - g->row_offsets[v];
    if (d >= HUB_SHARE_DEGREE) arcs += d;
  }
  return arcs * HUB_SHARE_PART >= g->m && g->m > 0;
}

static ds_status open_impl(ds_gpu_ctx *c, const ds_graph *g, const ds_gpu_options *opt, ds_error *err) {
  const uint32_t n = g->n;
  const uint64_t m = g->m;
  // 1. will it fit? graph + vertex arrays + the largest algorithm's queues
  const uint64_t graph_bytes = 8ull * (n + 1) + 4ull * m + 4ull * m;
  const uint64_t vertex_bytes = (uint64_t)n * (8 + 4 + 4 + 4 + 4 + 4);
  /* the huge lists at the least huge degree (two rounds' worth, d_huge) */
  const uint64_t huge_bytes = sizeof(huge_entry) * 2 * (m / HUGE_DEGREE_MIN + 1);
  const uint64_t need = graph_bytes + vertex_bytes + huge_bytes + QUEUE_BYTES_PER_VERTEX * n + FIXED_BYTES;
  uint64_t free_b = 0, total_b = 0;
  DS_TRY(ds_device_mem_info(c->device, &free_b, &total_b, err));
  if (need > free_b)
    return ds_error_set(err, DS_ERR_DEVICE,
                        "graph %s (%u vertices, %llu arcs) does not fit on the GPU: needs %.2f GB, "
                        "%.2f GB available of %.2f GB",
                        g->name, n, (unsigned long long)m, need / 1e9, free_b / 1e9, total_b / 1e9);
  int sms = 0;
  DS_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, c->device));
  c->num_sms = sms;
  c->blocks_per_sm = opt->blocks_per_sm ? opt->blocks_per_sm
                                         : m <= SPARSE_ARCS_PER_VERTEX * n ? 1 : PERSISTENT_BLOCKS_PER_SM;
  c->spill_limit = opt->spill_limit;
  c->self_check = opt->self_check;
  round_knobs &kn = c->knobs;
  kn.solo_max = opt->solo_max; /* 0 turns solo rounds off */
  kn.team_blocks = opt->team_blocks;
  kn.team_max = opt->team_max; /* 0 turns team rounds off */
  kn.solo_local = opt->solo_local;
  kn.rank_blocks = opt->rank_blocks;
  kn.stall_ns = 1000000ull * (opt->stall_ms ? opt->stall_ms : STALL_MS);
  kn.force_stall = opt->force_stall;
  kn.min_tile = opt->min_tile; /* 256: no spreading */
  kn.dyn_tiles = opt->dynamic_tiles;
  /* hub order runs in the two-block build only (round_schedule.cuh) */
  kn.hub_order = opt->hub_order == 1 || c->blocks_per_sm == 1 ? 0
                 : opt->hub_order                            ? opt->hub_order
                 : hub_share(g)                              ? HUB_ORDER
                                                             : 0;
  kn.hub_mid = !kn.hub_order ? UINT32_MAX : opt->hub_degree ? opt->hub_degree : HUB_DEGREE;
  kn.huge_plain = opt->huge_degree ? opt->huge_degree : HUGE_DEGREE;
  kn.huge_degree = opt->huge_degree ? opt->huge_degree : kn.hub_order ? HUB_HUGE_DEGREE : HUGE_DEGREE;
  /* dense rounds: the two-block build only; an option's divisor alone (tests
     force them on small graphs), the default's no smaller than DENSE_FRONTIER_MIN */
  kn.dense_min = opt->dense_div == 1 || c->blocks_per_sm == 1 ? UINT32_MAX
                 : opt->dense_div ? n / opt->dense_div
                 : n / DENSE_FRONTIER_DIV > DENSE_FRONTIER_MIN ? n / DENSE_FRONTIER_DIV
                                                               : DENSE_FRONTIER_MIN;
  kn.local_solo = opt->local_solo;
  kn.local_team = opt->local_team;
  kn.local_grid = opt->local_grid;
  kn.local_order = opt->local_order == 1 ? 0
                  : opt->local_order      ? opt->local_order
                  : m >= ORDERED_ARCS_PER_VERTEX * n ? ORDERED_LOCAL_STEPS : 0;
  /* the huge-list word counts entries in 64 - HUGE_COUNT_SHIFT bits: at most
     arcs / degree + 1 of them (every vertex listed once per round) */
  for (uint32_t *d : {&kn.huge_degree, &kn.huge_plain}) {
    if (*d < HUGE_DEGREE_MIN) *d = HUGE_DEGREE_MIN;
    if (m / *d >= (1ull << (63 - HUGE_COUNT_SHIFT))) *d = (uint32_t)(m >> (63 - HUGE_COUNT_SHIFT)) + 1;
  }
  if (opt->trace) { /* performance work: the per-round trace, copied to the caller's buffer */
    c->trace_out = opt->trace;
    c->trace.cap = opt->trace->capacity;
    DS_CUDA_TRY(cudaMalloc(&c->trace.t, 4 * sizeof(unsigned long long) * c->trace.cap));
  }
  DS_CUDA_TRY(cudaStreamCreateWithFlags(&c->stream, cudaStreamNonBlocking));
  DS_CUDA_TRY(cudaEventCreate(&c->ev_start));
  DS_CUDA_TRY(cudaEventCreate(&c->ev_stop));
  // 2. upload the CSR
  DS_CUDA_TRY(cudaMalloc(&c->d_row, 8ull * (n + 1)));
  DS_CUDA_TRY(cudaMalloc(&c->d_arc, 8ull * (m ? m : 1)));
  DS_CUDA_TRY(cudaMemcpy(c->d_row, g->row_offsets, 8ull * (n + 1), cudaMemcpyHostToDevice));
  if (m) DS_TRY(upload_arcs(c, g, err));
  // 3. per-search arrays: packed distances, done, two stamps; results
  DS_CUDA_TRY(cudaMalloc(&c->vs.dist, 8ull * (n ? n : 1)));
  DS_CUDA_TRY(cudaMalloc(&c->vs.done, 12ull * (n ? n : 1)));
  c->vs.stamp = c->vs.done + (n ? n : 1);
  c->vs.stamp2 = c->vs.stamp + (n ? n : 1);
  DS_CUDA_TRY(cudaMalloc(&c->d_counters, sizeof(dev_counters)));
  DS_CUDA_TRY(cudaMalloc(&c->d_dist_out, 8ull * (n ? n : 1)));
  c->d_pred_out = c->d_dist_out + (n ? n : 1);
  DS_CUDA_TRY(cudaMalloc(&c->d_stats, STAT_COUNT * sizeof(unsigned long long)));
  DS_CUDA_TRY(cudaMalloc(&c->d_huge_word, HUGE_WORDS * sizeof(unsigned long long)));
  c->max_blocks = (uint32_t)(c->num_sms * c->blocks_per_sm);
  DS_CUDA_TRY(cudaMalloc(&c->d_block_waits, sizeof(block_wait) * c->max_blocks));
  kn.block_waits = c->d_block_waits;
  /* a grid round lists at most arcs / degree + 1 vertices, a solo or team
     round at most its frontier (relax_round: SOLO_HUGE_DEGREE) */
  const uint32_t least_huge = kn.huge_degree < kn.huge_plain ? kn.huge_degree : kn.huge_plain;
  DS_CUDA_TRY(cudaMalloc(&c->d_huge, sizeof(huge_entry) * (2 * (m / least_huge + 1) +
                                                           (kn.team_max > kn.solo_max ? kn.team_max : kn.solo_max) + 1)));
  DS_CUDA_TRY(cudaStreamSynchronize(c->stream));
  return DS_OK;
}

extern "C" ds_status ds_gpu_open(int device, const ds_graph *g, const ds_gpu_options *opt, ds_gpu_ctx **ctx,
                                 ds_error *err) {
  if (!g || !ctx) return ds_error_set(err, DS_ERR_ARG, "ds_gpu_open: graph and ctx must not be NULL");
  *ctx = NULL;
  ds_gpu_options defaults;
  if (!opt) {
    ds_gpu_options_default(&defaults);
    opt = &defaults;
  }
  DS_TRY(check_options(opt, err));
  if (g->n == 0) return ds_error_set(err, DS_ERR_ARG, "graph %s has no vertices", g->name);
  if (g->weight_type != DS_WEIGHT_U32 && g->weight_type != DS_WEIGHT_F32)
    return ds_error_set(err, DS_ERR_UNSUPPORTED, "graph %s: unsupported weight type %d", g->name,
                        (int)g->weight_type);
  ds_gpu_ctx *c = (ds_gpu_ctx *)calloc(1, sizeof *c);
  if (!c) return ds_error_set(err, DS_ERR_NOMEM, "out of host memory");
  c->device = device;
  c->n = g->n;
  c->m = g->m;
  c->wt = g->weight_type;
  c->index_base = g->index_base;
  ds_status st = open_impl(c, g, opt, err);
  if (st != DS_OK) {
    ds_gpu_close(c);
    return st;
  }
  *ctx = c;
  return DS_OK;
}

ds_status ds_gpu_reset(ds_gpu_ctx *ctx, uint32_t source, ds_error *err) {
  const uint32_t inf = ctx->wt == DS_WEIGHT_F32 ? weight_traits<float>::INF_BITS : DS_INF_U32;
  reset_kernel<<<grid_for(ctx, ctx->n), FILL_BLOCK, 0, ctx->stream>>>(ctx->vs, ctx->n, source, inf);
  DS_LAUNCH_CHECK("reset_kernel");
  DS_CUDA_TRY(cudaMemsetAsync(ctx->d_counters, 0, sizeof(dev_counters), ctx->stream));
  DS_CUDA_TRY(cudaMemsetAsync(ctx->d_stats, 0, STAT_COUNT * sizeof(unsigned long long), ctx->stream));
  DS_CUDA_TRY(cudaMemsetAsync(ctx->d_block_waits, 0, sizeof(block_wait) * ctx->max_blocks, ctx->stream));
  DS_CUDA_TRY(cudaMemsetAsync(ctx->d_huge_word, 0, HUGE_MIN_WORD * sizeof(unsigned long long), ctx->stream));
  DS_CUDA_TRY(cudaMemsetAsync(ctx->d_huge_word + HUGE_MIN_WORD, 0xff, (HUGE_WORDS - HUGE_MIN_WORD) * sizeof(unsigned long long),
                              ctx->stream));
  return DS_OK;
}

ds_status ds_gpu_trace_read(ds_gpu_ctx *ctx, uint32_t rounds, ds_error *err) {
  if (!ctx->trace.t) return DS_OK;
  const uint32_t recs = rounds < ctx->trace.cap ? rounds + 1 : ctx->trace.cap;
  DS_CUDA_TRY(cudaMemcpy(ctx->trace_out->records, ctx->trace.t, 4 * sizeof(unsigned long long) * recs,
                         cudaMemcpyDeviceToHost));
  ctx->trace_out->count = recs;
  ctx->trace_out->rounds = rounds;
  return DS_OK;
}

template <typename W>
static ds_status run_typed(ds_gpu_ctx *ctx, ds_algo algo, uint32_t source, const ds_sssp_params *p,
                           ds_sssp_result *res, ds_error *err) {
  switch (algo) {
  case DS_ALGO_NEAR_FAR:
    return ds_near_far_run<W>(ctx, source, p->delta, p->targets, p->targets ? p->n_targets : 0, res, err);
  case DS_ALGO_MULTISPLIT: return ds_multisplit_run<W>(ctx, source, p->delta, p->buckets, res, err);
  case DS_ALGO_SORT: return ds_sort_run<W>(ctx, source, p->delta, p->buckets, res, err);
  case DS_ALGO_BELLMAN_FORD: return ds_bellman_ford_run<W>(ctx, source, res, err);
  default: return ds_error_set(err, DS_ERR_ARG, "algorithm %d is not a GPU algorithm", (int)algo);
  }
}

extern "C" ds_status ds_gpu_sssp(ds_gpu_ctx *ctx, ds_algo algo, uint32_t source,
                                 const ds_sssp_params *params, ds_sssp_result *res, ds_error *err) {
  // 1. check arguments
  if (!ctx || !params || !res || !res->dist)
    return ds_error_set(err, DS_ERR_ARG, "ds_gpu_sssp: ctx, params, res and res->dist must not be NULL");
  if (source >= ctx->n)
    return ds_error_set(err, DS_ERR_ARG, "source %u is out of range: the graph has %u vertices",
                        source, ctx->n);
  if (algo != DS_ALGO_BELLMAN_FORD && !(params->delta > 0 && params->delta < INFINITY))
    return ds_error_set(err, DS_ERR_ARG, "delta %g must be positive and finite", params->delta);
  if ((algo == DS_ALGO_MULTISPLIT || algo == DS_ALGO_SORT) &&
      (params->buckets < DS_SSSP_MIN_BUCKETS || params->buckets > DS_SSSP_MAX_BUCKETS))
    return ds_error_set(err, DS_ERR_ARG, "buckets %u is out of range: %u..%u", params->buckets,
                        DS_SSSP_MIN_BUCKETS, DS_SSSP_MAX_BUCKETS);
  const int wide = params->dist_width == DS_DIST_WIDE;
  if (wide && ctx->wt != DS_WEIGHT_U32)
    return ds_error_set(err, DS_ERR_ARG, "ds_gpu_sssp: 64-bit distances need integer weights");
  ds_sssp_params p = *params;
  p.delta = ds_delta_normalize(ctx->wt, params->delta);
  DS_CUDA_TRY(cudaSetDevice(ctx->device));
  // 2. reset and run (the algorithm times itself with ctx's events)
  DS_TRY(ds_gpu_reset(ctx, source, err));
  res->time_ms = 0;
  res->rounds = 0;
  if (ctx->trace_out) ctx->trace_out->count = 0;
  ds_status st = ctx->wt == DS_WEIGHT_F32 ? run_typed<float>(ctx, algo, source, &p, res, err)
                                          : run_typed<uint32_t>(ctx, algo, source, &p, res, err);
  if (st != DS_OK) return st;
  // 3. results: unpack distances and predecessors, count what was reached
  const int is_float = ctx->wt == DS_WEIGHT_F32;
  const uint32_t inf = is_float ? weight_traits<float>::INF_BITS : DS_INF_U32;
  const uint32_t sat = is_float ? weight_traits<float>::SAT_BITS : weight_traits<uint32_t>::SAT_BITS;
  finish_kernel<<<grid_for(ctx, ctx->n), FILL_BLOCK, 0, ctx->stream>>>(
      ctx->vs.dist, ctx->vs.done, ctx->d_row, ctx->n, inf, sat, ctx->d_dist_out, ctx->d_pred_out,
      ctx->d_stats);
  DS_LAUNCH_CHECK("finish_kernel");
  unsigned long long stats[STAT_COUNT] = {0, 0, 0, 0};
  dev_counters ctr;
  /* 64-bit results: the 32-bit distances land in the array's upper half and
     are widened in place below */
  uint32_t *dist32 = wide ? (uint32_t *)res->dist + ctx->n : (uint32_t *)res->dist;
  DS_CUDA_TRY(cudaMemcpyAsync(dist32, ctx->d_dist_out, 4ull * ctx->n, cudaMemcpyDeviceToHost, ctx->stream));
  if (res->pred)
    DS_CUDA_TRY(cudaMemcpyAsync(res->pred, ctx->d_pred_out, 4ull * ctx->n, cudaMemcpyDeviceToHost, ctx->stream));
  DS_CUDA_TRY(cudaMemcpyAsync(stats, ctx->d_stats, sizeof stats, cudaMemcpyDeviceToHost, ctx->stream));
  DS_CUDA_TRY(cudaMemcpyAsync(&ctr, ctx->d_counters, sizeof ctr, cudaMemcpyDeviceToHost, ctx->stream));
  DS_CUDA_TRY(cudaStreamSynchronize(ctx->stream));
  res->reached = (uint32_t)stats[STAT_REACHED];
  res->reached_arcs = stats[STAT_ARCS];
  res->edges_relaxed = ctr.edges_relaxed;
  if (stats[STAT_SATURATED]) {
    ds_graph shape;
    memset(&shape, 0, sizeof shape);
    shape.weight_type = ctx->wt;
    shape.index_base = ctx->index_base;
    return ds_dist_range_error(&shape, (uint32_t)(ctx->n - stats[STAT_SATURATED]), err);
  }
  if (wide) {
    /* Forward in place: element v is read at byte 4 (n + v), after the writes
       of elements below v, which end at byte 8 v <= 4 (n + v). Bytes are
       moved with memcpy so that the two views of one array stay ordered. */
    unsigned char *bytes = (unsigned char *)res->dist;
    for (uint64_t v = 0; v < ctx->n; ++v) {
      uint32_t d;
      memcpy(&d, bytes + 4 * (ctx->n + v), sizeof d);
      uint64_t d64 = d == DS_INF_U32 ? DS_INF_U64 : d;
      memcpy(bytes + 8 * v, &d64, sizeof d64);
    }
  }
  /* a search stopped at its targets leaves vertices expanded at distances that later dropped */
  if (ctx->self_check && stats[STAT_MARKED_OFF] && !res->stopped_early)
    return ds_error_set(err, DS_ERR_VALIDATION,
                        "GPU self-check: %llu of %u reached vertices are marked expanded "
                        "at a distance other than their final one",
                        stats[STAT_MARKED_OFF], res->reached);
  return DS_OK;
}
