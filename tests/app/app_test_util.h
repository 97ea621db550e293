/* Helpers of the tests of ds_cpu, over the shared harness (ds_test.h): a
 * seeded generator of small random graphs (through ds_csr_build, so they obey
 * the CSR rules) and an independent brute-force Bellman-Ford, the oracle of
 * the Dijkstra test.
 */
#ifndef DS_APP_TEST_UTIL_H
#define DS_APP_TEST_UTIL_H

#include "ds_test.h" /* first: it sets the feature macros */

#include <math.h>
#include <stdint.h>

#include "ds/graph.h"
#include "sssp.h"

/* Weight distributions of the random graphs. */
typedef enum {
  W_TINY = 0,   /* integers 0..3: many zero weights and ties */
  W_WIDE = 1,   /* integers 0..1000 */
  W_HUGE = 2,   /* integers near 2^31: sums of two exceed 32 bits */
  W_FLOAT = 3,  /* floats in [0, 10), a quarter of them 0 */
  W_KINDS = 4
} weight_kind;

static inline uint64_t test_rand(uint64_t *s) {
  *s = *s * 6364136223846793005ull + 1442695040888963407ull;
  uint64_t z = *s;
  z = (z ^ (z >> 31)) * 0xBF58476D1CE4E5B9ull;
  return z ^ (z >> 29);
}

/* A random graph with n vertices and about m arcs; 0 on failure (a failed check). */
static inline int test_random_graph(uint32_t n, uint64_t m, weight_kind kind, int symmetric,
                                    uint64_t seed, ds_graph *g) {
  uint32_t *src = (uint32_t *)malloc((m + 1) * sizeof(uint32_t));
  uint32_t *dst = (uint32_t *)malloc((m + 1) * sizeof(uint32_t));
  void *w = malloc((m + 1) * sizeof(uint32_t));
  int ok = 0;
  if (!CHECK(src != NULL && dst != NULL && w != NULL, "random graph: no memory for %llu arcs",
             (unsigned long long)m))
    goto done;
  uint64_t s = seed * 2 + 1;
  for (uint64_t e = 0; e < m; e++) {
    src[e] = (uint32_t)(test_rand(&s) % n);
    dst[e] = (uint32_t)(test_rand(&s) % n);
    uint64_t r = test_rand(&s);
    switch (kind) {
    case W_TINY: ((uint32_t *)w)[e] = (uint32_t)(r % 4); break;
    case W_WIDE: ((uint32_t *)w)[e] = (uint32_t)(r % 1001); break;
    case W_HUGE: ((uint32_t *)w)[e] = (1u << 31) - 1000u + (uint32_t)(r % 2000); break;
    default:
      ((float *)w)[e] = (r % 4 == 0) ? 0.0f : (float)((r >> 8) % 1000000) / 100000.0f;
      break;
    }
  }
  ds_edge_list el = {n, m, src, dst, kind == W_FLOAT ? DS_WEIGHT_F32 : DS_WEIGHT_U32, w};
  ds_load_options opt;
  ds_load_options_default(&opt);
  ds_error err;
  ok = CHECK(ds_csr_build(&el, symmetric, &opt, g, &err) == DS_OK, "ds_csr_build: %s", err.msg);
done:
  free(src);
  free(dst);
  free(w);
  return ok;
}

/* Brute-force Bellman-Ford over all arcs until nothing changes: distances as
 * doubles (inf for unreached), exact integer sums (these graphs' paths stay
 * far below 2^53) and sums rounded to float for float weights, as the
 * algorithms do. */
static inline double *test_bellman_ford(const ds_graph *g, uint32_t source) {
  double *d = (double *)malloc((g->n ? g->n : 1) * sizeof(double));
  if (d == NULL) return NULL;
  for (uint32_t v = 0; v < g->n; v++) d[v] = INFINITY;
  d[source] = 0.0;
  for (int changed = 1; changed;) {
    changed = 0;
    for (uint32_t u = 0; u < g->n; u++) {
      if (isinf(d[u])) continue;
      for (uint64_t e = g->row_offsets[u]; e < g->row_offsets[u + 1]; e++) {
        double s;
        if (g->weight_type == DS_WEIGHT_U32) {
          s = d[u] + (double)((const uint32_t *)g->weights)[e];
        } else {
          s = (double)((float)d[u] + ((const float *)g->weights)[e]);
        }
        if (s < d[g->col[e]]) {
          d[g->col[e]] = s;
          changed = 1;
        }
      }
    }
  }
  return d;
}

/* Distance v of a result of width w as a double (exact below 2^53). */
static inline double test_dist_w(const ds_graph *g, const void *dist, ds_dist_width w,
                                 uint32_t v) {
  if (!ds_dist_is_finite(g, dist, w, v)) return INFINITY;
  if (g->weight_type == DS_WEIGHT_F32) return (double)((const float *)dist)[v];
  if (w == DS_DIST_WIDE) return (double)((const uint64_t *)dist)[v];
  return (double)((const uint32_t *)dist)[v];
}

static inline double test_dist(const ds_graph *g, const void *dist, uint32_t v) {
  return test_dist_w(g, dist, DS_DIST_NATURAL, v);
}

/* Equal up to the float tolerance (exact for integers). */
static inline int test_same(const ds_graph *g, double want, double got) {
  if (isinf(want) || isinf(got)) return want == got;
  if (g->weight_type == DS_WEIGHT_U32) return want == got;
  return fabs(want - got) <= 1e-5 * fmax(fabs(want), 1e-30) || want == got;
}

#endif /* DS_APP_TEST_UTIL_H */
