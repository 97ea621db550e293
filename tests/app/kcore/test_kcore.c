/* Core numbers: ds_kcore_oracle and ds_kcore_cpu (1, 2, 4 and the default
 * number of threads) against the known answers of small shapes, against a
 * brute-force peeling by the definition on tiny random graphs, and against each
 * other on generated graphs (Kronecker, grid, geometric, uniform random) large
 * enough for parallel rounds. ds_kcore_summary against counts made here.
 * Directed graphs and NULL arguments are argument errors. Outputs are poisoned
 * before every call.
 */
#include "undirected_shapes.h" /* first: ds_test.h sets the feature macros */

#include "kcore.h"

#define TINY_GRAPHS 40
#define TINY_N 24u

static const int THREADS[] = {1, 2, 4, 0};
#define N_THREADS (sizeof THREADS / sizeof THREADS[0])

/* Core numbers by the definition: the k-core is what is left after removing,
 * again and again, every vertex with fewer than k neighbours left; a vertex's
 * core number is the largest k whose k-core holds it. O(n^2 * max degree). */
static void brute_cores(const ds_graph *g, uint32_t *core) {
  char *in = malloc(g->n + 1u);
  if (!CHECK(in != NULL, "brute force: no memory")) return;
  for (uint32_t v = 0; v < g->n; v++) core[v] = 0;
  for (uint32_t k = 1;; k++) {
    memset(in, 1, g->n);
    for (int changed = 1; changed;) {
      changed = 0;
      for (uint32_t v = 0; v < g->n; v++) {
        if (!in[v]) continue;
        uint32_t d = 0;
        for (uint64_t e = g->row_offsets[v]; e < g->row_offsets[v + 1]; e++) d += in[g->col[e]];
        if (d < k) in[v] = 0, changed = 1;
      }
    }
    int any = 0;
    for (uint32_t v = 0; v < g->n; v++)
      if (in[v]) core[v] = k, any = 1;
    if (!any) break;
  }
  free(in);
}

/* Runs the oracle and the backend at every thread count; each must equal want. */
static void check_all(const ds_graph *g, const uint32_t *want, const char *what) {
  uint32_t *got = malloc(((size_t)g->n + 1) * sizeof *got);
  if (!CHECK(got != NULL, "%s: no memory", what)) return;
  ds_error err;
  for (size_t t = 0; t <= N_THREADS; t++) {
    const int oracle = t == N_THREADS;
    memset(got, POISON_BYTE, ((size_t)g->n + 1) * sizeof *got);
    const ds_status st = oracle ? ds_kcore_oracle(g, got, &err)
                                : ds_kcore_cpu(g, THREADS[t], got, &err);
    if (!CHECK(st == DS_OK, "%s %s: %s", what, oracle ? "oracle" : "cpu", err.msg)) continue;
    for (uint32_t v = 0; v < g->n; v++)
      if (!CHECK(got[v] == want[v], "%s, %s threads %d: vertex %u core %u, want %u", what,
                 oracle ? "oracle" : "cpu", oracle ? 1 : THREADS[t], v, got[v], want[v]))
        break;
    CHECK(got[g->n] == 0xA5A5A5A5u, "%s: wrote past n", what);
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
    check_all(&g, s.core, SHAPES[i].name);
    /* the summary: degeneracy and the count of each core number */
    uint32_t top = 0, want_top = 0;
    uint64_t sizes[SHAPE_MAX_N + 1], want_sizes[SHAPE_MAX_N + 1] = {0};
    for (uint32_t v = 0; v < s.n; v++) {
      if (s.core[v] > want_top) want_top = s.core[v];
      want_sizes[s.core[v]]++;
    }
    ds_kcore_summary(s.core, s.n, &top, NULL);
    CHECK(top == want_top, "%s: degeneracy %u, want %u", SHAPES[i].name, top, want_top);
    memset(sizes, POISON_BYTE, sizeof sizes);
    ds_kcore_summary(s.core, s.n, &top, sizes);
    for (uint32_t k = 0; k <= want_top; k++)
      CHECK(sizes[k] == want_sizes[k], "%s: %llu vertices of core %u, want %llu", SHAPES[i].name,
            (unsigned long long)sizes[k], k, (unsigned long long)want_sizes[k]);
    CHECK(sizes[want_top + 1] == 0xA5A5A5A5A5A5A5A5ull, "%s: summary wrote past degeneracy",
          SHAPES[i].name);
    ds_graph_free(&g);
  }
}

static void check_tiny_random(void) {
  char what[96];
  uint32_t want[SHAPE_MAX_N];
  for (uint64_t seed = 1; seed <= TINY_GRAPHS; seed++) {
    ds_graph g;
    const uint32_t n = 2 + (uint32_t)(seed % (TINY_N - 1));
    if (!shape_random(n, seed % 7 * n, seed, &g)) continue;
    snprintf(what, sizeof what, "random n=%u seed=%llu", n, (unsigned long long)seed);
    brute_cores(&g, want);
    check_all(&g, want, what);
    ds_graph_free(&g);
  }
  ds_graph g;
  for (int i = SHAPE_FIRST_TINY, made; (made = shape_generated(i, &g, what, sizeof what)) >= 0;
       i++) {
    if (!made) continue;
    if (CHECK(g.n <= SHAPE_MAX_N, "%s: %u vertices", what, g.n)) {
      brute_cores(&g, want);
      check_all(&g, want, what);
    }
    ds_graph_free(&g);
  }
}

/* Larger graphs: the oracle is the reference. */
static void check_against_oracle(ds_graph *g, const char *what) {
  uint32_t *want = malloc(((size_t)g->n + 1) * sizeof *want);
  ds_error err;
  if (CHECK(want != NULL, "%s: no memory", what) &&
      CHECK(ds_kcore_oracle(g, want, &err) == DS_OK, "%s oracle: %s", what, err.msg))
    check_all(g, want, what);
  free(want);
  ds_graph_free(g);
}

static void check_generated(void) { shape_each_generated(check_against_oracle); }

static void check_errors(void) {
  const uint32_t src[] = {0, 1}, dst[] = {1, 2};
  ds_graph g;
  uint32_t core[3];
  ds_error err;
  if (!shape_csr(3, 2, src, dst, 0, &g)) return;
  CHECK(ds_kcore_oracle(&g, core, &err) == DS_ERR_ARG && strstr(err.msg, "not symmetric"),
        "oracle took a directed graph (%s)", err.msg);
  CHECK(ds_kcore_cpu(&g, 2, core, &err) == DS_ERR_ARG && strstr(err.msg, "not symmetric"),
        "cpu took a directed graph (%s)", err.msg);
  g.symmetric = 1;
  CHECK(ds_kcore_oracle(&g, NULL, &err) == DS_ERR_ARG, "oracle took a NULL core");
  CHECK(ds_kcore_cpu(&g, 2, NULL, &err) == DS_ERR_ARG, "cpu took a NULL core");
  CHECK(ds_kcore_oracle(NULL, core, &err) == DS_ERR_ARG, "oracle took a NULL graph");
  CHECK(ds_kcore_cpu(NULL, 2, core, &err) == DS_ERR_ARG, "cpu took a NULL graph");
  ds_graph_free(&g);
}

/* The GPU variants' names (ds_kcore_gpu_options_variant): what each word sets, and that a bad
 * word leaves the options as they were. */
static int same_options(const ds_kcore_gpu_options *a, const ds_kcore_gpu_options *b) {
  return a->solo_items == b->solo_items && a->solo_arcs == b->solo_arcs &&
         a->blocks_per_sm == b->blocks_per_sm && a->spread == b->spread &&
         a->aggregate == b->aggregate && a->local_arcs == b->local_arcs && a->window == b->window;
}

static void check_variant_names(void) {
  ds_kcore_gpu_options o, d;
  ds_kcore_gpu_options_default(&d);
  o = d;
  CHECK(d.spread == 1 && d.aggregate == 1 && d.local_arcs == 32 && d.blocks_per_sm == 1 &&
            d.window == 0,
        "defaults: %u %u %u %u %u", d.spread, d.aggregate, d.local_arcs, d.blocks_per_sm,
        d.window);
  CHECK(ds_kcore_gpu_options_variant(&o, "base") && o.spread == 0 && o.aggregate == 0 &&
            o.local_arcs == 0 && o.blocks_per_sm == 0 && o.window == 0 &&
            o.solo_items == d.solo_items && o.solo_arcs == d.solo_arcs,
        "variant base is not the plain kernel");
  CHECK(ds_kcore_gpu_options_variant(&o, "default") && same_options(&o, &d),
        "variant default is not the defaults");
  o = d;
  CHECK(ds_kcore_gpu_options_variant(&o, "base+spread+agg+local16+win64+bpsm2") && o.spread == 1 &&
            o.aggregate == 1 && o.local_arcs == 16 && o.window == 64 && o.blocks_per_sm == 2 &&
            o.solo_items == d.solo_items,
        "variant spread+agg+local16+win64+bpsm2: %u %u %u %u %u", o.spread, o.aggregate,
        o.local_arcs, o.window, o.blocks_per_sm);
  o = d;
  CHECK(ds_kcore_gpu_options_variant(&o, "base+all") && o.spread == 1 && o.aggregate == 1 &&
            o.local_arcs == 32 && o.window == 0,
        "variant all");
  static const char *const BAD[] = {"spreadx", "local", "win", "agg+", "+agg", "bpsm-1", "fast"};
  for (size_t i = 0; i < sizeof BAD / sizeof BAD[0]; i++) {
    o = d;
    CHECK(!ds_kcore_gpu_options_variant(&o, BAD[i]) && same_options(&o, &d),
          "variant '%s' accepted, or the options changed", BAD[i]);
  }
}

int main(void) {
  check_shapes();
  check_tiny_random();
  check_generated();
  check_errors();
  check_variant_names();
  return ds_test_finish("k-core: shapes, brute force, oracle vs OpenMP, GPU variant names");
}
