/* The GPU backend of ds_kcore (kcore.h) for builds without CUDA: nothing to
 * open, so the kcore program runs on the CPU. */
#include <stddef.h>

#include "kcore.h"

uint64_t ds_kcore_gpu_bytes(uint32_t n, uint64_t m) {
  (void)n;
  (void)m;
  return 0;
}

ds_status ds_kcore_gpu_open(int device, const ds_graph *g, const ds_kcore_gpu_options *opt,
                            ds_kcore_gpu **ctx, ds_error *err) {
  (void)g;
  (void)opt;
  if (ctx != NULL) *ctx = NULL;
  return ds_error_set(err, DS_ERR_DEVICE, "no GPU device %d: this build has no CUDA", device);
}

ds_status ds_kcore_gpu_run(ds_kcore_gpu *ctx, uint32_t *core, double *ms,
                           ds_kcore_gpu_stats *stats, ds_error *err) {
  (void)ctx;
  (void)core;
  (void)ms;
  (void)stats;
  return ds_error_set(err, DS_ERR_DEVICE, "ds_kcore_gpu_run: this build has no CUDA");
}

void ds_kcore_gpu_close(ds_kcore_gpu *ctx) { (void)ctx; }
