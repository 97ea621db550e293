/* sssp --target: the targets of a run in the graph's numbering, and what is
 * told of them once the search has stopped at them (run_targets.c): per
 * target its distance and its path, on the terminal, in the JSON report and
 * in --output. */
#ifndef DS_RUN_TARGETS_H
#define DS_RUN_TARGETS_H

#include <cjson/cJSON.h>
#include <stdio.h>

#include "cli.h"
#include "sssp.h"

/* cli's targets (file numbering) as 0-based vertices of g into targets
 * (cli->n_targets entries); DS_EXIT_USAGE, with the reason on stderr, for one
 * outside the graph. */
ds_exit_code ds_run_pick_targets(const ds_cli *cli, const ds_graph *g, const char *path,
                                 uint32_t *targets);

/* One search's answer for its targets: the result of algo from source. */
typedef struct {
  const ds_graph *g;
  ds_algo algo;
  uint32_t source;
  const uint32_t *targets;
  uint32_t n_targets;
  const void *dist;
  ds_dist_width width;
  const uint32_t *pred;
  int stopped_early;
} ds_target_answer;

/* Per target: "target T: distance D, K vertices: S ... T", or that it is
 * unreachable from the source. DS_EXIT_INTERNAL without memory for a path,
 * DS_EXIT_VALIDATION where the predecessors do not lead to the source (the
 * reason on stderr). */
ds_exit_code ds_run_print_targets(FILE *f, const ds_target_answer *a);

/* --output with --target: "vertex distance predecessor" for each vertex on a
 * target's path, once, in increasing vertex order (the vertices whose
 * distances are final whatever the search left undone). */
ds_exit_code ds_run_write_target_output(const char *path, const ds_target_answer *a);

/* Adds "targets" to the last run of root["runs"]: per target its vertex,
 * distance (null where unreachable) and path, and whether the search stopped
 * early. 0 when out of memory. */
int ds_run_json_targets(cJSON *root, const ds_target_answer *a);

/* With several sources: the distances from each source to each target, of
 * algo (the run's first algorithm), one row a source. */
typedef struct {
  const ds_graph *g;
  ds_algo algo;
  const uint32_t *sources, *targets;
  uint32_t n_sources, n_targets;
  ds_dist_width width;
  unsigned char *cells; /* n_sources x n_targets distances of the width's size */
} ds_target_matrix;

/* cells for n_sources x n_targets distances; 0 when out of memory. */
int ds_run_matrix_alloc(ds_target_matrix *m);
void ds_run_matrix_free(ds_target_matrix *m);

/* Row s from one search's distances (the whole array of g's vertices). */
void ds_run_matrix_row(ds_target_matrix *m, uint32_t s, const void *dist);

/* "source T1 T2 ..." then a line a source: its vertex and its distance to each
 * target ("inf" where unreachable), file numbering, after a header line when
 * titled (the terminal's table). */
void ds_run_print_matrix(FILE *f, const ds_target_matrix *m, int titled);

/* --output with --target and several sources: the matrix as printed, without the title. */
ds_exit_code ds_run_write_matrix(const char *path, const ds_target_matrix *m);

/* Adds "targets" to the last run of root["runs"]: the algorithm, the sources,
 * the targets and per source its distances (null where unreachable). 0 when
 * out of memory. */
int ds_run_json_matrix(cJSON *root, const ds_target_matrix *m);

#endif /* DS_RUN_TARGETS_H */
