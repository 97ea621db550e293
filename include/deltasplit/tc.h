/* deltasplit: triangle counting, the triangles of the graph and, when asked,
 * those through each vertex (64-bit counts).
 *
 * Engines: the GPU's (vertices ranked by degree with msplit's radix sort, rows
 * oriented and sorted with its segmented sort, binned by length with its
 * multisplit, intersected by warps and blocks; gpu.h's tc_intersect chooses
 * the probe of long rows), the CPU's (OpenMP, bitmaps of oriented rows), and
 * a serial merge count, the oracle. Weights are not used; a directed graph
 * counts every arc as an edge, as the tc program does.
 *
 * Example:
 *   dsp_tc_result r = {0};
 *   if (dsp_tc(g, NULL, NULL, &r, &err) == DSP_OK) printf("%llu triangles\n",
 *                                                        (unsigned long long)r.triangles);
 */
#ifndef DELTASPLIT_TC_H
#define DELTASPLIT_TC_H

#include <stdint.h>

#include "deltasplit/gpu.h"
#include "deltasplit/graph.h"
#include "deltasplit/kcore.h" /* dsp_backend */
#include "deltasplit/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  dsp_backend backend; /* DSP_BACKEND_AUTO */
  int threads;         /* CPU threads; 0: OpenMP's default */
  int per_vertex;      /* 1: also the triangles through each vertex; 0 */
  int validate;        /* 1: compare with the oracle (the total, and each vertex's count with
                          per_vertex); 0 */
} dsp_tc_options;

void dsp_tc_options_init(dsp_tc_options *opt);

typedef struct {
  uint64_t triangles;    /* [out] */
  uint64_t *per_vertex;  /* [in,out] n counts with opt->per_vertex: the caller's array, or NULL:
                            allocated; they sum to 3 triangles */
  dsp_backend backend;   /* [out] the engine that ran */
  double time_ms;        /* [out] (CUDA events on the GPU, preprocessing included) */
  unsigned owned;        /* library use */
} dsp_tc_result;

/* Triangles of g into res. Arguments, synchronisation and errors as dsp_kcore
 * (kcore.h), with a context opened with DSP_ENGINE_TC. */
dsp_status dsp_tc(const dsp_graph *g, dsp_gpu *gpu, const dsp_tc_options *opt,
                  dsp_tc_result *res, dsp_error *err);

/* Frees what the library allocated in res. */
void dsp_tc_result_free(dsp_tc_result *res);

#ifdef __cplusplus
}
#endif
#endif /* DELTASPLIT_TC_H */
