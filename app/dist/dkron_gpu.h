/* Graph500's Kronecker edges (dkron.h) drawn on the GPU: the same per-edge
 * streams as the host's (ds/kron_edge.h), so a rank's share drawn on its GPU
 * is bit for bit the share ds_dkron_generate draws on the host. The first
 * step of a build that stays on the GPU (the owner grouping by the library's
 * multisplit and the GPU CSR build are still to come).
 */
#ifndef DS_DIST_DKRON_GPU_H
#define DS_DIST_DKRON_GPU_H

#include <cuda_runtime_api.h>
#include <stdint.h>

#include "dist/dkron.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Draws edges [begin, end) of the spec's graph into device arrays of
 * end - begin values each (edge begin + k at index k): a thread an edge, in
 * a grid-stride loop. Asynchronous on stream; does not synchronise.
 * spec->threads is ignored (a host setting).
 * Errors: DS_ERR_ARG (the spec, a range beyond the graph's edges, NULL
 * arrays for a non-empty range), DS_ERR_DEVICE (the launch). */
ds_status ds_dkron_generate_device(const ds_dkron_spec *spec, uint64_t begin, uint64_t end,
                                   uint32_t *d_src, uint32_t *d_dst, float *d_w,
                                   cudaStream_t stream, ds_error *err);

#ifdef __cplusplus
}
#endif
#endif /* DS_DIST_DKRON_GPU_H */
