/* The GPU backends of kcore and tc against their CPU oracles: the known
 * shapes (cliques, stars, paths, grids, isolated vertices, a single edge, no
 * edges), tiny random graphs, the generated graphs of the CPU tests and, but
 * with --quick, the bundled datasets (made undirected) and a Kronecker graph
 * of scale 16. Core numbers and per-vertex triangle counts are compared
 * vertex by vertex, with the outputs poisoned before every run; tc also with
 * both probes of long rows and the smallest and largest short-row classes.
 * --sanitize: the shapes and tiny graphs alone (for racecheck's pace).
 * Exits 77 where no CUDA device is present.
 *
 *   test_graph_codes_gpu [--quick | --sanitize] [--datasets DIR]
 */
#include "undirected_shapes.h" /* first: ds_test.h sets the feature macros */

#include <cuda_runtime_api.h>

#include "kcore.h"
#include "tc.h"

#define TINY_GRAPHS 30
static const char *const DATASETS[] = {"rome99.gr", "NY.mtx.gz", "delaunay_n16.mtx.gz",
                                       "luxembourg_osm.mtx.gz", "BAY.mtx.gz", "COL.mtx.gz"};

/* tc options: the default, then each probe with extreme class bounds */
static const ds_tc_gpu_options TC_OPTIONS[] = {
    {DS_TC_GPU_SHORT_MAX, DS_TC_PROBE_BITMAP},
    {2, DS_TC_PROBE_SEARCH},
    {2, DS_TC_PROBE_BITMAP},
    {512, DS_TC_PROBE_SEARCH},
};
#define N_TC_OPTIONS (sizeof TC_OPTIONS / sizeof TC_OPTIONS[0])

static int g_quick = 0, g_sanitize = 0;

static void check_kcore(const ds_graph *g, const char *what) {
  const size_t n1 = (size_t)g->n + 1;
  uint32_t *want = malloc(n1 * sizeof *want), *got = malloc(n1 * sizeof *got);
  ds_kcore_gpu *gpu = NULL;
  ds_error err;
  if (!CHECK(want && got, "%s: no memory", what) ||
      !CHECK(ds_kcore_oracle(g, want, &err) == DS_OK, "%s: oracle: %s", what, err.msg) ||
      !CHECK(ds_kcore_gpu_open(0, g, &gpu, &err) == DS_OK, "%s: kcore open: %s", what, err.msg))
    goto done;
  for (int run = 0; run < 2; run++) { /* a second run on the same context starts afresh */
    memset(got, POISON_BYTE, n1 * sizeof *got);
    double ms = -1.0;
    ds_kcore_gpu_stats st;
    if (!CHECK(ds_kcore_gpu_run(gpu, got, &ms, &st, &err) == DS_OK, "%s: kcore run: %s", what,
               err.msg))
      break;
    CHECK(ms >= 0.0, "%s: kcore time %f", what, ms);
    for (uint32_t v = 0; v < g->n; v++)
      if (!CHECK(got[v] == want[v], "%s run %d: vertex %u core %u, the oracle's %u", what, run, v,
                 got[v], want[v]))
        break;
    CHECK(got[g->n] == 0xA5A5A5A5u, "%s: kcore wrote past n", what);
  }
done:
  ds_kcore_gpu_close(gpu);
  free(want);
  free(got);
}

static void check_tc(const ds_graph *g, const char *what) {
  const size_t n1 = (size_t)g->n + 1;
  uint64_t *want = malloc(n1 * sizeof *want), *got = malloc(n1 * sizeof *got), total_want = 0;
  ds_error err;
  if (!CHECK(want && got, "%s: no memory", what) ||
      !CHECK(ds_tc_oracle(g, &total_want, want, &err) == DS_OK, "%s: oracle: %s", what, err.msg))
    goto done;
  for (size_t o = 0; o < (g_quick ? N_TC_OPTIONS : 2u); o++) {
    ds_tc_gpu *gpu = NULL;
    if (!CHECK(ds_tc_gpu_open(0, g, &TC_OPTIONS[o], &gpu, &err) == DS_OK, "%s: tc open: %s", what,
               err.msg))
      break;
    for (int per = 0; per < 2; per++) {
      uint64_t total = 0xA5A5A5A5A5A5A5A5ull;
      memset(got, POISON_BYTE, n1 * sizeof *got);
      if (!CHECK(ds_tc_gpu_run(gpu, &total, per ? got : NULL, NULL, NULL, &err) == DS_OK,
                 "%s: tc run: %s", what, err.msg))
        break;
      CHECK(total == total_want, "%s, options %zu: %llu triangles, the oracle's %llu", what, o,
            (unsigned long long)total, (unsigned long long)total_want);
      for (uint32_t v = 0; per && v < g->n; v++)
        if (!CHECK(got[v] == want[v], "%s, options %zu: vertex %u in %llu triangles, oracle %llu",
                   what, o, v, (unsigned long long)got[v], (unsigned long long)want[v]))
          break;
      CHECK(got[g->n] == 0xA5A5A5A5A5A5A5A5ull, "%s: tc wrote past n", what);
    }
    ds_tc_gpu_close(gpu);
  }
done:
  free(want);
  free(got);
}

static void check_both(ds_graph *g, const char *what) {
  check_kcore(g, what);
  check_tc(g, what);
  ds_graph_free(g);
}

static void check_shapes(void) {
  static shape_graph s;
  for (size_t i = 0; i < sizeof SHAPES / sizeof SHAPES[0]; i++) {
    ds_graph g;
    if (CHECK(shape_make(&SHAPES[i], &s), "%s: too large", SHAPES[i].name) &&
        shape_csr(s.n, s.count, s.src, s.dst, 1, &g))
      check_both(&g, SHAPES[i].name);
  }
  char what[96];
  for (uint64_t seed = 1; seed <= TINY_GRAPHS; seed++) {
    ds_graph g;
    const uint32_t n = 2 + (uint32_t)(seed % 40);
    snprintf(what, sizeof what, "random n=%u seed=%llu", n, (unsigned long long)seed);
    if (shape_random(n, seed % 9 * n, seed, &g)) check_both(&g, what);
  }
}

static void check_datasets(const char *dir) {
  char path[4096];
  for (size_t i = 0; i < sizeof DATASETS / sizeof DATASETS[0]; i++) {
    snprintf(path, sizeof path, "%s/%s", dir, DATASETS[i]);
    ds_load_options opt;
    ds_load_options_default(&opt);
    opt.undirected = 1;
    opt.use_cache = 0;
    ds_graph g;
    ds_error err;
    if (CHECK(ds_graph_load(path, &opt, &g, &err) == DS_OK, "%s: %s", path, err.msg))
      check_both(&g, DATASETS[i]);
  }
#ifdef DS_TEST_HAVE_GEN
  ds_graph g;
  ds_error err;
  if (CHECK(ds_gen_kron(16, 16, 0.57, 0.19, 0.19, 1, 1, 4, &g, &err) == DS_OK, "kron 16: %s",
            err.msg))
    check_both(&g, "kron scale 16");
#endif
}

int main(int argc, char **argv) {
  const char *datasets = NULL;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--quick") == 0) g_quick = 1;
    else if (strcmp(argv[i], "--sanitize") == 0) g_quick = g_sanitize = 1;
    else if (strcmp(argv[i], "--datasets") == 0 && i + 1 < argc) datasets = argv[++i];
    else {
      fprintf(stderr, "usage: %s [--quick | --sanitize] [--datasets DIR]\n", argv[0]);
      return 2;
    }
  }
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0)
    return ds_test_skip("no CUDA device");
  check_shapes();
  if (!g_sanitize) shape_each_generated(check_both);
  if (!g_quick && datasets != NULL) check_datasets(datasets);
  return ds_test_finish("kcore and tc on the GPU against their oracles%s",
                        g_quick ? " (quick)" : "");
}
