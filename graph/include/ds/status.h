/* deltasplit status codes: what every library of the project (the graph
 * layer, the SSSP algorithms, the GPU engines) returns, with a message.
 *
 * C11. A function that fails returns a code other than DS_OK and, when given
 * a ds_error, fills it with a message naming the file, line or argument and
 * the problem; nothing prints and nothing exits. Programs map the codes to
 * their exit codes.
 */
#ifndef DS_STATUS_H
#define DS_STATUS_H

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
  DS_OK = 0,
  DS_ERR_IO = 1,      /* file missing, unreadable, a directory, write failed */
  DS_ERR_FORMAT = 2,  /* malformed content: banner, size line, tokens, ranges */
  DS_ERR_UNSUPPORTED = 3, /* valid but unsupported (complex, dense, skew...) */
  DS_ERR_ARG = 4,     /* bad argument from the caller */
  DS_ERR_NOMEM = 5,
  DS_ERR_STALE = 6,   /* cache exists but does not match: rebuild */
  /* returned by the SSSP algorithms only */
  DS_ERR_DEVICE = 7,  /* CUDA error or no usable device */
  DS_ERR_VALIDATION = 8, /* a result failed validation */
  DS_ERR_RANGE = 9    /* a distance does not fit the distance type asked for */
} ds_status;

#define DS_ERROR_MSG_LEN 1024
typedef struct {
  char msg[DS_ERROR_MSG_LEN];
} ds_error;

/* printf-style helper that fills err (may be NULL) and returns status. */
ds_status ds_error_set(ds_error *err, ds_status status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* A short name of the code ("format error"). */
const char *ds_status_name(ds_status s);

#ifdef __cplusplus
}
#endif
#endif /* DS_STATUS_H */
