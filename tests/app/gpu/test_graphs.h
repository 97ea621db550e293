// Graphs and the oracle of the GPU SSSP test, over the shared harness
// (ds_test.h): small CSR builders and generators (R-MAT / Kronecker, grid,
// geometric, star, adversarial cases) and an independent lazy-deletion
// Dijkstra. Header-only C++17; generators are deterministic for a seed and use
// OpenMP when it is on.
#pragma once
#include "ds_test.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <algorithm>
#include <queue>
#include <random>
#include <string>
#include <vector>

#include "ds/rng.h"
#include "gpu_options.h"

namespace dstest {

const uint32_t POISON = 0x01010101u * POISON_BYTE; // in every byte

struct Graph {
  std::string name;
  uint32_t n = 0;
  bool is_float = false;
  std::vector<uint64_t> row;
  std::vector<uint32_t> col;
  std::vector<uint32_t> w; // uint32 weights or float bits
  ds_graph view() const {
    ds_graph g;
    memset(&g, 0, sizeof g);
    g.n = n;
    g.m = col.size();
    g.row_offsets = (uint64_t *)row.data();
    g.col = (uint32_t *)col.data();
    g.weights = (void *)w.data();
    g.weight_type = is_float ? DS_WEIGHT_F32 : DS_WEIGHT_U32;
    snprintf(g.name, sizeof g.name, "%s", name.c_str());
    return g;
  }
};

struct Edge {
  uint32_t u, v, w;
};

inline bool weight_less(uint32_t a, uint32_t b, bool is_float) {
  if (!is_float) return a < b;
  float fa, fb;
  memcpy(&fa, &a, 4);
  memcpy(&fb, &b, 4);
  return fa < fb;
}

// CSR rules: self-loops dropped, duplicates keep the smallest weight, rows
// sorted. Counting sort by source, then each row sorted (in parallel).
inline Graph build(const std::string &name, uint32_t n, const std::vector<Edge> &e, bool symmetric,
                   bool is_float) {
  std::vector<uint64_t> cnt(n + 1, 0);
  for (const Edge &x : e) {
    cnt[x.u + 1]++;
    if (symmetric) cnt[x.v + 1]++;
  }
  for (uint32_t v = 0; v < n; ++v) cnt[v + 1] += cnt[v];
  std::vector<std::pair<uint32_t, uint32_t>> adj(cnt[n]);
  std::vector<uint64_t> fill(cnt.begin(), cnt.end() - 1);
  for (const Edge &x : e) {
    adj[fill[x.u]++] = {x.v, x.w};
    if (symmetric) adj[fill[x.v]++] = {x.u, x.w};
  }
  std::vector<uint64_t> kept(n + 1, 0);
#pragma omp parallel for schedule(dynamic, 1024)
  for (int64_t v = 0; v < (int64_t)n; ++v) {
    auto b = adj.begin() + cnt[v], en = adj.begin() + cnt[v + 1];
    std::sort(b, en, [&](const std::pair<uint32_t, uint32_t> &x, const std::pair<uint32_t, uint32_t> &y) {
      return x.first != y.first ? x.first < y.first : weight_less(x.second, y.second, is_float);
    });
    uint64_t k = 0;
    for (auto it = b; it != en; ++it) {
      if (it->first == (uint32_t)v) continue;
      if (k > 0 && (b + (k - 1))->first == it->first) continue;
      *(b + k) = *it;
      ++k;
    }
    kept[v + 1] = k;
  }
  Graph g;
  g.name = name;
  g.n = n;
  g.is_float = is_float;
  g.row.assign(n + 1, 0);
  for (uint32_t v = 0; v < n; ++v) g.row[v + 1] = g.row[v] + kept[v + 1];
  g.col.resize(g.row[n]);
  g.w.resize(g.row[n]);
#pragma omp parallel for schedule(dynamic, 1024)
  for (int64_t v = 0; v < (int64_t)n; ++v)
    for (uint64_t k = 0; k < kept[v + 1]; ++k) {
      g.col[g.row[v] + k] = adj[cnt[v] + k].first;
      g.w[g.row[v] + k] = adj[cnt[v] + k].second;
    }
  return g;
}

inline uint32_t fbits(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}
inline float bitsf(uint32_t u) {
  float f;
  memcpy(&f, &u, 4);
  return f;
}

inline uint64_t splitmix64(uint64_t &x) { return ds_splitmix64_next(&x); }
inline double unit(uint64_t &x) { return ds_unit_double(ds_splitmix64_next(&x)); }

// R-MAT / Kronecker: 2^scale vertices, ef * 2^scale undirected edges, quadrant
// probabilities a, b, c (d = rest), vertices relabelled by a random
// permutation; each edge draws from its own stream (seed, index).
inline Graph rmat(const char *name, int scale, int ef, double a, double b, double c, uint32_t wmin,
                  uint32_t wmax, bool is_float, uint64_t seed) {
  uint32_t n = 1u << scale;
  std::mt19937_64 rng(seed);
  std::vector<uint32_t> perm(n);
  for (uint32_t i = 0; i < n; ++i) perm[i] = i;
  std::shuffle(perm.begin(), perm.end(), rng);
  std::vector<Edge> e((uint64_t)ef * n);
#pragma omp parallel for schedule(static)
  for (int64_t k = 0; k < (int64_t)e.size(); ++k) {
    uint64_t st = seed * 0x100000001B3ull + (uint64_t)k;
    splitmix64(st);
    uint32_t u = 0, v = 0;
    for (int l = 0; l < scale; ++l) {
      double r = unit(st);
      int q = r < a ? 0 : r < a + b ? 1 : r < a + b + c ? 2 : 3;
      u = 2 * u + (q >> 1);
      v = 2 * v + (q & 1);
    }
    double x = unit(st);
    uint32_t w = is_float ? fbits((float)(wmin + (wmax - wmin) * x))
                          : wmin + (uint32_t)(x * (double)(wmax - wmin + 1));
    if (!is_float && w > wmax) w = wmax;
    e[k] = {perm[u], perm[v], w};
  }
  return build(name, n, e, true, is_float);
}

inline Graph grid(const char *name, uint32_t r, uint32_t c, uint32_t wmin, uint32_t wmax, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<uint32_t> W(wmin, wmax);
  std::vector<Edge> e;
  for (uint32_t i = 0; i < r; ++i)
    for (uint32_t j = 0; j < c; ++j) {
      uint32_t v = i * c + j;
      if (j + 1 < c) e.push_back({v, v + 1, W(rng)});
      if (i + 1 < r) e.push_back({v, v + c, W(rng)});
    }
  return build(name, r * c, e, true, false);
}

// Random geometric graph: points in the unit square, edges within radius,
// weight = distance (float) or round(distance * 10000) (integer).
inline Graph geo(const char *name, uint32_t n, double degree, bool is_float, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> U(0, 1);
  double rad = std::sqrt(degree / (M_PI * n));
  uint32_t cells = std::max(1u, (uint32_t)(1.0 / rad));
  std::vector<double> x(n), y(n);
  std::vector<std::vector<uint32_t>> cell((size_t)cells * cells);
  for (uint32_t i = 0; i < n; ++i) {
    x[i] = U(rng);
    y[i] = U(rng);
    uint32_t cx = std::min(cells - 1, (uint32_t)(x[i] * cells)), cy = std::min(cells - 1, (uint32_t)(y[i] * cells));
    cell[(size_t)cy * cells + cx].push_back(i);
  }
  std::vector<Edge> e;
  for (uint32_t i = 0; i < n; ++i) {
    int cx = std::min(cells - 1, (uint32_t)(x[i] * cells)), cy = std::min(cells - 1, (uint32_t)(y[i] * cells));
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx) {
        int nx = cx + dx, ny = cy + dy;
        if (nx < 0 || ny < 0 || nx >= (int)cells || ny >= (int)cells) continue;
        for (uint32_t j : cell[(size_t)ny * cells + nx]) {
          if (j <= i) continue;
          double d = std::hypot(x[i] - x[j], y[i] - y[j]);
          if (d > rad) continue;
          e.push_back({i, j, is_float ? fbits((float)d) : (uint32_t)std::lround(d * 10000)});
        }
      }
  }
  return build(name, n, e, true, is_float);
}

inline Graph star(uint32_t leaves) {
  std::mt19937_64 rng(7);
  std::vector<Edge> e;
  for (uint32_t i = 1; i <= leaves; ++i) e.push_back({0, i, (uint32_t)(1 + rng() % 1000)});
  for (uint32_t i = 1; i + 1 <= leaves; i += 2) e.push_back({i, i + 1, (uint32_t)(rng() % 3)});
  return build("star-" + std::to_string(leaves), leaves + 1, e, true, false);
}

// Two components plus isolated vertices; directed arcs so that some vertices
// reachable "backwards" stay unreachable.
inline Graph unreachable_parts() {
  std::vector<Edge> e;
  for (uint32_t i = 0; i < 50; ++i) e.push_back({i, i + 1, 3 + i % 5});
  e.push_back({60, 0, 1}); // 60 reaches 0, not the other way
  for (uint32_t i = 100; i < 150; ++i) e.push_back({i, i + 1, 2});
  return build("unreachable", 200, e, false, false);
}

inline Graph zero_weights(uint32_t n, uint32_t deg, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<Edge> e;
  for (uint64_t k = 0; k < (uint64_t)n * deg; ++k)
    e.push_back({(uint32_t)(rng() % n), (uint32_t)(rng() % n), (uint32_t)(rng() % 3)});
  return build("zero-weights", n, e, true, false);
}

// Vertex 2 at 2^32-2 and vertex 3 beyond: distances 32 bits cannot hold
// (the largest is DS_DIST_MAX_U32 = 2^32-3), so a search must fail naming 2.
inline Graph past_32_bits() {
  std::vector<Edge> e = {{0, 1, 0x80000000u}, {1, 2, 0x7FFFFFFEu}, {2, 3, 0x80000000u}, {0, 4, 7}};
  return build("past-32-bits", 5, e, false, false);
}

// Vertex 2 exactly at DS_DIST_MAX_U32 (2^32-3); a heavy arc 4 -> 5 that the
// source does not reach makes the path bound pass 32 bits, so the program
// asks for 64-bit distances, which the GPU fills from its exact 32-bit ones.
inline Graph at_32_bits() {
  std::vector<Edge> e = {{0, 1, 0x80000000u}, {1, 2, 0x7FFFFFFDu}, {0, 3, 7}, {4, 5, 0xFFFFFFFFu}};
  return build("at-32-bits", 6, e, false, false);
}

// Distances at and past what 32 bits hold, the cases of both suites: the
// largest (2^32-3) comes back exact, also widened to 64 bits (want_at, from
// source 0); a larger one (integer) or a float sum past FLT_MAX is DS_ERR_RANGE
// naming the first such vertex (error), never "unreached".
struct DistanceRange {
  Graph past = past_32_bits(), at = at_32_bits();
  Graph fl = build("past-flt-max", 3, {{0, 1, fbits(3e38f)}, {1, 2, fbits(3e38f)}}, false, true);
  struct Case {
    const Graph *g;
    ds_dist_width width;
    const char *error; // expected message part, or NULL for success
  };
  std::vector<Case> cases() const {
    return {{&past, DS_DIST_NATURAL, "vertex 2 is reached"},
            {&past, DS_DIST_WIDE, "vertex 2 is reached"},
            {&fl, DS_DIST_NATURAL, "vertex 2 is reached"},
            {&at, DS_DIST_WIDE, NULL}};
  }
  const uint64_t want_at[6] = {0, 0x80000000ull, DS_DIST_MAX_U32, 7, DS_INF_U64, DS_INF_U64};
};

inline Graph one_vertex() { return build("one-vertex", 1, {}, false, false); }

// With delta 1000 and a phase spill limit of 100 (DS_GPU_SPILL_LIMIT): the
// source's first round spills its 200 arcs of weight 1500 (bucket 1) and ends
// the phase early, with the frontier {1} (bucket 0, not yet expanded) moved to
// the spill. The path 1 -> 2 -> ... -> 50 (weights 1) is reached only through it.
inline Graph early_end() {
  std::vector<Edge> e = {{0, 1, 1}};
  for (uint32_t i = 1; i < 50; ++i) e.push_back({i, i + 1, 1});
  for (uint32_t i = 51; i <= 250; ++i) e.push_back({0, i, 1500});
  return build("early-end", 251, e, false, false);
}

// With delta 10 and 10 buckets, bucket 3 ends up holding two pieces of stale
// entries only: v (35, split in phase 0) and w (35, split in phase 1, from a)
// are both lowered into bucket 2 and expanded in phase 2 (from b). The search
// must go on past bucket 3 to z (bucket 5), whose arc is the only way to t.
// Vertices: s 0, v 1, a 2, b 3, z 4, w 5, t 6.
inline Graph stale_bucket() {
  std::vector<Edge> e = {{0, 1, 35}, {0, 2, 12}, {0, 3, 22}, {0, 4, 55},
                         {2, 5, 23}, {3, 1, 1},  {3, 5, 2},  {4, 6, 1}};
  return build("stale-bucket", 7, e, false, false);
}

// Independent oracle: lazy-deletion Dijkstra on distance bits (the same
// saturating / float additions the problem defines).
inline std::vector<uint32_t> dijkstra(const Graph &g, uint32_t s) {
  const uint32_t inf = g.is_float ? fbits(INFINITY) : 0xFFFFFFFFu;
  std::vector<uint32_t> d(g.n, inf);
  typedef std::pair<uint32_t, uint32_t> P;
  std::priority_queue<P, std::vector<P>, std::greater<P>> pq;
  d[s] = 0;
  pq.push({0, s});
  while (!pq.empty()) {
    P t = pq.top();
    pq.pop();
    if (t.first != d[t.second]) continue;
    uint32_t u = t.second;
    for (uint64_t e = g.row[u]; e < g.row[u + 1]; ++e) {
      uint32_t nd;
      if (g.is_float) nd = fbits(bitsf(d[u]) + bitsf(g.w[e]));
      else {
        uint64_t x = (uint64_t)d[u] + g.w[e];
        nd = x >= inf ? inf : (uint32_t)x;
      }
      if (nd < d[g.col[e]]) {
        d[g.col[e]] = nd;
        pq.push({nd, g.col[e]});
      }
    }
  }
  return d;
}

inline double mean_weight(const Graph &g) {
  double s = 0;
  for (uint32_t x : g.w) s += g.is_float ? bitsf(x) : x;
  return g.w.empty() ? 1 : s / g.w.size();
}

// The cuGraph-style delta: warp size times mean weight over mean degree.
inline double mid_delta(const Graph &g) {
  double md = g.n ? (double)g.col.size() / g.n : 1;
  double d = 32.0 * mean_weight(g) / (md > 0 ? md : 1);
  if (!g.is_float) d = ds_delta_normalize(DS_WEIGHT_U32, d);
  return d > 0 ? d : 1;
}

#ifdef DS_TEST_HAVE_LOADER
// A graph file as the programs read it (no cache), into g; false (a failed
// check) where it cannot be read.
inline bool load_graph(const std::string &path, Graph *g) {
  ds_load_options opt;
  ds_load_options_default(&opt);
  opt.use_cache = 0;
  ds_graph dg;
  ds_error err;
  if (!CHECK(ds_graph_load(path.c_str(), &opt, &dg, &err) == DS_OK, "load %s: %s", path.c_str(), err.msg))
    return false;
  g->name = path.substr(path.find_last_of('/') + 1);
  g->n = dg.n;
  g->is_float = dg.weight_type == DS_WEIGHT_F32;
  g->row.assign(dg.row_offsets, dg.row_offsets + dg.n + 1);
  g->col.assign(dg.col, dg.col + dg.m);
  const uint32_t *w = (const uint32_t *)dg.weights;
  g->w.assign(w, w + dg.m);
  ds_graph_free(&dg);
  return true;
}
#endif

} // namespace dstest
