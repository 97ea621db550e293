/* The device graph of the whole-graph GPU codes (device_graph.cuh). */
#include <stdlib.h>
#include <string.h>

#include "device_graph.cuh"
#include "ds/device.h"

/* at least one column entry, so that an edgeless graph has valid pointers */
uint64_t ds_device_graph_bytes(uint32_t n, uint64_t m) {
  return sizeof(uint64_t) * ((uint64_t)n + 1) + sizeof(uint32_t) * (m ? m : 1);
}

static ds_status open_impl(int device, const ds_graph *g, uint64_t work, const char *what,
                           ds_device_graph *d, ds_error *err) {
  // 1. will it fit? Asked before the first allocation
  uint64_t free_b = 0, total_b = 0;
  DS_TRY(ds_device_mem_info(device, &free_b, &total_b, err));
  DS_CUDA_TRY(cudaSetDevice(device));
  const uint64_t need = ds_device_graph_bytes(g->n, g->m) + work;
  if (need > free_b)
    return ds_error_set(err, DS_ERR_DEVICE,
                        "%s of %s (%u vertices, %llu arcs) does not fit on the GPU: needs %.2f GB, "
                        "%.2f GB available of %.2f GB",
                        what, g->name, g->n, (unsigned long long)g->m, need / 1e9, free_b / 1e9,
                        total_b / 1e9);
  // 2. stream, events, pinned read-back words
  DS_CUDA_TRY(cudaStreamCreateWithFlags(&d->stream, cudaStreamNonBlocking));
  DS_CUDA_TRY(cudaEventCreate(&d->start));
  DS_CUDA_TRY(cudaEventCreate(&d->stop));
  DS_CUDA_TRY(cudaMallocHost(&d->pinned, DS_DEVICE_GRAPH_PINNED_BYTES));
  // 3. the CSR
  DS_CUDA_TRY(cudaMalloc(&d->row, sizeof(uint64_t) * ((uint64_t)g->n + 1)));
  DS_CUDA_TRY(cudaMalloc(&d->col, sizeof(uint32_t) * (g->m ? g->m : 1)));
  DS_CUDA_TRY(cudaMemcpy(d->row, g->row_offsets, sizeof(uint64_t) * ((uint64_t)g->n + 1),
                         cudaMemcpyHostToDevice));
  if (g->m)
    DS_CUDA_TRY(cudaMemcpy(d->col, g->col, sizeof(uint32_t) * g->m, cudaMemcpyHostToDevice));
  return DS_OK;
}

ds_status ds_device_graph_open(int device, const ds_graph *g, uint64_t work, const char *what,
                               ds_device_graph *d, ds_error *err) {
  memset(d, 0, sizeof *d);
  d->device = device;
  d->n = g->n;
  d->m = g->m;
  const ds_status st = open_impl(device, g, work, what, d, err);
  if (st != DS_OK) ds_device_graph_close(d);
  return st;
}

void ds_device_graph_close(ds_device_graph *d) {
  if (d->stream) cudaStreamSynchronize(d->stream);
  cudaFree(d->row);
  cudaFree(d->col);
  if (d->pinned) cudaFreeHost(d->pinned);
  if (d->start) cudaEventDestroy(d->start);
  if (d->stop) cudaEventDestroy(d->stop);
  if (d->stream) cudaStreamDestroy(d->stream);
  memset(d, 0, sizeof *d);
}

ds_status ds_device_graph_elapsed(ds_device_graph *d, double *ms, ds_error *err) {
  float f = 0.0f;
  DS_CUDA_TRY(cudaEventSynchronize(d->stop));
  DS_CUDA_TRY(cudaEventElapsedTime(&f, d->start, d->stop));
  *ms = f;
  return DS_OK;
}
