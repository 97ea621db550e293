/* deltasplit SSSP: the algorithms, their parameters and results.
 *
 * Every algorithm (CPU and GPU) fills a ds_sssp_result whose arrays the
 * caller allocates: dist (n values of the graph's weight type: uint32_t with
 * DS_INF_U32 for unreached, or float with +INFINITY) and pred (n values, or
 * NULL when predecessors are not wanted; DS_NO_PRED for the source and for
 * unreached vertices). Vertex ids here are 0-based; only the CLI and output
 * convert to the file's numbering.
 */
#ifndef DS_SSSP_H
#define DS_SSSP_H

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

typedef struct {
  double delta;       /* bucket width (> 0); integer weights round it up */
  uint32_t buckets;   /* m for DS_ALGO_MULTISPLIT / DS_ALGO_SORT (2..256) */
  int want_pred;      /* fill pred */
  int threads;        /* CPU threads; 0 = OpenMP default */
} ds_sssp_params;

typedef struct {
  void *dist;              /* [out] caller-allocated, n values */
  uint32_t *pred;          /* [out] caller-allocated, n values, or NULL */
  double time_ms;          /* the search alone (CUDA events on the GPU) */
  uint64_t rounds;         /* relaxation rounds (or heap pops for Dijkstra) */
  uint64_t edges_relaxed;  /* arcs relaxed, counting repeats: the work */
  uint64_t reached_arcs;   /* out-arcs of reached vertices: the TEPS numerator */
  uint32_t reached;        /* vertices with finite distance */
} ds_sssp_result;

/* Delta from the graph when the user says --delta auto (documented in README). */
double ds_delta_auto(const ds_graph *g);

#ifdef __cplusplus
}
#endif
#endif /* DS_SSSP_H */
