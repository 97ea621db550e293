/* deltasplit GPU SSSP: the Near-Far engine, shared with Bellman-Ford. */
#ifndef DS_GPU_NEAR_FAR_CUH
#define DS_GPU_NEAR_FAR_CUH

#include "gpu_common.cuh"

namespace dsgpu {
/* Near-Far with bucket width `delta`; infinite != 0 makes one infinite bucket
 * (Bellman-Ford on frontiers). Stops once the n_targets targets (a host array,
 * or NULL) are settled (res->stopped_early). Fills res->time_ms and
 * res->rounds. */
template <typename W>
ds_status near_far_engine(ds_gpu_ctx *ctx, uint32_t source, double delta, int infinite,
                          const uint32_t *targets, uint32_t n_targets, ds_sssp_result *res,
                          ds_error *err);
} // namespace dsgpu

#endif
