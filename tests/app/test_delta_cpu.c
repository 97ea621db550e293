/* CPU delta-stepping (ds_sssp_cpu_delta) against Dijkstra: random graphs of
 * every weight kind, and (with ds_gen) a road-like grid and a Kronecker graph;
 * deltas from tiny (every bucket its own distance, many window moves) to huge
 * (one bucket: Bellman-Ford); 1, 2 and 4 threads (8 on the Kronecker graph);
 * frontiers small enough for the one-thread rounds and large enough for the
 * parallel ones; bucket fusion off (limit 1), at its edge (2: only a lone
 * entry), the default, and unbounded (a thread drains its bin of the bucket
 * alone). Distances must be equal (float: within rounding), predecessors must
 * pass the validator, and outputs are poisoned first. The automatic deltas of
 * both backends, also per algorithm of one run. Bad delta values are argument
 * errors.
 */
#include "app_test_util.h"
#include "sssp_keys.h"
#ifdef DS_TEST_HAVE_GEN
#include "ds/gen.h"
#endif

#define RANDOM_SEEDS 8
#define LARGE_N 20000u  /* frontiers of thousands of vertices */
#define LARGE_M 120000u
#define DENSE_N 300u    /* more than the frontier's least capacity (256) */
#define DENSE_M 60000u
#define PATH_N 5000u
#define ISLAND_N 50u
#define ISOLATED_N 7u
#define HUB_N 30000u
#define HUB_COUNT 8u
#define HUB_ARCS 9000u  /* above cpu-delta's HEAVY_ARCS (4096) */

static const double DELTAS[] = {1e-3, 1.0, 3.0, 50.0, 0.0 /* auto */, 1e12};
static const int THREADS[] = {1, 2, 4, 8};
static const size_t FUSE_LIMITS[] = {1, 2, 0 /* default */, SIZE_MAX};
#define N_FUSE (sizeof FUSE_LIMITS / sizeof FUSE_LIMITS[0])
/* the lone thread's limit, paired with the fusion limit shifted by the delta's index, so that
 * every pair of the two meets some delta */
static const size_t LONE_LIMITS[] = {1, 2, 0 /* default */, SIZE_MAX};
#define N_LONE (sizeof LONE_LIMITS / sizeof LONE_LIMITS[0])
static const size_t HEAVY_ARCS[] = {2, 0 /* default */, SIZE_MAX};
#define N_HEAVY (sizeof HEAVY_ARCS / sizeof HEAVY_ARCS[0])

/* max_threads bounds THREADS: more threads than cores make every barrier
 * slow, so only a few graphs run with 4 and one with 8. */
static int cmp_u32(const void *a, const void *b) {
  const uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return (x > y) - (x < y);
}

/* The median of all arc weights (integer weights), by sorting a copy. */
static double median_of_all(const ds_graph *g) {
  uint32_t *w = malloc(g->m * sizeof *w);
  if (w == NULL) return -1.0;
  memcpy(w, g->weights, g->m * sizeof *w);
  qsort(w, g->m, sizeof *w, cmp_u32);
  const double med = g->m % 2 ? w[g->m / 2] : 0.5 * ((double)w[g->m / 2 - 1] + w[g->m / 2]);
  free(w);
  return med;
}

static void check_graph(const ds_graph *g, uint32_t source, const char *what, int max_threads) {
  const ds_dist_width width = ds_sssp_dist_width(g);
  const size_t bytes = ds_dist_size(g, width);
  void *want = malloc(g->n * bytes), *dist = malloc(g->n * bytes);
  uint32_t *pred = malloc(g->n * 4);
  ds_sssp_params p;
  ds_sssp_params_default(&p);
  p.dist_width = width;
  ds_sssp_result r;
  memset(&r, 0, sizeof r);
  r.dist = want;
  ds_error err;
  if (!CHECK(want != NULL && dist != NULL && pred != NULL, "%s: no memory", what) ||
      !CHECK(ds_sssp_dijkstra(g, source, &p, &r, &err) == DS_OK, "%s: dijkstra: %s", what, err.msg))
    goto done;
  for (size_t di = 0; di < sizeof DELTAS / sizeof DELTAS[0]; di++)
    for (size_t ti = 0; ti < sizeof THREADS / sizeof THREADS[0] * N_FUSE; ti++) {
      if (THREADS[ti / N_FUSE] > max_threads) continue;
      /* auto: the GPU's rule with 1 thread, the CPU's with more */
      p.delta = DELTAS[di] > 0.0 ? DELTAS[di] : ti / N_FUSE == 0 ? ds_delta_auto(g)
                                                                  : ds_delta_auto_cpu(g);
      p.threads = THREADS[ti / N_FUSE];
      p.cpu_fuse_limit = FUSE_LIMITS[ti % N_FUSE];
      p.cpu_lone_limit = LONE_LIMITS[(ti + di) % N_LONE];
      p.cpu_prefetch = (int)(ti % 3) - 1; /* none, the default, the next arc */
      /* every vertex of 3 or more arcs shared with the team, the default, never */
      p.cpu_heavy_arcs = HEAVY_ARCS[(ti + 2 * di) % N_HEAVY];
      p.want_pred = (int)(di % 2);
      memset(dist, POISON_BYTE, g->n * bytes);
      memset(pred, POISON_BYTE, g->n * 4);
      r.dist = dist;
      r.pred = p.want_pred ? pred : NULL;
      if (!CHECK(ds_sssp_cpu_delta(g, source, &p, &r, &err) == DS_OK,
                 "%s delta %g threads %d fuse %zu lone %zu: %s", what, p.delta, p.threads,
                 p.cpu_fuse_limit, p.cpu_lone_limit, err.msg))
        continue;
      for (uint32_t v = 0; v < g->n; v++)
        if (!CHECK(test_same(g, test_dist_w(g, want, width, v), test_dist_w(g, dist, width, v)),
                   "%s delta %g threads %d fuse %zu lone %zu: vertex %u distance %.9g, dijkstra %.9g",
                   what, p.delta, p.threads, p.cpu_fuse_limit, p.cpu_lone_limit, v, test_dist_w(g, dist, width, v),
                   test_dist_w(g, want, width, v)))
          break;
      CHECK(ds_sssp_validate(g, source, dist, width, r.pred, NULL, &err) == DS_OK,
            "%s delta %g threads %d fuse %zu lone %zu: validator: %s", what, p.delta, p.threads,
            p.cpu_fuse_limit, p.cpu_lone_limit, err.msg);
    }
done:
  free(want);
  free(dist);
  free(pred);
}

/* The CSR of arcs (src, dst, w) if `ok` (their arrays were had); frees the
 * arrays. 1 on success. */
static int csr_of(int ok, uint32_t n, uint64_t m, uint32_t *src, uint32_t *dst, uint32_t *w,
                  const char *what, ds_graph *g) {
  if (ok) {
    ds_edge_list el = {n, m, src, dst, DS_WEIGHT_U32, w};
    ds_load_options opt;
    ds_load_options_default(&opt);
    ds_error err;
    ok = CHECK(ds_csr_build(&el, 0, &opt, g, &err) == DS_OK, "%s: %s", what, err.msg);
  } else {
    CHECK(0, "%s: no memory", what);
  }
  free(src);
  free(dst);
  free(w);
  return ok;
}

/* PATH_N vertices in a chain 0 -> 1 -> ... of weights 1000..1999, then an
 * island of ISLAND_N vertices in a cycle of zero weights (unreachable), then
 * ISOLATED_N vertices with no arcs. */
static int path_and_island(ds_graph *g) {
  const uint32_t n = PATH_N + ISLAND_N + ISOLATED_N;
  const uint64_t m = (PATH_N - 1) + ISLAND_N;
  uint32_t *src = malloc(m * sizeof *src), *dst = malloc(m * sizeof *dst);
  uint32_t *w = malloc(m * sizeof *w);
  int ok = src != NULL && dst != NULL && w != NULL;
  if (ok) {
    uint64_t e = 0;
    for (uint32_t v = 0; v + 1 < PATH_N; v++, e++) {
      src[e] = v;
      dst[e] = v + 1;
      w[e] = 1000 + v % 1000;
    }
    for (uint32_t k = 0; k < ISLAND_N; k++, e++) {
      src[e] = PATH_N + k;
      dst[e] = PATH_N + (k + 1) % ISLAND_N;
      w[e] = 0;
    }
  }
  return csr_of(ok, n, m, src, dst, w, "path and island", g);
}

/* HUB_COUNT hubs, out of the source by weights 1.., each with HUB_ARCS arcs
 * (more than cpu-delta's heavy threshold, so the team shares them) to
 * random vertices, and 3 random arcs per vertex; weights 0..1000. */
static int hubs(ds_graph *g) {
  const uint32_t n = HUB_N;
  const uint64_t m = HUB_COUNT * (1 + (uint64_t)HUB_ARCS) + 3 * (uint64_t)n;
  uint32_t *src = malloc(m * sizeof *src), *dst = malloc(m * sizeof *dst);
  uint32_t *w = malloc(m * sizeof *w);
  int ok = src != NULL && dst != NULL && w != NULL;
  if (ok) {
    uint64_t e = 0, r = 12345;
    for (uint32_t h = 1; h <= HUB_COUNT; h++) {
      src[e] = 0, dst[e] = h, w[e++] = h;
      for (uint32_t k = 0; k < HUB_ARCS; k++, e++)
        src[e] = h, dst[e] = (uint32_t)(test_rand(&r) % n), w[e] = (uint32_t)(test_rand(&r) % 1001);
    }
    while (e < m) {
      src[e] = (uint32_t)(test_rand(&r) % n), dst[e] = (uint32_t)(test_rand(&r) % n);
      w[e++] = (uint32_t)(test_rand(&r) % 1001);
    }
  }
  return csr_of(ok, n, m, src, dst, w, "hubs", g);
}

int main(void) {
  int graphs = 0;
  char what[128];
  // 1. random graphs of every weight kind
  for (int kind = 0; kind < W_KINDS; kind++)
    for (uint64_t seed = 1; seed <= RANDOM_SEEDS; seed++) {
      ds_graph g;
      uint32_t n = (uint32_t)(20 + 60 * seed);
      if (!test_random_graph(n, 3 * (uint64_t)n, (weight_kind)kind, seed % 2, seed * 77, &g))
        return ds_test_finish("cpu delta-stepping vs dijkstra: %d graphs", graphs);
      snprintf(what, sizeof what, "random n=%u kind=%d seed=%llu", n, kind,
               (unsigned long long)seed);
      check_graph(&g, (uint32_t)(seed % n), what, seed == 1 ? 4 : 2);
      graphs++;
      ds_graph_free(&g);
    }
  // 2. larger graphs, whose frontiers exceed the one-thread limit (parallel rounds)
  for (int kind = 0; kind < W_KINDS; kind++) {
    ds_graph g;
    if (!test_random_graph(LARGE_N, LARGE_M, (weight_kind)kind, kind % 2, 99 + (uint64_t)kind, &g))
      return ds_test_finish("cpu delta-stepping vs dijkstra: %d graphs", graphs);
    snprintf(what, sizeof what, "random n=%u kind=%d", LARGE_N, kind);
    check_graph(&g, 1, what, kind == 0 ? 4 : 2);
    graphs++;
    ds_graph_free(&g);
  }
  // 2b. a dense graph: with fusion off and one wide bucket, a round gathers more entries than
  //     the graph has vertices (the shared frontier grows between barriers)
  {
    ds_graph g;
    if (!test_random_graph(DENSE_N, DENSE_M, W_WIDE, 0, 7, &g))
      return ds_test_finish("cpu delta-stepping vs dijkstra: %d graphs", graphs);
    check_graph(&g, 0, "dense random", 4);
    graphs++;
    ds_graph_free(&g);
  }
  // 2c. a path of heavy arcs (one vertex per bucket: thousands of window moves, a lone thread
  //     throughout) beside a component the source cannot reach, and isolated vertices
  {
    ds_graph g;
    if (!path_and_island(&g)) return ds_test_finish("cpu delta-stepping vs dijkstra: %d graphs", graphs);
    check_graph(&g, 0, "path and island", 4);
    graphs++;
    ds_graph_free(&g);
  }
  // 2d. hubs in a small frontier: their arcs are relaxed in pieces by the team
  {
    ds_graph g;
    if (!hubs(&g)) return ds_test_finish("cpu delta-stepping vs dijkstra: %d graphs", graphs);
    check_graph(&g, 0, "hubs", 4);
    graphs++;
    ds_graph_free(&g);
  }
#ifdef DS_TEST_HAVE_GEN
  // 3. generated graphs: long paths (grid) and skewed degrees (Kronecker)
  ds_graph g;
  ds_error err;
  if (!CHECK(ds_gen_grid(60, 60, 1, 1000, 3, &g, &err) == DS_OK, "grid: %s", err.msg))
    return ds_test_finish("cpu delta-stepping vs dijkstra: %d graphs", graphs);
  check_graph(&g, 0, "grid 60x60", 2);
  ds_graph_free(&g);
  graphs++;
  if (!CHECK(ds_gen_kron(10, 16, 0.57, 0.19, 0.19, 1, 255, 5, &g, &err) == DS_OK, "kron: %s",
             err.msg))
    return ds_test_finish("cpu delta-stepping vs dijkstra: %d graphs", graphs);
  uint32_t src = 0;
  while (src + 1 < g.n && g.row_offsets[src + 1] == g.row_offsets[src]) src++;
  check_graph(&g, src, "kron scale 10", 8);
  ds_graph_free(&g);
  graphs++;
#endif
  // 4. the automatic delta: 256 x the mean weight below 3 arcs per vertex, else 64 x, and
  //    32 x the median below 8 arcs per vertex where the mean is 4 x the median or more;
  //    the CPU's: 8 x the smaller of the mean and the median weight below 8 arcs per vertex
  //    on a graph that grows like a plane (these graphs of 1000 vertices are too small for the
  //    probe to tell, and count as one), else 2 x the mean weight / arcs per vertex
  static const uint32_t EDGES_PER_VERTEX[] = {2, 4, 12};
  for (size_t k = 0; k < sizeof EDGES_PER_VERTEX / sizeof EDGES_PER_VERTEX[0]; k++) {
    ds_graph a;
    const uint32_t n = 1000;
    if (!test_random_graph(n, EDGES_PER_VERTEX[k] * (uint64_t)n, W_WIDE, 0, 5, &a))
      return ds_test_finish("cpu delta-stepping vs dijkstra: %d graphs", graphs);
    const double degree = (double)a.m / n;
    CHECK((degree >= DS_DELTA_AUTO_CPU_DENSE_DEGREE) == (k == 2) &&
              (degree >= DS_DELTA_AUTO_SPARSE_DEGREE) == (k > 0),
          "delta auto: the test graph has %llu arcs", (unsigned long long)a.m);
    double sum = 0;
    for (uint64_t e = 0; e < a.m; e++) sum += ((const uint32_t *)a.weights)[e];
    const double mean = sum / (double)a.m;
    const double want = ceil((k > 0 ? DS_DELTA_AUTO_SCALE : DS_DELTA_AUTO_SCALE_SPARSE) * mean);
    const double got = ds_delta_auto(&a);
    CHECK(got == want, "delta auto, %llu arcs on %u vertices: %g, want %g", (unsigned long long)a.m,
          n, got, want);
    const double median = median_of_all(&a); /* the sample is every arc below 65,536 */
    const double want_cpu = ceil(k == 2 ? DS_DELTA_AUTO_CPU_DENSE_SCALE * mean / degree
                                        : DS_DELTA_AUTO_CPU_SCALE * (median < mean ? median : mean));
    CHECK(ds_median_weight(&a) == median, "median weight: %g, want %g", ds_median_weight(&a),
          median);
    const double got_cpu = ds_delta_auto_cpu(&a);
    CHECK(got_cpu == want_cpu, "cpu delta auto, %llu arcs on %u vertices: %g, want %g",
          (unsigned long long)a.m, n, got_cpu, want_cpu);
    // one run's algorithms: under auto each its backend's rule, cpu-delta the CPU's also beside
    // GPU algorithms (0: no buckets); a given width serves them all
    static const ds_algo MIXED[] = {DS_ALGO_NEAR_FAR, DS_ALGO_CPU_DELTA, DS_ALGO_DIJKSTRA,
                                    DS_ALGO_MULTISPLIT, DS_ALGO_BELLMAN_FORD};
    const struct {
      int first, count;
      double given, run, want[5];
    } runs[] = {{0, 5, 0.0, got, {got, got_cpu, 0.0, got, 0.0}},
                {1, 2, 0.0, got_cpu, {got_cpu, 0.0}},  /* cpu-delta, dijkstra */
                {2, 1, 0.0, got_cpu, {0.0}},           /* dijkstra alone: the CPU rule's */
                {2, 3, 0.0, got, {0.0, got}},          /* dijkstra, multisplit */
                {0, 5, 2.5, 3.0, {3.0, 3.0, 0.0, 3.0, 0.0}}};
    for (size_t c = 0; c < sizeof runs / sizeof runs[0]; c++) {
      double per[5];
      const double run = ds_delta_for_algos(&a, runs[c].given, MIXED + runs[c].first,
                                            runs[c].count, per);
      CHECK(run == runs[c].run, "run %zu's delta %g, want %g", c, run, runs[c].run);
      for (int i = 0; i < runs[c].count; i++)
        CHECK(per[i] == runs[c].want[i], "run %zu: %s at delta %g, want %g", c,
              ds_algo_name(MIXED[runs[c].first + i]), per[i], runs[c].want[i]);
    }
    // the automatic bucket count: max weight / delta up to a power of two, within 10..64
    uint32_t wmax = 0;
    for (uint64_t e = 0; e < a.m; e++)
      if (((const uint32_t *)a.weights)[e] > wmax) wmax = ((const uint32_t *)a.weights)[e];
    static const struct { double over; uint32_t want; } BUCKETS[] = {
        {0.5, 10}, {1.0, 10}, {10.0, 10}, {10.5, 16}, {16.0, 16}, {17.0, 32}, {33.0, 64}, {1e6, 64}};
    for (size_t b = 0; b < sizeof BUCKETS / sizeof BUCKETS[0]; b++) {
      const double delta = (double)wmax / BUCKETS[b].over;
      CHECK(ds_buckets_auto(&a, delta) == BUCKETS[b].want,
            "buckets auto, max weight %u, delta %g: %u, want %u", wmax, delta,
            ds_buckets_auto(&a, delta), BUCKETS[b].want);
    }
    // a heavy tail (1 % of the weights 2^24, the rest 1..256) moves the GPU's width onto the
    // median only between 3 and 8 arcs per vertex (the uniform weights above kept the mean)
    uint32_t *w = (uint32_t *)a.weights;
    for (uint64_t e = 0; e < a.m; e++) w[e] = e % 100 == 0 ? 1u << 24 : 1u + (uint32_t)(e % 256);
    double heavy_sum = 0;
    for (uint64_t e = 0; e < a.m; e++) heavy_sum += w[e];
    const double heavy_mean = heavy_sum / (double)a.m, heavy_median = median_of_all(&a);
    const double want_heavy = ceil(k == 0   ? DS_DELTA_AUTO_SCALE_SPARSE * heavy_mean
                                   : k == 1 ? DS_DELTA_AUTO_SCALE_HEAVY * heavy_median
                                            : DS_DELTA_AUTO_SCALE * heavy_mean);
    CHECK(DS_DELTA_AUTO_HEAVY_TAIL * heavy_median < heavy_mean && ds_delta_auto(&a) == want_heavy,
          "delta auto, heavy tail, %llu arcs on %u vertices: %g, want %g (mean %g, median %g)",
          (unsigned long long)a.m, n, ds_delta_auto(&a), want_heavy, heavy_mean, heavy_median);
    ds_graph_free(&a);
  }
#ifdef DS_TEST_HAVE_GEN
  // ... and on a road-like graph with a heavy tail of weights (99 % in 1..256, 1 % in the top
  // half of 1..2^24) the median, not the mean, sets the CPU's width
  {
    ds_gen_spec spec;
    ds_gen_spec_default(&spec, DS_GEN_GRID);
    spec.rows = spec.cols = 64;
    spec.weight_min = 1;
    spec.weight_max = 1u << 24;
    spec.weight_dist = DS_WEIGHTS_BIMODAL;
    ds_graph h;
    if (CHECK(ds_gen_graph(&spec, &h, &err) == DS_OK, "heavy grid: %s", err.msg)) {
      const double median = median_of_all(&h);
      CHECK(median <= 257 && ds_delta_auto_cpu(&h) == ceil(DS_DELTA_AUTO_CPU_SCALE * median),
            "heavy-tailed grid: cpu delta auto %g, median weight %g", ds_delta_auto_cpu(&h), median);
      CHECK(ds_delta_auto(&h) == ceil(DS_DELTA_AUTO_SCALE_HEAVY * median),
            "heavy-tailed grid: delta auto %g, median weight %g", ds_delta_auto(&h), median);
      check_graph(&h, 0, "heavy-tailed grid", 4);
      graphs++;
      ds_graph_free(&h);
    }
  }
  // ... and below 8 arcs per vertex the rule asks how the graph grows: a grid or a geometric
  // graph (a plane) keeps the wide width, a random graph of as many arcs per vertex takes the
  // dense one (in its few hops nearly every vertex is near)
  {
    static const struct {
      ds_gen_kind kind;
      uint32_t n_or_rows;
      double degree;
      int plane;
    } PLANES[] = {{DS_GEN_GRID, 256, 4, 1}, {DS_GEN_GEO, 65536, 6, 1},
                  {DS_GEN_UNIFORM, 65536, 4, 0}, {DS_GEN_UNIFORM, 65536, 6, 0}};
    for (size_t i = 0; i < sizeof PLANES / sizeof PLANES[0]; i++) {
      ds_gen_spec spec;
      ds_gen_spec_default(&spec, PLANES[i].kind);
      spec.rows = spec.cols = spec.n = PLANES[i].n_or_rows;
      spec.degree = PLANES[i].degree;
      spec.m = (uint64_t)(PLANES[i].degree / 2 * PLANES[i].n_or_rows); /* edges, both ways */
      spec.geo_weight = DS_GEN_GEO_WEIGHT_RANDOM;
      ds_graph h;
      if (!CHECK(ds_gen_graph(&spec, &h, &err) == DS_OK, "plane %zu: %s", i, err.msg)) continue;
      double sum = 0;
      for (uint64_t e = 0; e < h.m; e++) sum += ((const uint32_t *)h.weights)[e];
      const double mean = sum / (double)h.m, degree = (double)h.m / h.n;
      const double median = median_of_all(&h);
      const double want = ceil(PLANES[i].plane
                                   ? DS_DELTA_AUTO_CPU_SCALE * (median < mean ? median : mean)
                                   : DS_DELTA_AUTO_CPU_DENSE_SCALE * mean / degree);
      CHECK(degree < DS_DELTA_AUTO_CPU_DENSE_DEGREE && ds_delta_auto_cpu(&h) == want,
            "plane %zu (%s, %.2f arcs per vertex): cpu delta auto %g, want %g", i,
            PLANES[i].plane ? "a plane" : "random", degree, ds_delta_auto_cpu(&h), want);
      ds_graph_free(&h);
    }
  }
#endif
  // the bucket of a 32-bit key by a multiply: key / width exactly, for widths from 1 to the
  // largest and keys at both ends, around multiples of the width and spread over the range
  {
    static const uint32_t WIDTHS[] = {1,          2,          3,          7,          39,
                                      1016,       1024,       1025,       65535,      65536,
                                      0x7fffffffu, 0x80000000u, 0x80000001u, 0xfffffffeu,
                                      0xffffffffu};
    uint64_t wrong = 0, tried = 0;
    for (size_t i = 0; i < sizeof WIDTHS / sizeof WIDTHS[0]; i++) {
      const uint32_t w = WIDTHS[i];
      const ds_key_divider d = ds_key_divider_of(w);
      uint64_t x = 0x9e3779b97f4a7c15ull + i; /* xorshift: keys spread over the range */
      for (uint64_t k = 0; k < 300000; k++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        const uint64_t near = (x >> 40) * (uint64_t)w + (k % 3) - 1; /* a multiple, +-1 */
        const uint32_t key = k < 1000                 ? (uint32_t)k
                             : k < 2000               ? UINT32_MAX - (uint32_t)(k - 1000)
                             : k % 2 && near <= UINT32_MAX ? (uint32_t)near
                                                       : (uint32_t)x;
        wrong += ds_key_quotient(key, d) != key / w;
        tried++;
      }
    }
    CHECK(wrong == 0, "bucket by multiply: %llu of %llu quotients wrong",
          (unsigned long long)wrong, (unsigned long long)tried);
  }
  // 5. bad deltas are argument errors
  ds_graph small;
  if (test_random_graph(4, 4, W_WIDE, 0, 3, &small)) {
    uint32_t d[4];
    ds_sssp_params p;
    ds_sssp_params_default(&p);
    ds_sssp_result r;
    memset(&r, 0, sizeof r);
    r.dist = d;
    ds_error e;
    const double bad[] = {0.0, -1.0, INFINITY, NAN};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
      p.delta = bad[i];
      CHECK(ds_sssp_cpu_delta(&small, 0, &p, &r, &e) == DS_ERR_ARG, "delta %g accepted", bad[i]);
    }
    ds_graph_free(&small);
  }
  // 6. one normalisation for every algorithm: integer widths are whole numbers in
  //    [1, 2^32-1] (the GPU engines clamped at 1e15 before, the CPU at 2^32-1), float
  //    widths are kept
  static const struct {
    ds_weight_type wt;
    double delta, want;
  } norm[] = {{DS_WEIGHT_U32, 1e-3, 1.0},        {DS_WEIGHT_U32, 1.0, 1.0},
              {DS_WEIGHT_U32, 1.5, 2.0},         {DS_WEIGHT_U32, 1000.0, 1000.0},
              {DS_WEIGHT_U32, 4294967294.5, 4294967295.0},
              {DS_WEIGHT_U32, 1e12, 4294967295.0}, {DS_WEIGHT_U32, 1e300, 4294967295.0},
              {DS_WEIGHT_F32, 1e-3, 1e-3},       {DS_WEIGHT_F32, 1.5, 1.5},
              {DS_WEIGHT_F32, 1e12, 1e12}};
  for (size_t i = 0; i < sizeof norm / sizeof norm[0]; i++) {
    const double got = ds_delta_normalize(norm[i].wt, norm[i].delta);
    CHECK(got == norm[i].want, "ds_delta_normalize(%s, %.17g) = %.17g, want %.17g",
          norm[i].wt == DS_WEIGHT_U32 ? "u32" : "f32", norm[i].delta, got, norm[i].want);
  }
  return ds_test_finish("cpu delta-stepping vs dijkstra: %d graphs", graphs);
}
