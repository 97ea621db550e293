// The batched GPU SSSP engine (ds_gpu_sssp_batch, app/sssp/gpu/batch_sssp.cu)
// against the independent CPU Dijkstra of test_graphs.h.
//
// A table of cases: graphs (one vertex, unreachable parts, zero weights, a
// grid, Kronecker with integer weights, R-MAT and a geometric graph with float
// weights, a star, the bundled rome99 and NY) times source lists (K = 1, 7,
// and more sources than the GPU runs at once; on NY more than one launch
// holds) and deltas. Each result lands in an array poisoned before the run
// and is compared with the oracle at every vertex (exact for integer weights,
// relative 1e-5 for float, as gpu_sssp_test), with reached and reached_arcs;
// every source comes once, in order. Also: distances at and past 32 bits
// (64-bit results, DS_ERR_RANGE), a forced stall (every search bounded to one
// round: "the GPU search stalled", and the device fine afterwards), argument
// errors.
//
// Usage: gpu_batch_test [--datasets DIR]
// Exit 0 pass, 1 fail, DS_TEST_SKIP (ds_test.h) where no CUDA device is present.
#include "test_graphs.h"

#include "ds/device.h"

#include <map>

namespace {
using namespace dstest;

/* What the sink sees. With an oracle it checks each source as it comes (a
 * batch of thousands of rows is never held); without, it keeps the rows. */
struct Collected {
  const Graph *g = nullptr;
  size_t dist_bytes = 0;
  const std::map<uint32_t, std::vector<uint32_t>> *oracle = nullptr;
  const std::vector<uint32_t> *sources = nullptr;
  const char *what = "";
  std::vector<std::vector<unsigned char>> dist; /* without an oracle */
  uint32_t next = 0;                            /* the index the sink expects */
  bool order_ok = true;
};

/* One source's distances (poisoned, then copied from the sink) against the oracle. */
void check_source(const Collected &c, uint32_t i, const uint32_t *dist, const ds_sssp_result &r) {
  const Graph &g = *c.g;
  const uint32_t s = (*c.sources)[i];
  const std::vector<uint32_t> &ref = c.oracle->at(s);
  const uint32_t inf = g.is_float ? fbits(INFINITY) : 0xFFFFFFFFu;
  uint32_t reached = 0;
  uint64_t arcs = 0;
  for (uint32_t v = 0; v < g.n; ++v) {
    bool ok = dist[v] == ref[v];
    if (!ok && g.is_float && ref[v] != inf && dist[v] != inf) {
      const double a = bitsf(dist[v]), b = bitsf(ref[v]);
      ok = std::fabs(a - b) <= 1e-5 * std::max(std::fabs(b), 1e-30);
    }
    if (!CHECK(ok, "%s: source %u (index %u): dist[%u] = %#x, oracle %#x", c.what, s, i, v, dist[v], ref[v]))
      return;
    if (ref[v] != inf) {
      ++reached;
      arcs += g.row[v + 1] - g.row[v];
    }
  }
  CHECK(r.reached == reached && r.reached_arcs == arcs && r.edges_relaxed >= arcs && r.rounds >= 1,
        "%s: source %u: reached %u / arcs %llu (oracle %u / %llu), relaxed %llu, rounds %llu", c.what, s,
        r.reached, (unsigned long long)r.reached_arcs, reached, (unsigned long long)arcs,
        (unsigned long long)r.edges_relaxed, (unsigned long long)r.rounds);
}

ds_status collect(void *user, uint32_t i, const ds_sssp_result *r, ds_error *err) {
  Collected *c = (Collected *)user;
  (void)err;
  if (i != c->next || (c->sources != nullptr && i >= c->sources->size())) {
    c->order_ok = false;
    return DS_OK;
  }
  ++c->next;
  if (c->oracle == nullptr) {
    c->dist.emplace_back(c->dist_bytes, POISON_BYTE);
    memcpy(c->dist.back().data(), r->dist, c->dist_bytes);
    return DS_OK;
  }
  std::vector<uint32_t> dist(c->g->n, POISON);
  memcpy(dist.data(), r->dist, 4ull * c->g->n);
  check_source(*c, i, dist.data(), *r);
  return DS_OK;
}

/* One batch of sources on g at delta into c's sink. */
ds_status run_batch(ds_gpu_ctx *ctx, const Graph &g, const std::vector<uint32_t> &sources, double delta,
                    ds_dist_width width, Collected *c, ds_gpu_batch_info *info, ds_error *err) {
  c->g = &g;
  c->sources = &sources;
  c->dist_bytes = (size_t)g.n * (width == DS_DIST_WIDE ? 8 : 4);
  c->dist.clear();
  c->next = 0;
  c->order_ok = true;
  ds_sssp_params p;
  memset(&p, 0, sizeof p);
  p.delta = delta;
  p.dist_width = width;
  err->msg[0] = 0;
  return ds_gpu_sssp_batch(ctx, sources.data(), (uint32_t)sources.size(), &p, collect, c, info, err);
}

/* A batch of sources on g at delta, every source checked against the oracle
 * (computed here for the sources it lacks); *out: the batch's shape. */
void check_batch(ds_gpu_ctx *ctx, const Graph &g, const std::vector<uint32_t> &sources, double delta,
                 std::map<uint32_t, std::vector<uint32_t>> &oracle, ds_gpu_batch_info *out = nullptr) {
  if (!g.is_float) delta = std::max(1.0, std::ceil(delta));
  char what[256];
  snprintf(what, sizeof what, "%s, %zu sources, delta %g", g.name.c_str(), sources.size(), delta);
  for (uint32_t s : sources)
    if (oracle.find(s) == oracle.end()) oracle.emplace(s, dijkstra(g, s));
  Collected c;
  c.oracle = &oracle;
  c.what = what;
  ds_gpu_batch_info info;
  ds_error err;
  const ds_status st = run_batch(ctx, g, sources, delta, DS_DIST_NATURAL, &c, &info, &err);
  REQUIRE(st == DS_OK, "%s: status %d: %s", what, (int)st, err.msg);
  REQUIRE(c.order_ok && c.next == sources.size(), "%s: the sink saw %u sources, in order: %d", what, c.next,
          (int)c.order_ok);
  REQUIRE(info.slots >= 1 && info.rows >= 1 && info.launches == (sources.size() + info.rows - 1) / info.rows &&
              info.time_ms > 0,
          "%s: %u slots, %u rows, %u launches, %g ms", what, info.slots, info.rows, info.launches, info.time_ms);
  if (out) *out = info;
}

/* Sources: count of them, spread over g (repeats where count passes n). */
std::vector<uint32_t> spread(const Graph &g, uint32_t count, uint32_t stride) {
  std::vector<uint32_t> s(count);
  for (uint32_t i = 0; i < count; ++i) s[i] = (uint32_t)(((uint64_t)i * stride) % g.n);
  return s;
}

/* A graph's cases: K = 1, 7 and `many`, at the suite's deltas; with
 * `several`, 3000 sources over five distinct vertices, which on a road
 * network take more than one launch (rows of a megabyte: a launch holds a few
 * hundred to a thousand, batch_plan). */
void run_graph(const Graph &g, uint32_t many, const std::vector<double> &deltas, bool several = false) {
  ds_graph view = g.view();
  ds_gpu_ctx *ctx = NULL;
  ds_error err;
  REQUIRE(ds_gpu_open_env(0, &view, &ctx, &err) == DS_OK, "%s: open: %s", g.name.c_str(), err.msg);
  const long before = ds_test_failures();
  std::map<uint32_t, std::vector<uint32_t>> oracle;
  for (double d : deltas) {
    const double delta = d < 0 ? -d * mid_delta(g) : d;
    check_batch(ctx, g, {g.n - 1}, delta, oracle);
    check_batch(ctx, g, spread(g, 7, 7919), delta, oracle);
    if (many > 7) check_batch(ctx, g, spread(g, many, 104729), delta, oracle);
  }
  ds_gpu_batch_info info = {0, 0, 0, 0};
  if (several) {
    std::vector<uint32_t> sources(3000);
    for (size_t i = 0; i < sources.size(); ++i) sources[i] = (uint32_t)((i % 5) * (g.n / 5));
    check_batch(ctx, g, sources, mid_delta(g) * 64, oracle, &info);
    CHECK(info.launches >= 2, "%s: 3000 sources in %u launch(es) of %u rows", g.name.c_str(), info.launches,
          info.rows);
  }
  ds_gpu_close(ctx);
  printf("%-24s n=%-8u m=%-9zu K = 1, 7, %u over %zu deltas%s: %s\n", g.name.c_str(), g.n, g.col.size(), many,
         deltas.size(), several ? ", 3000 in several launches" : "", ds_test_failures() == before ? "ok" : "FAILED");
  fflush(stdout);
}

/* Distances at and past 32 bits: the largest (2^32-3) exact, also widened;
 * past it (integer) or past FLT_MAX (float) DS_ERR_RANGE naming the vertex. */
void distance_range() {
  const DistanceRange range;
  const long before = ds_test_failures();
  for (const DistanceRange::Case &k : range.cases()) {
    ds_graph view = k.g->view();
    ds_gpu_ctx *ctx = NULL;
    ds_error err;
    if (!CHECK(ds_gpu_open_env(0, &view, &ctx, &err) == DS_OK, "%s: open: %s", k.g->name.c_str(), err.msg))
      continue;
    for (double delta : {1.0, 1e9}) {
      Collected c;
      ds_gpu_batch_info info;
      const ds_status st = run_batch(ctx, *k.g, {0, 0, 0}, delta, k.width, &c, &info, &err);
      if (k.error != NULL) {
        CHECK(st == DS_ERR_RANGE && strstr(err.msg, k.error) != NULL, "%s width %d: status %d '%s'",
              k.g->name.c_str(), (int)k.width, (int)st, err.msg);
        continue;
      }
      if (!CHECK(st == DS_OK && c.next == 3, "%s: %s", k.g->name.c_str(), err.msg)) continue;
      for (uint32_t i = 0; i < 3; ++i)
        for (uint32_t v = 0; v < k.g->n; ++v) {
          uint64_t d;
          memcpy(&d, c.dist[i].data() + 8 * v, 8);
          CHECK(d == range.want_at[v], "%s: 64-bit dist[%u] = %llu, expected %llu", k.g->name.c_str(), v,
                (unsigned long long)d, (unsigned long long)range.want_at[v]);
        }
    }
    ds_gpu_close(ctx);
  }
  printf("%-24s %s\n", "distance range", ds_test_failures() == before ? "ok" : "FAILED");
}

/* What the batch refuses, on a context of g: DS_ERR_ARG with a message. */
void argument_errors(ds_gpu_ctx *ctx, const Graph &g) {
  Collected c;
  ds_gpu_batch_info info;
  ds_error err;
  const uint32_t ok_source = 0, bad_source = g.n;
  ds_sssp_params p;
  memset(&p, 0, sizeof p);
  struct {
    const uint32_t *sources;
    uint32_t count;
    double delta;
    ds_gpu_batch_sink sink;
    const char *what;
  } bad[] = {{&bad_source, 1, 4, collect, "source out of range"},
             {&ok_source, 0, 4, collect, "no sources"},
             {&ok_source, 1, 0, collect, "delta 0"},
             {&ok_source, 1, -1, collect, "negative delta"},
             {&ok_source, 1, 4, NULL, "no sink"}};
  for (auto &b : bad) {
    p.delta = b.delta;
    err.msg[0] = 0;
    const ds_status st = ds_gpu_sssp_batch(ctx, b.sources, b.count, &p, b.sink, &c, &info, &err);
    CHECK(st == DS_ERR_ARG && err.msg[0], "%s: status %d, message '%s'", b.what, (int)st, err.msg);
  }
}

/* Every search bounded to one round (force_stall 1): the batch fails with
 * "the GPU search stalled", and a context without it runs the same batch and
 * refuses bad arguments. */
void forced_stall() {
  Graph g = grid("stall-grid-30x30", 30, 30, 1, 99, 7);
  ds_graph view = g.view();
  ds_gpu_options opt;
  ds_gpu_options_default(&opt);
  opt.force_stall = 1;
  ds_gpu_ctx *ctx = NULL;
  ds_error err;
  REQUIRE(ds_gpu_open(0, &view, &opt, &ctx, &err) == DS_OK, "stall open: %s", err.msg);
  const long before = ds_test_failures();
  Collected c;
  ds_gpu_batch_info info;
  const ds_status st = run_batch(ctx, g, spread(g, 50, 17), mid_delta(g), DS_DIST_NATURAL, &c, &info, &err);
  CHECK(st == DS_ERR_DEVICE && strstr(err.msg, "the GPU search stalled") && strstr(err.msg, "bound"),
        "forced stall: status %d: %s", (int)st, err.msg);
  ds_gpu_close(ctx);
  std::map<uint32_t, std::vector<uint32_t>> oracle;
  REQUIRE(ds_gpu_open_env(0, &view, &ctx, &err) == DS_OK, "after the stall, open: %s", err.msg);
  check_batch(ctx, g, spread(g, 50, 17), mid_delta(g), oracle);
  argument_errors(ctx, g);
  ds_gpu_close(ctx);
  printf("%-24s forced stall, argument errors: %s\n", g.name.c_str(), ds_test_failures() == before ? "ok" : "FAILED");
}

} // namespace

int main(int argc, char **argv) {
  std::string datasets;
  bool quick = false; // fewer sources and no bundled graphs: for compute-sanitizer
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "--datasets") && i + 1 < argc) datasets = argv[++i];
    else if (!strcmp(argv[i], "--quick")) quick = true;
    else {
      fprintf(stderr, "usage: %s [--datasets DIR] [--quick]\n", argv[0]);
      return 2;
    }
  }
  char reason[256];
  if (ds_device_count(reason, sizeof reason) == 0) return ds_test_skip("%s", reason);
  // deltas: negative = a multiple of the mid (cuGraph-style) delta, as gpu_sssp_test
  const std::vector<double> deltas = {-1, -64, 1e9};
  forced_stall();
  distance_range();
  run_graph(one_vertex(), 1, deltas);
  run_graph(unreachable_parts(), 40, {1, -1, 1e9});
  run_graph(zero_weights(5000, 3, 11), 100, deltas);
  // more sources than run at once (a thousand or so on an H100): they queue
  run_graph(grid("grid-60x60", 60, 60, 1, 255, 9), quick ? 200 : 3000, deltas);
  run_graph(rmat("kron-s12", 12, 16, 0.57, 0.19, 0.19, 1, 255, false, 3), quick ? 16 : 64, deltas);
  run_graph(rmat("rmat-s10-float", 10, 8, 0.57, 0.19, 0.19, 0, 100, true, 5), quick ? 16 : 64, deltas);
  run_graph(geo("geo-20k-float", 20000, 8, true, 22), quick ? 8 : 32, {-1, -64});
  run_graph(star(20000), quick ? 4 : 16, {-1});
#ifdef DS_TEST_HAVE_LOADER
  if (!datasets.empty() && !quick) {
    Graph rome, ny;
    if (load_graph(datasets + "/rome99.gr", &rome)) run_graph(rome, 200, {-1, -256});
    if (load_graph(datasets + "/NY.mtx.gz", &ny)) {
      run_graph(ny, 16, {-256}, true);
    }
  }
#endif
  return ds_test_finish("GPU batched SSSP");
}
