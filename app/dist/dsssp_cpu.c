/* The CPU twin's engine of distributed delta-stepping (dsssp.h), one thread a
 * rank, run by the shared rounds (dsssp_rounds.c).
 *
 * State of a rank, over its own vertices only:
 *   key[v]   the distance as a 64-bit key: an integer distance (exact; a sum
 *            saturates one below KEY_INF), or the bits of a float distance
 *            (float sums, saturating at FLT_MAX, as ds_cpu's searches);
 *            KEY_INF while unreached;
 *   done[v]  the key v was last relaxed with: v is to be relaxed while
 *            key[v] < done[v];
 *   slot[i]  the window: slot i < buckets - 1 lists the vertices pushed with
 *            bucket base + i, the last slot those beyond. A vertex is pushed
 *            each time its key drops, so lists hold stale entries, dropped
 *            when met (key[v] >= done[v], or no longer that slot's bucket).
 * Relaxing bucket b: if b is beyond the near slots (all ranks agreed it is
 * the least bucket anywhere, so every near slot is empty), base moves to b
 * and the far slot is split again; then slot b - base is swapped out as the
 * frontier, and each of its vertices relaxes its out-arcs: own heads in
 * place, the others into the combining table (one entry per head, the least
 * key), which is then grouped by owner with a counting sort. Updates from
 * other ranks apply like own relaxations.
 * Limits: the combining table holds at most 2^32 - 1 heads a round.
 */
#include "dist/dsssp.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dist/dsssp_engine.h"
#include "ds/rng.h"      /* ds_mix64 */
#include "sssp_keys.h"   /* the float-sum rules of ds_cpu's searches, shared */

#define KEY_INF DS_DSSSP_KEY_INF
#define KEY_SAT DS_DSSSP_KEY_SAT
#define FLOAT_BUCKET_CAP ((uint64_t)1 << 62) /* floor(d / delta) beyond this: one last bucket */
#define TABLE_MIN 1024u          /* combining-table slots at first (a power of two) */
#define LIST_MIN 64u

typedef struct {
  uint32_t *v;
  size_t len, cap;
} vlist;

typedef struct {
  const ds_dgraph *g;
  int is_float;
  double delta;
  uint64_t delta_int;
  uint32_t slots; /* the window's buckets */
  uint64_t base;
  uint64_t *key, *done;
  uint32_t *pred; /* global ids, or NULL */
  vlist *slot;
  vlist frontier;
  /* combining: table entries are (stamp << 32 | index + 1) into comb; a stale stamp is empty */
  uint64_t *table;
  size_t table_cap;
  uint32_t stamp;
  ds_dsssp_update *comb, *send;
  size_t comb_len, comb_cap, send_cap;
  ds_dsssp_update *recv;
  size_t recv_cap;
  uint64_t *owner_pos;
  ds_dsssp_result *res;
} engine;

static ds_status out_of_memory(const engine *e, const char *what, ds_error *err) {
  return ds_error_set(err, DS_ERR_NOMEM, "rank %d: out of memory for %s", e->g->rank, what);
}

/* ---- keys and buckets ---------------------------------------------------- */

static uint64_t key_add(const engine *e, uint64_t k, uint64_t arc) {
  if (e->is_float)
    return ds_key_add_f32((uint32_t)k, ((const float *)e->g->weights)[arc]);
  uint64_t s;
  if (__builtin_add_overflow(k, (uint64_t)((const uint32_t *)e->g->weights)[arc], &s) || s > KEY_SAT)
    return KEY_SAT;
  return s;
}

static uint64_t bucket_of(const engine *e, uint64_t k) {
  if (!e->is_float) return k / e->delta_int;
  double q = floor((double)ds_key_to_f32((uint32_t)k) / e->delta);
  return q >= (double)FLOAT_BUCKET_CAP ? FLOAT_BUCKET_CAP : (uint64_t)q;
}

/* ---- the window ---------------------------------------------------------- */

static int list_push(vlist *l, uint32_t v) {
  if (l->len == l->cap) {
    size_t cap = l->cap ? 2 * l->cap : LIST_MIN;
    uint32_t *grown = realloc(l->v, cap * sizeof *grown);
    if (grown == NULL) return 0;
    l->v = grown;
    l->cap = cap;
  }
  l->v[l->len++] = v;
  return 1;
}

/* Puts local vertex v in the slot of its bucket. */
static int push(engine *e, uint32_t v) {
  const uint64_t b = bucket_of(e, e->key[v]);
  const uint64_t i = b < e->base ? 0 : b - e->base;
  return list_push(&e->slot[i < e->slots - 1 ? i : e->slots - 1], v);
}

static int is_live(const engine *e, uint32_t v) { return e->key[v] < e->done[v]; }

static uint64_t cpu_next_bucket(void *self) {
  engine *e = self;
  // 1. the first near slot with a live entry of its own bucket (dropping the others)
  for (uint32_t i = 0; i + 1 < e->slots; i++) {
    vlist *l = &e->slot[i];
    size_t kept = 0;
    for (size_t j = 0; j < l->len; j++) {
      uint32_t v = l->v[j];
      if (is_live(e, v) && bucket_of(e, e->key[v]) == e->base + i) l->v[kept++] = v;
    }
    l->len = kept;
    if (kept > 0) return e->base + i;
  }
  // 2. else the least bucket in the far slot
  vlist *far = &e->slot[e->slots - 1];
  uint64_t least = DS_DSSSP_NO_BUCKET;
  size_t kept = 0;
  for (size_t j = 0; j < far->len; j++) {
    uint32_t v = far->v[j];
    if (!is_live(e, v)) continue;
    far->v[kept++] = v;
    uint64_t b = bucket_of(e, e->key[v]);
    if (b < least) least = b;
  }
  far->len = kept;
  return least;
}

/* ---- relaxation ---------------------------------------------------------- */

/* Lowers local vertex v to key k, offered by global tail p. */
static int lower(engine *e, uint32_t v, uint64_t k, uint32_t p) {
  if (k >= e->key[v]) return 1;
  e->key[v] = k;
  if (e->pred != NULL) e->pred[v] = p;
  e->res->updates_local++;
  return push(e, v);
}

static int table_grow(engine *e) {
  size_t cap = e->table_cap ? 2 * e->table_cap : TABLE_MIN;
  uint64_t *t = calloc(cap, sizeof *t);
  if (t == NULL) return 0;
  free(e->table);
  e->table = t;
  e->table_cap = cap;
  for (size_t i = 0; i < e->comb_len; i++) { /* this round's entries, again */
    size_t h = (size_t)ds_mix64(e->comb[i].head) & (cap - 1);
    while (t[h] != 0) h = (h + 1) & (cap - 1);
    t[h] = ((uint64_t)e->stamp << 32) | (i + 1);
  }
  return 1;
}

/* Keeps the least key offered to a head of another rank this round. */
static int combine(engine *e, uint32_t head, uint32_t tail, uint64_t k) {
  if (2 * (e->comb_len + 1) > e->table_cap && !table_grow(e)) return 0;
  const size_t mask = e->table_cap - 1;
  size_t h = (size_t)ds_mix64(head) & mask;
  for (;; h = (h + 1) & mask) {
    const uint64_t t = e->table[h];
    if ((uint32_t)(t >> 32) != e->stamp || t == 0) break;
    ds_dsssp_update *u = &e->comb[(uint32_t)t - 1];
    if (u->head != head) continue;
    if (k < u->key) u->key = k, u->pred = tail;
    return 1;
  }
  if (e->comb_len == e->comb_cap) {
    size_t cap = e->comb_cap ? 2 * e->comb_cap : LIST_MIN;
    ds_dsssp_update *grown = realloc(e->comb, cap * sizeof *grown);
    if (grown == NULL) return 0;
    e->comb = grown;
    e->comb_cap = cap;
  }
  e->comb[e->comb_len] = (ds_dsssp_update){head, tail, k};
  e->table[h] = ((uint64_t)e->stamp << 32) | (e->comb_len + 1);
  e->comb_len++;
  return 1;
}

/* The window moves to b, which lies beyond its near slots: split the far slot again. */
static int move_window(engine *e, uint64_t b) {
  for (uint32_t i = 0; i + 1 < e->slots; i++) e->slot[i].len = 0; /* stale all */
  vlist far = e->slot[e->slots - 1];
  e->slot[e->slots - 1] = e->frontier; /* an empty list to refill */
  e->slot[e->slots - 1].len = 0;
  e->frontier = far;
  e->base = b;
  for (size_t j = 0; j < far.len; j++)
    if (is_live(e, far.v[j]) && !push(e, far.v[j])) return 0;
  e->frontier.len = 0;
  return 1;
}

/* Groups this round's combined updates by owner rank (counting sort). */
static int group_by_owner(engine *e, uint64_t *counts) {
  const ds_partition *part = &e->g->part;
  memset(counts, 0, (size_t)part->ranks * sizeof *counts);
  for (size_t i = 0; i < e->comb_len; i++) counts[ds_partition_owner(part, e->comb[i].head)]++;
  if (e->comb_len > e->send_cap) {
    ds_dsssp_update *grown = realloc(e->send, e->comb_len * sizeof *grown);
    if (grown == NULL) return 0;
    e->send = grown;
    e->send_cap = e->comb_len;
  }
  uint64_t at = 0;
  for (int r = 0; r < part->ranks; r++) {
    e->owner_pos[r] = at;
    at += counts[r];
  }
  for (size_t i = 0; i < e->comb_len; i++)
    e->send[e->owner_pos[ds_partition_owner(part, e->comb[i].head)]++] = e->comb[i];
  return 1;
}

static ds_status cpu_relax(void *self, uint64_t b, const void **send, uint64_t *counts,
                           ds_error *err) {
  engine *e = self;
  const ds_dgraph *g = e->g;
  // 1. the window holds b; the frontier is b's slot
  if (b >= e->base + (e->slots - 1) && !move_window(e, b))
    return out_of_memory(e, "the far bucket", err);
  vlist *l = &e->slot[b - e->base];
  vlist t = e->frontier;
  e->frontier = *l;
  *l = t;
  l->len = 0;
  // 2. relax: own heads in place, the others combined per head
  if (++e->stamp == 0) { /* the stamps wrapped: clear the table once */
    if (e->table != NULL) memset(e->table, 0, e->table_cap * sizeof *e->table);
    e->stamp = 1;
  }
  e->comb_len = 0;
  for (size_t j = 0; j < e->frontier.len; j++) {
    const uint32_t v = e->frontier.v[j];
    if (!is_live(e, v) || bucket_of(e, e->key[v]) != b) continue;
    const uint64_t kv = e->key[v];
    e->done[v] = kv;
    const uint32_t tail = g->first + v;
    for (uint64_t a = g->row_offsets[v]; a < g->row_offsets[v + 1]; a++) {
      const uint32_t head = g->col[a];
      const uint64_t k = key_add(e, kv, a);
      const int ok = ds_dgraph_owns(g, head) ? lower(e, head - g->first, k, tail)
                                             : (e->res->updates_remote++, combine(e, head, tail, k));
      if (!ok) return out_of_memory(e, "the relaxations of a round", err);
    }
    e->res->edges_relaxed += g->row_offsets[v + 1] - g->row_offsets[v];
  }
  e->frontier.len = 0;
  // 3. group the combined updates by owner
  if (!group_by_owner(e, counts)) return out_of_memory(e, "the updates of a round", err);
  *send = e->send;
  return DS_OK;
}

static ds_status cpu_receive_buffer(void *self, uint64_t n, void **buf, ds_error *err) {
  engine *e = self;
  if (n > e->recv_cap) {
    ds_dsssp_update *grown = realloc(e->recv, (size_t)n * sizeof *grown);
    if (grown == NULL) return out_of_memory(e, "the updates arriving", err);
    e->recv = grown;
    e->recv_cap = (size_t)n;
  }
  *buf = e->recv;
  return DS_OK;
}

static ds_status cpu_apply(void *self, const void *recv, uint64_t n, ds_error *err) {
  engine *e = self;
  const ds_dsssp_update *u = recv;
  for (uint64_t i = 0; i < n; i++) {
    if (!ds_dgraph_owns(e->g, u[i].head))
      return ds_error_set(err, DS_ERR_ARG, "rank %d received an update of vertex %u, which it "
                          "does not own", e->g->rank, u[i].head);
    if (!lower(e, u[i].head - e->g->first, u[i].key, u[i].pred))
      return out_of_memory(e, "the buckets", err);
  }
  return DS_OK;
}

/* ---- the search ------------------------------------------------------------ */

void ds_dsssp_params_default(ds_dsssp_params *p) {
  if (p == NULL) return;
  p->delta = 1.0;
  p->buckets = 10;
  p->want_pred = 0;
  p->dist_width = DS_DIST_NATURAL;
}

ds_status ds_dsssp_begin(const ds_comm *comm, const ds_dgraph *g, uint32_t source,
                         const ds_dsssp_params *p, ds_dsssp_result *res, ds_error *err) {
  void *dist = res->dist;
  uint32_t *pred = res->pred;
  memset(res, 0, sizeof *res);
  res->dist = dist;
  res->pred = pred;
  if (g->ranks != ds_comm_size(comm) || g->rank != ds_comm_rank(comm))
    return ds_error_set(err, DS_ERR_ARG, "rank %d of %d holds the part of rank %d of a graph over "
                        "%d ranks", ds_comm_rank(comm), ds_comm_size(comm), g->rank, g->ranks);
  if (source >= g->n)
    return ds_error_set(err, DS_ERR_ARG, "source %u is out of range: the graph has %u vertices",
                        source, g->n);
  if (!(p->delta > 0) || !isfinite(p->delta))
    return ds_error_set(err, DS_ERR_ARG, "delta %g: it must be positive and finite", p->delta);
  if (p->buckets < DS_SSSP_MIN_BUCKETS || p->buckets > DS_SSSP_MAX_BUCKETS)
    return ds_error_set(err, DS_ERR_ARG, "%u buckets: the window holds %u to %u", p->buckets,
                        DS_SSSP_MIN_BUCKETS, DS_SSSP_MAX_BUCKETS);
  if (p->dist_width == DS_DIST_WIDE && g->weight_type == DS_WEIGHT_F32)
    return ds_error_set(err, DS_ERR_ARG, "wide distances need integer weights");
  if (g->n_local > 0 && (res->dist == NULL || (p->want_pred && res->pred == NULL)))
    return ds_error_set(err, DS_ERR_ARG, "rank %d: res->dist%s is NULL", g->rank,
                        res->dist == NULL ? "" : " or res->pred");
  return DS_OK;
}

static ds_status engine_init(engine *e, const ds_dgraph *g, uint32_t source,
                             const ds_dsssp_params *p, ds_dsssp_result *res, ds_error *err) {
  memset(e, 0, sizeof *e);
  e->g = g;
  e->res = res;
  e->is_float = g->weight_type == DS_WEIGHT_F32;
  e->delta = ds_delta_normalize(g->weight_type, p->delta);
  e->delta_int = e->is_float ? 1 : (uint64_t)e->delta;
  e->slots = p->buckets;
  const size_t n = g->n_local ? g->n_local : 1;
  e->key = malloc(n * sizeof *e->key);
  e->done = malloc(n * sizeof *e->done);
  e->slot = calloc(p->buckets, sizeof *e->slot);
  e->owner_pos = malloc((size_t)g->ranks * sizeof *e->owner_pos);
  if (p->want_pred) e->pred = res->pred;
  if (e->key == NULL || e->done == NULL || e->slot == NULL || e->owner_pos == NULL)
    return out_of_memory(e, "the search's per-vertex state", err);
  for (uint32_t v = 0; v < g->n_local; v++) {
    e->key[v] = e->done[v] = KEY_INF;
    if (e->pred != NULL) e->pred[v] = DS_NO_PRED;
  }
  if (ds_dgraph_owns(g, source)) {
    e->key[source - g->first] = 0;
    if (!push(e, source - g->first)) return out_of_memory(e, "the buckets", err);
  }
  return DS_OK;
}

static void engine_free(engine *e) {
  free(e->key);
  free(e->done);
  if (e->slot != NULL)
    for (uint32_t i = 0; i < e->slots; i++) free(e->slot[i].v);
  free(e->slot);
  free(e->frontier.v);
  free(e->table);
  free(e->comb);
  free(e->send);
  free(e->recv);
  free(e->owner_pos);
}

ds_status ds_dsssp_write_keys(const ds_dgraph *g, const uint64_t *key, ds_dist_width width,
                              ds_dsssp_result *res, uint64_t *bad, ds_error *err) {
  const int is_float = g->weight_type == DS_WEIGHT_F32;
  for (uint32_t v = 0; v < g->n_local; v++) {
    const uint64_t k = key[v];
    if (k != KEY_INF) {
      res->reached++;
      res->reached_arcs += g->row_offsets[v + 1] - g->row_offsets[v];
    }
    int fits = 1;
    if (is_float) {
      fits = k == KEY_INF || (uint32_t)k != ds_key_sat(1);
      ((float *)res->dist)[v] = k == KEY_INF ? INFINITY : ds_key_to_f32((uint32_t)k);
    } else if (width == DS_DIST_WIDE) {
      fits = k != KEY_SAT;
      ((uint64_t *)res->dist)[v] = k == KEY_INF ? DS_INF_U64 : k;
    } else {
      fits = k == KEY_INF || k <= DS_DIST_MAX_U32;
      ((uint32_t *)res->dist)[v] = k == KEY_INF ? DS_INF_U32 : fits ? (uint32_t)k : DS_INF_U32;
    }
    if (!fits) {
      *bad = g->first + v;
      return ds_error_set(err, DS_ERR_RANGE, "vertex %u (0-based) has a distance beyond the %s "
                          "distance type", g->first + v, is_float ? "float"
                          : width == DS_DIST_WIDE ? "64-bit" : "32-bit");
    }
  }
  return DS_OK;
}

void ds_dsssp_result_rounds(ds_dsssp_result *res, const ds_dsssp_round_stats *rs) {
  res->rounds = rs->rounds;
  res->buckets = rs->buckets;
  res->updates_sent = rs->updates_sent;
  res->updates_received = rs->updates_received;
  res->relax_ms = rs->relax_ms;
  res->exchange_ms = rs->exchange_ms;
  res->reduce_ms = rs->reduce_ms;
}

ds_status ds_dsssp_cpu(ds_comm *comm, const ds_dgraph *g, uint32_t source,
                       const ds_dsssp_params *params, ds_dsssp_result *res, ds_error *err) {
  if (comm == NULL || g == NULL || params == NULL || res == NULL)
    return ds_error_set(err, DS_ERR_ARG, "ds_dsssp_cpu: comm, g, params and res must not be NULL");
  const double t0 = ds_comm_now();
  engine e;
  memset(&e, 0, sizeof e);

  // 1. arguments and state, agreed by every rank
  ds_status local = ds_dsssp_begin(comm, g, source, params, res, err);
  if (local == DS_OK) local = engine_init(&e, g, source, params, res, err);
  ds_status st = ds_comm_agree(comm, local, err);
  if (st != DS_OK) goto done;

  // 2. the rounds
  ds_dsssp_engine eng = {&e, cpu_next_bucket, cpu_relax, cpu_receive_buffer, cpu_apply};
  ds_dsssp_round_stats rs;
  st = ds_dsssp_rounds(comm, &eng, &rs, err);
  if (st != DS_OK) goto done;
  ds_dsssp_result_rounds(res, &rs);

  // 3. the distances, in the width asked for
  uint64_t bad = 0;
  st = ds_comm_agree_detail(comm, ds_dsssp_write_keys(g, e.key, params->dist_width, res, &bad, err),
                            &bad, err);
done:
  engine_free(&e);
  res->time_ms = 1e3 * (ds_comm_now() - t0);
  return st;
}
