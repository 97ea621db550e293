/* ds_csr_check: the CSR invariants of graph.h, O(n + m), symmetry included
 * (one cursor a row; a binary search per arc where the cursors cannot be
 * allocated). */
#include "graph_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int has_arc(const ds_graph *g, uint32_t u, uint32_t v, uint64_t *at) {
  uint64_t lo = g->row_offsets[u], hi = g->row_offsets[u + 1];
  while (lo < hi) {
    uint64_t mid = lo + (hi - lo) / 2;
    if (g->col[mid] < v) lo = mid + 1;
    else hi = mid;
  }
  *at = lo;
  return lo < g->row_offsets[u + 1] && g->col[lo] == v;
}

static ds_status asymmetric(ds_error *err, uint32_t u, uint32_t v) {
  return ds_error_set(err, DS_ERR_VALIDATION, "CSR: symmetric graph has arc %u -> %u but not "
                      "%u -> %u with the same weight", u, v, v, u);
}

/* Every arc has its reverse with the same weight. Rows are sorted, so the
 * arcs (w, v) with w > v, met in order of w, must be exactly row v's arcs
 * above the diagonal in order: one cursor per row matches them in a single
 * pass (the cache's check would otherwise cost as much as parsing the text). */
static ds_status check_symmetry(const ds_graph *g, ds_error *err) {
  const uint32_t *w = (const uint32_t *)g->weights;
  uint64_t *cur = malloc(((size_t)g->n + 1) * sizeof *cur);
  if (cur == NULL) { /* no room for cursors: a binary search per arc */
    for (uint32_t u = 0; u < g->n; u++)
      for (uint64_t a = g->row_offsets[u], r; a < g->row_offsets[u + 1]; a++)
        if (!has_arc(g, g->col[a], u, &r) || w[a] != w[r]) return asymmetric(err, u, g->col[a]);
    return DS_OK;
  }
  ds_status st = DS_OK;
  for (uint32_t v = 0; v < g->n; v++) { /* the first arc of row v above the diagonal */
    uint64_t a = g->row_offsets[v];
    while (a < g->row_offsets[v + 1] && g->col[a] < v) a++;
    cur[v] = a;
  }
  for (uint32_t u = 0; u < g->n && st == DS_OK; u++) {
    for (uint64_t a = g->row_offsets[u]; a < g->row_offsets[u + 1] && g->col[a] < u; a++) {
      uint32_t v = g->col[a];
      uint64_t r = cur[v]++;
      if (r >= g->row_offsets[v + 1] || g->col[r] != u || w[r] != w[a]) {
        st = asymmetric(err, u, v);
        break;
      }
    }
  }
  for (uint32_t v = 0; v < g->n && st == DS_OK; v++) /* an arc above with none below */
    if (cur[v] != g->row_offsets[v + 1]) st = asymmetric(err, v, g->col[cur[v]]);
  free(cur);
  return st;
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
