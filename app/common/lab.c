/* ds_lab_start and ds_lab_corrupt (lab.h), over ds_lab_getenv: in the shipped
 * programs every variable is absent, so they do nothing. */
#include "lab.h"

#include <errno.h>
#include <stdlib.h>

#include "ds/device.h"
#include "host_mem.h"

ds_status ds_lab_number(const char *name, int may_be_negative, const char *what, long long *out,
                        ds_error *err) {
  const char *s = ds_lab_getenv(name);
  *out = 0;
  if (s == NULL) return DS_OK;
  char *end = NULL;
  errno = 0;
  const long long v = strtoll(s, &end, 10);
  if (errno != 0 || end == s || *end != '\0' || (!may_be_negative && (v < 0 || *s == '-')))
    return ds_error_set(err, DS_ERR_ARG, "%s='%s' is not %s", name, s, what);
  *out = v;
  return DS_OK;
}

/* A whole number of bytes from lab variable `name` into *bytes (0 when absent). */
static ds_status lab_bytes(const char *name, uint64_t *bytes, ds_error *err) {
  long long v = 0;
  const ds_status st = ds_lab_number(name, 0, "a whole number of bytes", &v, err);
  *bytes = (uint64_t)v;
  return st;
}

ds_status ds_lab_start(ds_error *err) {
  uint64_t host = 0, device = 0;
  ds_status st = lab_bytes("DS_TEST_HOST_MEM", &host, err);
  if (st == DS_OK) st = lab_bytes("DS_TEST_DEVICE_MEM", &device, err);
  if (st != DS_OK) return st;
  if (host != 0) ds_host_mem_set_cap(host);
  if (device != 0) ds_device_set_mem_cap(device);
  return DS_OK;
}

int ds_lab_corrupt(void) { return ds_lab_getenv("DS_TEST_CORRUPT") != NULL; }
