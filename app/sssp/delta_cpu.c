/* Parallel delta-stepping on the CPU with OpenMP (Meyer and Sanders 2003, in
 * the style of the GAP Benchmark Suite's sssp.cc): the backend used where no
 * GPU is present.
 *
 * Vertices wait in buckets of width delta by tentative distance. The lowest
 * non-empty bucket is the frontier: its vertices relax all their out-arcs
 * (atomic min by compare-and-swap), and every vertex whose distance dropped
 * is pushed into the relaxing thread's own bucket for the new distance. A
 * bucket is repeated while relaxations refill it (light arcs).
 *
 * Buckets are kept over a sliding window of WINDOW_BUCKETS buckets plus one
 * "far" bucket for everything beyond it, so memory does not grow with
 * max_distance / delta; when only the far bucket is left, the window moves to
 * its lowest distance and the far entries are redistributed.
 *
 * Tiny frontiers (a few dozen vertices) are processed by one thread while the
 * others wait at a single barrier: a parallel round costs three barriers, more
 * than relaxing a few dozen vertices. Anything larger runs in parallel,
 * because after its share of a parallel round a thread relaxes the entries it
 * put into the current bucket itself while they are few (bucket fusion, see
 * fuse), which the one-thread rounds cannot: on road networks that saves most
 * of the rounds, and keeps the other threads from waiting out long runs of
 * one-thread rounds.
 *
 * Invariants: a vertex's distance and predecessor live in one 64-bit word
 * (key << 32 | pred) replaced by compare-and-swap only by a strictly smaller
 * distance, so the predecessor always belongs to the distance and the
 * predecessors form a tree even with zero weights. With 64-bit distances
 * (graphs whose paths may not fit 32 bits) the word holds the distance alone,
 * and the predecessors are taken afterwards from tight arcs in breadth-first
 * order, which again gives a tree. Stale queue entries (the
 * vertex's distance has since dropped into a lower, already processed bucket)
 * are skipped. Distances are deterministic; predecessors may differ between
 * runs among equally short paths.
 */
#include <math.h>
#include <omp.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "sssp.h"
#include "sssp_keys.h"

#define WINDOW_BUCKETS 64u      /* buckets in the window; slot WINDOW_BUCKETS is "far" */
#define SLOTS (WINDOW_BUCKETS + 1)
/* Frontiers up to this size run on one thread. NY at delta 1024 (weights 1..255) ran 528 of its
 * 566 rounds (62K of the frontiers' 104K vertices) on one thread with 512; 2 threads, ms, NY /
 * BAY / COL, three interleaved runs: 512: 10.1-12.6 / 11.1-12.3 / 18.6-20.9; 64: 9.3-9.7 /
 * 10.8-11.2 / 14.8-15.3; 0: 9.1-9.6 / 10.6-11.3 / 14.3-15.3 (grid, geometric and Kronecker
 * graphs unchanged). With 16 threads the one-thread rounds leave 15 waiting. */
#define SERIAL_FRONTIER 64
#define FRONTIER_CHUNK 64       /* vertices per OpenMP dynamic chunk */
#define BIN_INITIAL_CAP 256     /* first allocation of a bucket */
#define FUSE_LIMIT 1024         /* bucket fusion: own entries of the bucket relaxed while fewer */
#define NO_SLOT UINT32_MAX      /* "no non-empty bucket" */
#define MAX_BUCKET_INDEX ((double)(UINT64_MAX / 2)) /* clamp of float bucket indices */

typedef struct {
  uint32_t *items;
  size_t len, cap;
} bin;

/* The state shared by the team. */
typedef struct {
  const ds_graph *g;
  int is_float;
  int wide;               /* 64-bit distances: cell holds the key alone */
  uint64_t delta_u32;     /* integer bucket width */
  double delta_f32;       /* float bucket width */
  _Atomic uint64_t *cell; /* per vertex: key << 32 | pred */
  _Atomic uint32_t *relaxed_key; /* per vertex: the key its arcs were last relaxed with */
  _Atomic uint64_t *relaxed_wide; /* the same, with 64-bit distances */
  bin *bins;              /* SLOTS per thread */
  int team;
  uint32_t *frontier;
  size_t frontier_len, frontier_cap;
  int serial_next;        /* the next round is one thread's (the frontier is small): decided in
                             the single that plans the frontier, read by every thread after the
                             next barrier, and not written by the one-thread rounds */
  size_t *offsets;        /* team + 1: where each thread's entries go in the frontier */
  uint64_t *thread_min;   /* team: lowest live far bucket per thread */
  uint64_t base;          /* bucket index of window slot 0 */
  uint32_t cur, next;     /* slot being processed, slot to process next */
  size_t fuse_limit;      /* fuse while a bin is smaller; 1: never */
  int done;
  atomic_int oom;
  uint64_t rounds;
} dstate;

static uint64_t bucket_of(const dstate *s, uint64_t key) {
  if (!s->is_float) return key / s->delta_u32;
  double b = floor((double)ds_key_to_f32((uint32_t)key) / s->delta_f32);
  return b >= MAX_BUCKET_INDEX ? (uint64_t)MAX_BUCKET_INDEX : (uint64_t)b;
}

static uint64_t key_of(const dstate *s, uint32_t v) {
  uint64_t c = atomic_load_explicit(&s->cell[v], memory_order_relaxed);
  return s->wide ? c : c >> 32;
}

/* Window slot of a bucket index relative to base: far beyond the window. */
static uint32_t slot_of(uint64_t bucket, uint64_t base) {
  uint64_t rel = bucket - base;
  return rel >= WINDOW_BUCKETS ? WINDOW_BUCKETS : (uint32_t)rel;
}

static bin *bins_of(dstate *s, int tid) { return s->bins + (size_t)tid * SLOTS; }

/* Appends v; records running out of memory. */
static void bin_push(dstate *s, bin *b, uint32_t v) {
  if (b->len == b->cap) {
    size_t cap = b->cap ? 2 * b->cap : BIN_INITIAL_CAP;
    uint32_t *p = (uint32_t *)realloc(b->items, cap * sizeof(uint32_t));
    if (p == NULL) {
      atomic_store(&s->oom, 1);
      return;
    }
    b->items = p;
    b->cap = cap;
  }
  b->items[b->len++] = v;
}

/* Lowers v's cell to (nk, u) if nk is smaller; 1 when it did. */
static int lower_narrow(dstate *s, uint32_t v, uint32_t nk, uint32_t u) {
  uint64_t old = atomic_load_explicit(&s->cell[v], memory_order_relaxed);
  const uint64_t desired = ((uint64_t)nk << 32) | u;
  while ((uint32_t)(old >> 32) > nk)
    if (atomic_compare_exchange_weak_explicit(&s->cell[v], &old, desired, memory_order_relaxed,
                                              memory_order_relaxed))
      return 1;
  return 0;
}

/* Relaxes the out-arcs of u into the bins `mine`; returns the arcs scanned.
 * 32-bit keys: the cell is key << 32 | pred. The integer loop divides in 32
 * bits (keys and the normalised width fit), the float one goes through
 * bucket_of. */
static uint64_t relax_narrow(dstate *s, uint32_t u, bin *mine) {
  const ds_graph *g = s->g;
  uint32_t ku = (uint32_t)(atomic_load_explicit(&s->cell[u], memory_order_relaxed) >> 32);
  if (bucket_of(s, ku) < s->base + s->cur) return 0; /* stale: settled in a lower bucket */
  /* a duplicate entry: already relaxed with this distance. A plain load and
   * store, not an exchange: two threads that both pass only relax twice. */
  if (atomic_load_explicit(&s->relaxed_key[u], memory_order_relaxed) == ku) return 0;
  atomic_store_explicit(&s->relaxed_key[u], ku, memory_order_relaxed);
  const uint64_t first = g->row_offsets[u], last = g->row_offsets[u + 1];
  const uint32_t *col = g->col;
  const uint64_t base = s->base;
  if (s->is_float) {
    const float *wf = (const float *)g->weights;
    for (uint64_t e = first; e < last; e++) {
      const uint32_t v = col[e], nk = ds_key_add_f32(ku, wf[e]);
      if (lower_narrow(s, v, nk, u)) bin_push(s, &mine[slot_of(bucket_of(s, nk), base)], v);
    }
  } else {
    const uint32_t *wu = (const uint32_t *)g->weights;
    const uint32_t width = (uint32_t)s->delta_u32; /* at most UINT32_MAX once normalised */
    for (uint64_t e = first; e < last; e++) {
      const uint32_t v = col[e], nk = ds_key_add_u32(ku, wu[e]);
      if (lower_narrow(s, v, nk, u)) bin_push(s, &mine[slot_of(nk / width, base)], v);
    }
  }
  return last - first;
}

/* The same with 64-bit keys: the cell is the key alone, sums are exact. */
static uint64_t relax_wide(dstate *s, uint32_t u, bin *mine) {
  const ds_graph *g = s->g;
  uint64_t ku = atomic_load_explicit(&s->cell[u], memory_order_relaxed);
  if (bucket_of(s, ku) < s->base + s->cur) return 0;
  if (atomic_load_explicit(&s->relaxed_wide[u], memory_order_relaxed) == ku) return 0;
  atomic_store_explicit(&s->relaxed_wide[u], ku, memory_order_relaxed);
  const uint32_t *wu = (const uint32_t *)g->weights;
  for (uint64_t e = g->row_offsets[u]; e < g->row_offsets[u + 1]; e++) {
    uint32_t v = g->col[e];
    uint64_t nk = ku + wu[e]; /* a simple path stays below 2^64 */
    uint64_t old = atomic_load_explicit(&s->cell[v], memory_order_relaxed);
    while (old > nk) {
      if (atomic_compare_exchange_weak_explicit(&s->cell[v], &old, nk, memory_order_relaxed,
                                                memory_order_relaxed)) {
        bin_push(s, &mine[slot_of(bucket_of(s, nk), s->base)], v);
        break;
      }
    }
  }
  return g->row_offsets[u + 1] - g->row_offsets[u];
}

static uint64_t relax_vertex(dstate *s, uint32_t u, bin *mine) {
  return s->wide ? relax_wide(s, u, mine) : relax_narrow(s, u, mine);
}

/* Bucket fusion (Beamer, Asanovic and Patterson, "The GAP Benchmark Suite";
 * Dhulipala, Blelloch and Shun, "Julienne"): after its share of a round, a
 * thread goes on relaxing the vertices it put into the current bucket itself,
 * in arrival order, while they are fewer than FUSE_LIMIT, instead of waiting
 * for the next round's barriers; a larger bin is left for a parallel round.
 * The one-thread rounds do without: they wait at no barrier.
 * Any order is correct within a bucket: relaxation only lowers distances, and
 * whatever lands in the bucket again is relaxed again. Returns arcs scanned. */
static uint64_t fuse(dstate *s, int tid, size_t limit) {
  bin *mine = bins_of(s, tid);
  bin *b = &mine[s->cur];
  uint64_t scanned = 0;
  size_t head = 0;
  while (head < b->len && b->len - head < limit &&
         !atomic_load_explicit(&s->oom, memory_order_relaxed))
    scanned += relax_vertex(s, b->items[head++], mine); /* may append to b */
  if (head == b->len) b->len = 0;
  else if (head > 0) {
    memmove(b->items, b->items + head, (b->len - head) * sizeof(uint32_t));
    b->len -= head;
  }
  return scanned;
}

/* The lowest slot >= from that some thread holds entries in, or NO_SLOT. */
static uint32_t next_slot(dstate *s, uint32_t from) {
  for (uint32_t k = from; k < SLOTS; k++)
    for (int t = 0; t < s->team; t++)
      if (bins_of(s, t)[k].len > 0) return k;
  return NO_SLOT;
}

/* Lowest live bucket among thread t's far entries (UINT64_MAX if none). */
static uint64_t far_min(dstate *s, int t) {
  bin *far = &bins_of(s, t)[WINDOW_BUCKETS];
  uint64_t lo = UINT64_MAX;
  for (size_t i = 0; i < far->len; i++) {
    uint64_t b = bucket_of(s, key_of(s, far->items[i]));
    if (b >= s->base + WINDOW_BUCKETS && b < lo) lo = b;
  }
  return lo;
}

/* Moves thread t's far entries into its bins of the window at new_base. */
static void far_redistribute(dstate *s, int t, uint64_t new_base) {
  bin *mine = bins_of(s, t);
  bin old = mine[WINDOW_BUCKETS];
  mine[WINDOW_BUCKETS].items = NULL;
  mine[WINDOW_BUCKETS].len = mine[WINDOW_BUCKETS].cap = 0;
  for (size_t i = 0; i < old.len; i++) {
    uint64_t b = bucket_of(s, key_of(s, old.items[i]));
    if (b < s->base + WINDOW_BUCKETS) continue; /* stale: handled in the window */
    bin_push(s, &mine[slot_of(b, new_base)], old.items[i]);
  }
  free(old.items);
}

/* After a round: picks the next slot (serial). 1 when the window must move. */
static int choose_next(dstate *s) {
  s->rounds++;
  s->next = next_slot(s, s->cur);
  s->done = atomic_load(&s->oom) || s->next == NO_SLOT;
  return !s->done && s->next == WINDOW_BUCKETS;
}

/* Moves the window to new_base once the far entries are redistributed (serial). */
static void finish_rebase(dstate *s, uint64_t new_base) {
  s->base = new_base;
  s->cur = 0;
  s->next = next_slot(s, 0);
  s->done = atomic_load(&s->oom) || s->next == NO_SLOT;
}

/* Plans the gathering of slot `next` into the frontier (serial). */
static void plan_gather(dstate *s) {
  s->offsets[0] = 0;
  for (int t = 0; t < s->team; t++)
    s->offsets[t + 1] = s->offsets[t] + bins_of(s, t)[s->next].len;
  s->frontier_len = s->offsets[s->team];
  if (s->frontier_len > s->frontier_cap) {
    uint32_t *p = (uint32_t *)realloc(s->frontier, s->frontier_len * sizeof(uint32_t));
    if (p == NULL) {
      atomic_store(&s->oom, 1);
      s->done = 1;
      return;
    }
    s->frontier = p;
    s->frontier_cap = s->frontier_len;
  }
  s->cur = s->next;
}

/* Copies thread t's entries of the current slot into the frontier. */
static void gather(dstate *s, int t) {
  bin *b = &bins_of(s, t)[s->cur];
  if (b->len > 0) memcpy(s->frontier + s->offsets[t], b->items, b->len * sizeof(uint32_t));
  b->len = 0;
}

/* One thread runs rounds while the frontier is small; returns arcs scanned. */
static uint64_t serial_rounds(dstate *s, int tid, size_t limit) {
  uint64_t scanned = 0;
  while (!s->done && s->frontier_len <= limit) {
    for (size_t i = 0; i < s->frontier_len; i++)
      scanned += relax_vertex(s, s->frontier[i], bins_of(s, tid));
    if (choose_next(s)) {
      uint64_t lo = UINT64_MAX;
      for (int t = 0; t < s->team; t++) {
        uint64_t m = far_min(s, t);
        if (m < lo) lo = m;
      }
      for (int t = 0; t < s->team; t++) far_redistribute(s, t, lo);
      finish_rebase(s, lo);
    }
    if (s->done) break;
    plan_gather(s);
    if (s->done) break;
    for (int t = 0; t < s->team; t++) gather(s, t);
  }
  return scanned;
}

/* Predecessors from final 64-bit distances: a breadth-first walk from the
 * source over tight arcs (dist[v] == dist[u] + w) gives every reached vertex a
 * tight arc from a vertex found before it, so they form a tree even where zero
 * weights make cycles of tight arcs. */
static ds_status tight_tree(const ds_graph *g, uint32_t source, const uint64_t *dist,
                            uint32_t *pred, ds_error *err) {
  uint32_t *queue = (uint32_t *)malloc((size_t)g->n * sizeof(uint32_t));
  if (queue == NULL)
    return ds_error_set(err, DS_ERR_NOMEM, "cpu-delta: out of memory for %u vertices", g->n);
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

ds_status ds_sssp_cpu_delta(const ds_graph *g, uint32_t source, const ds_sssp_params *params,
                            ds_sssp_result *res, ds_error *err) {
  ds_status st = DS_OK;
  dstate s;
  memset(&s, 0, sizeof s);

  // 1. check arguments
  if (g == NULL || params == NULL || res == NULL || res->dist == NULL)
    return ds_error_set(err, DS_ERR_ARG, "cpu-delta: graph, params, result or dist is NULL");
  if (source >= g->n)
    return ds_error_set(err, DS_ERR_ARG, "source %u is out of range: the graph has %u vertices",
                        source, g->n);
  if (!(params->delta > 0.0) || !isfinite(params->delta))
    return ds_error_set(err, DS_ERR_ARG, "delta %g must be positive and finite", params->delta);
  s.g = g;
  s.is_float = g->weight_type == DS_WEIGHT_F32;
  s.wide = params->dist_width == DS_DIST_WIDE;
  if (s.wide && s.is_float)
    return ds_error_set(err, DS_ERR_ARG, "cpu-delta: 64-bit distances need integer weights");
  s.delta_f32 = params->delta;
  s.delta_u32 = (uint64_t)ds_delta_normalize(DS_WEIGHT_U32, params->delta);
  s.fuse_limit = params->cpu_fuse_limit > 0 ? params->cpu_fuse_limit : FUSE_LIMIT;
  int want_pred = params->want_pred && res->pred != NULL;
  int nthreads = params->threads > 0 ? params->threads : omp_get_max_threads();
  double t0 = omp_get_wtime();

  // 2. allocate: distances, per-thread bins, the shared frontier
  s.cell = (_Atomic uint64_t *)malloc((size_t)g->n * sizeof(*s.cell));
  if (s.wide)
    s.relaxed_wide = (_Atomic uint64_t *)malloc((size_t)g->n * sizeof(*s.relaxed_wide));
  else
    s.relaxed_key = (_Atomic uint32_t *)malloc((size_t)g->n * sizeof(*s.relaxed_key));
  s.bins = (bin *)calloc((size_t)nthreads * SLOTS, sizeof(bin));
  s.thread_min = (uint64_t *)malloc((size_t)nthreads * sizeof(uint64_t));
  s.offsets = (size_t *)malloc(((size_t)nthreads + 1) * sizeof(size_t));
  s.frontier_cap = BIN_INITIAL_CAP;
  s.frontier = (uint32_t *)malloc(s.frontier_cap * sizeof(uint32_t));
  if (s.cell == NULL || (s.relaxed_key == NULL && s.relaxed_wide == NULL) || s.bins == NULL ||
      s.thread_min == NULL || s.offsets == NULL || s.frontier == NULL) {
    st = ds_error_set(err, DS_ERR_NOMEM, "cpu-delta: out of memory for %u vertices", g->n);
    goto cleanup;
  }
  /* inf is never relaxed with, since an unreached vertex is not queued */
  const uint32_t inf_key = ds_key_inf(s.is_float);
  const uint64_t inf_cell = s.wide ? DS_INF_U64 : ((uint64_t)inf_key << 32) | DS_NO_PRED;
  /* first touch by the team that will use the pages (NUMA: each thread's part
   * of the arrays lands on its node), with a static schedule */
#pragma omp parallel for num_threads(nthreads) schedule(static)
  for (uint32_t v = 0; v < g->n; v++) {
    atomic_init(&s.cell[v], inf_cell);
    if (s.wide) atomic_init(&s.relaxed_wide[v], DS_INF_U64);
    else atomic_init(&s.relaxed_key[v], inf_key);
  }
  atomic_store(&s.cell[source], s.wide ? 0 : (uint64_t)DS_NO_PRED); /* key 0, no predecessor */
  atomic_init(&s.oom, 0);
  s.frontier[0] = source;
  s.frontier_len = 1;
  s.serial_next = 1;
  uint64_t scanned = 0;

  // 3. the bucket loop, in one parallel region
#pragma omp parallel num_threads(nthreads) reduction(+ : scanned)
  {
    const int tid = omp_get_thread_num();
#pragma omp single
    s.team = omp_get_num_threads();
    const size_t serial_limit = s.team == 1 ? SIZE_MAX : SERIAL_FRONTIER;
    for (;;) {
      // 3a. small frontiers: one thread, the others wait here. Every thread reads the same
      // serial_next (frontier_len would not do: the single's thread changes it while others
      // are still on their way), so all or none enter the single, and a large frontier goes
      // to 3b without the single's barrier.
      if (s.serial_next) {
#pragma omp single
        scanned += serial_rounds(&s, tid, serial_limit);
      }
      if (s.done) break;
      // 3b. a large frontier: relax in parallel
#pragma omp for schedule(dynamic, FRONTIER_CHUNK) nowait
      for (size_t i = 0; i < s.frontier_len; i++)
        scanned += relax_vertex(&s, s.frontier[i], bins_of(&s, tid));
      scanned += fuse(&s, tid, s.fuse_limit);
#pragma omp barrier
      // 3c. the next slot (the same one again while light arcs refill it)
      int rebase;
#pragma omp single copyprivate(rebase)
      {
        rebase = choose_next(&s);
        if (!rebase && !s.done) plan_gather(&s);
        s.serial_next = s.frontier_len <= serial_limit;
      }
      if (s.done) break;
      // 3d. only the far bucket is left: move the window to its lowest live entry
      if (rebase) {
        s.thread_min[tid] = far_min(&s, tid);
#pragma omp barrier
        uint64_t lo = UINT64_MAX;
        for (int t = 0; t < s.team; t++)
          if (s.thread_min[t] < lo) lo = s.thread_min[t];
        far_redistribute(&s, tid, lo);
#pragma omp barrier
#pragma omp single
        {
          finish_rebase(&s, lo);
          if (!s.done) plan_gather(&s);
          s.serial_next = s.frontier_len <= serial_limit;
        }
        if (s.done) break;
      }
      // 3e. gather every thread's entries of the slot into the frontier
      gather(&s, tid);
#pragma omp barrier
    }
  }
  if (atomic_load(&s.oom)) {
    st = ds_error_set(err, DS_ERR_NOMEM, "cpu-delta: out of memory for the buckets");
    goto cleanup;
  }

  // 4. hand out distances, predecessors and counters
  if (s.wide) {
    uint64_t *dist = (uint64_t *)res->dist;
#pragma omp parallel for num_threads(nthreads) schedule(static)
    for (uint32_t v = 0; v < g->n; v++)
      dist[v] = atomic_load_explicit(&s.cell[v], memory_order_relaxed);
    if (want_pred) {
      st = tight_tree(g, source, dist, res->pred, err);
      if (st != DS_OK) goto cleanup;
    }
  } else {
    const uint32_t sat_key = ds_key_sat(s.is_float);
    uint32_t *dist_keys = (uint32_t *)res->dist; /* float results are their keys' bits */
    uint32_t first_sat = UINT32_MAX; /* the lowest vertex whose distance overflowed */
#pragma omp parallel for num_threads(nthreads) schedule(static) reduction(min : first_sat)
    for (uint32_t v = 0; v < g->n; v++) {
      uint64_t c = atomic_load_explicit(&s.cell[v], memory_order_relaxed);
      dist_keys[v] = (uint32_t)(c >> 32);
      if (want_pred) res->pred[v] = (uint32_t)c;
      if (dist_keys[v] == sat_key && v < first_sat) first_sat = v;
    }
    if (first_sat != UINT32_MAX) {
      st = ds_dist_range_error(g, first_sat, err);
      goto cleanup;
    }
  }
  res->time_ms = (omp_get_wtime() - t0) * 1e3;
  res->rounds = s.rounds;
  res->edges_relaxed = scanned;
  ds_sssp_count_reached(g, params->dist_width, res);

cleanup:
  if (s.bins != NULL)
    for (size_t i = 0; i < (size_t)nthreads * SLOTS; i++) free(s.bins[i].items);
  free(s.bins);
  free(s.thread_min);
  free(s.offsets);
  free(s.frontier);
  free((void *)s.cell);
  free((void *)s.relaxed_key);
  free((void *)s.relaxed_wide);
  return st;
}
