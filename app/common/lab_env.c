/* ds_lab_getenv of the programs' lab builds and of the tests (lab.h): the environment. */
#include "lab.h"

#include <stdlib.h>

const char *ds_lab_getenv(const char *name) { return getenv(name); }
