/* Uniform random graph, G(n, m) style: m edges whose endpoints are uniform
 * over [0, n), drawn independently (as Graph500's and GAP's uniform
 * generators do). Self-loops are redrawn from the edge's own stream, so the
 * list has exactly m edges and none is a loop; duplicates (about m^2 / n^2 of
 * them, directed pairs) are left to ds_csr_build. Degrees concentrate around
 * 2m/n (undirected) with a binomial spread.
 *
 * Edge i: ds_rng_stream(seed, DS_TAG_EDGE, i) gives src, dst (redrawn while
 * equal), then the weight.
 */
#include "gen_kinds.h"

ds_status ds_gen_uniform_edges(const ds_gen_spec *s, ds_gen_edge_list *out, ds_error *err) {
  const uint64_t count = s->m, n = s->n;
  ds_status st = ds_gen_alloc_edges(out, s->n, count, s->symmetric, err);
  if (st != DS_OK) return st;
  uint32_t *src = out->src, *dst = out->dst, *w = out->w;
  const uint64_t base = ds_rng_base(s->seed, DS_TAG_EDGE);
  for (uint64_t block = 0; block < count; block += DS_GEN_BLOCK) {
    const int64_t end = (int64_t)(count - block < DS_GEN_BLOCK ? count : block + DS_GEN_BLOCK);
#pragma omp parallel for schedule(static)
    for (int64_t i = (int64_t)block; i < end; i++) {
      ds_rng r = ds_rng_at(base, (uint64_t)i);
      uint32_t u, v;
      do { /* n >= 2, so this ends (expected n/(n-1) rounds) */
        uint64_t x = ds_rng_next(&r);
        u = ds_rng_below(x, n);
        v = ds_rng_below(x << 32, n);
      } while (u == v);
      src[i] = u;
      dst[i] = v;
      w[i] = ds_weight_shape(s->weight_dist, ds_rng_next(&r), s->weight_min, s->weight_max);
    }
    ds_gen_report(s, (double)end / (double)count);
  }
  return DS_OK;
}
