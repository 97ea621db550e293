/* 2-D grid: rows x cols vertices, vertex (r, c) has id r*cols + c and is joined
 * to its right and lower neighbours (4-neighbourhood once the edges are stored
 * in both directions). A road-like graph: bounded degree, diameter rows+cols-2
 * in hops.
 *
 * Edge order: the rows*(cols-1) horizontal edges (row-major), then the
 * (rows-1)*cols vertical ones. Edge i's weight is the first draw of
 * ds_rng_stream(seed, DS_TAG_WEIGHT, i), made a weight by ds_weight_shape.
 */
#include "gen_kinds.h"

ds_status ds_gen_grid_edges(const ds_gen_spec *s, ds_gen_edge_list *out, ds_error *err) {
  // 1. sizes
  const uint64_t rows = s->rows, cols = s->cols;
  const uint64_t horizontal = rows * (cols - 1);
  const uint64_t count = horizontal + (rows - 1) * cols;
  ds_status st = ds_gen_alloc_edges(out, (uint32_t)(rows * cols), count, s->symmetric, err);
  if (st != DS_OK) return st;
  // 2. the edges, each one's place and weight computed from its index alone
  uint32_t *src = out->src, *dst = out->dst, *w = out->w;
  const uint64_t base = ds_rng_base(s->seed, DS_TAG_WEIGHT);
  for (uint64_t block = 0; block < count; block += DS_GEN_BLOCK) {
    const int64_t end = (int64_t)(count - block < DS_GEN_BLOCK ? count : block + DS_GEN_BLOCK);
#pragma omp parallel for schedule(static)
    for (int64_t i = (int64_t)block; i < end; i++) {
      uint64_t u, v;
      if ((uint64_t)i < horizontal) {
        uint64_t r = (uint64_t)i / (cols - 1), c = (uint64_t)i % (cols - 1);
        u = r * cols + c;
        v = u + 1;
      } else {
        u = (uint64_t)i - horizontal; /* (r, c) with r < rows - 1, in row-major order */
        v = u + cols;
      }
      ds_rng rng = ds_rng_at(base, (uint64_t)i);
      src[i] = (uint32_t)u;
      dst[i] = (uint32_t)v;
      w[i] = ds_weight_shape(s->weight_dist, ds_rng_next(&rng), s->weight_min, s->weight_max);
    }
    ds_gen_report(s, (double)end / (double)count);
  }
  return DS_OK;
}
