// GPU SSSP tests: every GPU algorithm against an independent CPU Dijkstra.
//
// A table of graphs (built here: one vertex, isolated and unreachable parts,
// a bucket of stale entries only, phases ended early by a full spill, zero weights, a star of 2e5 leaves, distances at and past 32 bits and past FLT_MAX
// (DS_ERR_RANGE, 64-bit results), R-MAT/Kronecker,
// grids, geometric graphs with integer and float weights; plus the bundled
// datasets read with ds_graph_load) times a table of configurations (every
// algorithm; bucket counts 2, 3, 10, 32, 256; deltas 1, the cuGraph-style
// delta and 1e9). Outputs are poisoned before each run. Checks: distances
// equal the oracle's (exactly for integer weights, relative 1e-5 for float),
// predecessors form a tree of tight arcs rooted at the source, reached and
// reached_arcs match, edges_relaxed >= reached_arcs; and argument errors.
//
// Usage: gpu_sssp_test [--quick] [--datasets DIR]
//   --quick: small graphs and a few configurations (for compute-sanitizer).
// Exit 0 pass, 1 fail, DS_TEST_SKIP (ds_test.h) where no CUDA device is present.
#include "test_graphs.h"

#include "ds/device.h"

#include <chrono>

namespace {
using namespace dstest;

struct Config {
  ds_algo algo;
  double delta; // < 0: -k means k * mid_delta
  uint32_t buckets;
};

/* Seconds since an arbitrary start, for the suite's own timing lines. */
double seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

/* Where a graph's time went: the suites' length bounds how often a soak can run them. */
struct Timing {
  double oracle = 0, search = 0, gpu_ms = 0, checks = 0;
};

void check(const Graph &g, ds_gpu_ctx *ctx, uint32_t src, const std::vector<uint32_t> &ref,
           const Config &cfg, Timing *t = nullptr) {
  double delta = cfg.delta < 0 ? -cfg.delta * mid_delta(g) : cfg.delta;
  if (!g.is_float) delta = std::max(1.0, std::ceil(delta));
  char what[256];
  snprintf(what, sizeof what, "%s src %u %s delta %g buckets %u", g.name.c_str(), src,
           cfg.algo == DS_ALGO_NEAR_FAR ? "near-far" : cfg.algo == DS_ALGO_MULTISPLIT ? "multisplit"
           : cfg.algo == DS_ALGO_SORT ? "sort" : "bellman-ford", delta, cfg.buckets);
  std::vector<uint32_t> dist(g.n, POISON), pred(g.n, POISON);
  ds_sssp_params p;
  memset(&p, 0, sizeof p);
  p.delta = delta;
  p.buckets = cfg.buckets;
  p.want_pred = 1;
  ds_sssp_result r;
  memset(&r, 0, sizeof r);
  r.dist = dist.data();
  r.pred = pred.data();
  r.reached = POISON;
  ds_error err;
  err.msg[0] = 0;
  const double t0 = seconds();
  ds_status st = ds_gpu_sssp(ctx, cfg.algo, src, &p, &r, &err);
  const double t1 = seconds();
  REQUIRE(st == DS_OK, "%s: status %d: %s", what, (int)st, err.msg);
  if (t) {
    t->search += t1 - t0;
    t->gpu_ms += r.time_ms;
  }
  // 1. distances
  uint32_t reached = 0;
  uint64_t arcs = 0;
  const uint32_t inf = g.is_float ? fbits(INFINITY) : 0xFFFFFFFFu;
  for (uint32_t v = 0; v < g.n; ++v) {
    bool ok = dist[v] == ref[v];
    if (!ok && g.is_float && ref[v] != inf && dist[v] != inf) {
      double a = bitsf(dist[v]), b = bitsf(ref[v]);
      ok = std::fabs(a - b) <= 1e-5 * std::max(std::fabs(b), 1e-30);
    }
    REQUIRE(ok, "%s: dist[%u] = %#x, oracle %#x", what, v, dist[v], ref[v]);
    if (ref[v] != inf) {
      ++reached;
      arcs += g.row[v + 1] - g.row[v];
    }
  }
  REQUIRE(r.reached == reached && r.reached_arcs == arcs,
          "%s: reached %u / arcs %llu, oracle %u / %llu", what, r.reached,
          (unsigned long long)r.reached_arcs, reached, (unsigned long long)arcs);
  REQUIRE(r.edges_relaxed >= arcs, "%s: edges_relaxed %llu < reached arcs %llu", what,
          (unsigned long long)r.edges_relaxed, (unsigned long long)arcs);
  REQUIRE(r.time_ms > 0 && r.rounds != 0, "%s: time %g ms, rounds %llu", what, r.time_ms,
          (unsigned long long)r.rounds);
  // 2. predecessors: tight arcs, a tree rooted at the source
  for (uint32_t v = 0; v < g.n; ++v) {
    if (v == src || dist[v] == inf) {
      REQUIRE(pred[v] == DS_NO_PRED, "%s: pred[%u] = %u, expected none", what, v, pred[v]);
      continue;
    }
    uint32_t u = pred[v];
    REQUIRE(u < g.n && dist[u] != inf, "%s: pred[%u] = %u is not a reached vertex", what, v, u);
    const uint32_t *b = g.col.data() + g.row[u], *e = g.col.data() + g.row[u + 1];
    const uint32_t *it = std::lower_bound(b, e, v);
    REQUIRE(it != e && *it == v, "%s: pred arc %u->%u does not exist", what, u, v);
    uint32_t w = g.w[it - g.col.data()];
    uint32_t sum = g.is_float ? fbits(bitsf(dist[u]) + bitsf(w))
                              : (uint32_t)std::min<uint64_t>((uint64_t)dist[u] + w, inf);
    REQUIRE(sum == dist[v], "%s: pred arc %u->%u is not tight", what, u, v);
  }
  std::vector<uint8_t> state(g.n, 0); // 0 unknown, 1 on the current path, 2 reaches the source
  state[src] = 2;
  for (uint32_t v = 0; v < g.n; ++v) {
    if (dist[v] == inf || state[v] == 2) continue;
    std::vector<uint32_t> path;
    uint32_t x = v;
    while (state[x] == 0) {
      state[x] = 1;
      path.push_back(x);
      x = pred[x];
    }
    REQUIRE(state[x] != 1, "%s: predecessor cycle through %u", what, x);
    for (uint32_t y : path) state[y] = 2;
  }
  if (t) t->checks += seconds() - t1;
}

void run_graph(Graph &g, const std::vector<Config> &cfgs, const std::vector<uint32_t> &sources) {
  ds_graph view = g.view();
  ds_gpu_ctx *ctx = NULL;
  ds_error err;
  REQUIRE(ds_gpu_open_env(0, &view, &ctx, &err) == DS_OK, "%s: open: %s", g.name.c_str(), err.msg);
  const long before = ds_test_failures();
  Timing t;
  for (uint32_t s : sources) {
    if (s >= g.n) continue;
    const double t0 = seconds();
    std::vector<uint32_t> ref = dijkstra(g, s);
    t.oracle += seconds() - t0;
    for (const Config &c : cfgs) check(g, ctx, s, ref, c, &t);
  }
  ds_gpu_close(ctx);
  printf("%-24s n=%-8u m=%-9zu %zu configs x %zu sources: %s (oracle %.2f s, searches %.2f s of "
         "which GPU %.2f s, checks %.2f s)\n",
         g.name.c_str(), g.n, g.col.size(), cfgs.size(), sources.size(),
         ds_test_failures() == before ? "ok" : "FAILED", t.oracle, t.search, t.gpu_ms / 1e3, t.checks);
  fflush(stdout);
}

/* A stall forced in every engine (one block never arrives at its first grid
 * barrier): each search gives up after its bound and fails with "the GPU
 * search stalled" and where; the kernel ends, and the same context then runs
 * a correct search. The options are the suite's (DS_GPU_*), with the stall. */
void forced_stalls(const std::vector<Config> &cfgs) {
  Graph g = grid("stall-grid-30x30", 30, 30, 1, 99, 7);
  const std::vector<uint32_t> ref = dijkstra(g, 0);
  ds_graph view = g.view();
  ds_error err;
  err.msg[0] = 0;
  ds_gpu_options opt;
  ds_gpu_options_default(&opt);
  REQUIRE(ds_gpu_options_from_env(&opt, &err) == DS_OK, "stall options: %s", err.msg);
  const long before = ds_test_failures();
  for (const Config &c : cfgs) {
    ds_gpu_ctx *ctx = NULL;
    opt.force_stall = 1;
    opt.stall_ms = 100;
    REQUIRE(ds_gpu_open(0, &view, &opt, &ctx, &err) == DS_OK, "stall open: %s", err.msg);
    std::vector<uint32_t> dist(g.n, POISON);
    ds_sssp_params p;
    memset(&p, 0, sizeof p);
    p.delta = std::max(1.0, std::ceil(mid_delta(g)));
    p.buckets = c.buckets;
    ds_sssp_result r;
    memset(&r, 0, sizeof r);
    r.dist = dist.data();
    err.msg[0] = 0;
    const ds_status st = ds_gpu_sssp(ctx, c.algo, 0, &p, &r, &err);
    REQUIRE(st == DS_ERR_DEVICE && strstr(err.msg, "the GPU search stalled") && strstr(err.msg, "grid barrier"),
            "forced stall, algo %d buckets %u: status %d: %s", (int)c.algo, c.buckets, (int)st, err.msg);
    ds_gpu_close(ctx);
    /* the device is fine afterwards: a normal search on a new context */
    opt.force_stall = 0;
    opt.stall_ms = 0;
    REQUIRE(ds_gpu_open(0, &view, &opt, &ctx, &err) == DS_OK, "after the stall, open: %s", err.msg);
    check(g, ctx, 0, ref, c);
    ds_gpu_close(ctx);
  }
  printf("%-24s forced stalls in %zu configs: %s\n", g.name.c_str(), cfgs.size(),
         ds_test_failures() == before ? "ok" : "FAILED");
  fflush(stdout);
}

void argument_errors() {
  Graph g = grid("args", 4, 4, 1, 9, 1);
  ds_graph view = g.view();
  ds_gpu_ctx *ctx = NULL;
  ds_error err;
  REQUIRE(ds_gpu_open_env(0, &view, &ctx, &err) == DS_OK, "args open: %s", err.msg);
  const long before = ds_test_failures();
  std::vector<uint32_t> dist(g.n);
  ds_sssp_result r;
  memset(&r, 0, sizeof r);
  r.dist = dist.data();
  ds_sssp_params p;
  memset(&p, 0, sizeof p);
  p.delta = 4;
  p.buckets = 10;
  struct {
    ds_algo a;
    uint32_t src;
    double delta;
    uint32_t buckets;
    const char *what;
  } bad[] = {{DS_ALGO_NEAR_FAR, 16, 4, 10, "source out of range"},
             {DS_ALGO_MULTISPLIT, 0, 4, 1, "1 bucket"},
             {DS_ALGO_MULTISPLIT, 0, 4, 257, "257 buckets"},
             {DS_ALGO_SORT, 0, 0, 10, "delta 0"},
             {DS_ALGO_NEAR_FAR, 0, -1, 10, "negative delta"},
             {DS_ALGO_DIJKSTRA, 0, 4, 10, "a CPU algorithm"}};
  for (auto &b : bad) {
    p.delta = b.delta;
    p.buckets = b.buckets;
    err.msg[0] = 0;
    ds_status st = ds_gpu_sssp(ctx, b.a, b.src, &p, &r, &err);
    CHECK(st == DS_ERR_ARG && err.msg[0], "%s: status %d, message '%s'", b.what, (int)st, err.msg);
  }
  ds_gpu_close(ctx);
  printf("argument errors: %s\n", ds_test_failures() == before ? "ok" : "FAILED");
}

#ifdef DS_TEST_HAVE_LOADER
void bundled(const std::string &dir, const std::vector<Config> &cfgs) {
  const char *files[] = {"rome99.gr", "delaunay_n16.mtx.gz", "luxembourg_osm.mtx.gz",
                         "NY.mtx.gz", "BAY.mtx.gz", "COL.mtx.gz"};
  for (const char *f : files) {
    const double t0 = seconds();
    Graph g;
    if (!load_graph(dir + "/" + f, &g)) continue;
    printf("%-24s loaded in %.2f s\n", f, seconds() - t0);
    run_graph(g, cfgs, {0, g.n / 2});
  }
}
#endif

// Distances at and past what 32 bits hold: the largest (2^32-3) comes back
// exact, also widened to 64 bits; a larger one (integer) or a float sum past
// FLT_MAX is DS_ERR_RANGE naming the first such vertex, never "unreached".
void distance_range(const std::vector<Config> &cfgs) {
  const DistanceRange range;
  const long before = ds_test_failures();
  for (const DistanceRange::Case &c : range.cases()) {
    ds_graph view = c.g->view();
    ds_gpu_ctx *ctx = NULL;
    ds_error err;
    if (!CHECK(ds_gpu_open_env(0, &view, &ctx, &err) == DS_OK, "%s: open: %s",
               c.g->name.c_str(), err.msg))
      continue;
    for (const Config &cfg : cfgs) {
      std::vector<uint64_t> dist(c.g->n, 0xA5A5A5A5A5A5A5A5ull);
      ds_sssp_params p;
      memset(&p, 0, sizeof p);
      p.delta = cfg.delta < 0 ? -cfg.delta * mid_delta(*c.g) : cfg.delta;
      p.buckets = cfg.buckets;
      p.dist_width = c.width;
      ds_sssp_result r;
      memset(&r, 0, sizeof r);
      r.dist = dist.data();
      err.msg[0] = 0;
      ds_status st = ds_gpu_sssp(ctx, cfg.algo, 0, &p, &r, &err);
      if (c.error != NULL) {
        CHECK(st == DS_ERR_RANGE && strstr(err.msg, c.error) != NULL,
              "%s algo %d width %d: status %d '%s', expected a range error on %s",
              c.g->name.c_str(), (int)cfg.algo, (int)c.width, (int)st, err.msg, c.error);
        continue;
      }
      if (!CHECK(st == DS_OK, "%s algo %d: %s", c.g->name.c_str(), (int)cfg.algo, err.msg))
        continue;
      for (uint32_t v = 0; v < c.g->n; ++v)
        if (!CHECK(dist[v] == range.want_at[v], "%s algo %d: 64-bit dist[%u] = %llu, expected %llu",
                   c.g->name.c_str(), (int)cfg.algo, v, (unsigned long long)dist[v],
                   (unsigned long long)range.want_at[v]))
          break;
    }
    ds_gpu_close(ctx);
  }
  printf("%-24s %zu configs: %s\n", "distance range", cfgs.size(),
         ds_test_failures() == before ? "ok" : "FAILED");
}

} // namespace

// A phase whose spill fills up ends early, its frontier (not yet expanded, still
// in the current bucket) moved to the spill: it must not be left behind when the
// search moves on past that bucket (early_end's path is reached only through it).
void early_phase_ends() {
  Graph g = early_end();
  setenv("DS_GPU_SPILL_LIMIT", "100", 1); /* read by ds_gpu_open_env (gpu_options.h) */
  run_graph(g, {{DS_ALGO_MULTISPLIT, 1000, 10}, {DS_ALGO_SORT, 1000, 10}, {DS_ALGO_MULTISPLIT, 1000, 3}}, {0});
  unsetenv("DS_GPU_SPILL_LIMIT");
}

int main(int argc, char **argv) {
  bool quick = false;
  std::string datasets;
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "--quick")) quick = true;
    else if (!strcmp(argv[i], "--datasets") && i + 1 < argc) datasets = argv[++i];
    else {
      fprintf(stderr, "usage: %s [--quick] [--datasets DIR]\n", argv[0]);
      return 2;
    }
  }
  char reason[256];
  if (ds_device_count(reason, sizeof reason) == 0) return ds_test_skip("%s", reason);
  const double start = seconds();
  /* every search also checks that each reached vertex is marked expanded at its
     final distance (context.cu: finish_kernel), unless the caller set it to 0 */
  setenv("DS_GPU_SELF_CHECK", "1", 0);
  // configurations: negative delta = multiple of the mid (cuGraph-style) delta
  const std::vector<Config> all = {
      {DS_ALGO_BELLMAN_FORD, 1, 2},       {DS_ALGO_NEAR_FAR, -1, 2},
      {DS_ALGO_NEAR_FAR, 1, 2},           {DS_ALGO_NEAR_FAR, 1e9, 2},
      {DS_ALGO_MULTISPLIT, -1, 2},        {DS_ALGO_MULTISPLIT, -1, 3},
      {DS_ALGO_MULTISPLIT, -1, 10},       {DS_ALGO_MULTISPLIT, -0.1, 32},
      {DS_ALGO_MULTISPLIT, -0.05, 256},   {DS_ALGO_MULTISPLIT, 1, 10},
      {DS_ALGO_MULTISPLIT, 1e9, 10},      {DS_ALGO_SORT, -1, 2},
      {DS_ALGO_SORT, -1, 10},             {DS_ALGO_SORT, -0.05, 256},
      {DS_ALGO_SORT, 1, 3}};
  // large-diameter graphs: no delta 1 (tens of thousands of buckets)
  std::vector<Config> wide;
  for (const Config &c : all)
    if (c.delta != 1 || c.algo == DS_ALGO_BELLMAN_FORD) wide.push_back(c);
  const std::vector<Config> few = {{DS_ALGO_BELLMAN_FORD, 1, 2}, {DS_ALGO_NEAR_FAR, -1, 2},
                                   {DS_ALGO_MULTISPLIT, -1, 10}, {DS_ALGO_MULTISPLIT, -0.05, 256},
                                   {DS_ALGO_SORT, -1, 10}};

  argument_errors();
  forced_stalls(few);
  {
    Graph g = one_vertex();
    run_graph(g, all, {0});
  }
  {
    Graph g = unreachable_parts();
    run_graph(g, all, {0, 60, 100, 199});
  }
  distance_range(few);
  {
    Graph g = at_32_bits();
    run_graph(g, all, {0});
  }
  early_phase_ends();
  {
    Graph g = stale_bucket();
    run_graph(g, {{DS_ALGO_MULTISPLIT, 10, 10}, {DS_ALGO_SORT, 10, 10}, {DS_ALGO_MULTISPLIT, 10, 3},
                  {DS_ALGO_NEAR_FAR, 10, 2}}, {0});
  }
  {
    Graph g = zero_weights(quick ? 500 : 5000, 3, 11);
    run_graph(g, all, {0, 17});
  }
  {
    Graph g = rmat("rmat-s10-float", 10, 8, 0.57, 0.19, 0.19, 0, 100, true, 5);
    run_graph(g, quick ? few : all, {0, 3});
  }
  if (quick) {
    // from a leaf, the hub is a frontier of two: a solo round whose 2e4 arcs
    // go to the whole grid (relax_round's hand-over)
    Graph s = star(20000);
    run_graph(s, few, {5});
    Graph g = rmat("kron-s12", 12, 16, 0.57, 0.19, 0.19, 1, 255, false, 3);
    run_graph(g, few, {1});
    Graph h = grid("grid-40x40", 40, 40, 1, 255, 9);
    run_graph(h, few, {0});
  } else {
    Graph s = star(200000);
    run_graph(s, wide, {0, 5});
    Graph k = rmat("kron-s16", 16, 16, 0.57, 0.19, 0.19, 1, 255, false, 3);
    run_graph(k, all, {0, 12345});
    Graph r = rmat("rmat-thesis-s15", 15, 6, 0.5, 0.1, 0.1, 0, 1000, false, 4);
    run_graph(r, all, {2});
    Graph gr = grid("grid-300x300", 300, 300, 1, 255, 9);
    run_graph(gr, wide, {0, 45150});
    Graph gi = geo("geo-50k-int", 50000, 8, false, 21);
    run_graph(gi, wide, {0});
    Graph gf = geo("geo-50k-float", 50000, 8, true, 22);
    run_graph(gf, wide, {7});
  }
#ifdef DS_TEST_HAVE_LOADER
  if (!datasets.empty()) bundled(datasets, quick ? few : wide);
#endif
  printf("suite time %.1f s\n", seconds() - start);
  return ds_test_finish("GPU SSSP%s", quick ? " (quick)" : "");
}
