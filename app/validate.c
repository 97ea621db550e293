/* Independent validation of SSSP results, and comparison of two distance
 * arrays. Uses no search algorithm, only the defining conditions of shortest
 * paths with non-negative weights:
 *   - dist[source] = 0 and every distance is a non-negative number or inf;
 *   - feasibility: dist[v] <= dist[u] + w for every arc u->v;
 *   - every finite vertex is reached from the source along tight arcs
 *     (dist[v] == dist[u] + w).
 * Feasibility bounds every distance from below by the true one, and the tight
 * path bounds it from above, so together they prove the distances correct.
 * Predecessors, when given, must be tight arcs of the graph forming a tree
 * rooted at the source.
 *
 * Values are compared as doubles: exact for integer distances (sums of two
 * 32-bit values fit in a double), relative tolerance DS_FLOAT_REL_TOL for
 * float distances, whose sums the algorithms round in their own order.
 * Vertex numbers in messages follow the file (g->index_base).
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "sssp.h"

/* States of a vertex in the predecessor-tree walk. */
enum { TREE_UNKNOWN = 0, TREE_ON_PATH = 1, TREE_OK = 2 };

#define U32_INF_AS_DOUBLE ((double)DS_INF_U32)

typedef struct {
  const ds_graph *g;
  const void *dist;
  int is_float;
  double tol; /* 0 for integers */
} checker;

static double dist_of(const checker *c, uint32_t v) {
  if (c->is_float) return (double)((const float *)c->dist)[v];
  uint32_t d = ((const uint32_t *)c->dist)[v];
  return d == DS_INF_U32 ? INFINITY : (double)d;
}

static double weight_of(const checker *c, uint64_t e) {
  return c->is_float ? (double)((const float *)c->g->weights)[e]
                     : (double)((const uint32_t *)c->g->weights)[e];
}

/* du + w as the algorithms see it: saturating for integers, overflowing to
 * inf beyond FLT_MAX for floats. */
static double path_sum(const checker *c, double du, double w) {
  double s = du + w;
  if (!c->is_float && s >= U32_INF_AS_DOUBLE) return INFINITY;
  if (c->is_float && s > (double)FLT_MAX) return INFINITY;
  return s;
}

static int is_tight(const checker *c, double dv, double s) {
  if (isinf(dv) || isinf(s)) return 0;
  if (c->tol == 0.0) return dv == s;
  return fabs(dv - s) <= c->tol * fmax(dv, s);
}

static int is_feasible(const checker *c, double dv, double s) {
  if (isinf(s)) return 1;
  return dv <= s + c->tol * s;
}

static void format_value(char *buf, size_t len, double d) {
  if (isinf(d)) snprintf(buf, len, "inf");
  else snprintf(buf, len, "%.9g", d);
}

/* Arc u->v by binary search in u's sorted row; UINT64_MAX if absent. */
static uint64_t find_arc(const ds_graph *g, uint32_t u, uint32_t v) {
  uint64_t lo = g->row_offsets[u], hi = g->row_offsets[u + 1];
  while (lo < hi) {
    uint64_t mid = lo + (hi - lo) / 2;
    if (g->col[mid] < v) lo = mid + 1;
    else hi = mid;
  }
  return (lo < g->row_offsets[u + 1] && g->col[lo] == v) ? lo : UINT64_MAX;
}

#define FAIL(vertex, ...)                                                   \
  do {                                                                      \
    if (bad_vertex != NULL) *bad_vertex = (vertex);                         \
    st = ds_error_set(err, DS_ERR_VALIDATION, __VA_ARGS__);                 \
    goto cleanup;                                                           \
  } while (0)

ds_status ds_sssp_validate(const ds_graph *g, uint32_t source, const void *dist,
                           const uint32_t *pred, uint32_t *bad_vertex, ds_error *err) {
  ds_status st = DS_OK;
  unsigned char *state = NULL;
  uint32_t *queue = NULL;
  char a[64], b[64];

  // 1. check arguments and the source
  if (g == NULL || dist == NULL)
    return ds_error_set(err, DS_ERR_ARG, "validate: graph or dist is NULL");
  if (source >= g->n)
    return ds_error_set(err, DS_ERR_ARG, "source %u is out of range: the graph has %u vertices",
                        source, g->n);
  checker c = {g, dist, g->weight_type == DS_WEIGHT_F32, 0.0};
  if (c.is_float) c.tol = DS_FLOAT_REL_TOL;
  const uint32_t base = (uint32_t)g->index_base;
  if (dist_of(&c, source) != 0.0) {
    format_value(a, sizeof a, dist_of(&c, source));
    FAIL(source, "source %u has distance %s, not 0", source + base, a);
  }
  for (uint32_t v = 0; v < g->n; v++) {
    double dv = dist_of(&c, v);
    if (isnan(dv) || dv < 0.0) FAIL(v, "vertex %u has invalid distance %g", v + base, dv);
  }

  // 2. feasibility of every arc
  for (uint32_t u = 0; u < g->n; u++) {
    double du = dist_of(&c, u);
    if (isinf(du)) continue;
    for (uint64_t e = g->row_offsets[u]; e < g->row_offsets[u + 1]; e++) {
      uint32_t v = g->col[e];
      double s = path_sum(&c, du, weight_of(&c, e));
      double dv = dist_of(&c, v);
      if (!is_feasible(&c, dv, s)) {
        format_value(a, sizeof a, dv);
        format_value(b, sizeof b, s);
        FAIL(v, "vertex %u has distance %s but the arc from %u gives %s", v + base, a, u + base,
             b);
      }
    }
  }

  state = (unsigned char *)calloc(g->n, 1);
  queue = (uint32_t *)malloc((size_t)g->n * sizeof(uint32_t));
  if (state == NULL || queue == NULL) {
    st = ds_error_set(err, DS_ERR_NOMEM, "validate: out of memory for %u vertices", g->n);
    goto cleanup;
  }

  // 3. predecessors: tight arcs of the graph, forming a tree rooted at the source
  if (pred != NULL) {
    if (pred[source] != DS_NO_PRED)
      FAIL(source, "source %u has predecessor %u, expected none", source + base,
           pred[source] + base);
    for (uint32_t v = 0; v < g->n; v++) {
      if (v == source) continue;
      double dv = dist_of(&c, v);
      uint32_t p = pred[v];
      if (isinf(dv)) {
        if (p != DS_NO_PRED)
          FAIL(v, "unreached vertex %u has predecessor %u", v + base, p + base);
        continue;
      }
      if (p == DS_NO_PRED) FAIL(v, "reached vertex %u has no predecessor", v + base);
      if (p >= g->n) FAIL(v, "vertex %u has predecessor %u out of range", v + base, p + base);
      uint64_t e = find_arc(g, p, v);
      if (e == UINT64_MAX)
        FAIL(v, "vertex %u has predecessor %u but there is no arc %u -> %u", v + base, p + base,
             p + base, v + base);
      double s = path_sum(&c, dist_of(&c, p), weight_of(&c, e));
      if (!is_tight(&c, dv, s)) {
        format_value(a, sizeof a, dv);
        format_value(b, sizeof b, s);
        FAIL(v, "vertex %u has distance %s but its predecessor %u gives %s", v + base, a,
             p + base, b);
      }
    }
    state[source] = TREE_OK;
    for (uint32_t v = 0; v < g->n; v++) {
      if (state[v] != TREE_UNKNOWN || isinf(dist_of(&c, v))) continue;
      uint32_t x = v;
      while (state[x] == TREE_UNKNOWN) {
        state[x] = TREE_ON_PATH;
        x = pred[x];
      }
      if (state[x] == TREE_ON_PATH)
        FAIL(x, "the predecessors of vertex %u form a cycle through %u", v + base, x + base);
      for (x = v; state[x] == TREE_ON_PATH; x = pred[x]) state[x] = TREE_OK;
    }
    for (uint32_t v = 0; v < g->n; v++) state[v] = 0;
  }

  // 4. every finite vertex is reached from the source along tight arcs
  uint32_t head = 0, tail = 0;
  queue[tail++] = source;
  state[source] = 1;
  while (head < tail) {
    uint32_t u = queue[head++];
    double du = dist_of(&c, u);
    for (uint64_t e = g->row_offsets[u]; e < g->row_offsets[u + 1]; e++) {
      uint32_t v = g->col[e];
      if (state[v]) continue;
      if (is_tight(&c, dist_of(&c, v), path_sum(&c, du, weight_of(&c, e)))) {
        state[v] = 1;
        queue[tail++] = v;
      }
    }
  }
  for (uint32_t v = 0; v < g->n; v++) {
    if (!state[v] && !isinf(dist_of(&c, v))) {
      format_value(a, sizeof a, dist_of(&c, v));
      FAIL(v, "vertex %u has distance %s but no path of that length from the source reaches it",
           v + base, a);
    }
  }

cleanup:
  free(state);
  free(queue);
  return st;
}

ds_status ds_sssp_compare(const ds_graph *g, const void *expected, const void *actual,
                          uint32_t *bad_vertex, ds_error *err) {
  ds_status st = DS_OK;
  char a[64], b[64];
  // 1. check arguments
  if (g == NULL || expected == NULL || actual == NULL)
    return ds_error_set(err, DS_ERR_ARG, "compare: graph or distances are NULL");
  checker ce = {g, expected, g->weight_type == DS_WEIGHT_F32, 0.0};
  checker ca = ce;
  ca.dist = actual;
  double tol = ce.is_float ? DS_FLOAT_REL_TOL : 0.0;
  // 2. first vertex whose distances differ
  for (uint32_t v = 0; v < g->n; v++) {
    double x = dist_of(&ce, v), y = dist_of(&ca, v);
    int same = (isinf(x) || isinf(y) || isnan(x) || isnan(y)) ? (x == y)
                                                               : fabs(x - y) <= tol * fmax(x, y);
    if (!same) {
      format_value(a, sizeof a, x);
      format_value(b, sizeof b, y);
      FAIL(v, "vertex %u: distance %s, expected %s", v + (uint32_t)g->index_base, b, a);
    }
  }
cleanup:
  return st;
}
