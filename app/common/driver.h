/* The driver every program runs its work through (driver.c), as GAP's
 * BenchmarkKernel serves its kernels: sssp, kcore and tc describe what one
 * run of an algorithm is, how its result is checked and how a graph is
 * reported; the driver does the rest alike for all of them.
 *
 * A whole run (ds_driver_main): OpenMP's team, the GPUs, the program's
 * choice of algorithms, the device, the JSON report's fixed part, each graph
 * in turn (ds_app_each_graph), then the JSON report, also after a failure.
 *
 * A graph's measurements (ds_driver_measure): for each source (one for the
 * whole-graph programs), the reference result when validating, then every
 * algorithm: one untimed warm-up (on the first source only: the device and
 * the caches are warm after it), then the timed trials, each checked against
 * the reference when validating. The median and spread of the times are the
 * report's (report.h: ds_stats_of).
 */
#ifndef DS_DRIVER_H
#define DS_DRIVER_H

#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdint.h>

#include "app.h"
#include "cli.h"
#include "ds/graph.h"
#include "report.h"

/* Fills result arrays before each run, so that an algorithm that leaves
 * vertices unwritten fails validation. */
#define DS_DRIVER_POISON_BYTE 0xA5
#define DS_DRIVER_MIB (1024.0 * 1024.0)

/* What the whole run shares with each graph. */
typedef struct {
  const ds_cli *cli;
  int threads;            /* OpenMP's team (ds_app_threads) */
  ds_app_device_info dev; /* the GPUs; after plan, also the device described */
  cJSON *json;            /* the --json report, or NULL */
} ds_driver_run;

/* A program, to ds_driver_main. prog: its own state, given back to both. */
typedef struct {
  /* picks the algorithms once the GPUs are known (run->dev.gpus, .reason);
   * an exit code refuses the run (its message printed) */
  ds_exit_code (*plan)(void *prog, const ds_driver_run *run);
  /* one graph: load, measure (ds_driver_measure), --output, report */
  ds_exit_code (*graph)(void *prog, const ds_driver_run *run, const char *path);
} ds_driver_program;

/* Runs program p on every graph of cli; returns the exit code. */
ds_exit_code ds_driver_main(const ds_cli *cli, const ds_driver_program *p, void *prog);

/* Loads a graph of cli (ds_app_load_graph) and refuses one without vertices
 * (DS_EXIT_INPUT, the graph freed). */
ds_exit_code ds_driver_load(const ds_cli *cli, const char *path, int undirected, ds_graph *g,
                            double *load_ms, const char **cache);

/* A graph's measurements, to ds_driver_measure. Each callback gets ctx and
 * prints its own failure; i is the algorithm's index, s the source's. */
typedef struct {
  int n_algos;
  uint32_t n_sources, trials;
  int validate;            /* reference, then check after every timed trial */
  double *const *times_ms; /* [in] n_algos arrays of n_sources * trials: [s * trials + t] */
  void *ctx;
  /* the reference result of source s (when validating) */
  ds_exit_code (*reference)(void *ctx, uint32_t s);
  /* one run of algorithm i from source s, its result poisoned first; *ms its time */
  ds_exit_code (*run)(void *ctx, int i, uint32_t s, double *ms);
  /* spoils the result just computed (the lab's DS_TEST_CORRUPT), so that a
   * test sees the validation failure reach the exit code */
  void (*corrupt)(void *ctx, int i, uint32_t s);
  /* checks the result just computed against the reference; 0: it failed */
  int (*check)(void *ctx, int i, uint32_t s);
  /* after the last trial of algorithm i from source s: keeps what the report
   * wants of that result (its counters, the first algorithm's values) */
  void (*done)(void *ctx, int i, uint32_t s);
} ds_driver_trials;

/* The warm-up, trials and checks of every algorithm from every source (see
 * the top). Returns DS_EXIT_OK, DS_EXIT_VALIDATION where a check failed (the
 * other runs go on), or the exit code of a run or reference that failed (the
 * measurements stop there). */
ds_exit_code ds_driver_measure(const ds_driver_trials *t);

/* Records a check's outcome in *state: why NULL, passed (unless it failed
 * before); else failed, with the first failure's reason kept in failure (len
 * bytes). Returns 1 where this is the first failure of *state, which the
 * caller then prints. */
int ds_driver_check_note(ds_check *state, const char *why, char *failure, size_t len);

#endif /* DS_DRIVER_H */
