/* The CUDA devices this build can use, for the programs' reports and for
 * choosing between the GPU and CPU backends (device.c). A build without CUDA
 * has none, and says so. */
#ifndef DS_DEVICE_H
#define DS_DEVICE_H

#include <stddef.h>

#include "ds/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Number of usable CUDA devices; 0 with a one-line reason in `reason`
 * (NULL or reason_len 0: none wanted). */
int ds_device_count(char *reason, size_t reason_len);

/* Device `device`'s name and memory (either output may be NULL). */
ds_status ds_device_describe(int device, char *name, size_t name_len, size_t *mem_total, ds_error *err);

#ifdef __cplusplus
}
#endif
#endif /* DS_DEVICE_H */
