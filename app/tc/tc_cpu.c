/* Triangle counting on the CPU: the serial oracle and the OpenMP backend.
 *
 * Both count each triangle once, from one canonical edge. The oracle takes
 * the edge (u, v) with u < v and the third vertex w > v from the merge of
 * the two full rows: short and plainly right, O(sum of squared degrees).
 *
 * The backend follows Schank and Wagner's "forward" algorithm ("Finding,
 * Counting and Listing all Triangles in Large Graphs, an Experimental
 * Study"): every edge is oriented from lower to higher rank, rank being
 * (degree, id), and only the out-rows are kept (half the arcs). A triangle
 * has exactly one vertex u of lowest rank; its other two v, w are both
 * out-neighbours of u, and w is an out-neighbour of v, so counting
 * |out(u) & out(v)| over the oriented edges (u, v) finds it exactly once.
 * Ranking by degree bounds every out-row by sqrt(2m) (a vertex with d
 * out-neighbours has d neighbours of degree >= d), so hubs never walk their
 * full rows. The intersections use a bitmap of out(u) per thread.
 *
 * Per-vertex counts credit u once per vertex, v once per edge, and w by an
 * atomic add per triangle; without them the count loop has no atomics at all.
 * Limits: one bitmap of n bits per thread (ds_tc_cpu_thread_bytes), which many
 * threads on a large graph make the largest part of the scratch.
 */
#include "tc.h"

#include <omp.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#define COUNT_CHUNK 32 /* vertices per OpenMP dynamic chunk: work per vertex is very skewed */
#define WORD_BITS 64u  /* bits of a bitmap word */

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

/* The oriented graph, in rank order: vertex r is the vertex of rank r, and its out-row holds
 * the ranks of its neighbours of higher rank. Numbering by rank puts the hubs, which most
 * out-rows point to, side by side at the top: their bits share cache lines (a third faster
 * than the input's numbering on a Kronecker graph). */
typedef struct {
  uint32_t *rank;  /* n: rank of each vertex */
  uint32_t *order; /* n: vertex of each rank (for per-vertex counts) */
  uint64_t *off;   /* n + 1 */
  uint32_t *col;   /* m / 2 */
  uint64_t *block_sum; /* per thread: the prefix sum's block totals */
} oriented;

static inline uint32_t degree_of(const ds_graph *g, uint32_t v) {
  return (uint32_t)(g->row_offsets[v + 1] - g->row_offsets[v]);
}

/* 1. Ranks by (degree, id): a counting sort by degree, stable in id. Serial: three O(n)
 *    passes, small beside the count. Returns 0 when the counts cannot be allocated. */
static int rank_vertices(const ds_graph *g, oriented *o) {
  uint32_t max_deg = 0;
  for (uint32_t v = 0; v < g->n; v++)
    if (degree_of(g, v) > max_deg) max_deg = degree_of(g, v);
  uint64_t *start = calloc((size_t)max_deg + 2, sizeof *start);
  if (start == NULL) return 0;
  for (uint32_t v = 0; v < g->n; v++) start[degree_of(g, v) + 1]++;
  for (uint32_t d = 0; d <= max_deg; d++) start[d + 1] += start[d];
  for (uint32_t v = 0; v < g->n; v++) {
    const uint32_t r = (uint32_t)start[degree_of(g, v)]++;
    o->rank[v] = r;
    o->order[r] = v;
  }
  free(start);
  return 1;
}

/* 2. Out-degrees by rank, their prefix sum (per-thread blocks of ranks, then the block
 *    totals), and the out-rows, renumbered to ranks. The rows are left in the order of the
 *    input's ids: the bitmap count does not need them sorted, and sorting them cost a
 *    quarter of the whole count on a Kronecker graph. Runs inside the team. */
static void orient(const ds_graph *g, oriented *o) {
  const uint32_t n = g->n;
  const int t = omp_get_thread_num(), team = omp_get_num_threads();
#pragma omp for schedule(dynamic, 1024)
  for (uint32_t u = 0; u < n; u++) {
    uint64_t d = 0;
    for (uint64_t e = g->row_offsets[u]; e < g->row_offsets[u + 1]; e++)
      d += o->rank[g->col[e]] > o->rank[u];
    o->off[o->rank[u]] = d;
  }
  const uint32_t lo = (uint32_t)((uint64_t)n * (uint64_t)t / (uint64_t)team);
  const uint32_t hi = (uint32_t)((uint64_t)n * ((uint64_t)t + 1) / (uint64_t)team);
  uint64_t sum = 0;
  for (uint32_t r = lo; r < hi; r++) {
    const uint64_t d = o->off[r];
    o->off[r] = sum;
    sum += d;
  }
  o->block_sum[t] = sum;
#pragma omp barrier
  uint64_t base = 0;
  for (int i = 0; i < t; i++) base += o->block_sum[i];
  for (uint32_t r = lo; r < hi; r++) o->off[r] += base;
  if (t == team - 1) o->off[n] = base + sum;
#pragma omp barrier
#pragma omp for schedule(dynamic, 1024)
  for (uint32_t u = 0; u < n; u++) {
    const uint32_t ru = o->rank[u];
    uint64_t at = o->off[ru];
    for (uint64_t e = g->row_offsets[u]; e < g->row_offsets[u + 1]; e++) {
      const uint32_t rv = o->rank[g->col[e]];
      if (rv > ru) o->col[at++] = rv;
    }
  }
}

/* 3. Triangles from the oriented edges (u, v): u's out-row is marked in the thread's
 *    bitmap over ranks, and each rank w of v's out-row closes a triangle when its bit is
 *    set (Schank and Wagner's "forward-hashed" count, the bitmap as the hash). This
 *    streams v's row once per edge with no data-dependent branch, where a merge of the two
 *    rows would also walk u's row and mispredict at every step. The bits are cleared
 *    again from u's row, so each vertex costs its out-row, not the bitmap. With
 *    per_vertex, each triangle credits its three vertices (by their original ids). */
static void count_triangles(const oriented *o, uint32_t n, uint64_t *bits,
                            _Atomic uint64_t *per_vertex, _Atomic uint64_t *total_out) {
  uint64_t total = 0;
#pragma omp for schedule(dynamic, COUNT_CHUNK) nowait
  for (uint32_t u = 0; u < n; u++) {
    const uint32_t *ru = o->col + o->off[u], *ru_end = o->col + o->off[u + 1];
    if (ru_end - ru < 2) continue; /* a triangle needs two out-neighbours of its lowest vertex */
    for (const uint32_t *a = ru; a < ru_end; a++) bits[*a / WORD_BITS] |= 1ull << (*a % WORD_BITS);
    uint64_t at_u = 0;
    for (const uint32_t *pv = ru; pv < ru_end; pv++) {
      const uint32_t *rv = o->col + o->off[*pv], *rv_end = o->col + o->off[*pv + 1];
      uint64_t at_v = 0;
      if (per_vertex == NULL) {
        for (const uint32_t *b = rv; b < rv_end; b++)
          at_v += (bits[*b / WORD_BITS] >> (*b % WORD_BITS)) & 1u;
      } else {
        for (const uint32_t *b = rv; b < rv_end; b++)
          if ((bits[*b / WORD_BITS] >> (*b % WORD_BITS)) & 1u) {
            atomic_fetch_add_explicit(&per_vertex[o->order[*b]], 1, memory_order_relaxed);
            at_v++;
          }
        if (at_v)
          atomic_fetch_add_explicit(&per_vertex[o->order[*pv]], at_v, memory_order_relaxed);
      }
      at_u += at_v;
    }
    for (const uint32_t *a = ru; a < ru_end; a++) bits[*a / WORD_BITS] = 0;
    if (per_vertex != NULL && at_u)
      atomic_fetch_add_explicit(&per_vertex[o->order[u]], at_u, memory_order_relaxed);
    total += at_u;
  }
  atomic_fetch_add_explicit(total_out, total, memory_order_relaxed);
}

/* One bitmap over the ranks: a bit a vertex, one word spare. */
static size_t bitmap_words(uint32_t n) { return (size_t)n / WORD_BITS + 1; }

uint64_t ds_tc_cpu_thread_bytes(uint32_t n) {
  return (uint64_t)bitmap_words(n) * sizeof(uint64_t) + sizeof(uint64_t); /* + its block_sum */
}

ds_status ds_tc_cpu(const ds_graph *g, int threads, uint64_t *total, uint64_t *per_vertex,
                    ds_error *err) {
  // 1. check arguments and allocate the oriented graph
  ds_status st = check_args("ds_tc_cpu", g, total, err);
  if (st != DS_OK) return st;
  const uint32_t n = g->n;
  const int team = threads > 0 ? threads : omp_get_max_threads();
  /* uint64_t and _Atomic uint64_t share size and representation on every platform we build
   * for (lock-free 64-bit atomics); the counts are written only through the atomic view. */
  _Static_assert(sizeof(_Atomic uint64_t) == sizeof(uint64_t), "atomic counters in place");
  _Atomic uint64_t *pv = (_Atomic uint64_t *)per_vertex;
  oriented o;
  o.rank = malloc(((size_t)n + 1) * sizeof *o.rank);
  o.order = malloc(((size_t)n + 1) * sizeof *o.order);
  o.off = malloc(((size_t)n + 1) * sizeof *o.off);
  o.col = malloc((size_t)(g->m / 2 + 1) * sizeof *o.col);
  o.block_sum = malloc((size_t)team * sizeof *o.block_sum);
  const size_t words = bitmap_words(n);
  uint64_t *bits = calloc((size_t)team * words, sizeof *bits);
  if (o.rank == NULL || o.order == NULL || o.off == NULL || o.col == NULL ||
      !rank_vertices(g, &o)) {
    st = ds_error_set(err, DS_ERR_NOMEM,
                      "ds_tc_cpu: out of memory for the oriented graph (%u vertices, %llu edges)",
                      n, (unsigned long long)(g->m / 2));
    goto done;
  }
  if (o.block_sum == NULL || bits == NULL) {
    st = ds_error_set(err, DS_ERR_NOMEM,
                      "ds_tc_cpu: out of memory for the per-thread bitmaps (%d threads x %.1f "
                      "KiB: one bit a vertex each)",
                      team, (double)ds_tc_cpu_thread_bytes(n) / 1024.0);
    goto done;
  }
  // 2. orient, then count
  _Atomic uint64_t count;
  atomic_init(&count, 0);
#pragma omp parallel num_threads(team)
  {
    if (pv != NULL) {
#pragma omp for schedule(static)
      for (uint32_t v = 0; v < n; v++) atomic_init(&pv[v], 0);
    }
    orient(g, &o);
#pragma omp barrier
    count_triangles(&o, n, bits + (size_t)omp_get_thread_num() * words, pv, &count);
  }
  *total = atomic_load(&count);
done:
  free(o.rank);
  free(o.order);
  free(o.off);
  free(o.col);
  free(o.block_sum);
  free(bits);
  return st;
}

/* The GPU backend's defaults, here so that builds without CUDA have them too:
 * the bitmap for every long bin (the search where the bitmap does not fit). */
void ds_tc_gpu_options_default(ds_tc_gpu_options *opt) {
  opt->short_max = DS_TC_GPU_SHORT_MAX;
  for (int b = 0; b < DS_TC_GPU_LONG_BINS; b++) opt->long_probe[b] = DS_TC_PROBE_BITMAP;
}

static const char *const PROBE_NAMES[DS_TC_PROBES] = {"search", "bitmap", "hash"};

const char *ds_tc_probe_name(ds_tc_probe p) {
  return (unsigned)p < DS_TC_PROBES ? PROBE_NAMES[p] : "?";
}

int ds_tc_gpu_options_intersect(ds_tc_gpu_options *opt, const char *name) {
  if (strcmp(name, "auto") == 0) {
    ds_tc_gpu_options d;
    ds_tc_gpu_options_default(&d);
    for (int b = 0; b < DS_TC_GPU_LONG_BINS; b++) opt->long_probe[b] = d.long_probe[b];
    return 1;
  }
  for (int p = 0; p < DS_TC_PROBES; p++)
    if (strcmp(name, PROBE_NAMES[p]) == 0) {
      for (int b = 0; b < DS_TC_GPU_LONG_BINS; b++) opt->long_probe[b] = (ds_tc_probe)p;
      return 1;
    }
  return 0;
}
