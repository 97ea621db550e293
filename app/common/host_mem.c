/* The host memory a run may plan with, under the lab's cap (host_mem.h). */
#include "host_mem.h"

#include "ds/graph.h"

static uint64_t g_host_mem_cap; /* ds_host_mem_set_cap; 0: none */

void ds_host_mem_set_cap(uint64_t bytes) { g_host_mem_cap = bytes; }

uint64_t ds_host_mem_available(void) {
  if (g_host_mem_cap != 0) return g_host_mem_cap;
  uint64_t bytes = 0;
  return ds_host_memory_available(&bytes, NULL) == DS_OK ? bytes : 0;
}
