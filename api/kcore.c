/* k-core through the public API: the GPU backend (ds_kcore_gpu_run on the
 * context's upload), the OpenMP backend or the oracle on the undirected form
 * of the graph, and the kcore program's validation, every core number against
 * the oracle's. */
#include <stdlib.h>
#include <string.h>

#include "api_internal.h"

#define OWN_CORE 1u

const char *dsp_backend_name(dsp_backend b) {
  static const char *const NAME[] = {"auto", "gpu", "cpu", "oracle"};
  return (unsigned)b <= DSP_BACKEND_ORACLE ? NAME[b] : NULL;
}

void dsp_kcore_options_init(dsp_kcore_options *opt) {
  if (opt != NULL) memset(opt, 0, sizeof *opt);
}

static ds_status compute(const ds_graph *und, dsp_gpu *gpu, dsp_backend b, int threads, void *res, double *ms,
                         ds_error *e) {
  uint32_t *core = ((dsp_kcore_result *)res)->core;
  if (b == DSP_BACKEND_GPU) return ds_kcore_gpu_run(gpu->kcore, core, ms, NULL, e);
  return b == DSP_BACKEND_ORACLE ? ds_kcore_oracle(und, core, e) : ds_kcore_cpu(und, threads, core, e);
}

static dsp_status check(const ds_graph *und, const void *res, dsp_error *err) {
  const uint32_t *core = ((const dsp_kcore_result *)res)->core;
  uint32_t *ref = (uint32_t *)malloc((und->n ? und->n : 1) * sizeof *ref);
  if (ref == NULL) return dsp_fail(err, DSP_ERR_NOMEM, "dsp_kcore: out of host memory for the oracle's result");
  ds_error e = {{0}};
  ds_status st = ds_kcore_oracle(und, ref, &e);
  dsp_status out = st == DS_OK ? DSP_OK : dsp_fail_ds(err, st, &e);
  for (uint32_t v = 0; out == DSP_OK && v < und->n; v++)
    if (core[v] != ref[v])
      out = dsp_fail(err, DSP_ERR_VALIDATION, "k-core of %s: vertex %u has core number %u, the oracle's is %u",
                     und->name, v + (uint32_t)und->index_base, core[v], ref[v]);
  free(ref);
  return out;
}

dsp_status dsp_kcore(const dsp_graph *g, dsp_gpu *gpu, const dsp_kcore_options *opt,
                     dsp_kcore_result *res, dsp_error *err) {
  dsp_kcore_options defaults;
  if (opt == NULL) {
    dsp_kcore_options_init(&defaults);
    opt = &defaults;
  }
  dsp_whole_call c = {"dsp_kcore", DSP_ENGINE_KCORE, opt->backend, opt->threads, opt->validate,
                      res ? (void **)&res->core : NULL, sizeof(uint32_t), res ? &res->owned : NULL, OWN_CORE,
                      compute, check};
  dsp_backend ran = DSP_BACKEND_AUTO;
  double ms = 0.0;
  dsp_status st = dsp_whole_run(g, gpu, &c, res, &ran, &ms, err);
  if (st != DSP_OK) {
    dsp_kcore_result_free(res);
    return st;
  }
  ds_kcore_summary(res->core, g->g.n, &res->degeneracy, NULL);
  res->backend = ran;
  res->time_ms = ms;
  return DSP_OK;
}

void dsp_kcore_result_free(dsp_kcore_result *res) {
  if (res == NULL) return;
  if (res->owned & OWN_CORE) {
    free(res->core);
    res->core = NULL;
  }
  res->owned = 0;
}
