/* What the distributed CSR build (dgraph_build.c) shares with its local step
 * (dgraph_csr.c). Not for users of dgraph.h.
 */
#ifndef DS_DIST_DGRAPH_LOCAL_H
#define DS_DIST_DGRAPH_LOCAL_H

#include "dist/dgraph.h"

#ifdef __cplusplus
extern "C" {
#endif

#define DS_DGRAPH_ARC_WORDS 3 /* an arc on the wire: tail, head, weight bits */

/* The first of len items of piece p of pieces (nearly equal ones, len * p / pieces without
 * overflow). Work cut into pieces, one a task, gives the same result whatever thread runs which. */
uint64_t ds_dgraph_piece_start(uint64_t len, int p, int pieces);

/* g's CSR (row_offsets, col, weights, m_local; g->first and n_local set) from the count arcs
 * that arrived (DS_DGRAPH_ARC_WORDS words each, all of g's vertices; the function's to free,
 * failed or not), on `threads` OpenMP threads: rows sorted by head and weight bits, the first
 * key of every head kept. The same CSR for every thread count.
 * Errors: DS_ERR_NOMEM, DS_ERR_ARG (an arc of a vertex g does not own). */
ds_status ds_dgraph_build_local(ds_dgraph *g, uint32_t *arcs, uint64_t count, int threads,
                                ds_error *err);

#ifdef __cplusplus
}
#endif
#endif /* DS_DIST_DGRAPH_LOCAL_H */
