/* Internal to ds_gen: what every generator shares, below the generators and
 * the front end (gen_common.c) alike, so that neither depends on the other
 * through it: the random streams' tags, the edge list's memory and progress.
 *
 * Random streams (ds/rng.h). Every edge (point, level, ...) i of a generator
 * owns the stream ds_rng_stream(seed, tag, i): a splitmix64 sequence whose
 * start is a bijective hash of (seed, tag, i). Nothing is shared between
 * items, so any split of the items over threads gives the same output. The
 * tag keeps the streams of different uses (edges, weights, permutation,
 * noise) apart.
 */
#ifndef DS_GEN_EDGES_H
#define DS_GEN_EDGES_H

#include <stdint.h>

#include "ds/gen.h"
#include "ds/rng.h"

/* Stream tags. */
enum {
  DS_TAG_EDGE = 1,    /* endpoints of edge i */
  DS_TAG_WEIGHT = 2,  /* weight of edge i (where it is drawn apart from the endpoints) */
  DS_TAG_PERM = 3,    /* the vertex permutation */
  DS_TAG_NOISE = 4,   /* per-level noise of R-MAT */
  DS_TAG_POINT = 5    /* coordinates of point i */
};

/* Allocate out->src/dst/w for count edges (count may be 0). */
ds_status ds_gen_alloc_edges(ds_gen_edge_list *out, uint32_t n, uint64_t count, int symmetric,
                             ds_error *err);

/* Report progress if the spec asks for it. */
static inline void ds_gen_report(const ds_gen_spec *spec, double fraction) {
  if (spec->progress) spec->progress(spec->progress_ctx, fraction);
}

/* Items per progress step of the parallel loops. */
#define DS_GEN_BLOCK (UINT64_C(1) << 20)

/* The radius a geometric spec stands for (radius, or derived from degree). */
double ds_gen_geo_radius(const ds_gen_spec *spec);

#endif /* DS_GEN_EDGES_H */
