/* ds_lab_getenv of the shipped programs (lab.h): nothing is injected. */
#include "lab.h"

#include <stddef.h>

const char *ds_lab_getenv(const char *name) {
  (void)name;
  return NULL;
}
