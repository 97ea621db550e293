/* Distances of every width (sssp.h, ds_dist_width): their size, the width a
 * graph needs, and what the algorithms share to hand results out (reached
 * counts, the range error, predecessors from 64-bit distances). The CPU
 * backends and the GPU context use these; they use nothing of sssp.c, whose
 * dispatch calls the backends.
 */
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "sssp.h"

size_t ds_dist_size(const ds_graph *g, ds_dist_width w) {
  return (w == DS_DIST_WIDE && g->weight_type == DS_WEIGHT_U32) ? sizeof(uint64_t)
                                                                : sizeof(uint32_t);
}

ds_dist_width ds_sssp_dist_width(const ds_graph *g) {
  if (g == NULL || g->weight_type != DS_WEIGHT_U32) return DS_DIST_NATURAL;
  // A shortest path is simple, so it leaves each vertex at most once, along an
  // arc no heavier than that vertex's heaviest: their sum bounds every distance.
  const uint32_t *w = (const uint32_t *)g->weights;
  uint64_t bound = 0;
  for (uint32_t v = 0; v < g->n; v++) {
    uint32_t heaviest = 0;
    for (uint64_t e = g->row_offsets[v]; e < g->row_offsets[v + 1]; e++)
      if (w[e] > heaviest) heaviest = w[e];
    bound += heaviest; /* < 2^32 * 2^32: no overflow */
    if (bound > DS_DIST_MAX_U32) return DS_DIST_WIDE;
  }
  return DS_DIST_NATURAL;
}

ds_dist_value ds_dist_read(const void *dist, int is_float, ds_dist_width w, uint32_t v) {
  ds_dist_value d = {0, 0, 0.0};
  if (is_float) {
    d.f = (double)((const float *)dist)[v];
    d.inf = isinf(d.f);
  } else if (w == DS_DIST_WIDE) {
    d.i = ((const uint64_t *)dist)[v];
    d.inf = d.i == DS_INF_U64;
  } else {
    const uint32_t x = ((const uint32_t *)dist)[v];
    d.i = x;
    d.inf = x == DS_INF_U32;
  }
  return d;
}

ds_dist_value ds_dist_plus(ds_dist_value d, const void *weights, int is_float, uint64_t arc) {
  if (d.inf) return d;
  if (is_float) d.f += (double)((const float *)weights)[arc];
  else if (__builtin_add_overflow(d.i, (uint64_t)((const uint32_t *)weights)[arc], &d.i)) d.inf = 1;
  return d;
}

int ds_dist_tight(ds_dist_value dv, ds_dist_value s, int is_float, double tol) {
  if (dv.inf || s.inf) return 0;
  if (!is_float) return dv.i == s.i;
  return fabs(dv.f - s.f) <= tol * fmax(dv.f, s.f);
}

int ds_dist_feasible(ds_dist_value dv, ds_dist_value s, int is_float, double tol) {
  if (s.inf) return 1;
  if (dv.inf) return 0;
  if (!is_float) return dv.i <= s.i;
  return dv.f <= s.f + tol * s.f;
}

void ds_dist_format(ds_dist_value d, int is_float, char *buf, size_t len) {
  if (d.inf) snprintf(buf, len, "inf");
  else if (is_float) snprintf(buf, len, "%.9g", d.f);
  else snprintf(buf, len, "%" PRIu64, d.i);
}

int ds_dist_is_finite(const ds_graph *g, const void *dist, ds_dist_width w, uint32_t v) {
  if (g->weight_type == DS_WEIGHT_F32) return isfinite(((const float *)dist)[v]);
  if (w == DS_DIST_WIDE) return ((const uint64_t *)dist)[v] != DS_INF_U64;
  return ((const uint32_t *)dist)[v] != DS_INF_U32;
}

ds_status ds_dist_range_error(const ds_graph *g, uint32_t v, ds_error *err) {
  unsigned long long id = (unsigned long long)v + (unsigned long long)g->index_base;
  if (g->weight_type == DS_WEIGHT_F32)
    return ds_error_set(err, DS_ERR_RANGE,
                        "vertex %llu is reached, but its distance is at least FLT_MAX (%g), "
                        "beyond what float distances hold",
                        id, (double)FLT_MAX);
  return ds_error_set(err, DS_ERR_RANGE,
                      "vertex %llu is reached, but its distance exceeds %u, the largest 32-bit "
                      "distance: 64-bit distances are needed",
                      id, DS_DIST_MAX_U32);
}

void ds_sssp_count_reached(const ds_graph *g, ds_dist_width w, ds_sssp_result *res) {
  uint32_t reached = 0;
  uint64_t arcs = 0;
  for (uint32_t v = 0; v < g->n; v++) {
    if (ds_dist_is_finite(g, res->dist, w, v)) {
      reached++;
      arcs += g->row_offsets[v + 1] - g->row_offsets[v];
    }
  }
  res->reached = reached;
  res->reached_arcs = arcs;
}

/* Predecessors from final 64-bit distances: a breadth-first walk from the
 * source over tight arcs (dist[v] == dist[u] + w) gives every reached vertex a
 * tight arc from a vertex found before it, so they form a tree even where zero
 * weights make cycles of tight arcs. */
ds_status ds_pred_from_tight_arcs(const ds_graph *g, uint32_t source, const uint64_t *dist,
                                  uint32_t *pred, ds_error *err) {
  uint32_t *queue = (uint32_t *)malloc((size_t)g->n * sizeof(uint32_t));
  if (queue == NULL)
    return ds_error_set(err, DS_ERR_NOMEM, "predecessors: out of memory for %u vertices", g->n);
  const uint32_t *w = (const uint32_t *)g->weights;
  for (uint32_t v = 0; v < g->n; v++) pred[v] = DS_NO_PRED;
  uint32_t head = 0, tail = 0;
  queue[tail++] = source;
  while (head < tail) {
    uint32_t u = queue[head++];
    for (uint64_t e = g->row_offsets[u]; e < g->row_offsets[u + 1]; e++) {
      uint32_t v = g->col[e];
      if (v == source || pred[v] != DS_NO_PRED || dist[v] != dist[u] + w[e]) continue;
      pred[v] = u;
      queue[tail++] = v;
    }
  }
  free(queue);
  return DS_OK;
}
