/* R-MAT and Graph500 Kronecker edges.
 *
 * R-MAT (Chakrabarti, Zhan, Faloutsos, SDM 2004): each edge descends
 * `bits` levels of the adjacency matrix, choosing at each level the quadrant
 * top-left (src bit 0, dst bit 0) with probability a, top-right (0,1) with b,
 * bottom-left (1,0) with c and bottom-right (1,1) with d = 1 - a - b - c.
 * The Graph500 Kronecker generator is the same process with n = 2^scale,
 * m = edge_factor * n and a=0.57 b=0.19 c=0.19; its edges are undirected.
 *
 * Invariants and limits:
 *   - edge i uses only the stream ds_rng_stream(seed, DS_TAG_EDGE, i): level
 *     choices two per 64-bit draw, then its weight; so the output does not
 *     depend on the thread count;
 *   - DS_GEN_RMAT takes any n >= 2: the edge is drawn at bits = ceil(log2 n)
 *     and redrawn (from its own stream) while an endpoint is >= n or it is a
 *     self-loop. DS_GEN_KRON keeps self-loops and duplicates, as Graph500
 *     does; ds_csr_build removes them;
 *   - noise (optional): level l's a,b,c,d are each scaled by (1 + noise*u),
 *     u uniform in [-1, 1] drawn once per level, and renormalised; this smooths
 *     the staircase of the degree distribution (Seshadhri, Pinar, Kolda 2013);
 *   - permute: vertex ids are relabelled by a seeded bijection (see
 *     vertex_perm), so that degree does not follow the id (Graph500 does the
 *     same).
 */
#include "gen_kinds.h"

#define MAX_BITS 32
#define TWO_POW_32 4294967296.0
/* An edge that needs more redraws than this means probabilities that make
 * valid ids vanishingly unlikely (say a = b = 0 with n just above a power of 2). */
#define MAX_REDRAWS (1u << 16)

/* Thresholds on a 32-bit uniform draw for the quadrants of one level. */
typedef struct {
  uint64_t ta, tab, tabc;
} level_thresholds;

static void make_levels(const ds_gen_spec *s, uint32_t bits, level_thresholds *lv) {
  for (uint32_t l = 0; l < bits; l++) {
    double p[4] = {s->a, s->b, s->c, 1.0 - s->a - s->b - s->c};
    if (p[3] < 0) p[3] = 0; /* a + b + c may exceed 1 by rounding */
    if (s->noise > 0) {
      ds_rng r = ds_rng_stream(s->seed, DS_TAG_NOISE, l);
      double sum = 0;
      for (int q = 0; q < 4; q++) {
        p[q] *= 1.0 + s->noise * (2.0 * ds_rng_unit(&r) - 1.0);
        sum += p[q];
      }
      for (int q = 0; q < 4; q++) p[q] /= sum;
    }
    lv[l].ta = (uint64_t)(p[0] * TWO_POW_32);
    lv[l].tab = (uint64_t)((p[0] + p[1]) * TWO_POW_32);
    lv[l].tabc = (uint64_t)((p[0] + p[1] + p[2]) * TWO_POW_32);
  }
}

/* One level: the quadrant for a 32-bit uniform x, appended to (*su, *sv).
 * Branch-free: the bits are random, so a branch would mispredict often. */
static inline void level_step(uint64_t x, const level_thresholds *t, uint32_t *su, uint32_t *sv) {
  uint64_t bu = x >= t->tab;                                  /* bottom half: c or d */
  uint64_t thr = t->ta ^ ((t->ta ^ t->tabc) & (0 - bu));      /* bu ? tabc : ta */
  uint32_t bv = x >= thr;                                     /* right half: b or d */
  *su = (*su << 1) | (uint32_t)bu;
  *sv = (*sv << 1) | bv;
}

/* One R-MAT descent of `bits` levels, two levels per 64-bit draw: src in *u,
 * dst in *v. */
static inline void descend(ds_rng *r, const level_thresholds *lv, uint32_t bits, uint32_t *u,
                           uint32_t *v) {
  uint32_t su = 0, sv = 0, l = 0;
  for (; l + 1 < bits; l += 2) {
    uint64_t draw = ds_rng_next(r);
    level_step(draw & UINT32_MAX, &lv[l], &su, &sv);
    level_step(draw >> 32, &lv[l + 1], &su, &sv);
  }
  if (l < bits) level_step(ds_rng_next(r) & UINT32_MAX, &lv[l], &su, &sv);
  *u = su;
  *v = sv;
}

/* The vertex permutation: a seeded bijection of [0, 2^bits) computed, not
 * stored (a table of 2^bits ids would cost a cache miss per endpoint, most of
 * the generator's time at scale 20). Rounds of "multiply by an odd constant and
 * add, mod 2^bits" (bijective; mixes low bits into high ones) alternate with a
 * bit reversal (bijective; brings the mixed high bits down), as Graph500's
 * reference scramble does. For n < 2^bits, cycle-walking (apply again while
 * the result is >= n) makes it a bijection of [0, n); n > 2^(bits-1), so that
 * takes under two steps on average. */
#define PERM_ROUNDS 3
typedef struct {
  uint32_t bits;
  uint64_t mask;
  uint64_t mul[PERM_ROUNDS], add[PERM_ROUNDS];
} vertex_perm;

static void make_perm(uint64_t seed, uint32_t bits, vertex_perm *p) {
  ds_rng r = ds_rng_stream(seed, DS_TAG_PERM, 0);
  p->bits = bits;
  p->mask = bits >= 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1;
  for (int i = 0; i < PERM_ROUNDS; i++) {
    p->mul[i] = ds_rng_next(&r) | 1; /* odd: invertible mod 2^bits */
    p->add[i] = ds_rng_next(&r);
  }
}

static inline uint64_t reverse64(uint64_t x) {
  x = ((x >> 1) & UINT64_C(0x5555555555555555)) | ((x & UINT64_C(0x5555555555555555)) << 1);
  x = ((x >> 2) & UINT64_C(0x3333333333333333)) | ((x & UINT64_C(0x3333333333333333)) << 2);
  x = ((x >> 4) & UINT64_C(0x0F0F0F0F0F0F0F0F)) | ((x & UINT64_C(0x0F0F0F0F0F0F0F0F)) << 4);
  x = ((x >> 8) & UINT64_C(0x00FF00FF00FF00FF)) | ((x & UINT64_C(0x00FF00FF00FF00FF)) << 8);
  x = ((x >> 16) & UINT64_C(0x0000FFFF0000FFFF)) | ((x & UINT64_C(0x0000FFFF0000FFFF)) << 16);
  return (x >> 32) | (x << 32);
}

static inline uint64_t perm_once(const vertex_perm *p, uint64_t x) {
  for (int i = 0; i < PERM_ROUNDS; i++) {
    x = (x * p->mul[i] + p->add[i]) & p->mask;
    if (i + 1 < PERM_ROUNDS) x = reverse64(x) >> (64 - p->bits); /* reversal within bits */
  }
  return x;
}

static inline uint32_t perm_apply(const vertex_perm *p, uint32_t n, uint32_t v) {
  uint64_t x = perm_once(p, v);
  while (x >= n) x = perm_once(p, x); /* cycle-walking; ends since v < n is on the cycle */
  return (uint32_t)x;
}

ds_status ds_gen_rmat_edges(const ds_gen_spec *s, ds_gen_edge_list *out, ds_error *err) {
  const int kron = s->kind == DS_GEN_KRON;
  // 1. sizes: Kronecker 2^scale vertices; R-MAT n vertices drawn at ceil(log2 n) bits
  uint32_t n, bits;
  uint64_t count;
  if (kron) {
    bits = s->scale;
    n = bits == 32 ? UINT32_MAX : (uint32_t)(UINT64_C(1) << bits);
    count = (uint64_t)s->edge_factor << s->scale;
  } else {
    n = s->n;
    bits = 0;
    while (bits < MAX_BITS && (UINT64_C(1) << bits) < n) bits++;
    count = s->m;
  }
  level_thresholds lv[MAX_BITS];
  make_levels(s, bits, lv);

  // 2. memory for the edges; the permutation if asked for
  ds_status st = ds_gen_alloc_edges(out, n, count, s->symmetric, err);
  if (st != DS_OK) return st;
  vertex_perm perm;
  make_perm(s->seed, bits, &perm);
  const int permute = s->permute;

  // 3. the edges, block by block (progress between blocks), each edge from its own stream
  int failed = 0;
  uint32_t *src = out->src, *dst = out->dst, *w = out->w;
  const uint64_t base = ds_rng_base(s->seed, DS_TAG_EDGE);
  for (uint64_t block = 0; block < count && !failed; block += DS_GEN_BLOCK) {
    const int64_t end = (int64_t)(count - block < DS_GEN_BLOCK ? count : block + DS_GEN_BLOCK);
#pragma omp parallel for schedule(static) reduction(| : failed)
    for (int64_t i = (int64_t)block; i < end; i++) {
      ds_rng r = ds_rng_at(base, (uint64_t)i);
      uint32_t u, v;
      descend(&r, lv, bits, &u, &v);
      if (!kron) {
        uint32_t tries = 0;
        while ((u >= n || v >= n || u == v) && ++tries < MAX_REDRAWS) descend(&r, lv, bits, &u, &v);
        if (tries >= MAX_REDRAWS) {
          failed = 1;
          u = v = 0;
        }
      }
      if (permute) {
        u = perm_apply(&perm, n, u);
        v = perm_apply(&perm, n, v);
      }
      src[i] = u;
      dst[i] = v;
      w[i] = ds_weight_shape(s->weight_dist, ds_rng_next(&r), s->weight_min, s->weight_max);
    }
    ds_gen_report(s, (double)end / (double)count);
  }
  if (failed) {
    ds_gen_edges_free(out);
    return ds_error_set(err, DS_ERR_ARG,
                        "rmat: with a=%g b=%g c=%g almost no edge lands on ids below n = %u "
                        "without being a self-loop; change the probabilities or n",
                        s->a, s->b, s->c, n);
  }
  return DS_OK;
}
