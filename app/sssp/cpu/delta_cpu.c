/* Parallel delta-stepping on the CPU with OpenMP (Meyer and Sanders 2003, in
 * the style of the GAP Benchmark Suite's sssp.cc): the backend used where no
 * GPU is present.
 *
 * Vertices wait in buckets of width delta by tentative distance. The lowest
 * non-empty bucket is the frontier: its vertices relax all their out-arcs
 * (atomic min by compare-and-swap; a team of one thread loads and stores),
 * and every vertex whose distance dropped is pushed into the relaxing thread's
 * own bin for the new distance's bucket. A bucket is repeated while
 * relaxations refill it (light arcs).
 *
 * A bin holds a sub-bucket, SUB_BUCKETS of them to a bucket: a round gathers
 * the whole bucket, but a thread relaxes its own entries sub-bucket by
 * sub-bucket (fuse_round), so that few vertices are relaxed before a shorter
 * path in their bucket reaches them. Bins are kept over a sliding window of
 * WINDOW_BUCKETS sub-buckets plus one "far" bin for everything beyond it, so
 * memory does not grow with max_distance / delta; when only far entries are
 * left, the window moves to their lowest sub-bucket and they are redistributed.
 *
 * A round costs two barriers and no serial phase, whatever the team size:
 * after its share of the frontier each thread publishes its lowest non-empty
 * bin by an atomic min (barrier), then copies its bins of that bucket into the
 * shared frontier at an offset taken by an atomic add (barrier). The round's
 * counters are double-buffered by round parity, so the one that is reset is
 * never the one being read. Rounds are what cost with many threads, so they
 * are avoided where one thread can go on alone (bucket fusion, see fuse,
 * fuse_round and lone_walk): road networks otherwise take hundreds of rounds
 * of a few dozen vertices each. Chunks of the frontier are claimed by an
 * atomic add, and a chunk first offers its heavy vertices (more than
 * HEAVY_ARCS arcs), whose arcs the team then relaxes in pieces (help_heavy): a
 * Kronecker graph's hubs come in frontiers of a few dozen vertices, all of
 * which one chunk would give to one thread.
 *
 * Invariants: a vertex's distance and predecessor live in one 64-bit word
 * (key << 32 | pred) replaced by compare-and-swap only by a strictly smaller
 * distance, so the predecessor always belongs to the distance and the
 * predecessors form a tree even with zero weights. Where no predecessors are
 * asked, the word is the 32-bit key alone: half the bytes that relaxations
 * touch at random. With 64-bit distances
 * (graphs whose paths may not fit 32 bits) the word holds the distance alone,
 * and the predecessors are taken afterwards from tight arcs in breadth-first
 * order, which again gives a tree. An entry carries the key its vertex was
 * pushed with, and only the vertex's latest entry matches its cell: the
 * earlier ones are stale (the vertex waits, or waited, in a lower bucket or
 * later in this one) and are skipped, so a vertex is relaxed once per key it
 * takes into the bucket being processed, with no mark per vertex to read.
 * Distances are deterministic; predecessors may differ between runs among
 * equally short paths.
 */
#include <assert.h>
#include <math.h>
#include <omp.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "delta_cpu_relax.h"

#define SPINS_BEFORE_YIELD 4096 /* a helper's pauses before it yields the core */

static void pause_cpu(void) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

/* Bucket fusion (Beamer, Asanovic and Patterson, "The GAP Benchmark Suite";
 * Dhulipala, Blelloch and Shun, "Julienne"): after its share of a round, a
 * thread goes on relaxing the vertices it put into the current sub-bucket
 * itself, in arrival order, while they are fewer than `limit`, instead of
 * waiting for the next round's barriers; a larger bin is left for a parallel
 * round.
 * Any order is correct within a bucket: relaxation only lowers distances, and
 * whatever lands in the bucket again is relaxed again. Returns arcs scanned. */
static uint64_t fuse(const tctx *c, size_t limit) {
  bin *b = &c->mine[c->cur];
  size_t head = 0;
  const uint64_t scanned = relax_bin(c, b, &head, limit);
  if (head == b->len) b->len = 0;
  else if (head > 0) {
    memmove(b->items, b->items + head, (b->len - head) * sizeof(entry));
    b->len -= head;
  }
  return scanned;
}

/* A thread's fusion over the round's bucket, slots [c->lo, c->hi): its own entries sub-bucket
 * by sub-bucket, the lowest first, each while fewer than `limit` wait (fuse); a sub-bucket
 * that grows to the limit is left for a parallel round. In arrival order a vertex is relaxed
 * before the shorter paths that reach it later in the same bucket lower it again; by
 * sub-buckets that happens only within a sub-bucket, and the work is nearly that of the narrow
 * width while the rounds stay those of the wide one. Returns arcs scanned. */
static uint64_t fuse_round(tctx *c, size_t limit) {
  uint64_t scanned = 0;
  for (;;) {
    const uint32_t k = lowest_slot(c->mine, c->lo);
    if (k >= c->hi) return scanned;
    c->cur = k;
    if (c->mine[k].len >= limit || atomic_load_explicit(&c->s->oom, memory_order_relaxed))
      return scanned;
    scanned += fuse(c, limit);
    if (c->mine[k].len > 0) return scanned;
  }
}

/* Copies the thread's bins of the round's slots into the frontier from `at`, lowest first,
 * and empties them. */
static void copy_round(tctx *c, entry *at) {
  for (uint32_t k = c->lo; k < c->hi; k++) {
    bin *b = &c->mine[k];
    if (b->len == 0) continue; /* its items may be NULL, which memcpy may not be given */
    memcpy(at, b->items, b->len * sizeof(entry));
    at += b->len;
    b->len = 0;
  }
}

/* The vertices a search stops at (ds_sssp_params.targets), kept beside the
 * team's state: n is 0 where there are none. */
typedef struct {
  const uint32_t *v;
  uint32_t n;
  int stopped; /* the search stopped at them */
} target_set;

/* Whether every target's distance is final before bucket b is processed: no
 * bucket below b holds an entry, so every later relaxation yields a key in
 * bucket b or above, and a key in a lower bucket can no longer drop. */
static int targets_settled(const dstate *s, const target_set *t, uint64_t b) {
  if (t->n == 0) return 0;
  for (uint32_t i = 0; i < t->n; i++)
    if (bucket_of(s, key_of(s, t->v[i])) >= b) return 0;
  return 1;
}

/* The thread that held a whole frontier (one chunk: the others had nothing to
 * relax, so their bins are as they left them at the gather) goes on alone
 * through its next sub-buckets while they lie below every other thread's lowest
 * (others_low) and are small: a sequential delta-stepping with no barrier,
 * where a round would cost more than its few dozen relaxations. It stops at
 * the far bin, which needs the team. Returns arcs scanned. */
static uint64_t lone_walk(tctx *c, size_t fuse_limit, size_t lone_limit, uint32_t others_low,
                          const target_set *targets) {
  uint64_t scanned = fuse_round(c, fuse_limit);
  while (c->mine[c->cur].len == 0 && !atomic_load_explicit(&c->s->oom, memory_order_relaxed)) {
    uint32_t k = lowest_slot(c->mine, c->cur + 1);
    if (k >= WINDOW_BUCKETS || k >= others_low || c->mine[k].len >= lone_limit) break;
    if (targets_settled(c->s, targets, c->base + k)) break; /* the round after it stops the team */
    c->cur = k;
    scanned += fuse(c, lone_limit);
  }
  return scanned;
}

/* Lowest live bucket among the thread's far entries (UINT64_MAX if none). */
static uint64_t far_min(const tctx *c) {
  const bin *far = &c->mine[WINDOW_BUCKETS];
  uint64_t lo = UINT64_MAX, key;
  for (size_t i = 0; i < far->len; i++) {
    if (!entry_live(c->s, far->items[i], &key)) continue;
    uint64_t b = bucket_of(c->s, key);
    if (b >= c->base + WINDOW_BUCKETS && b < lo) lo = b;
  }
  return lo;
}

/* Moves the thread's far entries into its bins of the window at new_base. */
static void far_redistribute(tctx *c, uint64_t new_base) {
  bin old = c->mine[WINDOW_BUCKETS];
  c->mine[WINDOW_BUCKETS].items = NULL;
  c->mine[WINDOW_BUCKETS].len = c->mine[WINDOW_BUCKETS].cap = 0;
  uint64_t key;
  for (size_t i = 0; i < old.len; i++) {
    if (!entry_live(c->s, old.items[i], &key)) continue;
    uint64_t b = bucket_of(c->s, key);
    if (b < c->base + WINDOW_BUCKETS) continue; /* stale: handled in the window */
    bin_push(c->s, &c->mine[slot_of(b, new_base)], old.items[i]);
  }
  free(old.items);
  c->base = new_base;
}

/* Only far entries are left anywhere: every thread moves the window to the
 * lowest live far bucket (two barriers; rare). Returns the slot to process
 * next, the same for every thread, or NO_SLOT when the search is over (no
 * live entry, or out of memory). */
static uint32_t move_window(tctx *c, int tid) {
  dstate *s = c->s;
  uint64_t m = far_min(c);
  if (m != UINT64_MAX) atomic_min_u64(&s->far_lo.v, m);
#pragma omp barrier
  const uint64_t lo = atomic_load_explicit(&s->far_lo.v, memory_order_relaxed);
  if (lo == UINT64_MAX) return NO_SLOT;
  far_redistribute(c, lo);
  uint32_t low = lowest_slot(c->mine, 0);
  if (low != NO_SLOT) atomic_min_u64(&s->rebase_slot.v, low);
#pragma omp barrier
  /* far_lo is read by now; rebase_slot is reset after the gather's barrier */
  if (tid == 0) atomic_store_explicit(&s->far_lo.v, UINT64_MAX, memory_order_relaxed);
  if (atomic_load(&s->oom)) return NO_SLOT; /* no thread pushes between the barrier and here */
  return (uint32_t)atomic_load_explicit(&s->rebase_slot.v, memory_order_relaxed);
}

/* The gathered bucket did not fit the frontier (every thread saw the same
 * total and cap): one thread grows it, then the threads whose bins did not fit
 * copy them to the offsets they reserved. 0 when out of memory. */
static int grow_frontier(tctx *c, size_t total, size_t off, int deferred) {
  dstate *s = c->s;
#pragma omp single
  {
    size_t cap = total > 2 * s->frontier_cap ? total : 2 * s->frontier_cap;
    entry *p = (entry *)realloc(s->frontier, cap * sizeof(entry));
    if (p == NULL) atomic_store(&s->oom, 1);
    else {
      s->frontier = p;
      s->frontier_cap = cap;
    }
  }
  if (atomic_load(&s->oom)) return 0;
  if (deferred) copy_round(c, s->frontier + off);
#pragma omp barrier
  return 1;
}

/* Relaxes pieces of the heavy vertices offered this round until none is left,
 * looking until `wait` frontier entries have made their offers (a counter
 * released after them; 0: one look): a chunk does so before relaxing
 * anything, so the wait is short. Waiting threads pause, then yield, so that a team larger than the
 * cores does not starve the thread they wait for. Returns the arcs scanned. */
static uint64_t help_heavy(const tctx *c, size_t wait) {
  dstate *s = c->s;
  heavy_vertex *list = s->heavy + (size_t)c->parity * HEAVY_MAX;
  uint64_t scanned = 0;
  for (unsigned spins = 0;; spins++) {
    const int last_look =
        atomic_load_explicit(&s->offered[c->parity].v, memory_order_acquire) >= wait;
    uint64_t n = atomic_load_explicit(&s->heavy_count[c->parity].v, memory_order_relaxed);
    for (uint64_t i = 0; i < n && i < HEAVY_MAX; i++)
      if (atomic_load_explicit(&list[i].ready, memory_order_acquire) == c->round + 1)
        scanned += relax_heavy(c, &list[i]);
    if (last_look) return scanned;
    if (spins < SPINS_BEFORE_YIELD) pause_cpu();
    else sched_yield();
  }
}

/* One thread's part of the search: rounds until no bin holds anything; with
 * `share` (the same for every thread), heavy vertices are offered to the team;
 * it stops early once the targets are settled. Returns the arcs it scanned. */
static uint64_t search(dstate *s, int share, target_set *targets) {
  const int tid = omp_get_thread_num(), team = omp_get_num_threads();
  share = share && team > 1;
  tctx c = {s, s->tb[tid].bins, 0, 0, 0, 0, 0, 0, relax_kind(s, team)};
  c.hi = s->group; /* the source's round: slot 0 and the rest of its bucket */
  /* alone, a thread needs no rounds: it drains every bucket by fusion */
  const size_t fuse_limit = team == 1 ? SIZE_MAX : s->fuse_limit;
  const size_t lone_limit = team == 1 ? SIZE_MAX : s->lone_limit;
  uint64_t scanned = 0;
  for (unsigned p = 0;; p ^= 1, c.round++) {
    c.parity = p;
    // 1. relax the frontier (every thread read the same length after the last barrier)
    const size_t len = (size_t)atomic_load_explicit(&s->tail[p].v, memory_order_relaxed);
    entry *front = s->frontier;
    /* chunks claimed by an atomic add, as a dynamic schedule would, without setting up an
     * OpenMP work share every round */
    /* in a small frontier the heavy vertices are most of the round: every thread waits for
     * the offers of all chunks; in a large one the free threads look once */
    const int small = len <= (size_t)team * FRONTIER_CHUNK;
    int ran = 0;
    for (;;) {
      const size_t i0 = (size_t)atomic_fetch_add_explicit(&s->claimed[p].v, FRONTIER_CHUNK,
                                                          memory_order_relaxed);
      if (i0 >= len) break;
      const size_t i1 = len - i0 < FRONTIER_CHUNK ? len : i0 + FRONTIER_CHUNK;
      ran = 1;
      if (share) {
        scanned += offer_heavy(&c, front, i0, i1);
        if (small) atomic_fetch_add_explicit(&s->offered[p].v, i1 - i0, memory_order_release);
      }
      scanned += relax_list(&c, front, i0, i1);
    }
    // 2. every thread relaxes pieces of the heavy vertices offered
    if (share) scanned += help_heavy(&c, small ? len : 0);
    // 3. fusion: go on with the own entries of the bucket, and alone past it if the frontier
    // was one chunk that offered nothing (so the other threads' bins are as they were)
    if (ran && (team == 1 || (len <= FRONTIER_CHUNK &&
                              atomic_load_explicit(&s->heavy_count[p].v,
                                                   memory_order_relaxed) == 0))) {
      uint32_t others_low = NO_SLOT;
      for (int t = 0; t < team; t++)
        if (t != tid && s->tb[t].low < others_low) others_low = s->tb[t].low;
      scanned += lone_walk(&c, fuse_limit, lone_limit, others_low, targets);
    } else {
      scanned += fuse_round(&c, fuse_limit);
    }
    // 4. the next bucket: from the lowest sub-bucket that any thread holds (the same bucket
    // again while light arcs refill it)
    uint32_t low = lowest_slot(c.mine, c.lo);
    if (low != NO_SLOT) atomic_min_u64(&s->next_slot[p ^ 1].v, low);
#pragma omp barrier
    uint32_t next = (uint32_t)atomic_load_explicit(&s->next_slot[p ^ 1].v, memory_order_relaxed);
    if (tid == 0) { /* this round's counters are read by now; the next round writes the others */
      atomic_store_explicit(&s->next_slot[p].v, NO_SLOT, memory_order_relaxed);
      atomic_store_explicit(&s->tail[p].v, 0, memory_order_relaxed);
      atomic_store_explicit(&s->claimed[p].v, 0, memory_order_relaxed);
      atomic_store_explicit(&s->offered[p].v, 0, memory_order_relaxed);
      atomic_store_explicit(&s->heavy_count[p].v, 0, memory_order_relaxed);
      s->rounds++;
    }
    /* bins are pushed to only before the barrier, so every thread reads the same oom */
    if (next == NO_SLOT || atomic_load(&s->oom)) break;
    // 5. only far entries are left: move the window
    const int moved = next == WINDOW_BUCKETS;
    if (moved && (next = move_window(&c, tid)) == NO_SLOT) break;
    // 6. the targets are settled below the next bucket: stop (every thread reads the same keys,
    // which nothing writes between the barrier and the next gather)
    if (targets_settled(s, targets, c.base + next)) {
      if (tid == 0) targets->stopped = 1;
      break;
    }
    // 7. gather: copy the own bins of the bucket's sub-buckets from the lowest on into the
    // frontier at a reserved offset
    c.cur = c.lo = next;
    c.hi = next + s->group < WINDOW_BUCKETS ? next + s->group : WINDOW_BUCKETS;
    size_t own = 0;
    for (uint32_t k = c.lo; k < c.hi; k++) own += c.mine[k].len;
    const size_t cap = s->frontier_cap;
    size_t off = 0;
    int deferred = 0;
    if (own > 0) {
      off = (size_t)atomic_fetch_add_explicit(&s->tail[p ^ 1].v, own, memory_order_relaxed);
      if (off + own <= cap) copy_round(&c, s->frontier + off);
      else deferred = 1;
    }
    s->tb[tid].low = lowest_slot(c.mine, c.hi);
#pragma omp barrier
    if (tid == 0 && moved) atomic_store_explicit(&s->rebase_slot.v, NO_SLOT, memory_order_relaxed);
    const size_t total = (size_t)atomic_load_explicit(&s->tail[p ^ 1].v, memory_order_relaxed);
    if (total > cap && !grow_frontier(&c, total, off, deferred)) break;
  }
  return scanned;
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
  // a bucket of width delta is kept as `group` sub-buckets (fuse_round)
  const uint64_t width = (uint64_t)ds_delta_normalize(DS_WEIGHT_U32, params->delta);
  s.delta_u32 = width / SUB_BUCKETS > 0 ? width / SUB_BUCKETS : 1;
  s.width_div = ds_key_divider_of((uint32_t)s.delta_u32); /* at most UINT32_MAX once normalised */
  s.delta_f32 = params->delta / SUB_BUCKETS;
  s.group = s.is_float ? SUB_BUCKETS : (uint32_t)(width / s.delta_u32);
  if (s.is_float && !(s.delta_f32 > 0.0)) { /* a width too small to split */
    s.delta_f32 = params->delta;
    s.group = 1;
  }
  s.fuse_limit = params->cpu_fuse_limit > 0 ? params->cpu_fuse_limit : FUSE_LIMIT;
  s.lone_limit = params->cpu_lone_limit > 0 ? params->cpu_lone_limit : LONE_LIMIT;
  s.heavy_arcs = params->cpu_heavy_arcs > 0 ? params->cpu_heavy_arcs : HEAVY_ARCS;
  s.prefetch = params->cpu_prefetch == 0   ? PREFETCH_ARCS
               : params->cpu_prefetch < 0 ? UINT64_MAX
                                          : (uint64_t)params->cpu_prefetch;
  target_set targets = {params->targets, params->targets != NULL ? params->n_targets : 0, 0};
  for (uint32_t i = 0; i < targets.n; i++)
    if (targets.v[i] >= g->n)
      return ds_error_set(err, DS_ERR_ARG, "target %u is out of range: the graph has %u vertices",
                          targets.v[i], g->n);
  int want_pred = params->want_pred && res->pred != NULL;
  int nthreads = params->threads > 0 ? params->threads : omp_get_max_threads();
  double t0 = omp_get_wtime();

  // 2. allocate: distances, per-thread bins, the shared frontier (room for every vertex once;
  // grown between barriers if duplicates overflow it). A key alone (64-bit keys, or 32-bit
  // ones without predecessors) is searched in place in the result: no array to allocate, fault
  // in and copy out, which on a graph of a million vertices cost milliseconds a call
  static_assert(sizeof(_Atomic uint32_t) == sizeof(uint32_t) &&
                    sizeof(_Atomic uint64_t) == sizeof(uint64_t),
                "keys are searched in place in the caller's distances");
  if (s.wide) s.cell = (_Atomic uint64_t *)res->dist;
  else if (want_pred) s.cell = (_Atomic uint64_t *)malloc((size_t)g->n * sizeof(*s.cell));
  else s.key = (_Atomic uint32_t *)res->dist;
  s.tb = (tbins *)aligned_alloc(CACHE_LINE, (size_t)nthreads * sizeof(tbins));
  s.heavy = (heavy_vertex *)aligned_alloc(CACHE_LINE, 2 * HEAVY_MAX * sizeof(heavy_vertex));
  if (s.heavy != NULL)
    for (size_t i = 0; i < 2 * HEAVY_MAX; i++) atomic_init(&s.heavy[i].ready, 0); /* no round */
  if (s.tb != NULL) memset(s.tb, 0, (size_t)nthreads * sizeof(tbins)); /* cleanup frees its bins */
  s.frontier_cap = g->n > BIN_INITIAL_CAP ? g->n : BIN_INITIAL_CAP;
  s.frontier = (entry *)malloc(s.frontier_cap * sizeof(entry));
  if ((s.cell == NULL && s.key == NULL) || s.tb == NULL || s.heavy == NULL || s.frontier == NULL) {
    st = ds_error_set(err, DS_ERR_NOMEM, "cpu-delta: out of memory for %u vertices", g->n);
    goto cleanup;
  }
  for (int t = 0; t < nthreads; t++) s.tb[t].low = NO_SLOT;
  const uint32_t inf_key = ds_key_inf(s.is_float);
  const uint64_t inf_cell = s.wide ? DS_INF_U64 : ((uint64_t)inf_key << 32) | DS_NO_PRED;
  atomic_init(&s.oom, 0);
  atomic_init(&s.saturated, 0);
  for (int i = 0; i < 2; i++) {
    atomic_init(&s.next_slot[i].v, NO_SLOT);
    atomic_init(&s.tail[i].v, 0);
    atomic_init(&s.claimed[i].v, 0);
    atomic_init(&s.offered[i].v, 0);
    atomic_init(&s.heavy_count[i].v, 0);
  }
  atomic_init(&s.far_lo.v, UINT64_MAX);
  atomic_init(&s.rebase_slot.v, NO_SLOT);
  s.frontier[0] = entry_of(source, 0); /* key 0: bucket 0, slot 0 of the window at 0 */
  atomic_store(&s.tail[0].v, 1);
  const uint64_t source_cell = s.wide ? 0 : (uint64_t)DS_NO_PRED; /* key 0, no predecessor */
  const uint32_t sat_key = ds_key_sat(s.is_float);
  uint32_t first_sat = UINT32_MAX; /* the lowest vertex whose distance overflowed */
  uint64_t scanned = 0, max_arcs = 0;

  // 3. one parallel region for the first touch, the bucket loop and the read-out: a fork and
  // join of the team costs as much as a round
#pragma omp parallel num_threads(nthreads) reduction(+ : scanned)
  {
    /* first touch by the threads that read the pages out (NUMA: each thread's part of the
     * arrays lands on its node), with a static schedule; its barrier orders it before the search */
    /* the arrays in locals: an atomic store makes the compiler load them again each vertex */
    const uint64_t *row = g->row_offsets;
    _Atomic uint32_t *key = s.key;
    _Atomic uint64_t *cell = s.cell;
#pragma omp for schedule(static) reduction(max : max_arcs)
    for (uint32_t v = 0; v < g->n; v++) {
      const uint64_t arcs = row[v + 1] - row[v];
      if (arcs > max_arcs) max_arcs = arcs;
      if (key != NULL) atomic_init(&key[v], v == source ? 0 : inf_key);
      else atomic_init(&cell[v], v == source ? source_cell : inf_cell);
    }
    /* the graph's largest out-degree is known once the loop's barrier is passed: graphs
     * without heavy vertices (roads) skip the offers, and the waits for them */
    scanned += search(&s, max_arcs > s.heavy_arcs, &targets);
    if (!s.wide) { /* 64-bit keys are the distances already */
      uint32_t *dist_keys = (uint32_t *)res->dist; /* float results are their keys' bits */
      if (cell != NULL) { /* key << 32 | pred: split */
#pragma omp for schedule(static)
        for (uint32_t v = 0; v < g->n; v++) {
          uint64_t c = atomic_load_explicit(&cell[v], memory_order_relaxed);
          dist_keys[v] = (uint32_t)(c >> 32);
          res->pred[v] = (uint32_t)c;
        }
      }
      /* a sum beyond the keys' range was recorded where it was made: the distances are read
       * for it only then (every thread reads the same flag after the search's last barrier) */
      if (atomic_load_explicit(&s.saturated, memory_order_relaxed)) {
#pragma omp for schedule(static) reduction(min : first_sat)
        for (uint32_t v = 0; v < g->n; v++)
          if (dist_keys[v] == sat_key && v < first_sat) first_sat = v;
      }
    }
  }
  if (atomic_load(&s.oom)) {
    st = ds_error_set(err, DS_ERR_NOMEM, "cpu-delta: out of memory for the buckets");
    goto cleanup;
  }

  // 4. predecessors of 64-bit distances, the range check, the counters
  if (s.wide && want_pred) {
    st = ds_pred_from_tight_arcs(g, source, (const uint64_t *)res->dist, res->pred, err);
    if (st != DS_OK) goto cleanup;
  }
  if (first_sat != UINT32_MAX) {
    st = ds_dist_range_error(g, first_sat, err);
    goto cleanup;
  }
  res->time_ms = (omp_get_wtime() - t0) * 1e3;
  res->rounds = s.rounds;
  res->edges_relaxed = scanned;
  res->stopped_early = targets.stopped;
  ds_sssp_count_reached(g, params->dist_width, res);

cleanup:
  if (s.tb != NULL)
    for (int t = 0; t < nthreads; t++)
      for (uint32_t k = 0; k < SLOTS; k++) free(s.tb[t].bins[k].items);
  free(s.tb);
  free(s.heavy);
  free(s.frontier);
  if (!s.wide) free((void *)s.cell); /* else, and s.key: the caller's distances */
  return st;
}
