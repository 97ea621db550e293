/* The reports' shared parts (report.c): the graph's line, the JSON report's
 * root, runs and writer, timing statistics, and the state of a check. */
#ifndef DS_REPORT_H
#define DS_REPORT_H

#include <cjson/cJSON.h>
#include <stdio.h>

#include "cli.h"
#include "ds/graph.h"

/* Validation state of one result, or of an algorithm's results. */
typedef enum { DS_CHECK_NOT_RUN = 0, DS_CHECK_PASSED = 1, DS_CHECK_FAILED = 2 } ds_check;

/* Median, minimum and maximum of n values. */
void ds_stats_of(const double *x, uint32_t n, double *median, double *min, double *max);

/* The graph's line ("graph NY: 264346 vertices, ..., loaded in 3.1 ms (cache hit)"). */
void ds_report_load_line(FILE *f, const ds_graph *g, double load_ms, const char *cache);

/* Appends a run to root["runs"] with its "graph" object; NULL when out of
 * memory. The program adds "parameters", "algorithms" and its results. */
cJSON *ds_report_json_run(cJSON *root, const ds_graph *g, const char *path, double load_ms,
                          const char *cache);

/* The report's fixed part: program, version, commit, command, machine, GPU (NULL: none). */
cJSON *ds_report_json_root(const ds_cli *cli, const char *gpu_name, size_t gpu_mem, int threads);

/* Writes root to path through ds_out_open (a regular file is replaced
 * atomically, a FIFO or device written through). DS_ERR_IO or DS_ERR_NOMEM
 * with a message naming the path. */
ds_status ds_report_json_write(const cJSON *root, const char *path, ds_error *err);

#endif /* DS_REPORT_H */
