/* Inputs of the app/dist tests: random edge lists with what makes a CSR build
 * work (duplicates with other weights, self-loops, zero weights, a hub whose
 * degree tests the balance, isolated vertices), cut into one slice a rank;
 * and, after dist/dgraph.h, the ranks' parts compared with a whole graph.
 * Include after ds_test.h. */
#ifndef DS_DIST_TEST_UTIL_H
#define DS_DIST_TEST_UTIL_H

#include <stdint.h>
#include <stdlib.h>

#include "ds/graph.h"
#include "ds/rng.h"

#define TEST_MAX_RANKS 8
#define TEST_WEIGHT_MAX 1000u /* integer weights 0..this; float weights [0, this) */

typedef struct {
  uint32_t n;
  uint64_t count;
  uint32_t *src, *dst;
  ds_weight_type type;
  void *weights; /* NULL: a pattern graph */
} test_edges;

typedef struct {
  uint32_t n;
  uint64_t edges;
  double hub_share;  /* of the edges that leave vertex 0 */
  double dup_share;  /* of the edges that repeat an earlier one with a new weight */
  double loop_share; /* self-loops */
  uint32_t isolated; /* the last vertices have no edge */
} test_shape;

static inline void test_edges_free(test_edges *e) {
  free(e->src);
  free(e->dst);
  free(e->weights);
  memset(e, 0, sizeof *e);
}

/* A random edge list of the shape; weights of type, or none (pattern). */
static inline test_edges test_edges_random(const test_shape *s, ds_weight_type type, int pattern,
                                    uint64_t seed) {
  test_edges e;
  memset(&e, 0, sizeof e);
  e.n = s->n;
  e.count = s->edges;
  e.type = type;
  size_t c = s->edges ? (size_t)s->edges : 1;
  e.src = malloc(c * sizeof *e.src);
  e.dst = malloc(c * sizeof *e.dst);
  if (!pattern) e.weights = malloc(c * 4);
  if (e.src == NULL || e.dst == NULL || (!pattern && e.weights == NULL)) {
    fprintf(stderr, "test_edges_random: out of memory\n");
    exit(2);
  }
  uint64_t st = seed;
  const uint32_t span = s->n > s->isolated ? s->n - s->isolated : 1;
  for (uint64_t i = 0; i < s->edges; i++) {
    double kind = ds_unit_double(ds_splitmix64_next(&st));
    uint32_t u = (uint32_t)(ds_splitmix64_next(&st) % span);
    uint32_t v = (uint32_t)(ds_splitmix64_next(&st) % span);
    if (kind < s->hub_share) u = 0;
    else if (kind < s->hub_share + s->loop_share) v = u;
    else if (kind < s->hub_share + s->loop_share + s->dup_share && i > 0) {
      uint64_t j = ds_splitmix64_next(&st) % i;
      u = e.src[j], v = e.dst[j];
    }
    e.src[i] = u;
    e.dst[i] = v;
    uint64_t r = ds_splitmix64_next(&st);
    if (pattern) continue;
    if (type == DS_WEIGHT_F32) ((float *)e.weights)[i] = (float)(ds_unit_double(r) * TEST_WEIGHT_MAX);
    else ((uint32_t *)e.weights)[i] = (uint32_t)(r % (TEST_WEIGHT_MAX + 1));
  }
  return e;
}

/* Rank r's slice: a contiguous run of the edges, cut unevenly (slice r gets a
 * share that grows with r); with all_on_first, every edge on rank 0. */
static inline ds_edge_list test_slice(const test_edges *e, int r, int ranks, int all_on_first) {
  uint64_t lo, hi;
  if (all_on_first) {
    lo = 0;
    hi = r == 0 ? e->count : 0;
    if (r != 0) lo = hi = e->count;
  } else {
    const uint64_t parts = (uint64_t)ranks * (uint64_t)(ranks + 1) / 2; /* 1 + 2 + ... + R */
    uint64_t before = (uint64_t)r * (uint64_t)(r + 1) / 2;
    lo = e->count * before / parts;
    hi = e->count * (before + (uint64_t)r + 1) / parts;
  }
  ds_edge_list s;
  s.n = e->n;
  s.count = hi - lo;
  s.src = e->src + lo;
  s.dst = e->dst + lo;
  s.weight_type = e->type;
  s.weights = e->weights ? (const char *)e->weights + 4 * lo : NULL;
  return s;
}

static inline ds_edge_list test_whole(const test_edges *e) { return test_slice(e, 0, 1, 0); }

#ifdef DS_DIST_DGRAPH_H
/* The ranks' parts against the whole graph's CSR: the rows of each rank,
 * heads and weight bits, and that the parts tile the vertices and arcs in
 * rank order. Returns the rows that differ, or UINT64_MAX where the parts do
 * not tile the graph. */
static inline uint64_t test_rows_differ(const ds_dgraph *parts, int ranks, const ds_graph *whole) {
  uint64_t bad = 0, m = 0;
  uint32_t covered = 0;
  for (int r = 0; r < ranks; r++) {
    const ds_dgraph *g = &parts[r];
    if (g->n != whole->n || g->m != whole->m || g->first != covered) return UINT64_MAX;
    for (uint32_t i = 0; i < g->n_local; i++) {
      const uint32_t v = g->first + i;
      const uint64_t b = whole->row_offsets[v], deg = whole->row_offsets[v + 1] - b;
      if (g->row_offsets[i + 1] - g->row_offsets[i] != deg ||
          memcmp(g->col + g->row_offsets[i], whole->col + b, deg * sizeof(uint32_t)) != 0 ||
          memcmp((const uint32_t *)g->weights + g->row_offsets[i],
                 (const uint32_t *)whole->weights + b, deg * sizeof(uint32_t)) != 0)
        bad++;
    }
    covered += g->n_local;
    m += g->m_local;
  }
  return covered == whole->n && m == whole->m ? bad : UINT64_MAX;
}
#endif

/* Arcs of each vertex in the input (self-loops dropped, symmetric edges twice):
 * the degrees the partition balances, as offsets (calloc'd); *max_degree their largest. */
static inline uint64_t *test_input_offsets(const test_edges *e, int symmetric, uint64_t *max_degree) {
  uint64_t *off = (uint64_t *)calloc((size_t)e->n + 1, sizeof *off);
  if (off == NULL) exit(2);
  for (uint64_t i = 0; i < e->count; i++) {
    if (e->src[i] == e->dst[i]) continue;
    off[e->src[i] + 1]++;
    if (symmetric) off[e->dst[i] + 1]++;
  }
  *max_degree = 0;
  for (uint32_t v = 0; v < e->n; v++) {
    if (off[v + 1] > *max_degree) *max_degree = off[v + 1];
    off[v + 1] += off[v];
  }
  return off;
}

#endif /* DS_DIST_TEST_UTIL_H */
