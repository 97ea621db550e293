/* Distances that do not fit 32 bits: no reachable vertex may come back as
 * unreached. Paths whose sums cross 2^32 and 2^53 are computed exactly at the
 * 64-bit width by Dijkstra and the CPU delta-stepping (printing them as
 * doubles would lose the low bits past 2^53, so they are checked as
 * integers); at the 32-bit width the same searches fail with DS_ERR_RANGE
 * naming the vertex; float sums past FLT_MAX fail the same way; the width
 * rule picks 64 bits exactly where a path bound exceeds DS_DIST_MAX_U32; and
 * the validator rejects a reachable vertex reported unreached.
 */
#include "app_test_util.h"

#define HEAVY 4294967295u             /* the heaviest integer weight */
#define CHAIN_2_53 ((1u << 21) + 2u)  /* arcs: (2^21 + 2) * (2^32 - 1) > 2^53 */

typedef ds_status (*search_fn)(const ds_graph *, uint32_t, const ds_sssp_params *,
                               ds_sssp_result *, ds_error *);
static const struct {
  const char *name;
  search_fn run;
} SEARCHES[] = {{"dijkstra", ds_sssp_dijkstra}, {"cpu-delta", ds_sssp_cpu_delta}};
#define N_SEARCHES (sizeof SEARCHES / sizeof SEARCHES[0])

/* A chain 0 -> 1 -> ... -> n-1 whose arc i weighs weight(i). */
static int chain(uint32_t n, ds_weight_type wt, uint32_t wu, float wf, ds_graph *g) {
  uint64_t m = n - 1;
  uint32_t *src = malloc(m * sizeof *src), *dst = malloc(m * sizeof *dst);
  void *w = malloc(m * 4);
  int ok = 0;
  if (src && dst && w) {
    for (uint64_t e = 0; e < m; e++) {
      src[e] = (uint32_t)e;
      dst[e] = (uint32_t)e + 1;
      if (wt == DS_WEIGHT_U32) ((uint32_t *)w)[e] = wu;
      else ((float *)w)[e] = wf;
    }
    ds_edge_list el = {n, m, src, dst, wt, w};
    ds_load_options opt;
    ds_load_options_default(&opt);
    ds_error err;
    ok = CHECK(ds_csr_build(&el, 0, &opt, g, &err) == DS_OK, "ds_csr_build: %s", err.msg);
  } else {
    FAIL("chain of %u: no memory", n);
  }
  free(src);
  free(dst);
  free(w);
  return ok;
}

static void params_for(ds_sssp_params *p, const ds_graph *g, ds_dist_width w, int threads) {
  ds_sssp_params_default(p);
  p->dist_width = w;
  p->want_pred = 1;
  p->threads = threads;
  p->delta = ds_delta_auto(g);
}

/* Exact 64-bit distances v * weight on a chain, predecessors v - 1, and the
 * validator's and comparison's agreement. */
static void check_chain_wide(uint32_t n) {
  ds_graph g;
  if (!chain(n, DS_WEIGHT_U32, HEAVY, 0.0f, &g)) return;
  CHECK(ds_sssp_dist_width(&g) == DS_DIST_WIDE, "chain of %u: width rule chose 32 bits", n);
  uint64_t *dist = malloc((size_t)n * 8), *first = malloc((size_t)n * 8);
  uint32_t *pred = malloc((size_t)n * 4);
  CHECK(dist && first && pred, "chain of %u: no memory", n);
  for (size_t s = 0; s < N_SEARCHES && dist && first && pred; s++) {
    ds_sssp_params p;
    params_for(&p, &g, DS_DIST_WIDE, 2);
    ds_sssp_result r;
    memset(&r, 0, sizeof r);
    r.dist = dist;
    r.pred = pred;
    memset(dist, POISON_BYTE, (size_t)n * 8);
    memset(pred, POISON_BYTE, (size_t)n * 4);
    ds_error err;
    if (!CHECK(SEARCHES[s].run(&g, 0, &p, &r, &err) == DS_OK, "chain of %u, %s, 64-bit: %s", n,
               SEARCHES[s].name, err.msg))
      continue;
    for (uint32_t v = 0; v < n; v++)
      if (!CHECK(dist[v] == (uint64_t)v * HEAVY && pred[v] == (v ? v - 1 : DS_NO_PRED),
                 "chain of %u, %s: vertex %u distance %llu pred %u, expected %llu", n,
                 SEARCHES[s].name, v, (unsigned long long)dist[v], pred[v],
                 (unsigned long long)v * HEAVY))
        break;
    CHECK(r.reached == n, "chain of %u, %s: reached %u", n, SEARCHES[s].name, r.reached);
    CHECK(ds_sssp_validate(&g, 0, dist, DS_DIST_WIDE, pred, NULL, &err) == DS_OK,
          "chain of %u, %s: validator: %s", n, SEARCHES[s].name, err.msg);
    if (s == 0) memcpy(first, dist, (size_t)n * 8);
    else
      CHECK(ds_sssp_compare(&g, first, dist, DS_DIST_WIDE, NULL, &err) == DS_OK,
            "chain of %u: %s differs from dijkstra: %s", n, SEARCHES[s].name, err.msg);
    // one unit off past 2^53 must be seen (doubles would round it away)
    dist[n - 1] += 1;
    CHECK(ds_sssp_validate(&g, 0, dist, DS_DIST_WIDE, NULL, NULL, &err) == DS_ERR_VALIDATION,
          "chain of %u, %s: validator accepts the last distance one too large", n,
          SEARCHES[s].name);
  }
  free(dist);
  free(first);
  free(pred);
  ds_graph_free(&g);
}

/* At the 32-bit width (integer) or for floats, a sum that does not fit is
 * DS_ERR_RANGE naming the first vertex beyond it (file numbering, 0-based
 * here), never an unreached vertex. */
static void check_range_error(ds_weight_type wt, uint32_t wu, float wf, uint32_t n,
                              uint32_t first_bad) {
  ds_graph g;
  if (!chain(n, wt, wu, wf, &g)) return;
  uint32_t *dist = malloc((size_t)n * 4), *pred = malloc((size_t)n * 4);
  char want[64];
  snprintf(want, sizeof want, "vertex %u is reached", first_bad);
  /* with predecessors and without: cpu-delta keeps a vertex's key beside its predecessor, or
   * alone */
  for (size_t s = 0; s < 2 * N_SEARCHES; s++) {
    ds_sssp_params p;
    params_for(&p, &g, DS_DIST_NATURAL, 1);
    p.want_pred = s < N_SEARCHES;
    ds_sssp_result r;
    memset(&r, 0, sizeof r);
    r.dist = dist;
    r.pred = p.want_pred ? pred : NULL;
    ds_error err = {{0}};
    ds_status st = SEARCHES[s % N_SEARCHES].run(&g, 0, &p, &r, &err);
    CHECK(st == DS_ERR_RANGE && strstr(err.msg, want) != NULL,
          "%s chain of %u, %s%s, 32-bit: status %s '%s', expected a range error on %s",
          wt == DS_WEIGHT_F32 ? "float" : "integer", n, SEARCHES[s % N_SEARCHES].name,
          p.want_pred ? "" : " without predecessors", ds_status_name(st), err.msg, want);
  }
  free(dist);
  free(pred);
  ds_graph_free(&g);
}

/* The width rule: the sum of the heaviest out-arcs against DS_DIST_MAX_U32. */
static void check_width_rule(void) {
  const struct {
    uint32_t n, w;
    ds_dist_width want;
  } cases[] = {
      {2, DS_DIST_MAX_U32, DS_DIST_NATURAL}, /* bound = DS_DIST_MAX_U32: fits */
      {2, DS_DIST_MAX_U32 + 1u, DS_DIST_WIDE},
      {3, DS_DIST_MAX_U32 / 2, DS_DIST_NATURAL},
      {3, DS_DIST_MAX_U32 / 2 + 1, DS_DIST_WIDE},
      {1000, 1000, DS_DIST_NATURAL},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    ds_graph g;
    if (!chain(cases[i].n, DS_WEIGHT_U32, cases[i].w, 0.0f, &g)) return;
    CHECK(ds_sssp_dist_width(&g) == cases[i].want,
          "width rule: chain of %u arcs of %u: wrong width", cases[i].n - 1, cases[i].w);
    ds_graph_free(&g);
  }
  ds_graph gf;
  if (chain(3, DS_WEIGHT_F32, 0, 3e38f, &gf)) {
    CHECK(ds_sssp_dist_width(&gf) == DS_DIST_NATURAL, "width rule: float weights given 64 bits");
    uint64_t d[3];
    ds_sssp_params p;
    params_for(&p, &gf, DS_DIST_WIDE, 1);
    ds_sssp_result r;
    memset(&r, 0, sizeof r);
    r.dist = d;
    ds_error err;
    CHECK(ds_sssp_dijkstra(&gf, 0, &p, &r, &err) == DS_ERR_ARG,
          "64-bit distances on float weights were accepted");
    ds_graph_free(&gf);
  }
}

/* The validator's old blind spot: a reached vertex whose distance overflowed
 * into the unreached marker. */
static void check_validator_overflow(void) {
  ds_graph g;
  ds_error err;
  if (chain(2, DS_WEIGHT_U32, HEAVY, 0.0f, &g)) {
    uint32_t d32[2] = {0, DS_INF_U32};
    CHECK(ds_sssp_validate(&g, 0, d32, DS_DIST_NATURAL, NULL, NULL, &err) == DS_ERR_VALIDATION,
          "validator accepts a reachable vertex as unreached (32-bit)");
    uint64_t d64[2] = {0, HEAVY};
    CHECK(ds_sssp_validate(&g, 0, d64, DS_DIST_WIDE, NULL, NULL, &err) == DS_OK,
          "validator rejects the exact 64-bit result: %s", err.msg);
    ds_graph_free(&g);
  }
  if (chain(3, DS_WEIGHT_F32, 0, 3e38f, &g)) {
    float df[3] = {0.0f, 3e38f, INFINITY};
    CHECK(ds_sssp_validate(&g, 0, df, DS_DIST_NATURAL, NULL, NULL, &err) == DS_ERR_VALIDATION,
          "validator accepts a float sum past FLT_MAX as unreached");
    ds_graph_free(&g);
  }
}

int main(void) {
  check_width_rule();
  check_validator_overflow();
  check_chain_wide(3);          /* crosses 2^32 */
  check_chain_wide(CHAIN_2_53); /* crosses 2^53 */
  check_range_error(DS_WEIGHT_U32, HEAVY, 0.0f, 3, 1);    /* 2^32-1 > DS_DIST_MAX_U32 */
  check_range_error(DS_WEIGHT_U32, 1u << 31, 0.0f, 4, 2); /* 2^32 */
  check_range_error(DS_WEIGHT_F32, 0, 2e38f, 4, 2);       /* 4e38 > FLT_MAX */
  return ds_test_finish("wide distances");
}
