/* deltasplit: single-source shortest paths, on the GPU or the CPU.
 *
 * Every engine of the sssp program: delta-stepping whose buckets are kept by
 * msplit's multisplit, Near-Far (Davidson et al., IPDPS 2014), bucketing by
 * radix sort, frontier Bellman-Ford (GPU), a binary-heap Dijkstra (the
 * oracle) and a parallel delta-stepping (CPU, OpenMP). Distances are exact
 * for integer weights; no reachable vertex is reported unreachable.
 *
 * Example (one source; the arrays allocated by the library):
 *   dsp_sssp_options opt;
 *   dsp_sssp_options_init(&opt);
 *   uint32_t source = 0;
 *   dsp_sssp_result r = {0};
 *   if (dsp_sssp(g, gpu, &source, 1, &opt, &r, &err) == DSP_OK)
 *     printf("vertex 5 is at %g\n", dsp_sssp_distance(&r, 5));
 *   dsp_sssp_result_free(&r, 1);
 *
 * To a target, stopping there, and its path:
 *   uint32_t target = 42, path[64], len = 0;
 *   opt.targets = &target;
 *   opt.n_targets = 1;
 *   if (dsp_sssp(g, NULL, &source, 1, &opt, &r, &err) == DSP_OK &&
 *       dsp_sssp_path(g, &r, target, path, 64, &len, &err) == DSP_OK && len > 0)
 *     printf("%u vertices, %g long\n", len, dsp_sssp_distance(&r, target));
 */
#ifndef DELTASPLIT_SSSP_H
#define DELTASPLIT_SSSP_H

#include <stddef.h>
#include <stdint.h>

#include "deltasplit/gpu.h"
#include "deltasplit/graph.h"
#include "deltasplit/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
  DSP_SSSP_AUTO = 0,         /* multisplit with a GPU context, cpu-delta without */
  DSP_SSSP_MULTISPLIT = 1,   /* GPU: delta-stepping, buckets kept by multisplit */
  DSP_SSSP_NEAR_FAR = 2,     /* GPU: Near-Far */
  DSP_SSSP_SORT = 3,         /* GPU: delta-stepping, buckets kept by radix sort */
  DSP_SSSP_BELLMAN_FORD = 4, /* GPU: frontier Bellman-Ford */
  DSP_SSSP_CPU_DELTA = 5,    /* CPU: parallel delta-stepping (OpenMP) */
  DSP_SSSP_DIJKSTRA = 6      /* CPU: binary-heap Dijkstra, the oracle */
} dsp_sssp_algo;

/* The --algo names: "auto", "multisplit", "near-far", "sort", "bellman-ford",
 * "cpu-delta", "dijkstra"; NULL for another value. */
const char *dsp_sssp_algo_name(dsp_sssp_algo a);

/* The width distances are stored in. */
typedef enum {
  DSP_WIDTH_AUTO = 0,    /* WIDE where a path of the graph could pass 2^32 - 3, else NATURAL
                            (what sssp does) */
  DSP_WIDTH_NATURAL = 1, /* the weight type: uint32_t or float */
  DSP_WIDTH_WIDE = 2     /* uint64_t; integer weights only */
} dsp_dist_width;

/* The type of a result's distances, and the value of an unreached vertex. */
typedef enum { DSP_DIST_U32 = 0, DSP_DIST_U64 = 1, DSP_DIST_F32 = 2 } dsp_dist_type;
#define DSP_INF_U32 UINT32_MAX /* unreached, DSP_DIST_U32 */
#define DSP_INF_U64 UINT64_MAX /* unreached, DSP_DIST_U64; DSP_DIST_F32: +INFINITY */
#define DSP_NO_PRED UINT32_MAX /* predecessor of the source and of unreached vertices */
#define DSP_MIN_BUCKETS 2u
#define DSP_MAX_BUCKETS 256u

/* Whether the searches of one dsp_sssp call run batched: one launch in which
 * each thread block of the GPU runs a whole search of its own (Near-Far
 * delta-stepping; under an automatic delta at the CPU backend's width, since a
 * block's rounds are as cheap as a CPU team's), many at once. It pays where one search leaves most of
 * the GPU idle: graphs of few arcs per vertex (roads, grids, meshes), whose
 * searches are hundreds of short rounds. Batched searches give distances only:
 * with predecessors or targets the searches run one after another. */
typedef enum {
  DSP_BATCH_AUTO = 0, /* batched for 8 sources or more of a GPU algorithm on a graph of fewer than
                         8 arcs per vertex and at most 2^22 vertices (sssp --batch auto) */
  DSP_BATCH_ON = 1,   /* batched for any GPU algorithm's sources, one source included */
  DSP_BATCH_OFF = 2   /* one after another */
} dsp_sssp_batch;

typedef struct {
  dsp_sssp_algo algo;        /* DSP_SSSP_AUTO */
  double delta;              /* bucket width > 0; 0 (the default): each backend's rule from the
                                graph, as sssp --delta auto (integer weights round it up) */
  uint32_t buckets;          /* multisplit and sort, DSP_MIN_BUCKETS..DSP_MAX_BUCKETS; 0 (the
                                default): from the largest weight over delta, as --buckets auto */
  int predecessors;          /* 1: fill pred with a shortest-path tree; 0 */
  int validate;              /* 1: check every result with the independent validator and against
                                Dijkstra (O(m + n log n) each); DSP_ERR_VALIDATION names the
                                first wrong vertex; 0 */
  int threads;               /* CPU threads; 0: OpenMP's default */
  dsp_dist_width width;      /* DSP_WIDTH_AUTO */
  int cpu_fallback;          /* a GPU algorithm without a GPU context runs as cpu-delta, as sssp
                                does without a GPU (result.algo says so): 1; 0: DSP_ERR_DEVICE
                                (DSP_ERR_NO_CUDA in a build without CUDA) */
  const uint32_t *targets;   /* n_targets 0-based vertices, or NULL (the default): each search
                                may stop once all of their distances are final (Dijkstra,
                                cpu-delta and near-far do, result.stopped_early says so;
                                multisplit, sort and Bellman-Ford search to the end).
                                Predecessors are then filled whatever `predecessors` says,
                                for dsp_sssp_path; only the targets' and their paths'
                                distances are sure to be final, and validate checks those
                                (against Dijkstra, and each path arc by arc) */
  uint32_t n_targets;
  dsp_sssp_batch batch;      /* DSP_BATCH_AUTO; applies with a GPU context only */
} dsp_sssp_options;

void dsp_sssp_options_init(dsp_sssp_options *opt);

/* One search's result. dist and pred are the caller's arrays (n values each)
 * or, where NULL when the search starts, allocated by the library and freed by
 * dsp_sssp_result_free; the counters are the search's alone. */
typedef struct {
  void *dist;               /* [in,out] n distances of dist_type (dsp_sssp_dist_bytes each) */
  uint32_t *pred;           /* [in,out] n predecessors (with opt->predecessors; else untouched) */
  uint32_t source;          /* [out] */
  dsp_dist_type dist_type;  /* [out] */
  dsp_sssp_algo algo;       /* [out] the algorithm that ran (cpu-delta where a GPU one fell back) */
  double delta;             /* [out] the bucket width used (0: Dijkstra, Bellman-Ford) */
  uint32_t buckets;         /* [out] the buckets used (multisplit, sort; else 0) */
  double time_ms;           /* [out] the search alone (CUDA events on the GPU) */
  uint64_t rounds;          /* [out] relaxation rounds (heap pops for Dijkstra) */
  uint64_t edges_relaxed;   /* [out] arcs relaxed, counting repeats */
  uint64_t reached_arcs;    /* [out] out-arcs of reached vertices (the TEPS numerator) */
  uint32_t reached;         /* [out] vertices with a finite distance */
  int stopped_early;        /* [out] 1: the search stopped at opt->targets (see there) */
  int batched;              /* [out] 1: it ran batched with the call's other sources (dsp_sssp_batch):
                               time_ms is then its launch's time over its searches, algo the
                               algorithm asked for, and delta the batched searches' width */
  unsigned owned;           /* library use: which arrays dsp_sssp_result_free frees */
} dsp_sssp_result;

/* Bytes of one distance of g under opt (4 or 8), for caller-allocated dist
 * arrays; 0 for a NULL argument or a wide width on float weights. */
size_t dsp_sssp_dist_bytes(const dsp_graph *g, const dsp_sssp_options *opt);

/* Shortest paths from each of count sources, into results[0..count-1].
 * [in]  g        the graph.
 * [in]  gpu      a context over g opened with DSP_ENGINE_SSSP, or NULL (CPU algorithms,
 *                or cpu_fallback).
 * [in]  sources  count 0-based vertex ids.
 * [in]  opt      NULL: dsp_sssp_options_init's.
 * [in,out] results  count results (dist and pred: the caller's arrays or NULL).
 * The searches run one after another, or together in one launch where
 * opt->batch says so (dsp_sssp_batch; result.batched tells which).
 * Synchronous (gpu.h). Each result's arrays are complete when it returns DSP_OK;
 * on failure, the results of the sources before the failing one are complete,
 * the failing one's arrays that the library allocated are freed, and the
 * results after it are untouched. A result starts zeroed (= {0}) with the
 * caller's arrays, if any, in dist and pred.
 * Errors: DSP_ERR_ARG (NULL g, sources or results, count 0, a source or a
 * target out of range, targets NULL with n_targets > 0, delta not positive and finite, buckets out of range,
 * batch not a dsp_sssp_batch, a wide width on
 * float weights, gpu over another graph or without the SSSP engine, an unknown
 * algorithm), DSP_ERR_DEVICE (a GPU algorithm without gpu and cpu_fallback 0; a
 * CUDA failure; a GPU search that stalled), DSP_ERR_NO_CUDA, DSP_ERR_RANGE
 * (a distance beyond its type, naming the vertex), DSP_ERR_VALIDATION,
 * DSP_ERR_NOMEM. */
dsp_status dsp_sssp(const dsp_graph *g, dsp_gpu *gpu, const uint32_t *sources, uint32_t count,
                    const dsp_sssp_options *opt, dsp_sssp_result *results, dsp_error *err);

/* Frees the arrays the library allocated in results[0..count-1] and sets them
 * to NULL; the caller's arrays are left alone. */
void dsp_sssp_result_free(dsp_sssp_result *results, uint32_t count);

/* The shortest path from r's source to target, read from r's predecessors
 * (r from dsp_sssp with predecessors or targets).
 * [in]  g       the graph r was computed on.
 * [in]  r       a complete result, pred filled.
 * [in]  target  0-based; where r stopped early, one of its targets (or a
 *               vertex on a target's path), else any vertex.
 * [out] path    cap vertices of room, or NULL to learn the length first.
 * [out] len     the path's vertices, source first and target last; 0 where
 *               target is unreachable, 1 where it is the source.
 * Errors: DSP_ERR_ARG (NULL g, r or len; r without predecessors; target out
 * of range; cap below the length), DSP_ERR_VALIDATION (the predecessors do
 * not lead back to the source: not a result of g). O(path length). */
dsp_status dsp_sssp_path(const dsp_graph *g, const dsp_sssp_result *r, uint32_t target,
                         uint32_t *path, uint32_t cap, uint32_t *len, dsp_error *err);

/* Distance of vertex v in r as a double (+INFINITY where unreached); exact for
 * integers below 2^53. */
double dsp_sssp_distance(const dsp_sssp_result *r, uint32_t v);

#ifdef __cplusplus
}
#endif
#endif /* DELTASPLIT_SSSP_H */
