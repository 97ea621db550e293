// Error recording shared by the headers (templates) and the compiled library.
#pragma once
#include <cuda_runtime.h>

#include "msplit/core.h"

namespace msplit {
namespace detail {
// Records a printf-style message for msplit_last_error_message() and returns status.
// Defined in the msplit library (src/common/status.cu).
msplit_status set_error(msplit_status status, const char *fmt, ...);
}  // namespace detail
}  // namespace msplit

// Wraps a CUDA call: on failure records the call and returns MSPLIT_ERROR_CUDA.
#ifndef MSPLIT_CUDA_TRY
#define MSPLIT_CUDA_TRY(call)                                                              \
  do {                                                                                     \
    cudaError_t msplit_err_ = (call);                                                      \
    if (msplit_err_ != cudaSuccess)                                                        \
      return ::msplit::detail::set_error(MSPLIT_ERROR_CUDA, "%s failed: %s (%s:%d)", #call, \
                                         cudaGetErrorString(msplit_err_), __FILE__,         \
                                         __LINE__);                                        \
  } while (0)
#endif

// After a kernel launch.
#ifndef MSPLIT_LAUNCH_CHECK
#define MSPLIT_LAUNCH_CHECK() MSPLIT_CUDA_TRY(cudaPeekAtLastError())
#endif

// Returns from the calling function if `expr` (an msplit_status) is not success.
#define MSPLIT_TRY(expr)                            \
  do {                                              \
    msplit_status msplit_st_ = (expr);              \
    if (msplit_st_ != MSPLIT_SUCCESS) return msplit_st_; \
  } while (0)
