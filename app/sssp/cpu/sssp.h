/* deltasplit SSSP: the algorithms, their parameters and results.
 *
 * Every algorithm (CPU and GPU) fills a ds_sssp_result whose arrays the
 * caller allocates: dist (n distances of the width params->dist_width asks
 * for, see ds_dist_width) and pred (n values, or NULL when predecessors are
 * not wanted; DS_NO_PRED for the source and for unreached vertices). Vertex
 * ids here are 0-based; only the CLI and output convert to the file's
 * numbering.
 *
 * No reachable vertex is ever reported unreachable. A distance that does not
 * fit the width asked for (an integer path of 2^32-2 or more in 32 bits, a
 * float sum beyond FLT_MAX) makes the search fail with DS_ERR_RANGE, naming
 * the vertex; ds_sssp_dist_width tells, before a search, which width holds
 * every distance of a graph.
 */
#ifndef DS_SSSP_H
#define DS_SSSP_H

#include <stddef.h>
#include <stdint.h>

#include "ds/graph.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
  DS_ALGO_DIJKSTRA = 0,    /* CPU, binary heap: the oracle */
  DS_ALGO_CPU_DELTA = 1,   /* CPU, parallel delta-stepping (OpenMP) */
  DS_ALGO_NEAR_FAR = 2,    /* GPU, Davidson et al. 2014 */
  DS_ALGO_MULTISPLIT = 3,  /* GPU, delta-stepping with buckets kept by multisplit */
  DS_ALGO_SORT = 4,        /* GPU, delta-stepping with buckets kept by radix sort */
  DS_ALGO_BELLMAN_FORD = 5,/* GPU, frontier Bellman-Ford */
  DS_ALGO_COUNT = 6
} ds_algo;

/* Short names used by --algo: "dijkstra", "cpu-delta", "near-far",
 * "multisplit", "sort", "bellman-ford". */
const char *ds_algo_name(ds_algo a);
int ds_algo_is_gpu(ds_algo a);
/* Whether the algorithm's search depends on delta: not Dijkstra nor Bellman-Ford. */
int ds_algo_uses_delta(ds_algo a);

/* How distances are stored in ds_sssp_result.dist.
 * DS_DIST_NATURAL: the weight type. Integer weights: uint32_t, DS_INF_U32 for
 *   unreached, so a distance must be at most DS_DIST_MAX_U32. Float weights:
 *   float, +INFINITY for unreached, so a distance must be at most FLT_MAX.
 * DS_DIST_WIDE: integer weights only: uint64_t, DS_INF_U64 for unreached;
 *   every simple path of a graph of uint32_t ids and weights fits (below
 *   2^64 - 2^32). The CPU algorithms compute in 64 bits then; the GPU
 *   algorithms compute in 32 bits and widen, so they fail with DS_ERR_RANGE
 *   where a distance exceeds DS_DIST_MAX_U32. */
typedef enum { DS_DIST_NATURAL = 0, DS_DIST_WIDE = 1 } ds_dist_width;

#define DS_INF_U32 UINT32_MAX /* 32-bit distance of an unreached vertex */
#define DS_NO_PRED UINT32_MAX /* predecessor of the source and of unreached vertices */
#define DS_INF_U64 UINT64_MAX             /* wide distance of an unreached vertex */
#define DS_DIST_MAX_U32 (DS_INF_U32 - 2u) /* the largest 32-bit distance; 2^32-2 marks
                                            a sum that did not fit */

/* Bytes of one distance of g at width w (4 or 8). */
size_t ds_dist_size(const ds_graph *g, ds_dist_width w);

/* One distance of a result array, whatever its type: the integer (i) or the
 * float as a double (f), and whether it is the unreached value (inf). */
typedef struct {
  int inf;
  uint64_t i;
  double f;
} ds_dist_value;

/* Entry v of dist, an array of float distances (is_float) or of integer ones
 * at width w. */
ds_dist_value ds_dist_read(const void *dist, int is_float, ds_dist_width w, uint32_t v);

/* The validators' arithmetic on such values, for float (is_float) or integer
 * weights; tol: the relative tolerance of float comparisons.
 *   ds_dist_plus:     d + weights[arc], exactly (an integer sum that overflows is inf)
 *   ds_dist_tight:    finite and dv == s (within tol)
 *   ds_dist_feasible: dv <= s (within tol; anything is below inf)
 *   ds_dist_format:   "inf", the float to 9 digits, or the integer */
ds_dist_value ds_dist_plus(ds_dist_value d, const void *weights, int is_float, uint64_t arc);
int ds_dist_tight(ds_dist_value dv, ds_dist_value s, int is_float, double tol);
int ds_dist_feasible(ds_dist_value dv, ds_dist_value s, int is_float, double tol);
void ds_dist_format(ds_dist_value d, int is_float, char *buf, size_t len);

/* The width that holds every distance of g from any source, from a bound on
 * the length of a simple path: the sum over vertices of their heaviest
 * out-arc. DS_DIST_WIDE for integer weights when that bound exceeds
 * DS_DIST_MAX_U32, DS_DIST_NATURAL otherwise (float graphs always: their
 * searches fail with DS_ERR_RANGE if a sum overflows). O(m). */
ds_dist_width ds_sssp_dist_width(const ds_graph *g);

/* The bucket counts of DS_ALGO_MULTISPLIT and DS_ALGO_SORT. The largest is
 * the largest m of the msplit library's grid-wide multisplit, which the GPU
 * bucket engine runs (a static_assert in app/sssp/gpu/gpu_common.cuh ties them). */
#define DS_SSSP_MIN_BUCKETS 2u
#define DS_SSSP_MAX_BUCKETS 256u

typedef struct {
  double delta;       /* bucket width (> 0); integer weights round it up (ds_delta_normalize) */
  uint32_t buckets;   /* m for DS_ALGO_MULTISPLIT / DS_ALGO_SORT (DS_SSSP_MIN_BUCKETS..MAX) */
  int want_pred;      /* fill pred */
  int threads;        /* CPU threads; 0 = OpenMP default */
  ds_dist_width dist_width; /* of res->dist; DS_DIST_WIDE needs integer weights */
  size_t cpu_fuse_limit;    /* cpu-delta's bucket fusion: a thread relaxes its own entries of
                               a sub-bucket of the current bucket while fewer than this; 0 =
                               the default, 1 = no fusion (tests and measurements) */
  size_t cpu_lone_limit;    /* cpu-delta: a thread that held a whole small frontier goes on
                               alone into its next sub-bucket while it holds fewer entries of
                               it than this; 0 = the default, 1 = never */
  size_t cpu_heavy_arcs;    /* cpu-delta: a vertex of more arcs is relaxed in pieces by the
                               team; 0 = the default, SIZE_MAX = never */
  int cpu_prefetch;         /* cpu-delta: arcs ahead whose head's distance is prefetched;
                               0 = the default, negative = none */
  const uint32_t *targets;  /* n_targets vertices (0-based, < n) the search may stop at, or NULL:
                               the CPU algorithms and near-far stop once every target's
                               distance is final (ds_sssp_result.stopped_early); multisplit,
                               sort and bellman-ford search to the end */
  uint32_t n_targets;
} ds_sssp_params;

typedef struct {
  void *dist;              /* [out] caller-allocated, n values */
  uint32_t *pred;          /* [out] caller-allocated, n values, or NULL */
  double time_ms;          /* the search alone (CUDA events on the GPU) */
  uint64_t rounds;         /* relaxation rounds (or heap pops for Dijkstra) */
  uint64_t edges_relaxed;  /* arcs relaxed, counting repeats: the work */
  uint64_t reached_arcs;   /* out-arcs of reached vertices: the TEPS numerator */
  uint32_t reached;        /* vertices with finite distance */
  int stopped_early;       /* 1: the search stopped once params->targets were settled: only the
                              targets' distances, and those of the vertices on their
                              predecessor paths, are sure to be final; the others are upper
                              bounds (inf included) */
} ds_sssp_result;

/* Delta from the graph when the user says --delta auto (documented in README).
 * Rule: delta = DS_DELTA_AUTO_SCALE * mean_weight, or DS_DELTA_AUTO_SCALE_SPARSE
 * * mean_weight for a graph of fewer than DS_DELTA_AUTO_SPARSE_DEGREE arcs per
 * vertex (road networks). cuGraph's rule (32 * mean weight / mean out-degree)
 * was 1.2-1.5x slower than the best delta of a sweep on every graph swept on
 * the H100: a round costs microseconds of latency
 * there, so coarser buckets win; 64 * mean weight was within 5% of the best on
 * roads, grids, Kronecker and R-MAT. Since the GPU's rounds take local steps
 * on road networks, the roads' best delta grew to 256-8192 x mean weight (NY
 * 2.72 -> 2.22 ms at 256 x, COL 4.24 -> 3.53, BAY 2.04 -> 1.66), while the grid
 * (4 arcs per vertex) and the geometric graph (8) still want 64 x (1.3x and
 * 1.7x slower at 256 x: their vertices are reached by many paths, and wider
 * buckets relax more of them in vain); Kronecker and R-MAT are flat. 256 x,
 * not the roads' best, keeps several buckets on a road network.
 * A heavy tail of weights lifts the mean far above the typical weight; on the
 * graphs of DS_DELTA_AUTO_SPARSE_DEGREE to DS_DELTA_AUTO_MEDIAN_DEGREE arcs per
 * vertex, bound by their work, 64 x the mean then puts whole regions into one
 * bucket. Where the mean is DS_DELTA_AUTO_HEAVY_TAIL times the median or more,
 * the width is DS_DELTA_AUTO_SCALE_HEAVY x the median (weights over 1..2^24,
 * near-far, ms at 64 x mean / 32 x median / 64 x median: grid-1000 log-uniform
 * 60.9 / 13.7 / 17.6, bimodal 12.3 / 7.8 / 7.1; geo-1M log-uniform 244 / 27.8 /
 * 104, bimodal 67.5 / 9.7 / 8.5). The roads keep the mean: NY with bimodal
 * weights ran fastest there (2.25 ms, 5.0 at 256 x the median). Uniform weights
 * have the median at the mean: their width is unchanged.
 * Integer weights: rounded up, at least 1.
 * Float weights: at least DS_DELTA_AUTO_MIN_FLOAT. A graph without arcs, or
 * with only zero weights, gets 1. */
#define DS_DELTA_AUTO_SCALE 64.0
#define DS_DELTA_AUTO_SCALE_SPARSE 256.0
#define DS_DELTA_AUTO_SPARSE_DEGREE 3.0
#define DS_DELTA_AUTO_MIN_FLOAT 1e-6
#define DS_DELTA_AUTO_MEDIAN_DEGREE 8.0
#define DS_DELTA_AUTO_HEAVY_TAIL 4.0
#define DS_DELTA_AUTO_SCALE_HEAVY 32.0
double ds_delta_auto(const ds_graph *g);
/* ds_delta_auto's rule without its heavy-tail branch, from a mean weight the caller has (g's
 * n, m and weight type only: a graph held in parts, whose weights are uniform). */
double ds_delta_auto_of_mean(const ds_graph *g, double mean_weight);

/* Delta for the CPU backend (cpu-delta) under --delta auto, also beside GPU
 * algorithms in one run and where it runs in a GPU algorithm's place without a
 * GPU, with the same rounding, float floor and fallback of 1 as ds_delta_auto.
 * Below DS_DELTA_AUTO_CPU_DENSE_DEGREE arcs per vertex, on a graph that
 * grows like a plane (roads, grids, geometric graphs; see below)
 * DS_DELTA_AUTO_CPU_SCALE * mean_weight; from there on, and on graphs of fewer
 * arcs that grow like random ones (co-authorship, citations),
 * DS_DELTA_AUTO_CPU_DENSE_SCALE * mean_weight / (arcs per vertex), the
 * 1 / degree width of Meyer and Sanders' analysis. How a graph grows: from
 * DS_PROBES evenly strided vertices, a breadth-first ball of DS_PROBE_BALL
 * vertices at hop h has grown about 4 times by hop 2h on a plane and more than
 * DS_PROBE_GROWTH times on a random graph; most probes decide (a graph where
 * none reaches the ball counts as a plane, the rule before the probe). Arcs per
 * vertex alone do not tell them apart: R-MAT and uniform random graphs of 300K
 * vertices and 6.5 arcs per vertex (weights 1..255) took 278 and 283 ms at the
 * plane's width (1,024), 78 and 97 at the dense one (39), 1 thread, 2 shared
 * cores, process CPU time, fastest of 15 trials; GAP at its best delta 71 and 86. A CPU round costs a
 * barrier, microseconds less than a GPU round, so the work a wide bucket
 * wastes (vertices relaxed again and again) weighs more than on the GPU. The
 * 2-core sweep (docs/performance.md, "The CPU backends"): roads best at 4-8 x
 * the mean weight (NY 22 ms at the GPU's 256 x, 7.5 at 8 x), the grid flat
 * over 1-8 x, the geometric graph flat; Kronecker scale 18 and R-MAT (31 and
 * 15 arcs per vertex) best at 1-2 x mean / degree, 2.2x and 1.3x faster than
 * at 8 x (kron 18: 21-27 against 58 ms; far fewer arcs relaxed again). The
 * dense scale is 2, not the 2-core best of 1, since more cores favour fewer
 * rounds. Below the dense degree the weight is the smaller of the mean and the
 * median (ds_median_weight), so that a heavy tail of weights does not widen
 * the buckets: a 512 x 512 grid with log-uniform weights over 1..2^24 (mean
 * 1.68M, median 6,125) took 2,198 ms and 186M relaxations at 8 x the mean and
 * 37.5 ms at 8 x the median (2 threads; Dijkstra 48 ms); with 99 % of the
 * weights in 1..256 and 1 % in 2^23..2^24 (mean 126K, median 130), 355 against
 * 12.4 ms. Uniform weights have the median at the mean: nothing changes there. */
#define DS_DELTA_AUTO_CPU_SCALE 8.0
#define DS_DELTA_AUTO_CPU_DENSE_DEGREE 8.0
#define DS_DELTA_AUTO_CPU_DENSE_SCALE 2.0
#define DS_PROBES 8
#define DS_PROBE_BALL 256
#define DS_PROBE_GROWTH 32
double ds_delta_auto_cpu(const ds_graph *g);

/* The bucket width of each of the n algorithms of one run, in delta[i]: 0 for
 * those without buckets (Dijkstra, Bellman-Ford). given > 0 (--delta D): that
 * width, normalised (ds_delta_normalize), for every algorithm. given == 0
 * (--delta auto): each backend's rule, ds_delta_auto's width for the GPU
 * algorithms (one for them all, so that their speedups compare the same
 * buckets) and ds_delta_auto_cpu's for cpu-delta, also beside them; each rule
 * is computed once, only where followed. Returns the run's width, which
 * ds_buckets_auto follows: the GPU algorithms' where the list has one, else the
 * CPU rule's (also for a list without cpu-delta). */
double ds_delta_for_algos(const ds_graph *g, double given, const ds_algo *algos, int n,
                          double *delta);

/* The bucket count of multisplit and sort under --buckets auto: enough buckets
 * of width delta to hold the weights ahead of the current bucket, max weight /
 * delta rounded up to a power of two, clamped into [DS_BUCKETS_AUTO_MIN,
 * DS_BUCKETS_AUTO_MAX]. Measured on the H100 (kron20 and R-MAT with log-uniform
 * and bimodal weights over 1..2^24; deltas 256..2^20 against 4, 16, 64 and 256
 * buckets; docs/performance.md, "SSSP on the GPU"): at a fixed delta the bucket
 * count changes neither the rounds nor the arcs relaxed, only what the splits
 * cost: many buckets win where max weight / delta is large (kron20-log at delta
 * 256: 578 ms with 4 buckets, 378 with 64) and 16-64 are equal where it is
 * small; above 64 R-MAT lost 4-19 % (delta 65,536: 11.9 ms with 16 to 64, 14.2
 * with 256), one graph gained 16 % (kron20-bimodal at 256). Where delta spans
 * the weights, as under the automatic delta with uniform weights, the count
 * stays at the minimum, 10, measured on the suite's uniform weights. */
#define DS_BUCKETS_AUTO_MIN 10u
#define DS_BUCKETS_AUTO_MAX 64u
uint32_t ds_buckets_auto(const ds_graph *g, double delta);

/* The median arc weight of an evenly strided sample of DS_MEDIAN_SAMPLE arcs
 * (all of them on smaller graphs): 0 for a graph without arcs, -1 when the
 * sample cannot be allocated. */
#define DS_MEDIAN_SAMPLE 65536u
double ds_median_weight(const ds_graph *g);

/* The bucket width every algorithm (CPU and GPU) uses for a requested delta
 * (> 0): on integer weights (DS_WEIGHT_U32) rounded up to a whole number and
 * clamped into [1, UINT32_MAX] (no distance below the unreached marker is
 * UINT32_MAX or more apart, so every larger width buckets alike); on float
 * weights unchanged. ds_delta_auto's result is normalised already. */
double ds_delta_normalize(ds_weight_type wt, double delta);

/* ---- CPU algorithms (library ds_cpu) ------------------------------------ */

/* Relative tolerance for float distances: the validator's tightness and
 * feasibility checks and ds_sssp_compare. Integer distances are exact. */
#define DS_FLOAT_REL_TOL 1e-5

/* Parameters with their defaults (delta 1, buckets 10, no predecessors,
 * OpenMP's default thread count). */
void ds_sssp_params_default(ds_sssp_params *p);

/* Dijkstra with a binary heap (indexed, decrease-key): the oracle.
 * [in] g, source (0-based, < g->n), params (want_pred; the rest is unused).
 * [out] res->dist (n values of the weight type), res->pred when want_pred
 * and res->pred != NULL, and the counters: rounds = heap pops, edges_relaxed =
 * arcs scanned. Allocates O(n) scratch (64-bit keys).
 * Errors: DS_ERR_ARG (bad source, NULL arrays, a wide width on float
 * weights), DS_ERR_RANGE (a distance beyond the width, see ds_dist_width),
 * DS_ERR_NOMEM. */
ds_status ds_sssp_dijkstra(const ds_graph *g, uint32_t source, const ds_sssp_params *params,
                           ds_sssp_result *res, ds_error *err);

/* Parallel delta-stepping (OpenMP) with buckets of width params->delta kept
 * per thread over a sliding window, and atomic-min relaxation. Distances are
 * deterministic (the same as Dijkstra's); among equal-length shortest paths,
 * the predecessor may depend on thread timing. rounds = bucket phases
 * (including light re-relaxations of one bucket), edges_relaxed = arcs scanned.
 * params->threads > 0 sets the thread count. Errors as ds_sssp_dijkstra,
 * and DS_ERR_ARG for delta <= 0 or not finite. */
ds_status ds_sssp_cpu_delta(const ds_graph *g, uint32_t source, const ds_sssp_params *params,
                            ds_sssp_result *res, ds_error *err);

/* Runs a CPU algorithm (DS_ALGO_DIJKSTRA, DS_ALGO_CPU_DELTA); DS_ERR_ARG for
 * the GPU ones. */
ds_status ds_sssp_cpu(const ds_graph *g, ds_algo algo, uint32_t source,
                      const ds_sssp_params *params, ds_sssp_result *res, ds_error *err);

/* Independent validator of a result (does not use any search). dist holds n
 * distances of width w. Checks:
 *  1. dist[source] == 0, and no distance is negative or NaN;
 *  2. every arc u->v with dist[u] finite: dist[v] is finite and
 *     dist[v] <= dist[u] + w, the sum taken exactly (integers in 64 bits,
 *     floats in double; relative tolerance DS_FLOAT_REL_TOL for float);
 *  3. when pred != NULL: pred[source] and pred of unreached vertices are
 *     DS_NO_PRED; every other reached vertex v has an arc pred[v] -> v that is
 *     tight (dist[v] == dist[pred[v]] + w); the predecessors form a tree
 *     rooted at the source (no cycles, which zero weights would allow);
 *  4. every vertex with a finite distance is reached from the source along
 *     tight arcs (breadth-first search over tight arcs). With 2 this proves
 *     the distances are the shortest ones, with or without predecessors.
 * Returns DS_OK or DS_ERR_VALIDATION with a message naming the first bad
 * vertex (in the file's numbering, g->index_base) and, if bad_vertex is not
 * NULL, its 0-based id there. O(n + m) time, O(n) scratch (DS_ERR_NOMEM). */
ds_status ds_sssp_validate(const ds_graph *g, uint32_t source, const void *dist,
                           ds_dist_width w, const uint32_t *pred, uint32_t *bad_vertex,
                           ds_error *err);

/* Compares two distance arrays of g at width w: exact for integers,
 * relative tolerance DS_FLOAT_REL_TOL for float (inf only equals inf).
 * DS_ERR_VALIDATION names the first differing vertex (file numbering) and
 * both values; bad_vertex (optional) receives its 0-based id. */
ds_status ds_sssp_compare(const ds_graph *g, const void *expected, const void *actual,
                          ds_dist_width w, uint32_t *bad_vertex, ds_error *err);

/* The DS_ERR_RANGE error of a search that reached vertex v (0-based) at a
 * distance its width cannot hold; the message names v in file numbering. */
ds_status ds_dist_range_error(const ds_graph *g, uint32_t v, ds_error *err);

/* Predecessors (DS_NO_PRED where unreached, and at the source) from final
 * 64-bit distances of integer weights, as a tree of tight arcs found breadth-
 * first from source. O(n + m); DS_ERR_NOMEM if its queue cannot be had. */
ds_status ds_pred_from_tight_arcs(const ds_graph *g, uint32_t source, const uint64_t *dist,
                                  uint32_t *pred, ds_error *err);

/* The shortest path from source to target along pred (n predecessors, as a
 * search fills them): *len vertices, source first, target last, into path
 * (cap entries); 0 where target is unreached, 1 where it is the source.
 * path NULL: only *len is set (the size to allocate). Errors: DS_ERR_ARG
 * (NULL g, pred or len, a vertex out of range, cap below the length),
 * DS_ERR_VALIDATION (the predecessors do not lead from target to source in
 * fewer than n steps: a cycle, or a chain that ends elsewhere). O(length). */
ds_status ds_sssp_path(const ds_graph *g, uint32_t source, const uint32_t *pred, uint32_t target,
                       uint32_t *path, uint32_t cap, uint32_t *len, ds_error *err);

/* Checks a search that stopped at targets (params->targets): for each of the
 * n_targets targets, its distance in dist equals expected's (Dijkstra's full
 * distances, or NULL to skip) and, where reached, its path along pred starts
 * at source, every step is an arc of g, and the distances along it are tight
 * (dist[v] == dist[u] + w(u, v)) from dist[source] == 0, so the arcs' weights
 * sum to the target's distance. DS_ERR_VALIDATION names the first bad target
 * (file numbering); bad_vertex (optional) gets its 0-based id. O(sum of the
 * paths' lengths x their vertices' degrees). */
ds_status ds_sssp_check_targets(const ds_graph *g, uint32_t source, const uint32_t *targets,
                                uint32_t n_targets, const void *dist, ds_dist_width w,
                                const uint32_t *pred, const void *expected, uint32_t *bad_vertex,
                                ds_error *err);

/* Fills res->reached and res->reached_arcs from res->dist (width w). */
void ds_sssp_count_reached(const ds_graph *g, ds_dist_width w, ds_sssp_result *res);

/* Whether vertex v is reached in the distance array dist of width w. */
int ds_dist_is_finite(const ds_graph *g, const void *dist, ds_dist_width w, uint32_t v);

/* Parses an algorithm name ("dijkstra", ...); returns DS_ALGO_COUNT if unknown. */
ds_algo ds_algo_parse(const char *name);

#ifdef __cplusplus
}
#endif
#endif /* DS_SSSP_H */
