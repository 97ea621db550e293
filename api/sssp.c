/* Shortest paths through the public API: the options resolved once per call
 * as the sssp program resolves them (the algorithm, cpu-delta in a GPU
 * algorithm's place without a GPU, each backend's automatic delta, the
 * buckets from the largest weight, the width that holds every distance), then
 * each source's search on app/sssp/gpu's engines or the CPU's, with the programs'
 * validation (the independent validator, and Dijkstra's distances) when
 * asked. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "api_internal.h"

/* The library allocated a result's array: dsp_sssp_result.owned bits. */
#define OWN_DIST 1u
#define OWN_PRED 2u

static const struct {
  dsp_sssp_algo algo;
  ds_algo engine;
  const char *name;
} ALGOS[] = {{DSP_SSSP_AUTO, DS_ALGO_COUNT, "auto"},
             {DSP_SSSP_MULTISPLIT, DS_ALGO_MULTISPLIT, "multisplit"},
             {DSP_SSSP_NEAR_FAR, DS_ALGO_NEAR_FAR, "near-far"},
             {DSP_SSSP_SORT, DS_ALGO_SORT, "sort"},
             {DSP_SSSP_BELLMAN_FORD, DS_ALGO_BELLMAN_FORD, "bellman-ford"},
             {DSP_SSSP_CPU_DELTA, DS_ALGO_CPU_DELTA, "cpu-delta"},
             {DSP_SSSP_DIJKSTRA, DS_ALGO_DIJKSTRA, "dijkstra"}};
#define N_ALGOS (sizeof ALGOS / sizeof ALGOS[0])

const char *dsp_sssp_algo_name(dsp_sssp_algo a) {
  return (unsigned)a < N_ALGOS ? ALGOS[a].name : NULL;
}

static dsp_sssp_algo public_of(ds_algo a) {
  for (size_t i = 0; i < N_ALGOS; i++)
    if (ALGOS[i].engine == a) return ALGOS[i].algo;
  return DSP_SSSP_AUTO;
}

void dsp_sssp_options_init(dsp_sssp_options *opt) {
  if (opt == NULL) return;
  memset(opt, 0, sizeof *opt);
  opt->algo = DSP_SSSP_AUTO;
  opt->width = DSP_WIDTH_AUTO;
  opt->cpu_fallback = 1;
}

/* What one call runs: the engine's algorithm and parameters. */
typedef struct {
  ds_algo algo;
  ds_sssp_params params;
  uint32_t buckets; /* reported: multisplit and sort only */
  double delta;     /* reported: 0 where unused */
} plan;

static dsp_status resolve(const ds_graph *g, const dsp_gpu *gpu, const dsp_sssp_options *o, plan *p,
                          dsp_error *err) {
  // 1. the algorithm, with the program's fallback where there is no GPU context
  if ((unsigned)o->algo >= N_ALGOS)
    return dsp_fail(err, DSP_ERR_ARG, "dsp_sssp: algorithm %d is not a dsp_sssp_algo", (int)o->algo);
  ds_algo a = o->algo == DSP_SSSP_AUTO ? (gpu ? DS_ALGO_MULTISPLIT : DS_ALGO_CPU_DELTA) : ALGOS[o->algo].engine;
  if (ds_algo_is_gpu(a) && gpu == NULL) {
    if (!o->cpu_fallback)
      return dsp_built_with_cuda()
                 ? dsp_fail(err, DSP_ERR_DEVICE, "dsp_sssp: %s needs a GPU context", ds_algo_name(a))
                 : dsp_fail(err, DSP_ERR_NO_CUDA, "dsp_sssp: %s needs a GPU: this build of deltasplit has no CUDA",
                            ds_algo_name(a));
    a = DS_ALGO_CPU_DELTA;
  }
  // 2. the options' ranges
  if (!(o->delta >= 0.0 && isfinite(o->delta)))
    return dsp_fail(err, DSP_ERR_ARG, "delta %g must be positive and finite (0: automatic)", o->delta);
  if (o->buckets != 0 && (o->buckets < DSP_MIN_BUCKETS || o->buckets > DSP_MAX_BUCKETS))
    return dsp_fail(err, DSP_ERR_ARG, "buckets %u is out of range: %u..%u (0: automatic)", o->buckets,
                    DSP_MIN_BUCKETS, DSP_MAX_BUCKETS);
  if (o->threads < 0) return dsp_fail(err, DSP_ERR_ARG, "threads %d must be 0 or more", o->threads);
  if ((unsigned)o->batch > DSP_BATCH_OFF)
    return dsp_fail(err, DSP_ERR_ARG, "batch %d is not a dsp_sssp_batch", (int)o->batch);
  if ((unsigned)o->width > DSP_WIDTH_WIDE)
    return dsp_fail(err, DSP_ERR_ARG, "width %d is not a dsp_dist_width", (int)o->width);
  if (o->width == DSP_WIDTH_WIDE && g->weight_type != DS_WEIGHT_U32)
    return dsp_fail(err, DSP_ERR_ARG, "64-bit distances need integer weights: %s has float weights", g->name);
  // 3. delta, buckets and width as sssp resolves them
  ds_sssp_params_default(&p->params);
  double delta = 0.0;
  const double run_delta = ds_delta_for_algos(g, o->delta, &a, 1, &delta);
  p->algo = a;
  p->delta = delta;
  p->params.delta = delta > 0.0 ? delta : run_delta; /* Dijkstra and Bellman-Ford: unused */
  p->params.buckets = o->buckets ? o->buckets : ds_buckets_auto(g, run_delta);
  p->buckets = a == DS_ALGO_MULTISPLIT || a == DS_ALGO_SORT ? p->params.buckets : 0;
  if (o->targets == NULL && o->n_targets > 0)
    return dsp_fail(err, DSP_ERR_ARG, "targets is NULL with n_targets %u", o->n_targets);
  for (uint32_t i = 0; i < o->n_targets; i++)
    if (o->targets[i] >= g->n)
      return dsp_fail(err, DSP_ERR_ARG, "target %u is out of range: the graph has %u vertices",
                      o->targets[i], g->n);
  p->params.targets = o->n_targets > 0 ? o->targets : NULL;
  p->params.n_targets = o->n_targets;
  // a target's path is read from the predecessors
  p->params.want_pred = o->predecessors != 0 || o->n_targets > 0;
  p->params.threads = o->threads;
  p->params.dist_width = o->width == DSP_WIDTH_AUTO ? ds_sssp_dist_width(g)
                         : o->width == DSP_WIDTH_WIDE ? DS_DIST_WIDE
                                                      : DS_DIST_NATURAL;
  return DSP_OK;
}

size_t dsp_sssp_dist_bytes(const dsp_graph *g, const dsp_sssp_options *opt) {
  if (g == NULL || opt == NULL) return 0;
  if (opt->width == DSP_WIDTH_WIDE) return g->g.weight_type == DS_WEIGHT_U32 ? 8 : 0;
  if (opt->width == DSP_WIDTH_NATURAL) return 4;
  return ds_dist_size(&g->g, ds_sssp_dist_width(&g->g));
}

/* The validator's checks, then Dijkstra's distances (into ref, n values); a
 * search to targets at its targets alone, against Dijkstra's full distances. */
static ds_status validate(const ds_graph *g, uint32_t source, const plan *p, const ds_sssp_result *r,
                          void *ref, ds_error *e) {
  const ds_sssp_params *q = &p->params;
  ds_status st = q->n_targets > 0 ? DS_OK : ds_sssp_validate(g, source, r->dist, q->dist_width, r->pred, NULL, e);
  if (st != DS_OK) return st;
  ds_sssp_params dp = p->params;
  dp.want_pred = 0;
  dp.targets = NULL;
  dp.n_targets = 0;
  ds_sssp_result rr;
  memset(&rr, 0, sizeof rr);
  rr.dist = ref;
  if ((st = ds_sssp_dijkstra(g, source, &dp, &rr, e)) != DS_OK) return st;
  if (q->n_targets > 0)
    return ds_sssp_check_targets(g, source, q->targets, q->n_targets, r->dist, q->dist_width, r->pred, ref,
                                 NULL, e);
  return ds_sssp_compare(g, ref, r->dist, q->dist_width, NULL, e);
}

/* A result's arrays, allocated where the caller gave none. */
static ds_status alloc_result(const ds_graph *g, const plan *p, dsp_sssp_result *out, ds_error *e) {
  const size_t n = g->n ? g->n : 1;
  if (out->dist == NULL) {
    if ((out->dist = malloc(n * ds_dist_size(g, p->params.dist_width))) == NULL)
      return ds_error_set(e, DS_ERR_NOMEM, "out of host memory for %u distances", g->n);
    out->owned |= OWN_DIST;
  }
  if (p->params.want_pred && out->pred == NULL) {
    if ((out->pred = (uint32_t *)malloc(n * sizeof(uint32_t))) == NULL)
      return ds_error_set(e, DS_ERR_NOMEM, "out of host memory for %u predecessors", g->n);
    out->owned |= OWN_PRED;
  }
  return DS_OK;
}

/* The public result of the search r from source. */
static void fill_result(const ds_graph *g, const plan *p, uint32_t source, const ds_sssp_result *r,
                        dsp_sssp_result *out) {
  out->source = source;
  out->dist_type = g->weight_type == DS_WEIGHT_F32 ? DSP_DIST_F32
                   : p->params.dist_width == DS_DIST_WIDE ? DSP_DIST_U64
                                                          : DSP_DIST_U32;
  out->algo = public_of(p->algo);
  out->delta = p->delta;
  out->buckets = p->buckets;
  out->time_ms = r->time_ms;
  out->rounds = r->rounds;
  out->edges_relaxed = r->edges_relaxed;
  out->reached_arcs = r->reached_arcs;
  out->reached = r->reached;
  out->stopped_early = r->stopped_early;
  out->batched = 0;
}

/* One source's search into *out (its arrays allocated where NULL). */
static dsp_status run_one(const ds_graph *g, dsp_gpu *gpu, const plan *p, uint32_t source, void *ref,
                          dsp_sssp_result *out, dsp_error *err) {
  if (source >= g->n)
    return dsp_fail(err, DSP_ERR_ARG, "source %u is out of range: the graph has %u vertices", source, g->n);
  ds_error e = {{0}};
  ds_status st = alloc_result(g, p, out, &e);
  ds_sssp_result r;
  memset(&r, 0, sizeof r);
  r.dist = out->dist;
  r.pred = p->params.want_pred ? out->pred : NULL;
  if (st == DS_OK)
    st = ds_algo_is_gpu(p->algo) ? ds_gpu_sssp(gpu->sssp, p->algo, source, &p->params, &r, &e)
                                 : ds_sssp_cpu(g, p->algo, source, &p->params, &r, &e);
  if (st == DS_OK && ref != NULL) st = validate(g, source, p, &r, ref, &e);
  if (st != DS_OK)
    return dsp_fail(err, dsp_from_ds(st), "%s from source %u on %s: %s", ds_algo_name(p->algo), source,
                    g->name, e.msg);
  fill_result(g, p, source, &r, out);
  return DSP_OK;
}

/* Whether the call's searches run batched (dsp_sssp_batch): a GPU algorithm,
 * distances only, and the graph's rule under auto (gpu_sssp.h). */
static int batched(const ds_graph *g, const dsp_gpu *held, const plan *p, dsp_sssp_batch mode, uint32_t count) {
  if (held == NULL || mode == DSP_BATCH_OFF || p->params.want_pred) return 0;
  return mode == DSP_BATCH_ON || ds_gpu_batch_pays(g, count);
}

/* The batched searches' results, in the order of the sources: copied into
 * the caller's arrays or the library's, validated where asked. */
typedef struct {
  const ds_graph *g;
  const plan *p;
  const uint32_t *sources;
  dsp_sssp_result *results;
  void *ref;
  uint32_t done; /* results complete */
} batch_out;

static ds_status batch_result(void *user, uint32_t i, const ds_sssp_result *r, ds_error *e) {
  batch_out *b = (batch_out *)user;
  dsp_sssp_result *out = &b->results[i];
  ds_status st = alloc_result(b->g, b->p, out, e);
  if (st != DS_OK) return st;
  memcpy(out->dist, r->dist, (size_t)b->g->n * ds_dist_size(b->g, b->p->params.dist_width));
  ds_sssp_result mine = *r;
  mine.dist = out->dist;
  if (b->ref != NULL && (st = validate(b->g, b->sources[i], b->p, &mine, b->ref, e)) != DS_OK) return st;
  fill_result(b->g, b->p, b->sources[i], &mine, out);
  out->batched = 1;
  out->delta = b->p->params.delta; /* the batched searches bucket by it, Bellman-Ford's too */
  out->buckets = 0;
  b->done = i + 1;
  return DS_OK;
}

/* given_delta: the caller's width, 0 for the batch's own rule (gpu_sssp.h). */
static dsp_status run_batch(const ds_graph *g, dsp_gpu *gpu, const plan *single, double given_delta,
                            const uint32_t *sources, uint32_t count, void *ref, dsp_sssp_result *results,
                            dsp_error *err) {
  for (uint32_t i = 0; i < count; i++)
    if (sources[i] >= g->n)
      return dsp_fail(err, DSP_ERR_ARG, "source %u is out of range: the graph has %u vertices", sources[i], g->n);
  plan p = *single;
  if (given_delta == 0.0) p.params.delta = p.delta = ds_gpu_batch_delta_auto(g);
  batch_out b = {g, &p, sources, results, ref, 0};
  ds_gpu_batch_info info;
  ds_error e = {{0}};
  const ds_status st = ds_gpu_sssp_batch(gpu->sssp, sources, count, &p.params, batch_result, &b, &info, &e);
  if (st == DS_OK) return DSP_OK;
  dsp_sssp_result_free(results + b.done, 1); /* the failing one; the rest are untouched */
  return dsp_fail(err, dsp_from_ds(st), "%s, batched, from source %u on %s: %s", ds_algo_name(p.algo),
                  sources[b.done], g->name, e.msg);
}

dsp_status dsp_sssp(const dsp_graph *g, dsp_gpu *gpu, const uint32_t *sources, uint32_t count,
                    const dsp_sssp_options *opt, dsp_sssp_result *results, dsp_error *err) {
  // 1. check arguments, resolve the options
  dsp_clear(err);
  dsp_status st = dsp_gpu_check(g, gpu, DSP_ENGINE_SSSP, "dsp_sssp", err);
  if (st != DSP_OK) return st;
  if (sources == NULL || results == NULL || count == 0)
    return dsp_fail(err, DSP_ERR_ARG, "dsp_sssp: sources and results must not be NULL, count not 0");
  dsp_sssp_options defaults;
  if (opt == NULL) {
    dsp_sssp_options_init(&defaults);
    opt = &defaults;
  }
  plan p;
  if ((st = resolve(&g->g, gpu, opt, &p, err)) != DSP_OK) return st;
  // 2. Dijkstra's distances for validation, one array for every source
  void *ref = NULL;
  if (opt->validate && (ref = malloc((g->g.n ? g->g.n : 1) * ds_dist_size(&g->g, p.params.dist_width))) == NULL)
    return dsp_fail(err, DSP_ERR_NOMEM, "dsp_sssp: out of host memory for the validation's distances");
  // 3. the searches, batched or one after another, the GPU context held throughout
  dsp_gpu *held = ds_algo_is_gpu(p.algo) ? gpu : NULL;
  if ((st = dsp_gpu_begin(held, err)) == DSP_OK) {
    if (batched(&g->g, held, &p, opt->batch, count)) {
      st = run_batch(&g->g, held, &p, opt->delta, sources, count, ref, results, err);
    } else {
      uint32_t i = 0;
      while (i < count && (st = run_one(&g->g, held, &p, sources[i], ref, &results[i], err)) == DSP_OK) i++;
      if (st != DSP_OK) dsp_sssp_result_free(results + i, 1); /* the rest are untouched */
    }
    dsp_gpu_end(held);
  }
  free(ref);
  return st;
}

void dsp_sssp_result_free(dsp_sssp_result *results, uint32_t count) {
  if (results == NULL) return;
  for (uint32_t i = 0; i < count; i++) {
    dsp_sssp_result *r = &results[i];
    if (r->owned & OWN_DIST) {
      free(r->dist);
      r->dist = NULL;
    }
    if (r->owned & OWN_PRED) {
      free(r->pred);
      r->pred = NULL;
    }
    r->owned = 0;
  }
}

dsp_status dsp_sssp_path(const dsp_graph *g, const dsp_sssp_result *r, uint32_t target,
                         uint32_t *path, uint32_t cap, uint32_t *len, dsp_error *err) {
  dsp_clear(err);
  if (g == NULL || r == NULL || len == NULL)
    return dsp_fail(err, DSP_ERR_ARG, "dsp_sssp_path: g, r and len must not be NULL");
  if (r->pred == NULL)
    return dsp_fail(err, DSP_ERR_ARG, "dsp_sssp_path: the result has no predecessors (ask for "
                                      "predecessors or targets)");
  ds_error e = {{0}};
  const ds_status st = ds_sssp_path(&g->g, r->source, r->pred, target, path, cap, len, &e);
  return st == DS_OK ? DSP_OK : dsp_fail(err, dsp_from_ds(st), "dsp_sssp_path: %s", e.msg);
}

double dsp_sssp_distance(const dsp_sssp_result *r, uint32_t v) {
  if (r == NULL || r->dist == NULL) return NAN;
  switch (r->dist_type) {
  case DSP_DIST_U32: {
    const uint32_t d = ((const uint32_t *)r->dist)[v];
    return d == DSP_INF_U32 ? INFINITY : (double)d;
  }
  case DSP_DIST_U64: {
    const uint64_t d = ((const uint64_t *)r->dist)[v];
    return d == DSP_INF_U64 ? INFINITY : (double)d;
  }
  case DSP_DIST_F32: return (double)((const float *)r->dist)[v];
  }
  return NAN;
}
