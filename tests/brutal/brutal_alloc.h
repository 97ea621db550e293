/* A failing allocator for the brutal test: the test is linked with
 * -Wl,--wrap=SYMBOL for every allocation function that the graph layer and the
 * CPU algorithms call (tests/brutal/CMakeLists.txt lists them), so that their
 * calls, and the test's own, come here. Counting is atomic: the CPU
 * delta-stepping allocates inside OpenMP regions.
 *
 * Armed with brutal_arm(k, mode), the allocator fails the k-th allocation
 * counted from the arming (BRUTAL_ONE), or the k-th and every later one
 * (BRUTAL_FROM, as LAGraph's brutal tests do), the way malloc fails: NULL
 * (ENOMEM for posix_memalign), the old block of a realloc left as it was.
 * Allocations by libc and zlib themselves (fopen's buffer, inflate's window)
 * are not ours to fail and do not come here.
 */
#ifndef DS_BRUTAL_ALLOC_H
#define DS_BRUTAL_ALLOC_H

#include <stdint.h>

typedef enum { BRUTAL_ONE = 0, BRUTAL_FROM = 1 } brutal_mode;

/* Fail the k-th allocation from now on (k >= 1) in the given mode. */
void brutal_arm(uint64_t k, brutal_mode mode);
/* Stop failing; returns how many allocations were attempted while armed. */
uint64_t brutal_disarm(void);
/* Whether an allocation was failed since the last brutal_arm. */
int brutal_failed(void);
/* Blocks allocated and not yet freed, by everything linked into the test. */
int64_t brutal_live(void);

#endif /* DS_BRUTAL_ALLOC_H */
