/* The program side of the GPU options: the DS_GPU_* environment variables
 * that experiments and tests use to override the measured defaults
 * (ds_gpu_options, app/sssp/gpu/gpu_sssp.h), and the per-round trace file of
 * DS_GPU_TRACE. The GPU library reads no environment and writes no file;
 * `sssp`, gpu_sssp_test and gpu_bench read the overrides here.
 *
 * Variables (README, "Benchmarks"): DS_GPU_BLOCKS_PER_SM, DS_GPU_SOLO_MAX,
 * DS_GPU_TEAM_BLOCKS, DS_GPU_TEAM_MAX, DS_GPU_SOLO_LOCAL, DS_GPU_RANK_BLOCKS,
 * DS_GPU_DYNAMIC_TILES, DS_GPU_MIN_TILE, DS_GPU_HUGE_DEGREE, DS_GPU_LOCAL_SOLO,
 * DS_GPU_LOCAL_TEAM, DS_GPU_LOCAL_GRID, DS_GPU_LOCAL_ORDER, DS_GPU_SPILL_LIMIT,
 * DS_GPU_SELF_CHECK, DS_GPU_STALL_MS, DS_GPU_FORCE_STALL
 * (whole numbers; ds_gpu_open checks their ranges) and DS_GPU_TRACE=FILE.
 */
#ifndef DS_GPU_OPTIONS_H
#define DS_GPU_OPTIONS_H

#include "gpu_sssp.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Overrides the fields of opt whose variables are set. DS_ERR_ARG names a
 * variable that is not a whole number of its field's type. */
ds_status ds_gpu_options_from_env(ds_gpu_options *opt, ds_error *err);

/* ds_gpu_open with the defaults and the environment's overrides; with
 * DS_GPU_TRACE=FILE, every search of the context is traced (see
 * ds_gpu_sssp_env). One context at a time. */
ds_status ds_gpu_open_env(int device, const ds_graph *g, ds_gpu_ctx **ctx, ds_error *err);

/* ds_gpu_sssp, then, when tracing, appends the search's trace to the
 * DS_GPU_TRACE file (DS_ERR_IO if it cannot be written). */
ds_status ds_gpu_sssp_env(ds_gpu_ctx *ctx, ds_algo algo, uint32_t source, const ds_sssp_params *params,
                          ds_sssp_result *res, ds_error *err);

#ifdef __cplusplus
}
#endif
#endif /* DS_GPU_OPTIONS_H */
