/* Dijkstra's algorithm with an indexed binary heap (decrease-key): the CPU
 * oracle that every other SSSP result is checked against.
 *
 * Both weight types run through one code path on 64-bit keys: integer
 * distances are their own keys, exact at any width (a simple path of uint32_t
 * weights stays below 2^64), float distances are the bit patterns of
 * non-negative floats, whose unsigned order is the order of the values (+inf
 * included). The keys are narrowed to the width asked for at the end, where
 * a distance that does not fit is DS_ERR_RANGE.
 *
 * With targets (params->targets) the search stops once the last of them
 * leaves the heap: its distance is final then, and so is every vertex's on its
 * predecessor path, each of which left the heap before it.
 *
 * Invariants: a vertex leaves the heap with its final distance; pred[v] is the
 * vertex whose relaxation last lowered dist[v], which was popped before v, so
 * the predecessors form a tree even with zero weights.
 * Limits: O((n + m) log n) time, O(n) scratch.
 */
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "sssp.h"
#include "sssp_keys.h"

#define HEAP_ABSENT UINT32_MAX /* heap position of a vertex not in the heap */

typedef struct {
  uint32_t *items;   /* heap of vertices, ordered by key[] */
  uint32_t *pos;     /* pos[v]: index of v in items, or HEAP_ABSENT */
  const uint64_t *key;
  uint32_t size;
} index_heap;

static void heap_swap(index_heap *h, uint32_t i, uint32_t j) {
  uint32_t a = h->items[i], b = h->items[j];
  h->items[i] = b;
  h->items[j] = a;
  h->pos[b] = i;
  h->pos[a] = j;
}

static void heap_up(index_heap *h, uint32_t i) {
  while (i > 0) {
    uint32_t parent = (i - 1) / 2;
    if (h->key[h->items[parent]] <= h->key[h->items[i]]) break;
    heap_swap(h, i, parent);
    i = parent;
  }
}

static void heap_down(index_heap *h, uint32_t i) {
  for (;;) {
    uint32_t l = 2 * i + 1, r = l + 1, best = i;
    if (l < h->size && h->key[h->items[l]] < h->key[h->items[best]]) best = l;
    if (r < h->size && h->key[h->items[r]] < h->key[h->items[best]]) best = r;
    if (best == i) break;
    heap_swap(h, i, best);
    i = best;
  }
}

/* Inserts v, or moves it up after its key decreased. */
static void heap_push_or_decrease(index_heap *h, uint32_t v) {
  if (h->pos[v] == HEAP_ABSENT) {
    h->items[h->size] = v;
    h->pos[v] = h->size;
    h->size++;
  }
  heap_up(h, h->pos[v]);
}

static uint32_t heap_pop(index_heap *h) {
  uint32_t top = h->items[0];
  h->size--;
  if (h->size > 0) {
    h->items[0] = h->items[h->size];
    h->pos[h->items[0]] = 0;
    heap_down(h, 0);
  }
  h->pos[top] = HEAP_ABSENT;
  return top;
}

ds_status ds_sssp_dijkstra(const ds_graph *g, uint32_t source, const ds_sssp_params *params,
                           ds_sssp_result *res, ds_error *err) {
  ds_status st = DS_OK;
  uint64_t *key = NULL;
  unsigned char *is_target = NULL;
  index_heap heap = {NULL, NULL, NULL, 0};

  // 1. check arguments
  if (g == NULL || res == NULL || res->dist == NULL)
    return ds_error_set(err, DS_ERR_ARG, "dijkstra: graph, result or dist is NULL");
  if (source >= g->n)
    return ds_error_set(err, DS_ERR_ARG, "source %u is out of range: the graph has %u vertices",
                        source, g->n);
  int want_pred = params != NULL && params->want_pred && res->pred != NULL;
  int is_float = g->weight_type == DS_WEIGHT_F32;
  int wide = params != NULL && params->dist_width == DS_DIST_WIDE;
  if (wide && is_float)
    return ds_error_set(err, DS_ERR_ARG, "dijkstra: 64-bit distances need integer weights");
  const uint32_t n_targets = params != NULL && params->targets != NULL ? params->n_targets : 0;
  for (uint32_t i = 0; i < n_targets; i++)
    if (params->targets[i] >= g->n)
      return ds_error_set(err, DS_ERR_ARG, "target %u is out of range: the graph has %u vertices",
                          params->targets[i], g->n);
  double t0 = omp_get_wtime();

  // 2. allocate scratch
  key = (uint64_t *)malloc((size_t)g->n * sizeof(uint64_t));
  heap.items = (uint32_t *)malloc((size_t)g->n * sizeof(uint32_t));
  heap.pos = (uint32_t *)malloc((size_t)g->n * sizeof(uint32_t));
  if (key == NULL || heap.items == NULL || heap.pos == NULL) {
    st = ds_error_set(err, DS_ERR_NOMEM, "dijkstra: out of memory for %u vertices", g->n);
    goto cleanup;
  }
  heap.key = key;
  /* the targets not yet settled: one mark a vertex, so that a pop costs one load */
  uint32_t pending = 0;
  if (n_targets > 0) {
    if ((is_target = (unsigned char *)calloc(g->n, 1)) == NULL) {
      st = ds_error_set(err, DS_ERR_NOMEM, "dijkstra: out of memory for %u vertices", g->n);
      goto cleanup;
    }
    for (uint32_t i = 0; i < n_targets; i++) {
      pending += !is_target[params->targets[i]];
      is_target[params->targets[i]] = 1;
    }
  }

  // 3. initialise: everything unreached, the source at 0
  const uint64_t inf_key = is_float ? ds_key_inf(1) : DS_INF_U64;
  for (uint32_t v = 0; v < g->n; v++) {
    key[v] = inf_key;
    heap.pos[v] = HEAP_ABSENT;
  }
  if (want_pred)
    for (uint32_t v = 0; v < g->n; v++) res->pred[v] = DS_NO_PRED;
  key[source] = 0;
  heap_push_or_decrease(&heap, source);

  // 4. settle vertices in order of distance
  const uint32_t *wu = (const uint32_t *)g->weights; /* integer weights */
  const float *wf = (const float *)g->weights;       /* float weights */
  uint64_t pops = 0, scanned = 0;
  int stopped = 0;
  while (heap.size > 0) {
    uint32_t u = heap_pop(&heap);
    pops++;
    if (is_target != NULL && is_target[u] && --pending == 0) {
      stopped = 1;
      break;
    }
    uint64_t du = key[u];
    for (uint64_t e = g->row_offsets[u]; e < g->row_offsets[u + 1]; e++) {
      uint32_t v = g->col[e];
      uint64_t nk = is_float ? ds_key_add_f32((uint32_t)du, wf[e]) : du + wu[e];
      if (nk < key[v]) {
        key[v] = nk;
        if (want_pred) res->pred[v] = u;
        heap_push_or_decrease(&heap, v);
      }
    }
    scanned += g->row_offsets[u + 1] - g->row_offsets[u];
  }

  // 5. hand out the distances at the width asked for, and the counters
  if (wide) {
    memcpy(res->dist, key, (size_t)g->n * sizeof(uint64_t));
  } else {
    const uint64_t too_far = is_float ? ds_key_sat(1) : (uint64_t)DS_DIST_MAX_U32 + 1;
    uint32_t *out = (uint32_t *)res->dist; /* float results are their keys' bits */
    for (uint32_t v = 0; v < g->n; v++) {
      if (key[v] >= too_far && key[v] != inf_key) {
        st = ds_dist_range_error(g, v, err);
        goto cleanup;
      }
      out[v] = (uint32_t)key[v];
    }
  }
  res->time_ms = (omp_get_wtime() - t0) * 1e3;
  res->rounds = pops;
  res->edges_relaxed = scanned;
  res->stopped_early = stopped;
  ds_sssp_count_reached(g, wide ? DS_DIST_WIDE : DS_DIST_NATURAL, res);

cleanup:
  free(key);
  free(is_target);
  free(heap.items);
  free(heap.pos);
  return st;
}
