/* One Kronecker (R-MAT) edge at a time: the per-edge math of the generator,
 * shared by graphgen's generator (gen_rmat.c), the distributed generator in
 * which every rank draws its own share of the edges (app/dist/dkron.c), and a
 * CUDA kernel that draws the same stream on the device.
 *
 * Edge i of a graph owns the counter-based stream ds_rng_at(plan->stream,
 * i): its endpoints descend plan->bits levels of the adjacency matrix, two
 * levels per 64-bit draw, each level choosing the quadrant top-left (a),
 * top-right (b), bottom-left (c) or bottom-right (d = 1 - a - b - c) by
 * thresholds on 32 random bits; the next draw is its weight. So an edge
 * depends only on (seed, i), never on which rank, thread or GPU draws it or
 * how many there are: any split of [0, count) gives the same edges.
 *
 * Vertex ids are then scrambled by a seeded bijection of [0, 2^bits), as
 * Graph500's generator does, so that degree does not follow the id: rounds
 * of "multiply by an odd constant and add, mod 2^bits" alternating with a bit
 * reversal within bits; for n < 2^bits, cycle-walking keeps it a bijection of
 * [0, n).
 *
 * Header only, static inline; the plan is made on the host
 * (ds_kron_plan_init), the functions that draw are also device functions
 * under CUDA (no host-only calls: a kernel takes the plan by value, about
 * 850 bytes).
 */
#ifndef DS_KRON_EDGE_H
#define DS_KRON_EDGE_H

#include <stdint.h>

#include "ds/rng.h"

#define DS_KRON_MAX_BITS 32
#define DS_KRON_SCRAMBLE_ROUNDS 3
/* The streams' tags (gen_edges.h's DS_TAG_EDGE and DS_TAG_PERM, which
 * gen_rmat.c checks): the endpoints of edge i, and the scramble's constants. */
#define DS_KRON_TAG_EDGE 1
#define DS_KRON_TAG_PERM 3
/* Graph500's quadrant probabilities and edge factor. */
#define DS_KRON_GRAPH500_A 0.57
#define DS_KRON_GRAPH500_B 0.19
#define DS_KRON_GRAPH500_C 0.19
#define DS_KRON_GRAPH500_EDGE_FACTOR 16u

/* Thresholds on a 32-bit uniform draw for the quadrants of one level. */
typedef struct {
  uint64_t ta, tab, tabc;
} ds_kron_level;

typedef struct {
  uint32_t bits;  /* levels: ids are drawn in [0, 2^bits) */
  uint32_t n;     /* vertices: ids kept below n (cycle-walking of the scramble) */
  int permute;    /* scramble the ids */
  uint64_t stream; /* ds_rng_base(seed, DS_KRON_TAG_EDGE) */
  uint64_t mask;   /* 2^bits - 1 */
  uint64_t mul[DS_KRON_SCRAMBLE_ROUNDS], add[DS_KRON_SCRAMBLE_ROUNDS];
  ds_kron_level level[DS_KRON_MAX_BITS];
} ds_kron_plan;

/* One level's thresholds from its four probabilities (summing to 1). */
static inline void ds_kron_level_set(ds_kron_level *lv, const double p[4]) {
  const double two_pow_32 = 4294967296.0;
  lv->ta = (uint64_t)(p[0] * two_pow_32);
  lv->tab = (uint64_t)((p[0] + p[1]) * two_pow_32);
  lv->tabc = (uint64_t)((p[0] + p[1] + p[2]) * two_pow_32);
}

/* The plan of a graph: every level at (a, b, c, 1 - a - b - c) (a caller with
 * per-level noise sets plan->level afterwards), the scramble's constants from
 * the seed. Preconditions: 1 <= bits <= 32, 2 <= n, n > 2^(bits-1) where
 * n < 2^bits (so that cycle-walking takes under two steps on average). */
static inline void ds_kron_plan_init(ds_kron_plan *plan, uint64_t seed, uint32_t bits, uint32_t n,
                                     double a, double b, double c, int permute) {
  plan->bits = bits;
  plan->n = n;
  plan->permute = permute;
  plan->stream = ds_rng_base(seed, DS_KRON_TAG_EDGE);
  plan->mask = bits >= 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1;
  double p[4] = {a, b, c, 1.0 - a - b - c};
  if (p[3] < 0) p[3] = 0; /* a + b + c may exceed 1 by rounding */
  for (uint32_t l = 0; l < DS_KRON_MAX_BITS; l++) ds_kron_level_set(&plan->level[l], p);
  ds_rng r = ds_rng_stream(seed, DS_KRON_TAG_PERM, 0);
  for (int i = 0; i < DS_KRON_SCRAMBLE_ROUNDS; i++) {
    plan->mul[i] = ds_rng_next(&r) | 1; /* odd: invertible mod 2^bits */
    plan->add[i] = ds_rng_next(&r);
  }
}

/* One level: the quadrant for a 32-bit uniform x, appended to (*su, *sv).
 * Branch-free: the bits are random, so a branch would mispredict often (and
 * a warp would diverge). */
DS_RNG_HD static inline void ds_kron_step(uint64_t x, const ds_kron_level *t, uint32_t *su,
                                          uint32_t *sv) {
  const uint64_t bu = x >= t->tab;                             /* bottom half: c or d */
  const uint64_t thr = t->ta ^ ((t->ta ^ t->tabc) & (0 - bu)); /* bu ? tabc : ta */
  const uint32_t bv = x >= thr;                                /* right half: b or d */
  *su = (*su << 1) | (uint32_t)bu;
  *sv = (*sv << 1) | bv;
}

/* One descent of plan->bits levels from the stream r, two levels per 64-bit
 * draw: the unscrambled source in *u, destination in *v. */
DS_RNG_HD static inline void ds_kron_descend(ds_rng *r, const ds_kron_plan *plan, uint32_t *u,
                                             uint32_t *v) {
  const uint32_t bits = plan->bits;
  uint32_t su = 0, sv = 0, l = 0;
  for (; l + 1 < bits; l += 2) {
    const uint64_t draw = ds_rng_next(r);
    ds_kron_step(draw & UINT32_MAX, &plan->level[l], &su, &sv);
    ds_kron_step(draw >> 32, &plan->level[l + 1], &su, &sv);
  }
  if (l < bits) ds_kron_step(ds_rng_next(r) & UINT32_MAX, &plan->level[l], &su, &sv);
  *u = su;
  *v = sv;
}

DS_RNG_HD static inline uint64_t ds_kron_reverse64(uint64_t x) {
#ifdef __CUDA_ARCH__
  return __brevll(x);
#else
  x = ((x >> 1) & UINT64_C(0x5555555555555555)) | ((x & UINT64_C(0x5555555555555555)) << 1);
  x = ((x >> 2) & UINT64_C(0x3333333333333333)) | ((x & UINT64_C(0x3333333333333333)) << 2);
  x = ((x >> 4) & UINT64_C(0x0F0F0F0F0F0F0F0F)) | ((x & UINT64_C(0x0F0F0F0F0F0F0F0F)) << 4);
  x = ((x >> 8) & UINT64_C(0x00FF00FF00FF00FF)) | ((x & UINT64_C(0x00FF00FF00FF00FF)) << 8);
  x = ((x >> 16) & UINT64_C(0x0000FFFF0000FFFF)) | ((x & UINT64_C(0x0000FFFF0000FFFF)) << 16);
  return (x >> 32) | (x << 32);
#endif
}

/* One pass of the scramble over [0, 2^bits). */
DS_RNG_HD static inline uint64_t ds_kron_scramble_once(const ds_kron_plan *p, uint64_t x) {
  for (int i = 0; i < DS_KRON_SCRAMBLE_ROUNDS; i++) {
    x = (x * p->mul[i] + p->add[i]) & p->mask;
    if (i + 1 < DS_KRON_SCRAMBLE_ROUNDS) x = ds_kron_reverse64(x) >> (64 - p->bits);
  }
  return x;
}

/* The scrambled id of v < n: a bijection of [0, n). */
DS_RNG_HD static inline uint32_t ds_kron_scramble(const ds_kron_plan *p, uint32_t v) {
  uint64_t x = ds_kron_scramble_once(p, v);
  while (x >= p->n) x = ds_kron_scramble_once(p, x); /* ends: v < n is on x's cycle */
  return (uint32_t)x;
}

/* Edge i of a Kronecker graph (every id below 2^bits = n): its endpoints,
 * scrambled where the plan says so; returns the draw its weight comes from
 * (ds_weight_shape for integers, ds_kron_unit_weight for Graph500's floats). */
DS_RNG_HD static inline uint64_t ds_kron_edge(const ds_kron_plan *plan, uint64_t i, uint32_t *u,
                                              uint32_t *v) {
  ds_rng r = ds_rng_at(plan->stream, i);
  ds_kron_descend(&r, plan, u, v);
  if (plan->permute) {
    *u = ds_kron_scramble(plan, *u);
    *v = ds_kron_scramble(plan, *v);
  }
  return ds_rng_next(&r);
}

/* Graph500's SSSP weight: uniform on [0, 1), 24 random bits, so that every
 * value is a float exactly and the same on the host and the device. */
#define DS_KRON_UNIT_WEIGHT_BITS 24
DS_RNG_HD static inline float ds_kron_unit_weight(uint64_t draw) {
  return (float)(uint32_t)(draw >> (64 - DS_KRON_UNIT_WEIGHT_BITS)) *
         (1.0f / (float)(1u << DS_KRON_UNIT_WEIGHT_BITS));
}

#endif /* DS_KRON_EDGE_H */
