/* The host memory an `sssp` run needs for one graph beyond the loaded CSR,
 * so that run.c refuses a run that cannot fit (exit 5, with the estimate and
 * what is available) instead of failing half-way or being killed.
 *
 * Per vertex, from what each part allocates (the files of app/sssp/):
 *   results: dist (one distance: 4 bytes, 8 where the graph needs 64-bit
 *            distances), pred (--predecessors or --target), the reference
 *            distances (--validate), and with --output or --target and more
 *            than one algorithm a copy of the first one's dist and pred
 *            (written at the end);
 *   scratch, the largest of (they run one after another):
 *     dijkstra   an 8-byte key, heap items and heap positions: 8 + 2 x 4 bytes;
 *     cpu-delta  an 8-byte cell and a 4-byte key per vertex (8 with 64-bit
 *                distances; predecessors then take a 4-byte queue), plus the
 *                buckets and frontier, which hold each vertex about once
 *                (counted as 2 x 4 bytes);
 *     validator  a state byte and a queue entry: 1 + 4 bytes;
 *     source choice  one byte per vertex;
 *     GPU algorithms use device memory (ds_gpu_open checks it) and O(1)
 *     host memory beyond the result arrays;
 *   per source: the source, and per algorithm every trial's time and the
 *   last trial's counters and check.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sssp_report.h"
#include "run_memory.h"

#define DIJKSTRA_BYTES_PER_VERTEX (sizeof(uint64_t) + 2 * sizeof(uint32_t))
#define CPU_DELTA_BYTES_PER_VERTEX (sizeof(uint64_t) + sizeof(uint64_t) + 3 * sizeof(uint32_t))
#define VALIDATE_BYTES_PER_VERTEX (1 + sizeof(uint32_t))
#define SOURCE_CHOICE_BYTES_PER_VERTEX 1

static uint64_t max_u64(uint64_t a, uint64_t b) { return a > b ? a : b; }

void ds_run_memory_estimate(const ds_graph *g, const ds_cli *cli, const ds_algo *algos,
                            int n_algos, uint32_t n_sources, ds_dist_width w,
                            ds_run_memory *m) {
  const uint64_t n = g->n;
  memset(m, 0, sizeof *m);
  // 1. the graph, already in memory
  m->graph = (n + 1) * sizeof(uint64_t) + g->m * (sizeof(uint32_t) + sizeof(uint32_t));
  // 2. result arrays
  const uint64_t dist_bytes = ds_dist_size(g, w);
  m->results = n * dist_bytes;
  const int pred = cli->predecessors || cli->n_targets > 0;
  if (pred) m->results += n * sizeof(uint32_t);
  if (cli->validate) m->results += n * dist_bytes;
  if ((cli->output_path != NULL || cli->n_targets > 0) && n_algos > 1)
    m->results += n * (dist_bytes + (pred ? sizeof(uint32_t) : 0));
  // 3. the largest working set
  uint64_t per_vertex = SOURCE_CHOICE_BYTES_PER_VERTEX;
  if (cli->validate)
    per_vertex = max_u64(per_vertex, max_u64(VALIDATE_BYTES_PER_VERTEX, DIJKSTRA_BYTES_PER_VERTEX));
  for (int i = 0; i < n_algos; i++) {
    if (algos[i] == DS_ALGO_DIJKSTRA) per_vertex = max_u64(per_vertex, DIJKSTRA_BYTES_PER_VERTEX);
    if (algos[i] == DS_ALGO_CPU_DELTA) per_vertex = max_u64(per_vertex, CPU_DELTA_BYTES_PER_VERTEX);
  }
  m->scratch = n * per_vertex;
  // 4. per source: at most 2^32 sources x 10^6 trials x 8 bytes x 6 algorithms < 2^64
  const uint64_t per_algo = (uint64_t)cli->trials * sizeof(double) + 3 * sizeof(uint64_t) +
                            sizeof(uint32_t) + sizeof(ds_check);
  m->per_source = (uint64_t)n_sources * (sizeof(uint32_t) + (uint64_t)n_algos * per_algo);
}
