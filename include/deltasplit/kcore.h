/* deltasplit: k-core decomposition, the core number of every vertex (the
 * largest k such that the vertex lies in a subgraph where every vertex has at
 * least k neighbours), and the degeneracy.
 *
 * Engines: the GPU's bucketed peeling with degree buckets kept by msplit's
 * multisplit (Dhulipala, Blelloch and Shun, Julienne, SPAA 2017), the same
 * peeling on the CPU (OpenMP), and the serial O(n + m) peeling of Batagelj
 * and Zaversnik, the oracle. Weights are not used; a directed graph counts
 * every arc as an edge, as the kcore program does.
 *
 * Example:
 *   dsp_kcore_result r = {0};
 *   if (dsp_kcore(g, gpu, NULL, &r, &err) == DSP_OK) printf("degeneracy %u\n", r.degeneracy);
 *   dsp_kcore_result_free(&r);
 */
#ifndef DELTASPLIT_KCORE_H
#define DELTASPLIT_KCORE_H

#include <stdint.h>

#include "deltasplit/gpu.h"
#include "deltasplit/graph.h"
#include "deltasplit/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The engine of a whole-graph computation (k-core, triangles): the programs'
 * --algo gpu|cpu|oracle. */
typedef enum {
  DSP_BACKEND_AUTO = 0,  /* the GPU with a context, the CPU without */
  DSP_BACKEND_GPU = 1,   /* needs a context opened with the engine */
  DSP_BACKEND_CPU = 2,   /* OpenMP */
  DSP_BACKEND_ORACLE = 3 /* serial, the reference */
} dsp_backend;

/* "auto", "gpu", "cpu", "oracle"; NULL for another value. */
const char *dsp_backend_name(dsp_backend b);

typedef struct {
  dsp_backend backend; /* DSP_BACKEND_AUTO */
  int threads;         /* CPU threads; 0: OpenMP's default */
  int validate;        /* 1: compare every core number with the oracle's; 0 */
} dsp_kcore_options;

void dsp_kcore_options_init(dsp_kcore_options *opt);

typedef struct {
  uint32_t *core;      /* [in,out] n core numbers: the caller's array, or NULL: allocated */
  uint32_t degeneracy; /* [out] the largest core number */
  dsp_backend backend; /* [out] the engine that ran */
  double time_ms;      /* [out] the computation (CUDA events on the GPU, the upload excluded) */
  unsigned owned;      /* library use */
} dsp_kcore_result;

/* Core numbers of g into res.
 * [in] gpu  a context over g with DSP_ENGINE_KCORE, or NULL.
 * [in] opt  NULL: dsp_kcore_options_init's.
 * Synchronous. Errors: DSP_ERR_ARG (NULL g or res, gpu over another graph or
 * without the engine, an unknown backend), DSP_ERR_DEVICE (the GPU backend
 * without gpu, a CUDA failure), DSP_ERR_NO_CUDA, DSP_ERR_VALIDATION,
 * DSP_ERR_NOMEM. */
dsp_status dsp_kcore(const dsp_graph *g, dsp_gpu *gpu, const dsp_kcore_options *opt,
                     dsp_kcore_result *res, dsp_error *err);

/* Frees what the library allocated in res. */
void dsp_kcore_result_free(dsp_kcore_result *res);

#ifdef __cplusplus
}
#endif
#endif /* DELTASPLIT_KCORE_H */
