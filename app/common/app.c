/* What the programs share around their work: main()'s order (--help,
 * --version, the configuration, the command line, the output checks, then
 * the run), exit codes of statuses, graph loading with the cache's notes,
 * the device, and the host-memory refusal.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "lab.h"
#include "ds/device.h"
#include "ds/graph500.h"
#include "ds/out_file.h"
#include "ds/threads.h"
#include "host_mem.h"
#ifdef DS_APP_GPU_CSR
#include "ds/csr_gpu.h"
#endif
#include "outputs.h"
#include "report.h"

#define MIB (1024.0 * 1024.0)

#ifndef DS_VERSION
#define DS_VERSION "unknown"
#endif
#ifndef DS_COMMIT
#define DS_COMMIT "unknown"
#endif

/* The table and --help go to stdout: a failed write there (a full disk, a
 * closed pipe) is an output error, not a success. */
static int finish_stdout(const ds_program *p, ds_exit_code rc) {
  if (fflush(stdout) != 0 || ferror(stdout)) {
    fprintf(stderr, "%s: cannot write to standard output: %s\n", p->name, strerror(errno));
    if (rc == DS_EXIT_OK) rc = DS_EXIT_INPUT;
  }
  return (int)rc;
}

int ds_app_main(int argc, char **argv, const ds_program *p, ds_exit_code (*run)(const ds_cli *)) {
  ds_cli cli;
  char msg[DS_CLI_MSG_LEN] = "";
  const char *config = NULL;
  ds_exit_code rc;

  // 1. --help, --version and --config first
  ds_cli_defaults(&cli, p);
  ds_exit_code prescan = ds_cli_prescan(argc, argv, &config, &cli, msg, sizeof msg);
  if (cli.help) {
    p->usage(stdout);
    return finish_stdout(p, DS_EXIT_OK);
  }
  if (cli.version) {
    printf("%s (deltasplit) %s, commit %s\n", p->name, DS_VERSION, DS_COMMIT);
    return finish_stdout(p, DS_EXIT_OK);
  }
  if ((rc = prescan) != DS_EXIT_OK) goto fail;
  // 2. the configuration file, then the command line over it
  if (config != NULL && (rc = ds_config_load(config, &cli, msg, sizeof msg)) != DS_EXIT_OK)
    goto fail;
  if ((rc = ds_cli_parse(argc, argv, &cli, msg, sizeof msg)) != DS_EXIT_OK) goto fail;
  if ((rc = ds_cli_check(&cli, msg, sizeof msg)) != DS_EXIT_OK) goto fail;
  if ((rc = ds_outputs_check(&cli, config, msg, sizeof msg)) != DS_EXIT_OK) goto fail;
  ds_error lab_err;
  if (ds_lab_start(&lab_err) != DS_OK) {
    snprintf(msg, sizeof msg, "%s", lab_err.msg);
    rc = DS_EXIT_USAGE;
    goto fail;
  }
  // 3. run
  rc = run(&cli);
  ds_cli_free(&cli);
  return finish_stdout(p, rc);

fail:
  fprintf(stderr, "%s: %s\n", p->name, msg);
  if (rc == DS_EXIT_USAGE) fprintf(stderr, "(%s --help lists the options)\n", p->name);
  ds_cli_free(&cli);
  return (int)rc;
}

ds_exit_code ds_app_exit_of(ds_status st) {
  switch (st) {
  case DS_OK: return DS_EXIT_OK;
  case DS_ERR_ARG: return DS_EXIT_USAGE;
  case DS_ERR_NOMEM: return DS_EXIT_INTERNAL;
  case DS_ERR_DEVICE: return DS_EXIT_DEVICE;
  case DS_ERR_VALIDATION: return DS_EXIT_VALIDATION;
  case DS_ERR_RANGE: return DS_EXIT_RANGE;
  default: return DS_EXIT_INPUT;
  }
}

#ifdef DS_APP_GPU_CSR
/* The CSR of a text load, built on the program's GPU; on the CPU, with a
 * note, where the GPU cannot (no room for the edges, a CUDA error). */
typedef struct {
  int device;
  char note[DS_ERROR_MSG_LEN];
} gpu_csr;

static ds_status build_on_gpu(void *ctx, const ds_edge_list *edges, int symmetric,
                              const ds_load_options *opt, ds_graph *g, ds_error *err) {
  gpu_csr *c = (gpu_csr *)ctx;
  ds_status st = ds_csr_build_gpu(c->device, edges, symmetric, opt, g, err);
  if (st != DS_ERR_DEVICE) return st;
  snprintf(c->note, sizeof c->note, "the CSR was built on the CPU: %.900s", err->msg);
  return ds_csr_build(edges, symmetric, opt, g, err);
}
#endif

void ds_app_load_options(const ds_cli *cli, int undirected, ds_load_options *opt) {
  ds_load_options_default(opt);
  opt->undirected = undirected;
  opt->weight_min = cli->weight_min;
  opt->weight_max = cli->weight_max;
  opt->weight_dist = cli->weight_dist;
  opt->seed = cli->seed;
  opt->cache_dir = cli->cache_dir;
}

ds_exit_code ds_app_load_graph(const ds_cli *cli, const char *path, int undirected, ds_graph *g,
                               double *load_ms, const char **cache) {
  static char last_note[DS_ERROR_MSG_LEN];
  const char *name = cli->prog->name;
  ds_load_options opt;
  ds_load_info info;
  ds_error err = {{0}};
  ds_app_load_options(cli, undirected, &opt);
  opt.use_cache = !cli->no_cache;
  opt.progress = !cli->quiet;
#ifdef DS_APP_GPU_CSR
  gpu_csr on_gpu = {cli->device, ""};
  if (ds_device_count(NULL, 0) > cli->device) {
    opt.csr_build = build_on_gpu;
    opt.csr_build_ctx = &on_gpu;
  }
#endif
  double t0 = omp_get_wtime();
  uint32_t kron_scale; /* --kron S: the graph is generated, not read */
  memset(&info, 0, sizeof info);
  ds_status st = ds_graph500_path(path, &kron_scale)
                     ? ds_graph500_build(kron_scale, cli->kron_edge_factor, cli->seed, &opt, g, &err)
                     : ds_graph_load_info(path, &opt, g, &info, &err);
  *load_ms = (omp_get_wtime() - t0) * 1e3;
#ifdef DS_APP_GPU_CSR
  if (!cli->quiet && on_gpu.note[0] != '\0') fprintf(stderr, "%s: note: %s\n", name, on_gpu.note);
#endif
  if (!cli->quiet && info.note[0] != '\0' && strcmp(info.note, last_note) != 0) {
    fprintf(stderr, "%s: note: %s\n", name, info.note);
    snprintf(last_note, sizeof last_note, "%s", info.note);
  }
  if (st != DS_OK) {
    fprintf(stderr, "%s: %s\n", name, err.msg);
    return ds_app_exit_of(st) == DS_EXIT_USAGE ? DS_EXIT_INPUT : ds_app_exit_of(st);
  }
  *cache = info.cache == DS_CACHE_HIT ? "hit" : info.cache == DS_CACHE_MISS ? "miss" : "off";
  return DS_EXIT_OK;
}

ds_exit_code ds_app_threads(const ds_cli *cli, int *threads) {
  ds_error err = {{0}};
  if (ds_threads_start(cli->threads, threads, &err) == DS_OK) return DS_EXIT_OK;
  fprintf(stderr, "%s: %s: give fewer --threads\n", cli->prog->name, err.msg);
  return DS_EXIT_INTERNAL;
}

void ds_app_gpus(ds_app_device_info *d) {
  memset(d, 0, sizeof *d);
  d->gpus = ds_device_count(d->reason, sizeof d->reason);
}

ds_exit_code ds_app_device(const ds_cli *cli, ds_app_device_info *d) {
  const char *name = cli->prog->name;
  /* a device asked for must exist, also where the CPU backend would do the work */
  if (cli->device_given && cli->device >= d->gpus) {
    if (d->gpus == 0)
      fprintf(stderr, "%s: device %d does not exist: no GPU (%s)\n", name, cli->device,
              d->reason);
    else
      fprintf(stderr, "%s: device %d does not exist: %d CUDA device%s (0..%d)\n", name,
              cli->device, d->gpus, d->gpus == 1 ? "" : "s", d->gpus - 1);
    return DS_EXIT_USAGE;
  }
  if (d->gpus > 0) {
    ds_error err = {{0}};
    ds_status st = ds_device_describe(cli->device, d->name, sizeof d->name, &d->memory, &err);
    if (st != DS_OK) {
      fprintf(stderr, "%s: %s\n", name, err.msg);
      return ds_app_exit_of(st);
    }
    d->have_gpu = 1;
    if (!cli->quiet) printf("GPU %d: %s\n", cli->device, d->name);
  }
  return DS_EXIT_OK;
}

ds_exit_code ds_app_check_host_memory(const ds_cli *cli, const char *path, uint64_t graph,
                                      uint64_t need, const char *parts, uint64_t advice_part,
                                      const char *advice) {
  const uint64_t available = ds_host_mem_available();
  if (available == 0 || need <= available) return DS_EXIT_OK;
  fprintf(stderr,
          "%s: %s: the run needs about %.1f MiB of host memory besides the graph's %.1f MiB "
          "(%s), but %.1f MiB are available%s\n",
          cli->prog->name, path, (double)need / MIB, (double)graph / MIB, parts,
          (double)available / MIB,
          advice != NULL && advice_part > available / 2 ? advice : "");
  return DS_EXIT_INTERNAL;
}

ds_exit_code ds_app_each_graph(const ds_cli *cli,
                               ds_exit_code (*run_graph)(const void *ctx, const char *path),
                               const void *ctx) {
  ds_exit_code rc = DS_EXIT_OK;
  for (int i = 0; i < cli->n_graphs; i++) {
    if (i > 0 && !cli->quiet) printf("\n");
    ds_exit_code grc = run_graph(ctx, cli->graphs[i]);
    if (grc != DS_EXIT_OK && rc == DS_EXIT_OK) rc = grc;
    if (grc != DS_EXIT_OK && grc != DS_EXIT_VALIDATION) break;
  }
  return rc;
}

ds_exit_code ds_app_finish_json(const ds_cli *cli, cJSON *json, ds_exit_code rc) {
  if (json == NULL) return rc;
  /* a stub of a run that has no results would replace a good report; a FIFO
   * or device still gets it (nothing is replaced there, and a reader waits) */
  if (rc != DS_EXIT_OK && cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(json, "runs")) == 0 &&
      !ds_out_written_through(cli->json_path)) {
    fprintf(stderr, "%s: --json %s not written: the run failed before it had results\n",
            cli->prog->name, cli->json_path);
    cJSON_Delete(json);
    return rc;
  }
  cJSON_AddNumberToObject(json, "exit_code", rc);
  ds_error err = {{0}};
  ds_status st = ds_report_json_write(json, cli->json_path, &err);
  if (st != DS_OK) {
    fprintf(stderr, "%s: the JSON report: %s\n", cli->prog->name, err.msg);
    if (rc == DS_EXIT_OK) rc = st == DS_ERR_NOMEM ? DS_EXIT_INTERNAL : DS_EXIT_INPUT;
  }
  cJSON_Delete(json);
  return rc;
}

int ds_app_output_wanted(const ds_cli *cli, ds_exit_code rc) {
  if (rc != DS_EXIT_VALIDATION) return 1;
  fprintf(stderr, "%s: --output %s not written: validation failed\n", cli->prog->name,
          cli->output_path);
  return 0;
}
