/* What the API's tests that compare with the engines share: a graph loaded
 * through the API and, with the same options, through the graph layer. Include
 * after ds_test.h. */
#ifndef DSP_API_TEST_UTIL_H
#define DSP_API_TEST_UTIL_H

#include <deltasplit/deltasplit.h>

#include "ds/graph.h"

/* The folder the API's loads keep their caches in (the datasets stay untouched). */
static char scratch[512];

/* path through the API into *g (cache in scratch) and through the graph layer
 * into *ref (no cache), undirected or not; 0 after a failed check. */
static int load_both(const char *path, int undirected, dsp_graph **g, ds_graph *ref) {
  dsp_load_options opt;
  dsp_load_options_init(&opt);
  opt.undirected = undirected;
  opt.cache_dir = scratch;
  dsp_error err;
  if (!CHECK(dsp_graph_load(path, &opt, g, &err) == DSP_OK, "%s: %s", path, err.msg)) return 0;
  ds_load_options lo;
  ds_load_options_default(&lo);
  lo.undirected = undirected;
  lo.use_cache = 0;
  lo.progress = 0;
  ds_error e;
  return CHECK(ds_graph_load(path, &lo, ref, &e) == DS_OK, "%s: %s", path, e.msg);
}

#endif /* DSP_API_TEST_UTIL_H */
