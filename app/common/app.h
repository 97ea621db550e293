/* What the programs share around their work (app.c): main()'s order of
 * options, configuration and checks, the exit code of a status, graph
 * loading, the device, and the refusal of a run that does not fit the host's
 * memory. Everything here prints under the program's name. */
#ifndef DS_APP_H
#define DS_APP_H

#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdint.h>

#include "cli.h"
#include "ds/graph.h"
#include "ds/status.h"

#define DS_APP_GPU_NAME_LEN 256
#define DS_APP_REASON_LEN 512

/* main() of program p: defaults, --help and --version, --config, the command
 * line, ds_cli_check and ds_outputs_check, then run(cli); returns the exit
 * code (a failed write of standard output is an input error). */
int ds_app_main(int argc, char **argv, const ds_program *p, ds_exit_code (*run)(const ds_cli *));

/* The exit code of a library status. */
ds_exit_code ds_app_exit_of(ds_status st);

/* The options of a load that shape the graph, from the command line: the weights of pattern
 * files, their seed, undirected, the cache's folder (the cache's use and the progress line are
 * the caller's). */
void ds_app_load_options(const ds_cli *cli, int undirected, ds_load_options *opt);

/* Loads path with cli's cache, weight and progress options (undirected: store
 * both directions of every arc); *cache is "hit", "miss" or "off". A note of
 * the graph layer (why the cache is off or was rebuilt) is printed once: not
 * again for the next graph when it says the same. Errors are printed. */
ds_exit_code ds_app_load_graph(const ds_cli *cli, const char *path, int undirected, ds_graph *g,
                               double *load_ms, const char **cache);

/* Starts OpenMP's team of cli->threads (OpenMP's default when 0) before the
 * first parallel region (ds/threads.h), so that a team the system cannot give
 * is an error naming the threads, exit code 5 as for memory, and not libgomp's
 * exit code 1. *threads: the team's size. */
ds_exit_code ds_app_threads(const ds_cli *cli, int *threads);

typedef struct {
  int gpus;                        /* CUDA devices usable; 0: none (reason says why) */
  char reason[DS_APP_REASON_LEN];
  int have_gpu;                    /* cli's device was described */
  char name[DS_APP_GPU_NAME_LEN];
  size_t memory;                   /* bytes */
} ds_app_device_info;

/* The devices: d->gpus and d->reason (the rest cleared). */
void ds_app_gpus(ds_app_device_info *d);

/* cli's device among d->gpus: a --device that does not exist is a usage error
 * (also where the CPU does the work); with a GPU its name is printed unless
 * --quiet. */
ds_exit_code ds_app_device(const ds_cli *cli, ds_app_device_info *d);

/* Refuses (DS_EXIT_INTERNAL, a message naming path, the bytes needed and
 * available (host_mem.h) and `parts`, what the need is made of) a run that
 * needs more host memory than is available, beyond the graph's `graph` bytes
 * already loaded. advice (NULL: none) ends the message where advice_part of
 * the need is more than half of what is available (": fewer --sources"). */
ds_exit_code ds_app_check_host_memory(const ds_cli *cli, const char *path, uint64_t graph,
                                      uint64_t need, const char *parts, uint64_t advice_part,
                                      const char *advice);

/* run_graph(ctx, path) for each graph of cli in turn, an empty line between
 * their tables; a validation failure does not stop the others, any other
 * failure does. Returns the first failure's exit code. */
ds_exit_code ds_app_each_graph(const ds_cli *cli,
                               ds_exit_code (*run_graph)(const void *ctx, const char *path),
                               const void *ctx);

/* The JSON report (NULL: none), also after a failed run: records the exit
 * code rc, writes it to cli->json_path and frees it. A run that failed before
 * any result (the report's "runs" empty) leaves an existing file as it was,
 * with a note on stderr, and creates none; a FIFO or device still gets the
 * report (nothing is replaced there, and its reader waits for it). Returns
 * rc, or where rc is 0 the write's failure (DS_EXIT_INPUT, DS_EXIT_INTERNAL). */
ds_exit_code ds_app_finish_json(const ds_cli *cli, cJSON *json, ds_exit_code rc);

/* Whether --output may be written once a graph's run ends with rc: not after
 * a failed validation (DS_EXIT_VALIDATION), whose results the run has just
 * found wrong; the old file stays, and stderr says so. */
int ds_app_output_wanted(const ds_cli *cli, ds_exit_code rc);

#endif /* DS_APP_H */
