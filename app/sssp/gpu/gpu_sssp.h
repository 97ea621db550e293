/* deltasplit GPU SSSP: C interface over the CUDA algorithms in app/sssp/gpu/.
 *
 * A context holds one graph on one device, uploaded once, so that many
 * sources and trials reuse it, and the options its searches run with. Built
 * without CUDA, every function returns DS_ERR_DEVICE (ds/device.h's
 * ds_device_count says why).
 */
#ifndef DS_GPU_SSSP_H
#define DS_GPU_SSSP_H

#include <stddef.h>

#include "sssp.h" /* the SSSP engines' shared contract (app/sssp/cpu) */

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ds_gpu_ctx ds_gpu_ctx;

/* The per-round trace of a Near-Far or Bellman-Ford search, for performance
 * work: the caller gives the buffer, every such search fills it. Record r is
 * 4 words: the GPU's %globaltimer (ns) at round r's start, its frontier size,
 * the blocks that ran it (0: the whole grid, 1: one block, k: a team of k) and
 * its huge-list word (vertices << 44 | arcs); the timer of record `rounds` is
 * the search's end. */
#define DS_GPU_TRACE_HUGE_SHIFT 44 /* huge-list word: vertices << 44 | arcs */

typedef struct {
  unsigned long long *records; /* [in] 4 * capacity words, caller-allocated */
  uint32_t capacity;           /* [in] records */
  uint32_t count;              /* [out] records filled by the last search (0: it had no trace) */
  uint32_t rounds;             /* [out] its rounds */
} ds_gpu_trace;

/* How the persistent kernels run (app/sssp/gpu/tuning.cuh says what each
 * default is and the measurement that chose it). For experiments and tests
 * only; the defaults are the measured best. */
typedef struct {
  int blocks_per_sm;      /* resident blocks per SM (0: by the graph's density) */
  uint32_t solo_max;      /* frontiers up to this size run on one block (0: never) */
  uint32_t team_blocks;   /* blocks of a team (1: no team) */
  uint32_t team_max;      /* frontiers up to this size run on the team (0: never) */
  int solo_local;         /* 0/1: one-block rounds keep their counters in shared memory */
  int rank_blocks;        /* 0/1: blocks ranked so the team spans distinct SMs */
  int dynamic_tiles;      /* 0 static, 1 by an atomic counter, 2 counter on large rounds */
  uint32_t min_tile;      /* smallest tile of a spread small frontier (1..256) */
  uint32_t huge_degree;   /* vertices of at least this degree go to the huge list
                             (0: by the graph, lower in hub order) */
  uint32_t local_solo;    /* local steps of one-block rounds (0..64) */
  uint32_t local_team;    /* of team rounds (0..64) */
  uint32_t local_grid;    /* of grid rounds (0..64) */
  uint32_t local_order;   /* k >= 2: a local step expands only the vertices within
                             delta / k of its smallest distance, the rest wait; 1 off;
                             0 by the graph's density (64 from 6 arcs per vertex) */
  uint32_t hub_order;     /* k >= 2: a round expands the vertices it lists as huge only
                             within delta / k of the least listed distance, the rest
                             wait for the next round; 1 off; 0 by the graph (on where
                             vertices of 256 arcs or more hold a quarter of the arcs);
                             two-block build only (blocks_per_sm 2) */
  uint32_t hub_degree;    /* in hub order, the vertices of at least this degree below the
                             huge degree wait too, unless within delta / k of the least
                             distance queued for the round; 0 by the graph */
  uint32_t dense_div;     /* k >= 2: a grid round of any engine whose
                             frontier holds n / k vertices or more queues nothing for
                             the next round; a pass over the vertices after it finds
                             them (two-block build only); 1 off; 0 the default */
  uint32_t spill_limit;   /* bucket engine: a phase ends once its spill passes this
                             (0: the queue's room); small values test that path */
  int self_check;         /* 0/1: fail a search whose done marks disagree with its
                             final distances (a bookkeeping self-test) */
  uint32_t stall_ms;      /* a barrier wait of the search kernels that lasts longer
                             gives up, and the search fails with "the GPU search
                             stalled" (DS_ERR_DEVICE); 0: the default, 10 s */
  int force_stall;        /* tests: 1, one block never arrives at its first grid
                             barrier (the stall's path; a batched search stops
                             after one round); 2, the team's last block
                             comes 0.2 ms late out of every team barrier (no block
                             may outrun what the others still read) */
  ds_gpu_trace *trace;    /* per-round trace (NULL: none); kept by the context */
} ds_gpu_options;

/* The measured defaults. */
void ds_gpu_options_default(ds_gpu_options *opt);

/* Upload g to `device`, with options `opt` (NULL: ds_gpu_options_default).
 * Refuses (DS_ERR_DEVICE, message with the bytes needed and available) a
 * graph that does not fit, before allocating anything; DS_ERR_ARG names an
 * option out of its range. */
ds_status ds_gpu_open(int device, const ds_graph *g, const ds_gpu_options *opt, ds_gpu_ctx **ctx,
                      ds_error *err);

/* Run one GPU algorithm from `source` (0-based). res->dist / res->pred are
 * host arrays the caller allocated. params->delta is normalised first
 * (ds_delta_normalize); params->buckets must be in DS_SSSP_MIN_BUCKETS..MAX. */
ds_status ds_gpu_sssp(ds_gpu_ctx *ctx, ds_algo algo, uint32_t source,
                      const ds_sssp_params *params, ds_sssp_result *res, ds_error *err);

/* Many sources at once (batch_sssp.cu): one launch in which each thread
 * block runs a whole search of its own, for the graphs where one search
 * leaves most SMs idle. Distances only (no predecessors, no targets: the
 * searches run to the end); params->delta is normalised first, the other
 * fields but dist_width are not read. The searches that run at once (slots)
 * follow the occupancy and free device memory; a batch larger than a launch
 * holds runs in several launches, never refused. Each result goes to sink, in
 * the order of `sources`, with res->dist the source's distances at
 * params->dist_width (valid during the call only), rounds, edges relaxed,
 * reached, reached_arcs and time_ms (its launch's time over its searches); a
 * sink's error stops the batch and is returned. Errors: DS_ERR_ARG, DS_ERR_DEVICE
 * (a CUDA failure; one search that would not fit; "the GPU search stalled"
 * where a search crossed its bound on rounds), DS_ERR_RANGE (a distance beyond
 * 32 bits), DS_ERR_NOMEM. force_stall 1 (ds_gpu_options) bounds every search
 * to one round, to test the stall's path. Synchronous. */
typedef ds_status (*ds_gpu_batch_sink)(void *user, uint32_t index, const ds_sssp_result *res, ds_error *err);

typedef struct {
  double time_ms;    /* [out] the search launches alone (CUDA events), all of them */
  uint32_t slots;    /* [out] searches that ran at once */
  uint32_t rows;     /* [out] sources a launch took */
  uint32_t launches; /* [out] */
} ds_gpu_batch_info;

ds_status ds_gpu_sssp_batch(ds_gpu_ctx *ctx, const uint32_t *sources, uint32_t count,
                            const ds_sssp_params *params, ds_gpu_batch_sink sink, void *user,
                            ds_gpu_batch_info *info, ds_error *err);

/* Whether `count` searches on g should run batched: where one search leaves
 * most of the GPU idle, the low-degree graphs (roads, grids, meshes; under
 * DS_GPU_BATCH_MAX_DEGREE arcs per vertex) whose searches are hundreds of
 * rounds over frontiers of a few hundred vertices, a block's worth, so that a
 * block a search loses little per search and gains the other SMs. Denser
 * graphs have frontiers that fill the GPU, so one block a search would be
 * slower than back to back; and above DS_GPU_BATCH_MAX_VERTICES the per-search
 * scratch (24 bytes a vertex) leaves few searches room at once, and one search
 * spends long stretches on frontiers larger than a block. A block's search
 * takes several times as long as the whole GPU's, so the batch pays only once
 * that many run beside each other: DS_GPU_BATCH_MIN_SOURCES, an estimate from
 * the engines' round costs that a measurement on the H100 has yet to replace. */
#define DS_GPU_BATCH_MAX_DEGREE 8.0
#define DS_GPU_BATCH_MAX_VERTICES (1u << 22)
#define DS_GPU_BATCH_MIN_SOURCES 8u
static inline int ds_gpu_batch_pays(const ds_graph *g, uint32_t count) {
  return count >= DS_GPU_BATCH_MIN_SOURCES && g->n > 0 && g->n <= DS_GPU_BATCH_MAX_VERTICES &&
         (double)g->m < DS_GPU_BATCH_MAX_DEGREE * (double)g->n;
}

/* The batched searches' bucket width under an automatic delta: cpu-delta's
 * rule (ds_delta_auto_cpu), not the GPU engines'. A block's search pays a
 * block barrier a round, as a CPU team pays its barrier, where one search on
 * the whole GPU pays a grid's; and the batch is bound by the arcs all its
 * searches relax, which wide buckets multiply. H200, near-far, 512 sources,
 * searches a second at the GPU rule's width / at this one (arcs relaxed per
 * reached arc): NY 2,848 (8.0) / 16,217 (1.3) at 4,000; a road-like graph of
 * 1.0M vertices 627 (9.8) / 3,883 (1.2) at 4,005; geo 1M 2,544 (1.37) / 2,873
 * (1.10) at 5,000. The best of a sweep over 1,000-64,000 was this width on all
 * three (NY 13,465 at 1,000: the rounds grow faster than the arcs fall). */
static inline double ds_gpu_batch_delta_auto(const ds_graph *g) { return ds_delta_auto_cpu(g); }

void ds_gpu_close(ds_gpu_ctx *ctx);

#ifdef __cplusplus
}
#endif
#endif /* DS_GPU_SSSP_H */
