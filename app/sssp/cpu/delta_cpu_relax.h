/* cpu-delta's state and relaxation (delta_cpu.c holds the rounds): the bins of
 * each thread over a window of sub-buckets, the counters the team shares, and
 * the relaxation of a list of entries, compiled once for each kind of search
 * (relax_kind: weight type, per-vertex word, and compare-and-swap or, for a
 * team of one thread, load and store), with the arcs of a heavy vertex handed
 * out in pieces to whichever threads are free. Private to delta_cpu.c.
 */
#ifndef DS_DELTA_CPU_RELAX_H
#define DS_DELTA_CPU_RELAX_H

#include <assert.h>
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "sssp.h"
#include "sssp_keys.h"

/* Sub-buckets of a bucket (fuse_round in delta_cpu.c): a thread relaxes its own entries of a
 * bucket in this many steps of width delta / SUB_BUCKETS. At the automatic delta, 1 thread,
 * arcs relaxed for 1 / 4 / 8 (grid 1024 x 1024, geo 1M, road-like 1.0M, NY, Kronecker 18 of
 * edge factor 4; weights 1..1000): 6.16 / 4.55 / 4.32 M, 8.78 / 8.43 / 8.39, 3.02 / 2.65 /
 * 2.61, 0.89 / 0.76 / 0.74, 2.27 / 2.11 / 2.10; rounds with 2 threads: grid 335 / 243 / 167,
 * geo 440 / 300 / 205, road-like 173 / 166 / 155, NY 68 / 66 / 65, Kronecker 28 / 27 / 26. */
#define SUB_BUCKETS 8u
/* Sub-buckets in the window; slot WINDOW_BUCKETS is "far". 16 buckets of SUB_BUCKETS: where
 * delta is a fraction of the weights (Kronecker 18 of edge factor 16, weights 1..255, delta
 * 9), a window of 8 buckets sent most entries far, and their moves cost 3 % more instructions
 * a search (cachegrind, 1 thread: 150 M against 145 M with 16). */
#define WINDOW_BUCKETS 128u
#define SLOTS (WINDOW_BUCKETS + 1)
static_assert(2 * SUB_BUCKETS - 1 <= WINDOW_BUCKETS, "a round's sub-buckets fit the window");
#define FRONTIER_CHUNK 64       /* vertices per OpenMP dynamic chunk */
#define BIN_INITIAL_CAP 256     /* first allocation of a bin */
#define FUSE_LIMIT 1024         /* own entries of a sub-bucket relaxed without a round while fewer */
/* A lone thread enters its next sub-bucket while it holds fewer entries of it than this: beyond a
 * few dozen, the rest of the team relaxing in parallel beats one thread saving two barriers.
 * NY, 2 threads, ms (two runs): 1: 6.5-6.6, 64: 6.4-7.1, 256: 6.5-9.7, 1024: 7.8-8.5. */
#define LONE_LIMIT 64
/* Arcs ahead whose head's distance is prefetched: a successful compare-and-swap is a locked
 * instruction that later loads cannot pass, so without it the random reads of a vertex's arcs
 * do not overlap where many relaxations succeed. Kronecker 18, 1 thread, 2 shared cores,
 * six interleaved pairs, ms: 68 73 61 64 71 71 against 77 84 76 75 73 72 without; scale 20
 * with 2 threads mixed (242 266 258 242 180 193 against 289 312 284 198 182 203); NY
 * unchanged. */
#define PREFETCH_ARCS 8
/* A vertex of more arcs than this, met in the frontier, is shared: the team relaxes its arcs
 * in pieces (Kronecker 20's hubs have up to 65K arcs; its second round holds 8 hubs of 28K in
 * a frontier of one chunk). At most HEAVY_MAX a round. Kronecker 20, 2 threads, ms, three
 * interleaved pairs: 155-159 against 175-180 without, NY 9.5-9.9 against 8.9-9.3; once the
 * team waits for the offers only in frontiers of at most team x FRONTIER_CHUNK: Kronecker 20
 * 171-185 against 188-201, NY 10.2-10.4 against 9.8-10.1 (a busier machine). */
#define HEAVY_ARCS 4096
#define HEAVY_PIECE 1024
#define HEAVY_MAX 256
#define CACHE_LINE 64
#define NO_SLOT UINT32_MAX      /* "no non-empty bin" */
#define MAX_BUCKET_INDEX ((double)(UINT64_MAX / 2)) /* clamp of float bucket indices */

/* A bin entry: a vertex and the low 32 bits of the key it was pushed with. The vertex's
 * key drops with each push, so only its latest entry still matches the cell; the others are
 * stale and skipped, with no per-vertex mark to read beside the cell. With 64-bit keys two
 * keys may share their low bits, and a stale entry then relaxes the vertex once more, with
 * its current key: more work, never a wrong distance. */
typedef uint64_t entry;
#define TAKEN_ENTRY UINT64_MAX /* a frontier entry whose heavy vertex the team relaxes; no
                                  vertex is UINT32_MAX, since n fits 32 bits */

static entry entry_of(uint32_t v, uint64_t key) { return (uint64_t)(uint32_t)key << 32 | v; }
static uint32_t entry_vertex(entry e) { return (uint32_t)e; }

typedef struct {
  entry *items;
  size_t len, cap;
} bin;

/* One thread's bins and what it tells the others, on cache lines of its own
 * (the others read `low` only between barriers). */
typedef struct {
  _Alignas(CACHE_LINE) bin bins[SLOTS];
  uint32_t low; /* its lowest non-empty slot after the last gather, beyond the gathered one */
} tbins;

/* A counter that every thread updates each round, alone on its cache line. */
typedef struct {
  _Alignas(CACHE_LINE) _Atomic uint64_t v;
} shared_counter;

/* A heavy vertex shared for a round, on a cache line of its own. */
typedef struct {
  _Alignas(CACHE_LINE) _Atomic uint64_t handed; /* arcs handed out */
  _Atomic uint64_t ready;                        /* round + 1 once the fields are written */
  uint64_t first, last, key;
  uint32_t u;
} heavy_vertex;

/* The state shared by the team. */
typedef struct {
  const ds_graph *g;
  int is_float;
  int wide;               /* 64-bit distances: cell holds the key alone */
  uint64_t delta_u32;     /* integer sub-bucket width (bins are sub-buckets, see group) */
  ds_key_divider width_div; /* 32-bit keys: key / delta_u32 as a multiply */
  double delta_f32;       /* float sub-bucket width */
  uint32_t group;         /* sub-buckets a round gathers, delta / width: SUB_BUCKETS, fewer
                             below a delta of SUB_BUCKETS, up to 2 SUB_BUCKETS - 1 where the
                             integer width is rounded down */
  _Atomic uint64_t *cell; /* per vertex: key << 32 | pred, where predecessors are asked */
  _Atomic uint32_t *key;  /* per vertex: the key alone, where they are not (32-bit keys): half
                             the bytes that the relaxations read and write at random */
  tbins *tb;              /* one per thread */
  entry *frontier;        /* the bucket being processed: every thread's bin of it */
  size_t frontier_cap;    /* changed only between barriers (grow_frontier) */
  shared_counter next_slot[2]; /* by round parity: min over threads of their lowest slot */
  shared_counter tail[2];      /* by round parity: entries gathered into the frontier */
  shared_counter claimed[2];   /* by round parity: frontier entries handed out in chunks */
  shared_counter offered[2];   /* by round parity: frontier entries whose heavy vertices are offered */
  shared_counter heavy_count[2]; /* by round parity: heavy vertices offered */
  heavy_vertex *heavy;         /* 2 x HEAVY_MAX, by round parity */
  uint64_t heavy_arcs;         /* a vertex of more arcs is shared (HEAVY_ARCS) */
  shared_counter far_lo;       /* window move: lowest live far bucket */
  shared_counter rebase_slot;  /* window move: lowest slot after redistribution */
  size_t fuse_limit, lone_limit;
  uint64_t prefetch;      /* arcs ahead (PREFETCH_ARCS); UINT64_MAX: none */
  atomic_int oom;
  atomic_int saturated;   /* a 32-bit key reached ds_key_sat: the read-out looks for the first */
  uint64_t rounds;
} dstate;

/* What one thread works with in a round: its bins and the bucket being
 * processed, base + cur (every thread holds the same values). */
typedef struct {
  dstate *s;
  bin *mine;
  uint64_t base;  /* sub-bucket index of window slot 0 */
  uint32_t cur;   /* slot being processed */
  uint32_t lo, hi; /* the round's slots, [lo, hi): one bucket's sub-buckets (dstate.group) */
  uint64_t round; /* rounds so far */
  unsigned parity; /* round & 1 */
  int kind;       /* relax_kind: how this search lowers keys */
} tctx;

/* The sub-bucket of a key (the width of a bin, delta_u32 or delta_f32). */
static uint64_t bucket_of(const dstate *s, uint64_t key) {
  if (!s->is_float) return key / s->delta_u32;
  double b = floor((double)ds_key_to_f32((uint32_t)key) / s->delta_f32);
  return b >= MAX_BUCKET_INDEX ? (uint64_t)MAX_BUCKET_INDEX : (uint64_t)b;
}

static uint64_t key_of(const dstate *s, uint32_t v) {
  if (s->key != NULL) return atomic_load_explicit(&s->key[v], memory_order_relaxed);
  uint64_t c = atomic_load_explicit(&s->cell[v], memory_order_relaxed);
  return s->wide ? c : c >> 32;
}

/* Whether e is its vertex's latest entry (see entry); *key: the vertex's key. */
static int entry_live(const dstate *s, entry e, uint64_t *key) {
  *key = key_of(s, entry_vertex(e));
  return (uint32_t)*key == (uint32_t)(e >> 32);
}

/* Window slot of a sub-bucket index relative to base: far beyond the window. */
static uint32_t slot_of(uint64_t bucket, uint64_t base) {
  uint64_t rel = bucket - base;
  return rel >= WINDOW_BUCKETS ? WINDOW_BUCKETS : (uint32_t)rel;
}

/* The lowest slot >= from where `mine` holds entries, or NO_SLOT. */
static uint32_t lowest_slot(const bin *mine, uint32_t from) {
  for (uint32_t k = from; k < SLOTS; k++)
    if (mine[k].len > 0) return k;
  return NO_SLOT;
}

static void atomic_min_u64(_Atomic uint64_t *a, uint64_t x) {
  uint64_t old = atomic_load_explicit(a, memory_order_relaxed);
  while (old > x &&
         !atomic_compare_exchange_weak_explicit(a, &old, x, memory_order_relaxed,
                                               memory_order_relaxed)) {
  }
}

/* Appends e; records running out of memory. */
static void bin_push(dstate *s, bin *b, entry e) {
  if (b->len == b->cap) {
    size_t cap = b->cap ? 2 * b->cap : BIN_INITIAL_CAP;
    entry *p = (entry *)realloc(b->items, cap * sizeof(entry));
    if (p == NULL) {
      atomic_store(&s->oom, 1);
      return;
    }
    b->items = p;
    b->cap = cap;
  }
  b->items[b->len++] = e;
}

/* How a search lowers keys, fixed for the whole search (tctx.kind): the relaxation loops are
 * compiled once for each kind, so that none of these is tested per vertex or arc. */
enum {
  RELAX_FLOAT = 1, /* float weights, else 32-bit integer ones */
  RELAX_CELLS = 2, /* per vertex key << 32 | pred, else the 32-bit key alone */
  RELAX_ALONE = 4, /* a team of one thread: loads and stores, no compare-and-swap */
  RELAX_WIDE = 8   /* 64-bit keys: relax_vertex, one kind */
};

/* What the narrow relaxation loops read, copied into locals once per call (relax_env_of): a
 * key is lowered by an atomic, across which the compiler does not keep loads through c and
 * c->s, so each vertex reloaded and spilled a dozen fields of the state; locals stay in
 * registers. */
typedef struct {
  dstate *s;
  _Atomic uint32_t *key;
  _Atomic uint64_t *cell;
  const uint64_t *row;
  const uint32_t *col;
  const void *weights;
  bin *mine;
  uint64_t base, ahead;
  ds_key_divider div;
} relax_env;

static inline __attribute__((always_inline)) relax_env relax_env_of(const tctx *c) {
  dstate *s = c->s;
  relax_env r = {s,           s->key, s->cell, s->g->row_offsets, s->g->col, s->g->weights,
                 c->mine,     c->base, s->prefetch, s->width_div};
  return r;
}

/* Lowers v's cell to (nk, u), or its key to nk where no cells are kept, if nk is smaller;
 * 1 when it did. nk is the sum of u's key and the arc's weight, saturated (ds_key_add_u32,
 * ds_key_add_f32); an integer sum comes unsaturated, in 64 bits, and is saturated only where it
 * lowers the key: min(sum, sat) < old exactly when sum < old or old is the unreached key (then
 * min(sum, sat) <= sat < inf), so an arc that lowers nothing costs an add and two compares.
 * Alone (a team of one thread), no other thread writes a key, and the lowering is a load and a
 * store: a compare-and-swap is a locked instruction, which waits for the thread's earlier
 * stores (its bin pushes) to drain and which later loads cannot pass. */
static inline __attribute__((always_inline)) int lower_narrow(const relax_env *r, uint32_t v,
                                                              uint64_t sum, uint32_t u,
                                                              uint32_t *nk, const int kind) {
  const int is_float = kind & RELAX_FLOAT;
  if (!(kind & RELAX_CELLS)) {
    uint32_t old = atomic_load_explicit(&r->key[v], memory_order_relaxed);
    if (sum >= old && (is_float || old != DS_INF_U32)) return 0;
    *nk = is_float || sum < DS_KEY_SAT_U32 ? (uint32_t)sum : DS_KEY_SAT_U32;
    if (kind & RELAX_ALONE) {
      atomic_store_explicit(&r->key[v], *nk, memory_order_relaxed);
      return 1;
    }
    while (old > *nk)
      if (atomic_compare_exchange_weak_explicit(&r->key[v], &old, *nk, memory_order_relaxed,
                                                memory_order_relaxed))
        return 1;
    return 0;
  }
  uint64_t old = atomic_load_explicit(&r->cell[v], memory_order_relaxed);
  if (sum >= (old >> 32) && (is_float || (uint32_t)(old >> 32) != DS_INF_U32)) return 0;
  *nk = is_float || sum < DS_KEY_SAT_U32 ? (uint32_t)sum : DS_KEY_SAT_U32;
  const uint64_t desired = ((uint64_t)*nk << 32) | u;
  if (kind & RELAX_ALONE) {
    atomic_store_explicit(&r->cell[v], desired, memory_order_relaxed);
    return 1;
  }
  while ((uint32_t)(old >> 32) > *nk)
    if (atomic_compare_exchange_weak_explicit(&r->cell[v], &old, desired, memory_order_relaxed,
                                              memory_order_relaxed))
      return 1;
  return 0;
}

/* Relaxes arc e of u, whose key is ku, for one narrow kind. The integer loop divides in 32
 * bits (keys and the normalised width fit) by ds_key_quotient, the float one goes through
 * bucket_of. */
static inline __attribute__((always_inline)) void relax_arc(const relax_env *r, uint32_t u,
                                                            uint32_t ku, uint64_t e,
                                                            const int kind) {
  const int is_float = kind & RELAX_FLOAT;
  const uint32_t v = r->col[e];
  const uint64_t sum = is_float ? ds_key_add_f32(ku, ((const float *)r->weights)[e])
                                : (uint64_t)ku + ((const uint32_t *)r->weights)[e];
  uint32_t nk;
  if (lower_narrow(r, v, sum, u, &nk, kind)) {
    if (nk == ds_key_sat(is_float)) atomic_store_explicit(&r->s->saturated, 1, memory_order_relaxed);
    const uint64_t bucket = is_float ? bucket_of(r->s, nk) : ds_key_quotient(nk, r->div);
    bin_push(r->s, &r->mine[slot_of(bucket, r->base)], entry_of(v, nk));
  }
}

/* The loop over arcs [first, last) of u, whose key is ku, for one narrow kind: the arcs that
 * have r->ahead more after them prefetch the head's word of the arc that far ahead, the last
 * r->ahead do not, in a loop of their own, so that no arc tests which it is (a road's vertex,
 * of fewer arcs than r->ahead, runs the second loop alone). */
static inline __attribute__((always_inline)) uint64_t
relax_narrow_loop(const relax_env *r, uint32_t u, uint32_t ku, uint64_t first, uint64_t last,
                  const int kind) {
  uint64_t e = first;
  if (last - first > r->ahead)
    for (; e < last - r->ahead; e++) {
      const uint32_t w = r->col[e + r->ahead];
      __builtin_prefetch(kind & RELAX_CELLS ? (const void *)&r->cell[w] : (const void *)&r->key[w],
                         1);
      relax_arc(r, u, ku, e, kind);
    }
  for (; e < last; e++) relax_arc(r, u, ku, e, kind);
  return last - first;
}

/* Relaxes arcs [first, last) of u, whose key is ku, into the thread's bins;
 * returns the arcs scanned. 32-bit keys: the cell is key << 32 | pred, or
 * the key alone where no predecessors are asked. Shared pieces only: never alone. */
static uint64_t relax_arcs_narrow(const tctx *c, uint32_t u, uint32_t ku, uint64_t first,
                                  uint64_t last) {
  const relax_env r = relax_env_of(c);
  const int cells = c->s->key == NULL;
  if (c->s->is_float)
    return cells ? relax_narrow_loop(&r, u, ku, first, last, RELAX_FLOAT | RELAX_CELLS)
                 : relax_narrow_loop(&r, u, ku, first, last, RELAX_FLOAT);
  return cells ? relax_narrow_loop(&r, u, ku, first, last, RELAX_CELLS)
               : relax_narrow_loop(&r, u, ku, first, last, 0);
}

/* The same with 64-bit keys: the cell is the key alone, sums are exact. */
static uint64_t relax_arcs_wide(const tctx *c, uint64_t ku, uint64_t first, uint64_t last) {
  dstate *s = c->s;
  const ds_graph *g = s->g;
  const uint32_t *wu = (const uint32_t *)g->weights;
  for (uint64_t e = first; e < last; e++) {
    uint32_t v = g->col[e];
    uint64_t nk = ku + wu[e]; /* a simple path stays below 2^64 */
    uint64_t old = atomic_load_explicit(&s->cell[v], memory_order_relaxed);
    while (old > nk) {
      if (atomic_compare_exchange_weak_explicit(&s->cell[v], &old, nk, memory_order_relaxed,
                                                memory_order_relaxed)) {
        bin_push(s, &c->mine[slot_of(bucket_of(s, nk), c->base)], entry_of(v, nk));
        break;
      }
    }
  }
  return last - first;
}

static uint64_t relax_arcs(const tctx *c, uint32_t u, uint64_t ku, uint64_t first, uint64_t last) {
  return c->s->wide ? relax_arcs_wide(c, ku, first, last)
                    : relax_arcs_narrow(c, u, (uint32_t)ku, first, last);
}

/* Relaxes the arcs of a shared heavy vertex in pieces of HEAVY_PIECE handed
 * out by an atomic add, until none is left; returns the arcs scanned. */
static uint64_t relax_heavy(const tctx *c, heavy_vertex *h) {
  uint64_t scanned = 0;
  const uint64_t n = h->last - h->first;
  for (;;) {
    const uint64_t a = atomic_fetch_add_explicit(&h->handed, HEAVY_PIECE, memory_order_relaxed);
    if (a >= n) return scanned;
    const uint64_t b = n - a < HEAVY_PIECE ? n : a + HEAVY_PIECE;
    scanned += relax_arcs(c, h->u, h->key, h->first + a, h->first + b);
  }
}

/* Offers u (key ku, arcs [first, last)) to the team; NULL when the round's
 * list is full. The fields are written before `ready` (release), which the
 * helpers read with acquire. */
static heavy_vertex *share_heavy(const tctx *c, uint32_t u, uint64_t ku, uint64_t first,
                                 uint64_t last) {
  dstate *s = c->s;
  const uint64_t i =
      atomic_fetch_add_explicit(&s->heavy_count[c->parity].v, 1, memory_order_relaxed);
  if (i >= HEAVY_MAX) return NULL;
  heavy_vertex *h = &s->heavy[c->parity * HEAVY_MAX + i];
  h->u = u;
  h->key = ku;
  h->first = first;
  h->last = last;
  atomic_store_explicit(&h->handed, 0, memory_order_relaxed);
  atomic_store_explicit(&h->ready, c->round + 1, memory_order_release);
  return h;
}

/* Whether the vertex of e is to be relaxed now, with *ku its key: not if e is stale (a later
 * push lowered the vertex's key, and its entry is the one to relax) or taken (offer_heavy). */
static int take_key(const tctx *c, entry e, uint64_t *ku) {
  return e != TAKEN_ENTRY && entry_live(c->s, e, ku);
}

/* Relaxes the out-arcs of e's vertex if e is live; returns the arcs scanned. */
static uint64_t relax_vertex(const tctx *c, entry e) {
  uint64_t ku;
  if (!take_key(c, e, &ku)) return 0;
  const uint32_t u = entry_vertex(e);
  const uint64_t *off = c->s->g->row_offsets;
  return relax_arcs(c, u, ku, off[u], off[u + 1]);
}

/* Relaxes e's vertex if e is live, for one kind (relax_kind): the entry's check, the vertex's
 * row and its arcs' loop in one body, with no call per vertex, whose prologue and reloads of
 * the state cost about as much as the arcs of a road's vertex. Returns the arcs scanned. */
static inline __attribute__((always_inline)) uint64_t
relax_entry_k(const tctx *c, const relax_env *r, entry e, const int kind) {
  if (kind >= RELAX_WIDE) return relax_vertex(c, e);
  if (e == TAKEN_ENTRY) return 0;
  const uint32_t u = entry_vertex(e);
  const uint32_t ku =
      kind & RELAX_CELLS
          ? (uint32_t)(atomic_load_explicit(&r->cell[u], memory_order_relaxed) >> 32)
          : atomic_load_explicit(&r->key[u], memory_order_relaxed);
  if (ku != (uint32_t)(e >> 32)) return 0; /* stale: see entry */
  return relax_narrow_loop(r, u, ku, r->row[u], r->row[u + 1], kind);
}

/* Relaxes the live entries front[i0, i1), a chunk of the frontier; returns the arcs scanned. */
static inline __attribute__((always_inline)) uint64_t
relax_list_k(const tctx *c, const entry *front, size_t i0, size_t i1, const int kind) {
  const relax_env r = relax_env_of(c);
  uint64_t scanned = 0;
  for (size_t i = i0; i < i1; i++) scanned += relax_entry_k(c, &r, front[i], kind);
  return scanned;
}

/* Relaxes the entries of the thread's bin b from *head on, in arrival order, while fewer than
 * limit of them wait, those that the relaxations append to b included (bucket fusion); *head:
 * the first entry left. Returns the arcs scanned. */
static inline __attribute__((always_inline)) uint64_t
relax_bin_k(const tctx *c, bin *b, size_t *head, size_t limit, const int kind) {
  const relax_env r = relax_env_of(c);
  uint64_t scanned = 0;
  size_t h = *head;
  while (h < b->len && b->len - h < limit &&
         !atomic_load_explicit(&c->s->oom, memory_order_relaxed))
    scanned += relax_entry_k(c, &r, b->items[h++], kind); /* may append to b, move its items */
  *head = h;
  return scanned;
}

/* relax_list_k and relax_bin_k for the search's kind, one compiled loop each. */
static uint64_t relax_list(const tctx *c, const entry *front, size_t i0, size_t i1) {
  switch (c->kind) { /* every narrow kind, RELAX_FLOAT | RELAX_CELLS | RELAX_ALONE */
  case 0: return relax_list_k(c, front, i0, i1, 0);
  case 1: return relax_list_k(c, front, i0, i1, 1);
  case 2: return relax_list_k(c, front, i0, i1, 2);
  case 3: return relax_list_k(c, front, i0, i1, 3);
  case 4: return relax_list_k(c, front, i0, i1, 4);
  case 5: return relax_list_k(c, front, i0, i1, 5);
  case 6: return relax_list_k(c, front, i0, i1, 6);
  case 7: return relax_list_k(c, front, i0, i1, 7);
  default: return relax_list_k(c, front, i0, i1, RELAX_WIDE);
  }
}

static uint64_t relax_bin(const tctx *c, bin *b, size_t *head, size_t limit) {
  switch (c->kind) {
  case 0: return relax_bin_k(c, b, head, limit, 0);
  case 1: return relax_bin_k(c, b, head, limit, 1);
  case 2: return relax_bin_k(c, b, head, limit, 2);
  case 3: return relax_bin_k(c, b, head, limit, 3);
  case 4: return relax_bin_k(c, b, head, limit, 4);
  case 5: return relax_bin_k(c, b, head, limit, 5);
  case 6: return relax_bin_k(c, b, head, limit, 6);
  case 7: return relax_bin_k(c, b, head, limit, 7);
  default: return relax_bin_k(c, b, head, limit, RELAX_WIDE);
  }
}

/* The search's kind for a team of `team` threads. */
static int relax_kind(const dstate *s, int team) {
  if (s->wide) return RELAX_WIDE;
  return (s->is_float ? RELAX_FLOAT : 0) | (s->key == NULL ? RELAX_CELLS : 0) |
         (team == 1 ? RELAX_ALONE : 0);
}

/* Offers the heavy vertices of frontier entries [i0, i1), the chunk this thread claimed, to
 * the team before the chunk is relaxed, and marks their entries taken; relaxes one itself
 * where the round's list is full. Returns arcs scanned. */
static uint64_t offer_heavy(const tctx *c, entry *front, size_t i0, size_t i1) {
  const uint64_t *off = c->s->g->row_offsets;
  uint64_t scanned = 0, ku;
  for (size_t i = i0; i < i1; i++) {
    const uint32_t u = entry_vertex(front[i]);
    if (front[i] == TAKEN_ENTRY || off[u + 1] - off[u] <= c->s->heavy_arcs ||
        !take_key(c, front[i], &ku))
      continue;
    front[i] = TAKEN_ENTRY;
    heavy_vertex *h = share_heavy(c, u, ku, off[u], off[u + 1]);
    if (h == NULL) scanned += relax_arcs(c, u, ku, off[u], off[u + 1]);
  }
  return scanned;
}

#endif
