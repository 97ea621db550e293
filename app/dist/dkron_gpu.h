/* Graph500's Kronecker edges (dkron.h) drawn on the GPU: the same per-edge
 * streams as the host's (ds/kron_edge.h), so a rank's share drawn on its GPU
 * is bit for bit the share ds_dkron_generate draws on the host; and the
 * distributed build of that graph with its edges drawn and grouped by owner
 * on the GPU (ds_dkron_build_device: msplit's split of records); each rank's
 * CSR is then built on its GPU where it fits (ds_dgraph_build).
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

typedef struct {
  int device;           /* the GPU; -1: the calling thread's current one */
  uint64_t chunk_edges; /* edges drawn and grouped at a time; 0: as many as fit in free GPU
                           memory (a test sets a few to check the chunked path) */
} ds_dkron_gpu_options;

/* ds_dkron_build (collective, the same parts) with this rank's share drawn on
 * its GPU and copied to the host (the partition and the exchange read it
 * there), then its arcs grouped by owner on the GPU: each edge drawn again,
 * both directions packed as (tail, head, weight bits) records with their
 * owner's bucket, msplit's stable split of records into the R owners (and a
 * bucket for self-loops, dropped), the buckets copied to the host: the CPU
 * grouping's arcs in its order. Chunks of edges sized from free GPU memory;
 * where not even a small chunk fits, that step runs on the host and
 * info->note says why (a run that works on the host never fails for it).
 * [in] opt   NULL: device -1, chunks from free memory.
 * Errors: ds_dkron_build's, DS_ERR_DEVICE (a CUDA or msplit call). */
ds_status ds_dkron_build_device(ds_comm *comm, const ds_dkron_spec *spec,
                                const ds_dkron_gpu_options *opt, ds_dgraph *g,
                                ds_dkron_info *info, ds_error *err);

#ifdef __cplusplus
}
#endif
#endif /* DS_DIST_DKRON_GPU_H */
