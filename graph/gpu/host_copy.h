/* Copies between host memory the caller allocated as it pleased (pageable)
 * and the device, at the speed of pinned memory (graph/gpu, C++ host code).
 *
 * Pageable memory is copied by the driver through a small bounce buffer of
 * its own, at a fraction of what the bus carries. Two ways around that:
 *   staged:   a pinned staging ring of STAGE_SLOTS slots; the host threads
 *             (OpenMP) copy a chunk into one slot while the DMA engine moves
 *             the previous one, so the host copy and the bus overlap;
 *   register: the caller's pages pinned in place (cudaHostRegister) for the
 *             copy and released after; no host copy, but pinning costs time
 *             in proportion to the pages (where pinning fails: pageable).
 * Both are synchronous: the data are in place when the call returns.
 */
#ifndef DS_HOST_COPY_H
#define DS_HOST_COPY_H

#include <cuda_runtime.h>
#include <stddef.h>

#include "ds/csr_gpu.h"
#include "ds/status.h"

constexpr int STAGE_SLOTS = 2;

/* The staging ring of one build (empty unless the mode is staged). */
struct ds_stage {
  void *slot[STAGE_SLOTS] = {};
  cudaEvent_t done[STAGE_SLOTS] = {};
  size_t slot_bytes = 0;
  ~ds_stage();
};

/* Makes the ring for mode DS_CSR_GPU_STAGED (nothing for the others). */
ds_status ds_stage_open(ds_stage *st, ds_csr_gpu_transfer mode, ds_error *err);

/* bytes from host src to device dst (to_device), or from device src to host
 * dst, on stream s, the way mode says; returns when done. */
ds_status ds_host_copy(void *dst, const void *src, size_t bytes, bool to_device,
                       ds_csr_gpu_transfer mode, ds_stage *st, cudaStream_t s, ds_error *err);

#endif /* DS_HOST_COPY_H */
