/* deltasplit GPU SSSP: the C interface (gpu_sssp.h): device discovery, the
 * graph upload with its memory check, per-search reset, dispatch to the
 * algorithms, and the result read-back (distances, predecessors, counts).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "relax.cuh"

using namespace dsgpu;

namespace {

constexpr int FILL_BLOCK = 256;
constexpr uint32_t DONE_NEVER = 0xFFFFFFFFu; /* no distance has these bits (uint INF is never expanded) */
/* Queue and scratch bytes per vertex beyond the vertex arrays, the largest of
 * any algorithm (bucket engine: two frontiers, fbuf, fill, spill and log = 12n
 * words; the sort's labels 8n words and CUB's double buffers ~16n words), plus
 * fixed piece lists (<= 29 MB at m = 256) and multisplit temporaries. */
constexpr uint64_t QUEUE_BYTES_PER_VERTEX = 4 * 40;
constexpr uint64_t FIXED_BYTES = 64ull << 20;
/* Blocks per SM of the persistent (cooperative) kernels: more hides the
 * latency of large rounds, fewer makes the small rounds of road-like graphs
 * cheaper. A graph of at most SPARSE_ARCS_PER_VERTEX arcs per vertex gets one
 * block per SM, and with it the kernels' build with local steps (relax.cuh:
 * kernel_for). On the H100 (bench/NOTES-sssp.md, steps 27 and 37) one block
 * per SM made road networks 4-8 % and grid-1000 1 % faster, geo-1M (8 arcs
 * per vertex) 5 % slower and kron20 / R-MAT 35 % slower; with local steps
 * geo-1M is ~20 % faster than at two blocks per SM without them. */
constexpr int PERSISTENT_BLOCKS_PER_SM = 2;
constexpr uint64_t SPARSE_ARCS_PER_VERTEX = 8;
/* A round whose frontier has at most this many vertices runs on block 0 alone,
 * with block barriers instead of grid-wide ones. Swept on the H100
 * (bench/sssp/solo_sweep.sh, bench/NOTES-sssp.md): 256 is 5-8% faster than
 * none on the road networks and neutral on Kronecker; 1024 and more are
 * slower everywhere (one block walks several tiles in series). */
constexpr uint32_t SOLO_MAX_FRONTIER = 256;
/* A round of at most this many vertices (and more than SOLO_MAX_FRONTIER) runs
 * on a team of TEAM_BLOCKS blocks with a barrier of its own while the others
 * wait at one grid barrier: a grid barrier of every resident block is most of
 * a small round's cost (bench/NOTES-sssp.md, step 17). 64 blocks and up to
 * 16384 vertices since frontiers are spread over the team (MIN_TILE; steps
 * 22-25): NY 4.93 -> 4.45 ms, BAY 3.72 -> 3.43, COL 7.35 -> 7.19 against
 * 16 / 4096; 32, 96, 128 and 192 blocks slower on the roads. With local steps
 * (step 42) more blocks win: 128 and tiles of 8 against 64 and 64, near-far
 * NY 2.20 -> 2.01, COL 3.47 -> 3.14, grid-1000 8.71 -> 7.03, geo-1M 17.19 ->
 * 13.04, R-MAT 2.23 -> 2.12, kron20 2.76 -> 2.78. (A grid of one block per SM
 * has 132 blocks on the H100; knobs_for keeps the team below the grid.) */
constexpr uint32_t TEAM_BLOCKS = 128;
constexpr uint32_t TEAM_MAX_FRONTIER = 16384;
/* Solo rounds keep the sink's counters, the huge-list word and the next
 * frontier in shared memory (relax.cuh: relax_round, local). */
constexpr int SOLO_LOCAL = 1;
/* A round's frontier of fewer than 256 entries per block is spread evenly over
 * its blocks, in tiles of at least MIN_TILE entries (relax.cuh:
 * relax_frontier); 256 keeps full tiles on the first blocks. 8 since local
 * steps (step 42): each tile's block then follows its own vertices, so more
 * blocks with fewer entries each shorten a round (16 and 4 within 1 % of 8,
 * 128 13-25 % slower). */
constexpr uint32_t MIN_TILE = 8;
/* The persistent kernels rank their blocks so that the solo block and the
 * team are first blocks of distinct SMs (relax.cuh: stretch_sync::init). */
constexpr int RANK_BLOCKS = 1;
/* Tiles of a round's frontier are dealt to blocks by an atomic counter (1)
 * rather than statically (0) or only when a round has more than two tiles per
 * block (2). On power-law graphs one tile's arcs vary by orders of magnitude,
 * and a static deal leaves blocks waiting at the grid barrier for the
 * unluckiest one; on road graphs the counter is also 4-7 % faster (the blocks
 * that leave the barrier first take the work): bench/NOTES-sssp.md, step 12. */
constexpr int DYNAMIC_TILES = 1;
/* Local steps per round (relax.cuh: relax_frontier, steps) of solo, team
 * and grid rounds, in the one-block-per-SM build (kernel_for). Swept on the
 * H100 (bench/NOTES-sssp.md, steps 37-38; near-far ms at 64 x the mean
 * weight, none -> 8 team steps -> 16): NY 4.14 -> 2.73 -> 2.69, BAY 3.15 ->
 * 2.03, COL 6.57 -> 4.17 -> 4.06, grid-1000 13.27 -> 9.09 -> 8.68, geo-1M
 * 25.30 -> 17.11 -> 16.93. Fewer team steps are slower (6: 1-2 %, 2: 10-15 %),
 * and so are 16 solo steps (1-5 %), or no grid steps (geo-1M +18 %). */
constexpr uint32_t LOCAL_SOLO = 8, LOCAL_TEAM = 16, LOCAL_GRID = 2;
constexpr uint32_t TRACE_ROUNDS = 1u << 16; /* records of the per-round trace */

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
 * (relax.cuh), so [2] is 0 unless the bookkeeping lost a store: the bucket
 * engine then takes expanded vertices for pending (DS_GPU_SELF_CHECK). */
__global__ void finish_kernel(const unsigned long long *dist, const uint32_t *done, const uint64_t *row,
                              uint32_t n, uint32_t inf_bits, uint32_t *dist_out, uint32_t *pred_out,
                              unsigned long long *stats) {
  unsigned long long reached = 0, arcs = 0, marked_off = 0;
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
    }
  }
  if (reached) atomicAdd(&stats[0], reached);
  if (arcs) atomicAdd(&stats[1], arcs);
  if (marked_off) atomicAdd(&stats[2], marked_off);
}

/* A tuning variable (experiments only): its value if it is a whole number in
 * [lo, hi], else `def`. */
uint32_t env_knob(const char *name, uint32_t lo, uint32_t def, uint32_t hi = UINT32_MAX) {
  const char *s = getenv(name);
  if (!s || *s < '0' || *s > '9') return def;
  char *end = NULL;
  const unsigned long long v = strtoull(s, &end, 10);
  return *end == 0 && v >= lo && v <= hi ? (uint32_t)v : def;
}

int grid_for(const ds_gpu_ctx *ctx, uint64_t items) {
  uint64_t g = (items + FILL_BLOCK - 1) / FILL_BLOCK;
  uint64_t cap = 8ull * ctx->num_sms;
  return (int)(g < 1 ? 1 : g > cap ? cap : g);
}

/* Arcs go up in chunks through a staging buffer of 2 * ARC_CHUNK words
 * (within FIXED_BYTES), so the packing needs no second copy of the graph. */
constexpr uint64_t ARC_CHUNK = 1ull << 22;

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

extern "C" int ds_gpu_available(char *reason, size_t reason_len) {
  int count = 0;
  cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess || count == 0) {
    if (reason && reason_len)
      snprintf(reason, reason_len, "no usable CUDA device: %s",
               e != cudaSuccess ? cudaGetErrorString(e) : "none found");
    return 0;
  }
  if (reason && reason_len) reason[0] = 0;
  return count;
}

extern "C" ds_status ds_gpu_describe(int device, char *name, size_t name_len, size_t *mem_total,
                                     ds_error *err) {
  cudaDeviceProp p;
  DS_CUDA_TRY(cudaGetDeviceProperties(&p, device));
  if (name && name_len) snprintf(name, name_len, "%s", p.name);
  if (mem_total) *mem_total = p.totalGlobalMem;
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
  cudaFree(ctx->trace.t);
  if (ctx->stream) cudaStreamDestroy(ctx->stream);
  if (ctx->ev_start) cudaEventDestroy(ctx->ev_start);
  if (ctx->ev_stop) cudaEventDestroy(ctx->ev_stop);
  free(ctx);
}

static ds_status open_impl(ds_gpu_ctx *c, const ds_graph *g, ds_error *err) {
  const uint32_t n = g->n;
  const uint64_t m = g->m;
  // 1. will it fit? graph + vertex arrays + the largest algorithm's queues
  const uint64_t graph_bytes = 8ull * (n + 1) + 4ull * m + 4ull * m;
  const uint64_t vertex_bytes = (uint64_t)n * (8 + 4 + 4 + 4 + 4 + 4);
  const uint64_t need = graph_bytes + vertex_bytes + QUEUE_BYTES_PER_VERTEX * n + FIXED_BYTES;
  size_t free_b = 0, total_b = 0;
  DS_CUDA_TRY(cudaSetDevice(c->device));
  DS_CUDA_TRY(cudaMemGetInfo(&free_b, &total_b));
  if (need > free_b)
    return ds_error_set(err, DS_ERR_DEVICE,
                        "graph %s (%u vertices, %llu arcs) does not fit on the GPU: needs %.2f GB, "
                        "%.2f GB available of %.2f GB",
                        g->name, n, (unsigned long long)m, need / 1e9, free_b / 1e9, total_b / 1e9);
  int sms = 0;
  DS_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, c->device));
  c->num_sms = sms;
  c->blocks_per_sm = (int)env_knob("DS_GPU_BLOCKS_PER_SM", 1,
                                   m <= SPARSE_ARCS_PER_VERTEX * n ? 1 : PERSISTENT_BLOCKS_PER_SM, INT32_MAX);
  c->spill_limit = env_knob("DS_GPU_SPILL_LIMIT", 1, 0);
  c->self_check = (int)env_knob("DS_GPU_SELF_CHECK", 0, 0, 1);
  // the rounds' knobs: the measured defaults, or tuning variables (experiments only)
  round_knobs &kn = c->knobs;
  kn.solo_max = env_knob("DS_GPU_SOLO_MAX", 0, SOLO_MAX_FRONTIER); /* 0 turns solo rounds off */
  kn.team_blocks = env_knob("DS_GPU_TEAM_BLOCKS", 1, TEAM_BLOCKS);
  kn.team_max = env_knob("DS_GPU_TEAM_MAX", 0, TEAM_MAX_FRONTIER); /* 0 turns team rounds off */
  kn.solo_local = (int)env_knob("DS_GPU_SOLO_LOCAL", 0, SOLO_LOCAL, 1);
  kn.rank_blocks = (int)env_knob("DS_GPU_RANK_BLOCKS", 0, RANK_BLOCKS, 1);
  kn.min_tile = env_knob("DS_GPU_MIN_TILE", 1, MIN_TILE); /* 256: no spreading */
  kn.dyn_tiles = (int)env_knob("DS_GPU_DYNAMIC_TILES", 0, DYNAMIC_TILES, 2);
  kn.huge_degree = env_knob("DS_GPU_HUGE_DEGREE", 1, HUGE_DEGREE);
  kn.local_solo = env_knob("DS_GPU_LOCAL_SOLO", 0, LOCAL_SOLO, 64);
  kn.local_team = env_knob("DS_GPU_LOCAL_TEAM", 0, LOCAL_TEAM, 64);
  kn.local_grid = env_knob("DS_GPU_LOCAL_GRID", 0, LOCAL_GRID, 64);
  if (kn.huge_degree < HUGE_DEGREE_MIN) kn.huge_degree = HUGE_DEGREE_MIN;
  /* the huge-list word counts entries in 64 - HUGE_COUNT_SHIFT bits: at most
     arcs / degree + 1 of them (every vertex listed once per round) */
  if (m / kn.huge_degree >= (1ull << (63 - HUGE_COUNT_SHIFT)))
    kn.huge_degree = (uint32_t)(m >> (63 - HUGE_COUNT_SHIFT)) + 1;
  const char *tr = getenv("DS_GPU_TRACE"); /* performance work: per-round trace file */
  if (tr && tr[0]) {
    snprintf(c->trace_path, sizeof c->trace_path, "%s", tr);
    c->trace.cap = TRACE_ROUNDS;
    DS_CUDA_TRY(cudaMalloc(&c->trace.t, 4 * sizeof(unsigned long long) * TRACE_ROUNDS));
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
  DS_CUDA_TRY(cudaMalloc(&c->d_stats, 3 * sizeof(unsigned long long)));
  DS_CUDA_TRY(cudaMalloc(&c->d_huge_word, 4 * sizeof(unsigned long long)));
  /* a grid round lists at most arcs / degree + 1 vertices, a solo or team
     round at most its frontier (relax_round: SOLO_HUGE_DEGREE) */
  DS_CUDA_TRY(cudaMalloc(&c->d_huge, sizeof(huge_entry) * (2 * (m / kn.huge_degree + 1) +
                                                           (kn.team_max > kn.solo_max ? kn.team_max : kn.solo_max) + 1)));
  DS_CUDA_TRY(cudaStreamSynchronize(c->stream));
  return DS_OK;
}

extern "C" ds_status ds_gpu_open(int device, const ds_graph *g, ds_gpu_ctx **ctx, ds_error *err) {
  if (!g || !ctx) return ds_error_set(err, DS_ERR_ARG, "ds_gpu_open: graph and ctx must not be NULL");
  *ctx = NULL;
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
  ds_status st = open_impl(c, g, err);
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
  DS_CUDA_TRY(cudaMemsetAsync(ctx->d_stats, 0, 3 * sizeof(unsigned long long), ctx->stream));
  DS_CUDA_TRY(cudaMemsetAsync(ctx->d_huge_word, 0, 4 * sizeof(unsigned long long), ctx->stream));
  return DS_OK;
}

ds_status ds_gpu_trace_write(ds_gpu_ctx *ctx, const char *algo, uint32_t source, uint32_t rounds,
                             float ms, ds_error *err) {
  if (!ctx->trace.t) return DS_OK;
  const uint32_t recs = rounds < TRACE_ROUNDS ? rounds + 1 : TRACE_ROUNDS;
  unsigned long long *h = (unsigned long long *)malloc(4 * sizeof(unsigned long long) * recs);
  if (!h) return ds_error_set(err, DS_ERR_NOMEM, "trace: out of host memory");
  cudaError_t e = cudaMemcpy(h, ctx->trace.t, 4 * sizeof(unsigned long long) * recs, cudaMemcpyDeviceToHost);
  FILE *f = e == cudaSuccess ? fopen(ctx->trace_path, "a") : NULL;
  if (!f) {
    free(h);
    return e != cudaSuccess ? ds_error_set(err, DS_ERR_DEVICE, "trace: %s", cudaGetErrorString(e))
                            : ds_error_set(err, DS_ERR_IO, "%s: cannot open the trace file", ctx->trace_path);
  }
  fprintf(f, "# %s source %u rounds %u ms %.3f\n# round frontier blocks(0=grid) huge_vertices huge_arcs us\n", algo,
          source, rounds, ms);
  for (uint32_t r = 0; r + 1 < recs; ++r)
    fprintf(f, "%u %llu %llu %llu %llu %.2f\n", r, h[4 * r + 1], h[4 * r + 2],
            h[4 * r + 3] >> HUGE_COUNT_SHIFT, h[4 * r + 3] & HUGE_ARCS_MASK,
            (h[4 * (r + 1)] - h[4 * r]) / 1e3);
  fclose(f);
  free(h);
  return DS_OK;
}

template <typename W>
static ds_status run_typed(ds_gpu_ctx *ctx, ds_algo algo, uint32_t source, const ds_sssp_params *p,
                           ds_sssp_result *res, ds_error *err) {
  switch (algo) {
  case DS_ALGO_NEAR_FAR: return ds_near_far_run<W>(ctx, source, p->delta, res, err);
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
      (params->buckets < 2 || params->buckets > MAX_BUCKETS))
    return ds_error_set(err, DS_ERR_ARG, "buckets %u is out of range: 2..%u", params->buckets,
                        MAX_BUCKETS);
  DS_CUDA_TRY(cudaSetDevice(ctx->device));
  // 2. reset and run (the algorithm times itself with ctx's events)
  DS_TRY(ds_gpu_reset(ctx, source, err));
  res->time_ms = 0;
  res->rounds = 0;
  ds_status st = ctx->wt == DS_WEIGHT_F32 ? run_typed<float>(ctx, algo, source, params, res, err)
                                          : run_typed<uint32_t>(ctx, algo, source, params, res, err);
  if (st != DS_OK) return st;
  // 3. results: unpack distances and predecessors, count what was reached
  const uint32_t inf = ctx->wt == DS_WEIGHT_F32 ? weight_traits<float>::INF_BITS : DS_INF_U32;
  finish_kernel<<<grid_for(ctx, ctx->n), FILL_BLOCK, 0, ctx->stream>>>(
      ctx->vs.dist, ctx->vs.done, ctx->d_row, ctx->n, inf, ctx->d_dist_out, ctx->d_pred_out, ctx->d_stats);
  DS_LAUNCH_CHECK("finish_kernel");
  unsigned long long stats[3] = {0, 0, 0};
  dev_counters ctr;
  DS_CUDA_TRY(cudaMemcpyAsync(res->dist, ctx->d_dist_out, 4ull * ctx->n, cudaMemcpyDeviceToHost, ctx->stream));
  if (res->pred)
    DS_CUDA_TRY(cudaMemcpyAsync(res->pred, ctx->d_pred_out, 4ull * ctx->n, cudaMemcpyDeviceToHost, ctx->stream));
  DS_CUDA_TRY(cudaMemcpyAsync(stats, ctx->d_stats, sizeof stats, cudaMemcpyDeviceToHost, ctx->stream));
  DS_CUDA_TRY(cudaMemcpyAsync(&ctr, ctx->d_counters, sizeof ctr, cudaMemcpyDeviceToHost, ctx->stream));
  DS_CUDA_TRY(cudaStreamSynchronize(ctx->stream));
  res->reached = (uint32_t)stats[0];
  res->reached_arcs = stats[1];
  res->edges_relaxed = ctr.edges_relaxed;
  if (ctx->self_check && stats[2])
    return ds_error_set(err, DS_ERR_VALIDATION,
                        "GPU self-check (DS_GPU_SELF_CHECK): %llu of %u reached vertices are marked expanded "
                        "at a distance other than their final one",
                        stats[2], res->reached);
  return DS_OK;
}
