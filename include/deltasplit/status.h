/* deltasplit: the status every call returns, and its message.
 *
 * Nothing in the library prints or exits. A call that fails returns a code
 * other than DSP_OK and, when given a dsp_error, fills it with one line that
 * names the argument, file, line or vertex and the problem ("source 5000000
 * is out of range: the graph has 4000000 vertices"). The codes are those of
 * the programs (sssp, kcore, tc): dsp_status_exit_code gives the exit code a
 * program built on the library ends with, the same as theirs.
 */
#ifndef DELTASPLIT_STATUS_H
#define DELTASPLIT_STATUS_H

#include "deltasplit/version.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
  DSP_OK = 0,
  /* exit code 1: a bad argument or option (a NULL handle, a source out of
     range, delta not positive, buckets outside 2..256, a device that does not
     exist, a CSR that breaks the rules) */
  DSP_ERR_ARG = 1,
  /* exit code 2: a file missing or unreadable, a folder, a failed write */
  DSP_ERR_IO = 2,
  /* exit code 2: malformed content ("FILE:LINE: problem") */
  DSP_ERR_FORMAT = 3,
  /* exit code 2: valid but not supported (complex or dense Matrix Market, a
     line beyond the text limits, too many vertices) */
  DSP_ERR_UNSUPPORTED = 4,
  /* exit code 3: validation asked for found a wrong result */
  DSP_ERR_VALIDATION = 5,
  /* exit code 4: a CUDA failure, a graph that does not fit on the device
     (refused before allocating, with the bytes), a GPU search that stalled,
     a GPU engine asked for without a GPU context */
  DSP_ERR_DEVICE = 6,
  /* exit code 4: a GPU call of a library built without CUDA */
  DSP_ERR_NO_CUDA = 7,
  /* exit code 5: host memory (also a run estimated beyond what is available) */
  DSP_ERR_NOMEM = 8,
  /* exit code 6: a distance does not fit its type (a float sum reaches
     FLT_MAX; a GPU search meets an integer distance beyond 2^32 - 3) */
  DSP_ERR_RANGE = 9
} dsp_status;

#define DSP_ERROR_MSG_LEN 1024
typedef struct {
  char msg[DSP_ERROR_MSG_LEN]; /* "" after success */
} dsp_error;

/* A short name of the code: "ok", "bad argument", "input error", ... */
const char *dsp_status_name(dsp_status s);

/* The exit code the programs end with for s (0 to 6, as above); 5 for a
 * value that is not a dsp_status. */
int dsp_status_exit_code(dsp_status s);

#ifdef __cplusplus
}
#endif
#endif /* DELTASPLIT_STATUS_H */
