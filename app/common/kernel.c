/* The whole-graph programs (kcore, tc) on the programs' driver (driver.h):
 * for each graph, load it (through the binary cache), symmetrise a directed
 * one, check the host memory, measure every chosen algorithm (the driver's
 * warm-up and --trials timed runs, validated against the oracle), write
 * --output (not after a failed validation) and report.
 *
 * Algorithms: the list given, or gpu where a device is present, else cpu. gpu
 * is refused with the reason (no GPU build or device, or the graph does not
 * fit the device), as sssp refuses a GPU algorithm that cannot run; the GPU
 * time is the backend's own (CUDA events), the graph's upload excluded.
 * Per-vertex arrays are poisoned before every run, so an algorithm that
 * leaves vertices unwritten fails validation.
 */
#define _POSIX_C_SOURCE 200809L
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "driver.h"
#include "ds/out_file.h"
#include "kernel.h"
#include "report.h"


const char *const DS_KERNEL_VALUE_OPTIONS[] = {DS_KERNEL_VALUE_OPTION_NAMES, NULL};
const char *const DS_KERNEL_FLAG_OPTIONS[] = {"--validate", "--quiet", "--help", "--version",
                                              "--no-cache", "-h",      NULL};

static const char *const ALGO_NAMES[DS_KERNEL_ALGOS] = {"cpu", "oracle", "gpu"};

const char *ds_kernel_algo_name(int algo) {
  return algo >= 0 && algo < DS_KERNEL_ALGOS ? ALGO_NAMES[algo] : "?";
}

void ds_kernel_usage(FILE *f, const ds_kernel *k) {
  fprintf(f,
"input\n"
"  --graph FILE        graph: Matrix Market .mtx[.gz], DIMACS .gr, edge list\n"
"                      .el/.wel (format from the content); repeat for several.\n"
"                      A directed graph is made undirected (a note says so):\n"
"                      every arc is an edge; self loops and duplicates dropped\n"
"                      (one listing both directions of every edge is taken\n"
"                      as it is)\n"
"  --cache-dir DIR     where the binary cache lives, made when missing\n"
"                      (default: next to FILE)\n"
"  --no-cache          neither read nor write the binary cache\n"
"algorithm\n"
"  --algo LIST|all     comma-separated: gpu (the GPU backend), cpu (OpenMP),\n"
"                      oracle (serial reference); all = each of them this\n"
"                      machine has. Default: gpu where a GPU is present, else\n"
"                      cpu. gpu without a GPU, or on a graph whose working\n"
"                      set does not fit the GPU, is refused with exit code 4\n"
"  --threads T         CPU threads (default: OpenMP's)\n"
"  --device ID         CUDA device (default 0); must exist when given\n"
"measure and check\n"
"  --trials N          timed trials after one untimed warm-up (default %u);\n"
"                      the median is reported, with min and max\n"
"  --validate          check every result against the oracle's\n"
"output\n"
"  --output FILE       'vertex %s' per line (the first algorithm's, in the\n"
"                      file's numbering); one graph only\n",
          DS_CLI_DEFAULT_TRIALS, k->value_name);
  ds_cli_usage_tail(f, "--algo gpu without a GPU, or a graph that does not fit it");
}

/* Validation state and measurements of one algorithm on one graph. */
typedef struct {
  int algo;
  double *times_ms; /* trials */
  ds_check check;
  char failure[DS_ERROR_MSG_LEN];
  uint64_t total; /* of the last trial */
  double details[DS_KERNEL_DETAILS]; /* of the last trial (GPU) */
} algo_stats;

/* The program and the algorithms of the whole run. */
typedef struct {
  const ds_kernel *k;
  int algos[DS_KERNEL_ALGOS];
  int n_algos;
} plan;

static const char *check_name(ds_check c) {
  return c == DS_CHECK_PASSED ? "passed" : c == DS_CHECK_FAILED ? "FAILED" : "-";
}

static uint64_t value_at(const ds_kernel *k, const void *values, uint32_t v) {
  return k->value_bytes == sizeof(uint32_t) ? ((const uint32_t *)values)[v]
                                            : ((const uint64_t *)values)[v];
}

/* The algorithm list; gpu refused without a device. */
static ds_exit_code plan_algorithms(void *prog, const ds_driver_run *run) {
  plan *p = (plan *)prog;
  const ds_cli *cli = run->cli;
  const ds_app_device_info *dev = &run->dev;
  const char *name = cli->prog->name;
  const int gpu = dev->gpus > 0 && p->k->gpu_open != NULL;
  int wanted[DS_KERNEL_ALGOS + DS_CLI_MAX_ALGOS];
  int n = 0;
  if (cli->algo_all) {
    if (gpu) wanted[n++] = DS_KERNEL_GPU;
    wanted[n++] = DS_KERNEL_CPU;
    wanted[n++] = DS_KERNEL_ORACLE;
  }
  for (int i = 0; i < cli->n_algos; i++) wanted[n++] = cli->algos[i];
  if (n == 0) wanted[n++] = gpu ? DS_KERNEL_GPU : DS_KERNEL_CPU;
  for (int i = 0; i < n; i++) {
    if (wanted[i] == DS_KERNEL_GPU && !gpu) {
      if (dev->gpus == 0)
        fprintf(stderr, "%s: gpu needs a GPU: %s\n", name, dev->reason);
      else
        fprintf(stderr, "%s: gpu: %s has no GPU backend\n", name, name);
      return DS_EXIT_DEVICE;
    }
    int seen = 0;
    for (int j = 0; j < p->n_algos; j++) seen |= p->algos[j] == wanted[i];
    if (!seen) p->algos[p->n_algos++] = wanted[i];
  }
  return DS_EXIT_OK;
}

/* A directed graph made undirected: its arcs as an edge list, built again
 * with both directions (ds_csr_build drops the duplicates that makes). A file
 * that lists both directions of every edge (a general Matrix Market file of
 * an undirected graph) is undirected already: one pass over the arcs finds
 * that, where the rebuild would sort them all again into a second CSR. */
static ds_exit_code symmetrise(const ds_cli *cli, const char *path, ds_graph *g) {
  if (ds_csr_mark_symmetric(g)) return DS_EXIT_OK;
  const char *name = cli->prog->name;
  ds_error err = {{0}};
  uint32_t *src = (uint32_t *)malloc((g->m ? g->m : 1) * sizeof(uint32_t));
  if (src == NULL) {
    fprintf(stderr, "%s: %s: out of memory making the graph undirected\n", name, path);
    return DS_EXIT_INTERNAL;
  }
  for (uint32_t v = 0; v < g->n; v++)
    for (uint64_t e = g->row_offsets[v]; e < g->row_offsets[v + 1]; e++) src[e] = v;
  ds_edge_list edges = {g->n, g->m, src, g->col, g->weight_type, g->weights};
  ds_load_options opt;
  ds_load_options_default(&opt);
  ds_graph sym;
  memset(&sym, 0, sizeof sym);
  ds_status st = ds_csr_build(&edges, 1, &opt, &sym, &err);
  free(src);
  if (st != DS_OK) {
    fprintf(stderr, "%s: %s: %s\n", name, path, err.msg);
    return ds_app_exit_of(st);
  }
  // the description stays the file's
  sym.index_base = g->index_base;
  sym.weights_generated = g->weights_generated;
  sym.weight_min = g->weight_min;
  sym.weight_max = g->weight_max;
  sym.weight_dist = g->weight_dist;
  sym.weight_seed = g->weight_seed;
  sym.format = g->format;
  sym.input_entries = g->input_entries;
  memcpy(sym.name, g->name, sizeof sym.name);
  sym.symmetric = 1;
  if (!cli->quiet)
    fprintf(stderr,
            "%s: note: %s is directed: every arc is taken as an undirected edge (%llu arcs "
            "become %llu)\n",
            name, path, (unsigned long long)g->m, (unsigned long long)sym.m);
  ds_graph_free(g);
  *g = sym;
  return DS_EXIT_OK;
}

/* The per-vertex values, the file's numbering: "vertex value" lines. */
static ds_exit_code write_output(const ds_cli *cli, const ds_kernel *k, const ds_graph *g,
                                 const void *values) {
  ds_out_file out;
  ds_error err = {{0}};
  if (ds_out_open(cli->output_path, &out, &err) != DS_OK) {
    fprintf(stderr, "%s: the output file: %s\n", cli->prog->name, err.msg);
    return DS_EXIT_INPUT;
  }
  const uint32_t base = (uint32_t)g->index_base;
  for (uint32_t v = 0; v < g->n; v++)
    fprintf(out.stream, "%u %llu\n", v + base, (unsigned long long)value_at(k, values, v));
  if (ds_out_close(&out, &err) != DS_OK) {
    fprintf(stderr, "%s: the output file: %s\n", cli->prog->name, err.msg);
    return DS_EXIT_INPUT;
  }
  return DS_EXIT_OK;
}

/* Compares a result with the oracle's; records the first failure. 0: it failed. */
static int check_result(const ds_kernel *k, const ds_graph *g, const ds_kernel_result *res,
                         const ds_kernel_result *ref, algo_stats *a) {
  char why[DS_ERROR_MSG_LEN] = "";
  if (res->total != ref->total) {
    snprintf(why, sizeof why, "%s %llu, the oracle's %llu", k->total_name,
             (unsigned long long)res->total, (unsigned long long)ref->total);
  } else if (res->per_vertex != NULL && ref->per_vertex != NULL) {
    for (uint32_t v = 0; v < g->n; v++) {
      uint64_t x = value_at(k, res->per_vertex, v), y = value_at(k, ref->per_vertex, v);
      if (x != y) {
        snprintf(why, sizeof why, "vertex %u: %s %llu, the oracle's %llu",
                 v + (uint32_t)g->index_base, k->value_name, (unsigned long long)x,
                 (unsigned long long)y);
        break;
      }
    }
  }
  if (ds_driver_check_note(&a->check, why[0] == '\0' ? NULL : why, a->failure, sizeof a->failure))
    fprintf(stderr, "%s: validation failed: %s on %s: %s\n", k->prog->name,
            ds_kernel_algo_name(a->algo), g->name, why);
  return why[0] == '\0';
}

/* The test hook's corruption. */
static void corrupt_for_test(const ds_kernel *k, const ds_graph *g, ds_kernel_result *r) {
  r->total++;
  if (r->per_vertex == NULL || g->n == 0) return;
  if (k->value_bytes == sizeof(uint32_t)) ((uint32_t *)r->per_vertex)[g->n - 1]++;
  else ((uint64_t *)r->per_vertex)[g->n - 1]++;
}

static void report_text(const plan *p, const ds_driver_run *run, const ds_graph *g, double load_ms,
                        const char *cache, const algo_stats *stats,
                        const ds_kernel_result *first) {
  const ds_kernel *k = p->k;
  ds_report_load_line(stdout, g, load_ms, cache);
  printf("%u timed trials after 1 warm-up, %d threads\n", run->cli->trials, run->threads);
  printf("%-10s %10s %21s %20s %7s\n", "algorithm", "ms(median)", "[min, max] ms", k->total_name,
         "check");
  for (int i = 0; i < p->n_algos; i++) {
    const algo_stats *a = &stats[i];
    double med, lo, hi;
    ds_stats_of(a->times_ms, run->cli->trials, &med, &lo, &hi);
    char range[48];
    snprintf(range, sizeof range, "[%.3f, %.3f]", lo, hi);
    printf("%-10s %10.3f %21s %20llu %7s\n", ds_kernel_algo_name(a->algo), med, range,
           (unsigned long long)a->total, check_name(a->check));
  }
  for (int i = 0; i < p->n_algos && k->gpu_details != NULL; i++) {
    if (stats[i].algo != DS_KERNEL_GPU) continue;
    printf("gpu (last trial):");
    for (int d = 0; d < DS_KERNEL_DETAILS && k->gpu_details[d] != NULL; d++)
      printf(" %s %.6g", k->gpu_details[d], stats[i].details[d]);
    printf("\n");
  }
  if (k->summary != NULL) k->summary(stdout, NULL, g, first);
}

/* The run's JSON: graph, parameters, algorithms, result. 0 when out of memory. */
static int report_json(const plan *p, const ds_driver_run *dr, const ds_graph *g,
                       const char *path, double load_ms, const char *cache,
                       const algo_stats *stats, const ds_kernel_result *first) {
  const ds_cli *cli = dr->cli;
  const ds_kernel *k = p->k;
  const char *gpu_name = dr->dev.have_gpu ? dr->dev.name : "gpu";
  cJSON *run = ds_report_json_run(dr->json, g, path, load_ms, cache);
  if (run == NULL) return 0;
  cJSON *jp = cJSON_AddObjectToObject(run, "parameters");
  if (jp == NULL) return 0;
  cJSON_AddNumberToObject(jp, "trials", cli->trials);
  cJSON_AddNumberToObject(jp, "warmup", 1);
  cJSON_AddNumberToObject(jp, "threads", dr->threads);
  cJSON_AddBoolToObject(jp, "validate", cli->validate);
  cJSON_AddStringToObject(jp, "reference", "oracle");
  cJSON *ja = cJSON_AddArrayToObject(run, "algorithms");
  if (ja == NULL) return 0;
  for (int i = 0; i < p->n_algos; i++) {
    const algo_stats *a = &stats[i];
    cJSON *o = cJSON_CreateObject();
    if (o == NULL) return 0;
    cJSON_AddItemToArray(ja, o);
    double med, lo, hi;
    ds_stats_of(a->times_ms, cli->trials, &med, &lo, &hi);
    cJSON_AddStringToObject(o, "name", ds_kernel_algo_name(a->algo));
    cJSON_AddStringToObject(o, "device", a->algo == DS_KERNEL_GPU ? gpu_name : "cpu");
    cJSON_AddItemToObject(o, "times_ms", cJSON_CreateDoubleArray(a->times_ms, (int)cli->trials));
    cJSON_AddNumberToObject(o, "median_ms", med);
    cJSON_AddNumberToObject(o, "min_ms", lo);
    cJSON_AddNumberToObject(o, "max_ms", hi);
    cJSON_AddNumberToObject(o, k->total_name, (double)a->total);
    cJSON_AddStringToObject(o, "validation", a->check == DS_CHECK_PASSED   ? "passed"
                                             : a->check == DS_CHECK_FAILED ? "failed"
                                                                           : "not run");
    if (a->check == DS_CHECK_FAILED) cJSON_AddStringToObject(o, "failure", a->failure);
    if (a->algo == DS_KERNEL_GPU && k->gpu_details != NULL) {
      cJSON *jd = cJSON_AddObjectToObject(o, "details");
      if (jd == NULL) return 0;
      for (int d = 0; d < DS_KERNEL_DETAILS && k->gpu_details[d] != NULL; d++)
        cJSON_AddNumberToObject(jd, k->gpu_details[d], a->details[d]);
    }
  }
  cJSON *jr = cJSON_AddObjectToObject(run, "result");
  if (jr == NULL) return 0;
  cJSON_AddNumberToObject(jr, k->total_name, (double)first->total);
  return k->summary == NULL || k->summary(NULL, jr, g, first);
}

/* A graph's measurements: what the driver's callbacks share. */
typedef struct {
  const plan *p;
  const ds_graph *g;
  int threads;
  algo_stats *stats;
  ds_kernel_result res, first, ref;
  void *gpu;
  int per_vertex;
  const char *path;
} measure;

static ds_exit_code m_reference(void *ctx, uint32_t s) {
  (void)s;
  measure *m = (measure *)ctx;
  const ds_kernel *k = m->p->k;
  ds_error err = {{0}};
  ds_status st = k->run(m->g, DS_KERNEL_ORACLE, m->threads, &m->ref, &err);
  if (st == DS_OK) return DS_EXIT_OK;
  fprintf(stderr, "%s: the oracle on %s: %s\n", k->prog->name, m->path, err.msg);
  return ds_app_exit_of(st);
}

static ds_exit_code m_run(void *ctx, int i, uint32_t s, double *ms) {
  (void)s;
  measure *m = (measure *)ctx;
  const ds_kernel *k = m->p->k;
  const int algo = m->stats[i].algo;
  ds_kernel_result *res = &m->res;
  if (res->per_vertex != NULL)
    memset(res->per_vertex, DS_DRIVER_POISON_BYTE, (size_t)m->g->n * k->value_bytes);
  res->total = 0;
  memset(res->details, 0, sizeof res->details);
  ds_error err = {{0}};
  double t0 = omp_get_wtime();
  ds_status st = algo == DS_KERNEL_GPU ? k->gpu_run(m->gpu, m->g, res, ms, &err)
                                       : k->run(m->g, algo, m->threads, res, &err);
  if (algo != DS_KERNEL_GPU) *ms = (omp_get_wtime() - t0) * 1e3;
  if (st == DS_OK) return DS_EXIT_OK;
  fprintf(stderr, "%s: %s on %s: %s\n", k->prog->name, ds_kernel_algo_name(algo), m->path,
          err.msg);
  return ds_app_exit_of(st);
}

static void m_corrupt(void *ctx, int i, uint32_t s) {
  (void)i;
  (void)s;
  measure *m = (measure *)ctx;
  corrupt_for_test(m->p->k, m->g, &m->res);
}

static int m_check(void *ctx, int i, uint32_t s) {
  (void)s;
  measure *m = (measure *)ctx;
  return check_result(m->p->k, m->g, &m->res, &m->ref, &m->stats[i]);
}

static void m_done(void *ctx, int i, uint32_t s) {
  (void)s;
  measure *m = (measure *)ctx;
  algo_stats *a = &m->stats[i];
  a->total = m->res.total;
  memcpy(a->details, m->res.details, sizeof a->details);
  if (i == 0) {
    m->first.total = m->res.total;
    if (m->per_vertex)
      memcpy(m->first.per_vertex, m->res.per_vertex, (size_t)m->g->n * m->p->k->value_bytes);
  }
}

/* One graph: load, run, validate, report. */
static ds_exit_code run_graph(void *prog, const ds_driver_run *run, const char *path) {
  const plan *p = (const plan *)prog;
  const ds_cli *cli = run->cli;
  const ds_kernel *k = p->k;
  const char *name = cli->prog->name;
  ds_exit_code rc = DS_EXIT_OK;
  ds_graph g;
  memset(&g, 0, sizeof g);
  algo_stats stats[DS_KERNEL_ALGOS];
  memset(stats, 0, sizeof stats);
  measure m;
  memset(&m, 0, sizeof m);
  ds_error err = {{0}};
  double load_ms = 0.0;
  const char *cache = "off";
  int loaded = 0;

  // 1. load; undirected
  if ((rc = ds_driver_load(cli, path, 0, &g, &load_ms, &cache)) != DS_EXIT_OK) goto cleanup;
  loaded = 1;
  if (!g.symmetric && (rc = symmetrise(cli, path, &g)) != DS_EXIT_OK) goto cleanup;

  // 2. memory: results (the first algorithm's, the current one's, the
  // oracle's), the largest working set (with the cpu algorithm's per thread)
  // and the timings
  const int per_vertex = k->per_vertex_always || cli->output_path != NULL;
  const uint64_t n = g.n;
  const uint64_t graph_bytes = (n + 1) * sizeof(uint64_t) + g.m * 2 * sizeof(uint32_t);
  const uint64_t results = per_vertex ? (uint64_t)(2 + (cli->validate != 0)) * n * k->value_bytes : 0;
  const uint64_t scratch = n * k->scratch_per_vertex + g.m * k->scratch_per_arc;
  int cpu = 0;
  for (int i = 0; i < p->n_algos; i++) cpu |= p->algos[i] == DS_KERNEL_CPU;
  const uint64_t per_thread =
      cpu && k->scratch_per_thread != NULL ? k->scratch_per_thread(&g) * (uint64_t)run->threads : 0;
  const uint64_t timings = (uint64_t)p->n_algos * cli->trials * sizeof(double);
  char parts[256], threads_part[128] = "";
  if (per_thread > 0)
    snprintf(threads_part, sizeof threads_part, ", %s %.1f (%d threads)", k->thread_scratch_name,
             (double)per_thread / DS_DRIVER_MIB, run->threads);
  snprintf(parts, sizeof parts, "results %.1f, working memory %.1f%s, timings %.1f MiB",
           (double)results / DS_DRIVER_MIB, (double)scratch / DS_DRIVER_MIB, threads_part,
           (double)timings / DS_DRIVER_MIB);
  rc = ds_app_check_host_memory(cli, path, graph_bytes, results + scratch + per_thread + timings,
                                parts, 0, NULL);
  if (rc != DS_EXIT_OK) goto cleanup;
  for (int i = 0; i < p->n_algos; i++) {
    stats[i].algo = p->algos[i];
    if ((stats[i].times_ms = (double *)calloc(cli->trials, sizeof(double))) == NULL) goto nomem;
  }
  if (per_vertex && ((m.res.per_vertex = malloc(n * k->value_bytes)) == NULL ||
                     (m.first.per_vertex = malloc(n * k->value_bytes)) == NULL))
    goto nomem;
  if (cli->validate && per_vertex && (m.ref.per_vertex = malloc(n * k->value_bytes)) == NULL)
    goto nomem;

  // 3. the graph on the device, for gpu (a graph that does not fit is refused here)
  for (int i = 0; i < p->n_algos; i++) {
    if (p->algos[i] != DS_KERNEL_GPU) continue;
    ds_status st = k->gpu_open(cli, &g, &m.gpu, &err);
    if (st != DS_OK) {
      fprintf(stderr, "%s: gpu on %s: %s\n", name, path, err.msg);
      rc = ds_app_exit_of(st);
      goto cleanup;
    }
  }

  // 4. the oracle's result, untimed, for --validate, then every algorithm:
  // a warm-up, then the timed trials
  m.p = p;
  m.g = &g;
  m.threads = run->threads;
  m.stats = stats;
  m.per_vertex = per_vertex;
  m.path = path;
  double *times[DS_KERNEL_ALGOS];
  for (int i = 0; i < p->n_algos; i++) times[i] = stats[i].times_ms;
  const ds_driver_trials trials = {.n_algos = p->n_algos, .n_sources = 1,
                                   .trials = cli->trials, .validate = cli->validate,
                                   .times_ms = times, .ctx = &m, .reference = m_reference,
                                   .run = m_run, .corrupt = m_corrupt, .check = m_check,
                                   .done = m_done};
  rc = ds_driver_measure(&trials);
  if (rc != DS_EXIT_OK && rc != DS_EXIT_VALIDATION) goto cleanup;

  // 5. --output (unless a result was found wrong), the table, the JSON
  if (cli->output_path != NULL && ds_app_output_wanted(cli, rc)) {
    ds_exit_code orc = write_output(cli, k, &g, m.first.per_vertex);
    if (orc != DS_EXIT_OK) {
      rc = orc;
      goto cleanup;
    }
  }
  if (!cli->quiet) {
    report_text(p, run, &g, load_ms, cache, stats, &m.first);
    fflush(stdout);
  }
  if (run->json != NULL && !report_json(p, run, &g, path, load_ms, cache, stats, &m.first))
    goto nomem;
  goto cleanup;

nomem:
  fprintf(stderr, "%s: out of memory for %s\n", name, path);
  rc = DS_EXIT_INTERNAL;
cleanup:
  for (int i = 0; i < DS_KERNEL_ALGOS; i++) free(stats[i].times_ms);
  free(m.res.per_vertex);
  free(m.first.per_vertex);
  free(m.ref.per_vertex);
  if (m.gpu != NULL) k->gpu_close(m.gpu);
  if (loaded) ds_graph_free(&g);
  return rc;
}

ds_exit_code ds_kernel_run(const ds_cli *cli, const ds_kernel *k) {
  plan p;
  memset(&p, 0, sizeof p);
  p.k = k;
  const ds_driver_program prog = {plan_algorithms, run_graph};
  return ds_driver_main(cli, &prog, &p);
}
