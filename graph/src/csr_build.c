/* CSR from an edge list (ds_csr_build) and the CSR invariant check
 * (ds_csr_check).
 *
 * Build, O(n + m) plus the per-row sorts:
 *   1. count the arcs of every row (self-loops dropped; symmetric input adds
 *      the reverse arc), prefix-sum into uint64 offsets;
 *   2. scatter (column, weight) packed into one 64-bit key into the rows
 *      (counting sort by row; the bits of a non-negative float order like its
 *      value); pattern edges get ds_pattern_weight, so both directions agree;
 *   3. per row, sort the keys and keep the first of every column (the
 *      smallest weight), compacting the rows in place;
 *   4. split the keys into columns and weights (the weights overwrite the key
 *      buffer from its start). Peak memory: 8 bytes per arc + 4 per kept arc.
 * Steps 1-3 run on OpenMP threads: in 1 and 2 each thread owns a range of
 * rows and reads all edges (no atomics, writes stay in its range); the result
 * does not depend on the thread count, since every row is sorted on its keys.
 * Invariants on return: offsets monotone from 0 to m, columns strictly
 * increasing within a row, no self-loops, weights non-negative and finite.
 */
#define _POSIX_C_SOURCE 200809L
#include "graph_internal.h"
#include "sort_u64.h"

#include <unistd.h>

#include <math.h>
#include <stdlib.h>
#ifdef _OPENMP
#include <omp.h>
#endif
#include <string.h>

#define WEIGHT_BITS 32
#define PARALLEL_MIN_EDGES ((uint64_t)1 << 16) /* below this, threads cost more than they give */
#define ROWS_PER_TASK 4096                     /* rows per dynamic OpenMP chunk */

static int max_threads(void) {
#ifdef _OPENMP
  return omp_get_max_threads();
#else
  return 1;
#endif
}
static int thread_id(void) {
#ifdef _OPENMP
  return omp_get_thread_num();
#else
  return 0;
#endif
}
static int thread_count(void) {
#ifdef _OPENMP
  return omp_get_num_threads();
#else
  return 1;
#endif
}

/* First row of part t of parts: by row count (off NULL) or by arcs. */
static uint32_t row_split(const uint64_t *off, uint32_t n, int t, int parts) {
  if (t >= parts) return n;
  if (off == NULL) return (uint32_t)((uint64_t)n * (uint64_t)t / (uint64_t)parts);
  const uint64_t target = off[n] / (uint64_t)parts * (uint64_t)t; /* first v with off[v] >= target */
  uint32_t lo = 0, hi = n;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (off[mid] < target) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

static uint32_t weight_bits(const ds_edge_list *e, uint64_t i) {
  if (e->weight_type == DS_WEIGHT_F32) {
    float w = ((const float *)e->weights)[i];
    if (w == 0.0f) w = 0.0f; /* -0 sorts and prints as 0 */
    uint32_t b;
    memcpy(&b, &w, sizeof b);
    return b;
  }
  return ((const uint32_t *)e->weights)[i];
}

/* Refuses a build that needs more than the machine's memory (a size line
 * that claims 4 billion vertices would otherwise end in the OOM killer). */
static ds_status check_memory(uint32_t n, uint64_t count, int symmetric, ds_error *err) {
  long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page <= 0) return DS_OK; /* unknown: let malloc decide */
  const double have = (double)pages * (double)page;
  const double need = 2.0 * ((double)n + 1) * sizeof(uint64_t) +
                      (symmetric ? 2.0 : 1.0) * (double)count * (sizeof(uint64_t) + sizeof(uint32_t));
  if (need > have)
    return ds_error_set(err, DS_ERR_NOMEM, "a CSR of %u vertices and %llu edges needs about %.1f "
                        "GB; this machine has %.1f GB", n, (unsigned long long)count, need / 1e9,
                        have / 1e9);
  return DS_OK;
}

/* 1. argument checks, with messages that name the argument */
static ds_status check_edges(const ds_edge_list *e, const ds_load_options *opt, ds_error *err) {
  if (e->count > 0 && (e->src == NULL || e->dst == NULL))
    return ds_error_set(err, DS_ERR_ARG, "edge list: src and dst must not be NULL (%llu edges)",
                        (unsigned long long)e->count);
  if (e->weight_type != DS_WEIGHT_U32 && e->weight_type != DS_WEIGHT_F32)
    return ds_error_set(err, DS_ERR_ARG, "edge list: unknown weight type %d", (int)e->weight_type);
  if (e->weights == NULL) {
    ds_status st = ds_weight_dist_check(opt->weight_dist, opt->weight_min, opt->weight_max, err);
    if (st != DS_OK) return st;
  }
  for (uint64_t i = 0; i < e->count; i++) {
    if (e->src[i] >= e->n || e->dst[i] >= e->n)
      return ds_error_set(err, DS_ERR_ARG,
                          "edge %llu (%u, %u) is out of range: the graph has %u vertices",
                          (unsigned long long)i, e->src[i], e->dst[i], e->n);
    if (e->weights != NULL && e->weight_type == DS_WEIGHT_F32) {
      float w = ((const float *)e->weights)[i];
      if (!(w >= 0.0f) || !isfinite(w))
        return ds_error_set(err, DS_ERR_ARG, "edge %llu (%u, %u) has weight %g: weights must "
                            "be finite and non-negative", (unsigned long long)i, e->src[i],
                            e->dst[i], (double)w);
    }
  }
  return DS_OK;
}

void ds_csr_describe(const ds_edge_list *edges, int symmetric, const ds_load_options *opt,
                     ds_graph *g) {
  const int pattern = edges->weights == NULL;
  g->weight_type = pattern ? DS_WEIGHT_U32 : edges->weight_type;
  g->symmetric = symmetric != 0;
  g->weights_generated = pattern;
  if (pattern) {
    g->weight_min = opt->weight_min;
    g->weight_max = opt->weight_max;
    g->weight_dist = opt->weight_dist;
    g->weight_seed = opt->seed;
  }
  g->format = DS_FORMAT_AUTO;
  g->input_entries = edges->count;
}

ds_status ds_csr_build(const ds_edge_list *edges, int symmetric, const ds_load_options *opt,
                       ds_graph *g, ds_error *err) {
  return ds_csr_build_progress(edges, symmetric, opt, NULL, g, err);
}

ds_status ds_csr_build_progress(const ds_edge_list *edges, int symmetric,
                                const ds_load_options *opt, ds_progress *prog, ds_graph *g,
                                ds_error *err) {
  ds_load_options defaults;
  uint64_t *off = NULL, *pos = NULL, *keys = NULL;
  uint32_t *col = NULL, *w = NULL;
  ds_status st = DS_OK;
  if (g == NULL || edges == NULL)
    return ds_error_set(err, DS_ERR_ARG, "ds_csr_build: edges and g must not be NULL");
  memset(g, 0, sizeof *g);
  if (opt == NULL) {
    ds_load_options_default(&defaults);
    opt = &defaults;
  }
  st = check_edges(edges, opt, err);
  if (st == DS_OK) st = check_memory(edges->n, edges->count, symmetric, err);
  if (st != DS_OK) return st;
  const uint32_t n = edges->n;
  const int pattern = edges->weights == NULL;

  // 1. arcs per row -> offsets; each thread owns a range of rows and reads
  //    every edge, so no two threads write the same counter (no atomics)
  off = ds_calloc_big((size_t)n + 1, sizeof *off);
  if (off == NULL) goto nomem;
  const uint64_t count = edges->count;
  const uint32_t *src = edges->src, *dst = edges->dst;
  const int threads = count > PARALLEL_MIN_EDGES ? max_threads() : 1;
  (void)threads; /* unused when built without OpenMP */
#pragma omp parallel num_threads(threads)
  {
    const uint32_t lo = row_split(NULL, n, thread_id(), thread_count());
    const uint32_t span = row_split(NULL, n, thread_id() + 1, thread_count()) - lo;
    for (uint64_t i = 0; i < count; i++) {
      uint32_t u = src[i], v = dst[i];
      if (u == v) continue;
      if (u - lo < span) off[u + 1]++;
      if (symmetric && v - lo < span) off[v + 1]++;
    }
  }
  for (uint32_t v = 0; v < n; v++) off[v + 1] += off[v];
  const uint64_t arcs = off[n];
  ds_progress_update(prog, "build CSR", 0.2);

  // 2. scatter (column, weight) keys into their rows, the same way; rows are
  //    split between threads by arcs, not by count, for skewed degrees
  pos = ds_alloc_big(((size_t)n + 1) * sizeof *pos);
  keys = ds_alloc_big((arcs ? arcs : 1) * sizeof *keys);
  if (pos == NULL || keys == NULL) goto nomem;
  memcpy(pos, off, ((size_t)n + 1) * sizeof *pos);
#pragma omp parallel num_threads(threads)
  {
    const uint32_t lo = row_split(off, n, thread_id(), thread_count());
    const uint32_t span = row_split(off, n, thread_id() + 1, thread_count()) - lo;
    for (uint64_t i = 0; i < count; i++) {
      uint32_t u = src[i], v = dst[i];
      int mine_u = u - lo < span, mine_v = symmetric && v - lo < span;
      if (u == v || !(mine_u || mine_v)) continue;
      uint32_t wb = pattern ? ds_pattern_weight(opt->seed, u, v, opt->weight_min,
                                                opt->weight_max, opt->weight_dist)
                            : weight_bits(edges, i);
      if (mine_u) keys[pos[u]++] = ((uint64_t)v << WEIGHT_BITS) | wb;
      if (mine_v) keys[pos[v]++] = ((uint64_t)u << WEIGHT_BITS) | wb;
    }
  }

  ds_progress_update(prog, "build CSR", 0.6);

  // 3. sort each row and keep the first key of every column (in parallel, the
  //    kept count of row v into pos[v]), then compact the rows in order
#pragma omp parallel for schedule(dynamic, ROWS_PER_TASK) if (arcs > PARALLEL_MIN_EDGES)
  for (uint32_t v = 0; v < n; v++) {
    uint64_t b = off[v], e = off[v + 1], kept = b;
    ds_sort_u64(keys + b, (size_t)(e - b));
    for (uint64_t j = b; j < e; j++)
      if (j == b || (keys[j] >> WEIGHT_BITS) != (keys[j - 1] >> WEIGHT_BITS)) keys[kept++] = keys[j];
    pos[v] = kept - b;
  }
  uint64_t out = 0;
  for (uint32_t v = 0; v < n; v++) {
    uint64_t b = off[v];
    off[v] = out;
    if (out != b) memmove(keys + out, keys + b, pos[v] * sizeof *keys);
    out += pos[v];
  }
  off[n] = out;
  free(pos);
  pos = NULL;

  ds_progress_update(prog, "build CSR", 0.9);

  // 4. split the keys into columns and weights; the weights reuse the key buffer
  col = ds_alloc_big((out ? out : 1) * sizeof *col);
  if (col == NULL) goto nomem;
  for (uint64_t j = 0; j < out; j++) {
    uint64_t k = keys[j];
    uint32_t wb = (uint32_t)k;
    col[j] = (uint32_t)(k >> WEIGHT_BITS);
    memcpy((char *)keys + j * sizeof wb, &wb, sizeof wb); /* behind the keys still to read */
  }
  w = realloc(keys, (out ? out : 1) * sizeof *w);
  if (w == NULL) goto nomem;
  keys = NULL;

  g->n = n;
  g->m = out;
  g->row_offsets = off;
  g->col = col;
  g->weights = w;
  ds_csr_describe(edges, symmetric, opt, g);
  return DS_OK;

nomem:
  free(off);
  free(pos);
  free(col);
  free(w);
  free(keys);
  return ds_error_set(err, DS_ERR_NOMEM, "out of memory building a CSR of %u vertices and %llu "
                      "edges", n, (unsigned long long)edges->count);
}
