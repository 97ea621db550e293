/* The GPU backends of kcore and tc against their CPU oracles: the known
 * shapes (cliques, stars, paths, grids, isolated vertices, a single edge, no
 * edges), tiny random graphs, the generated graphs of the CPU tests and, but
 * with --quick, the bundled datasets (made undirected) and a Kronecker graph
 * of scale 16. Core numbers and per-vertex triangle counts are compared
 * vertex by vertex, with the outputs poisoned before every run; kcore with
 * the default small-round bounds, with every sub-round on the grid and with
 * every variant of the peeling at once (and, with --quick, every small one on
 * block 0 alone and each variant alone, at the extreme windows and local
 * bounds); tc also with
 * each probe of long rows (search, bitmap, slab hash), mixed across the long
 * bins, and the smallest and largest short-row classes (the first three
 * option sets on every graph, all of them with --quick).
 * --sanitize: the shapes and 3 of the tiny graphs alone, four tc option sets
 * (racecheck ran past 180 s with ten of them on the H100), and kcore's
 * default and all-variants sets.
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

#define ALL3(p) {p, p, p}
/* tc options: the default, the hash everywhere, then each probe with extreme
 * class bounds and the probes mixed across the long bins */
static const ds_tc_gpu_options TC_OPTIONS[] = {
    {DS_TC_GPU_SHORT_MAX, ALL3(DS_TC_PROBE_BITMAP)},
    {2, ALL3(DS_TC_PROBE_HASH)},
    {2, ALL3(DS_TC_PROBE_SEARCH)},
    {2, ALL3(DS_TC_PROBE_BITMAP)},
    {512, ALL3(DS_TC_PROBE_SEARCH)},
    {512, ALL3(DS_TC_PROBE_HASH)},
    {DS_TC_GPU_SHORT_MAX, {DS_TC_PROBE_HASH, DS_TC_PROBE_SEARCH, DS_TC_PROBE_BITMAP}},
    {3, {DS_TC_PROBE_BITMAP, DS_TC_PROBE_HASH, DS_TC_PROBE_HASH}},
};
#define N_TC_OPTIONS (sizeof TC_OPTIONS / sizeof TC_OPTIONS[0])

static int g_quick = 0, g_sanitize = 0;

/* kcore options: the default, every sub-round by the whole grid, every
 * sub-round that the bounds allow by block 0 alone on one block an SM; then
 * the variants (solo items, arcs, blocks an SM, spread, aggregate, local
 * arcs, window): each alone (local_arcs at its bound, so that lanes' stacks
 * fill and spill to the queue), all at once, and all at once on the grid
 * alone with the smallest window and on block 0 alone with the largest;
 * last, the window alone at both extremes, with the three variants off */
#define SOLO_DEFAULT DS_KCORE_GPU_SOLO_ITEMS, DS_KCORE_GPU_SOLO_ARCS
static const ds_kcore_gpu_options KCORE_OPTIONS[] = {
    {SOLO_DEFAULT, 0, 0, 0, 0, 0, 0, 0},
    {0, 0, 0, 0, 0, 0, 0, 0, 0},
    {1u << 20, 1ull << 24, 1, 0, 0, 0, 0, 0, 0},
    {SOLO_DEFAULT, 0, 1, 0, 0, 0, 0, 0},
    {SOLO_DEFAULT, 0, 0, 1, 0, 0, 0, 0},
    {SOLO_DEFAULT, 0, 0, 0, 1024, 0, 0, 0},
    {SOLO_DEFAULT, 0, 1, 1, 32, 0, 0, 0},
    {0, 0, 1, 1, 1, 4, 2, 0, 0},
    {1u << 20, 1ull << 24, 0, 1, 1, 32, 254, 0, 0},
    {SOLO_DEFAULT, 0, 0, 0, 0, 2, 0, 0},
    {0, 0, 0, 0, 0, 0, 254, 0, 0},
};
#define N_KCORE_OPTIONS (sizeof KCORE_OPTIONS / sizeof KCORE_OPTIONS[0])
/* the sets of a full run and of --sanitize (--quick: all of them) */
static const size_t KCORE_FULL[] = {0, 1, 6}, KCORE_SANITIZE[] = {0, 6};

static void check_kcore(const ds_graph *g, const char *what) {
  const size_t n1 = (size_t)g->n + 1;
  uint32_t *want = malloc(n1 * sizeof *want), *got = malloc(n1 * sizeof *got);
  ds_error err;
  if (!CHECK(want && got, "%s: no memory", what) ||
      !CHECK(ds_kcore_oracle(g, want, &err) == DS_OK, "%s: oracle: %s", what, err.msg))
    goto done;
  const size_t *sets = g_sanitize ? KCORE_SANITIZE : KCORE_FULL;
  const size_t n_sets = g_sanitize ? sizeof KCORE_SANITIZE / sizeof KCORE_SANITIZE[0]
                        : g_quick  ? N_KCORE_OPTIONS
                                   : sizeof KCORE_FULL / sizeof KCORE_FULL[0];
  for (size_t i = 0; i < n_sets; i++) {
    const size_t o = g_quick && !g_sanitize ? i : sets[i];
    const ds_kcore_gpu_options *opt = &KCORE_OPTIONS[o];
    ds_kcore_gpu *gpu = NULL;
    if (!CHECK(ds_kcore_gpu_open(0, g, opt, &gpu, &err) == DS_OK,
               "%s: kcore open: %s", what, err.msg))
      break;
    for (int run = 0; run < 2; run++) { /* a second run on the same context starts afresh */
      memset(got, POISON_BYTE, n1 * sizeof *got);
      double ms = -1.0;
      ds_kcore_gpu_stats st;
      if (!CHECK(ds_kcore_gpu_run(gpu, got, &ms, &st, &err) == DS_OK, "%s: kcore run: %s", what,
                 err.msg))
        break;
      CHECK(ms >= 0.0, "%s: kcore time %f", what, ms);
      const int no_solo = opt->solo_items == 0 && opt->solo_arcs == 0;
      CHECK(st.solo_rounds <= st.rounds && (!no_solo || st.solo_rounds == 0),
            "%s, options %zu: %llu solo rounds of %llu", what, o,
            (unsigned long long)st.solo_rounds, (unsigned long long)st.rounds);
      CHECK(opt->local_arcs > 0 || st.local_peels == 0, "%s, options %zu: %llu local peels",
            what, o, (unsigned long long)st.local_peels);
      for (uint32_t v = 0; v < g->n; v++)
        if (!CHECK(got[v] == want[v], "%s, options %zu, run %d: vertex %u core %u, the "
                   "oracle's %u", what, o, run, v, got[v], want[v]))
          break;
      CHECK(got[g->n] == 0xA5A5A5A5u, "%s: kcore wrote past n", what);
    }
    ds_kcore_gpu_close(gpu);
  }
done:
  free(want);
  free(got);
}

/* Variants out of range are refused by name before any device work. */
static void check_kcore_option_errors(void) {
  static const ds_kcore_gpu_options BAD[] = {
      {SOLO_DEFAULT, 0, 0, 0, 0, 1, 0, 0},    {SOLO_DEFAULT, 0, 0, 0, 0, 255, 0, 0},
      {SOLO_DEFAULT, 0, 0, 0, 1025, 0, 0, 0}, {SOLO_DEFAULT, 0, 2, 0, 0, 0, 0, 0},
      {SOLO_DEFAULT, 0, 0, 2, 0, 0, 0, 0},   {SOLO_DEFAULT, 0, 0, 0, 0, 0, 0, 2},
  };
  uint64_t row[3] = {0, 1, 2};
  uint32_t col[2] = {1, 0};
  ds_graph g;
  memset(&g, 0, sizeof g);
  g.n = 2, g.m = 2, g.row_offsets = row, g.col = col, g.symmetric = 1;
  for (size_t i = 0; i < sizeof BAD / sizeof BAD[0]; i++) {
    ds_kcore_gpu *gpu = NULL;
    ds_error err;
    CHECK(ds_kcore_gpu_open(0, &g, &BAD[i], &gpu, &err) == DS_ERR_ARG && gpu == NULL,
          "kcore options %zu out of range: not refused", i);
    ds_kcore_gpu_close(gpu);
  }
}

static void check_tc(const ds_graph *g, const char *what) {
  const size_t n1 = (size_t)g->n + 1;
  uint64_t *want = malloc(n1 * sizeof *want), *got = malloc(n1 * sizeof *got), total_want = 0;
  ds_error err;
  if (!CHECK(want && got, "%s: no memory", what) ||
      !CHECK(ds_tc_oracle(g, &total_want, want, &err) == DS_OK, "%s: oracle: %s", what, err.msg))
    goto done;
  for (size_t o = 0; o < (g_quick ? N_TC_OPTIONS : 3u); o++) {
    /* racecheck's pace: the default, each probe once, and the mix of probes */
    if (g_sanitize && o > 2 && o + 1 < N_TC_OPTIONS) continue;
    ds_tc_gpu *gpu = NULL;
    if (!CHECK(ds_tc_gpu_open(0, g, &TC_OPTIONS[o], &gpu, &err) == DS_OK, "%s: tc open: %s", what,
               err.msg))
      break;
    for (int per = 0; per < 2; per++) {
      uint64_t total = 0xA5A5A5A5A5A5A5A5ull;
      memset(got, POISON_BYTE, n1 * sizeof *got);
      ds_tc_gpu_stats st;
      if (!CHECK(ds_tc_gpu_run(gpu, &total, per ? got : NULL, NULL, &st, &err) == DS_OK,
                 "%s: tc run: %s", what, err.msg))
        break;
      uint64_t by_class = 0, rows = 0;
      for (int c = 0; c < DS_TC_GPU_CLASSES; c++) by_class += st.class_triangles[c];
      for (int c = 0; c < DS_TC_GPU_CLASSES; c++) rows += st.class_rows[c];
      CHECK(by_class == total, "%s, options %zu: the classes' triangles sum to %llu, not %llu",
            what, o, (unsigned long long)by_class, (unsigned long long)total);
      CHECK(rows <= g->n, "%s, options %zu: %llu rows in classes", what, o,
            (unsigned long long)rows);
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
  for (uint64_t seed = 1; seed <= (g_sanitize ? TINY_GRAPHS / 8 : TINY_GRAPHS); seed++) {
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

/* A stall forced in the peeling kernel (one block never arrives at its first
 * barrier): the run fails after the bound with "the GPU k-core stalled" and
 * where, the kernel ends, and a new context on the same device then gives
 * the oracle's core numbers. */
static void check_kcore_stall(void) {
  ds_graph g;
  if (!CHECK(shape_random(2000, 12000, 7, &g), "stall graph: no memory")) return;
  const size_t n1 = (size_t)g.n + 1;
  uint32_t *want = malloc(n1 * sizeof *want), *got = malloc(n1 * sizeof *got);
  ds_error err;
  if (CHECK(want && got, "stall: no memory") &&
      CHECK(ds_kcore_oracle(&g, want, &err) == DS_OK, "stall: oracle: %s", err.msg)) {
    ds_kcore_gpu_options opt;
    ds_kcore_gpu_options_default(&opt);
    opt.stall_ms = 100;
    opt.force_stall = 1;
    ds_kcore_gpu *gpu = NULL;
    if (CHECK(ds_kcore_gpu_open(0, &g, &opt, &gpu, &err) == DS_OK, "stall open: %s", err.msg)) {
      err.msg[0] = 0;
      const ds_status st = ds_kcore_gpu_run(gpu, got, NULL, NULL, &err);
      CHECK(st == DS_ERR_DEVICE && strstr(err.msg, "the GPU k-core stalled") &&
                strstr(err.msg, "grid barrier"),
            "forced kcore stall: status %d: %s", (int)st, err.msg);
    }
    ds_kcore_gpu_close(gpu);
    gpu = NULL;
    /* the default bound: under other processes' kernels a real wait can outlast 100 ms of
       GPU time (the clock runs on while the context is switched out) */
    opt.force_stall = 0;
    opt.stall_ms = 0;
    memset(got, POISON_BYTE, n1 * sizeof *got);
    if (CHECK(ds_kcore_gpu_open(0, &g, &opt, &gpu, &err) == DS_OK, "after the stall: %s", err.msg) &&
        CHECK(ds_kcore_gpu_run(gpu, got, NULL, NULL, &err) == DS_OK, "after the stall: %s", err.msg))
      for (uint32_t v = 0; v < g.n; v++)
        if (!CHECK(got[v] == want[v], "after the stall: vertex %u core %u, the oracle's %u", v,
                   got[v], want[v]))
          break;
    ds_kcore_gpu_close(gpu);
  }
  free(want);
  free(got);
  ds_graph_free(&g);
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
  check_kcore_option_errors();
  check_kcore_stall();
  check_shapes();
  if (!g_sanitize) shape_each_generated(check_both);
  if (!g_quick && datasets != NULL) check_datasets(datasets);
  return ds_test_finish("kcore and tc on the GPU against their oracles%s",
                        g_quick ? " (quick)" : "");
}
