/* Graph500's Kronecker edges drawn on the GPU (dkron_gpu.h): kron_edge.h's
 * per-edge math, compiled for the device, a thread an edge. The plan (the
 * levels' thresholds and the scramble's constants, about 850 bytes) is a
 * kernel parameter, read by every thread from the constant bank.
 */
#include "dist/dkron_gpu.h"

#include "ds/graph500.h"
#include "ds/kron_edge.h"

#define DRAW_THREADS 256
#define DRAW_MAX_BLOCKS 65535u /* a grid-stride loop covers the rest */

static_assert(sizeof(ds_kron_plan) <= 4096, "the plan must fit the kernel parameters");

__global__ void draw_edges(ds_kron_plan plan, uint64_t begin, uint64_t len, uint32_t *src,
                           uint32_t *dst, float *w) {
  const uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
  for (uint64_t k = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; k < len; k += stride) {
    uint32_t u, v;
    const uint64_t draw = ds_kron_edge(&plan, begin + k, &u, &v);
    src[k] = u;
    dst[k] = v;
    w[k] = ds_kron_unit_weight(draw);
  }
}

extern "C" ds_status ds_dkron_generate_device(const ds_dkron_spec *spec, uint64_t begin,
                                              uint64_t end, uint32_t *d_src, uint32_t *d_dst,
                                              float *d_w, cudaStream_t stream, ds_error *err) {
  // 1. arguments: the host generator's checks
  ds_status st =
      spec != NULL ? ds_graph500_range_check(spec->scale, spec->edge_factor, begin, end, err)
                   : ds_error_set(err, DS_ERR_ARG, "kron: the spec must not be NULL");
  if (st != DS_OK) return st;
  const uint64_t len = end - begin;
  if (len == 0) return DS_OK;
  if (d_src == NULL || d_dst == NULL || d_w == NULL)
    return ds_error_set(err, DS_ERR_ARG, "kron: the device arrays must not be NULL");
  // 2. the plan, on the host; the launch
  ds_kron_plan plan;
  ds_kron_plan_init(&plan, spec->seed, spec->scale, (uint32_t)(UINT64_C(1) << spec->scale),
                    DS_KRON_GRAPH500_A, DS_KRON_GRAPH500_B, DS_KRON_GRAPH500_C, 1);
  const uint64_t want = (len + DRAW_THREADS - 1) / DRAW_THREADS;
  const unsigned blocks = want < DRAW_MAX_BLOCKS ? (unsigned)want : DRAW_MAX_BLOCKS;
  draw_edges<<<blocks, DRAW_THREADS, 0, stream>>>(plan, begin, len, d_src, d_dst, d_w);
  const cudaError_t e = cudaPeekAtLastError();
  if (e != cudaSuccess)
    return ds_error_set(err, DS_ERR_DEVICE, "kron: the generator's launch failed: %s",
                        cudaGetErrorString(e));
  return DS_OK;
}
