/* Graph500's SSSP graph, as an input beside the files (graph500.c): every
 * program takes it (--kron S), and a distributed run draws it by ranges.
 * 2^scale vertices, edge_factor << scale undirected edges drawn with
 * Graph500's Kronecker probabilities (a = 0.57, b = 0.19, c = 0.19; the
 * endpoints graphgen's kron draws for the same seed), ids scrambled, float
 * weights uniform on [0, 1) (24 random bits) as Graph500's SSSP kernel
 * draws them. Edge i comes from its own stream (ds/kron_edge.h), so any range
 * of edges is drawn alone and the same for any split over ranks or threads. */
#ifndef DS_GRAPH500_H
#define DS_GRAPH500_H

#include <stddef.h>
#include <stdint.h>

#include "ds/graph.h"

#ifdef __cplusplus
extern "C" {
#endif

#define DS_GRAPH500_MAX_SCALE 31 /* 2^scale vertices fit 32-bit ids */

/* DS_ERR_ARG naming the parameter ("kron: scale 40 is not in [1, 31]"). */
ds_status ds_graph500_check(uint32_t scale, uint32_t edge_factor, ds_error *err);

/* ds_graph500_check's, and that [begin, end) lies within the graph's edges:
 * DS_ERR_ARG "kron: edges [B, E) are not within the graph's M". */
ds_status ds_graph500_range_check(uint32_t scale, uint32_t edge_factor, uint64_t begin,
                                  uint64_t end, ds_error *err);

/* Edges [begin, end) into src, dst and w (end - begin values each), on
 * `threads` OpenMP threads (0: OpenMP's default). Errors: DS_ERR_ARG (the
 * parameters, a range beyond edge_factor << scale, threads < 0). */
ds_status ds_graph500_edges(uint32_t scale, uint32_t edge_factor, uint64_t seed, int threads,
                            uint64_t begin, uint64_t end, uint32_t *src, uint32_t *dst, float *w,
                            ds_error *err);

/* The whole graph in one process: every edge, then the CSR (both directions;
 * opt NULL for the defaults; its csr_build hook, if set, builds it). g->name
 * is ds_graph500_name's, index base 0. Errors: ds_graph500_check's,
 * DS_ERR_NOMEM, the CSR build's. */
ds_status ds_graph500_build(uint32_t scale, uint32_t edge_factor, uint64_t seed,
                            const ds_load_options *opt, ds_graph *g, ds_error *err);

/* "graph500_sS_efE", with "_seedX" where the seed is not 1. */
void ds_graph500_name(uint32_t scale, uint32_t edge_factor, uint64_t seed, char *name,
                      size_t len);

/* Whether a graph path names this generator, "kron:S" (the programs' --kron
 * S): 1 and *scale, else 0. */
int ds_graph500_path(const char *path, uint32_t *scale);

#ifdef __cplusplus
}
#endif
#endif /* DS_GRAPH500_H */
