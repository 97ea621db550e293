// Internal error helpers shared by every primitive.
#pragma once
#include <cuda_runtime.h>

#include "msplit/msplit.h"

namespace msplit {
namespace detail {
// Records a printf-style message for msplit_last_error_message() and returns status.
msplit_status set_error(msplit_status status, const char *fmt, ...);
}  // namespace detail
}  // namespace msplit

// Wraps a CUDA call: on failure records the call and returns MSPLIT_ERROR_CUDA.
#define MSPLIT_CUDA_TRY(call)                                                              \
  do {                                                                                     \
    cudaError_t msplit_err_ = (call);                                                      \
    if (msplit_err_ != cudaSuccess)                                                        \
      return ::msplit::detail::set_error(MSPLIT_ERROR_CUDA, "%s failed: %s (%s:%d)", #call, \
                                         cudaGetErrorString(msplit_err_), __FILE__,         \
                                         __LINE__);                                        \
  } while (0)

// After a kernel launch.
#define MSPLIT_LAUNCH_CHECK() MSPLIT_CUDA_TRY(cudaPeekAtLastError())
