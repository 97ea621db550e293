/* The `sssp` driver (run.c): runs the algorithms of a parsed command line on
 * each of its graphs and reports; returns the program's exit code. */
#ifndef DS_RUN_H
#define DS_RUN_H

#include "cli.h"
#include "run_sources.h"
#include "sssp.h"
#include "sssp_report.h"

/* batch: --batch, whether the GPU algorithms' sources run batched (run_sources.h). */
ds_exit_code ds_run(const ds_cli *cli, ds_batch_mode batch);

/* --output: one line a vertex, "vertex distance [predecessor]" in the file's
 * numbering (inf and - where unreached); DS_EXIT_INPUT, with the reason on
 * stderr, where the file cannot be written. pred may be NULL. */
ds_exit_code ds_run_write_output(const char *path, const ds_graph *g, const void *dist,
                                 ds_dist_width w, const uint32_t *pred);
/* The same for only the vertices v with only[v] set (NULL: every vertex). */
ds_exit_code ds_run_write_output_of(const char *path, const ds_graph *g, const void *dist,
                                    ds_dist_width w, const uint32_t *pred,
                                    const unsigned char *only);

/* One distance as --output prints it: exact integers, floats to 9 digits, inf. */
void ds_run_print_distance(FILE *f, const ds_graph *g, const void *dist, ds_dist_width w,
                           uint32_t v);

/* What every driver of a graph's run (run.c, run_dist.c) sets alike in r:
 * the sources' count (cli's, or with a note the vertices that have out-arcs
 * where they are fewer), trials and threads, each algorithm with its delta
 * and the run's (ds_delta_for_algos), and the buckets. */
void ds_run_report_params(const ds_cli *cli, const ds_graph *g, const char *path,
                          const ds_algo *algos, int n_algos, int threads, ds_graph_report *r);

/* r's statistics, n_sources entries for each algorithm, zeroed; the speedup
 * reference (near-far where it runs, else dijkstra). 0 when out of memory
 * (ds_run_report_free frees what was had). */
int ds_run_report_alloc(ds_graph_report *r);

/* Frees r's statistics and sources, and clears r. */
void ds_run_report_free(ds_graph_report *r);

#endif /* DS_RUN_H */
