/* The steps every whole-graph call (k-core, triangles) takes around its
 * engine: arguments, the backend, the undirected form of the graph, the
 * result array, the GPU context's locks, the check against the oracle, and
 * the clean-up of a failure. */
#include <stdlib.h>

#include "api_internal.h"

dsp_status dsp_whole_run(const dsp_graph *g, dsp_gpu *gpu, const dsp_whole_call *c, void *res,
                         dsp_backend *ran, double *ms, dsp_error *err) {
  // 1. check arguments, pick the backend
  dsp_clear(err);
  dsp_status st = dsp_gpu_check(g, gpu, c->engine, c->who, err);
  if (st != DSP_OK) return st;
  if (res == NULL) return dsp_fail(err, DSP_ERR_ARG, "%s: res must not be NULL", c->who);
  if (c->threads < 0) return dsp_fail(err, DSP_ERR_ARG, "%s: threads %d must be 0 or more", c->who, c->threads);
  if ((st = dsp_pick_backend(gpu, c->backend, c->who, ran, err)) != DSP_OK) return st;
  // 2. the undirected form (the GPU's was uploaded by the context) and the result array
  ds_graph tmp;
  const ds_graph *und = &g->g;
  if ((*ran != DSP_BACKEND_GPU || c->validate) && (st = dsp_undirected(&g->g, &tmp, &und, err)) != DSP_OK)
    return st;
  if (c->array != NULL && *c->array == NULL) {
    if ((*c->array = malloc((g->g.n ? g->g.n : 1) * c->elem)) == NULL) {
      st = dsp_fail(err, DSP_ERR_NOMEM, "%s: out of host memory for %u values", c->who, g->g.n);
      goto done;
    }
    *c->owned |= c->own_bit;
  }
  // 3. run, then check against the oracle
  dsp_gpu *held = *ran == DSP_BACKEND_GPU ? gpu : NULL;
  if ((st = dsp_gpu_begin(held, err)) != DSP_OK) goto done;
  ds_error e = {{0}};
  const double t0 = dsp_seconds();
  ds_status ds = c->compute(und, held, *ran, c->threads, res, ms, &e);
  if (*ran != DSP_BACKEND_GPU) *ms = (dsp_seconds() - t0) * 1e3; /* the GPU's: CUDA events */
  dsp_gpu_end(held);
  if (ds != DS_OK) st = dsp_fail_ds(err, ds, &e);
  if (st == DSP_OK && c->validate) st = c->check(und, res, err);
done:
  if (und == &tmp) ds_graph_free(&tmp);
  return st;
}
