/* deltasplit GPU SSSP: the host side of a persistent kernel, for both engines
 * (Near-Far / Bellman-Ford and the bucket engine).
 *
 * The engines' searches are cooperative kernels whose blocks must all be
 * resident (grid barriers): the grid is as many blocks as the occupancy
 * allows, at most the context's blocks per SM, built for 1 or 2 blocks per SM
 * (kernel_for). A search is timed with the context's events around what it
 * enqueues, and its summary is read back after the stop event.
 */
#ifndef DS_GPU_LAUNCH_CUH
#define DS_GPU_LAUNCH_CUH

#include "gpu_common.cuh"

namespace dsgpu {

/* The build of a persistent kernel for the context's blocks per SM, and with
 * one, whether its local steps are ordered. */
template <typename K> inline const void *kernel_for(const ds_gpu_ctx *ctx, K one, K two, K one_ordered) {
  if (ctx->blocks_per_sm != 1) return (const void *)two;
  return ctx->knobs.local_order ? (const void *)one_ordered : (const void *)one;
}

/* A persistent kernel and its grid. */
struct persistent_launch {
  const void *kernel;
  int grid; /* blocks */
};

/* The grid of `kernel` (kernel_for's build): as many blocks as can be
 * resident at once, at most the context's blocks per SM. */
inline ds_status persistent_grid(const ds_gpu_ctx *ctx, const void *kernel, const char *who, persistent_launch *pl,
                                 ds_error *err) {
  int per_sm = 0;
  const cudaError_t e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, RELAX_BLOCK, 0);
  if (e != cudaSuccess || per_sm < 1)
    return ds_error_set(err, DS_ERR_DEVICE, "%s: the search kernel cannot be resident: %s", who,
                        cudaGetErrorString(e));
  if (per_sm > ctx->blocks_per_sm) per_sm = ctx->blocks_per_sm;
  pl->kernel = kernel;
  pl->grid = per_sm * ctx->num_sms;
  return DS_OK;
}

/* One cooperative launch of pl on the context's stream. */
inline ds_status cooperative_launch(const ds_gpu_ctx *ctx, const persistent_launch &pl, void **args,
                                    const char *who, ds_error *err) {
  if (cudaLaunchCooperativeKernel(pl.kernel, dim3(pl.grid), dim3(RELAX_BLOCK), args, 0, ctx->stream) != cudaSuccess)
    return ds_error_set(err, DS_ERR_DEVICE, "%s: cooperative launch failed: %s", who,
                        cudaGetErrorString(cudaGetLastError()));
  return DS_OK;
}

/* Times search(), which enqueues a search on the context's stream and returns
 * a ds_status, with the context's events; then reads `bytes` of the search's
 * summary back from `dev` into `host` and waits for both. *ms: the search's
 * time on the device. */
template <typename Search>
ds_status timed_search(ds_gpu_ctx *ctx, const char *who, Search search, void *host, const void *dev, size_t bytes,
                       float *ms, ds_error *err) {
  DS_CUDA_TRY(cudaEventRecord(ctx->ev_start, ctx->stream));
  DS_TRY(search());
  DS_CUDA_TRY(cudaEventRecord(ctx->ev_stop, ctx->stream));
  if (cudaMemcpyAsync(host, dev, bytes, cudaMemcpyDeviceToHost, ctx->stream) != cudaSuccess ||
      cudaStreamSynchronize(ctx->stream) != cudaSuccess)
    return ds_error_set(err, DS_ERR_DEVICE, "%s: search failed: %s", who, cudaGetErrorString(cudaGetLastError()));
  DS_CUDA_TRY(cudaEventElapsedTime(ms, ctx->ev_start, ctx->ev_stop));
  return DS_OK;
}

} // namespace dsgpu

#endif /* DS_GPU_LAUNCH_CUH */
