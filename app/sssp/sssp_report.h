/* sssp's measurements of one graph and their presentation (sssp_report.c):
 * run.c fills ds_graph_report. */
#ifndef DS_SSSP_REPORT_H
#define DS_SSSP_REPORT_H

#include <cjson/cJSON.h>
#include <stdio.h>

#include "cli.h"
#include "report.h"
#include "sssp.h"

/* One algorithm over all sources of a graph. Arrays have n_sources entries
 * (times_ms has n_sources * trials, source-major). */
typedef struct {
  ds_algo algo;
  double delta;      /* the bucket width it ran with; 0 for Dijkstra and Bellman-Ford */
  double *times_ms;
  uint64_t *rounds, *edges_relaxed, *reached_arcs; /* of the last trial */
  uint32_t *reached;
  ds_check *check;
  char failure[DS_ERROR_MSG_LEN]; /* first validation message */
} ds_algo_stats;

/* The batched engine over all sources of a graph (run_sources.c: ds_run_batch),
 * where it ran in place of the GPU algorithms' searches one by one. */
typedef struct {
  int ran;
  const char *rule;  /* why it ran: "auto" (ds_gpu_batch_pays) or "on" (--batch on) */
  double delta;      /* the bucket width of its searches: the GPU rule's, or the given */
  uint32_t slots, rows, launches; /* searches at once, sources a launch, launches a batch */
  double *times_ms;  /* trials entries: every source's search, all together (device time) */
  uint64_t rounds, edges_relaxed, reached_arcs; /* sums over the sources, last trial */
  ds_check check;    /* of the last trial, every source */
  char failure[DS_ERROR_MSG_LEN];
} ds_batch_stats;

typedef struct {
  const ds_graph *g;
  const char *path;
  double load_ms;
  const char *cache; /* "hit", "miss" or "off" */
  double delta;      /* the given width, or under auto the GPU rule's where a GPU algorithm
                        runs, else the CPU rule's: what --buckets auto follows (each
                        algorithm's own is its ds_algo_stats.delta) */
  int delta_auto;
  uint32_t buckets;
  int buckets_auto;
  uint32_t trials;
  int threads;
  uint32_t n_sources;
  uint32_t *sources; /* 0-based */
  int n_algos;
  ds_algo_stats algos[DS_ALGO_COUNT];
  int reference; /* index into algos of the speedup reference, or -1 */
  ds_batch_stats batch; /* the GPU algorithms' sources, batched (batch.ran) */
} ds_graph_report;

/* sssp's graph description: the graph's line and the parameters' line. */
void ds_report_graph_line(FILE *f, const ds_graph_report *r);

/* The comparison table: one row per (source, algorithm), and mean rows when
 * there are several sources. */
void ds_report_table(FILE *f, const ds_graph_report *r);

/* The batched searches' line (nothing where they did not run): the time of
 * all sources together, searches per second, the sums of the counts. */
void ds_report_batch(FILE *f, const ds_graph_report *r);

/* Adds one graph's measurements to root["runs"]. 0 when out of memory. */
int ds_report_json_graph(cJSON *root, const ds_graph_report *r, const ds_cli *cli);

#endif /* DS_SSSP_REPORT_H */
