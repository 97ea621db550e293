/* Core numbers on the CPU: the serial oracle and the OpenMP backend.
 *
 * Oracle: Batagelj and Zaversnik, "An O(m) Algorithm for Cores Decomposition
 * of Networks". Vertices are bin-sorted by degree and peeled in that order;
 * peeling a vertex lowers each neighbour of higher degree by one and moves it
 * one bin down by a swap, so the order stays sorted in O(1) a step.
 *
 * Backend: peeling in rounds as in Dhulipala, Blelloch and Shun, "Julienne: A
 * Framework for Parallel Graph Algorithms using Work-efficient Bucketing".
 * Level k starts with every live vertex of degree k (the frontier); a round
 * peels the whole frontier at once: each neighbour of degree above k loses
 * one by an atomic decrement, and the thread whose decrement takes it from
 * k + 1 to k puts it in the next frontier (exactly one thread sees that
 * step). Rounds repeat until no vertex drops to k; then the next level.
 *
 * Invariants:
 *   - deg[v] of a live vertex is its degree among live vertices, and is above
 *     the current level k except for the vertices already in a frontier of
 *     level k; a peeled vertex's deg is at most its core number, so "deg > k"
 *     alone says "live and not yet in a frontier" and no removed flags are
 *     needed. Decrements past k are harmless: each arc is counted down once,
 *     so deg never wraps below zero.
 *   - Levels are found by scanning the live list, compacted at every level:
 *     a vertex of core number c is scanned at c + 1 levels at most (twice
 *     that when levels are empty), and the sum of core numbers is at most m,
 *     so the scans cost O(n + m) in all, the bucket structure's bound,
 *     without buckets to move vertices between.
 *   - Small frontiers (chains of degree-2 vertices in road networks give
 *     thousands of one-vertex rounds) run on one thread as a queue, without
 *     a barrier per round, until the queue's arcs pass SERIAL_ARCS. The
 *     measure is arcs, not vertices: the last levels of a skewed graph are
 *     a few hundred hubs with thousands of arcs each, work for the team.
 * Limits: a frontier vertex's arcs are handled by one thread, so one huge
 * hub in a small frontier is not split across threads.
 */
#include "kcore.h"

#include <omp.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#define SERIAL_ARCS 8192  /* frontiers with up to this many arcs peel on one thread */
#define FRONTIER_CHUNK 16 /* frontier vertices per OpenMP dynamic chunk, at most */
#define CHUNKS_PER_THREAD 8 /* smaller chunks when a frontier has fewer than this many a thread */
#define LOCAL_BUF 512     /* next-frontier entries a thread gathers before one atomic reserve */

static ds_status check_args(const char *fn, const ds_graph *g, const uint32_t *core,
                            ds_error *err) {
  if (g == NULL) return ds_error_set(err, DS_ERR_ARG, "%s: the graph is NULL", fn);
  if (g->n > 0 && core == NULL) return ds_error_set(err, DS_ERR_ARG, "%s: core is NULL", fn);
  if (!g->symmetric)
    return ds_error_set(err, DS_ERR_ARG,
                        "%s: graph '%s' is directed (not symmetric): core numbers need an "
                        "undirected graph",
                        fn, g->name);
  return DS_OK;
}

static inline uint32_t degree_of(const ds_graph *g, uint32_t v) {
  return (uint32_t)(g->row_offsets[v + 1] - g->row_offsets[v]);
}

ds_status ds_kcore_oracle(const ds_graph *g, uint32_t *core, ds_error *err) {
  // 1. check arguments
  ds_status st = check_args("ds_kcore_oracle", g, core, err);
  if (st != DS_OK || g->n == 0) return st;
  const uint32_t n = g->n;
  uint32_t max_deg = 0;
  for (uint32_t v = 0; v < n; v++) {
    core[v] = degree_of(g, v); /* core holds the current degree while peeling */
    if (core[v] > max_deg) max_deg = core[v];
  }
  uint32_t *pos = malloc((size_t)n * sizeof *pos), *vert = malloc((size_t)n * sizeof *vert);
  uint32_t *bin = calloc((size_t)max_deg + 1, sizeof *bin);
  if (pos == NULL || vert == NULL || bin == NULL) {
    st = ds_error_set(err, DS_ERR_NOMEM, "ds_kcore_oracle: out of memory for %u vertices", n);
    goto done;
  }
  // 2. bin sort by degree: bin[d] = first position of degree d in vert
  for (uint32_t v = 0; v < n; v++) bin[core[v]]++;
  uint32_t start = 0;
  for (uint32_t d = 0; d <= max_deg; d++) {
    const uint32_t count = bin[d];
    bin[d] = start;
    start += count;
  }
  for (uint32_t v = 0; v < n; v++) {
    pos[v] = bin[core[v]]++;
    vert[pos[v]] = v;
  }
  for (uint32_t d = max_deg; d > 0; d--) bin[d] = bin[d - 1];
  bin[0] = 0;
  // 3. peel in order; a neighbour of higher degree moves to the front of its bin, then one bin down
  for (uint32_t i = 0; i < n; i++) {
    const uint32_t v = vert[i];
    for (uint64_t e = g->row_offsets[v]; e < g->row_offsets[v + 1]; e++) {
      const uint32_t u = g->col[e];
      if (core[u] <= core[v]) continue;
      const uint32_t du = core[u], pu = pos[u], pw = bin[du], w = vert[pw];
      if (u != w) {
        pos[u] = pw;
        vert[pu] = w;
        pos[w] = pu;
        vert[pw] = u;
      }
      bin[du]++;
      core[u]--;
    }
  }
done:
  free(pos);
  free(vert);
  free(bin);
  return st;
}

/* The state shared by the team. */
typedef struct {
  const ds_graph *g;
  _Atomic uint32_t *deg;
  uint32_t *core;
  uint32_t *live, *live_tmp; /* live vertices; the scan's per-thread output */
  uint32_t *cur, *next;      /* frontier of this round and of the next */
  size_t live_len, cur_len;
  uint64_t cur_arcs;         /* arcs of the frontier: the work of peeling it */
  _Atomic size_t next_len;
  _Atomic uint64_t next_arcs;
  size_t *keep_count, *front_count; /* per thread: the scan's outputs */
  uint64_t *front_arcs;             /* per thread: arcs of its part of the frontier */
  uint32_t *keep_min;               /* per thread: lowest degree kept */
  uint32_t k;
  int team;
} kstate;

/* Appends the gathered next-frontier entries to s->next with one atomic reserve. */
static void flush_local(kstate *s, uint32_t *buf, size_t *len) {
  if (*len == 0) return;
  const size_t at = atomic_fetch_add_explicit(&s->next_len, *len, memory_order_relaxed);
  memcpy(s->next + at, buf, *len * sizeof *buf);
  *len = 0;
}

/* Lowers each neighbour of v above level k by one; a neighbour that reaches k joins the
 * next frontier through push(ctx, u). */
#define PEEL_VERTEX(s, v, k, PUSH)                                                          \
  for (uint64_t e_ = (s)->g->row_offsets[v]; e_ < (s)->g->row_offsets[(v) + 1]; e_++) {     \
    const uint32_t u_ = (s)->g->col[e_];                                                    \
    if (atomic_load_explicit(&(s)->deg[u_], memory_order_relaxed) <= (k)) continue;         \
    if (atomic_fetch_sub_explicit(&(s)->deg[u_], 1, memory_order_relaxed) == (k) + 1) {     \
      (s)->core[u_] = (k);                                                                  \
      PUSH(u_);                                                                             \
    }                                                                                       \
  }

/* 1. One thread peels a small frontier as a queue in s->cur (each vertex enters a
 *    frontier once, so the queue never passes n entries), until it is empty or its
 *    vertices have more than SERIAL_ARCS arcs; those stay in s->cur for parallel rounds. */
static void peel_serial(kstate *s) {
  const uint32_t k = s->k;
  uint32_t *q = s->cur;
  size_t head = 0, tail = s->cur_len;
  uint64_t arcs = s->cur_arcs;
#define QUEUE_PUSH(u)                  \
  do {                                 \
    q[tail++] = (u);                   \
    arcs += degree_of(s->g, (u));      \
  } while (0)
  while (head < tail && arcs <= SERIAL_ARCS) {
    const uint32_t v = q[head++];
    arcs -= degree_of(s->g, v);
    PEEL_VERTEX(s, v, k, QUEUE_PUSH)
  }
#undef QUEUE_PUSH
  memmove(q, q + head, (tail - head) * sizeof *q);
  s->cur_len = tail - head;
  s->cur_arcs = arcs;
}

/* 2. The team peels a large frontier in one round into s->next. */
static void peel_parallel(kstate *s) {
  const uint32_t k = s->k;
  uint32_t buf[LOCAL_BUF];
  size_t len = 0;
  uint64_t arcs = 0;
#define LOCAL_PUSH(u)                                    \
  do {                                                   \
    if (len == LOCAL_BUF) flush_local(s, buf, &len);     \
    buf[len++] = (u);                                    \
    arcs += degree_of(s->g, (u));                        \
  } while (0)
  /* a frontier of few vertices past SERIAL_ARCS is hubs: chunks of one keep the team busy */
  size_t chunk = s->cur_len / ((size_t)s->team * CHUNKS_PER_THREAD);
  chunk = chunk < 1 ? 1 : chunk > FRONTIER_CHUNK ? FRONTIER_CHUNK : chunk;
#pragma omp for schedule(dynamic, chunk) nowait
  for (size_t i = 0; i < s->cur_len; i++) {
    const uint32_t v = s->cur[i];
    PEEL_VERTEX(s, v, k, LOCAL_PUSH)
  }
#undef LOCAL_PUSH
  flush_local(s, buf, &len);
  atomic_fetch_add_explicit(&s->next_arcs, arcs, memory_order_relaxed);
#pragma omp barrier
#pragma omp single
  {
    uint32_t *t = s->cur;
    s->cur = s->next;
    s->next = t;
    s->cur_len = atomic_load_explicit(&s->next_len, memory_order_relaxed);
    s->cur_arcs = atomic_load_explicit(&s->next_arcs, memory_order_relaxed);
    atomic_store_explicit(&s->next_len, 0, memory_order_relaxed);
    atomic_store_explicit(&s->next_arcs, 0, memory_order_relaxed);
  }
}

/* 3. Scan of the live list at level k: vertices of degree k form the frontier (core k),
 *    those above stay live, those below were peeled. Each thread scans a contiguous
 *    part and writes at its part's offset, so the outputs are packed without atomics. */
static void scan_level(kstate *s) {
  const int t = omp_get_thread_num();
  const uint32_t k = s->k;
  const size_t lo = s->live_len * (size_t)t / (size_t)s->team;
  const size_t hi = s->live_len * ((size_t)t + 1) / (size_t)s->team;
  size_t keep = 0, front = 0;
  uint64_t arcs = 0;
  uint32_t low = UINT32_MAX;
  for (size_t i = lo; i < hi; i++) {
    const uint32_t v = s->live[i];
    const uint32_t d = atomic_load_explicit(&s->deg[v], memory_order_relaxed);
    if (d == k) {
      s->core[v] = k;
      s->next[lo + front++] = v;
      arcs += degree_of(s->g, v);
    } else if (d > k) {
      s->live_tmp[lo + keep++] = v;
      if (d < low) low = d;
    }
  }
  s->keep_count[t] = keep;
  s->front_count[t] = front;
  s->front_arcs[t] = arcs;
  s->keep_min[t] = low;
#pragma omp barrier
  size_t keep_at = 0, front_at = 0, keep_all = 0, front_all = 0;
  uint64_t arcs_all = 0;
  for (int i = 0; i < s->team; i++) {
    arcs_all += s->front_arcs[i];
    if (i < t) {
      keep_at += s->keep_count[i];
      front_at += s->front_count[i];
    }
    keep_all += s->keep_count[i];
    front_all += s->front_count[i];
  }
  memcpy(s->live + keep_at, s->live_tmp + lo, keep * sizeof *s->live);
  memcpy(s->cur + front_at, s->next + lo, front * sizeof *s->cur);
#pragma omp barrier
#pragma omp single
  {
    s->live_len = keep_all;
    s->cur_len = front_all;
    s->cur_arcs = arcs_all;
    if (front_all == 0 && keep_all > 0) { /* no vertex of degree k: jump to the lowest degree */
      uint32_t m = UINT32_MAX;
      for (int i = 0; i < s->team; i++)
        if (s->keep_min[i] < m) m = s->keep_min[i];
      s->k = m;
    }
  }
}

ds_status ds_kcore_cpu(const ds_graph *g, int threads, uint32_t *core, ds_error *err) {
  // 1. check arguments and allocate
  ds_status st = check_args("ds_kcore_cpu", g, core, err);
  if (st != DS_OK || g->n == 0) return st;
  const uint32_t n = g->n;
  const int team = threads > 0 ? threads : omp_get_max_threads();
  kstate s;
  memset(&s, 0, sizeof s);
  s.g = g;
  s.core = core;
  s.team = team;
  s.deg = malloc((size_t)n * sizeof *s.deg);
  s.live = malloc((size_t)n * sizeof *s.live);
  s.live_tmp = malloc((size_t)n * sizeof *s.live_tmp);
  s.cur = malloc((size_t)n * sizeof *s.cur);
  s.next = malloc((size_t)n * sizeof *s.next);
  s.keep_count = malloc((size_t)team * sizeof *s.keep_count);
  s.front_count = malloc((size_t)team * sizeof *s.front_count);
  s.keep_min = malloc((size_t)team * sizeof *s.keep_min);
  s.front_arcs = malloc((size_t)team * sizeof *s.front_arcs);
  if (s.deg == NULL || s.live == NULL || s.live_tmp == NULL || s.cur == NULL ||
      s.next == NULL || s.keep_count == NULL || s.front_count == NULL || s.keep_min == NULL ||
      s.front_arcs == NULL) {
    st = ds_error_set(err, DS_ERR_NOMEM, "ds_kcore_cpu: out of memory for %u vertices", n);
    goto done;
  }
  s.live_len = n;
  atomic_init(&s.next_len, 0);
  atomic_init(&s.next_arcs, 0);
  // 2. peel level by level; every thread runs the same loop, decisions are made in singles
#pragma omp parallel num_threads(team)
  {
#pragma omp single
    s.team = omp_get_num_threads(); /* fewer than asked under OMP_THREAD_LIMIT or nesting */
#pragma omp for schedule(static)
    for (uint32_t v = 0; v < n; v++) {
      atomic_init(&s.deg[v], degree_of(g, v));
      s.live[v] = v;
    }
    for (;;) {
      /* every thread reads the shared lengths before any single may change them */
      const size_t live = s.live_len;
#pragma omp barrier
      if (live == 0) break;
      scan_level(&s);
      const int peeled = s.cur_len > 0; /* else scan_level moved k to the lowest live degree */
      for (;;) {
        const size_t len = s.cur_len;
        const uint64_t arcs = s.cur_arcs;
#pragma omp barrier
        if (len == 0) break;
        if (arcs <= SERIAL_ARCS) {
#pragma omp single
          peel_serial(&s);
        } else {
          peel_parallel(&s);
        }
      }
      if (peeled) {
#pragma omp single
        s.k++;
      }
    }
  }
done:
  free((void *)s.deg);
  free(s.live);
  free(s.live_tmp);
  free(s.cur);
  free(s.next);
  free(s.keep_count);
  free(s.front_count);
  free(s.keep_min);
  free(s.front_arcs);
  return st;
}

void ds_kcore_summary(const uint32_t *core, uint32_t n, uint32_t *degeneracy, uint64_t *sizes) {
  uint32_t top = 0;
  for (uint32_t v = 0; v < n; v++)
    if (core[v] > top) top = core[v];
  if (degeneracy != NULL) *degeneracy = top;
  if (sizes == NULL) return;
  memset(sizes, 0, ((size_t)top + 1) * sizeof *sizes);
  for (uint32_t v = 0; v < n; v++) sizes[core[v]]++;
}

/* The GPU backend's defaults, here so that builds without CUDA have them too. */
void ds_kcore_gpu_options_default(ds_kcore_gpu_options *opt) {
  opt->solo_items = DS_KCORE_GPU_SOLO_ITEMS;
  opt->solo_arcs = DS_KCORE_GPU_SOLO_ARCS;
  /* spread + aggregate + local32 at one block an SM: on the H100 the fastest
   * of the variants measured on Kronecker 20 and 22 and on the road networks
   * (4.5-5x the plain kernel on Kronecker, 1.9-2.2x on roads) */
  opt->blocks_per_sm = 1;
  opt->spread = 1;
  opt->aggregate = 1;
  opt->local_arcs = 32;
  opt->window = 0;
  opt->stall_ms = 0;
  opt->force_stall = 0;
}

/* "NAME" or "NAME<digits>" at word[0..len): the number into *value (-1: none). */
static int variant_word(const char *word, size_t len, const char *name, long *value) {
  const size_t nlen = strlen(name);
  if (len < nlen || strncmp(word, name, nlen) != 0) return 0;
  *value = -1;
  if (len == nlen) return 1;
  long v = 0;
  for (size_t i = nlen; i < len; i++) {
    if (word[i] < '0' || word[i] > '9' || v > 1000000) return 0;
    v = v * 10 + (word[i] - '0');
  }
  *value = v;
  return 1;
}

int ds_kcore_gpu_options_variant(ds_kcore_gpu_options *opt, const char *text) {
  if (opt == NULL || text == NULL) return 0;
  ds_kcore_gpu_options o = *opt;
  for (const char *w = text; *w != '\0';) {
    const char *plus = strchr(w, '+');
    const size_t len = plus ? (size_t)(plus - w) : strlen(w);
    long v = -1;
    if (variant_word(w, len, "base", &v) && v < 0) {
      o.spread = 0, o.aggregate = 0, o.local_arcs = 0, o.blocks_per_sm = 0, o.window = 0;
    } else if (variant_word(w, len, "default", &v) && v < 0) {
      ds_kcore_gpu_options d;
      ds_kcore_gpu_options_default(&d);
      o.spread = d.spread, o.aggregate = d.aggregate, o.local_arcs = d.local_arcs;
      o.blocks_per_sm = d.blocks_per_sm, o.window = d.window;
    } else if (variant_word(w, len, "spread", &v) && v < 0) {
      o.spread = 1;
    } else if (variant_word(w, len, "agg", &v) && v < 0) {
      o.aggregate = 1;
    } else if (variant_word(w, len, "all", &v) && v < 0) {
      o.spread = 1, o.aggregate = 1, o.local_arcs = 32;
    } else if (variant_word(w, len, "local", &v) && v >= 0) {
      o.local_arcs = (uint32_t)v;
    } else if (variant_word(w, len, "win", &v) && v >= 0) {
      o.window = (uint32_t)v;
    } else if (variant_word(w, len, "bpsm", &v) && v >= 0) {
      o.blocks_per_sm = (uint32_t)v;
    } else {
      return 0;
    }
    w += len;
    if (*w == '+' && *++w == '\0') return 0; /* an empty last word */
  }
  *opt = o;
  return 1;
}
