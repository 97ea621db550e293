/* Graph500's SSSP graph (ds/graph500.h): the Kronecker edges of
 * ds/kron_edge.h with Graph500's probabilities, scrambled ids, and float
 * weights uniform on [0, 1) drawn from each edge's own stream, so that any
 * range of edges is drawn alone (a rank its share, a thread its block) and
 * the same for any split.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ds/graph500.h"
#include "ds/kron_edge.h"

#ifdef _OPENMP
#include <omp.h>
#endif

#define PATH_PREFIX "kron:"
#define DEFAULT_SEED 1u

static int draw_threads(int asked) {
#ifdef _OPENMP
  return asked > 0 ? asked : omp_get_max_threads();
#else
  (void)asked;
  return 1;
#endif
}

ds_status ds_graph500_check(uint32_t scale, uint32_t edge_factor, ds_error *err) {
  if (scale < 1 || scale > DS_GRAPH500_MAX_SCALE)
    return ds_error_set(err, DS_ERR_ARG, "kron: scale %u is not in [1, %d]", scale,
                        DS_GRAPH500_MAX_SCALE);
  if (edge_factor < 1)
    return ds_error_set(err, DS_ERR_ARG, "kron: the edge factor must be at least 1");
  return DS_OK;
}

ds_status ds_graph500_range_check(uint32_t scale, uint32_t edge_factor, uint64_t begin,
                                  uint64_t end, ds_error *err) {
  ds_status st = ds_graph500_check(scale, edge_factor, err);
  if (st != DS_OK) return st;
  const uint64_t count = (uint64_t)edge_factor << scale;
  if (begin > end || end > count)
    return ds_error_set(err, DS_ERR_ARG, "kron: edges [%llu, %llu) are not within the graph's "
                        "%llu", (unsigned long long)begin, (unsigned long long)end,
                        (unsigned long long)count);
  return DS_OK;
}

ds_status ds_graph500_edges(uint32_t scale, uint32_t edge_factor, uint64_t seed, int threads,
                            uint64_t begin, uint64_t end, uint32_t *src, uint32_t *dst, float *w,
                            ds_error *err) {
  ds_status st = ds_graph500_range_check(scale, edge_factor, begin, end, err);
  if (st != DS_OK) return st;
  if (threads < 0)
    return ds_error_set(err, DS_ERR_ARG, "kron: %d threads: 0 (OpenMP's default) or more",
                        threads);
  ds_kron_plan plan;
  ds_kron_plan_init(&plan, seed, scale, (uint32_t)(UINT64_C(1) << scale), DS_KRON_GRAPH500_A,
                    DS_KRON_GRAPH500_B, DS_KRON_GRAPH500_C, 1);
  const int nt = draw_threads(threads);
  (void)nt; /* without OpenMP */
  const int64_t len = (int64_t)(end - begin);
#pragma omp parallel for schedule(static) num_threads(nt)
  for (int64_t k = 0; k < len; k++) {
    uint32_t u, v;
    const uint64_t draw = ds_kron_edge(&plan, begin + (uint64_t)k, &u, &v);
    src[k] = u;
    dst[k] = v;
    w[k] = ds_kron_unit_weight(draw);
  }
  return DS_OK;
}

ds_status ds_graph500_build(uint32_t scale, uint32_t edge_factor, uint64_t seed,
                            const ds_load_options *opt, ds_graph *g, ds_error *err) {
  if (g == NULL) return ds_error_set(err, DS_ERR_ARG, "ds_graph500_build: g must not be NULL");
  memset(g, 0, sizeof *g);
  ds_status st = ds_graph500_check(scale, edge_factor, err);
  if (st != DS_OK) return st;
  // 1. every edge
  const uint64_t count = (uint64_t)edge_factor << scale;
  const size_t c = (size_t)count;
  uint32_t *src = malloc(c * sizeof *src), *dst = malloc(c * sizeof *dst);
  float *w = malloc(c * sizeof *w);
  if (src == NULL || dst == NULL || w == NULL) {
    st = ds_error_set(err, DS_ERR_NOMEM, "kron: out of memory for %llu edges",
                      (unsigned long long)count);
    goto done;
  }
  if ((st = ds_graph500_edges(scale, edge_factor, seed, 0, 0, count, src, dst, w, err)) != DS_OK)
    goto done;
  // 2. the CSR: both directions, self-loops dropped, the least weight of duplicates
  ds_load_options defaults;
  if (opt == NULL) {
    ds_load_options_default(&defaults);
    opt = &defaults;
  }
  const ds_edge_list e = {(uint32_t)(UINT64_C(1) << scale), count, src, dst, DS_WEIGHT_F32, w};
  st = opt->csr_build != NULL ? opt->csr_build(opt->csr_build_ctx, &e, 1, opt, g, err)
                              : ds_csr_build(&e, 1, opt, g, err);
  if (st != DS_OK) goto done;
  // 3. the description
  g->index_base = 0;
  g->symmetric = 1;
  g->weights_generated = 0;
  g->input_entries = count;
  ds_graph500_name(scale, edge_factor, seed, g->name, sizeof g->name);
done:
  free(src);
  free(dst);
  free(w);
  return st;
}

void ds_graph500_name(uint32_t scale, uint32_t edge_factor, uint64_t seed, char *name,
                      size_t len) {
  if (seed == DEFAULT_SEED) snprintf(name, len, "graph500_s%u_ef%u", scale, edge_factor);
  else snprintf(name, len, "graph500_s%u_ef%u_seed%llu", scale, edge_factor,
                (unsigned long long)seed);
}

int ds_graph500_path(const char *path, uint32_t *scale) {
  const size_t k = strlen(PATH_PREFIX);
  if (path == NULL || strncmp(path, PATH_PREFIX, k) != 0) return 0;
  char *end = NULL;
  const unsigned long s = strtoul(path + k, &end, 10);
  if (end == path + k || *end != '\0' || path[k] < '0' || path[k] > '9' || s > UINT32_MAX) return 0;
  *scale = (uint32_t)s;
  return 1;
}
