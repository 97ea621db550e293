/* Allocation of the large CSR arrays: 2 MiB-aligned and marked for
 * transparent huge pages where the system offers them (madvise mode), since
 * the CSR build scatters at random over arrays of gigabytes and 4 KiB pages
 * make nearly every access a TLB miss. Memory from here is freed with free(). */
#define _DEFAULT_SOURCE
#include "graph_internal.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define HUGE_PAGE_BYTES ((size_t)2 << 20)
#define BIG_ALLOC_MIN (2 * HUGE_PAGE_BYTES) /* smaller blocks come from malloc */

void *ds_alloc_big(size_t bytes) {
  if (bytes < BIG_ALLOC_MIN) return malloc(bytes ? bytes : 1);
  void *p = NULL;
  if (posix_memalign(&p, HUGE_PAGE_BYTES, bytes) != 0) return NULL;
#ifdef MADV_HUGEPAGE
  madvise(p, bytes & ~(HUGE_PAGE_BYTES - 1), MADV_HUGEPAGE); /* advice only: errors ignored */
#endif
  return p;
}

void *ds_calloc_big(size_t count, size_t size) {
  if (size != 0 && count > SIZE_MAX / size) return NULL;
  void *p = ds_alloc_big(count * size);
  if (p != NULL) memset(p, 0, count * size);
  return p;
}
