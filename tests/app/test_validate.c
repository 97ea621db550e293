/* The validator (ds_sssp_validate) and the comparison (ds_sssp_compare):
 * correct results pass; each kind of corruption is rejected, with and without
 * predecessors: a distance too high, too low, a wrong predecessor, an
 * unreached vertex marked reached (also inside a zero-weight cycle that the
 * source cannot reach), a reached vertex marked unreached, a non-zero source,
 * a predecessor cycle of zero-weight arcs, negative and NaN float distances.
 */
#include "app_test_util.h"

#define RANDOM_GRAPHS 40

typedef enum {
  C_DIST_UP, C_DIST_DOWN, C_WRONG_PRED, C_UNREACHED_AS_REACHED, C_REACHED_AS_UNREACHED,
  C_SOURCE_NONZERO, C_SOURCE_HAS_PRED, C_NEGATIVE_OR_NAN, C_KINDS
} corruption;

static const char *const CORRUPTION_NAMES[C_KINDS] = {
    "distance up", "distance down", "wrong predecessor", "unreached marked reached",
    "reached marked unreached", "source non-zero", "source with a predecessor",
    "negative/NaN distance"};

static void set_dist(const ds_graph *g, void *dist, uint32_t v, double d) {
  if (g->weight_type == DS_WEIGHT_F32) ((float *)dist)[v] = (float)d;
  else ((uint32_t *)dist)[v] = isinf(d) ? DS_INF_U32 : (uint32_t)d;
}

/* Applies corruption c; 0 when this graph offers no place for it. */
static int corrupt(const ds_graph *g, uint32_t source, void *dist, uint32_t *pred, corruption c,
                   uint64_t *rng) {
  uint32_t n = g->n, start = (uint32_t)(test_rand(rng) % n);
  for (uint32_t k = 0; k < n; k++) {
    uint32_t v = (start + k) % n;
    double d = test_dist(g, dist, v);
    int reached = !isinf(d);
    switch (c) {
    case C_DIST_UP:
      if (!reached || v == source) break;
      set_dist(g, dist, v, g->weight_type == DS_WEIGHT_F32 ? d * 1.01 + 0.01 : d + 1);
      return 1;
    case C_DIST_DOWN:
      if (!reached || d <= 0.0) break;
      set_dist(g, dist, v, g->weight_type == DS_WEIGHT_F32 ? d * 0.99 : d - 1);
      return 1;
    case C_WRONG_PRED:
      if (!reached || v == source || pred == NULL) break;
      for (uint32_t q = 0; q < n; q++) {
        if (q == pred[v] || q == v) continue;
        /* q must not be a tight in-neighbour of v */
        int tight = 0;
        for (uint64_t e = g->row_offsets[q]; e < g->row_offsets[q + 1]; e++)
          if (g->col[e] == v) {
            double w = g->weight_type == DS_WEIGHT_F32 ? ((const float *)g->weights)[e]
                                                        : ((const uint32_t *)g->weights)[e];
            tight = test_same(g, d, test_dist(g, dist, q) + w);
          }
        if (!tight) {
          pred[v] = q;
          return 1;
        }
      }
      break;
    case C_UNREACHED_AS_REACHED:
      if (reached) break;
      set_dist(g, dist, v, 5);
      return 1;
    case C_REACHED_AS_UNREACHED:
      if (!reached || v == source) break;
      set_dist(g, dist, v, INFINITY);
      if (pred != NULL) pred[v] = DS_NO_PRED;
      return 1;
    case C_SOURCE_NONZERO:
      set_dist(g, dist, source, 1);
      return 1;
    case C_SOURCE_HAS_PRED:
      if (pred == NULL || n < 2) return 0;
      pred[source] = (source + 1) % n;
      return 1;
    case C_NEGATIVE_OR_NAN:
      if (g->weight_type != DS_WEIGHT_F32) return 0;
      ((float *)dist)[v] = (k % 2) ? -1.0f : NAN;
      return 1;
    default: return 0;
    }
  }
  return 0;
}

/* Random graphs: every corruption kind must be caught where it applies. */
static void random_corruptions(int counts[C_KINDS]) {
  for (int i = 0; i < RANDOM_GRAPHS; i++) {
    weight_kind kind = (i % 2) ? W_FLOAT : W_WIDE;
    ds_graph g;
    if (!test_random_graph(30, 45, kind, i % 3 == 0, 500 + (uint64_t)i, &g)) return;
    uint32_t *dist = malloc(g.n * 4), *pred = malloc(g.n * 4), *d2 = malloc(g.n * 4),
             *p2 = malloc(g.n * 4);
    ds_sssp_params p;
    ds_sssp_params_default(&p);
    p.want_pred = 1;
    ds_sssp_result r;
    memset(&r, 0, sizeof r);
    r.dist = dist;
    r.pred = pred;
    ds_error err;
    uint32_t source = (uint32_t)i % g.n;
    CHECK(ds_sssp_dijkstra(&g, source, &p, &r, &err) == DS_OK &&
              ds_sssp_validate(&g, source, dist, DS_DIST_NATURAL, pred, NULL, &err) == DS_OK &&
              ds_sssp_validate(&g, source, dist, DS_DIST_NATURAL, NULL, NULL, &err) == DS_OK,
          "graph %d: a correct result is rejected: %s", i, err.msg);
    for (int c = 0; c < C_KINDS; c++)
      for (int with_pred = 0; with_pred <= 1; with_pred++) {
        uint64_t rng = (uint64_t)(i * 100 + c);
        memcpy(d2, dist, g.n * 4);
        memcpy(p2, pred, g.n * 4);
        if (!corrupt(&g, source, d2, with_pred ? p2 : NULL, (corruption)c, &rng)) continue;
        counts[c]++;
        ds_status st = ds_sssp_validate(&g, source, d2, DS_DIST_NATURAL, with_pred ? p2 : NULL, NULL, &err);
        CHECK(st == DS_ERR_VALIDATION && err.msg[0] != '\0',
              "graph %d: '%s' (%s predecessors) not caught", i, CORRUPTION_NAMES[c],
              with_pred ? "with" : "without");
      }
    free(dist);
    free(pred);
    free(d2);
    free(p2);
    ds_graph_free(&g);
  }
}

/* Zero weights: a predecessor cycle, and an unreachable zero-weight cycle
 * with made-up finite distances (every arc condition holds there). */
static void zero_weight_cases(void) {
  /* 0 -> 1, 1 <-> 2 (weight 0); 3 <-> 4 (weight 0) unreachable */
  uint32_t src[] = {0, 1, 2, 3, 4}, dst[] = {1, 2, 1, 4, 3}, w[] = {0, 0, 0, 0, 0};
  ds_edge_list el = {5, 5, src, dst, DS_WEIGHT_U32, w};
  ds_load_options opt;
  ds_load_options_default(&opt);
  ds_graph g;
  ds_error err;
  if (!CHECK(ds_csr_build(&el, 0, &opt, &g, &err) == DS_OK, "zero weights: %s", err.msg)) return;
  uint32_t d[5] = {0, 0, 0, DS_INF_U32, DS_INF_U32};
  uint32_t p[5] = {DS_NO_PRED, 0, 1, DS_NO_PRED, DS_NO_PRED};
  uint32_t bad = 0;
  CHECK(ds_sssp_validate(&g, 0, d, DS_DIST_NATURAL, p, NULL, &err) == DS_OK,
        "zero weights: correct result rejected: %s", err.msg);
  p[1] = 2; /* 1 <- 2 <- 1: tight, but a cycle */
  CHECK(ds_sssp_validate(&g, 0, d, DS_DIST_NATURAL, p, &bad, &err) == DS_ERR_VALIDATION,
        "zero weights: predecessor cycle not caught");
  p[1] = 0;
  d[3] = d[4] = 7; /* unreachable zero cycle made to look reached */
  CHECK(ds_sssp_validate(&g, 0, d, DS_DIST_NATURAL, NULL, &bad, &err) == DS_ERR_VALIDATION &&
            (bad == 3 || bad == 4),
        "zero weights: unreachable cycle with finite distances not caught");
  ds_graph_free(&g);
}

/* ds_sssp_compare: exact for integers, tolerant for floats, names the vertex. */
static void compare_cases(void) {
  uint32_t src[] = {0}, dst[] = {1};
  uint32_t wu[] = {1};
  float wf[] = {1.0f};
  ds_load_options opt;
  ds_load_options_default(&opt);
  ds_graph gu, gf;
  ds_error err;
  ds_edge_list eu = {4, 1, src, dst, DS_WEIGHT_U32, wu}, ef = {4, 1, src, dst, DS_WEIGHT_F32, wf};
  if (!CHECK(ds_csr_build(&eu, 0, &opt, &gu, &err) == DS_OK, "compare: %s", err.msg)) return;
  if (!CHECK(ds_csr_build(&ef, 0, &opt, &gf, &err) == DS_OK, "compare: %s", err.msg)) {
    ds_graph_free(&gu);
    return;
  }
  uint32_t a[4] = {0, 1, 7, DS_INF_U32}, b[4] = {0, 1, 8, DS_INF_U32};
  uint32_t bad = 99;
  CHECK(ds_sssp_compare(&gu, a, a, DS_DIST_NATURAL, NULL, &err) == DS_OK,
        "compare: equal integer results differ: %s", err.msg);
  CHECK(ds_sssp_compare(&gu, a, b, DS_DIST_NATURAL, &bad, &err) == DS_ERR_VALIDATION && bad == 2,
        "compare: integer 7 against 8 at vertex 2 not caught (vertex %u)", bad);
  b[2] = 7;
  b[3] = 5;
  CHECK(ds_sssp_compare(&gu, a, b, DS_DIST_NATURAL, &bad, &err) == DS_ERR_VALIDATION && bad == 3,
        "compare: unreached against 5 at vertex 3 not caught (vertex %u)", bad);
  float fa[4] = {0, 1, 1000.0f, INFINITY}, fb[4] = {0, 1, 1000.001f, INFINITY};
  CHECK(ds_sssp_compare(&gf, fa, fb, DS_DIST_NATURAL, NULL, &err) == DS_OK,
        "compare: floats within 1e-5 differ: %s", err.msg);
  fb[2] = 1001.0f;
  CHECK(ds_sssp_compare(&gf, fa, fb, DS_DIST_NATURAL, &bad, &err) == DS_ERR_VALIDATION && bad == 2,
        "compare: float 1000 against 1001 at vertex 2 not caught (vertex %u)", bad);
  fb[2] = 1000.0f;
  fb[3] = 3.0f;
  CHECK(ds_sssp_compare(&gf, fa, fb, DS_DIST_NATURAL, &bad, &err) == DS_ERR_VALIDATION && bad == 3,
        "compare: float inf against 3 at vertex 3 not caught (vertex %u)", bad);
  ds_graph_free(&gu);
  ds_graph_free(&gf);
}

int main(void) {
  int counts[C_KINDS] = {0};
  random_corruptions(counts);
  for (int c = 0; c < C_KINDS; c++) {
    printf("%-26s %d corrupted results\n", CORRUPTION_NAMES[c], counts[c]);
    CHECK(counts[c] > 0, "'%s': no graph offered this corruption: the test is too weak",
          CORRUPTION_NAMES[c]);
  }
  zero_weight_cases();
  compare_cases();
  return ds_test_finish("validator");
}
