/* deltasplit GPU SSSP: C interface over the CUDA algorithms in app/gpu/.
 *
 * A context holds one graph on one device, uploaded once, so that many
 * sources and trials reuse it. Built without CUDA, ds_gpu_available() says so
 * and the other functions return DS_ERR_DEVICE.
 */
#ifndef DS_GPU_SSSP_H
#define DS_GPU_SSSP_H

#include <stddef.h>

#include "sssp.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ds_gpu_ctx ds_gpu_ctx;

/* Number of usable CUDA devices; 0 with a one-line reason in `reason`. */
int ds_gpu_available(char *reason, size_t reason_len);

/* Device name and memory, for reports. */
ds_status ds_gpu_describe(int device, char *name, size_t name_len, size_t *mem_total,
                          ds_error *err);

/* Upload g to `device`. Refuses (DS_ERR_DEVICE, message with the bytes needed
 * and available) a graph that does not fit, before allocating anything. */
ds_status ds_gpu_open(int device, const ds_graph *g, ds_gpu_ctx **ctx, ds_error *err);

/* Run one GPU algorithm from `source` (0-based). res->dist / res->pred are
 * host arrays the caller allocated. */
ds_status ds_gpu_sssp(ds_gpu_ctx *ctx, ds_algo algo, uint32_t source,
                      const ds_sssp_params *params, ds_sssp_result *res, ds_error *err);

void ds_gpu_close(ds_gpu_ctx *ctx);

#ifdef __cplusplus
}
#endif
#endif /* DS_GPU_SSSP_H */
