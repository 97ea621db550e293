/* deltasplit: a GPU context, one graph on one CUDA device.
 *
 * The context uploads the graph once for each engine it is opened with (SSSP,
 * k-core, triangle counting: each keeps its own layout of the graph on the
 * device), so that many searches and runs reuse it. Memory is estimated
 * before anything is allocated: dsp_gpu_bytes says how much, and dsp_gpu_open
 * refuses a graph that does not fit with the bytes needed and available.
 *
 * Threads: the calls on one context are serialised by the context (a lock), so
 * threads may share one; calls on contexts of the same device are serialised
 * too, since the engines' persistent kernels expect the whole device. A build
 * without CUDA compiles and links every call; they return DSP_ERR_NO_CUDA.
 *
 * Example:
 *   dsp_gpu *gpu = NULL;
 *   if (dsp_gpu_count(NULL, 0) > 0 && dsp_gpu_open(g, NULL, &gpu, &err) != DSP_OK) ...
 *   ... dsp_sssp(g, gpu, ...) ...
 *   dsp_gpu_close(gpu);
 */
#ifndef DELTASPLIT_GPU_H
#define DELTASPLIT_GPU_H

#include <stddef.h>
#include <stdint.h>

#include "deltasplit/graph.h"
#include "deltasplit/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct dsp_gpu dsp_gpu;

/* The engines a context holds the graph for. */
#define DSP_ENGINE_SSSP 1u
#define DSP_ENGINE_KCORE 2u
#define DSP_ENGINE_TC 4u
#define DSP_ENGINE_ALL (DSP_ENGINE_SSSP | DSP_ENGINE_KCORE | DSP_ENGINE_TC)

/* How triangle counting probes rows longer than a warp's (the programs'
 * tc --intersect). */
typedef enum {
  DSP_TC_INTERSECT_AUTO = 0,   /* the bitmap where it fits, else the search */
  DSP_TC_INTERSECT_BITMAP = 1, /* the same as AUTO */
  DSP_TC_INTERSECT_HASH = 2,   /* msplit's slab hash in global memory */
  DSP_TC_INTERSECT_SEARCH = 3  /* binary search of a sorted copy of the row */
} dsp_tc_intersect;

typedef struct {
  int device;                   /* CUDA device: 0 */
  void *stream;                 /* a cudaStream_t (NULL: the legacy default stream); see below */
  unsigned engines;             /* DSP_ENGINE_* bits: DSP_ENGINE_ALL */
  dsp_tc_intersect tc_intersect; /* DSP_TC_INTERSECT_AUTO */
} dsp_gpu_options;

void dsp_gpu_options_init(dsp_gpu_options *opt);

/* The usable CUDA devices; 0 with a one-line reason (no driver, no device,
 * built without CUDA) in reason when reason_len > 0. */
int dsp_gpu_count(char *reason, size_t reason_len);

/* Device bytes dsp_gpu_open(g, opt) needs (every engine of opt->engines, each
 * with its copy of the graph), the bound each engine checks before it
 * allocates; for a directed graph, the k-core and triangle engines' share is
 * an upper bound (their undirected form is not built to count it), and the hash
 * probe's set is estimated at 16 bytes an edge. No device is touched.
 * Errors: DSP_ERR_ARG (NULL g or bytes, no engine, an unknown engine bit),
 * DSP_ERR_NO_CUDA. */
dsp_status dsp_gpu_bytes(const dsp_graph *g, const dsp_gpu_options *opt, uint64_t *bytes,
                         dsp_error *err);

/* Opens a context over g on opt->device (NULL: dsp_gpu_options_init's) and
 * uploads g for each engine asked for. g must outlive the context. The k-core
 * and triangle engines take an undirected graph: a directed g is uploaded for
 * them with every arc as an edge (as kcore and tc do), through a host copy
 * freed before the call returns.
 * Synchronisation: every call of the context is synchronous. It first waits for
 * the work queued on opt->stream (so that a caller's writes are done), runs the
 * engines on streams of their own, and returns with the results on the host.
 * Errors: DSP_ERR_ARG (NULL g or gpu, no vertices, bad options, a device
 * beyond those present), DSP_ERR_DEVICE (no GPU at all, with the reason; a CUDA
 * failure; the graph does not fit: refused before any allocation, with the
 * bytes needed and available),
 * DSP_ERR_NOMEM, DSP_ERR_NO_CUDA. */
dsp_status dsp_gpu_open(const dsp_graph *g, const dsp_gpu_options *opt, dsp_gpu **gpu,
                        dsp_error *err);

/* Frees the context and its device memory. NULL is fine. */
void dsp_gpu_close(dsp_gpu *gpu);

#ifdef __cplusplus
}
#endif
#endif /* DELTASPLIT_GPU_H */
