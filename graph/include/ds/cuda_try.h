/* CUDA error handling of the project's GPU code (the GPU CSR build, the SSSP
 * engines, kcore, tc): every call checked, and a failure returned as
 * DS_ERR_DEVICE with a message naming the call, from a function that returns
 * ds_status and has a `ds_error *err` in scope. DS_MSPLIT_TRY does the same for
 * a call of msplit (include its header first). */
#ifndef DS_CUDA_TRY_H
#define DS_CUDA_TRY_H

#include <cuda_runtime.h>

#include "ds/status.h"

#define DS_CUDA_TRY(call)                                                                        \
  do {                                                                                           \
    cudaError_t e_ = (call);                                                                     \
    if (e_ != cudaSuccess)                                                                       \
      return ds_error_set(err, DS_ERR_DEVICE, "CUDA error in %s (%s:%d): %s", #call, __FILE__,    \
                          __LINE__, cudaGetErrorString(e_));                                     \
  } while (0)

#define DS_LAUNCH_CHECK(what)                                                                    \
  do {                                                                                           \
    cudaError_t e_ = cudaPeekAtLastError();                                                      \
    if (e_ != cudaSuccess)                                                                       \
      return ds_error_set(err, DS_ERR_DEVICE, "launch of %s failed: %s", what,                   \
                          cudaGetErrorString(e_));                                               \
  } while (0)

#define DS_MSPLIT_TRY(call)                                                                      \
  do {                                                                                           \
    if ((call) != MSPLIT_SUCCESS)                                                                \
      return ds_error_set(err, DS_ERR_DEVICE, "msplit error in %s (%s:%d): %s", #call, __FILE__,  \
                          __LINE__, msplit_last_error_message());                                \
  } while (0)

#define DS_TRY(call)                                                                             \
  do {                                                                                           \
    ds_status s_ = (call);                                                                       \
    if (s_ != DS_OK) return s_;                                                                  \
  } while (0)

#endif /* DS_CUDA_TRY_H */
