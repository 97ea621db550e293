/* Helpers of the graph-layer tests, over the shared harness (ds_test.h):
 * comparing graphs arc by arc, and load options that bypass the cache. */
#ifndef DS_GRAPH_TEST_UTIL_H
#define DS_GRAPH_TEST_UTIL_H

#include "ds_test.h" /* first: it sets the feature macros */

#include "ds/graph.h"

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

#endif /* DS_GRAPH_TEST_UTIL_H */
