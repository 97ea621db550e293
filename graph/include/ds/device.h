/* The CUDA devices this build can use, for the programs' reports and for
 * choosing between the GPU and CPU backends (device.c). A build without CUDA
 * has none, and says so. */
#ifndef DS_DEVICE_H
#define DS_DEVICE_H

#include <stddef.h>
#include <stdint.h>

#include "ds/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Number of usable CUDA devices; 0 with a one-line reason in `reason`
 * (NULL or reason_len 0: none wanted). */
int ds_device_count(char *reason, size_t reason_len);

/* Device `device`'s name and memory (either output may be NULL). */
ds_status ds_device_describe(int device, char *name, size_t name_len, size_t *mem_total, ds_error *err);

/* The device memory that the library plans with before it allocates: free
 * and total bytes as the device reports them, free at most the cap set by
 * ds_device_set_mem_cap (either output may be NULL). Every "does not fit on
 * the GPU" check asks here. */
ds_status ds_device_mem_info(int device, uint64_t *free_bytes, uint64_t *total_bytes, ds_error *err);

/* Caps the free device memory that ds_device_mem_info reports (0: no cap),
 * for a process that shares its GPU with others and for tests of the paths
 * where a graph does not fit. Process-wide; set it before any GPU work. */
void ds_device_set_mem_cap(uint64_t bytes);

#ifdef __cplusplus
}
#endif
#endif /* DS_DEVICE_H */
