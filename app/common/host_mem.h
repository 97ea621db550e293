/* The host memory a program's run may plan with (host_mem.c): the graph
 * layer's figure of what is available, under a cap that the lab seam sets
 * (lab.h: DS_TEST_HOST_MEM), so that the tests see a refusal without using
 * the memory. Beneath app.c (which refuses a run that does not fit) and lab.c
 * (which sets the cap), so that neither calls up into the other. */
#ifndef DS_HOST_MEM_H
#define DS_HOST_MEM_H

#include <stdint.h>

/* Bytes of host memory available to a new allocation now (the graph layer's
 * ds_host_memory_available), at most the cap of ds_host_mem_set_cap; 0 when
 * unknown. */
uint64_t ds_host_mem_available(void);

/* Caps what ds_host_mem_available reports (0: no cap). */
void ds_host_mem_set_cap(uint64_t bytes);

#endif /* DS_HOST_MEM_H */
