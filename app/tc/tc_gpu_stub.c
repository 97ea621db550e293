/* The GPU backend of ds_tc (tc.h) for builds without CUDA: nothing to open,
 * so the tc program runs on the CPU. */
#include <stddef.h>

#include "tc.h"

uint64_t ds_tc_gpu_bytes(uint32_t n, uint64_t m) {
  (void)n;
  (void)m;
  return 0;
}

ds_status ds_tc_gpu_open(int device, const ds_graph *g, const ds_tc_gpu_options *opt,
                         ds_tc_gpu **ctx, ds_error *err) {
  (void)g;
  (void)opt;
  if (ctx != NULL) *ctx = NULL;
  return ds_error_set(err, DS_ERR_DEVICE, "no GPU device %d: this build has no CUDA", device);
}

ds_status ds_tc_gpu_run(ds_tc_gpu *ctx, uint64_t *total, uint64_t *per_vertex, double *ms,
                        ds_tc_gpu_stats *stats, ds_error *err) {
  (void)ctx;
  (void)total;
  (void)per_vertex;
  (void)ms;
  (void)stats;
  return ds_error_set(err, DS_ERR_DEVICE, "ds_tc_gpu_run: this build has no CUDA");
}

void ds_tc_gpu_close(ds_tc_gpu *ctx) { (void)ctx; }
