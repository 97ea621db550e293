/* deltasplit GPU SSSP: many sources at once, one thread block a search.
 *
 * On a road network one search keeps a few of the GPU's SMs busy for
 * hundreds of short rounds; K searches run back to back leave the rest idle
 * K times over. Here one launch runs them together: every block takes the
 * next source of the batch (an atomic counter), runs its whole search alone
 * with block-wide syncs only, writes the distances into the source's row and
 * takes the next, until the batch is done. No block ever waits for another,
 * so the launch cannot deadlock whatever the occupancy, and a batch larger
 * than the resident blocks simply queues.
 *
 * A block's search is Near-Far (Davidson et al., IPDPS 2014) on its own
 * worklists in global memory: a near queue (two, current and next) of the
 * vertices below the split S, and a far pile of those at or above it. A round
 * expands the near queue (a thread a vertex) and relaxes by atomicMin on the
 * distance bits (float bits order like their values, gpu_common.cuh). When
 * the near queue is empty, S moves to the bucket of width delta that holds the
 * least live far distance, and the far pile is compacted in place: entries
 * settled below the old S are dropped, those below the new S make the next
 * near queue, the rest stay.
 *
 * Invariants: a vertex is in the next near queue at most once a round (its
 * near mark holds the round's stamp) and in the far pile at most once (its far
 * mark holds the phase, carried entries are re-marked), so no queue outgrows n.
 * Distances only go down, and every decrease queues the vertex, so the search
 * ends with Dijkstra's distances (the fixpoint of the relaxations).
 *
 * Limits: distances only (no predecessors); 32-bit distance bits, a sum that
 * does not fit saturates and is reported by the host as for the other
 * engines; a vertex's arcs are walked by one thread, so a hub serialises its
 * round (the batch is meant for the low-degree graphs gpu_sssp.h's
 * ds_gpu_batch_pays picks). Every loop is bounded: the rounds of one search
 * (relaxation rounds and phases together) by BATCH_ROUNDS_PER_VERTEX * n +
 * BATCH_ROUNDS_SLACK, queues by n, the rest by n, the degree or the batch;
 * a search crossing a bound records it in the error word, and every block
 * stops at its next round (the host reports "the GPU search stalled").
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <memory>
#include <new>
#include <type_traits>

#include "gpu_common.cuh"

using namespace dsgpu;

namespace {

constexpr int BATCH_BLOCK = RELAX_BLOCK; /* threads of a search */
/* Arcs a thread loads together before relaxing them (a road's vertex has 2-4, a mesh's 6-8). */
constexpr int BATCH_ARC_GROUP = 4;
/* A search's rounds: each phase settles a vertex at least, and on the graphs
   measured a phase takes a handful of rounds; a search past this bound is
   taken as stalled. */
constexpr uint64_t BATCH_ROUNDS_PER_VERTEX = 8;
constexpr uint64_t BATCH_ROUNDS_SLACK = 1024;
/* Words of a slot's scratch per vertex: near mark, far mark, two near queues, the far pile. */
constexpr uint64_t SLOT_WORDS_PER_VERTEX = 5;
/* Device memory left to others (the CUDA context's own growth, other contexts). */
constexpr uint64_t BATCH_RESERVE_BYTES = 256ull << 20;
/* A launch's rows: at most this many bytes beyond one row per slot on the device; the host
   reads them back in pieces of at most this many bytes (one row at least). */
constexpr uint64_t BATCH_STAGE_BYTES = 512ull << 20;

constexpr int BATCH_POISON_BYTE = 0xA5; /* the rows before a launch (as the program poisons its results) */
/* What the error word records: the first search that gave up, and why. */
enum { BATCH_OK = 0, BATCH_ROUND_BOUND = 1, BATCH_QUEUE_BOUND = 2 };
struct batch_error {
  uint32_t kind;  /* BATCH_* */
  uint32_t index; /* of the search in the launch */
  unsigned long long rounds;
};

/* Per search: [0] rounds, [1] arcs relaxed, [2] out-arcs of the reached vertices. */
constexpr int BATCH_STATS = 3;

template <typename W> struct batch_args {
  dev_graph<W> g;
  const uint32_t *sources; /* count, the launch's */
  uint32_t count;
  uint32_t *next;          /* the work counter */
  uint32_t *rows;          /* count x n distance bits */
  uint32_t *scratch;       /* grid x SLOT_WORDS_PER_VERTEX x n */
  unsigned long long *stats; /* count x BATCH_STATS */
  batch_error *error;
  typename weight_traits<W>::acc_t delta;
  unsigned long long round_limit;
};

/* The block's shared bookkeeping of one search. */
template <typename W> struct batch_shared {
  typename weight_traits<W>::acc_t split, next_split;
  uint32_t near_count, next_count, far_count, far_kept;
  uint32_t least; /* least live far distance bits */
  uint32_t item;
  int stop;
  unsigned long long relaxed, reached_arcs;
};

/* The distance bits of v as the atomics left them (L2: another thread of the
 * block may have lowered them since this SM's L1 saw the line). */
__device__ __forceinline__ uint32_t dist_now(const uint32_t *dist, uint32_t v) { return __ldcg(dist + v); }

/* Records the first failure; every block sees it before its next round. */
__device__ void batch_fail(batch_error *e, uint32_t kind, uint32_t index, unsigned long long rounds) {
  if (atomicCAS(&e->kind, BATCH_OK, kind) == BATCH_OK) {
    e->index = index;
    e->rounds = rounds;
  }
}

/* The split after a phase whose least live far distance is `least`: the end
 * of least's bucket, so that empty buckets are skipped (splits stay
 * multiples of delta, above the old one). A float delta below least's
 * precision would leave the sum at least itself, and the phase would find
 * nothing below its split: then the next value above least. */
template <typename W>
__device__ typename weight_traits<W>::acc_t split_above(uint32_t least, typename weight_traits<W>::acc_t delta) {
  using T = weight_traits<W>;
  typename T::acc_t s = T::floor_to(least, delta) + delta;
  if constexpr (std::is_same<W, float>::value)
    if (!T::below(least, s)) s = nextafter(T::value(least), HUGE_VAL);
  return s;
}

/* One search, the whole block: from a->sources[item] into row item. */
template <typename W> __device__ void block_search(const batch_args<W> &a, uint32_t item, batch_shared<W> &sh) {
  using T = weight_traits<W>;
  const uint32_t n = a.g.n, tid = threadIdx.x;
  uint32_t *dist = a.rows + (uint64_t)item * n;
  uint32_t *scr = a.scratch + (uint64_t)blockIdx.x * SLOT_WORDS_PER_VERTEX * n;
  uint32_t *near_mark = scr, *far_mark = scr + n;
  uint32_t *const queues = scr + 2ull * n; /* near queue c at queues + c * n (no array of pointers:
                                               indexed by a variable, it would live in local memory) */
  uint32_t *far = scr + 4ull * n;
  // 1. every vertex unreached and unqueued; the source alone in the near queue
  for (uint32_t v = tid; v < n; v += BATCH_BLOCK) {
    dist[v] = T::INF_BITS;
    near_mark[v] = 0;
    far_mark[v] = 0;
  }
  __syncthreads();
  const uint32_t source = a.sources[item];
  if (tid == 0) {
    dist[source] = 0;
    near_mark[source] = 1;
    queues[0] = source;
    sh.near_count = 1;
    sh.far_count = 0;
    sh.split = a.delta;
    sh.stop = 0;
    sh.relaxed = 0;
    sh.reached_arcs = 0;
  }
  __syncthreads();
  uint32_t stamp = 1, phase = 1; /* the current near queue's mark; the far pile's */
  unsigned long long rounds = 0, relaxed = 0;
  int cur = 0;
  for (;;) {
    // 2. rounds: expand the near queue into the next one and the far pile
    while (sh.near_count > 0) {
      if (tid == 0) {
        sh.next_count = 0;
        if (++rounds > a.round_limit) batch_fail(a.error, BATCH_ROUND_BOUND, item, rounds);
        sh.stop = __ldcg(&a.error->kind) != BATCH_OK;
      }
      __syncthreads();
      if (sh.stop) break;
      const uint32_t count = sh.near_count, next_stamp = stamp + 1;
      const typename T::acc_t split = sh.split;
      for (uint32_t i = tid; i < count; i += BATCH_BLOCK) {
        const uint32_t u = queues[(uint64_t)cur * n + i], du = dist_now(dist, u);
        const uint64_t end = a.g.row[u + 1];
        for (uint64_t e0 = a.g.row[u]; e0 < end; e0 += BATCH_ARC_GROUP) {
          // a group's arcs, then their heads' distances, each load issued before any is used:
          // the searches are bound by the latency of these loads, not by their bytes
          uint2 arc[BATCH_ARC_GROUP];
          uint32_t seen[BATCH_ARC_GROUP];
#pragma unroll
          for (int k = 0; k < BATCH_ARC_GROUP; ++k) arc[k] = e0 + k < end ? a.g.arc[e0 + k] : make_uint2(0u, 0u);
#pragma unroll
          for (int k = 0; k < BATCH_ARC_GROUP; ++k) seen[k] = e0 + k < end ? dist_now(dist, arc[k].x) : 0u;
#pragma unroll
          for (int k = 0; k < BATCH_ARC_GROUP; ++k) {
            if (e0 + k >= end) break;
            const uint32_t v = arc[k].x, nd = T::add(du, T::weight(arc[k].y));
            ++relaxed;
            /* seen[k] may be stale (an earlier arc of the group to the same head): the
               atomic's answer decides */
            if (nd >= seen[k] || nd >= atomicMin(dist + v, nd)) continue;
            if (T::below(nd, split)) {
              if (atomicExch(near_mark + v, next_stamp) == next_stamp) continue;
              const uint32_t at = atomicAdd(&sh.next_count, 1u);
              if (at < n) queues[(uint64_t)(cur ^ 1) * n + at] = v;
            } else {
              if (atomicExch(far_mark + v, phase) == phase) continue;
              const uint32_t at = atomicAdd(&sh.far_count, 1u);
              if (at < n) far[at] = v;
            }
          }
        }
      }
      __syncthreads();
      if (tid == 0) {
        if (sh.next_count > n || sh.far_count > n) {
          batch_fail(a.error, BATCH_QUEUE_BOUND, item, rounds);
          sh.next_count = 0;
          sh.stop = 1;
        }
        sh.near_count = sh.next_count;
      }
      cur ^= 1;
      stamp = next_stamp;
      __syncthreads();
    }
    if (sh.stop) break;
    // 3. the near queue is empty: the least live far distance picks the next bucket
    if (tid == 0) sh.least = T::INF_BITS;
    __syncthreads();
    const typename T::acc_t old_split = sh.split;
    const uint32_t far_count = sh.far_count;
    for (uint32_t i = tid; i < far_count; i += BATCH_BLOCK) {
      const uint32_t d = dist_now(dist, far[i]);
      if (!T::below(d, old_split)) atomicMin(&sh.least, d);
    }
    __syncthreads();
    if (sh.least == T::INF_BITS) break; /* nothing left above the split: done */
    if (tid == 0) {
      if (++rounds > a.round_limit) {
        batch_fail(a.error, BATCH_ROUND_BOUND, item, rounds);
        sh.stop = 1;
      }
      sh.split = split_above<W>(sh.least, a.delta);
      sh.far_kept = 0;
      sh.near_count = 0;
    }
    __syncthreads();
    if (sh.stop) break;
    // 4. compact the far pile in place, tile by tile: a tile is read before any
    //    of its entries is overwritten, and the kept entries land at or below it
    const typename T::acc_t new_split = sh.split;
    ++phase;
    for (uint32_t base = 0; base < far_count; base += BATCH_BLOCK) {
      const uint32_t i = base + tid;
      uint32_t v = 0, d = T::INF_BITS;
      if (i < far_count) {
        v = far[i];
        d = dist_now(dist, v);
      }
      __syncthreads();
      if (i < far_count && !T::below(d, old_split)) {
        if (T::below(d, new_split)) { /* unique in the pile, so once in the queue */
          near_mark[v] = stamp;
          queues[(uint64_t)cur * n + atomicAdd(&sh.near_count, 1u)] = v;
        } else {
          far_mark[v] = phase;
          far[atomicAdd(&sh.far_kept, 1u)] = v;
        }
      }
      __syncthreads();
    }
    if (tid == 0) sh.far_count = sh.far_kept;
    __syncthreads();
  }
  // 5. the search's counts
  unsigned long long arcs = 0;
  for (uint32_t v = tid; v < n; v += BATCH_BLOCK)
    if (dist_now(dist, v) != T::INF_BITS) arcs += a.g.row[v + 1] - a.g.row[v];
  atomicAdd(&sh.relaxed, relaxed);
  atomicAdd(&sh.reached_arcs, arcs);
  __syncthreads();
  if (tid == 0) {
    a.stats[(uint64_t)item * BATCH_STATS] = rounds;
    a.stats[(uint64_t)item * BATCH_STATS + 1] = sh.relaxed;
    a.stats[(uint64_t)item * BATCH_STATS + 2] = sh.reached_arcs;
  }
  __syncthreads();
}

template <typename W> __global__ void __launch_bounds__(BATCH_BLOCK) batch_kernel(const batch_args<W> a) {
  __shared__ batch_shared<W> sh;
  for (;;) { /* at most count + grid turns: the counter only grows */
    if (threadIdx.x == 0) sh.item = __ldcg(&a.error->kind) != BATCH_OK ? a.count : atomicAdd(a.next, 1u);
    __syncthreads();
    const uint32_t item = sh.item;
    __syncthreads();
    if (item >= a.count) return;
    block_search<W>(a, item, sh);
  }
}

/* The launch's buffers, device and host, freed on every path. */
struct batch_buffers {
  uint32_t *d_scratch = nullptr, *d_rows = nullptr, *d_sources = nullptr, *d_next = nullptr;
  unsigned long long *d_stats = nullptr;
  batch_error *d_error = nullptr;
  /* host staging, left uninitialised: every launch copies its rows over it
     (a vector would first write hundreds of megabytes of zeros on a road network) */
  std::unique_ptr<uint32_t[]> rows;
  std::unique_ptr<unsigned long long[]> stats;
  std::unique_ptr<uint64_t[]> wide; /* one row widened to 64 bits */
  ~batch_buffers() {
    cudaFree(d_scratch);
    cudaFree(d_rows);
    cudaFree(d_sources);
    cudaFree(d_next);
    cudaFree(d_stats);
    cudaFree(d_error);
  }
};

/* How many searches run at once (slots) and how many sources a launch takes
 * (rows): slots from the occupancy, both from free device memory; rows at
 * least the slots where memory allows, beyond that at most BATCH_STAGE_BYTES. */
template <typename W>
ds_status batch_plan(const ds_gpu_ctx *ctx, uint32_t count, uint32_t *slots, uint32_t *rows, ds_error *err) {
  int per_sm = 0;
  DS_CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, batch_kernel<W>, BATCH_BLOCK, 0));
  if (per_sm < 1)
    return ds_error_set(err, DS_ERR_DEVICE, "batched search: its kernel cannot be resident on device %d", ctx->device);
  size_t free_b = 0, total_b = 0;
  DS_CUDA_TRY(cudaMemGetInfo(&free_b, &total_b));
  const uint64_t n = ctx->n, slot_bytes = 4 * SLOT_WORDS_PER_VERTEX * n, row_bytes = 4 * n + 8 * BATCH_STATS;
  const uint64_t budget = free_b > BATCH_RESERVE_BYTES ? free_b - BATCH_RESERVE_BYTES : 0;
  uint64_t s = (uint64_t)per_sm * ctx->num_sms;
  if (s > count) s = count;
  if (s > budget / (slot_bytes + row_bytes)) s = budget / (slot_bytes + row_bytes);
  if (s == 0)
    return ds_error_set(err, DS_ERR_DEVICE,
                        "batched search: one search over %u vertices needs %.1f MB of device memory, "
                        "%.1f MB free of %.1f MB",
                        ctx->n, (slot_bytes + row_bytes + BATCH_RESERVE_BYTES) / 1e6, free_b / 1e6, total_b / 1e6);
  uint64_t r = (budget - s * slot_bytes) / row_bytes;
  const uint64_t staged = BATCH_STAGE_BYTES / row_bytes > s ? BATCH_STAGE_BYTES / row_bytes : s;
  if (r > staged) r = staged;
  if (r > count) r = count;
  *slots = (uint32_t)s;
  *rows = (uint32_t)r;
  return DS_OK;
}

template <typename W>
ds_status batch_run(ds_gpu_ctx *ctx, const uint32_t *sources, uint32_t count, const ds_sssp_params *p,
                    ds_gpu_batch_sink sink, void *user, ds_gpu_batch_info *info, ds_error *err) {
  using T = weight_traits<W>;
  // 1. the plan and the buffers, before anything runs
  uint32_t slots = 0, rows = 0;
  DS_TRY(batch_plan<W>(ctx, count, &slots, &rows, err));
  const uint64_t n = ctx->n;
  const int wide = p->dist_width == DS_DIST_WIDE;
  batch_buffers b;
  DS_CUDA_TRY(cudaMalloc(&b.d_scratch, 4 * SLOT_WORDS_PER_VERTEX * n * slots));
  DS_CUDA_TRY(cudaMalloc(&b.d_rows, 4 * n * rows));
  DS_CUDA_TRY(cudaMalloc(&b.d_sources, 4ull * rows));
  DS_CUDA_TRY(cudaMalloc(&b.d_next, sizeof(uint32_t)));
  DS_CUDA_TRY(cudaMalloc(&b.d_stats, sizeof(unsigned long long) * BATCH_STATS * rows));
  DS_CUDA_TRY(cudaMalloc(&b.d_error, sizeof(batch_error)));
  /* the host reads a launch's rows back a piece at a time: a launch holds at least one row a
     slot, which on a large graph is gigabytes the device has and the host need not */
  const uint64_t per_piece = BATCH_STAGE_BYTES / (4 * n);
  const uint32_t piece = per_piece < 1 ? 1 : per_piece > rows ? rows : (uint32_t)per_piece;
  b.rows.reset(new (std::nothrow) uint32_t[n * piece]);
  b.stats.reset(new (std::nothrow) unsigned long long[(size_t)BATCH_STATS * rows]);
  if (wide) b.wide.reset(new (std::nothrow) uint64_t[n]);
  if (!b.rows || !b.stats || (wide && !b.wide))
    return ds_error_set(err, DS_ERR_NOMEM, "batched search: out of host memory for %u rows of %u distances", piece,
                        ctx->n);
  batch_args<W> a;
  a.g = ds_dev_graph<W>(ctx);
  a.sources = b.d_sources;
  a.next = b.d_next;
  a.rows = b.d_rows;
  a.scratch = b.d_scratch;
  a.stats = b.d_stats;
  a.error = b.d_error;
  a.delta = (typename T::acc_t)p->delta;
  /* tests: force_stall makes every search that needs a second round cross the bound */
  a.round_limit = ctx->knobs.force_stall == 1 ? 1 : BATCH_ROUNDS_PER_VERTEX * n + BATCH_ROUNDS_SLACK;
  memset(info, 0, sizeof *info);
  info->slots = slots;
  info->rows = rows;
  // 2. launch by launch: rows sources each, read back, handed to the sink in order
  for (uint32_t first = 0; first < count; first += rows) {
    const uint32_t c = count - first < rows ? count - first : rows;
    DS_CUDA_TRY(cudaMemcpyAsync(b.d_sources, sources + first, 4ull * c, cudaMemcpyHostToDevice, ctx->stream));
    DS_CUDA_TRY(cudaMemsetAsync(b.d_next, 0, sizeof(uint32_t), ctx->stream));
    DS_CUDA_TRY(cudaMemsetAsync(b.d_error, 0, sizeof(batch_error), ctx->stream));
    /* a row no search wrote fails its checks instead of passing with the last launch's distances */
    DS_CUDA_TRY(cudaMemsetAsync(b.d_rows, BATCH_POISON_BYTE, 4 * n * c, ctx->stream));
    a.count = c;
    DS_CUDA_TRY(cudaEventRecord(ctx->ev_start, ctx->stream));
    batch_kernel<W><<<c < slots ? c : slots, BATCH_BLOCK, 0, ctx->stream>>>(a);
    DS_LAUNCH_CHECK("batch_kernel");
    DS_CUDA_TRY(cudaEventRecord(ctx->ev_stop, ctx->stream));
    batch_error e;
    DS_CUDA_TRY(cudaMemcpyAsync(&e, b.d_error, sizeof e, cudaMemcpyDeviceToHost, ctx->stream));
    DS_CUDA_TRY(cudaMemcpyAsync(b.stats.get(), b.d_stats, sizeof(unsigned long long) * BATCH_STATS * c,
                                cudaMemcpyDeviceToHost, ctx->stream));
    DS_CUDA_TRY(cudaStreamSynchronize(ctx->stream));
    float ms = 0.0f;
    DS_CUDA_TRY(cudaEventElapsedTime(&ms, ctx->ev_start, ctx->ev_stop));
    info->time_ms += ms;
    ++info->launches;
    if (e.kind != BATCH_OK)
      return ds_error_set(err, DS_ERR_DEVICE,
                          "the GPU search stalled: batched search from source %u: %s after %llu rounds "
                          "(bound %llu); the batch was stopped",
                          sources[first + e.index] + (uint32_t)ctx->index_base,
                          e.kind == BATCH_ROUND_BOUND ? "its rounds passed their bound" : "a queue outgrew the graph",
                          (unsigned long long)e.rounds, (unsigned long long)a.round_limit);
    // 3. each row, a piece of rows at a time: what it reached, a distance that did not fit, the width asked for
    for (uint32_t j = 0; j < c; ++j) {
      if (j % piece == 0) {
        const uint32_t k = c - j < piece ? c - j : piece;
        DS_CUDA_TRY(
            cudaMemcpyAsync(b.rows.get(), b.d_rows + n * j, 4 * n * k, cudaMemcpyDeviceToHost, ctx->stream));
        DS_CUDA_TRY(cudaStreamSynchronize(ctx->stream));
      }
      const uint32_t *row = b.rows.get() + n * (j % piece);
      ds_sssp_result res;
      memset(&res, 0, sizeof res);
      for (uint64_t v = 0; v < n; ++v) {
        if (row[v] == T::INF_BITS) continue;
        if (row[v] == T::SAT_BITS) {
          ds_graph shape;
          memset(&shape, 0, sizeof shape);
          shape.weight_type = ctx->wt;
          shape.index_base = ctx->index_base;
          return ds_dist_range_error(&shape, (uint32_t)v, err);
        }
        ++res.reached;
      }
      res.dist = (void *)row;
      if (wide) {
        uint64_t *w64 = b.wide.get();
        for (uint64_t v = 0; v < n; ++v) w64[v] = row[v] == DS_INF_U32 ? DS_INF_U64 : row[v];
        res.dist = w64;
      }
      res.rounds = b.stats[(size_t)BATCH_STATS * j];
      res.edges_relaxed = b.stats[(size_t)BATCH_STATS * j + 1];
      res.reached_arcs = b.stats[(size_t)BATCH_STATS * j + 2];
      res.time_ms = ms / c; /* the launch's share: the searches ran together */
      DS_TRY(sink(user, first + j, &res, err));
    }
  }
  return DS_OK;
}

} // namespace

extern "C" ds_status ds_gpu_sssp_batch(ds_gpu_ctx *ctx, const uint32_t *sources, uint32_t count,
                                       const ds_sssp_params *params, ds_gpu_batch_sink sink, void *user,
                                       ds_gpu_batch_info *info, ds_error *err) {
  // 1. check arguments
  if (!ctx || !sources || !params || !sink || !info || count == 0)
    return ds_error_set(err, DS_ERR_ARG,
                        "ds_gpu_sssp_batch: ctx, sources, params, sink and info must not be NULL, count not 0");
  for (uint32_t i = 0; i < count; ++i)
    if (sources[i] >= ctx->n)
      return ds_error_set(err, DS_ERR_ARG, "source %u is out of range: the graph has %u vertices", sources[i], ctx->n);
  if (!(params->delta > 0 && params->delta < INFINITY))
    return ds_error_set(err, DS_ERR_ARG, "delta %g must be positive and finite", params->delta);
  if (params->dist_width == DS_DIST_WIDE && ctx->wt != DS_WEIGHT_U32)
    return ds_error_set(err, DS_ERR_ARG, "ds_gpu_sssp_batch: 64-bit distances need integer weights");
  ds_sssp_params p = *params;
  p.delta = ds_delta_normalize(ctx->wt, params->delta);
  DS_CUDA_TRY(cudaSetDevice(ctx->device));
  // 2. the searches
  return ctx->wt == DS_WEIGHT_F32 ? batch_run<float>(ctx, sources, count, &p, sink, user, info, err)
                                  : batch_run<uint32_t>(ctx, sources, count, &p, sink, user, info, err);
}
