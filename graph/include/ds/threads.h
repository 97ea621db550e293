/* OpenMP's team, started before any work. libgomp cannot report a thread it
 * fails to create: it prints "libgomp: Thread creation failed" and ends the
 * process with exit code 1, which the programs give to usage errors. A team
 * the system cannot give (more threads than the address space holds stacks
 * for, or than the process limit allows) is found here first, as a status
 * with a message that a program turns into its own exit code.
 *
 * Example (a program's first step):
 *
 *     int team = 0;
 *     ds_error err;
 *     if (ds_threads_start(threads, &team, &err) != DS_OK) {
 *       fprintf(stderr, "%s\n", err.msg);
 *       return EXIT_RESOURCES;
 *     }
 */
#ifndef DS_THREADS_H
#define DS_THREADS_H

#include "ds/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Sets OpenMP's thread count and starts its team: creates the team's other
 * threads itself, with the stack OpenMP gives them (OMP_STACKSIZE or
 * GOMP_STACKSIZE, else the system's default), all alive at once, and joins
 * them; then one empty parallel region has OpenMP create its own team while
 * the room is there, which later regions of that size reuse.
 * [in]  threads  the team's size; <= 0 keeps OpenMP's (OMP_NUM_THREADS, or
 *                one thread a core).
 * [out] team     the team's size, omp_get_max_threads(); may be NULL.
 * Call it before the first parallel region, from the thread that runs them.
 * Errors: DS_ERR_NOMEM ("cannot start 4096 threads: only 312 could be (the
 * next: Resource temporarily unavailable; each thread has a stack of 8.0
 * MiB)"). */
ds_status ds_threads_start(int threads, int *team, ds_error *err);

#ifdef __cplusplus
}
#endif

#endif /* DS_THREADS_H */
