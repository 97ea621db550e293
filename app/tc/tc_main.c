/* `tc`: the triangles of a graph (made undirected), in total (64-bit) and,
 * with --output, through each vertex; the OpenMP backend and the serial
 * oracle of ds_tc timed and checked as sssp does (app/common/kernel.c does
 * the work).
 */
#include <stdio.h>

#include "app.h"
#include "kernel.h"
#include "tc.h"

/* the oriented graph of ds_tc_cpu: 8 (n + 1) + 2 m bytes (tc.h) */
#define TC_SCRATCH_PER_VERTEX 8u
#define TC_SCRATCH_PER_ARC 2u

static void usage(FILE *f);

static const char *algo_name(int a) { return ds_kernel_algo_name(a); }

static const ds_program TC_PROGRAM = {
    "tc", DS_KERNEL_VALUE_OPTIONS, DS_KERNEL_FLAG_OPTIONS, DS_KERNEL_CONFIG_KEYS,
    DS_KERNEL_ALGOS, algo_name, usage};

static ds_status run(const ds_graph *g, int algo, int threads, ds_kernel_result *r,
                     ds_error *err) {
  uint64_t *per_vertex = (uint64_t *)r->per_vertex;
  if (algo == DS_KERNEL_ORACLE) return ds_tc_oracle(g, &r->total, per_vertex, err);
  return ds_tc_cpu(g, threads, &r->total, per_vertex, err);
}

static const ds_kernel TC = {&TC_PROGRAM, "triangles", "triangles", sizeof(uint64_t), 0,
                             TC_SCRATCH_PER_VERTEX, TC_SCRATCH_PER_ARC, run, NULL};

static void usage(FILE *f) {
  fprintf(f,
"usage: tc --graph FILE [options]\n"
"\n"
"Triangle counting: the triangles of the graph (64-bit), and with --output\n"
"the triangles through each vertex. The OpenMP backend and the serial\n"
"oracle, timed and compared in one run; --validate compares the totals, and\n"
"with --output the per-vertex counts too.\n"
"\n");
  ds_kernel_usage(f, &TC);
}

static ds_exit_code run_all(const ds_cli *cli) { return ds_kernel_run(cli, &TC); }

int main(int argc, char **argv) { return ds_app_main(argc, argv, &TC_PROGRAM, run_all); }
