/* msplit C API, the part every primitive shares: statuses and their messages, the version, and
 * the element types.
 *
 * Conventions of every msplit C function (CUB's): device work takes caller-provided temporary
 * storage (call once with d_temp == NULL to get *temp_bytes, then again with at least that much
 * to run), a stream (a cudaStream_t passed as void *, NULL for the default stream), and does not
 * synchronise unless its name ends in _sync. Zero items return MSPLIT_SUCCESS without a kernel
 * launch. Every function returns a status; msplit_last_error_message() gives the message of the
 * calling thread's last failure. Nothing prints, exits or allocates device memory.
 *
 * Example: examples/multisplit_c.c (msplit/multisplit.h) uses every function declared here.
 */
#ifndef MSPLIT_CORE_H
#define MSPLIT_CORE_H

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
  MSPLIT_ERROR_INTERNAL = 5,
  MSPLIT_ERROR_OUT_OF_CAPACITY = 6  /* a fixed-capacity structure (the slab hash's pool) is full */
} msplit_status;

/* Static string describing a status ("invalid argument", ...); never NULL. */
const char *msplit_status_string(msplit_status status);

/* Message of the calling thread's last failure ("" if none), naming the function and the
 * argument at fault, e.g. "multisplit: num_buckets is 0 (need at least 1)". The string is
 * thread-local and valid until the thread's next failing msplit call. */
const char *msplit_last_error_message(void);

/* "MAJOR.MINOR.PATCH" of the library that is linked (the macros above are the header's). */
const char *msplit_version_string(void);

/* Element types of the C API. Which ones a call accepts is said at the call. */
typedef enum {
  MSPLIT_TYPE_NONE = 0, /* no values: a keys-only call */
  MSPLIT_TYPE_U32 = 1,
  MSPLIT_TYPE_I32 = 2,
  MSPLIT_TYPE_F32 = 3,
  MSPLIT_TYPE_U64 = 4,
  MSPLIT_TYPE_I64 = 5,
  MSPLIT_TYPE_F64 = 6,
  MSPLIT_TYPE_U8 = 7,
  MSPLIT_TYPE_I8 = 8,
  MSPLIT_TYPE_U16 = 9,
  MSPLIT_TYPE_I16 = 10
} msplit_type;

#ifdef __cplusplus
}
#endif
#endif /* MSPLIT_CORE_H */
