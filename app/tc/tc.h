/* Triangle counting in an undirected graph: the number of triangles, and
 * optionally the number through each vertex. 64-bit counts everywhere.
 *
 * Library ds_tc (C11, OpenMP). Nothing here prints or exits; errors come back
 * as a ds_status with a message naming the function and the argument.
 *
 * Example:
 *   uint64_t total;
 *   ds_error err;
 *   if (ds_tc_cpu(&g, 0, &total, NULL, &err) != DS_OK) fprintf(stderr, "%s\n", err.msg);
 */
#ifndef DS_TC_H
#define DS_TC_H

#include <stdint.h>

#include "ds/graph.h" /* ds_graph: CSR, rows sorted, no self loops, no duplicates */
#include "ds/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Triangles by a plain serial count: for each edge (u, v) with u < v, the
 * common neighbours w > v by merging the two sorted rows. The oracle of the
 * parallel backend.
 * [in]  g           an undirected graph (g->symmetric == 1); weights are ignored.
 * [out] total       the number of triangles.
 * [out] per_vertex  NULL, or n entries (caller-allocated): triangles through each vertex
 *                   (they sum to 3 * total).
 * Scratch: none.
 * Errors: DS_ERR_ARG (NULL graph or total, a graph that is not symmetric). */
ds_status ds_tc_oracle(const ds_graph *g, uint64_t *total, uint64_t *per_vertex, ds_error *err);

/* Triangles on the OpenMP threads: each edge is oriented from the endpoint of
 * lower (degree, id) to the higher, and each oriented edge (u, v) counts the
 * common out-neighbours of u and v (a bitmap of u's out-row, probed with v's),
 * so every triangle is found once, from its lowest vertex, and no out-row is
 * longer than sqrt(2m).
 * [in]  threads  OpenMP threads; <= 0: OpenMP's default.
 * Otherwise as ds_tc_oracle; the result is the same for any thread count.
 * Scratch: 16 n + 2 m bytes (the oriented graph, renumbered by rank) and n / 8
 * bytes a thread (the bitmaps), 8 (max degree + 2) bytes (the ranking), allocated
 * and freed here.
 * Errors: as ds_tc_oracle, and DS_ERR_NOMEM. */
ds_status ds_tc_cpu(const ds_graph *g, int threads, uint64_t *total, uint64_t *per_vertex,
                    ds_error *err);

#ifdef __cplusplus
}
#endif
#endif /* DS_TC_H */
