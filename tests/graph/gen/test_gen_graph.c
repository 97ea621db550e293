/* Tests of the generated graphs (ds_gen_graph, the ds_gen_<kind> shortcuts):
 *
 *   1. every kind: the CSR equals an oracle built here from the raw edges
 *      (loops dropped, both directions when undirected, duplicates keep the
 *      smallest weight, sorted), passes ds_csr_check, does not depend on the
 *      thread count, and changes with the seed;
 *   2. Kronecker scale 14: skewed degrees (max > 20x mean) and the number of
 *      isolated vertices against its closed form sum_k C(s,k) (1 - q_k)^M;
 *   3. grid: BFS eccentricity of a corner = rows + cols - 2, of the centre
 *      = ceil-half of that, and the exact count of vertices of degree 2, 3, 4;
 *   4. the shortcuts give the same graph as the spec they stand for.
 */
#include "gen_test_util.h"

static void graph_or_die(const ds_gen_spec *s, ds_graph *g) {
  ds_error err;
  memset(g, POISON_BYTE, sizeof *g); /* poison: every field must be written */
  /* the checks after this one would read a graph that is not there */
  if (!CHECK(ds_gen_graph(s, g, &err) == DS_OK, "ds_gen_graph(%s): %s", ds_gen_kind_name(s->kind),
             err.msg))
    exit(ds_test_finish("test_gen_graph"));
}

typedef struct {
  uint32_t u, v, w;
} arc;

static int arc_cmp(const void *pa, const void *pb) {
  const arc *a = pa, *b = pb;
  if (a->u != b->u) return a->u < b->u ? -1 : 1;
  if (a->v != b->v) return a->v < b->v ? -1 : 1;
  if (a->w != b->w) return a->w < b->w ? -1 : 1;
  return 0;
}

/* 1. the CSR against arcs sorted here from the raw edge list. */
static void check_against_edges(const ds_gen_spec *s, const ds_graph *g) {
  const char *k = ds_gen_kind_name(s->kind);
  ds_gen_edge_list e;
  ds_error err;
  if (ds_gen_edges(s, &e, &err) != DS_OK) {
    CHECK(0, "%s: ds_gen_edges: %s", k, err.msg);
    return;
  }
  arc *a = malloc((size_t)(2 * e.count + 1) * sizeof *a);
  size_t na = 0;
  for (uint64_t i = 0; i < e.count; i++) {
    if (e.src[i] == e.dst[i]) continue;
    a[na++] = (arc){e.src[i], e.dst[i], e.w[i]};
    if (s->symmetric) a[na++] = (arc){e.dst[i], e.src[i], e.w[i]};
  }
  qsort(a, na, sizeof *a, arc_cmp);
  size_t nu = 0; /* unique (u, v), the smallest w comes first */
  for (size_t i = 0; i < na; i++)
    if (nu == 0 || a[nu - 1].u != a[i].u || a[nu - 1].v != a[i].v) a[nu++] = a[i];
  CHECK(g->n == e.n, "%s: n = %u, edges say %u", k, g->n, e.n);
  CHECK(g->m == nu, "%s: m = %llu arcs, oracle %zu", k, (unsigned long long)g->m, nu);
  CHECK(g->weight_type == DS_WEIGHT_U32, "%s: weights are not uint32", k);
  if (g->m == nu && g->n == e.n) {
    uint64_t bad = 0;
    const uint32_t *w = g->weights;
    for (uint32_t u = 0; u < g->n; u++)
      for (uint64_t j = g->row_offsets[u]; j < g->row_offsets[u + 1]; j++)
        if (a[j].u != u || a[j].v != g->col[j] || a[j].w != w[j]) bad++;
    CHECK(bad == 0, "%s: %llu arcs differ from the oracle", k, (unsigned long long)bad);
  }
  CHECK(ds_csr_check(g, &err) == DS_OK, "%s: ds_csr_check: %s", k, err.msg);
  CHECK(g->weights_generated == 1 && g->weight_min == s->weight_min &&
            g->weight_max == s->weight_max && g->weight_seed == s->seed,
        "%s: the weight record is wrong", k);
  CHECK(g->symmetric == (s->symmetric != 0), "%s: symmetric flag %d", k, g->symmetric);
  CHECK(strncmp(g->name, k, strlen(k)) == 0, "%s: name '%s'", k, g->name);
  free(a);
  ds_gen_edges_free(&e);
}

static ds_gen_spec small_spec(ds_gen_kind kind) {
  ds_gen_spec s;
  ds_gen_spec_default(&s, kind);
  s.seed = 99;
  switch (kind) {
    case DS_GEN_KRON: s.scale = 11; s.edge_factor = 16; break;
    case DS_GEN_RMAT: s.n = 1500; s.m = 9000; s.a = 0.5; s.b = 0.1; s.c = 0.1; break;
    case DS_GEN_GRID: s.rows = 20; s.cols = 31; break;
    case DS_GEN_GEO: s.n = 2000; s.degree = 7; s.geo_weight = DS_GEN_GEO_WEIGHT_RANDOM; break;
    case DS_GEN_UNIFORM: s.n = 500; s.m = 20000; break; /* dense: many duplicates */
  }
  return s;
}

static void test_every_kind(void) {
  for (int k = DS_GEN_KRON; k <= DS_GEN_UNIFORM; k++) {
    ds_gen_spec s = small_spec((ds_gen_kind)k);
    ds_graph g1, g2, g3;
    set_threads(1);
    graph_or_die(&s, &g1);
    set_threads(2);
    graph_or_die(&s, &g2);
    CHECK(same_graph(&g1, &g2), "%s: CSR depends on the thread count", ds_gen_kind_name(s.kind));
    check_against_edges(&s, &g1);
    s.seed++;
    graph_or_die(&s, &g3);
    CHECK(!same_graph(&g1, &g3), "%s: another seed gives the same CSR", ds_gen_kind_name(s.kind));
    /* the directed variant of an undirected kind and vice versa */
    s.symmetric = !s.symmetric;
    ds_graph_free(&g3);
    graph_or_die(&s, &g3);
    check_against_edges(&s, &g3);
    ds_graph_free(&g1);
    ds_graph_free(&g2);
    ds_graph_free(&g3);
  }
}

/* 2. Kronecker shape. */
static void test_kron_shape(void) {
  ds_gen_spec s;
  ds_gen_spec_default(&s, DS_GEN_KRON);
  s.scale = 14;
  s.edge_factor = 16;
  s.seed = 3;
  ds_graph g;
  graph_or_die(&s, &g);
  uint64_t maxd = 0, isolated = 0;
  for (uint32_t v = 0; v < g.n; v++) {
    uint64_t d = g.row_offsets[v + 1] - g.row_offsets[v];
    if (d > maxd) maxd = d;
    isolated += d == 0;
  }
  double mean = (double)g.m / g.n;
  CHECK((double)maxd > 20 * mean, "kron: max degree %llu is not > 20 x mean %.2f",
        (unsigned long long)maxd, mean);
  /* closed form: v with k one-bits is touched by a non-loop edge with
   * probability q_k = p_src + p_dst - 2 p_loop per edge */
  const int sc = (int)s.scale;
  const double d = 1 - s.a - s.b - s.c, M = (double)((uint64_t)s.edge_factor << s.scale);
  double want = 0, var = 0;
  for (int k = 0; k <= sc; k++) {
    double ps = pow(s.a + s.b, sc - k) * pow(s.c + d, k);
    double pd = pow(s.a + s.c, sc - k) * pow(s.b + d, k);
    double pl = pow(s.a, sc - k) * pow(d, k);
    double p_iso = pow(1 - (ps + pd - 2 * pl), M);
    want += binom(sc, k) * p_iso;
    var += binom(sc, k) * p_iso * (1 - p_iso);
  }
  CHECK(fabs((double)isolated - want) < 5 * sqrt(var) + 0.005 * g.n,
        "kron: %llu isolated vertices, closed form %.0f (sd %.0f)", (unsigned long long)isolated,
        want, sqrt(var));
  printf("kron scale 14: mean degree %.2f, max %llu, isolated %llu (expected %.0f)\n", mean,
         (unsigned long long)maxd, (unsigned long long)isolated, want);
  ds_graph_free(&g);
}

/* Hop eccentricity of src by BFS. */
static uint32_t eccentricity(const ds_graph *g, uint32_t src) {
  uint32_t *dist = malloc(g->n * sizeof *dist), *queue = malloc(g->n * sizeof *queue);
  for (uint32_t i = 0; i < g->n; i++) dist[i] = UINT32_MAX;
  uint32_t head = 0, tail = 0, ecc = 0;
  dist[src] = 0;
  queue[tail++] = src;
  while (head < tail) {
    uint32_t u = queue[head++];
    if (dist[u] > ecc) ecc = dist[u];
    for (uint64_t j = g->row_offsets[u]; j < g->row_offsets[u + 1]; j++)
      if (dist[g->col[j]] == UINT32_MAX) {
        dist[g->col[j]] = dist[u] + 1;
        queue[tail++] = g->col[j];
      }
  }
  if (tail != g->n) ecc = UINT32_MAX; /* not connected */
  free(dist);
  free(queue);
  return ecc;
}

/* 3. grid shape, over a table of sizes including one row and one column. */
static void test_grid_shape(void) {
  const uint32_t sizes[][2] = {{1, 1}, {1, 17}, {13, 1}, {2, 2}, {40, 25}, {101, 57}};
  for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
    uint32_t R = sizes[i][0], C = sizes[i][1];
    ds_graph g;
    ds_error err;
    memset(&g, POISON_BYTE, sizeof g);
    if (ds_gen_grid(R, C, 1, 100, 17, &g, &err) != DS_OK) {
      CHECK(0, "grid %ux%u: %s", R, C, err.msg);
      continue;
    }
    uint32_t e = eccentricity(&g, 0);
    CHECK(e == R + C - 2, "grid %ux%u: corner eccentricity %u, expected %u", R, C, e, R + C - 2);
    uint32_t centre = (R / 2) * C + C / 2;
    uint32_t want_c = (R / 2 > R - 1 - R / 2 ? R / 2 : R - 1 - R / 2) +
                      (C / 2 > C - 1 - C / 2 ? C / 2 : C - 1 - C / 2);
    e = eccentricity(&g, centre);
    CHECK(e == want_c, "grid %ux%u: centre eccentricity %u, expected %u", R, C, e, want_c);
    /* degrees: count vertices by degree, against the count by position */
    uint64_t by_deg[5] = {0}, want[5] = {0};
    for (uint32_t v = 0; v < g.n; v++) {
      uint64_t d = g.row_offsets[v + 1] - g.row_offsets[v];
      by_deg[d > 4 ? 4 : d]++;
      uint32_t r = v / C, c = v % C;
      want[(r > 0) + (r + 1 < R) + (c > 0) + (c + 1 < C)]++;
    }
    CHECK(!memcmp(by_deg, want, sizeof want), "grid %ux%u: degree counts differ", R, C);
    CHECK(g.m == 2 * ((uint64_t)R * (C - 1) + (uint64_t)(R - 1) * C), "grid %ux%u: %llu arcs", R,
          C, (unsigned long long)g.m);
    ds_graph_free(&g);
  }
}

/* 4. shortcuts */
static void test_shortcuts(void) {
  ds_graph a, b;
  ds_error err;
  ds_gen_spec s;
  ds_status st[DS_GEN_UNIFORM + 1];
  for (int k = DS_GEN_KRON; k <= DS_GEN_UNIFORM; k++) {
    s = small_spec((ds_gen_kind)k);
    memset(&a, POISON_BYTE, sizeof a);
    switch (s.kind) {
      case DS_GEN_KRON:
        st[k] = ds_gen_kron(s.scale, s.edge_factor, s.a, s.b, s.c, s.weight_min, s.weight_max,
                              s.seed, &a, &err);
        break;
      case DS_GEN_RMAT:
        st[k] = ds_gen_rmat(s.n, s.m, s.a, s.b, s.c, s.weight_min, s.weight_max, s.seed, &a,
                              &err);
        break;
      case DS_GEN_GRID:
        st[k] = ds_gen_grid(s.rows, s.cols, s.weight_min, s.weight_max, s.seed, &a, &err);
        break;
      case DS_GEN_GEO:
        s.geo_weight = DS_GEN_GEO_WEIGHT_DISTANCE;
        s.radius = sqrt(s.degree / (3.14159265358979323846 * s.n));
        st[k] = ds_gen_geo(s.n, s.radius, s.weight_min, s.weight_max, s.seed, &a, &err);
        break;
      case DS_GEN_UNIFORM:
        st[k] = ds_gen_uniform(s.n, s.m, s.weight_min, s.weight_max, s.seed, &a, &err);
        break;
    }
    CHECK(st[k] == DS_OK, "shortcut %s: %s", ds_gen_kind_name(s.kind), err.msg);
    if (st[k] != DS_OK) continue;
    graph_or_die(&s, &b);
    CHECK(same_graph(&a, &b), "shortcut %s differs from its spec", ds_gen_kind_name(s.kind));
    ds_graph_free(&a);
    ds_graph_free(&b);
  }
  /* errors come back, not crashes */
  CHECK(ds_gen_kron(0, 16, 0.57, 0.19, 0.19, 1, 255, 1, &a, &err) == DS_ERR_ARG,
        "kron scale 0 accepted");
  CHECK(ds_gen_grid(3, 3, 9, 1, 1, &a, &err) == DS_ERR_ARG, "grid weights 9:1 accepted");
}

int main(void) {
  test_every_kind();
  test_kron_shape();
  test_grid_shape();
  test_shortcuts();
  return ds_test_finish("test_gen_graph");
}
