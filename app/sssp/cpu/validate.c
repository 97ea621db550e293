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
 * Integer distances (32 or 64-bit) are checked exactly in 64-bit integers,
 * float distances as doubles with relative tolerance DS_FLOAT_REL_TOL, since
 * the algorithms round their sums in their own order. A sum is never
 * saturated: an unreached vertex with an arc from a reached one fails, which
 * is what a distance that overflowed into the unreached marker looks like.
 * Vertex numbers in messages follow the file (g->index_base).
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "sssp.h"

/* States of a vertex in the predecessor-tree walk. */
enum { TREE_UNKNOWN = 0, TREE_ON_PATH = 1, TREE_OK = 2 };

typedef struct {
  const ds_graph *g;
  const void *dist;
  ds_dist_width width;
  int is_float;
  double tol; /* 0 for integers */
} checker;

/* A distance, or a distance plus an arc's weight: exact integers (i) or
 * doubles (f); inf for unreached (or a sum beyond 64 bits). */
typedef ds_dist_value dval;

static dval dist_of(const checker *c, uint32_t v) { return ds_dist_read(c->dist, c->is_float, c->width, v); }

/* du + the weight of arc e, exactly. */
static dval path_sum(const checker *c, dval du, uint64_t e) { return ds_dist_plus(du, c->g->weights, c->is_float, e); }

static int is_zero(const checker *c, dval d) { return !d.inf && (c->is_float ? d.f == 0.0 : d.i == 0); }

static int is_tight(const checker *c, dval dv, dval s) { return ds_dist_tight(dv, s, c->is_float, c->tol); }
static int is_feasible(const checker *c, dval dv, dval s) { return ds_dist_feasible(dv, s, c->is_float, c->tol); }

static int same_value(const checker *c, dval x, dval y) {
  if (x.inf || y.inf) return x.inf && y.inf;
  if (!c->is_float) return x.i == y.i;
  if (isnan(x.f) || isnan(y.f)) return 0;
  return fabs(x.f - y.f) <= c->tol * fmax(x.f, y.f);
}

static void format_value(const checker *c, char *buf, size_t len, dval d) { ds_dist_format(d, c->is_float, buf, len); }

static checker checker_of(const ds_graph *g, const void *dist, ds_dist_width w) {
  checker c = {g, dist, w, g->weight_type == DS_WEIGHT_F32, 0.0};
  if (c.is_float) {
    c.width = DS_DIST_NATURAL;
    c.tol = DS_FLOAT_REL_TOL;
  }
  return c;
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
                           ds_dist_width w, const uint32_t *pred, uint32_t *bad_vertex,
                           ds_error *err) {
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
  checker c = checker_of(g, dist, w);
  const uint32_t base = (uint32_t)g->index_base;
  if (!is_zero(&c, dist_of(&c, source))) {
    format_value(&c, a, sizeof a, dist_of(&c, source));
    FAIL(source, "source %u has distance %s, not 0", source + base, a);
  }
  if (c.is_float)
    for (uint32_t v = 0; v < g->n; v++) {
      double dv = dist_of(&c, v).f;
      if (isnan(dv) || dv < 0.0) FAIL(v, "vertex %u has invalid distance %g", v + base, dv);
    }

  // 2. feasibility of every arc
  for (uint32_t u = 0; u < g->n; u++) {
    dval du = dist_of(&c, u);
    if (du.inf) continue;
    for (uint64_t e = g->row_offsets[u]; e < g->row_offsets[u + 1]; e++) {
      uint32_t v = g->col[e];
      dval s = path_sum(&c, du, e);
      dval dv = dist_of(&c, v);
      if (!is_feasible(&c, dv, s)) {
        format_value(&c, a, sizeof a, dv);
        format_value(&c, b, sizeof b, s);
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
      dval dv = dist_of(&c, v);
      uint32_t p = pred[v];
      if (dv.inf) {
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
      dval s = path_sum(&c, dist_of(&c, p), e);
      if (!is_tight(&c, dv, s)) {
        format_value(&c, a, sizeof a, dv);
        format_value(&c, b, sizeof b, s);
        FAIL(v, "vertex %u has distance %s but its predecessor %u gives %s", v + base, a,
             p + base, b);
      }
    }
    state[source] = TREE_OK;
    for (uint32_t v = 0; v < g->n; v++) {
      if (state[v] != TREE_UNKNOWN || dist_of(&c, v).inf) continue;
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
    dval du = dist_of(&c, u);
    for (uint64_t e = g->row_offsets[u]; e < g->row_offsets[u + 1]; e++) {
      uint32_t v = g->col[e];
      if (state[v]) continue;
      if (is_tight(&c, dist_of(&c, v), path_sum(&c, du, e))) {
        state[v] = 1;
        queue[tail++] = v;
      }
    }
  }
  for (uint32_t v = 0; v < g->n; v++) {
    if (!state[v] && !dist_of(&c, v).inf) {
      format_value(&c, a, sizeof a, dist_of(&c, v));
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
                          ds_dist_width w, uint32_t *bad_vertex, ds_error *err) {
  ds_status st = DS_OK;
  char a[64], b[64];
  // 1. check arguments
  if (g == NULL || expected == NULL || actual == NULL)
    return ds_error_set(err, DS_ERR_ARG, "compare: graph or distances are NULL");
  checker ce = checker_of(g, expected, w);
  checker ca = checker_of(g, actual, w);
  // 2. first vertex whose distances differ
  for (uint32_t v = 0; v < g->n; v++) {
    dval x = dist_of(&ce, v), y = dist_of(&ca, v);
    if (!same_value(&ce, x, y)) {
      format_value(&ce, a, sizeof a, x);
      format_value(&ce, b, sizeof b, y);
      FAIL(v, "vertex %u: distance %s, expected %s", v + (uint32_t)g->index_base, b, a);
    }
  }
cleanup:
  return st;
}

/* Each target's distance against expected's, and its path along pred: from the
 * source at distance 0, over arcs of g, tight at every step (sssp.h). */
ds_status ds_sssp_check_targets(const ds_graph *g, uint32_t source, const uint32_t *targets,
                                uint32_t n_targets, const void *dist, ds_dist_width w,
                                const uint32_t *pred, const void *expected, uint32_t *bad_vertex,
                                ds_error *err) {
  ds_status st = DS_OK;
  char a[64], b[64];
  // 1. check arguments
  if (g == NULL || dist == NULL || pred == NULL || (targets == NULL && n_targets > 0))
    return ds_error_set(err, DS_ERR_ARG, "check targets: graph, distances, predecessors or "
                                         "targets are NULL");
  if (source >= g->n)
    return ds_error_set(err, DS_ERR_ARG, "source %u is out of range: the graph has %u vertices",
                        source, g->n);
  const uint32_t base = (uint32_t)g->index_base;
  checker c = checker_of(g, dist, w), ce = checker_of(g, expected, w);
  if (!is_zero(&c, dist_of(&c, source)))
    FAIL(source, "source %u has a distance other than 0", source + base);
  for (uint32_t i = 0; i < n_targets; i++) {
    const uint32_t t = targets[i];
    if (t >= g->n)
      return ds_error_set(err, DS_ERR_ARG, "target %u is out of range: the graph has %u vertices",
                          t, g->n);
    const dval dt = dist_of(&c, t);
    // 2. the distance, against the full search's
    if (expected != NULL && !same_value(&c, dist_of(&ce, t), dt)) {
      format_value(&c, a, sizeof a, dt);
      format_value(&c, b, sizeof b, dist_of(&ce, t));
      FAIL(t, "target %u: distance %s, expected %s", t + base, a, b);
    }
    // 3. the path: back along pred, every step a tight arc of g, ending at the source
    uint32_t len = 0;
    if ((st = ds_sssp_path(g, source, pred, t, NULL, 0, &len, err)) != DS_OK) {
      if (bad_vertex != NULL) *bad_vertex = t;
      goto cleanup;
    }
    if (len == 0) {
      if (!dt.inf) FAIL(t, "target %u has a distance but no path", t + base);
      continue;
    }
    for (uint32_t v = t; v != source; v = pred[v]) {
      const uint32_t u = pred[v];
      const uint64_t e = find_arc(g, u, v);
      if (e == UINT64_MAX)
        FAIL(t, "target %u: its path steps from %u to %u, which is not an arc", t + base, u + base,
             v + base);
      if (!is_tight(&c, dist_of(&c, v), path_sum(&c, dist_of(&c, u), e))) {
        format_value(&c, a, sizeof a, dist_of(&c, v));
        format_value(&c, b, sizeof b, dist_of(&c, u));
        FAIL(t, "target %u: on its path, vertex %u at %s is not its predecessor %u at %s plus "
                "the arc's weight", t + base, v + base, a, u + base, b);
      }
    }
  }
cleanup:
  return st;
}
