/* msplit: GPU multisplit, histogram, sort and hash primitives. C API.
 *
 * Conventions (CUB's): device functions take caller-provided temporary storage
 * (call once with temp == NULL to get *temp_bytes, then again to run), a
 * cudaStream_t, and do not synchronize unless their name says so. Zero items
 * return MSPLIT_SUCCESS without a launch. Every function returns a status;
 * msplit_last_error_message() gives the message of the calling thread's last
 * failure. Nothing here prints, exits or allocates device memory.
 */
#ifndef MSPLIT_H
#define MSPLIT_H

#include <stddef.h>
#include <stdint.h>

#define MSPLIT_VERSION_MAJOR 0
#define MSPLIT_VERSION_MINOR 1
#define MSPLIT_VERSION_PATCH 0

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
  MSPLIT_SUCCESS = 0,
  MSPLIT_ERROR_INVALID_ARGUMENT = 1, /* NULL pointer with n > 0, m == 0, overlap, ... */
  MSPLIT_ERROR_TEMP_STORAGE = 2,     /* temporary storage too small */
  MSPLIT_ERROR_UNSUPPORTED = 3,      /* type or option not supported */
  MSPLIT_ERROR_CUDA = 4,             /* a CUDA call or launch failed */
  MSPLIT_ERROR_INTERNAL = 5
} msplit_status;

/* Static string describing a status. */
const char *msplit_status_string(msplit_status status);

/* Message of the calling thread's last failure ("" if none). */
const char *msplit_last_error_message(void);

/* "MAJOR.MINOR.PATCH" */
const char *msplit_version_string(void);

#ifdef __cplusplus
}
#endif
#endif /* MSPLIT_H */
