/* Measurements of the programs' runs and their presentation: the table on
 * stdout and the JSON report (report.c). sssp's run.c fills ds_graph_report.
 */
#ifndef DS_REPORT_H
#define DS_REPORT_H

#include <cjson/cJSON.h>
#include <stdio.h>

#include "cli.h"
#include "sssp.h"

/* Validation state of one (algorithm, source). */
typedef enum { DS_CHECK_NOT_RUN = 0, DS_CHECK_PASSED = 1, DS_CHECK_FAILED = 2 } ds_check;

/* One algorithm over all sources of a graph. Arrays have n_sources entries
 * (times_ms has n_sources * trials, source-major). */
typedef struct {
  ds_algo algo;
  double *times_ms;
  uint64_t *rounds, *edges_relaxed, *reached_arcs; /* of the last trial */
  uint32_t *reached;
  ds_check *check;
  char failure[DS_ERROR_MSG_LEN]; /* first validation message */
} ds_algo_stats;

typedef struct {
  const ds_graph *g;
  const char *path;
  double load_ms;
  const char *cache; /* "hit", "miss" or "off" */
  double delta;
  int delta_auto;
  uint32_t buckets;
  uint32_t trials;
  int threads;
  uint32_t n_sources;
  uint32_t *sources; /* 0-based */
  int n_algos;
  ds_algo_stats algos[DS_ALGO_COUNT];
  int reference; /* index into algos of the speedup reference, or -1 */
} ds_graph_report;

/* Median, minimum and maximum of n values. */
void ds_stats_of(const double *x, uint32_t n, double *median, double *min, double *max);

/* The graph's line ("graph NY: 264346 vertices, ..., loaded in 3.1 ms (cache hit)"). */
void ds_report_load_line(FILE *f, const ds_graph *g, double load_ms, const char *cache);

/* Appends a run to root["runs"] with its "graph" object; NULL when out of
 * memory. The program adds "parameters", "algorithms" and its results. */
cJSON *ds_report_json_run(cJSON *root, const ds_graph *g, const char *path, double load_ms,
                          const char *cache);

/* sssp's graph description: the graph's line and the parameters' line. */
void ds_report_graph_line(FILE *f, const ds_graph_report *r);

/* The comparison table: one row per (source, algorithm), and mean rows when
 * there are several sources. */
void ds_report_table(FILE *f, const ds_graph_report *r);

/* The report's fixed part: program, version, commit, command, machine, GPU (NULL: none). */
cJSON *ds_report_json_root(const ds_cli *cli, const char *gpu_name, size_t gpu_mem, int threads);

/* Adds one graph's measurements to root["runs"]. 0 when out of memory. */
int ds_report_json_graph(cJSON *root, const ds_graph_report *r, const ds_cli *cli);

/* Writes root to path through ds_out_open (a regular file is replaced
 * atomically, a FIFO or device written through). DS_ERR_IO or DS_ERR_NOMEM
 * with a message naming the path. */
ds_status ds_report_json_write(const cJSON *root, const char *path, ds_error *err);

#endif /* DS_REPORT_H */
