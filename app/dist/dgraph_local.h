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

/* ds_dgraph_build_local on the calling thread's current CUDA device (dgraph_csr_gpu.cu, in
 * CUDA builds only: DS_DIST_CSR_GPU): the same CSR, arc for arc. g as there (g->n, first,
 * n_local, rank set); arcs stay the caller's, unchanged, failed or not. Synchronous. Device
 * memory: ds_dgraph_build_local_gpu_bytes, checked against the free memory (ds/device.h, its
 * cap included) before any allocation; host memory: the CSR alone.
 * Errors: DS_ERR_DEVICE where the GPU does not build it, g untouched, for the host build to
 * follow (no device, the arcs do not fit, 2^32 arcs or more, more than 2^30 rows, a head >= n,
 * a CUDA or msplit failure, the runtime's last error cleared); DS_ERR_ARG (an arc of a vertex g
 * does not own, in the host build's words), DS_ERR_NOMEM. */
ds_status ds_dgraph_build_local_gpu(ds_dgraph *g, const uint32_t *arcs, uint64_t count,
                                    ds_error *err);

/* The device bytes of ds_dgraph_build_local_gpu for count arcs of n_local rows and n vertices
 * (UINT64_MAX where the sizes cannot be asked). */
uint64_t ds_dgraph_build_local_gpu_bytes(uint32_t n_local, uint32_t n, uint64_t count);

#ifdef __cplusplus
}
#endif
#endif /* DS_DIST_DGRAPH_LOCAL_H */
