/* ds_gen front end: spec defaults and checks, dispatch to the generators, and
 * the step from edges to a ds_graph (ds_csr_build).
 *
 * The generators themselves live one per file (gen_rmat.c, gen_grid.c,
 * gen_geo.c, gen_uniform.c, declared in gen_kinds.h); what they share (the
 * random streams that make them independent of the thread count, the edge
 * list's memory) is in gen_edges.h and gen_edges.c.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen_kinds.h"

/* Defaults (the Graph500 / GAP benchmark settings where there are any). */
#define DEF_SEED 1
#define DEF_WMIN 1
#define DEF_WMAX 255
#define DEF_A 0.57
#define DEF_B 0.19
#define DEF_C 0.19
#define DEF_SCALE 16
#define DEF_EDGE_FACTOR 16
#define DEF_N (UINT32_C(1) << 16)
#define DEF_GRID_SIDE 256
#define DEF_GEO_DEGREE 8.0
#define DEF_UNIFORM_DEGREE 8
#define MAX_KRON_SCALE 31 /* 2^31 vertices still fit a uint32_t id */

const char *ds_gen_kind_name(ds_gen_kind kind) {
  switch (kind) {
    case DS_GEN_KRON: return "kron";
    case DS_GEN_RMAT: return "rmat";
    case DS_GEN_GRID: return "grid";
    case DS_GEN_GEO: return "geo";
    case DS_GEN_UNIFORM: return "uniform";
  }
  return "unknown";
}

void ds_gen_spec_default(ds_gen_spec *spec, ds_gen_kind kind) {
  memset(spec, 0, sizeof *spec);
  spec->kind = kind;
  spec->seed = DEF_SEED;
  spec->weight_min = DEF_WMIN;
  spec->weight_max = DEF_WMAX;
  spec->symmetric = kind != DS_GEN_RMAT;
  spec->scale = DEF_SCALE;
  spec->edge_factor = DEF_EDGE_FACTOR;
  spec->a = DEF_A;
  spec->b = DEF_B;
  spec->c = DEF_C;
  spec->noise = 0.0;
  spec->permute = 1;
  spec->n = DEF_N;
  spec->m = kind == DS_GEN_UNIFORM ? (uint64_t)DEF_N * DEF_UNIFORM_DEGREE
                                   : (uint64_t)DEF_N * DEF_EDGE_FACTOR;
  spec->rows = DEF_GRID_SIDE;
  spec->cols = DEF_GRID_SIDE;
  spec->radius = 0.0;
  spec->degree = DEF_GEO_DEGREE;
  spec->geo_weight = DS_GEN_GEO_WEIGHT_DISTANCE;
}

static ds_status check_probs(const ds_gen_spec *s, ds_error *err) {
  const double p[3] = {s->a, s->b, s->c};
  const char *name[3] = {"a", "b", "c"};
  for (int i = 0; i < 3; i++)
    if (!isfinite(p[i]) || p[i] < 0 || p[i] > 1)
      return ds_error_set(err, DS_ERR_ARG, "%s: probability %s = %g is not in [0, 1]",
                          ds_gen_kind_name(s->kind), name[i], p[i]);
  if (s->a + s->b + s->c > 1.0 + 1e-12)
    return ds_error_set(err, DS_ERR_ARG, "%s: a + b + c = %g exceeds 1 (d = 1 - a - b - c)",
                        ds_gen_kind_name(s->kind), s->a + s->b + s->c);
  if (!isfinite(s->noise) || s->noise < 0 || s->noise >= 1)
    return ds_error_set(err, DS_ERR_ARG, "%s: noise %g is not in [0, 1)",
                        ds_gen_kind_name(s->kind), s->noise);
  return DS_OK;
}

ds_status ds_gen_spec_check(const ds_gen_spec *s, ds_error *err) {
  if (s == NULL) return ds_error_set(err, DS_ERR_ARG, "ds_gen_spec_check: NULL spec");
  const char *k = ds_gen_kind_name(s->kind);
  ds_error why;
  if (ds_weight_dist_check(s->weight_dist, s->weight_min, s->weight_max, &why) != DS_OK)
    return ds_error_set(err, DS_ERR_ARG, "%s: %s", k, why.msg);
  switch (s->kind) {
    case DS_GEN_KRON:
      if (s->scale < 1 || s->scale > MAX_KRON_SCALE)
        return ds_error_set(err, DS_ERR_ARG, "kron: scale %u is not in [1, %d]", s->scale,
                            MAX_KRON_SCALE);
      if (s->edge_factor < 1)
        return ds_error_set(err, DS_ERR_ARG, "kron: edge factor must be at least 1");
      return check_probs(s, err);
    case DS_GEN_RMAT:
      if (s->n < 2)
        return ds_error_set(err, DS_ERR_ARG, "rmat: n = %u, needs at least 2 vertices", s->n);
      return check_probs(s, err);
    case DS_GEN_GRID:
      if (s->rows < 1 || s->cols < 1)
        return ds_error_set(err, DS_ERR_ARG, "grid: rows (%u) and cols (%u) must be at least 1",
                            s->rows, s->cols);
      if ((uint64_t)s->rows * s->cols > UINT32_MAX)
        return ds_error_set(err, DS_ERR_ARG,
                            "grid: %u x %u = %llu vertices do not fit 32-bit vertex ids", s->rows,
                            s->cols, (unsigned long long)s->rows * s->cols);
      return DS_OK;
    case DS_GEN_GEO:
      if (s->n < 1) return ds_error_set(err, DS_ERR_ARG, "geo: n must be at least 1");
      if (!(s->radius > 0) && !(s->degree > 0 && isfinite(s->degree)))
        return ds_error_set(err, DS_ERR_ARG, "geo: give a radius > 0 or a degree > 0");
      if (!isfinite(s->radius))
        return ds_error_set(err, DS_ERR_ARG, "geo: radius %g is not finite", s->radius);
      if (s->geo_weight != DS_GEN_GEO_WEIGHT_DISTANCE && s->geo_weight != DS_GEN_GEO_WEIGHT_RANDOM)
        return ds_error_set(err, DS_ERR_ARG, "geo: unknown weight mode %d", (int)s->geo_weight);
      if (s->geo_weight == DS_GEN_GEO_WEIGHT_DISTANCE && s->weight_dist != DS_WEIGHTS_UNIFORM)
        return ds_error_set(err, DS_ERR_ARG,
                            "geo: distance weights follow the distances; a weight distribution "
                            "needs random weights");
      return DS_OK;
    case DS_GEN_UNIFORM:
      if (s->n < 2)
        return ds_error_set(err, DS_ERR_ARG, "uniform: n = %u, needs at least 2 vertices", s->n);
      return DS_OK;
  }
  return ds_error_set(err, DS_ERR_ARG, "unknown generator kind %d", (int)s->kind);
}

ds_status ds_gen_edges(const ds_gen_spec *spec, ds_gen_edge_list *out, ds_error *err) {
  if (!spec || !out) return ds_error_set(err, DS_ERR_ARG, "ds_gen_edges: NULL argument");
  memset(out, 0, sizeof *out);
  ds_status st = ds_gen_spec_check(spec, err);
  if (st != DS_OK) return st;
  switch (spec->kind) {
    case DS_GEN_KRON:
    case DS_GEN_RMAT: st = ds_gen_rmat_edges(spec, out, err); break;
    case DS_GEN_GRID: st = ds_gen_grid_edges(spec, out, err); break;
    case DS_GEN_GEO: st = ds_gen_geo_edges(spec, out, NULL, NULL, err); break;
    case DS_GEN_UNIFORM: st = ds_gen_uniform_edges(spec, out, err); break;
  }
  if (st == DS_OK) ds_gen_report(spec, 1.0);
  return st;
}

ds_status ds_gen_geo_points(const ds_gen_spec *spec, double *x, double *y, ds_error *err) {
  if (!spec || !x || !y) return ds_error_set(err, DS_ERR_ARG, "ds_gen_geo_points: NULL argument");
  if (spec->kind != DS_GEN_GEO)
    return ds_error_set(err, DS_ERR_ARG, "ds_gen_geo_points: the spec is %s, not geo",
                        ds_gen_kind_name(spec->kind));
  ds_status st = ds_gen_spec_check(spec, err);
  if (st != DS_OK) return st;
  return ds_gen_geo_edges(spec, NULL, x, y, err);
}

static void set_name(const ds_gen_spec *s, char *name, size_t len) {
  switch (s->kind) {
    case DS_GEN_KRON:
      snprintf(name, len, "kron_s%u_ef%u", s->scale, s->edge_factor);
      break;
    case DS_GEN_RMAT:
      snprintf(name, len, "rmat_n%u_m%llu", s->n, (unsigned long long)s->m);
      break;
    case DS_GEN_GRID: snprintf(name, len, "grid_%ux%u", s->rows, s->cols); break;
    case DS_GEN_GEO: snprintf(name, len, "geo_n%u_r%.4g", s->n, ds_gen_geo_radius(s)); break;
    case DS_GEN_UNIFORM:
      snprintf(name, len, "uniform_n%u_m%llu", s->n, (unsigned long long)s->m);
      break;
  }
}

ds_status ds_gen_graph(const ds_gen_spec *spec, ds_graph *g, ds_error *err) {
  if (!spec || !g) return ds_error_set(err, DS_ERR_ARG, "ds_gen_graph: NULL argument");
  memset(g, 0, sizeof *g);
  ds_gen_edge_list e;
  // 1. the raw edges
  ds_status st = ds_gen_edges(spec, &e, err);
  if (st != DS_OK) return st;
  // 2. CSR (weights are given, so the load options only carry the record)
  ds_load_options opt;
  ds_load_options_default(&opt);
  opt.weight_min = spec->weight_min;
  opt.weight_max = spec->weight_max;
  opt.seed = spec->seed;
  opt.use_cache = 0;
  ds_edge_list view = ds_gen_edges_view(&e);
  st = ds_csr_build(&view, spec->symmetric, &opt, g, err);
  ds_gen_edges_free(&e);
  if (st != DS_OK) return st;
  // 3. describe it
  set_name(spec, g->name, sizeof g->name);
  g->index_base = 0;
  g->symmetric = spec->symmetric != 0;
  g->weights_generated = 1;
  g->weight_min = spec->weight_min;
  g->weight_max = spec->weight_max;
  g->weight_seed = spec->seed;
  return DS_OK;
}

ds_status ds_gen_kron(uint32_t scale, uint32_t edge_factor, double a, double b, double c,
                      uint32_t weight_min, uint32_t weight_max, uint64_t seed, ds_graph *g,
                      ds_error *err) {
  ds_gen_spec s;
  ds_gen_spec_default(&s, DS_GEN_KRON);
  s.scale = scale;
  s.edge_factor = edge_factor;
  s.a = a;
  s.b = b;
  s.c = c;
  s.weight_min = weight_min;
  s.weight_max = weight_max;
  s.seed = seed;
  return ds_gen_graph(&s, g, err);
}

ds_status ds_gen_rmat(uint32_t n, uint64_t m, double a, double b, double c,
                      uint32_t weight_min, uint32_t weight_max, uint64_t seed, ds_graph *g,
                      ds_error *err) {
  ds_gen_spec s;
  ds_gen_spec_default(&s, DS_GEN_RMAT);
  s.n = n;
  s.m = m;
  s.a = a;
  s.b = b;
  s.c = c;
  s.weight_min = weight_min;
  s.weight_max = weight_max;
  s.seed = seed;
  return ds_gen_graph(&s, g, err);
}

ds_status ds_gen_grid(uint32_t rows, uint32_t cols, uint32_t weight_min, uint32_t weight_max,
                      uint64_t seed, ds_graph *g, ds_error *err) {
  ds_gen_spec s;
  ds_gen_spec_default(&s, DS_GEN_GRID);
  s.rows = rows;
  s.cols = cols;
  s.weight_min = weight_min;
  s.weight_max = weight_max;
  s.seed = seed;
  return ds_gen_graph(&s, g, err);
}

ds_status ds_gen_geo(uint32_t n, double radius, uint32_t weight_min, uint32_t weight_max,
                     uint64_t seed, ds_graph *g, ds_error *err) {
  ds_gen_spec s;
  ds_gen_spec_default(&s, DS_GEN_GEO);
  s.n = n;
  s.radius = radius;
  s.weight_min = weight_min;
  s.weight_max = weight_max;
  s.seed = seed;
  return ds_gen_graph(&s, g, err);
}

ds_status ds_gen_uniform(uint32_t n, uint64_t m, uint32_t weight_min, uint32_t weight_max,
                         uint64_t seed, ds_graph *g, ds_error *err) {
  ds_gen_spec s;
  ds_gen_spec_default(&s, DS_GEN_UNIFORM);
  s.n = n;
  s.m = m;
  s.weight_min = weight_min;
  s.weight_max = weight_max;
  s.seed = seed;
  return ds_gen_graph(&s, g, err);
}
