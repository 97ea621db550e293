/* deltasplit GPU SSSP: types and helpers shared by every algorithm.
 *
 * Distances live in one 64-bit word per vertex: the distance's 32 bits in the
 * high half, the predecessor in the low half. One 64-bit atomicMin then
 * updates both together, so the predecessor always belongs to the distance
 * (no final repair pass), and since a vertex only becomes a parent after its
 * own distance was set, the predecessor graph is acyclic even with zero
 * weights. Float distances are stored as their bit patterns: for
 * non-negative floats (and +inf) the unsigned order of the bits is the order
 * of the values, so the same integer atomics serve both weight types.
 */
#ifndef DS_GPU_COMMON_CUH
#define DS_GPU_COMMON_CUH

#include <cuda_runtime.h>
#include <stdint.h>

#include <msplit/multisplit.cuh> /* msplit::tuning::MULTISPLIT_MAX_FAST_BUCKETS */

#include "ds/cuda_try.h"
#include "gpu_sssp.h"
#include "round_trace.cuh"
#include "tuning.cuh"

namespace dsgpu {

using namespace tuning;

constexpr int WARP_SIZE = 32;
constexpr uint32_t NO_PRED = DS_NO_PRED;
/* The bucket engine's largest m: the program's limit, which the grid-wide
 * multisplit it splits with must reach. */
constexpr uint32_t MAX_BUCKETS = DS_SSSP_MAX_BUCKETS;
static_assert(MAX_BUCKETS <= msplit::tuning::MULTISPLIT_MAX_FAST_BUCKETS,
              "the grid multisplit handles at most MULTISPLIT_MAX_FAST_BUCKETS buckets");
static_assert(MAX_BUCKETS <= (uint32_t)RELAX_BLOCK, "the bookkeeping and the sort's offsets: a thread per bucket");

/* Weight traits: saturating addition on distance bits, bucket arithmetic. */
template <typename W> struct weight_traits;

template <> struct weight_traits<uint32_t> {
  using acc_t = uint64_t; /* split distances and bucket bases */
  static constexpr uint32_t INF_BITS = DS_INF_U32;
  /* a sum beyond DS_DIST_MAX_U32: kept apart from unreached, and reported */
  static constexpr uint32_t SAT_BITS = DS_INF_U32 - 1u;
  static __device__ __forceinline__ uint32_t weight(uint32_t bits) { return bits; } /* of an arc */
  static __device__ __forceinline__ uint32_t add(uint32_t d, uint32_t w) {
    uint64_t s = (uint64_t)d + w; /* saturates instead of wrapping */
    return s >= SAT_BITS ? SAT_BITS : (uint32_t)s;
  }
  static __host__ __device__ __forceinline__ bool below(uint32_t d, acc_t s) { return d < s; }
  static __host__ __device__ __forceinline__ uint64_t bucket(uint32_t d, acc_t base, acc_t delta) {
    return d < base ? 0 : ((uint64_t)d - base) / delta;
  }
  static __host__ __device__ __forceinline__ acc_t floor_to(uint32_t d, acc_t delta) {
    return (uint64_t)d - (uint64_t)d % delta;
  }
  static __host__ __device__ __forceinline__ double value(uint32_t d) { return (double)d; }
  static __host__ __device__ __forceinline__ acc_t acc_max() { return UINT64_MAX; }
  /* d + w in the split's type (no overflow: d < 2^32) */
  static __host__ __device__ __forceinline__ acc_t plus(uint32_t d, acc_t w) { return (uint64_t)d + w; }
};

template <> struct weight_traits<float> {
  using acc_t = double;
  static constexpr uint32_t INF_BITS = 0x7f800000u; /* +inf */
  /* FLT_MAX: where a sum that overflowed stays, kept apart from unreached (+inf) */
  static constexpr uint32_t SAT_BITS = 0x7f7fffffu;
  static __device__ __forceinline__ float weight(uint32_t bits) { return __uint_as_float(bits); }
  static __device__ __forceinline__ uint32_t add(uint32_t d, float w) {
    return __float_as_uint(fminf(__fadd_rn(__uint_as_float(d), w), __uint_as_float(SAT_BITS)));
  }
  static __host__ __device__ __forceinline__ float as_float(uint32_t d) {
#ifdef __CUDA_ARCH__
    return __uint_as_float(d);
#else
    float f;
    __builtin_memcpy(&f, &d, sizeof f);
    return f;
#endif
  }
  static __host__ __device__ __forceinline__ bool below(uint32_t d, acc_t s) {
    return (double)as_float(d) < s;
  }
  static __host__ __device__ __forceinline__ uint64_t bucket(uint32_t d, acc_t base, acc_t delta) {
    double q = ((double)as_float(d) - base) / delta;
    if (!(q > 0.0)) return 0;               /* also NaN-safe */
    return q >= 1.8e19 ? UINT64_MAX : (uint64_t)q;
  }
  static __host__ __device__ __forceinline__ acc_t floor_to(uint32_t d, acc_t delta) {
    double f = (double)as_float(d);
    double b = floor(f / delta) * delta;
    return b > f ? f : b;
  }
  static __host__ __device__ __forceinline__ double value(uint32_t d) { return (double)as_float(d); }
  static __host__ __device__ __forceinline__ acc_t acc_max() { return HUGE_VAL; }
  static __host__ __device__ __forceinline__ acc_t plus(uint32_t d, acc_t w) { return (double)as_float(d) + w; }
};

__host__ __device__ __forceinline__ uint64_t pack(uint32_t dist_bits, uint32_t pred) {
  return ((uint64_t)dist_bits << 32) | pred;
}
__host__ __device__ __forceinline__ uint32_t dist_of(uint64_t p) { return (uint32_t)(p >> 32); }
__host__ __device__ __forceinline__ uint32_t pred_of(uint64_t p) { return (uint32_t)p; }

/* The graph on the device. */
template <typename W> struct dev_graph {
  uint32_t n;
  uint64_t m;
  const uint64_t *row;
  /* arc e: (target, weight bits) side by side, so that a scattered arc costs
     one sector request instead of two (relax_frontier.cuh) */
  const uint2 *arc;
};

/* Per-search vertex arrays, allocated once per context. */
struct dev_vertex_state {
  unsigned long long *dist; /* packed (dist bits, pred) */
  uint32_t *done;           /* dist bits at which the vertex was last expanded */
  uint32_t *stamp;          /* dedupe stamp for queue pushes */
  uint32_t *stamp2;         /* second stamp (Near-Far's far pile) */
};

/* Counters the search accumulates on the device. */
struct dev_counters {
  unsigned long long edges_relaxed;
};

/* How the persistent kernels run their rounds: the context's options
 * (ds_gpu_options, defaults in tuning.cuh); knobs_for (round_schedule.cuh)
 * fits the team to a launch. */
struct block_wait;

struct round_knobs {
  uint32_t solo_max;    /* frontiers up to this size: solo rounds, block 0 alone (0: never) */
  uint32_t team_max;    /* up to this size: team rounds (>= solo_max) */
  uint32_t team_blocks; /* the team: blocks 0..team_blocks - 1 (1: none) */
  int solo_local;       /* solo rounds keep their counters and frontier in shared memory */
  int rank_blocks;      /* blocks ranked by SM (barriers.cuh: stretch_sync::init) */
  int dyn_tiles;        /* how frontier tiles are dealt to blocks (relax_frontier.cuh: tile_counter) */
  uint32_t min_tile;    /* smallest tile when a small frontier is spread over the blocks */
  uint32_t huge_degree; /* vertices of at least this degree go to the huge list */
  /* local steps of solo, team and grid rounds (relax_frontier.cuh) */
  uint32_t local_solo, local_team, local_grid;
  uint32_t local_order; /* 0, or k: local steps ordered by distance in windows of delta / k */
  uint32_t hub_order;   /* 0, or k: huge vertices expanded in windows of delta / k (huge_list.cuh) */
  uint32_t hub_mid;     /* and so are those of at least this degree (UINT32_MAX: none; two-block build) */
  uint32_t huge_plain;  /* the huge degree of a search without hub order (Bellman-Ford) */
  uint32_t dense_min;   /* a grid round of at least this frontier is dense (UINT32_MAX: never;
                           frontier_queue.cuh: queue_pending) */
  unsigned long long stall_ns; /* a barrier wait longer than this gives up (barriers.cuh) */
  int force_stall;      /* tests: 1, one block never arrives at its first grid barrier; 2, the
                           team's last block lags behind every team barrier */
  struct block_wait *block_waits; /* where each block gave up (barriers.cuh) */
};

} // namespace dsgpu

/* The context (opaque in C). */
struct ds_gpu_ctx {
  int device;
  int num_sms;
  int blocks_per_sm; /* resident blocks per SM of the persistent kernels (cap) */
  uint32_t spill_limit; /* bucket engine: a phase ends early once its spill passes this (0: the
                           queue's room, ~2n; ds_gpu_options::spill_limit, to test that path) */
  int self_check;       /* fail a search whose done marks disagree with its distances
                           (ds_gpu_options::self_check; context.cu: finish_kernel) */
  dsgpu::round_knobs knobs;
  dsgpu::round_trace trace; /* per-round trace on the device, t == NULL: off */
  ds_gpu_trace *trace_out;  /* the caller's trace buffer (ds_gpu_options::trace) */
  uint32_t n;
  uint64_t m;
  ds_weight_type wt;
  int index_base; /* of the graph's file: vertex numbers in messages */
  uint64_t *d_row;
  uint2 *d_arc; /* (target, weight bits) of each arc (dev_graph) */
  dsgpu::dev_vertex_state vs;
  dsgpu::dev_counters *d_counters;
  uint32_t *d_dist_out; /* unpacked results */
  uint32_t *d_pred_out;
  unsigned long long *d_stats; /* reached, reached_arcs, marked off, saturated (STAT_*) */
  cudaStream_t stream;
  cudaEvent_t ev_start, ev_stop;
  unsigned long long *d_huge_word; /* HUGE_WORDS words: huge-list words, tile counters, least listed
                                       distances (rounds alternate; huge_list.cuh) */
  void *d_huge;                     /* huge_entry[2 * (arcs / huge_degree + 1)] */
  dsgpu::block_wait *d_block_waits; /* one per block of a persistent launch (barriers.cuh) */
  uint32_t max_blocks;              /* of a persistent launch: SMs x blocks per SM */
};

/* Algorithm entry points (one file each). They run on ctx->stream, time the
 * search with ctx's events and leave distances in ctx->vs.dist. Near-Far
 * stops once its n_targets targets (host array, or NULL) are settled, and says
 * so in res->stopped_early; the others search to the end. */
template <typename W>
ds_status ds_near_far_run(ds_gpu_ctx *ctx, uint32_t source, double delta, const uint32_t *targets,
                          uint32_t n_targets, ds_sssp_result *res, ds_error *err);
template <typename W>
ds_status ds_bellman_ford_run(ds_gpu_ctx *ctx, uint32_t source, ds_sssp_result *res,
                              ds_error *err);
template <typename W>
ds_status ds_multisplit_run(ds_gpu_ctx *ctx, uint32_t source, double delta, uint32_t buckets,
                            ds_sssp_result *res, ds_error *err);
template <typename W>
ds_status ds_sort_run(ds_gpu_ctx *ctx, uint32_t source, double delta, uint32_t buckets,
                      ds_sssp_result *res, ds_error *err);

/* Resets dist/done/stamps for a new search from `source` (context.cu). */
ds_status ds_gpu_reset(ds_gpu_ctx *ctx, uint32_t source, ds_error *err);

/* Copies the per-round trace of the search just run (`rounds` rounds) into the
 * caller's buffer, if tracing is on (context.cu). */
ds_status ds_gpu_trace_read(ds_gpu_ctx *ctx, uint32_t rounds, ds_error *err);

template <typename W> inline dsgpu::dev_graph<W> ds_dev_graph(const ds_gpu_ctx *ctx) {
  dsgpu::dev_graph<W> g;
  g.n = ctx->n;
  g.m = ctx->m;
  g.row = ctx->d_row;
  g.arc = ctx->d_arc;
  return g;
}

#endif /* DS_GPU_COMMON_CUH */
