/* Triangle counts: ds_tc_oracle and ds_tc_cpu (1, 2, 4 and the default number
 * of threads), total and per vertex, against the known answers of small shapes
 * (C(k, 3) triangles in K_k), against brute force over every vertex triple on
 * tiny random graphs, and against each other on generated graphs (Kronecker,
 * grid, geometric, uniform random). Directed graphs and NULL arguments are
 * argument errors. Outputs are poisoned before every call.
 */
#include "undirected_shapes.h" /* first: ds_test.h sets the feature macros */

#include "tc.h"

#define TINY_GRAPHS 40
#define TINY_N 30u
#define POISON_U64 0xA5A5A5A5A5A5A5A5ull

static const int THREADS[] = {1, 2, 4, 0};
#define N_THREADS (sizeof THREADS / sizeof THREADS[0])

/* Every triple u < v < w whose three pairs are adjacent. O(n^3 log d). */
static uint64_t brute_triangles(const ds_graph *g, uint64_t *per_vertex) {
  uint64_t total = 0;
  memset(per_vertex, 0, (size_t)g->n * sizeof *per_vertex);
  for (uint32_t u = 0; u < g->n; u++)
    for (uint32_t v = u + 1; v < g->n; v++) {
      if (!shape_adjacent(g, u, v)) continue;
      for (uint32_t w = v + 1; w < g->n; w++)
        if (shape_adjacent(g, u, w) && shape_adjacent(g, v, w)) {
          total++;
          per_vertex[u]++;
          per_vertex[v]++;
          per_vertex[w]++;
        }
    }
  return total;
}

/* Runs the oracle and the backend at every thread count, with and without per-vertex
 * counts; each must equal the wanted total and per-vertex counts. */
static void check_all(const ds_graph *g, uint64_t want_total, const uint64_t *want,
                      const char *what) {
  uint64_t *got = malloc(((size_t)g->n + 1) * sizeof *got);
  if (!CHECK(got != NULL, "%s: no memory", what)) return;
  ds_error err;
  for (size_t t = 0; t <= N_THREADS; t++)
    for (int per = 0; per < 2; per++) {
      const int oracle = t == N_THREADS;
      const char *who = oracle ? "oracle" : "cpu";
      const int threads = oracle ? 1 : THREADS[t];
      uint64_t total = POISON_U64;
      memset(got, POISON_BYTE, ((size_t)g->n + 1) * sizeof *got);
      uint64_t *pv = per ? got : NULL;
      const ds_status st =
          oracle ? ds_tc_oracle(g, &total, pv, &err) : ds_tc_cpu(g, threads, &total, pv, &err);
      if (!CHECK(st == DS_OK, "%s %s: %s", what, who, err.msg)) continue;
      CHECK(total == want_total, "%s, %s threads %d: %llu triangles, want %llu", what, who,
            threads, (unsigned long long)total, (unsigned long long)want_total);
      if (!per) continue;
      for (uint32_t v = 0; v < g->n; v++)
        if (!CHECK(got[v] == want[v], "%s, %s threads %d: vertex %u in %llu triangles, want %llu",
                   what, who, threads, v, (unsigned long long)got[v],
                   (unsigned long long)want[v]))
          break;
      CHECK(got[g->n] == POISON_U64, "%s: wrote past n", what);
    }
  free(got);
}

static void check_shapes(void) {
  static shape_graph s;
  for (size_t i = 0; i < sizeof SHAPES / sizeof SHAPES[0]; i++) {
    ds_graph g;
    if (!CHECK(shape_make(&SHAPES[i], &s), "%s: too large", SHAPES[i].name) ||
        !shape_csr(s.n, s.count, s.src, s.dst, 1, &g))
      continue;
    check_all(&g, s.total, s.tri, SHAPES[i].name);
    ds_graph_free(&g);
  }
}

static void check_tiny_random(void) {
  char what[96];
  uint64_t want[SHAPE_MAX_N];
  for (uint64_t seed = 1; seed <= TINY_GRAPHS; seed++) {
    ds_graph g;
    const uint32_t n = 3 + (uint32_t)(seed % (TINY_N - 2));
    if (!shape_random(n, seed % 9 * n, seed, &g)) continue;
    snprintf(what, sizeof what, "random n=%u seed=%llu", n, (unsigned long long)seed);
    const uint64_t total = brute_triangles(&g, want);
    check_all(&g, total, want, what);
    ds_graph_free(&g);
  }
  ds_graph g;
  for (int i = SHAPE_FIRST_TINY, made; (made = shape_generated(i, &g, what, sizeof what)) >= 0;
       i++) {
    if (!made) continue;
    if (CHECK(g.n <= SHAPE_MAX_N, "%s: %u vertices", what, g.n)) {
      const uint64_t total = brute_triangles(&g, want);
      check_all(&g, total, want, what);
    }
    ds_graph_free(&g);
  }
}

/* Larger graphs: the oracle is the reference. */
static void check_against_oracle(ds_graph *g, const char *what) {
  uint64_t *want = malloc(((size_t)g->n + 1) * sizeof *want), total = 0;
  ds_error err;
  if (CHECK(want != NULL, "%s: no memory", what) &&
      CHECK(ds_tc_oracle(g, &total, want, &err) == DS_OK, "%s oracle: %s", what, err.msg)) {
    if (strncmp(what, "grid", 4) == 0)
      CHECK(total == 0, "%s: %llu triangles, want 0", what, (unsigned long long)total);
    else
      CHECK(total > 0, "%s: no triangles: the comparison would prove little", what);
    check_all(g, total, want, what);
  }
  free(want);
  ds_graph_free(g);
}

static void check_generated(void) { shape_each_generated(check_against_oracle); }

static void check_errors(void) {
  const uint32_t src[] = {0, 1, 2}, dst[] = {1, 2, 0};
  ds_graph g;
  uint64_t total, pv[3];
  ds_error err;
  if (!shape_csr(3, 3, src, dst, 0, &g)) return;
  CHECK(ds_tc_oracle(&g, &total, pv, &err) == DS_ERR_ARG && strstr(err.msg, "not symmetric"),
        "oracle took a directed graph (%s)", err.msg);
  CHECK(ds_tc_cpu(&g, 2, &total, pv, &err) == DS_ERR_ARG && strstr(err.msg, "not symmetric"),
        "cpu took a directed graph (%s)", err.msg);
  g.symmetric = 1;
  CHECK(ds_tc_oracle(&g, NULL, pv, &err) == DS_ERR_ARG, "oracle took a NULL total");
  CHECK(ds_tc_cpu(&g, 2, NULL, pv, &err) == DS_ERR_ARG, "cpu took a NULL total");
  CHECK(ds_tc_oracle(NULL, &total, pv, &err) == DS_ERR_ARG, "oracle took a NULL graph");
  CHECK(ds_tc_cpu(NULL, 2, &total, pv, &err) == DS_ERR_ARG, "cpu took a NULL graph");
  ds_graph_free(&g);
}

int main(void) {
  check_shapes();
  check_tiny_random();
  check_generated();
  check_errors();
  return ds_test_finish("triangles: shapes, brute force, oracle vs OpenMP");
}
