/* Graphs of the public API: a file loaded through the graph layer (every
 * format, the binary cache, the CSR built on a GPU where asked), CSR arrays of
 * the caller wrapped after the graph layer's checks, and the undirected form
 * the whole-graph engines take. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api_internal.h"
#ifdef DSP_HAVE_CUDA
#include "ds/csr_gpu.h"
#include "ds/device.h"
#endif

#define NO_DEVICE (-1)

void dsp_load_options_init(dsp_load_options *opt) {
  if (opt == NULL) return;
  ds_load_options d;
  ds_load_options_default(&d);
  memset(opt, 0, sizeof *opt);
  opt->format = DSP_FORMAT_AUTO;
  opt->weight_min = d.weight_min;
  opt->weight_max = d.weight_max;
  opt->weight_dist = DSP_WEIGHTS_UNIFORM;
  opt->seed = d.seed;
  opt->use_cache = d.use_cache;
  opt->build_device = NO_DEVICE;
}

/* The CSR of a text load on build_device; on the CPU, with a note, where the
 * device cannot take it (no room for the edges, a CUDA error, no device). */
typedef struct {
  int device;
  char *note;
  size_t note_len;
} csr_on_device;

static ds_status build_csr(void *ctx, const ds_edge_list *edges, int symmetric,
                           const ds_load_options *opt, ds_graph *g, ds_error *err) {
  csr_on_device *c = (csr_on_device *)ctx;
#ifdef DSP_HAVE_CUDA
  ds_status st = ds_device_count(NULL, 0) > c->device
                     ? ds_csr_build_gpu(c->device, edges, symmetric, opt, g, err)
                     : ds_error_set(err, DS_ERR_DEVICE, "CUDA device %d does not exist", c->device);
#else
  ds_status st = ds_error_set(err, DS_ERR_DEVICE, "this build of deltasplit has no CUDA");
#endif
  if (st != DS_ERR_DEVICE) return st;
  snprintf(c->note, c->note_len, "the CSR was built on the CPU: %.900s", err->msg);
  return ds_csr_build(edges, symmetric, opt, g, err);
}

dsp_status dsp_graph_load(const char *path, const dsp_load_options *opt, dsp_graph **g,
                          dsp_error *err) {
  // 1. check arguments
  dsp_clear(err);
  if (g == NULL || path == NULL)
    return dsp_fail(err, DSP_ERR_ARG, "dsp_graph_load: path and g must not be NULL");
  *g = NULL;
  dsp_load_options defaults;
  if (opt == NULL) {
    dsp_load_options_init(&defaults);
    opt = &defaults;
  }
  ds_error e = {{0}};
  if ((unsigned)opt->format > DSP_FORMAT_CACHE)
    return dsp_fail(err, DSP_ERR_ARG, "dsp_graph_load: unknown format %d", (int)opt->format);
  ds_status st = ds_weight_dist_check((ds_weight_dist)opt->weight_dist, opt->weight_min,
                                      opt->weight_max, &e);
  if (st != DS_OK) return dsp_fail_ds(err, st, &e);
  // 2. the graph layer's options: the same meanings, no progress bar (nothing prints)
  ds_load_options lo;
  ds_load_options_default(&lo);
  lo.format = (ds_format)opt->format;
  lo.undirected = opt->undirected != 0;
  lo.weight_min = opt->weight_min;
  lo.weight_max = opt->weight_max;
  lo.weight_dist = (ds_weight_dist)opt->weight_dist;
  lo.seed = opt->seed;
  lo.use_cache = opt->use_cache != 0;
  lo.cache_dir = opt->cache_dir;
  lo.progress = 0;
  lo.max_memory = opt->max_memory;
  dsp_graph *h = (dsp_graph *)calloc(1, sizeof *h);
  if (h == NULL) return dsp_fail(err, DSP_ERR_NOMEM, "dsp_graph_load: out of host memory");
  csr_on_device dev = {opt->build_device, h->note, sizeof h->note};
  if (opt->build_device > NO_DEVICE) {
    lo.csr_build = build_csr;
    lo.csr_build_ctx = &dev;
  }
  // 3. load
  ds_load_info info;
  memset(&info, 0, sizeof info);
  st = ds_graph_load_info(path, &lo, &h->g, &info, &e);
  if (st != DS_OK) {
    free(h);
    return dsp_fail_ds(err, st, &e);
  }
  h->cache = info.cache == DS_CACHE_HIT ? DSP_CACHE_HIT : info.cache == DS_CACHE_MISS ? DSP_CACHE_MISS
                                                                                       : DSP_CACHE_OFF;
  if (info.note[0] != '\0') {
    size_t used = strlen(h->note);
    snprintf(h->note + used, sizeof h->note - used, "%s%s", used ? "; " : "", info.note);
  }
  *g = h;
  return DSP_OK;
}

dsp_status dsp_graph_wrap_csr(const dsp_csr *csr, dsp_graph **g, dsp_error *err) {
  dsp_clear(err);
  if (csr == NULL || g == NULL)
    return dsp_fail(err, DSP_ERR_ARG, "dsp_graph_wrap_csr: csr and g must not be NULL");
  *g = NULL;
  if (csr->index_base != 0 && csr->index_base != 1)
    return dsp_fail(err, DSP_ERR_ARG, "dsp_graph_wrap_csr: index_base %d is neither 0 nor 1",
                    csr->index_base);
  dsp_graph *h = (dsp_graph *)calloc(1, sizeof *h);
  if (h == NULL) return dsp_fail(err, DSP_ERR_NOMEM, "dsp_graph_wrap_csr: out of host memory");
  h->borrowed = 1;
  h->cache = DSP_CACHE_OFF;
  ds_graph *d = &h->g;
  d->n = csr->vertices;
  d->m = csr->arcs;
  /* the engines read the arrays only; the graph layer's struct is not const */
  d->row_offsets = (uint64_t *)(uintptr_t)csr->row_offsets;
  d->col = (uint32_t *)(uintptr_t)csr->col;
  d->weights = (void *)(uintptr_t)csr->weights;
  d->weight_type = (ds_weight_type)csr->weight_type;
  d->symmetric = csr->undirected != 0;
  d->index_base = csr->index_base;
  snprintf(d->name, sizeof d->name, "%s", csr->name != NULL ? csr->name : "csr");
  ds_error e = {{0}};
  /* the graph layer's CSR rules, symmetry with equal weights included: the
     same check a cache file passes before any engine sees it */
  ds_status st = ds_csr_check(d, &e);
  if (st != DS_OK) {
    dsp_status out = dsp_fail(err, st == DS_ERR_NOMEM ? DSP_ERR_NOMEM : DSP_ERR_ARG,
                              "dsp_graph_wrap_csr: %s: %s", d->name, e.msg);
    free(h);
    return out;
  }
  *g = h;
  return DSP_OK;
}

void dsp_graph_free(dsp_graph *g) {
  if (g == NULL) return;
  if (!g->borrowed) ds_graph_free(&g->g);
  free(g);
}

dsp_status dsp_graph_describe(const dsp_graph *g, dsp_graph_info *info, dsp_error *err) {
  dsp_clear(err);
  if (g == NULL || info == NULL)
    return dsp_fail(err, DSP_ERR_ARG, "dsp_graph_describe: g and info must not be NULL");
  const ds_graph *d = &g->g;
  memset(info, 0, sizeof *info);
  info->vertices = d->n;
  info->arcs = d->m;
  info->weight_type = d->weight_type == DS_WEIGHT_F32 ? DSP_WEIGHT_F32 : DSP_WEIGHT_U32;
  info->undirected = d->symmetric;
  info->index_base = d->index_base;
  info->weights_generated = d->weights_generated;
  info->name = d->name;
  info->row_offsets = d->row_offsets;
  info->col = d->col;
  info->weights = d->weights;
  info->cache = g->cache;
  info->note = g->note;
  return DSP_OK;
}

dsp_status dsp_undirected(const ds_graph *g, ds_graph *tmp, const ds_graph **out, dsp_error *err) {
  *out = g;
  if (g->symmetric) return DSP_OK;
  /* every arc as an edge: its list built again with both directions, as the
     kcore and tc programs do (the weights are not used) */
  uint32_t *src = (uint32_t *)malloc((g->m ? g->m : 1) * sizeof *src);
  if (src == NULL)
    return dsp_fail(err, DSP_ERR_NOMEM, "%s: out of host memory making the graph undirected", g->name);
  for (uint32_t v = 0; v < g->n; v++)
    for (uint64_t a = g->row_offsets[v]; a < g->row_offsets[v + 1]; a++) src[a] = v;
  ds_edge_list edges = {g->n, g->m, src, g->col, g->weight_type, g->weights};
  ds_load_options lo;
  ds_load_options_default(&lo);
  ds_error e = {{0}};
  memset(tmp, 0, sizeof *tmp);
  ds_status st = ds_csr_build(&edges, 1, &lo, tmp, &e);
  free(src);
  if (st != DS_OK) return dsp_fail_ds(err, st, &e);
  tmp->index_base = g->index_base;
  memcpy(tmp->name, g->name, sizeof tmp->name);
  *out = tmp;
  return DSP_OK;
}
