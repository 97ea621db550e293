/* Whole-graph programs (kcore, tc): one result per run of an algorithm on an
 * undirected graph, timed over trials, checked against the CPU oracle, and
 * reported as sssp reports (kernel.c, on the programs' driver, driver.h).
 * A program describes its computation in a ds_kernel and hands its parsed
 * options to ds_kernel_run.
 *
 * Input: the graph is loaded as the file says (sharing sssp's binary cache);
 * a directed one is symmetrised with a note (every arc taken as an edge; self
 * loops and duplicates are gone already), unless it lists both directions of
 * every edge: then it is undirected as it is.
 */
#ifndef DS_KERNEL_H
#define DS_KERNEL_H

#include <cjson/cJSON.h>
#include <stdint.h>
#include <stdio.h>

#include "cli.h"
#include "ds/graph.h"
#include "ds/status.h"

/* --algo names of the whole-graph programs: cpu (the OpenMP backend), oracle
 * (the serial reference), gpu (the GPU backend: the default where a device is
 * present; refused with exit code 4 where none is, or the graph does not fit). */
typedef enum { DS_KERNEL_CPU = 0, DS_KERNEL_ORACLE = 1, DS_KERNEL_GPU = 2, DS_KERNEL_ALGOS = 3 } ds_kernel_algo;

const char *ds_kernel_algo_name(int algo);

#define DS_KERNEL_DETAILS 6

/* One result: a count and, when asked for, one value per vertex. */
typedef struct {
  uint64_t total;
  void *per_vertex; /* n values of ds_kernel.value_bytes (4 or 8), or NULL */
  /* what a GPU run reports of its work (rounds, phases' times), named by
   * ds_kernel.gpu_details */
  double details[DS_KERNEL_DETAILS];
} ds_kernel_result;

typedef struct {
  const ds_program *prog;
  const char *total_name;     /* what total counts: "degeneracy", "triangles" */
  const char *value_name;     /* what a per-vertex value is: "core number", "triangles" */
  size_t value_bytes;         /* 4 (uint32_t) or 8 (uint64_t) */
  int per_vertex_always;      /* 1: every run computes per_vertex; 0: only for --output */
  /* working memory of the largest algorithm, for the host-memory check */
  uint64_t scratch_per_vertex, scratch_per_arc;
  /* and what the cpu algorithm takes for each of its threads (NULL: nothing
   * worth counting), named in the check's message ("per-thread bitmaps") */
  uint64_t (*scratch_per_thread)(const ds_graph *g);
  const char *thread_scratch_name;
  /* runs algo (DS_KERNEL_CPU or DS_KERNEL_ORACLE) on g; r->per_vertex is
   * NULL or n values to fill */
  ds_status (*run)(const ds_graph *g, int algo, int threads, ds_kernel_result *r, ds_error *err);
  /* what the program reports of a result besides its total, as text (f, a
   * line or more) and into the run's JSON "result" object; 0 when out of memory */
  int (*summary)(FILE *f, cJSON *json, const ds_graph *g, const ds_kernel_result *r);
  /* the GPU backend: open uploads g to cli->device with the program's options
   * from cli (refusing a graph that does not fit before allocating), run
   * computes into r with *ms the GPU time, close frees; details: the names of
   * r->details a run fills (NULL-terminated) */
  ds_status (*gpu_open)(const ds_cli *cli, const ds_graph *g, void **ctx, ds_error *err);
  ds_status (*gpu_run)(void *ctx, const ds_graph *g, ds_kernel_result *r, double *ms,
                       ds_error *err);
  void (*gpu_close)(void *ctx);
  const char *const *gpu_details;
} ds_kernel;

/* The program's work on every graph of cli; returns the exit code. */
ds_exit_code ds_kernel_run(const ds_cli *cli, const ds_kernel *k);

/* The option list the whole-graph programs take (kcore, tc); a program with
 * options of its own lists DS_KERNEL_VALUE_OPTION_NAMES and then its own. */
#define DS_KERNEL_VALUE_OPTION_NAMES                                                             \
  "--graph", "--algo", "--trials", "--json", "--config", "--output", "--device", "--cache-dir",  \
      "--threads"
extern const char *const DS_KERNEL_VALUE_OPTIONS[];
extern const char *const DS_KERNEL_FLAG_OPTIONS[];
#define DS_KERNEL_CONFIG_KEYS \
  "graph, algo, trials, validate, no_cache, device, threads, json, output, cache_dir"

/* --help's common part: input, algorithms, measure, output, exit codes. what:
 * the --output line's value ("core number"). */
void ds_kernel_usage(FILE *f, const ds_kernel *k);

#endif /* DS_KERNEL_H */
