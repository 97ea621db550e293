/* Helpers of the graph-layer tests, over the shared harness (ds_test.h):
 * comparing graphs arc by arc, load options with and without the cache, a
 * load that reports how the cache was used, and an alarm for loads that
 * could wait forever. */
#ifndef DS_GRAPH_TEST_UTIL_H
#define DS_GRAPH_TEST_UTIL_H

#include "ds_test.h" /* first: it sets the feature macros */

#include "ds/graph.h"

#include <signal.h>
#include <unistd.h>

/* Same shape, columns and weight bits. */
static inline int same_graph(const ds_graph *a, const ds_graph *b) {
  if (a->n != b->n || a->m != b->m || a->weight_type != b->weight_type) return 0;
  if (memcmp(a->row_offsets, b->row_offsets, ((size_t)a->n + 1) * sizeof(uint64_t)) != 0) return 0;
  if (a->m && memcmp(a->col, b->col, (size_t)a->m * sizeof(uint32_t)) != 0) return 0;
  if (a->m && memcmp(a->weights, b->weights, (size_t)a->m * sizeof(uint32_t)) != 0) return 0;
  return 1;
}

static inline ds_load_options options_no_cache(void) {
  ds_load_options o;
  ds_load_options_default(&o);
  o.use_cache = 0;
  o.progress = 0;
  return o;
}

/* The default options with the cache on and no progress bar. */
static inline ds_load_options options_cached(void) {
  ds_load_options o;
  ds_load_options_default(&o);
  o.progress = 0;
  return o;
}

/* Loads path through the cache and returns what info said (-1: the load failed,
 * a test failure). */
static inline ds_cache_use load_info(const char *path, const ds_load_options *opt, ds_graph *g,
                                     ds_load_info *info) {
  ds_error err;
  ds_status st = ds_graph_load_info(path, opt, g, info, &err);
  CHECK(st == DS_OK, "load %s: %s", path, err.msg);
  return st == DS_OK ? info->cache : (ds_cache_use)-1;
}

static const char *hang_failure_ = "FAIL: the test hung\n";

static inline void hang_alarm_(int sig) {
  (void)sig;
  ssize_t ignored = write(STDERR_FILENO, hang_failure_, strlen(hang_failure_));
  (void)ignored;
  _exit(1);
}

/* From now on, SIGALRM ends the test with the failure why (a line): a load
 * of a FIFO that waits for an end that never comes fails instead of hanging.
 * Arm it with alarm(seconds), disarm with alarm(0). */
static inline void hang_guard(const char *why) {
  hang_failure_ = why;
  signal(SIGALRM, hang_alarm_);
}

#endif /* DS_GRAPH_TEST_UTIL_H */
