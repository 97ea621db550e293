// msplit status strings and the per-thread last-error message.
#include <cstdarg>
#include <cstdio>

#include "msplit/core.h"
#include "status_impl.cuh"

namespace {
thread_local char g_last_message[512] = "";
}

extern "C" const char *msplit_status_string(msplit_status status) {
  switch (status) {
    case MSPLIT_SUCCESS: return "success";
    case MSPLIT_ERROR_INVALID_ARGUMENT: return "invalid argument";
    case MSPLIT_ERROR_TEMP_STORAGE: return "temporary storage too small";
    case MSPLIT_ERROR_UNSUPPORTED: return "unsupported";
    case MSPLIT_ERROR_CUDA: return "CUDA error";
    case MSPLIT_ERROR_INTERNAL: return "internal error";
    case MSPLIT_ERROR_OUT_OF_CAPACITY: return "out of capacity";
    case MSPLIT_ERROR_STALLED: return "stalled";
  }
  return "unknown status";
}

extern "C" const char *msplit_last_error_message(void) { return g_last_message; }

extern "C" const char *msplit_version_string(void) {
#define MSPLIT_STR2(x) #x
#define MSPLIT_STR(x) MSPLIT_STR2(x)
  return MSPLIT_STR(MSPLIT_VERSION_MAJOR) "." MSPLIT_STR(MSPLIT_VERSION_MINOR) "." MSPLIT_STR(
      MSPLIT_VERSION_PATCH);
}

namespace msplit {
namespace detail {
msplit_status set_error(msplit_status status, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  std::vsnprintf(g_last_message, sizeof g_last_message, fmt, ap);
  va_end(ap);
  return status;
}
}  // namespace detail
}  // namespace msplit
