/* Small undirected graphs of known structure for the k-core and triangle
 * tests: cliques, stars, paths, cycles, grids, isolated vertices, two cliques
 * joined by a path. Each shape comes with its core numbers and its triangles
 * through each vertex, worked out from the shape (not by an algorithm). Also a
 * seeded random graph and brute-force counts for tiny graphs.
 */
#ifndef DS_UNDIRECTED_SHAPES_H
#define DS_UNDIRECTED_SHAPES_H

#include "ds_test.h" /* first: it sets the feature macros */

#include <stdint.h>

#include "ds/graph.h"
#ifdef DS_TEST_HAVE_GEN
#include "ds/gen.h"
#endif

#define SHAPE_MAX_N 64u
#define SHAPE_MAX_EDGES 1024u

typedef enum {
  SH_CLIQUE, SH_STAR, SH_PATH, SH_CYCLE, SH_GRID, SH_ISOLATED, SH_TWO_CLIQUES
} shape_kind;

/* A shape: kind and sizes (a: clique size, leaves, path or cycle length, rows,
 * isolated count, clique size; b: grid columns, joining path's inner vertices). */
typedef struct {
  const char *name;
  shape_kind kind;
  uint32_t a, b;
} shape;

typedef struct {
  uint32_t n, count;
  uint32_t src[SHAPE_MAX_EDGES], dst[SHAPE_MAX_EDGES];
  uint32_t core[SHAPE_MAX_N]; /* the known answers */
  uint64_t tri[SHAPE_MAX_N];
  uint64_t total;
} shape_graph;

static inline void shape_edge(shape_graph *s, uint32_t u, uint32_t v) {
  s->src[s->count] = u;
  s->dst[s->count] = v;
  s->count++;
}

/* Clique on vertices first..first+k-1: core k - 1, C(k-1, 2) triangles each, C(k, 3) in all. */
static inline void shape_clique(shape_graph *s, uint32_t first, uint32_t k) {
  for (uint32_t i = 0; i < k; i++) {
    for (uint32_t j = i + 1; j < k; j++) shape_edge(s, first + i, first + j);
    s->core[first + i] = k - 1;
    s->tri[first + i] = (uint64_t)(k - 1) * (k - 2) / 2;
  }
  s->total += (uint64_t)k * (k - 1) * (k - 2) / 6;
}

/* Fills s with the shape; 0 when the shape is too large for the fixed arrays. */
static inline int shape_make(const shape *sh, shape_graph *s) {
  memset(s, 0, sizeof *s);
  switch (sh->kind) {
  case SH_CLIQUE: s->n = sh->a; shape_clique(s, 0, sh->a); break;
  case SH_STAR: /* centre 0: every vertex has core 1 */
    s->n = sh->a + 1;
    for (uint32_t i = 1; i <= sh->a; i++) shape_edge(s, 0, i);
    for (uint32_t i = 0; i < s->n; i++) s->core[i] = sh->a > 0;
    break;
  case SH_PATH:
    s->n = sh->a;
    for (uint32_t i = 0; i + 1 < sh->a; i++) shape_edge(s, i, i + 1);
    for (uint32_t i = 0; i < s->n; i++) s->core[i] = sh->a > 1;
    break;
  case SH_CYCLE: /* a >= 3: core 2; a triangle when a == 3 */
    s->n = sh->a;
    for (uint32_t i = 0; i < sh->a; i++) shape_edge(s, i, (i + 1) % sh->a);
    for (uint32_t i = 0; i < s->n; i++) {
      s->core[i] = 2;
      s->tri[i] = sh->a == 3;
    }
    s->total = sh->a == 3;
    break;
  case SH_GRID: /* a, b >= 2: every vertex lies on a 4-cycle, no triangles */
    s->n = sh->a * sh->b;
    for (uint32_t r = 0; r < sh->a; r++)
      for (uint32_t c = 0; c < sh->b; c++) {
        if (c + 1 < sh->b) shape_edge(s, r * sh->b + c, r * sh->b + c + 1);
        if (r + 1 < sh->a) shape_edge(s, r * sh->b + c, (r + 1) * sh->b + c);
        s->core[r * sh->b + c] = 2;
      }
    break;
  case SH_ISOLATED: s->n = sh->a; break;
  case SH_TWO_CLIQUES: /* K_a, then b path vertices, then K_a (a >= 3): the path closes a cycle
                       * through both cliques, so its vertices have core 2 */
    s->n = 2 * sh->a + sh->b;
    shape_clique(s, 0, sh->a);
    shape_clique(s, sh->a + sh->b, sh->a);
    for (uint32_t i = 0; i <= sh->b; i++) shape_edge(s, sh->a - 1 + i, sh->a + i);
    for (uint32_t i = 0; i < sh->b; i++) s->core[sh->a + i] = 2;
    break;
  }
  return s->n <= SHAPE_MAX_N && s->count <= SHAPE_MAX_EDGES;
}

static const shape SHAPES[] = {
  {"K1", SH_CLIQUE, 1, 0},       {"K2", SH_CLIQUE, 2, 0},        {"K3", SH_CLIQUE, 3, 0},
  {"K4", SH_CLIQUE, 4, 0},       {"K5", SH_CLIQUE, 5, 0},        {"K6", SH_CLIQUE, 6, 0},
  {"K7", SH_CLIQUE, 7, 0},       {"K8", SH_CLIQUE, 8, 0},        {"star 1", SH_STAR, 1, 0},
  {"star 9", SH_STAR, 9, 0},     {"path 2", SH_PATH, 2, 0},      {"path 17", SH_PATH, 17, 0},
  {"cycle 3", SH_CYCLE, 3, 0},   {"cycle 4", SH_CYCLE, 4, 0},    {"cycle 11", SH_CYCLE, 11, 0},
  {"grid 2x2", SH_GRID, 2, 2},   {"grid 5x7", SH_GRID, 5, 7},    {"empty", SH_ISOLATED, 0, 0},
  {"single edge", SH_PATH, 2, 0}, {"isolated 6", SH_ISOLATED, 6, 0},
  {"K5 - 3 - K5", SH_TWO_CLIQUES, 5, 3}, {"K6 - 0 - K6", SH_TWO_CLIQUES, 6, 0},
  {"K4 - 1 - K4", SH_TWO_CLIQUES, 4, 1},
};

/* The undirected CSR of an edge list (both directions stored); 0 after a failed check. */
static inline int shape_csr(uint32_t n, uint64_t count, const uint32_t *src, const uint32_t *dst,
                            int symmetric, ds_graph *g) {
  ds_edge_list el = {n, count, src, dst, DS_WEIGHT_U32, NULL};
  ds_load_options opt;
  ds_load_options_default(&opt);
  ds_error err;
  return CHECK(ds_csr_build(&el, symmetric, &opt, g, &err) == DS_OK, "ds_csr_build: %s", err.msg);
}

static inline uint64_t shape_rand(uint64_t *s) {
  *s = *s * 6364136223846793005ull + 1442695040888963407ull;
  uint64_t z = *s;
  z = (z ^ (z >> 31)) * 0xBF58476D1CE4E5B9ull;
  return z ^ (z >> 29);
}

/* A seeded undirected random graph with n vertices and about m drawn edges
 * (self-loops and repeats dropped by the CSR rules); 0 after a failed check. */
static inline int shape_random(uint32_t n, uint64_t m, uint64_t seed, ds_graph *g) {
  uint32_t *src = (uint32_t *)malloc((m + 1) * sizeof *src);
  uint32_t *dst = (uint32_t *)malloc((m + 1) * sizeof *dst);
  int ok = CHECK(src != NULL && dst != NULL, "random graph: no memory");
  uint64_t s = seed * 2 + 1;
  for (uint64_t e = 0; ok && e < m; e++) {
    src[e] = (uint32_t)(shape_rand(&s) % n);
    dst[e] = (uint32_t)(shape_rand(&s) % n);
  }
  ok = ok && shape_csr(n, m, src, dst, 1, g);
  free(src);
  free(dst);
  return ok;
}

/* Whether u and v are adjacent (binary search of u's sorted row). */
static inline int shape_adjacent(const ds_graph *g, uint32_t u, uint32_t v) {
  uint64_t lo = g->row_offsets[u], hi = g->row_offsets[u + 1];
  while (lo < hi) {
    const uint64_t mid = lo + (hi - lo) / 2;
    if (g->col[mid] == v) return 1;
    if (g->col[mid] < v) lo = mid + 1;
    else hi = mid;
  }
  return 0;
}

/* The i-th larger test graph, named in what: sparse random (a frontier of thousands
 * of low-degree vertices: parallel rounds), denser random, and with ds_gen a
 * Kronecker graph (skewed degrees, hubs), a grid (no triangles), a geometric
 * graph (many triangles, local) and a uniform random graph, then tiny
 * generated graphs for brute force (from SHAPE_FIRST_TINY on). Returns 1 with
 * g made, 0 after a failed check, -1 past the last one. */
static inline int shape_generated(int i, ds_graph *g, char *what, size_t len) {
  ds_error err;
  err.msg[0] = '\0';
  ds_status st = DS_OK;
  switch (i) {
  case 0: snprintf(what, len, "random n=20000 m=30000"); return shape_random(20000, 30000, 11, g);
  case 1: snprintf(what, len, "random n=3000 m=30000"); return shape_random(3000, 30000, 12, g);
#ifdef DS_TEST_HAVE_GEN
  case 2:
    snprintf(what, len, "kron scale 12");
    st = ds_gen_kron(12, 16, 0.57, 0.19, 0.19, 1, 1, 3, g, &err);
    break;
  case 3:
    snprintf(what, len, "grid 40x50");
    st = ds_gen_grid(40, 50, 1, 1, 3, g, &err);
    break;
  case 4:
    snprintf(what, len, "geometric n=3000");
    st = ds_gen_geo(3000, 0.04, 1, 1, 5, g, &err);
    break;
  case 5:
    snprintf(what, len, "uniform n=3000 m=40000");
    st = ds_gen_uniform(3000, 40000, 1, 1, 7, g, &err);
    break;
  /* tiny ones, for brute force: a Kronecker graph with hubs, a dense geometric graph */
  case 6:
    snprintf(what, len, "kron scale 5");
    st = ds_gen_kron(5, 8, 0.57, 0.19, 0.19, 1, 1, 9, g, &err);
    break;
  case 7:
    snprintf(what, len, "geometric n=30");
    st = ds_gen_geo(30, 0.35, 1, 1, 9, g, &err);
    break;
#endif
  default: return -1;
  }
  return CHECK(st == DS_OK, "%s: %s", what, err.msg);
}
#define SHAPE_FIRST_TINY 6 /* shape_generated(i) for i >= this: at most SHAPE_MAX_N vertices */

/* Calls check(g, what) on each larger generated graph (the ones before SHAPE_FIRST_TINY);
 * check owns g and frees it. */
static inline void shape_each_generated(void (*check)(ds_graph *g, const char *what)) {
  char what[96];
  ds_graph g;
  for (int i = 0; i < SHAPE_FIRST_TINY; i++) {
    const int made = shape_generated(i, &g, what, sizeof what);
    if (made < 0) break;
    if (made) check(&g, what);
  }
}

#endif /* DS_UNDIRECTED_SHAPES_H */
