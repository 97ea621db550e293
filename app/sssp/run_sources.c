/* The sources of an `sssp` run (run_sources.h). */
#include "run_sources.h"

#include <stdio.h>
#include <stdlib.h>

#include "ds/rng.h"

#define MAX_SOURCE_DRAWS 64   /* random draws for a vertex with out-arcs, per source */
#define SOURCE_STREAM 0x5EED50u /* separates source draws from weight draws */

static uint64_t out_degree(const ds_graph *g, uint32_t v) {
  return g->row_offsets[v + 1] - g->row_offsets[v];
}

ds_exit_code ds_run_pick_sources(const ds_cli *cli, const ds_graph *g, const char *path,
                                 uint32_t *sources, uint32_t count) {
  const uint32_t base = (uint32_t)g->index_base;
  if (cli->source_mode == DS_SOURCE_VERTEX) {
    if (cli->source < base || cli->source - base >= g->n) {
      fprintf(stderr, "sssp: source %llu is out of range: %s has vertices %u..%llu\n",
              (unsigned long long)cli->source, path, base,
              (unsigned long long)g->n - 1 + base);
      return DS_EXIT_USAGE;
    }
    sources[0] = (uint32_t)(cli->source - base);
    return DS_EXIT_OK;
  }
  if (cli->source_mode == DS_SOURCE_DEFAULT && count == 1) {
    sources[0] = 0;
    for (uint32_t v = 0; v < g->n; v++)
      if (out_degree(g, v) > 0) {
        sources[0] = v;
        break;
      }
    return DS_EXIT_OK;
  }
  // random sources: distinct vertices with out-arcs (the caller asks for no
  // more than there are); a source whose draws keep hitting taken or
  // arc-less vertices takes the next free one after its last draw, so the
  // drawing ends however few candidates are left
  unsigned char *taken = (unsigned char *)calloc(g->n, 1);
  if (taken == NULL) {
    fprintf(stderr, "sssp: out of memory choosing sources on %s\n", path);
    return DS_EXIT_INTERNAL;
  }
  uint64_t state = cli->seed ^ SOURCE_STREAM;
  for (uint32_t i = 0; i < count; i++) {
    uint32_t v = 0;
    int found = 0;
    for (int t = 0; t < MAX_SOURCE_DRAWS && !found; t++) {
      v = (uint32_t)(ds_splitmix64_next(&state) % g->n);
      found = out_degree(g, v) > 0 && !taken[v];
    }
    for (uint32_t k = 1; k < g->n && !found; k++) {
      uint32_t u = (uint32_t)(((uint64_t)v + k) % g->n);
      if (out_degree(g, u) > 0 && !taken[u]) {
        v = u;
        found = 1;
      }
    }
    sources[i] = v;
    taken[v] = 1;
  }
  free(taken);
  return DS_EXIT_OK;
}

uint32_t ds_run_source_candidates(const ds_graph *g) {
  uint32_t k = 0;
  for (uint32_t v = 0; v < g->n; v++) k += out_degree(g, v) > 0;
  return k;
}
