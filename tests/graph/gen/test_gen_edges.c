/* Tests of the raw generated edge lists (ds_gen_edges), before any CSR:
 *
 *   1. determinism: same spec -> identical lists; another seed -> another list;
 *      1, 2 and 3 OpenMP threads -> identical lists (every kind);
 *   2. counts, id ranges, weight ranges, no self-loops where promised (every kind);
 *   3. R-MAT/Kronecker: the count of edges whose source (destination) has k
 *      one-bits matches the closed form M C(s,k) (a+b)^(s-k) (c+d)^k
 *      (resp. (a+c), (b+d)) within 5 standard deviations; the permuted list is
 *      the unpermuted one under a bijection of the ids; n not a power of two;
 *   4. grid: exactly the 4-neighbour pairs; geometric: exactly the pairs within
 *      the radius (brute force over all pairs), distance weights recomputed;
 *      uniform: degree mean 2m/n and binomial variance;
 *   5. bad specs give DS_ERR_ARG with a message naming the parameter.
 * The weight distributions are tested in test_gen_weights.c.
 *
 * Each check compares with an oracle computed here independently of the
 * generator (closed forms, brute force), and prints what failed.
 */
#define GEN_TEST_NAME "test_gen_edges"
#include "gen_test_util.h"

static int same_edges(const ds_gen_edge_list *x, const ds_gen_edge_list *y) {
  if (x->n != y->n || x->count != y->count || x->symmetric != y->symmetric) return 0;
  size_t b = (size_t)x->count * sizeof(uint32_t);
  return !memcmp(x->src, y->src, b) && !memcmp(x->dst, y->dst, b) && !memcmp(x->w, y->w, b);
}

/* A small spec of every kind, as the table the generic tests run over. */
static ds_gen_spec small_spec(ds_gen_kind kind) {
  ds_gen_spec s;
  ds_gen_spec_default(&s, kind);
  s.seed = 12345;
  switch (kind) {
    case DS_GEN_KRON: s.scale = 12; s.edge_factor = 8; break;
    case DS_GEN_RMAT: s.n = 3000; s.m = 30000; s.a = 0.5; s.b = 0.1; s.c = 0.1; break;
    case DS_GEN_GRID: s.rows = 37; s.cols = 53; break;
    case DS_GEN_GEO: s.n = 3000; s.degree = 6; break;
    case DS_GEN_UNIFORM: s.n = 3000; s.m = 20000; break;
  }
  return s;
}

/* Every entry is range-checked (unwritten entries of the generator's
 * allocation would show up here or in the thread-count comparison). */
static void check_ranges(const ds_gen_spec *s, const ds_gen_edge_list *e, uint64_t want_count) {
  const char *k = ds_gen_kind_name(s->kind);
  CHECK(e->count == want_count, "%s: %llu edges, expected %llu", k, (unsigned long long)e->count,
        (unsigned long long)want_count);
  uint64_t bad_id = 0, bad_w = 0, loops = 0;
  for (uint64_t i = 0; i < e->count; i++) {
    if (e->src[i] >= e->n || e->dst[i] >= e->n) bad_id++;
    if (e->w[i] < s->weight_min || e->w[i] > s->weight_max) bad_w++;
    if (e->src[i] == e->dst[i]) loops++;
  }
  CHECK(bad_id == 0, "%s: %llu endpoints out of [0, %u)", k, (unsigned long long)bad_id, e->n);
  CHECK(bad_w == 0, "%s: %llu weights out of [%u, %u]", k, (unsigned long long)bad_w,
        s->weight_min, s->weight_max);
  if (s->kind != DS_GEN_KRON) /* Kronecker keeps Graph500's self-loops for the CSR to drop */
    CHECK(loops == 0, "%s: %llu self-loops", k, (unsigned long long)loops);
}

/* Brute-force number of point pairs within r. */
static uint64_t brute_pairs(uint32_t n, const double *x, const double *y, double r) {
  uint64_t c = 0;
  for (uint32_t i = 0; i < n; i++)
    for (uint32_t j = i + 1; j < n; j++) {
      double dx = x[i] - x[j], dy = y[i] - y[j];
      if (dx * dx + dy * dy <= r * r) c++;
    }
  return c;
}

static uint64_t expected_count(const ds_gen_spec *s) {
  switch (s->kind) {
    case DS_GEN_KRON: return (uint64_t)s->edge_factor << s->scale;
    case DS_GEN_RMAT:
    case DS_GEN_UNIFORM: return s->m;
    case DS_GEN_GRID:
      return (uint64_t)s->rows * (s->cols - 1) + (uint64_t)(s->rows - 1) * s->cols;
    case DS_GEN_GEO: {
      double *x = malloc(s->n * sizeof *x), *y = malloc(s->n * sizeof *y);
      ds_error err;
      if (!CHECK(ds_gen_geo_points(s, x, y, &err) == DS_OK, "ds_gen_geo_points: %s", err.msg))
        exit(ds_test_finish("test_gen_edges"));
      double r = s->radius > 0 ? s->radius : sqrt(s->degree / (3.14159265358979323846 * s->n));
      uint64_t c = brute_pairs(s->n, x, y, r);
      free(x);
      free(y);
      return c;
    }
  }
  return 0;
}

/* 1 and 2, over every kind. */
static void test_generic(void) {
  for (int k = DS_GEN_KRON; k <= DS_GEN_UNIFORM; k++) {
    ds_gen_spec s = small_spec((ds_gen_kind)k);
    const char *name = ds_gen_kind_name(s.kind);
    ds_gen_edge_list e1, e2, e3, other;
    set_threads(1);
    gen_or_die(&s, &e1);
    set_threads(2);
    gen_or_die(&s, &e2);
    set_threads(3);
    gen_or_die(&s, &e3);
    CHECK(same_edges(&e1, &e2) && same_edges(&e1, &e3), "%s: output depends on the thread count",
          name);
    check_ranges(&s, &e1, expected_count(&s));
    ds_gen_spec s2 = s;
    s2.seed = s.seed + 1;
    gen_or_die(&s2, &other);
    CHECK(!same_edges(&e1, &other), "%s: seeds %llu and %llu give the same edges", name,
          (unsigned long long)s.seed, (unsigned long long)s2.seed);
    ds_gen_edges_free(&e1);
    ds_gen_edges_free(&e2);
    ds_gen_edges_free(&e3);
    ds_gen_edges_free(&other);

    /* weight ranges: a single value, and the full 32-bit range */
    const uint32_t ranges[][2] = {{7, 7}, {0, UINT32_MAX}, {0, 1}};
    for (size_t r = 0; r < sizeof ranges / sizeof ranges[0]; r++) {
      s2 = s;
      s2.weight_min = ranges[r][0];
      s2.weight_max = ranges[r][1];
      s2.geo_weight = DS_GEN_GEO_WEIGHT_RANDOM;
      gen_or_die(&s2, &other);
      check_ranges(&s2, &other, other.count);
      if (ranges[r][1] == 1) { /* both values occur */
        uint64_t ones = 0;
        for (uint64_t i = 0; i < other.count; i++) ones += other.w[i];
        CHECK(ones > other.count / 4 && ones < other.count * 3 / 4,
              "%s: weights 0:1 give %llu ones of %llu", name, (unsigned long long)ones,
              (unsigned long long)other.count);
      }
      ds_gen_edges_free(&other);
    }
  }
  set_threads(2);
}

/* 3. R-MAT level statistics against the closed form. */
static void test_rmat_popcount(void) {
  ds_gen_spec s;
  ds_gen_spec_default(&s, DS_GEN_KRON);
  s.scale = 14;
  s.edge_factor = 16;
  s.permute = 0;
  s.seed = 7;
  ds_gen_edge_list e;
  gen_or_die(&s, &e);
  const int sc = (int)s.scale;
  uint64_t src_cnt[33] = {0}, dst_cnt[33] = {0};
  for (uint64_t i = 0; i < e.count; i++) {
    src_cnt[__builtin_popcount(e.src[i])]++;
    dst_cnt[__builtin_popcount(e.dst[i])]++;
  }
  const double d = 1 - s.a - s.b - s.c, M = (double)e.count;
  int groups = 0;
  for (int k = 0; k <= sc; k++) {
    double ps = binom(sc, k) * pow(s.a + s.b, sc - k) * pow(s.c + d, k);
    double pd = binom(sc, k) * pow(s.a + s.c, sc - k) * pow(s.b + d, k);
    double es = M * ps, ed = M * pd;
    double zs = (src_cnt[k] - es) / sqrt(es * (1 - ps) + 1), zd = (dst_cnt[k] - ed) / sqrt(ed * (1 - pd) + 1);
    CHECK(fabs(zs) < 5, "kron: %llu sources with %d one-bits, expected %.0f (z = %.1f)",
          (unsigned long long)src_cnt[k], k, es, zs);
    CHECK(fabs(zd) < 5, "kron: %llu destinations with %d one-bits, expected %.0f (z = %.1f)",
          (unsigned long long)dst_cnt[k], k, ed, zd);
    groups++;
  }
  CHECK(groups == sc + 1, "kron: popcount groups");

  /* permuted = unpermuted under one bijection of the ids */
  ds_gen_spec sp = s;
  sp.permute = 1;
  ds_gen_edge_list p;
  gen_or_die(&sp, &p);
  uint32_t n = e.n;
  uint32_t *map = malloc(n * sizeof *map), *inv = malloc(n * sizeof *inv);
  for (uint32_t i = 0; i < n; i++) map[i] = inv[i] = UINT32_MAX;
  uint64_t conflicts = 0;
  for (uint64_t i = 0; i < e.count; i++) {
    uint32_t from[2] = {e.src[i], e.dst[i]}, to[2] = {p.src[i], p.dst[i]};
    for (int j = 0; j < 2; j++) {
      if (map[from[j]] == UINT32_MAX && inv[to[j]] == UINT32_MAX) {
        map[from[j]] = to[j];
        inv[to[j]] = from[j];
      } else if (map[from[j]] != to[j] || inv[to[j]] != from[j]) {
        conflicts++;
      }
    }
    if (e.w[i] != p.w[i]) conflicts++;
  }
  CHECK(conflicts == 0, "kron: permuted edges are not a relabelling (%llu conflicts)",
        (unsigned long long)conflicts);
  /* and the permutation is not the identity */
  uint32_t moved = 0;
  for (uint32_t i = 0; i < n; i++) moved += map[i] != UINT32_MAX && map[i] != i;
  CHECK(moved > n / 2, "kron: the permutation moves only %u of %u ids", moved, n);
  free(map);
  free(inv);
  ds_gen_edges_free(&p);

  /* noise changes the list and keeps it valid */
  ds_gen_spec sn = s;
  sn.noise = 0.1;
  gen_or_die(&sn, &p);
  CHECK(!same_edges(&e, &p), "kron: noise 0.1 changes nothing");
  check_ranges(&sn, &p, e.count);
  ds_gen_edges_free(&p);
  ds_gen_edges_free(&e);

  /* n not a power of two, the thesis's probabilities; and n just above one */
  const uint32_t ns[] = {800, 1025, 2};
  for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++) {
    ds_gen_spec r;
    ds_gen_spec_default(&r, DS_GEN_RMAT);
    r.n = ns[i];
    r.m = 6 * (uint64_t)ns[i];
    r.a = 0.5;
    r.b = 0.1;
    r.c = 0.1;
    r.weight_min = 0;
    r.weight_max = 1000;
    gen_or_die(&r, &e);
    check_ranges(&r, &e, r.m);
    uint32_t maxid = 0;
    for (uint64_t j = 0; j < e.count; j++) {
      if (e.src[j] > maxid) maxid = e.src[j];
      if (e.dst[j] > maxid) maxid = e.dst[j];
    }
    CHECK(maxid + 1 == r.n || r.n > 1000, "rmat n=%u: highest id %u", r.n, maxid);
    ds_gen_edges_free(&e);
  }
}

/* 4. grid, geometric, uniform against their definitions. */
static void test_grid_geo_uniform(void) {
  ds_gen_spec s = small_spec(DS_GEN_GRID);
  ds_gen_edge_list e;
  gen_or_die(&s, &e);
  uint64_t bad = 0;
  char *seen = calloc((size_t)e.n * 2, 1); /* [v*2 + 0]: right edge of v, [v*2 + 1]: down */
  for (uint64_t i = 0; i < e.count; i++) {
    uint32_t u = e.src[i] < e.dst[i] ? e.src[i] : e.dst[i];
    uint32_t v = e.src[i] ^ e.dst[i] ^ u;
    int right = v == u + 1 && u / s.cols == v / s.cols;
    int down = v == u + s.cols;
    if (!right && !down) bad++;
    else seen[(size_t)u * 2 + (down ? 1 : 0)]++;
  }
  uint64_t missing = 0;
  for (uint32_t u = 0; u < e.n; u++) {
    int want_right = u % s.cols + 1 < s.cols, want_down = u / s.cols + 1 < s.rows;
    if (seen[u * 2] != want_right || seen[u * 2 + 1] != want_down) missing++;
  }
  CHECK(bad == 0 && missing == 0, "grid: %llu non-neighbour edges, %llu vertices with wrong edges",
        (unsigned long long)bad, (unsigned long long)missing);
  free(seen);
  ds_gen_edges_free(&e);

  /* geometric: every edge within r, weights = scaled distance, count = brute force */
  s = small_spec(DS_GEN_GEO);
  s.radius = 0.03;
  s.weight_min = 1;
  s.weight_max = 1000;
  gen_or_die(&s, &e);
  double *x = malloc(s.n * sizeof *x), *y = malloc(s.n * sizeof *y);
  ds_error err;
  CHECK(ds_gen_geo_points(&s, x, y, &err) == DS_OK, "geo points: %s", err.msg);
  uint64_t far = 0, wrong_w = 0;
  for (uint64_t i = 0; i < e.count; i++) {
    double dx = x[e.src[i]] - x[e.dst[i]], dy = y[e.src[i]] - y[e.dst[i]];
    double dist = sqrt(dx * dx + dy * dy);
    if (dist > s.radius) far++;
    double want = 1 + dist / s.radius * 999;
    if (fabs(e.w[i] - want) > 0.5 + 1e-9) wrong_w++;
  }
  uint64_t pairs = brute_pairs(s.n, x, y, s.radius);
  CHECK(far == 0, "geo: %llu edges longer than the radius", (unsigned long long)far);
  CHECK(wrong_w == 0, "geo: %llu weights are not the scaled distance", (unsigned long long)wrong_w);
  CHECK(e.count == pairs, "geo: %llu edges, brute force finds %llu pairs",
        (unsigned long long)e.count, (unsigned long long)pairs);
  /* points uniform: mean x and y near 1/2 */
  double mx = 0, my = 0;
  for (uint32_t i = 0; i < s.n; i++) {
    mx += x[i];
    my += y[i];
  }
  mx /= s.n;
  my /= s.n;
  double sd = sqrt(1.0 / 12 / s.n);
  CHECK(fabs(mx - 0.5) < 5 * sd && fabs(my - 0.5) < 5 * sd, "geo: point mean (%g, %g)", mx, my);
  free(x);
  free(y);
  ds_gen_edges_free(&e);

  /* degree parameter: mean degree near D (less near the border) */
  s = small_spec(DS_GEN_GEO);
  s.n = 20000;
  s.degree = 10;
  gen_or_die(&s, &e);
  double mean = 2.0 * (double)e.count / s.n;
  CHECK(mean > 0.85 * s.degree && mean < 1.02 * s.degree, "geo: mean degree %.2f for --degree %g",
        mean, s.degree);
  ds_gen_edges_free(&e);

  /* uniform: degree mean exactly 2m/n, variance near the binomial's */
  s = small_spec(DS_GEN_UNIFORM);
  s.n = 1 << 14;
  s.m = 8 * (uint64_t)s.n;
  gen_or_die(&s, &e);
  uint32_t *deg = calloc(s.n, sizeof *deg);
  for (uint64_t i = 0; i < e.count; i++) {
    deg[e.src[i]]++;
    deg[e.dst[i]]++;
  }
  double sum = 0, sq = 0;
  uint32_t maxd = 0;
  for (uint32_t v = 0; v < s.n; v++) {
    sum += deg[v];
    sq += (double)deg[v] * deg[v];
    if (deg[v] > maxd) maxd = deg[v];
  }
  mean = sum / s.n;
  double var = sq / s.n - mean * mean;
  /* each edge touches v with probability 2/n and never twice: Binomial(m, 2/n) */
  double want_var = (double)s.m * (2.0 / s.n) * (1 - 2.0 / s.n);
  CHECK(fabs(mean - 2.0 * s.m / s.n) < 1e-9, "uniform: mean degree %g", mean);
  CHECK(var > 0.85 * want_var && var < 1.15 * want_var, "uniform: degree variance %g, expected %g",
        var, want_var);
  CHECK(maxd < mean + 10 * sqrt(want_var), "uniform: max degree %u for mean %g", maxd, mean);
  free(deg);
  ds_gen_edges_free(&e);
}

/* Exact distribution of ordered pairs on tiny n: R-MAT (unpermuted, rejection
 * of ids >= n and loops) against the product of quadrant probabilities
 * conditioned on validity; uniform against 1 / (n (n-1)). */
static void test_small_n_distribution(void) {
  enum { N = 5, BITS = 3, M = 200000 };
  for (int kind = 0; kind < 2; kind++) {
    ds_gen_spec s;
    ds_gen_spec_default(&s, kind == 0 ? DS_GEN_RMAT : DS_GEN_UNIFORM);
    s.n = N;
    s.m = M;
    s.permute = 0;
    s.a = 0.45;
    s.b = 0.2;
    s.c = 0.15;
    const double q[2][2] = {{s.a, s.b}, {s.c, 1 - s.a - s.b - s.c}};
    double p[N][N], total = 0;
    for (int u = 0; u < N; u++)
      for (int v = 0; v < N; v++) {
        double x = u == v ? 0 : 1;
        if (kind == 0)
          for (int l = 0; l < BITS; l++) x *= q[(u >> l) & 1][(v >> l) & 1];
        p[u][v] = x;
        total += x;
      }
    ds_gen_edge_list e;
    gen_or_die(&s, &e);
    uint64_t cnt[N][N] = {{0}};
    for (uint64_t i = 0; i < e.count; i++) cnt[e.src[i]][e.dst[i]]++;
    for (int u = 0; u < N; u++)
      for (int v = 0; v < N; v++) {
        double pr = p[u][v] / total, want = M * pr;
        double z = (cnt[u][v] - want) / sqrt(want * (1 - pr) + 1);
        CHECK(fabs(z) < 5, "%s n=%d: pair (%d,%d) drawn %llu times, expected %.0f (z = %.1f)",
              ds_gen_kind_name(s.kind), N, u, v, (unsigned long long)cnt[u][v], want, z);
      }
    ds_gen_edges_free(&e);
  }
}

/* 5. bad specs */
static void test_bad_specs(void) {
  struct {
    ds_gen_kind kind;
    const char *field;
    const char *want; /* a word the message must contain */
  } cases[] = {
      {DS_GEN_KRON, "scale0", "scale"},   {DS_GEN_KRON, "scale32", "scale"},
      {DS_GEN_KRON, "ef0", "edge factor"}, {DS_GEN_KRON, "abc", "a + b + c"},
      {DS_GEN_RMAT, "a-neg", "a ="},      {DS_GEN_RMAT, "n1", "n ="},
      {DS_GEN_RMAT, "noise", "noise"},    {DS_GEN_GRID, "rows0", "rows"},
      {DS_GEN_GRID, "huge", "32-bit"},    {DS_GEN_GEO, "noradius", "radius"},
      {DS_GEN_UNIFORM, "n1", "n ="},      {DS_GEN_UNIFORM, "wrange", "weight range"},
      {DS_GEN_RMAT, "impossible", "probabilities"},
      {DS_GEN_KRON, "log0", "log-uniform"}, {DS_GEN_GEO, "geodist", "random weights"},
      {DS_GEN_GRID, "distbad", "distribution"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    ds_gen_spec s;
    ds_gen_spec_default(&s, cases[i].kind);
    const char *f = cases[i].field;
    if (!strcmp(f, "scale0")) s.scale = 0;
    if (!strcmp(f, "scale32")) s.scale = 32;
    if (!strcmp(f, "ef0")) s.edge_factor = 0;
    if (!strcmp(f, "abc")) s.a = 0.9;
    if (!strcmp(f, "a-neg")) s.a = -0.1;
    if (!strcmp(f, "n1")) s.n = 1;
    if (!strcmp(f, "noise")) s.noise = 1.5;
    if (!strcmp(f, "rows0")) s.rows = 0;
    if (!strcmp(f, "huge")) s.rows = s.cols = 70000;
    if (!strcmp(f, "noradius")) s.radius = 0, s.degree = 0;
    if (!strcmp(f, "wrange")) s.weight_min = 10, s.weight_max = 9;
    if (!strcmp(f, "log0")) s.weight_dist = DS_WEIGHTS_LOG, s.weight_min = 0;
    if (!strcmp(f, "geodist")) s.weight_dist = DS_WEIGHTS_BIMODAL;
    if (!strcmp(f, "distbad")) s.weight_dist = (ds_weight_dist)7;
    if (!strcmp(f, "impossible")) { /* all mass on the last id, which is >= n */
      s.n = 1025;
      s.m = 10;
      s.a = s.b = s.c = 0;
    }
    ds_gen_edge_list e;
    ds_error err;
    err.msg[0] = '\0';
    ds_status st = ds_gen_edges(&s, &e, &err);
    CHECK(st == DS_ERR_ARG, "bad spec %s/%s: status %d, expected DS_ERR_ARG",
          ds_gen_kind_name(s.kind), f, (int)st);
    CHECK(strstr(err.msg, cases[i].want) != NULL, "bad spec %s/%s: message '%s' lacks '%s'",
          ds_gen_kind_name(s.kind), f, err.msg, cases[i].want);
    if (st == DS_OK) ds_gen_edges_free(&e);
  }
}

/* Weight distributions on a uniform graph of 2^20 edges, range 1 .. 2^24. */
int main(void) {
  test_generic();
  test_rmat_popcount();
  test_grid_geo_uniform();
  test_small_n_distribution();
  test_bad_specs();
  return ds_test_finish("test_gen_edges");
}
