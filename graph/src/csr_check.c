/* ds_csr_check: the CSR invariants of graph.h, O(n + m), symmetry included
 * (one cursor a row, on the OpenMP threads; a binary search per arc where the
 * cursors cannot be allocated); ds_csr_mark_symmetric: the same pairing of
 * arcs, to find that a graph read as directed lists both directions of every
 * edge. */
#include "graph_internal.h"

#include <math.h>
#ifdef _OPENMP
#include <omp.h>
#endif
#include <stdlib.h>
#include <string.h>

/* The first arc of row u whose column is v or more. */
static uint64_t lower_bound(const ds_graph *g, uint32_t u, uint32_t v) {
  uint64_t lo = g->row_offsets[u], hi = g->row_offsets[u + 1];
  while (lo < hi) {
    uint64_t mid = lo + (hi - lo) / 2;
    if (g->col[mid] < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/* What a pair of an arc a and its reverse r must have, or gets. */
typedef enum {
  SAME_WEIGHT,  /* the same weight (ds_csr_check) */
  ANY_WEIGHT,   /* any weights; *differ notes a pair whose weights differ */
  LEAST_WEIGHT  /* both take the lighter of their weights */
} pair_rule;

/* g's weights are written (LEAST_WEIGHT) through its pointer: the arrays are not the struct */
static int take_pair(const ds_graph *g, pair_rule rule, uint64_t a, uint64_t r, int *differ) {
  uint32_t *w = (uint32_t *)g->weights; /* float weights are never negative: equal bits, equal */
  if (rule == SAME_WEIGHT) return w[a] == w[r];
  if (rule == ANY_WEIGHT) {
    *differ |= w[a] != w[r];
  } else if (g->weight_type == DS_WEIGHT_F32) {
    float *f = (float *)g->weights;
    f[a] = f[r] = f[r] < f[a] ? f[r] : f[a];
  } else {
    w[a] = w[r] = w[r] < w[a] ? w[r] : w[a];
  }
  return 1;
}

#define NO_ARC UINT64_MAX
#define PAIR_PARALLEL_MIN_ARCS ((uint64_t)1 << 16) /* below this, threads cost more than they give */

static uint64_t arc_key(uint32_t u, uint32_t v) { return (uint64_t)u << 32 | v; }

/* Pairs every arc u -> v with its reverse v -> u under rule (the weights are
 * written only by LEAST_WEIGHT). Rows are sorted, so the arcs (u, v) with u > v, met in
 * order of u, must be exactly row v's arcs above the diagonal in order: one
 * cursor per row matches them in a single pass (the cache's check would
 * otherwise cost as much as parsing the text). The cursors' reads are random,
 * so the rows v are split among the threads: each walks every row u for the
 * arcs into its own rows, and no cursor is shared. Where the cursors cannot be
 * allocated, a binary search per arc finds the reverse. Returns 1 when every
 * arc has its reverse and the rule holds; else 0, with *bad_u -> *bad_v the
 * first arc, in the order of the rows, that fails. */
static int pair_arcs(const ds_graph *g, pair_rule rule, int *differ, uint32_t *bad_u,
                     uint32_t *bad_v) {
  const uint32_t n = g->n;
  uint64_t first = NO_ARC, left = NO_ARC; /* the first failing arc below, above the diagonal */
  int diff = 0;
  uint64_t *cur = malloc(((size_t)n + 1) * sizeof *cur);
  if (cur == NULL) {
    for (uint32_t u = 0; u < n && first == NO_ARC; u++)
      for (uint64_t a = g->row_offsets[u], r; a < g->row_offsets[u + 1]; a++)
        if ((r = lower_bound(g, g->col[a], u)) == g->row_offsets[g->col[a] + 1] ||
            g->col[r] != u || !take_pair(g, rule, a, r, &diff)) {
          first = arc_key(u, g->col[a]);
          break;
        }
  } else {
#pragma omp parallel if (g->m >= PAIR_PARALLEL_MIN_ARCS) reduction(min : first, left) \
    reduction(| : diff)
    {
#ifdef _OPENMP
      const uint64_t t = (uint64_t)omp_get_thread_num(), team = (uint64_t)omp_get_num_threads();
#else
      const uint64_t t = 0, team = 1;
#endif
      const uint32_t lo = (uint32_t)(n * t / team), hi = (uint32_t)(n * (t + 1) / team);
      for (uint32_t v = lo; v < hi; v++) cur[v] = lower_bound(g, v, v); /* above the diagonal */
      for (uint32_t u = lo + 1; u < n && first == NO_ARC; u++) {
        const uint32_t below = u < hi ? u : hi;
        for (uint64_t a = lo == 0 ? g->row_offsets[u] : lower_bound(g, u, lo);
             a < g->row_offsets[u + 1] && g->col[a] < below; a++) {
          const uint32_t v = g->col[a];
          const uint64_t r = cur[v]++;
          if (r >= g->row_offsets[v + 1] || g->col[r] != u || !take_pair(g, rule, a, r, &diff)) {
            first = arc_key(u, v);
            break;
          }
        }
      }
      for (uint32_t v = lo; v < hi && first == NO_ARC; v++) /* an arc above with none below */
        if (cur[v] != g->row_offsets[v + 1]) {
          left = arc_key(v, g->col[cur[v]]);
          break;
        }
    }
    free(cur);
  }
  if (differ != NULL) *differ = diff;
  if (first == NO_ARC) first = left;
  if (first == NO_ARC) return 1;
  *bad_u = (uint32_t)(first >> 32);
  *bad_v = (uint32_t)first;
  return 0;
}

static ds_status check_symmetry(const ds_graph *g, ds_error *err) {
  uint32_t u = 0, v = 0;
  if (pair_arcs(g, SAME_WEIGHT, NULL, &u, &v)) return DS_OK;
  return ds_error_set(err, DS_ERR_VALIDATION, "CSR: symmetric graph has arc %u -> %u but not "
                      "%u -> %u with the same weight", u, v, v, u);
}

int ds_csr_mark_symmetric(ds_graph *g) {
  if (g == NULL || g->row_offsets == NULL) return 0;
  if (g->symmetric) return 1;
  uint32_t u, v;
  int differ = 0;
  if (!pair_arcs(g, ANY_WEIGHT, &differ, &u, &v)) return 0;
  if (differ) pair_arcs(g, LEAST_WEIGHT, NULL, &u, &v);
  g->symmetric = 1;
  return 1;
}

ds_status ds_csr_check(const ds_graph *g, ds_error *err) {
  if (g == NULL) return ds_error_set(err, DS_ERR_ARG, "ds_csr_check: g is NULL");
  if (g->row_offsets == NULL)
    return ds_error_set(err, DS_ERR_VALIDATION, "CSR: row_offsets is NULL");
  if (g->m > 0 && (g->col == NULL || g->weights == NULL))
    return ds_error_set(err, DS_ERR_VALIDATION, "CSR: %llu arcs but no columns or weights",
                        (unsigned long long)g->m);
  if (g->weight_type != DS_WEIGHT_U32 && g->weight_type != DS_WEIGHT_F32)
    return ds_error_set(err, DS_ERR_VALIDATION, "CSR: unknown weight type %d", (int)g->weight_type);
  // 1. offsets
  if (g->row_offsets[0] != 0)
    return ds_error_set(err, DS_ERR_VALIDATION, "CSR: row_offsets[0] is %llu, not 0",
                        (unsigned long long)g->row_offsets[0]);
  for (uint32_t v = 0; v < g->n; v++)
    if (g->row_offsets[v + 1] < g->row_offsets[v] || g->row_offsets[v + 1] > g->m)
      return ds_error_set(err, DS_ERR_VALIDATION, "CSR: row_offsets[%u] = %llu is out of order "
                          "or beyond m = %llu", v + 1,
                          (unsigned long long)g->row_offsets[v + 1], (unsigned long long)g->m);
  if (g->row_offsets[g->n] != g->m)
    return ds_error_set(err, DS_ERR_VALIDATION, "CSR: row_offsets[n] = %llu but m = %llu",
                        (unsigned long long)g->row_offsets[g->n], (unsigned long long)g->m);
  // 2. columns and weights
  for (uint32_t u = 0; u < g->n; u++) {
    for (uint64_t a = g->row_offsets[u]; a < g->row_offsets[u + 1]; a++) {
      uint32_t v = g->col[a];
      if (v >= g->n)
        return ds_error_set(err, DS_ERR_VALIDATION, "CSR: arc %llu (%u -> %u) leaves the %u "
                            "vertices", (unsigned long long)a, u, v, g->n);
      if (v == u)
        return ds_error_set(err, DS_ERR_VALIDATION, "CSR: self-loop at vertex %u", u);
      if (a > g->row_offsets[u] && g->col[a - 1] >= v)
        return ds_error_set(err, DS_ERR_VALIDATION, "CSR: row %u is not strictly increasing "
                            "at arc %llu (%u then %u)", u, (unsigned long long)a, g->col[a - 1], v);
      if (g->weight_type == DS_WEIGHT_F32) {
        float w = ((const float *)g->weights)[a];
        if (!(w >= 0.0f) || !isfinite(w))
          return ds_error_set(err, DS_ERR_VALIDATION, "CSR: arc %u -> %u has weight %g", u, v,
                              (double)w);
      }
    }
  }
  // 3. symmetry: every arc has its reverse, with the same weight
  if (g->symmetric) return check_symmetry(g, err);
  return DS_OK;
}
