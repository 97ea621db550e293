/* Statuses and messages of the public API, the version, and the one
 * translation from the engines' statuses (ds/status.h) to the public codes,
 * whose exit codes are those the programs give (app/common: ds_app_exit_of). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "api_internal.h"

int dsp_version(void) { return DELTASPLIT_VERSION; }

int dsp_built_with_cuda(void) {
#ifdef DSP_HAVE_CUDA
  return 1;
#else
  return 0;
#endif
}

const char *dsp_status_name(dsp_status s) {
  switch (s) {
  case DSP_OK: return "ok";
  case DSP_ERR_ARG: return "bad argument";
  case DSP_ERR_IO: return "input error";
  case DSP_ERR_FORMAT: return "format error";
  case DSP_ERR_UNSUPPORTED: return "unsupported input";
  case DSP_ERR_VALIDATION: return "validation failure";
  case DSP_ERR_DEVICE: return "device error";
  case DSP_ERR_NO_CUDA: return "built without CUDA";
  case DSP_ERR_NOMEM: return "out of memory";
  case DSP_ERR_RANGE: return "distance out of range";
  }
  return "unknown status";
}

/* The programs' exit codes (README.md, "Exit codes"). */
enum { EXIT_USAGE = 1, EXIT_INPUT = 2, EXIT_VALIDATION = 3, EXIT_DEVICE = 4, EXIT_INTERNAL = 5, EXIT_RANGE = 6 };

int dsp_status_exit_code(dsp_status s) {
  switch (s) {
  case DSP_OK: return 0;
  case DSP_ERR_ARG: return EXIT_USAGE;
  case DSP_ERR_IO:
  case DSP_ERR_FORMAT:
  case DSP_ERR_UNSUPPORTED: return EXIT_INPUT;
  case DSP_ERR_VALIDATION: return EXIT_VALIDATION;
  case DSP_ERR_DEVICE:
  case DSP_ERR_NO_CUDA: return EXIT_DEVICE;
  case DSP_ERR_NOMEM: return EXIT_INTERNAL;
  case DSP_ERR_RANGE: return EXIT_RANGE;
  }
  return EXIT_INTERNAL;
}

dsp_status dsp_from_ds(ds_status st) {
  switch (st) {
  case DS_OK: return DSP_OK;
  case DS_ERR_IO: return DSP_ERR_IO;
  case DS_ERR_FORMAT: return DSP_ERR_FORMAT;
  case DS_ERR_UNSUPPORTED: return DSP_ERR_UNSUPPORTED;
  case DS_ERR_ARG: return DSP_ERR_ARG;
  case DS_ERR_NOMEM: return DSP_ERR_NOMEM;
  case DS_ERR_STALE: return DSP_ERR_IO; /* the loader rebuilds a stale cache; never returned */
  case DS_ERR_DEVICE: return DSP_ERR_DEVICE;
  case DS_ERR_VALIDATION: return DSP_ERR_VALIDATION;
  case DS_ERR_RANGE: return DSP_ERR_RANGE;
  }
  return DSP_ERR_NOMEM; /* not an engine status: internal, exit code 5 */
}

dsp_status dsp_fail_ds(dsp_error *err, ds_status st, const ds_error *e) {
  if (err != NULL) snprintf(err->msg, sizeof err->msg, "%s", e->msg);
  return dsp_from_ds(st);
}

dsp_status dsp_fail(dsp_error *err, dsp_status st, const char *fmt, ...) {
  if (err != NULL) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
  }
  return st;
}

void dsp_clear(dsp_error *err) {
  if (err != NULL) err->msg[0] = '\0';
}
