// In-process GPU SSSP benchmark: generates the benchmark graphs in memory
// (no files: Kronecker scale 22 is 134M arcs), runs every GPU algorithm with
// one warm-up and several timed trials (CUDA events around the search only),
// checks each algorithm's first result against the CPU Dijkstra, and prints a
// Markdown table: median ms (and min-max), MTEPS (reached arcs / time),
// rounds, edges relaxed, speedup against Near-Far.
//
// Usage: gpu_bench [--graphs LIST] [--trials T] [--buckets M] [--sweep]
//                  [--delta-scale X] [--no-check] [--load FILE...]
//   LIST: comma-separated of kron20, kron22, rmat, grid, geo (default: all)
//   --sweep: also time near-far and multisplit over delta = auto * 2^k
//   --load FILE: also a graph file read with ds_graph_load (pattern files get
//                seeded weights 1..255, seed 1).
// The `sssp --algo all` suite (run.sh) is the benchmark of record; this tool
// is for quick, file-free measurements and for the delta sweep.
#include <algorithm>
#include <string>
#include <vector>

#include "test_graphs.h"

using namespace dstest;

namespace {

struct Algo {
  const char *name;
  ds_algo algo;
  uint32_t buckets;
};

struct Stat {
  double med = 0, lo = 0, hi = 0;
  ds_sssp_result r{};
  bool ok = false;
};

uint32_t pick_source(const Graph &g) {
  // the first vertex with out-arcs from a fixed point: deterministic, not isolated
  for (uint32_t v = g.n / 3; v < g.n; ++v)
    if (g.row[v + 1] > g.row[v]) return v;
  return 0;
}

Stat time_algo(ds_gpu_ctx *ctx, const Graph &g, uint32_t src, const Algo &a, double delta,
               int trials, const std::vector<uint32_t> *ref) {
  Stat s;
  std::vector<uint32_t> dist(g.n), pred(g.n);
  ds_sssp_params p{};
  p.delta = delta;
  p.buckets = a.buckets;
  std::vector<double> t;
  for (int i = 0; i <= trials; ++i) {
    ds_sssp_result r{};
    r.dist = dist.data();
    ds_error err;
    if (ds_gpu_sssp(ctx, a.algo, src, &p, &r, &err) != DS_OK) {
      fprintf(stderr, "%s on %s: %s\n", a.name, g.name.c_str(), err.msg);
      return s;
    }
    if (i == 0 && ref) {
      for (uint32_t v = 0; v < g.n; ++v)
        if (dist[v] != (*ref)[v] &&
            !(g.is_float && std::fabs(bitsf(dist[v]) - bitsf((*ref)[v])) <= 1e-5 * std::fabs(bitsf((*ref)[v])))) {
          fprintf(stderr, "MISMATCH %s on %s at vertex %u: %u vs %u\n", a.name, g.name.c_str(), v,
                  dist[v], (*ref)[v]);
          return s;
        }
    }
    if (i > 0) t.push_back(r.time_ms); // trial 0 is the warm-up
    s.r = r;
  }
  std::sort(t.begin(), t.end());
  s.med = t[t.size() / 2];
  s.lo = t.front();
  s.hi = t.back();
  s.ok = true;
  return s;
}

void bench_graph(Graph &g, const std::vector<Algo> &algos, int trials, bool check, bool sweep,
                 double delta_scale) {
  ds_graph view = g.view();
  ds_gpu_ctx *ctx = NULL;
  ds_error err;
  if (ds_gpu_open_env(0, &view, &ctx, &err) != DS_OK) {
    fprintf(stderr, "%s: %s\n", g.name.c_str(), err.msg);
    return;
  }
  uint32_t src = pick_source(g);
  std::vector<uint32_t> ref;
  if (check) ref = dijkstra(g, src);
  double delta = mid_delta(g) * delta_scale;
  if (!g.is_float) delta = ds_delta_normalize(DS_WEIGHT_U32, delta);
  printf("\n### %s: n=%u, arcs=%zu, source %u, delta %g (mean weight %.1f, mean degree %.2f)\n\n",
         g.name.c_str(), g.n, g.col.size(), src, delta, mean_weight(g), (double)g.col.size() / g.n);
  printf("| algorithm | ms (median) | min-max | MTEPS | rounds | edges relaxed | vs near-far |\n");
  printf("|---|---|---|---|---|---|---|\n");
  double nf = 0;
  for (const Algo &a : algos) {
    Stat s = time_algo(ctx, g, src, a, delta, trials, check ? &ref : NULL);
    if (!s.ok) continue;
    if (a.algo == DS_ALGO_NEAR_FAR) nf = s.med;
    printf("| %s | %.3f | %.3f-%.3f | %.0f | %llu | %llu | %s |\n", a.name, s.med, s.lo, s.hi,
           s.r.reached_arcs / (s.med * 1e3), (unsigned long long)s.r.rounds,
           (unsigned long long)s.r.edges_relaxed,
           nf > 0 ? (std::to_string(nf / s.med).substr(0, 4) + "x").c_str() : "-");
    fflush(stdout);
  }
  if (sweep) {
    printf("\ndelta sweep (%s): delta | near-far ms | rounds | multisplit m=10 ms | rounds\n", g.name.c_str());
    for (int k = -6; k <= 6; ++k) {
      double d = mid_delta(g) * std::ldexp(1.0, k);
      if (!g.is_float) d = std::max(1.0, std::ceil(d));
      Stat a = time_algo(ctx, g, src, {"near-far", DS_ALGO_NEAR_FAR, 2}, d, 3, NULL);
      Stat b = time_algo(ctx, g, src, {"multisplit", DS_ALGO_MULTISPLIT, 10}, d, 3, NULL);
      printf("sweep %s 2^%+d %g | %.3f | %llu | %.3f | %llu\n", g.name.c_str(), k, d, a.med,
             (unsigned long long)a.r.rounds, b.med, (unsigned long long)b.r.rounds);
      fflush(stdout);
    }
  }
  ds_gpu_close(ctx);
}

// R-MAT with n not a power of two: endpoints >= n are drawn again.
Graph rmat_n(const char *name, uint32_t n, uint64_t edges, double a, double b, double c,
             uint32_t wmin, uint32_t wmax, uint64_t seed) {
  int scale = 0;
  while ((1ull << scale) < n) ++scale;
  std::vector<Edge> e(edges);
#pragma omp parallel for schedule(static)
  for (int64_t k = 0; k < (int64_t)edges; ++k) {
    uint64_t st = seed * 0x100000001B3ull + (uint64_t)k;
    uint32_t u, v;
    do {
      u = v = 0;
      for (int l = 0; l < scale; ++l) {
        double r = unit(st);
        int q = r < a ? 0 : r < a + b ? 1 : r < a + b + c ? 2 : 3;
        u = 2 * u + (q >> 1);
        v = 2 * v + (q & 1);
      }
    } while (u >= n || v >= n);
    uint32_t w = wmin + (uint32_t)(unit(st) * (double)(wmax - wmin + 1));
    e[k] = {u, v, std::min(w, wmax)};
  }
  return build(name, n, e, true, false);
}

} // namespace

int main(int argc, char **argv) {
  std::string graphs = "kron20,kron22,rmat,grid,geo";
  int trials = 5;
  bool check = true, sweep = false;
  double delta_scale = 1.0;
  uint32_t buckets = 10;
  std::vector<std::string> files;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--graphs" && i + 1 < argc) graphs = argv[++i];
    else if (a == "--trials" && i + 1 < argc) trials = atoi(argv[++i]);
    else if (a == "--buckets" && i + 1 < argc) buckets = (uint32_t)atoi(argv[++i]);
    else if (a == "--delta-scale" && i + 1 < argc) delta_scale = atof(argv[++i]);
    else if (a == "--no-check") check = false;
    else if (a == "--sweep") sweep = true;
    else if (a == "--load" && i + 1 < argc) files.push_back(argv[++i]);
    else {
      fprintf(stderr, "usage: %s [--graphs LIST] [--trials T] [--buckets M] [--sweep] [--delta-scale X] [--no-check] [--load FILE]...\n", argv[0]);
      return 2;
    }
  }
  char reason[256];
  if (ds_gpu_available(reason, sizeof reason) == 0) {
    printf("SKIP: %s\n", reason);
    return 77;
  }
  char gpu[256];
  size_t mem = 0;
  ds_error err;
  ds_gpu_describe(0, gpu, sizeof gpu, &mem, &err);
  printf("GPU: %s (%.1f GB); trials %d (+1 warm-up), median\n", gpu, mem / 1e9, trials);
  std::vector<Algo> algos = {{"near-far", DS_ALGO_NEAR_FAR, 2},
                             {"multisplit", DS_ALGO_MULTISPLIT, buckets},
                             {"multisplit m=2", DS_ALGO_MULTISPLIT, 2},
                             {"multisplit m=32", DS_ALGO_MULTISPLIT, 32},
                             {"sort", DS_ALGO_SORT, buckets},
                             {"bellman-ford", DS_ALGO_BELLMAN_FORD, 2}};
  auto want = [&](const char *k) { return ("," + graphs + ",").find(std::string(",") + k + ",") != std::string::npos; };
  if (want("kron20")) {
    Graph g = rmat("kron-s20", 20, 16, 0.57, 0.19, 0.19, 1, 255, false, 20);
    bench_graph(g, algos, trials, check, sweep, delta_scale);
  }
  if (want("kron22")) {
    Graph g = rmat("kron-s22", 22, 16, 0.57, 0.19, 0.19, 1, 255, false, 22);
    bench_graph(g, algos, trials, check, sweep, delta_scale);
  }
  if (want("rmat")) {
    Graph g = rmat_n("rmat-thesis", 800000, 4800000, 0.5, 0.1, 0.1, 0, 1000, 30);
    bench_graph(g, algos, trials, check, sweep, delta_scale);
  }
  if (want("grid")) {
    Graph g = grid("grid-1000x1000", 1000, 1000, 1, 255, 40);
    bench_graph(g, algos, trials, check, sweep, delta_scale);
  }
  if (want("geo")) {
    Graph g = geo("geo-1M", 1000000, 8, false, 50);
    bench_graph(g, algos, trials, check, sweep, delta_scale);
  }
  for (const std::string &f : files) {
    ds_load_options opt;
    ds_load_options_default(&opt);
    opt.weight_min = 1; /* pattern files: seeded weights 1..255, as GAP's NY figure */
    opt.weight_max = 255;
    opt.seed = 1;
    opt.use_cache = 0;
    ds_graph dg;
    if (ds_graph_load(f.c_str(), &opt, &dg, &err) != DS_OK) {
      fprintf(stderr, "%s\n", err.msg);
      return 1;
    }
    Graph g;
    g.name = dg.name;
    g.n = dg.n;
    g.is_float = dg.weight_type == DS_WEIGHT_F32;
    g.row.assign(dg.row_offsets, dg.row_offsets + dg.n + 1);
    g.col.assign(dg.col, dg.col + dg.m);
    g.w.assign((const uint32_t *)dg.weights, (const uint32_t *)dg.weights + dg.m);
    ds_graph_free(&dg);
    bench_graph(g, algos, trials, check, sweep, delta_scale);
  }
  return 0;
}
