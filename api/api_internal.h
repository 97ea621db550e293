/* What the library's sources share behind the public headers: the handles'
 * layouts over the engines' own types, the translation of the engines'
 * statuses, and the GPU context's locks. Not installed. */
#ifndef DSP_API_INTERNAL_H
#define DSP_API_INTERNAL_H

#include <pthread.h>

#include "deltasplit/deltasplit.h"
#include "ds/graph.h"
#include "ds/status.h"
#include "gpu_sssp.h"
#include "kcore.h"
#include "tc.h"

/* A graph: the graph layer's CSR, whose arrays are the library's (a load) or
 * the caller's (a wrap: never freed here). */
struct dsp_graph {
  ds_graph g;
  int borrowed;
  dsp_cache_use cache;
  char note[DS_ERROR_MSG_LEN];
};

/* A GPU context: one engine context per engine asked for, over one graph. */
struct dsp_gpu {
  const dsp_graph *graph;
  int device;
  void *stream;
  unsigned engines;
  pthread_mutex_t lock;
  ds_gpu_ctx *sssp;
  ds_kcore_gpu *kcore;
  ds_tc_gpu *tc;
};

/* The public code of an engine's status. */
dsp_status dsp_from_ds(ds_status st);

/* Copies an engine's message into err (may be NULL) and returns st's code. */
dsp_status dsp_fail_ds(dsp_error *err, ds_status st, const ds_error *e);

/* printf-style: fills err (may be NULL) and returns st. */
dsp_status dsp_fail(dsp_error *err, dsp_status st, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Clears err's message (a successful call leaves ""). */
void dsp_clear(dsp_error *err);

/* The undirected form of g for the whole-graph engines: g itself where it
 * stores both directions, else *tmp, every arc taken as an edge (the caller
 * frees tmp with ds_graph_free when *out == tmp). */
dsp_status dsp_undirected(const ds_graph *g, ds_graph *tmp, const ds_graph **out, dsp_error *err);

/* Begins a call on gpu (NULL: nothing to do): takes the context's lock and its
 * device's, and waits for the caller's stream; dsp_gpu_end releases them.
 * Errors: DSP_ERR_DEVICE (the stream's queued work failed). */
dsp_status dsp_gpu_begin(dsp_gpu *gpu, dsp_error *err);
void dsp_gpu_end(dsp_gpu *gpu);

/* The checks every call over an optional GPU context makes: g not NULL, gpu
 * over g and opened with `engine` (a DSP_ENGINE_* bit). */
dsp_status dsp_gpu_check(const dsp_graph *g, const dsp_gpu *gpu, unsigned engine, const char *who,
                         dsp_error *err);

/* The backend a whole-graph call (k-core, triangles) runs on: AUTO is the GPU
 * with a context, the CPU without. Errors: DSP_ERR_ARG (not a dsp_backend),
 * DSP_ERR_DEVICE (the GPU without a context), DSP_ERR_NO_CUDA. */
dsp_status dsp_pick_backend(const dsp_gpu *gpu, dsp_backend asked, const char *who, dsp_backend *out,
                            dsp_error *err);

/* A whole-graph computation (k-core, triangles) as dsp_whole_run runs it. */
typedef struct {
  const char *who;      /* "dsp_kcore" */
  unsigned engine;      /* DSP_ENGINE_* */
  dsp_backend backend;  /* asked for */
  int threads, validate;
  void **array;         /* NULL, or the result's per-vertex array: allocated where NULL */
  size_t elem;          /* its element's bytes */
  unsigned *owned, own_bit; /* the result's ownership bits, and the array's */
  /* the backend's result into res; *ms its time on the GPU (CUDA events) */
  ds_status (*compute)(const ds_graph *und, dsp_gpu *gpu, dsp_backend b, int threads, void *res, double *ms,
                       ds_error *e);
  /* res against the oracle's */
  dsp_status (*check)(const ds_graph *und, const void *res, dsp_error *err);
} dsp_whole_call;

/* Checks the arguments, picks the backend (*ran), makes the undirected form
 * and the result array, and runs c->compute (holding a GPU context's locks)
 * and, with c->validate, c->check. *ms: the computation's time. */
dsp_status dsp_whole_run(const dsp_graph *g, dsp_gpu *gpu, const dsp_whole_call *c, void *res,
                         dsp_backend *ran, double *ms, dsp_error *err);

/* Seconds, for the CPU engines' times. */
double dsp_seconds(void);

#endif /* DSP_API_INTERNAL_H */
