/* ds_device_count and ds_device_describe (ds/device.h): the CUDA runtime's
 * device query where the build has CUDA (DS_GRAPH_CUDA), else none. */
#include "ds/device.h"

#include <stdio.h>

static uint64_t g_mem_cap; /* ds_device_set_mem_cap; 0: none */

void ds_device_set_mem_cap(uint64_t bytes) { g_mem_cap = bytes; }

#ifdef DS_GRAPH_CUDA
#include <cuda_runtime_api.h>

int ds_device_count(char *reason, size_t reason_len) {
  int count = 0;
  cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess || count == 0) {
    /* Without a GPU the runtime reports an old driver or none: say what that
       means on such a machine rather than "upgrade your driver" */
    const int absent = count == 0 || e == cudaErrorNoDevice || e == cudaErrorInsufficientDriver;
    if (reason && reason_len)
      snprintf(reason, reason_len, "%s%s", absent ? "no NVIDIA driver or no GPU found" : "CUDA: ",
               absent ? "" : cudaGetErrorString(e));
    return 0;
  }
  if (reason && reason_len) reason[0] = 0;
  return count;
}

ds_status ds_device_describe(int device, char *name, size_t name_len, size_t *mem_total, ds_error *err) {
  struct cudaDeviceProp p;
  cudaError_t e = cudaGetDeviceProperties(&p, device);
  if (e != cudaSuccess)
    return ds_error_set(err, DS_ERR_DEVICE, "GPU device %d: %s", device, cudaGetErrorString(e));
  if (name && name_len) snprintf(name, name_len, "%s", p.name);
  if (mem_total) *mem_total = p.totalGlobalMem;
  return DS_OK;
}

ds_status ds_device_mem_info(int device, uint64_t *free_bytes, uint64_t *total_bytes, ds_error *err) {
  size_t free_b = 0, total_b = 0;
  cudaError_t e = cudaSetDevice(device);
  if (e == cudaSuccess) e = cudaMemGetInfo(&free_b, &total_b);
  if (e != cudaSuccess)
    return ds_error_set(err, DS_ERR_DEVICE, "GPU device %d: %s", device, cudaGetErrorString(e));
  if (g_mem_cap != 0 && free_b > g_mem_cap) free_b = (size_t)g_mem_cap;
  if (free_bytes) *free_bytes = free_b;
  if (total_bytes) *total_bytes = total_b;
  return DS_OK;
}

#else

#define NO_CUDA "this build of deltasplit has no CUDA"

int ds_device_count(char *reason, size_t reason_len) {
  if (reason != NULL && reason_len > 0) snprintf(reason, reason_len, "%s", NO_CUDA);
  return 0;
}

ds_status ds_device_describe(int device, char *name, size_t name_len, size_t *mem_total, ds_error *err) {
  if (name != NULL && name_len > 0) name[0] = '\0';
  if (mem_total != NULL) *mem_total = 0;
  return ds_error_set(err, DS_ERR_DEVICE, "no GPU device %d: %s", device, NO_CUDA);
}

ds_status ds_device_mem_info(int device, uint64_t *free_bytes, uint64_t *total_bytes, ds_error *err) {
  if (free_bytes != NULL) *free_bytes = 0;
  if (total_bytes != NULL) *total_bytes = 0;
  (void)g_mem_cap;
  return ds_error_set(err, DS_ERR_DEVICE, "no GPU device %d: %s", device, NO_CUDA);
}

#endif
