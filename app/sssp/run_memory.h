/* Host memory of one graph's `sssp` run, estimated before the run allocates
 * it (run_memory.c); ds_host_mem_available (host_mem.h) says what the machine has. */
#ifndef DS_RUN_MEMORY_H
#define DS_RUN_MEMORY_H

#include <stdint.h>

#include "app.h"
#include "cli.h"
#include "sssp.h"

typedef struct {
  uint64_t graph;      /* the CSR, already loaded */
  uint64_t results;    /* distances, predecessors, Dijkstra's reference, --output's copy */
  uint64_t scratch;    /* the largest working set of one algorithm or check */
  uint64_t per_source; /* sources, and every algorithm's per-source statistics */
} ds_run_memory;

/* The estimate for g run by `algos` from n_sources sources with cli's
 * trials, --predecessors and --validate, with distances of width w. Never overflows (sizes are below
 * 2^64 for every accepted option). */
void ds_run_memory_estimate(const ds_graph *g, const ds_cli *cli, const ds_algo *algos,
                            int n_algos, uint32_t n_sources, ds_dist_width w,
                            ds_run_memory *m);

#endif /* DS_RUN_MEMORY_H */
