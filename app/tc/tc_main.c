/* `tc`: the triangles of a graph (made undirected), in total (64-bit) and,
 * with --output, through each vertex; the GPU backend, the OpenMP backend
 * and the serial oracle of ds_tc timed and checked as sssp does
 * (app/common/kernel.c does the work).
 */
#include <stdio.h>

#include "app.h"
#include "kernel.h"
#include "tc.h"

/* the oriented graph of ds_tc_cpu: 16 n + 2 m bytes (tc.h), and its bitmaps a thread */
#define TC_SCRATCH_PER_VERTEX 16u
#define TC_SCRATCH_PER_ARC 2u

static void usage(FILE *f);

static const char *algo_name(int a) { return ds_kernel_algo_name(a); }

static const char *const TC_VALUE_OPTIONS[] = {DS_KERNEL_VALUE_OPTION_NAMES, "--intersect", NULL};

static const ds_program TC_PROGRAM = {
    "tc", TC_VALUE_OPTIONS, DS_KERNEL_FLAG_OPTIONS, DS_KERNEL_CONFIG_KEYS ", intersect",
    DS_KERNEL_ALGOS, algo_name, usage};

static ds_status run(const ds_graph *g, int algo, int threads, ds_kernel_result *r,
                     ds_error *err) {
  uint64_t *per_vertex = (uint64_t *)r->per_vertex;
  if (algo == DS_KERNEL_ORACLE) return ds_tc_oracle(g, &r->total, per_vertex, err);
  return ds_tc_cpu(g, threads, &r->total, per_vertex, err);
}

static ds_status gpu_open(const ds_cli *cli, const ds_graph *g, void **ctx, ds_error *err) {
  ds_tc_gpu_options opt;
  ds_tc_gpu_options_default(&opt);
  /* the names are the same: ds_cli's checked list, tc's probes and "auto" */
  if (!ds_tc_gpu_options_intersect(&opt, ds_cli_intersect_name(cli->intersect)))
    return ds_error_set(err, DS_ERR_ARG, "--intersect %s: not a probe of this backend",
                        ds_cli_intersect_name(cli->intersect));
  return ds_tc_gpu_open(cli->device, g, &opt, (ds_tc_gpu **)ctx, err);
}

static const char *const GPU_DETAILS[] = {"prep_ms", "short_ms", "long_ms", "short_rows",
                                          "long_rows", NULL};

static ds_status gpu_run(void *ctx, const ds_graph *g, ds_kernel_result *r, double *ms,
                         ds_error *err) {
  (void)g;
  ds_tc_gpu_stats stats;
  ds_status st = ds_tc_gpu_run((ds_tc_gpu *)ctx, &r->total, (uint64_t *)r->per_vertex, ms, &stats,
                               err);
  if (st != DS_OK) return st;
  r->details[0] = stats.prep_ms;
  r->details[1] = stats.short_ms;
  r->details[2] = stats.long_ms;
  r->details[3] = (double)stats.short_rows;
  r->details[4] = (double)stats.long_rows;
  return DS_OK;
}

static void gpu_close(void *ctx) { ds_tc_gpu_close((ds_tc_gpu *)ctx); }

static uint64_t thread_scratch(const ds_graph *g) { return ds_tc_cpu_thread_bytes(g->n); }

static const ds_kernel TC = {&TC_PROGRAM, "triangles", "triangles", sizeof(uint64_t), 0,
                             TC_SCRATCH_PER_VERTEX, TC_SCRATCH_PER_ARC, thread_scratch,
                             "per-thread bitmaps", run, NULL, gpu_open, gpu_run, gpu_close,
                             GPU_DETAILS};

static void usage(FILE *f) {
  fprintf(f,
"usage: tc --graph FILE [options]\n"
"\n"
"Triangle counting: the triangles of the graph (64-bit), and with --output\n"
"the triangles through each vertex. The GPU backend (orientation by degree,\n"
"rows sorted by segmented sort, intersections by warps and blocks), the\n"
"OpenMP backend and the serial oracle, timed and compared in one run;\n"
"--validate compares the totals, and with --output the per-vertex counts too.\n"
"\n"
"GPU backend\n"
"  --intersect METHOD  how rows longer than 16 out-arcs are intersected: bitmap\n"
"                      (of the higher ranks, in shared memory, where they fit;\n"
"                      search elsewhere), hash (msplit's slab hash in global\n"
"                      memory), search (binary search of a sorted copy), or\n"
"                      auto (default: bitmap)\n"
"\n");
  ds_kernel_usage(f, &TC);
}

static ds_exit_code run_all(const ds_cli *cli) { return ds_kernel_run(cli, &TC); }

int main(int argc, char **argv) { return ds_app_main(argc, argv, &TC_PROGRAM, run_all); }
