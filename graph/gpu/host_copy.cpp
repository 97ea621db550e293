/* Copies between pageable host memory and the device at pinned speed
 * (host_copy.h): a pinned staging ring, or the caller's pages pinned in place.
 */
#include "host_copy.h"

#include <omp.h>
#include <string.h>

#include "ds/cuda_try.h"

namespace {

constexpr size_t SLOT_BYTES = 32u << 20;  /* a chunk: long enough that a DMA dwarfs its setup */
constexpr size_t PIECE_BYTES = 1u << 20;  /* a host thread's share of a chunk's copy */

/* A chunk copied between host memory by every host thread. */
void parallel_memcpy(char *dst, const char *src, size_t bytes) {
  const long pieces = (long)((bytes + PIECE_BYTES - 1) / PIECE_BYTES);
#pragma omp parallel for schedule(static) if (pieces > 1)
  for (long p = 0; p < pieces; p++) {
    const size_t at = (size_t)p * PIECE_BYTES;
    memcpy(dst + at, src + at, at + PIECE_BYTES < bytes ? PIECE_BYTES : bytes - at);
  }
}

/* Staged: chunk k goes through slot k % STAGE_SLOTS. Up: the host fills a
 * slot once its previous DMA is done, then queues its DMA. Down: the DMA of
 * chunk k + 1 is queued before the host empties chunk k's slot. */
ds_status staged(char *dst, const char *src, size_t bytes, bool to_device, ds_stage *st,
                 cudaStream_t s, ds_error *err) {
  const size_t chunk = st->slot_bytes, chunks = (bytes + chunk - 1) / chunk;
  auto size_of = [&](size_t k) { return k + 1 < chunks ? chunk : bytes - k * chunk; };
  if (to_device) {
    for (size_t k = 0; k < chunks; k++) {
      const int sl = (int)(k % STAGE_SLOTS);
      DS_CUDA_TRY(cudaEventSynchronize(st->done[sl]));
      parallel_memcpy((char *)st->slot[sl], src + k * chunk, size_of(k));
      DS_CUDA_TRY(cudaMemcpyAsync(dst + k * chunk, st->slot[sl], size_of(k),
                                  cudaMemcpyHostToDevice, s));
      DS_CUDA_TRY(cudaEventRecord(st->done[sl], s));
    }
    DS_CUDA_TRY(cudaStreamSynchronize(s));
    return DS_OK;
  }
  for (size_t k = 0; k < chunks && k < (size_t)STAGE_SLOTS; k++) {
    DS_CUDA_TRY(cudaMemcpyAsync(st->slot[k], src + k * chunk, size_of(k), cudaMemcpyDeviceToHost, s));
    DS_CUDA_TRY(cudaEventRecord(st->done[k], s));
  }
  for (size_t k = 0; k < chunks; k++) {
    const int sl = (int)(k % STAGE_SLOTS);
    DS_CUDA_TRY(cudaEventSynchronize(st->done[sl]));
    parallel_memcpy(dst + k * chunk, (const char *)st->slot[sl], size_of(k));
    const size_t next = k + STAGE_SLOTS;
    if (next < chunks) {
      DS_CUDA_TRY(cudaMemcpyAsync(st->slot[sl], src + next * chunk, size_of(next),
                                  cudaMemcpyDeviceToHost, s));
      DS_CUDA_TRY(cudaEventRecord(st->done[sl], s));
    }
  }
  return DS_OK;
}

}  // namespace

ds_stage::~ds_stage() {
  for (int i = 0; i < STAGE_SLOTS; i++) {
    if (done[i]) cudaEventSynchronize(done[i]), cudaEventDestroy(done[i]);
    if (slot[i]) cudaFreeHost(slot[i]);
  }
}

ds_status ds_stage_open(ds_stage *st, ds_csr_gpu_transfer mode, ds_error *err) {
  if (mode != DS_CSR_GPU_STAGED) return DS_OK;
  for (int i = 0; i < STAGE_SLOTS; i++) {
    DS_CUDA_TRY(cudaHostAlloc(&st->slot[i], SLOT_BYTES, cudaHostAllocDefault));
    DS_CUDA_TRY(cudaEventCreateWithFlags(&st->done[i], cudaEventDisableTiming));
  }
  st->slot_bytes = SLOT_BYTES;
  return DS_OK;
}

ds_status ds_host_copy(void *dst, const void *src, size_t bytes, bool to_device,
                       ds_csr_gpu_transfer mode, ds_stage *st, cudaStream_t s, ds_error *err) {
  if (bytes == 0) return DS_OK;
  const cudaMemcpyKind kind = to_device ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost;
  if (mode == DS_CSR_GPU_STAGED)
    return staged((char *)dst, (const char *)src, bytes, to_device, st, s, err);
  void *host = to_device ? const_cast<void *>(src) : dst;
  bool pinned = false;
  if (mode == DS_CSR_GPU_REGISTER) {
    pinned = cudaHostRegister(host, bytes, cudaHostRegisterDefault) == cudaSuccess;
    if (!pinned) (void)cudaGetLastError(); /* not pinnable: copied as pageable */
  }
  DS_CUDA_TRY(cudaMemcpyAsync(dst, src, bytes, kind, s));
  DS_CUDA_TRY(cudaStreamSynchronize(s));
  if (pinned) DS_CUDA_TRY(cudaHostUnregister(host));
  return DS_OK;
}
