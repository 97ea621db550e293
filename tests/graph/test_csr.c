/* ds_csr_build against a dense oracle on many small random edge lists (self
 * loops, duplicates, symmetric or not, pattern / integer / float weights),
 * a large star (long rows), the rules for generated weights, argument
 * errors, ds_csr_check catching each kind of corrupted CSR, and
 * ds_csr_mark_symmetric finding the directed builds that list both directions
 * of every edge. */
#include "graph_test_util.h"

#include <math.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#define TRIALS 300
#define MAX_N 40
#define MAX_EDGES 240
#define NONE UINT32_MAX

static uint64_t rng_state = 0x2545F4914F6CDD1Dull;
static uint32_t rnd(uint32_t bound) { /* xorshift64*, independent of the library's PRNG */
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return (uint32_t)((rng_state * 0x2545F4914F6CDD1Dull) >> 32) % bound;
}

typedef enum { PATTERN, U32, F32 } kind;

static void one_trial(int trial) {
  uint32_t n = 1 + rnd(MAX_N), count = rnd(MAX_EDGES);
  int symmetric = (int)rnd(2);
  kind k = (kind)rnd(3);
  uint32_t src[MAX_EDGES], dst[MAX_EDGES], wu[MAX_EDGES];
  float wf[MAX_EDGES];
  for (uint32_t i = 0; i < count; i++) {
    src[i] = rnd(n);
    dst[i] = rnd(4) == 0 ? src[i] : rnd(n); /* plenty of self-loops */
    wu[i] = rnd(20);
    wf[i] = 0.5f * (float)rnd(20);
  }
  ds_edge_list el = {n, count, src, dst, k == F32 ? DS_WEIGHT_F32 : DS_WEIGHT_U32,
                     k == PATTERN ? NULL : k == U32 ? (const void *)wu : (const void *)wf};
  ds_load_options opt;
  ds_load_options_default(&opt);
  opt.weight_min = 5;
  opt.weight_max = 9;
  opt.seed = (uint64_t)trial;
  ds_graph g;
  ds_error err;
  memset(&g, POISON_BYTE, sizeof g);
  if (ds_csr_build(&el, symmetric, &opt, &g, &err) != DS_OK) {
    CHECK(0, "trial %d: %s", trial, err.msg);
    return;
  }
  CHECK(ds_csr_check(&g, &err) == DS_OK, "trial %d: %s", trial, err.msg);
  // oracle: present[u][v] and the smallest weight (as double)
  static double best[MAX_N][MAX_N];
  for (uint32_t u = 0; u < n; u++)
    for (uint32_t v = 0; v < n; v++) best[u][v] = INFINITY;
  for (uint32_t i = 0; i < count; i++) {
    if (src[i] == dst[i]) continue;
    double w = k == U32 ? wu[i] : k == F32 ? wf[i] : 0.0;
    if (w < best[src[i]][dst[i]]) best[src[i]][dst[i]] = w;
    if (symmetric && w < best[dst[i]][src[i]]) best[dst[i]][src[i]] = w;
  }
  uint64_t a = 0;
  for (uint32_t u = 0; u < n; u++) {
    for (uint32_t v = 0; v < n; v++) {
      if (isinf(best[u][v])) continue;
      if (a >= g.m || g.row_offsets[u + 1] <= a || g.col[a] != v) {
        CHECK(0, "trial %d: arc %u -> %u missing or misplaced", trial, u, v);
        ds_graph_free(&g);
        return;
      }
      if (k == PATTERN) {
        uint32_t w = ((uint32_t *)g.weights)[a];
        CHECK(w >= 5 && w <= 9, "trial %d: generated weight %u outside 5..9", trial, w);
      } else {
        double w = k == U32 ? (double)((uint32_t *)g.weights)[a] : (double)((float *)g.weights)[a];
        CHECK(w == best[u][v], "trial %d: arc %u -> %u weight %g, want %g", trial, u, v, w,
              best[u][v]);
      }
      a++;
    }
  }
  CHECK(a == g.m, "trial %d: %llu arcs, oracle %llu", trial, (unsigned long long)g.m,
        (unsigned long long)a);
  CHECK(g.weights_generated == (k == PATTERN) && g.symmetric == symmetric, "trial %d: flags",
        trial);
  // generated weights: one weight per unordered pair, the same on every build
  if (k == PATTERN) {
    for (uint32_t u = 0; u < n; u++)
      for (uint64_t x = g.row_offsets[u]; x < g.row_offsets[u + 1]; x++) {
        uint32_t v = g.col[x];
        for (uint64_t y = g.row_offsets[v]; y < g.row_offsets[v + 1]; y++)
          if (g.col[y] == u)
            CHECK(((uint32_t *)g.weights)[x] == ((uint32_t *)g.weights)[y],
                  "trial %d: %u -> %u and back differ in generated weight", trial, u, v);
      }
    ds_graph again;
    CHECK(ds_csr_build(&el, symmetric, &opt, &again, &err) == DS_OK && same_graph(&g, &again),
          "trial %d: pattern build not deterministic", trial);
    ds_graph_free(&again);
  }
  ds_graph_free(&g);
}

/* ds_csr_mark_symmetric on the directed build of a random list that holds the
 * reverse of each of its edges, with another weight (or, half the time, of
 * none): where every arc has its reverse it becomes exactly the symmetric build
 * (the lighter weight of each pair), elsewhere it stays as it was. */
static void mark_trial(int trial) {
  uint32_t n = 2 + rnd(MAX_N - 1), half = rnd(MAX_EDGES / 2);
  uint32_t src[MAX_EDGES], dst[MAX_EDGES], wu[MAX_EDGES];
  float wf[MAX_EDGES];
  static char present[MAX_N][MAX_N];
  memset(present, 0, sizeof present);
  for (uint32_t i = 0; i < 2 * half; i++) {
    src[i] = i < half ? rnd(n) : dst[i - half];
    dst[i] = i < half ? rnd(n) : src[i - half];
    wu[i] = rnd(20);
    wf[i] = 0.5f * (float)rnd(20);
  }
  const uint32_t count = rnd(2) ? 2 * half : half;
  for (uint32_t i = 0; i < count; i++) present[src[i]][dst[i]] = src[i] != dst[i];
  int want = 1;
  for (uint32_t u = 0; u < n; u++)
    for (uint32_t v = 0; v < n; v++) want &= present[u][v] == present[v][u];
  const int real = rnd(2);
  ds_edge_list el = {n, count, src, dst, real ? DS_WEIGHT_F32 : DS_WEIGHT_U32,
                     real ? (const void *)wf : (const void *)wu};
  ds_graph g, before, sym;
  ds_error err;
  if (!CHECK(ds_csr_build(&el, 0, NULL, &g, &err) == DS_OK &&
                 ds_csr_build(&el, 0, NULL, &before, &err) == DS_OK &&
                 ds_csr_build(&el, 1, NULL, &sym, &err) == DS_OK,
             "mark trial %d: %s", trial, err.msg))
    return;
  CHECK(ds_csr_mark_symmetric(&g) == want, "mark trial %d: symmetric %d expected", trial, want);
  if (want)
    CHECK(g.symmetric && same_graph(&g, &sym) && ds_csr_check(&g, &err) == DS_OK,
          "mark trial %d: marked, but not the symmetric build", trial);
  else
    CHECK(!g.symmetric && same_graph(&g, &before), "mark trial %d: changed, not marked", trial);
  CHECK(ds_csr_mark_symmetric(&sym) == 1, "mark trial %d: a symmetric build", trial);
  ds_graph_free(&g);
  ds_graph_free(&before);
  ds_graph_free(&sym);
}

/* Different seeds give different weights; a one-value range gives that value. */
static void seeds_and_ranges(void) {
  enum { N = 2000 };
  static uint32_t s[N], d[N];
  for (uint32_t i = 0; i < N; i++) s[i] = i, d[i] = (i + 1) % N;
  ds_edge_list el = {N, N, s, d, DS_WEIGHT_U32, NULL};
  ds_load_options a, b;
  ds_load_options_default(&a);
  b = a;
  b.seed = a.seed + 1;
  ds_graph ga, gb;
  ds_error err;
  CHECK(ds_csr_build(&el, 1, &a, &ga, &err) == DS_OK, "%s", err.msg);
  CHECK(ds_csr_build(&el, 1, &b, &gb, &err) == DS_OK, "%s", err.msg);
  CHECK(!same_graph(&ga, &gb), "seeds %llu and %llu gave the same weights",
        (unsigned long long)a.seed, (unsigned long long)b.seed);
  uint32_t lo = UINT32_MAX, hi = 0;
  for (uint64_t i = 0; i < ga.m; i++) {
    uint32_t w = ((uint32_t *)ga.weights)[i];
    lo = w < lo ? w : lo;
    hi = w > hi ? w : hi;
  }
  CHECK(lo >= 1 && hi <= 1000 && hi - lo > 900, "default range 1..1000: got %u..%u", lo, hi);
  ds_graph_free(&ga);
  ds_graph_free(&gb);
  a.weight_min = a.weight_max = UINT32_MAX;
  CHECK(ds_csr_build(&el, 0, &a, &ga, &err) == DS_OK && ((uint32_t *)ga.weights)[0] == UINT32_MAX,
        "range %u:%u", a.weight_min, a.weight_max);
  ds_graph_free(&ga);
}

/* A star with a 300k-arc row, many duplicates: the long-row sort. */
static void big_star(void) {
  enum { N = 200000, E = 300000 };
  uint32_t *s = malloc(E * sizeof *s), *d = malloc(E * sizeof *d), *w = malloc(E * sizeof *w);
  unsigned char *seen = calloc(N, 1);
  uint32_t *best = malloc(N * sizeof *best);
  uint64_t distinct = 0;
  for (uint32_t i = 0; i < N; i++) best[i] = UINT32_MAX;
  for (uint32_t i = 0; i < E; i++) {
    s[i] = 0;
    d[i] = rnd(N);
    w[i] = rnd(1000);
    if (d[i] != 0 && !seen[d[i]]) seen[d[i]] = 1, distinct++;
    if (d[i] != 0 && w[i] < best[d[i]]) best[d[i]] = w[i];
  }
  ds_edge_list el = {N, E, s, d, DS_WEIGHT_U32, w};
  ds_graph g;
  ds_error err;
  CHECK(ds_csr_build(&el, 0, NULL, &g, &err) == DS_OK, "star: %s", err.msg);
  CHECK(ds_csr_check(&g, &err) == DS_OK, "star: %s", err.msg);
  CHECK(g.m == distinct && g.row_offsets[1] == distinct, "star: %llu arcs, want %llu",
        (unsigned long long)g.m, (unsigned long long)distinct);
  for (uint64_t a = 0; a < g.m; a++)
    if (((uint32_t *)g.weights)[a] != best[g.col[a]]) {
      CHECK(0, "star: arc to %u weight %u, want %u", g.col[a], ((uint32_t *)g.weights)[a],
            best[g.col[a]]);
      break;
    }
  ds_graph_free(&g);
  free(s), free(d), free(w), free(seen), free(best);
}

/* The threaded build gives the same CSR for 1, 2 and 5 threads. */
static void thread_counts(void) {
#ifdef _OPENMP
  enum { N = 50000, E = 400000 };
  uint32_t *s = malloc(E * sizeof *s), *d = malloc(E * sizeof *d);
  for (uint32_t i = 0; i < E; i++) s[i] = rnd(N), d[i] = rnd(8) ? rnd(N) : rnd(16);
  ds_edge_list el = {N, E, s, d, DS_WEIGHT_U32, NULL};
  const int counts[3] = {1, 2, 5};
  ds_graph g[3];
  ds_error err;
  int saved = omp_get_max_threads();
  for (int k = 0; k < 3; k++) {
    omp_set_num_threads(counts[k]);
    CHECK(ds_csr_build(&el, 1, NULL, &g[k], &err) == DS_OK, "%s", err.msg);
  }
  omp_set_num_threads(saved);
  CHECK(ds_csr_check(&g[0], &err) == DS_OK, "threads: %s", err.msg);
  CHECK(same_graph(&g[0], &g[1]) && same_graph(&g[0], &g[2]), "the CSR depends on the thread count");
  for (int k = 0; k < 3; k++) ds_graph_free(&g[k]);
  free(s), free(d);
#endif
}

static void argument_errors(void) {
  uint32_t s[2] = {0, 1}, d[2] = {1, 5}, w[2] = {1, 2};
  float fw[2] = {1.0f, -2.0f}, nanw[2] = {NAN, 1.0f};
  ds_graph g;
  ds_error err;
  ds_load_options bad;
  ds_load_options_default(&bad);
  bad.weight_min = 10;
  bad.weight_max = 3;
  struct {
    ds_edge_list el;
    const ds_load_options *opt;
    const char *what;
  } cases[] = {
      {{3, 2, s, d, DS_WEIGHT_U32, w}, NULL, "out of range"},
      {{6, 2, s, d, DS_WEIGHT_F32, fw}, NULL, "weights must"},
      {{6, 2, s, d, DS_WEIGHT_F32, nanw}, NULL, "weights must"},
      {{6, 2, s, d, DS_WEIGHT_U32, NULL}, &bad, "is empty"},
      {{6, 2, NULL, d, DS_WEIGHT_U32, w}, NULL, "must not be NULL"},
      {{6, 2, s, d, (ds_weight_type)7, w}, NULL, "weight type"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    memset(&g, POISON_BYTE, sizeof g);
    ds_status st = ds_csr_build(&cases[i].el, 0, cases[i].opt, &g, &err);
    CHECK(st == DS_ERR_ARG && strstr(err.msg, cases[i].what), "argument case %zu: %s '%s'", i,
          ds_status_name(st), err.msg);
  }
  ds_edge_list empty = {0, 0, NULL, NULL, DS_WEIGHT_U32, NULL};
  CHECK(ds_csr_build(&empty, 0, NULL, &g, &err) == DS_OK && g.n == 0 && g.m == 0 &&
            ds_csr_check(&g, &err) == DS_OK, "empty graph");
  ds_graph_free(&g);
}

/* Each corruption must be caught; the graph is rebuilt for each. */
static void check_catches(void) {
  uint32_t s[6] = {0, 0, 1, 2, 2, 3}, d[6] = {1, 2, 2, 0, 3, 1};
  float w[6] = {1, 2, 3, 4, 5, 6};
  ds_edge_list el = {4, 6, s, d, DS_WEIGHT_F32, w};
  for (int c = 0; c < 7; c++) {
    ds_graph g;
    ds_error err;
    if (ds_csr_build(&el, 1, NULL, &g, &err) != DS_OK) {
      CHECK(0, "%s", err.msg);
      return;
    }
    uint32_t t;
    float *fw = g.weights;
    switch (c) {
    case 0: t = g.col[0], g.col[0] = g.col[1], g.col[1] = t; break; /* unsorted row */
    case 1: g.col[0] = 0; break;                                    /* self-loop */
    case 2: g.col[0] = 9; break;                                    /* out of range */
    case 3: g.row_offsets[4] = g.m - 1; break;                      /* offsets end */
    case 4: fw[2] = -1.0f; break;                                   /* negative */
    case 5: fw[2] = NAN; break;                                     /* not finite */
    case 6: fw[0] += 1.0f; break;                                   /* asymmetric */
    }
    CHECK(ds_csr_check(&g, &err) == DS_ERR_VALIDATION, "ds_csr_check missed corruption %d", c);
    ds_graph_free(&g);
  }
}

int main(void) {
  for (int t = 0; t < TRIALS; t++) one_trial(t);
  for (int t = 0; t < TRIALS; t++) mark_trial(t);
  seeds_and_ranges();
  big_star();
  thread_counts();
  argument_errors();
  check_catches();
  return ds_test_finish("csr: %d trials", TRIALS);
}
