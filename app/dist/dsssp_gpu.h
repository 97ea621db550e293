/* Distributed delta-stepping with each rank's part of the graph on its GPU
 * (dsssp_gpu.cu). Built where CUDA and NCCL were found (DS_HAVE_NCCL).
 *
 * The same rounds as the CPU twin (dsssp.h, dsssp_engine.h), with the engine
 * on the device: the rank's CSR, keys and predecessors live on its GPU, a
 * round's relaxations of other ranks' vertices are combined per head on the
 * GPU (the least distance), listed by owner rank as they are combined, and
 * exchanged in device memory by the NCCL backend, with one host wait a round
 * (the bucket the ranks agree on stays on the device). The result is the CPU
 * twin's: the same distances (integer: exact; float: float sums), a tight
 * predecessor tree.
 */
#ifndef DS_DIST_DSSSP_GPU_H
#define DS_DIST_DSSSP_GPU_H

#include "dist/dsssp.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Delta-stepping on the GPU of this rank (collective: every rank of comm
 * calls it with its part of the same graph, the same source and params).
 * [in] comm    the rank's communicator: the NCCL backend (ds_comm_nccl_create;
 *              updates move GPU to GPU), or a host backend (the updates are
 *              staged through host memory: for tests of the engine alone).
 *              The calling thread's current device is the rank's GPU.
 * [in] g       this rank's part, in host memory (ds_dgraph_build over the
 *              ranks' host communicator); copied to the GPU for the search.
 * params->buckets is checked but not used: the engine finds a round's bucket
 * by a scan of the rank's keys, not from a window of lists.
 * [out] res    as ds_dsssp_cpu (host memory); time_ms includes the copies of
 *              the graph to the GPU and of the result back.
 * Errors, on every rank: those of ds_dsssp_cpu, and DS_ERR_DEVICE (a CUDA or
 * NCCL error), DS_ERR_NOMEM (GPU memory: the message says for what). */
ds_status ds_dsssp_gpu(ds_comm *comm, const ds_dgraph *g, uint32_t source,
                       const ds_dsssp_params *params, ds_dsssp_result *res, ds_error *err);

/* The same engine kept across searches: ds_dsssp_gpu_open copies the rank's
 * part to its GPU and allocates what a search needs (collective; refused on
 * every rank where it does not fit, as ds_dsssp_gpu), with room for
 * predecessors where want_pred; ds_dsssp_gpu_search runs one search as
 * ds_dsssp_gpu (collective; params->want_pred only on an engine opened with
 * them; time_ms without the opening); ds_dsssp_gpu_close frees it (NULL: no
 * effect). comm and g must outlive the engine. A search that failed leaves
 * the engine to be closed: its communicator may have been aborted. */
typedef struct ds_dsssp_gpu_engine ds_dsssp_gpu_engine;
ds_status ds_dsssp_gpu_open(ds_comm *comm, const ds_dgraph *g, int want_pred,
                            ds_dsssp_gpu_engine **out, ds_error *err);
ds_status ds_dsssp_gpu_search(ds_dsssp_gpu_engine *engine, uint32_t source,
                              const ds_dsssp_params *params, ds_dsssp_result *res, ds_error *err);
void ds_dsssp_gpu_close(ds_dsssp_gpu_engine *engine);

#ifdef __cplusplus
}
#endif
#endif /* DS_DIST_DSSSP_GPU_H */
