/* Triangle counting on the CPU: the serial oracle and the OpenMP backend.
 *
 * Both count each triangle once, from one canonical edge. The oracle takes
 * the edge (u, v) with u < v and the third vertex w > v from the merge of
 * the two full rows: short and plainly right, O(sum of degree products).
 *
 * The backend orients every edge from lower to higher rank, rank being
 * (degree, id), and keeps only the out-rows (half the arcs, still sorted by id
 * because the full rows are). A triangle has exactly one vertex of lowest rank
 * u, and its other two v, w are both out-neighbours of u with w also an
 * out-neighbour of v, so counting |out(u) & out(v)| over oriented edges (u, v)
 * finds it exactly once. Ranking by degree bounds every out-row by sqrt(m) (a
 * vertex with d out-neighbours has d of degree >= d), so hubs never merge their
 * full rows: the bound of Schank and Wagner's "forward" algorithm.
 *
 * Per-vertex counts credit u locally, v once per edge, and w by an atomic add
 * per triangle; without them the count loop has no atomics at all.
 */
#include "tc.h"

#include <omp.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#define COUNT_CHUNK 32 /* vertices per OpenMP dynamic chunk: work per vertex is very skewed */

static ds_status check_args(const char *fn, const ds_graph *g, const uint64_t *total,
                            ds_error *err) {
  if (g == NULL) return ds_error_set(err, DS_ERR_ARG, "%s: the graph is NULL", fn);
  if (total == NULL) return ds_error_set(err, DS_ERR_ARG, "%s: total is NULL", fn);
  if (!g->symmetric)
    return ds_error_set(err, DS_ERR_ARG,
                        "%s: graph '%s' is directed (not symmetric): triangles need an "
                        "undirected graph",
                        fn, g->name);
  return DS_OK;
}

ds_status ds_tc_oracle(const ds_graph *g, uint64_t *total, uint64_t *per_vertex, ds_error *err) {
  ds_status st = check_args("ds_tc_oracle", g, total, err);
  if (st != DS_OK) return st;
  if (per_vertex != NULL) memset(per_vertex, 0, (size_t)g->n * sizeof *per_vertex);
  uint64_t count = 0;
  for (uint32_t u = 0; u < g->n; u++)
    for (uint64_t e = g->row_offsets[u]; e < g->row_offsets[u + 1]; e++) {
      const uint32_t v = g->col[e];
      if (v <= u) continue;
      uint64_t i = g->row_offsets[u], j = g->row_offsets[v];
      while (i < g->row_offsets[u + 1] && j < g->row_offsets[v + 1]) {
        const uint32_t a = g->col[i], b = g->col[j];
        if (a < b) {
          i++;
        } else if (b < a) {
          j++;
        } else {
          if (a > v) {
            count++;
            if (per_vertex != NULL) {
              per_vertex[u]++;
              per_vertex[v]++;
              per_vertex[a]++;
            }
          }
          i++;
          j++;
        }
      }
    }
  *total = count;
  return DS_OK;
}

/* The oriented graph: out-rows of the arcs from lower to higher rank. */
typedef struct {
  uint64_t *off; /* n + 1 */
  uint32_t *col; /* m / 2 */
} oriented;

static inline int ranks_below(const ds_graph *g, uint32_t u, uint32_t v) {
  const uint64_t du = g->row_offsets[u + 1] - g->row_offsets[u];
  const uint64_t dv = g->row_offsets[v + 1] - g->row_offsets[v];
  return du < dv || (du == dv && u < v);
}

/* 1. Out-degrees, their prefix sum (per-thread blocks, then the block totals), and the
 *    out-rows filtered from the full rows in order. Runs inside the team's region. */
static void orient(const ds_graph *g, oriented *o, uint64_t *block_sum) {
  const uint32_t n = g->n;
  const int t = omp_get_thread_num(), team = omp_get_num_threads();
  const uint32_t lo = (uint32_t)((uint64_t)n * (uint64_t)t / (uint64_t)team);
  const uint32_t hi = (uint32_t)((uint64_t)n * ((uint64_t)t + 1) / (uint64_t)team);
  uint64_t sum = 0;
  for (uint32_t u = lo; u < hi; u++) {
    uint64_t d = 0;
    for (uint64_t e = g->row_offsets[u]; e < g->row_offsets[u + 1]; e++)
      d += (uint64_t)ranks_below(g, u, g->col[e]);
    o->off[u] = sum;
    sum += d;
  }
  block_sum[t] = sum;
#pragma omp barrier
  uint64_t base = 0;
  for (int i = 0; i < t; i++) base += block_sum[i];
  for (uint32_t u = lo; u < hi; u++) o->off[u] += base;
  if (t == team - 1) o->off[n] = base + sum;
#pragma omp barrier
#pragma omp for schedule(dynamic, 1024)
  for (uint32_t u = 0; u < n; u++) {
    uint64_t at = o->off[u];
    for (uint64_t e = g->row_offsets[u]; e < g->row_offsets[u + 1]; e++)
      if (ranks_below(g, u, g->col[e])) o->col[at++] = g->col[e];
  }
}

/* |a & b| of two sorted rows; the merge steps without a data-dependent branch. */
static inline uint64_t intersect_count(const uint32_t *a, const uint32_t *a_end,
                                       const uint32_t *b, const uint32_t *b_end) {
  uint64_t c = 0;
  while (a < a_end && b < b_end) {
    const uint32_t x = *a, y = *b;
    c += x == y;
    a += x <= y;
    b += y <= x;
  }
  return c;
}

/* 2. Triangles from the oriented edges; with per_vertex, each one credits its three vertices. */
static void count_triangles(const oriented *o, uint32_t n, _Atomic uint64_t *per_vertex,
                            _Atomic uint64_t *total_out) {
  uint64_t total = 0;
#pragma omp for schedule(dynamic, COUNT_CHUNK) nowait
  for (uint32_t u = 0; u < n; u++) {
    const uint32_t *ru = o->col + o->off[u], *ru_end = o->col + o->off[u + 1];
    uint64_t at_u = 0;
    for (const uint32_t *pv = ru; pv < ru_end; pv++) {
      const uint32_t v = *pv;
      const uint32_t *rv = o->col + o->off[v], *rv_end = o->col + o->off[v + 1];
      if (per_vertex == NULL) {
        at_u += intersect_count(ru, ru_end, rv, rv_end);
        continue;
      }
      uint64_t at_v = 0;
      for (const uint32_t *a = ru, *b = rv; a < ru_end && b < rv_end;) {
        if (*a < *b) {
          a++;
        } else if (*b < *a) {
          b++;
        } else {
          atomic_fetch_add_explicit(&per_vertex[*a], 1, memory_order_relaxed);
          at_v++;
          a++;
          b++;
        }
      }
      if (at_v) atomic_fetch_add_explicit(&per_vertex[v], at_v, memory_order_relaxed);
      at_u += at_v;
    }
    if (per_vertex != NULL && at_u)
      atomic_fetch_add_explicit(&per_vertex[u], at_u, memory_order_relaxed);
    total += at_u;
  }
  atomic_fetch_add_explicit(total_out, total, memory_order_relaxed);
}

ds_status ds_tc_cpu(const ds_graph *g, int threads, uint64_t *total, uint64_t *per_vertex,
                    ds_error *err) {
  ds_status st = check_args("ds_tc_cpu", g, total, err);
  if (st != DS_OK) return st;
  const uint32_t n = g->n;
  const int team = threads > 0 ? threads : omp_get_max_threads();
  /* uint64_t and _Atomic uint64_t share size and representation on every platform we build
   * for (lock-free 64-bit atomics); the counts are written only through the atomic view. */
  _Static_assert(sizeof(_Atomic uint64_t) == sizeof(uint64_t), "atomic counters in place");
  _Atomic uint64_t *pv = (_Atomic uint64_t *)per_vertex;
  oriented o = {NULL, NULL};
  o.off = malloc(((size_t)n + 1) * sizeof *o.off);
  o.col = malloc((size_t)(g->m / 2 + 1) * sizeof *o.col);
  uint64_t *block_sum = malloc((size_t)team * sizeof *block_sum);
  if (o.off == NULL || o.col == NULL || block_sum == NULL) {
    st = ds_error_set(err, DS_ERR_NOMEM,
                      "ds_tc_cpu: out of memory for the oriented graph (%u vertices, %llu arcs)",
                      n, (unsigned long long)(g->m / 2));
    goto done;
  }
  _Atomic uint64_t count;
  atomic_init(&count, 0);
#pragma omp parallel num_threads(team)
  {
    if (pv != NULL) {
#pragma omp for schedule(static)
      for (uint32_t v = 0; v < n; v++) atomic_init(&pv[v], 0);
    }
    orient(g, &o, block_sum);
    count_triangles(&o, n, pv, &count);
  }
  *total = atomic_load(&count);
done:
  free(o.off);
  free(o.col);
  free(block_sum);
  return st;
}
