/* `kcore`: the core number of every vertex of a graph (made undirected), its
 * degeneracy and how many vertices have each core number; the GPU backend,
 * the OpenMP backend and the serial oracle of ds_kcore timed and checked as
 * sssp does (app/common/kernel.c does the work).
 */
#include <stdio.h>
#include <stdlib.h>

#include "app.h"
#include "kcore.h"
#include "kernel.h"
#include "lab.h"

/* The GPU backend's variants for experiments (ds_kcore_gpu_options_variant's
 * words, e.g. "spread+agg+local32"); unset: the defaults. */
#define VARIANT_ENV "DS_KCORE_GPU_VARIANT"

/* the oracle's 12 bytes and the parallel peeling's 20 per vertex (kcore.h) */
#define KCORE_SCRATCH_PER_VERTEX 20u

static void usage(FILE *f);

static const char *algo_name(int a) { return ds_kernel_algo_name(a); }

static const ds_program KCORE_PROGRAM = {
    "kcore", DS_KERNEL_VALUE_OPTIONS, DS_KERNEL_FLAG_OPTIONS, DS_KERNEL_CONFIG_KEYS,
    DS_KERNEL_ALGOS, algo_name, usage};

static ds_status run(const ds_graph *g, int algo, int threads, ds_kernel_result *r,
                     ds_error *err) {
  uint32_t *core = (uint32_t *)r->per_vertex;
  ds_status st = algo == DS_KERNEL_ORACLE ? ds_kcore_oracle(g, core, err)
                                          : ds_kcore_cpu(g, threads, core, err);
  if (st != DS_OK) return st;
  uint32_t degeneracy = 0;
  ds_kcore_summary(core, g->n, &degeneracy, NULL);
  r->total = degeneracy;
  return DS_OK;
}

/* How many vertices have each core number: a line of "k:count" for the
 * numbers some vertex has, and the full list in the JSON. */
static int summary(FILE *f, cJSON *json, const ds_graph *g, const ds_kernel_result *r) {
  uint32_t degeneracy = 0;
  const uint32_t *core = (const uint32_t *)r->per_vertex;
  ds_kcore_summary(core, g->n, &degeneracy, NULL);
  uint64_t *sizes = (uint64_t *)malloc(((size_t)degeneracy + 1) * sizeof(uint64_t));
  if (sizes == NULL) return 0;
  ds_kcore_summary(core, g->n, &degeneracy, sizes);
  if (f != NULL) {
    fprintf(f, "degeneracy %u; vertices by core number (k:count):", degeneracy);
    for (uint32_t k = 0; k <= degeneracy; k++)
      if (sizes[k] > 0) fprintf(f, " %u:%llu", k, (unsigned long long)sizes[k]);
    fputc('\n', f);
  }
  int ok = 1;
  if (json != NULL) {
    cJSON *list = cJSON_AddArrayToObject(json, "vertices_by_core_number");
    for (uint32_t k = 0; list != NULL && k <= degeneracy; k++)
      cJSON_AddItemToArray(list, cJSON_CreateNumber((double)sizes[k]));
    ok = list != NULL;
  }
  free(sizes);
  return ok;
}

static ds_status gpu_open(const ds_cli *cli, const ds_graph *g, void **ctx, ds_error *err) {
  ds_kcore_gpu_options opt;
  ds_kcore_gpu_options_default(&opt);
  const char *variant = ds_lab_getenv(VARIANT_ENV);
  if (variant != NULL && !ds_kcore_gpu_options_variant(&opt, variant)) {
    *ctx = NULL;
    return ds_error_set(err, DS_ERR_ARG,
                        "%s='%s': not '+'-separated words among base, spread, agg, all, localN, "
                        "winN, bpsmN",
                        VARIANT_ENV, variant);
  }
  return ds_kcore_gpu_open(cli->device, g, &opt, (ds_kcore_gpu **)ctx, err);
}

static const char *const GPU_DETAILS[] = {"windows", "levels",      "rounds",
                                          "ms_per_round", "local_peels", NULL};

static ds_status gpu_run(void *ctx, const ds_graph *g, ds_kernel_result *r, double *ms,
                         ds_error *err) {
  ds_kcore_gpu_stats stats;
  ds_status st = ds_kcore_gpu_run((ds_kcore_gpu *)ctx, (uint32_t *)r->per_vertex, ms, &stats, err);
  if (st != DS_OK) return st;
  uint32_t degeneracy = 0;
  ds_kcore_summary((const uint32_t *)r->per_vertex, g->n, &degeneracy, NULL);
  r->total = degeneracy;
  r->details[0] = stats.windows;
  r->details[1] = stats.levels;
  r->details[2] = (double)stats.rounds;
  r->details[3] = stats.rounds ? *ms / (double)stats.rounds : 0.0;
  r->details[4] = (double)stats.local_peels;
  return DS_OK;
}

static void gpu_close(void *ctx) { ds_kcore_gpu_close((ds_kcore_gpu *)ctx); }

static const ds_kernel KCORE = {&KCORE_PROGRAM, "degeneracy", "core number", sizeof(uint32_t), 1,
                                KCORE_SCRATCH_PER_VERTEX, 0, NULL, NULL, run, summary,
                                gpu_open, gpu_run, gpu_close, GPU_DETAILS};

static void usage(FILE *f) {
  fprintf(f,
"usage: kcore --graph FILE [options]\n"
"\n"
"k-core decomposition: the core number of every vertex (the largest k such\n"
"that the vertex is in a subgraph whose vertices all have k neighbours or\n"
"more), the degeneracy (the largest core number) and how many vertices have\n"
"each core number. The GPU backend (bucketed peeling, the buckets kept by\n"
"multisplit), the OpenMP backend and the serial oracle, timed and compared\n"
"in one run.\n"
"\n");
  ds_kernel_usage(f, &KCORE);
}

static ds_exit_code run_all(const ds_cli *cli) { return ds_kernel_run(cli, &KCORE); }

int main(int argc, char **argv) { return ds_app_main(argc, argv, &KCORE_PROGRAM, run_all); }
