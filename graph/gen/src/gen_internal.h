/* Internal to ds_gen: the counter-based random streams and the per-kind
 * edge generators that ds_gen_edges dispatches to.
 *
 * Random streams. Every edge (point, level, ...) i of a generator owns the
 * stream ds_rng_stream(seed, tag, i): a splitmix64 sequence whose start is a
 * bijective hash of (seed, tag, i). Nothing is shared between items, so any
 * split of the items over threads gives the same output. The tag keeps the
 * streams of different uses (edges, weights, permutation, noise) apart.
 */
#ifndef DS_GEN_INTERNAL_H
#define DS_GEN_INTERNAL_H

#include <stdint.h>

#include "ds/gen.h"

#define DS_RNG_GOLDEN UINT64_C(0x9E3779B97F4A7C15)

/* Stream tags. */
enum {
  DS_TAG_EDGE = 1,    /* endpoints of edge i */
  DS_TAG_WEIGHT = 2,  /* weight of edge i (where it is drawn apart from the endpoints) */
  DS_TAG_PERM = 3,    /* the vertex permutation */
  DS_TAG_NOISE = 4,   /* per-level noise of R-MAT */
  DS_TAG_POINT = 5    /* coordinates of point i */
};

typedef struct {
  uint64_t s;
} ds_rng;

/* splitmix64 finaliser: a bijection of 64-bit words with good avalanche. */
static inline uint64_t ds_mix64(uint64_t z) {
  z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
  z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
  return z ^ (z >> 31);
}

/* The streams of one (seed, tag) pair: ds_rng_at(ds_rng_base(seed, tag), i)
 * equals ds_rng_stream(seed, tag, i); hoist the base out of hot loops. */
static inline uint64_t ds_rng_base(uint64_t seed, uint64_t tag) {
  return ds_mix64(seed ^ ds_mix64(tag * DS_RNG_GOLDEN + UINT64_C(0x632BE59BD9B4E019)));
}

static inline ds_rng ds_rng_at(uint64_t base, uint64_t index) {
  ds_rng r;
  r.s = ds_mix64(base + index * DS_RNG_GOLDEN);
  return r;
}

static inline ds_rng ds_rng_stream(uint64_t seed, uint64_t tag, uint64_t index) {
  return ds_rng_at(ds_rng_base(seed, tag), index);
}

static inline uint64_t ds_rng_next(ds_rng *r) {
  r->s += DS_RNG_GOLDEN;
  return ds_mix64(r->s);
}

/* Uniform double in [0, 1) with 53 random bits. */
static inline double ds_rng_unit(ds_rng *r) {
  return (double)(ds_rng_next(r) >> 11) * (1.0 / 9007199254740992.0);
}

/* Uniform integer in [0, range) for 1 <= range <= 2^32, by a multiply-shift
 * of 32 random bits (bias below range / 2^32, irrelevant here). */
static inline uint32_t ds_rng_below(uint64_t r64, uint64_t range) {
  return (uint32_t)(((r64 >> 32) * range) >> 32);
}

/* Weight uniform in [wmin, wmax] from a 64-bit draw. */
static inline uint32_t ds_rng_weight(uint64_t r64, uint32_t wmin, uint32_t wmax) {
  return wmin + ds_rng_below(r64, (uint64_t)wmax - wmin + 1);
}

/* Allocate out->src/dst/w for count edges (count may be 0). */
ds_status ds_gen_alloc_edges(ds_gen_edge_list *out, uint32_t n, uint64_t count, int symmetric,
                             ds_error *err);

/* Report progress if the spec asks for it. */
static inline void ds_gen_report(const ds_gen_spec *spec, double fraction) {
  if (spec->progress) spec->progress(spec->progress_ctx, fraction);
}

/* Items per progress step of the parallel loops. */
#define DS_GEN_BLOCK (UINT64_C(1) << 20)

/* The generators. Specs are already checked by ds_gen_edges. */
ds_status ds_gen_rmat_edges(const ds_gen_spec *spec, ds_gen_edge_list *out, ds_error *err);
ds_status ds_gen_grid_edges(const ds_gen_spec *spec, ds_gen_edge_list *out, ds_error *err);
ds_status ds_gen_geo_edges(const ds_gen_spec *spec, ds_gen_edge_list *out, double *px,
                           double *py, ds_error *err);
ds_status ds_gen_uniform_edges(const ds_gen_spec *spec, ds_gen_edge_list *out, ds_error *err);

/* The radius a geometric spec stands for (radius, or derived from degree). */
double ds_gen_geo_radius(const ds_gen_spec *spec);

#endif /* DS_GEN_INTERNAL_H */
