/* Triangle counting through the public API: the GPU backend (ds_tc_gpu_run on
 * the context's upload), the OpenMP backend or the oracle on the undirected
 * form of the graph, and the tc program's validation: the total against the
 * oracle's, and with per-vertex counts every vertex's. */
#include <stdlib.h>
#include <string.h>

#include "api_internal.h"

#define OWN_PER_VERTEX 1u

void dsp_tc_options_init(dsp_tc_options *opt) {
  if (opt != NULL) memset(opt, 0, sizeof *opt);
}

/* res's per_vertex is the array to fill, or NULL: the total alone. */
static ds_status compute(const ds_graph *und, dsp_gpu *gpu, dsp_backend b, int threads, void *res, double *ms,
                         ds_error *e) {
  dsp_tc_result *r = (dsp_tc_result *)res;
  if (b == DSP_BACKEND_GPU) return ds_tc_gpu_run(gpu->tc, &r->triangles, r->per_vertex, ms, NULL, e);
  return b == DSP_BACKEND_ORACLE ? ds_tc_oracle(und, &r->triangles, r->per_vertex, e)
                                 : ds_tc_cpu(und, threads, &r->triangles, r->per_vertex, e);
}

static dsp_status check(const ds_graph *und, const void *res, dsp_error *err) {
  const dsp_tc_result *r = (const dsp_tc_result *)res;
  uint64_t *ref = NULL, ref_total = 0;
  if (r->per_vertex != NULL && (ref = (uint64_t *)malloc((und->n ? und->n : 1) * sizeof *ref)) == NULL)
    return dsp_fail(err, DSP_ERR_NOMEM, "dsp_tc: out of host memory for the oracle's counts");
  ds_error e = {{0}};
  ds_status st = ds_tc_oracle(und, &ref_total, ref, &e);
  dsp_status out = st == DS_OK ? DSP_OK : dsp_fail_ds(err, st, &e);
  if (out == DSP_OK && r->triangles != ref_total)
    out = dsp_fail(err, DSP_ERR_VALIDATION, "triangles of %s: %llu counted, the oracle's %llu", und->name,
                   (unsigned long long)r->triangles, (unsigned long long)ref_total);
  for (uint32_t v = 0; out == DSP_OK && ref != NULL && v < und->n; v++)
    if (r->per_vertex[v] != ref[v])
      out = dsp_fail(err, DSP_ERR_VALIDATION, "triangles of %s: vertex %u is in %llu, the oracle's %llu",
                     und->name, v + (uint32_t)und->index_base, (unsigned long long)r->per_vertex[v],
                     (unsigned long long)ref[v]);
  free(ref);
  return out;
}

dsp_status dsp_tc(const dsp_graph *g, dsp_gpu *gpu, const dsp_tc_options *opt, dsp_tc_result *res,
                  dsp_error *err) {
  dsp_tc_options defaults;
  if (opt == NULL) {
    dsp_tc_options_init(&defaults);
    opt = &defaults;
  }
  /* without per-vertex counts, a caller's array stays untouched */
  uint64_t *callers = res && !opt->per_vertex ? res->per_vertex : NULL;
  if (callers) res->per_vertex = NULL;
  dsp_whole_call c = {"dsp_tc", DSP_ENGINE_TC, opt->backend, opt->threads, opt->validate,
                      res && opt->per_vertex ? (void **)&res->per_vertex : NULL, sizeof(uint64_t),
                      res ? &res->owned : NULL, OWN_PER_VERTEX, compute, check};
  dsp_backend ran = DSP_BACKEND_AUTO;
  double ms = 0.0;
  dsp_status st = dsp_whole_run(g, gpu, &c, res, &ran, &ms, err);
  if (callers) res->per_vertex = callers;
  if (st != DSP_OK) {
    dsp_tc_result_free(res);
    return st;
  }
  res->backend = ran;
  res->time_ms = ms;
  return DSP_OK;
}

void dsp_tc_result_free(dsp_tc_result *res) {
  if (res == NULL) return;
  if (res->owned & OWN_PER_VERTEX) {
    free(res->per_vertex);
    res->per_vertex = NULL;
  }
  res->owned = 0;
}
