/* Internal to ds_gen: the per-kind edge generators that ds_gen_edges
 * (gen_common.c) dispatches to, one per file. Specs are already checked by
 * ds_gen_edges. They use gen_edges.h, never the front end.
 */
#ifndef DS_GEN_KINDS_H
#define DS_GEN_KINDS_H

#include "ds/rng.h"
#include "gen_edges.h"

/* A weight of spec s from one 64-bit draw (its distribution: ds_gen_weight_dist). Integer
 * arithmetic only, so a seed gives the same graph on every machine. */
static inline uint32_t ds_gen_weight(const ds_gen_spec *s, uint64_t r64) {
  const uint32_t lo = s->weight_min, hi = s->weight_max;
  switch (s->weight_dist) {
    case DS_GEN_WEIGHTS_LOG: {
      /* octaves floor(log2 lo) .. floor(log2 hi); the high 32 bits pick one, the low the weight */
      const int k_lo = 31 - __builtin_clz(lo), k_hi = 31 - __builtin_clz(hi);
      const int k = k_lo + (int)ds_rng_below(r64, (uint64_t)(k_hi - k_lo + 1));
      const uint64_t first = (uint64_t)1 << k, last = ((uint64_t)1 << (k + 1)) - 1;
      const uint32_t a = first > lo ? (uint32_t)first : lo, b = last < hi ? (uint32_t)last : hi;
      return ds_rng_weight(r64 << 32, a, b);
    }
    case DS_GEN_WEIGHTS_BIMODAL: {
      const uint32_t span = hi - lo;
      if (ds_rng_below(r64, 100) == 0) return ds_rng_weight(r64 << 32, hi - span / 2, hi);
      return ds_rng_weight(r64 << 32, lo, lo + span / 65536);
    }
    default: return ds_rng_weight(r64, lo, hi);
  }
}

ds_status ds_gen_rmat_edges(const ds_gen_spec *spec, ds_gen_edge_list *out, ds_error *err);
ds_status ds_gen_grid_edges(const ds_gen_spec *spec, ds_gen_edge_list *out, ds_error *err);
/* out == NULL: only the points (px, py, each n doubles); px == NULL: only the edges. */
ds_status ds_gen_geo_edges(const ds_gen_spec *spec, ds_gen_edge_list *out, double *px,
                           double *py, ds_error *err);
ds_status ds_gen_uniform_edges(const ds_gen_spec *spec, ds_gen_edge_list *out, ds_error *err);

#endif /* DS_GEN_KINDS_H */
