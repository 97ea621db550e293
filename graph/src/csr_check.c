/* ds_csr_check: the CSR invariants of graph.h, O(n + m) (plus a binary search
 * per arc for the symmetry of graphs marked symmetric). */
#include "graph_internal.h"

#include <math.h>
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
  if (g->symmetric) {
    for (uint32_t u = 0; u < g->n; u++) {
      for (uint64_t a = g->row_offsets[u]; a < g->row_offsets[u + 1]; a++) {
        uint64_t r;
        uint32_t v = g->col[a];
        if (!has_arc(g, v, u, &r))
          return ds_error_set(err, DS_ERR_VALIDATION, "CSR: symmetric graph has arc %u -> %u "
                              "but not %u -> %u", u, v, v, u);
        if (memcmp((const uint32_t *)g->weights + a, (const uint32_t *)g->weights + r, 4) != 0)
          return ds_error_set(err, DS_ERR_VALIDATION, "CSR: arcs %u -> %u and back differ in "
                              "weight", u, v);
      }
    }
  }
  return DS_OK;
}
