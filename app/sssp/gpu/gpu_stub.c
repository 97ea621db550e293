/* The GPU SSSP interface (gpu_sssp.h) for builds without CUDA: no
 * device is ever available, and every call that would need one returns
 * DS_ERR_DEVICE with the reason, so the `sssp` program falls back to the CPU
 * backend. Linked instead of library ds_gpu when that is not built.
 */
#include <stdio.h>
#include <string.h>

#include "gpu_sssp.h"

#define STUB_REASON "this build of deltasplit has no CUDA"

/* No defaults to measure without a GPU: every option says "none" or "by the
 * graph", and ds_gpu_open fails before reading any. */
void ds_gpu_options_default(ds_gpu_options *opt) { memset(opt, 0, sizeof *opt); }

ds_status ds_gpu_open(int device, const ds_graph *g, const ds_gpu_options *opt, ds_gpu_ctx **ctx,
                      ds_error *err) {
  (void)g;
  (void)opt;
  if (ctx != NULL) *ctx = NULL;
  return ds_error_set(err, DS_ERR_DEVICE, "no GPU device %d: %s", device, STUB_REASON);
}

ds_status ds_gpu_sssp(ds_gpu_ctx *ctx, ds_algo algo, uint32_t source,
                      const ds_sssp_params *params, ds_sssp_result *res, ds_error *err) {
  (void)ctx;
  (void)source;
  (void)params;
  (void)res;
  return ds_error_set(err, DS_ERR_DEVICE, "%s needs a GPU: %s", ds_algo_name(algo), STUB_REASON);
}

ds_status ds_gpu_sssp_batch(ds_gpu_ctx *ctx, const uint32_t *sources, uint32_t count,
                            const ds_sssp_params *params, ds_gpu_batch_sink sink, void *user,
                            ds_gpu_batch_info *info, ds_error *err) {
  (void)ctx;
  (void)sources;
  (void)count;
  (void)params;
  (void)sink;
  (void)user;
  (void)info;
  return ds_error_set(err, DS_ERR_DEVICE, "batched search needs a GPU: %s", STUB_REASON);
}

void ds_gpu_close(ds_gpu_ctx *ctx) { (void)ctx; }
