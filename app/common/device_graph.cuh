/* A graph on the device for the whole-graph GPU codes (kcore, tc): the CSR
 * uploaded once, a stream, two events to time a run, and the check that a
 * working set fits the device, made before anything is allocated on it.
 */
#ifndef DS_DEVICE_GRAPH_CUH
#define DS_DEVICE_GRAPH_CUH

#include <cuda_runtime.h>
#include <stdint.h>

#include "ds/cuda_try.h"
#include "ds/graph.h"

typedef struct {
  int device;
  uint32_t n;
  uint64_t m;
  uint64_t *row; /* n + 1 offsets */
  uint32_t *col; /* m columns (at least one entry) */
  cudaStream_t stream;
  cudaEvent_t start, stop;
  void *pinned; /* 256 bytes of pinned host memory for small read-backs */
} ds_device_graph;

#define DS_DEVICE_GRAPH_PINNED_BYTES 256u

/* Bytes the CSR of g takes on the device. */
uint64_t ds_device_graph_bytes(uint32_t n, uint64_t m);

/* Refuses (DS_ERR_DEVICE, a message with what, the bytes needed and
 * available) a device that has less free memory than the CSR of g plus
 * `work` bytes, before allocating anything; otherwise uploads g's CSR (the
 * weights stay on the host) and makes the stream and events. On failure
 * everything made is freed. what: "k-core", "triangle counting". */
ds_status ds_device_graph_open(int device, const ds_graph *g, uint64_t work, const char *what,
                               ds_device_graph *d, ds_error *err);

/* Frees what open made; a zeroed d is fine. */
void ds_device_graph_close(ds_device_graph *d);

/* The milliseconds between d->start and d->stop, once stop has happened. */
ds_status ds_device_graph_elapsed(ds_device_graph *d, double *ms, ds_error *err);

#endif /* DS_DEVICE_GRAPH_CUH */
