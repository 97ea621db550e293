/* ds_threads_start (ds/threads.h): the OpenMP team, tried before any work.
 *
 * libgomp creates its threads with pthread_create and, when one fails, prints
 * its message and calls exit(1): nothing can catch that. So the team is tried
 * first with threads of our own, of the size libgomp gives its threads, all
 * alive at once (each waits at a gate until the last is created), which fails
 * exactly where libgomp would: the stacks do not fit the address space
 * (ulimit -v), or the process limit is reached (ulimit -u). Then one empty
 * parallel region makes libgomp create its team at once, before the program
 * allocates its graph; later regions of that size reuse the team.
 */
#define _POSIX_C_SOURCE 200809L
#include "ds/threads.h"

#ifdef _OPENMP
#include <ctype.h>
#include <errno.h>
#include <omp.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MIB (1024.0 * 1024.0)
#define STACKSIZE_DEFAULT_SHIFT 10 /* OMP_STACKSIZE without a unit is in KiB */

/* The threads wait here until the last one is created. */
typedef struct {
  pthread_mutex_t lock;
  pthread_cond_t open;
  int is_open;
} gate;

static void *wait_at_gate(void *arg) {
  gate *g = arg;
  pthread_mutex_lock(&g->lock);
  while (!g->is_open) pthread_cond_wait(&g->open, &g->lock);
  pthread_mutex_unlock(&g->lock);
  return NULL;
}

/* OMP_STACKSIZE as libgomp reads it: a number, then B, K, M or G (K when
 * none), spaces around. 0 when unset or invalid (libgomp then keeps the
 * system's default, as the probe does). */
static size_t stacksize_of(const char *name) {
  const char *s = getenv(name);
  if (s == NULL) return 0;
  while (isspace((unsigned char)*s)) s++;
  char *end = NULL;
  errno = 0;
  unsigned long long v = strtoull(s, &end, 10);
  if (errno != 0 || end == s) return 0;
  while (isspace((unsigned char)*end)) end++;
  int shift = STACKSIZE_DEFAULT_SHIFT;
  if (*end != '\0') {
    const char *units = "bkmg", *u = strchr(units, tolower((unsigned char)*end));
    if (u == NULL) return 0;
    shift = 10 * (int)(u - units);
    for (end++; isspace((unsigned char)*end); end++) {
    }
    if (*end != '\0') return 0;
  }
  if (((v << shift) >> shift) != v || (v << shift) > SIZE_MAX) return 0;
  return (size_t)(v << shift);
}

/* Creates the team's other threads with libgomp's stack size, all alive at once, then
 * releases and joins them. Returns DS_OK or DS_ERR_NOMEM with the message. */
static ds_status try_team(int team, ds_error *err) {
  const int others = team - 1;
  pthread_t *tid = malloc((size_t)others * sizeof *tid);
  if (tid == NULL)
    return ds_error_set(err, DS_ERR_NOMEM, "cannot start %d threads: out of memory", team);
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  size_t stack = stacksize_of("OMP_STACKSIZE");
  if (stack == 0) stack = stacksize_of("GOMP_STACKSIZE");
  if (stack != 0) pthread_attr_setstacksize(&attr, stack); /* too small: libgomp's own error */
  pthread_attr_getstacksize(&attr, &stack);
  gate g = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0};
  int made = 0, rc = 0;
  while (made < others && (rc = pthread_create(&tid[made], &attr, wait_at_gate, &g)) == 0) made++;
  pthread_mutex_lock(&g.lock);
  g.is_open = 1;
  pthread_cond_broadcast(&g.open);
  pthread_mutex_unlock(&g.lock);
  for (int i = 0; i < made; i++) pthread_join(tid[i], NULL);
  pthread_attr_destroy(&attr);
  free(tid);
  if (made == others) return DS_OK;
  return ds_error_set(err, DS_ERR_NOMEM,
                      "cannot start %d threads: only %d could be (the next: %s; each thread "
                      "has a stack of %.1f MiB)",
                      team, made + 1, strerror(rc), (double)stack / MIB);
}

ds_status ds_threads_start(int threads, int *team, ds_error *err) {
  if (threads > 0) omp_set_num_threads(threads);
  const int size = omp_get_max_threads();
  if (team != NULL) *team = size;
  if (size > 1) {
    ds_status st = try_team(size, err);
    if (st != DS_OK) return st;
  }
#pragma omp parallel
  {
    /* nothing: the region only has OpenMP create its team */
  }
  return DS_OK;
}
#else
/* Without OpenMP (the fuzz target builds the graph layer so) there is one thread. */
ds_status ds_threads_start(int threads, int *team, ds_error *err) {
  (void)threads;
  (void)err;
  if (team != NULL) *team = 1;
  return DS_OK;
}
#endif
