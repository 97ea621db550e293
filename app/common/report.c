/* The reports: the parts all programs share (the graph's line, the JSON
 * report's root, graph block and writer, median/min/max), and sssp's
 * comparison table and JSON runs, with graph, parameters, machine, GPU,
 * commit and every trial's time.
 *
 * MTEPS = arcs of the CSR out of reached vertices / median time; the speedup
 * of an algorithm is the reference's median time over its own (reference:
 * near-far when it ran, else dijkstra).
 */
#define _POSIX_C_SOURCE 200809L /* gethostname */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ds/out_file.h"
#include "report.h"

#ifndef DS_COMMIT
#define DS_COMMIT "unknown"
#endif
#ifndef DS_VERSION
#define DS_VERSION "unknown"
#endif

#define HOSTNAME_LEN 256
#define CPU_MODEL_LEN 256
#define MS_PER_S 1e3
#define ARCS_PER_MEGA 1e6

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

void ds_stats_of(const double *x, uint32_t n, double *median, double *min, double *max) {
  *median = *min = *max = 0.0;
  if (n == 0) return;
  double *s = (double *)malloc(n * sizeof(double));
  if (s == NULL) {
    *median = *min = *max = x[0];
    return;
  }
  memcpy(s, x, n * sizeof(double));
  qsort(s, n, sizeof(double), cmp_double);
  *min = s[0];
  *max = s[n - 1];
  *median = (n % 2) ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
  free(s);
}

static double mteps(uint64_t arcs, double ms) {
  return ms > 0.0 ? (double)arcs / (ms / MS_PER_S) / ARCS_PER_MEGA : 0.0;
}

static double median_of(const ds_graph_report *r, const ds_algo_stats *a, uint32_t s) {
  double med, lo, hi;
  ds_stats_of(a->times_ms + (size_t)s * r->trials, r->trials, &med, &lo, &hi);
  return med;
}

static const char *check_name(ds_check c) {
  return c == DS_CHECK_PASSED ? "passed" : c == DS_CHECK_FAILED ? "FAILED" : "-";
}

void ds_report_load_line(FILE *f, const ds_graph *g, double load_ms, const char *cache) {
  fprintf(f, "graph %s: %u vertices, %llu arcs, %s weights", g->name, g->n,
          (unsigned long long)g->m, g->weight_type == DS_WEIGHT_U32 ? "integer" : "float");
  if (g->weights_generated)
    fprintf(f, " (generated %u..%u, seed %llu)", g->weight_min, g->weight_max,
            (unsigned long long)g->weight_seed);
  fprintf(f, ", %s%s, loaded in %.1f ms (cache %s)\n", ds_format_name(g->format),
          g->symmetric ? ", symmetric" : "", load_ms, cache);
}

void ds_report_graph_line(FILE *f, const ds_graph_report *r) {
  ds_report_load_line(f, r->g, r->load_ms, r->cache);
  fprintf(f, "delta %g (%s), buckets %u, %u timed trials after 1 warm-up, %d threads, %u source%s\n",
          r->delta, r->delta_auto ? "auto" : "given", r->buckets, r->trials, r->threads,
          r->n_sources, r->n_sources == 1 ? "" : "s");
}

void ds_report_table(FILE *f, const ds_graph_report *r) {
  const char *ref = r->reference >= 0 ? ds_algo_name(r->algos[r->reference].algo) : "-";
  char speed_head[48];
  snprintf(speed_head, sizeof speed_head, "vs %s", ref);
  fprintf(f, "%-13s %10s %10s %21s %9s %9s %13s %14s %7s\n", "algorithm", "source", "ms(median)",
          "[min, max] ms", "MTEPS", "rounds", "edges relaxed", speed_head, "check");
  for (uint32_t s = 0; s < r->n_sources; s++) {
    double ref_ms = r->reference >= 0 ? median_of(r, &r->algos[r->reference], s) : 0.0;
    for (int i = 0; i < r->n_algos; i++) {
      const ds_algo_stats *a = &r->algos[i];
      double med, lo, hi;
      ds_stats_of(a->times_ms + (size_t)s * r->trials, r->trials, &med, &lo, &hi);
      char range[48], speed[32];
      snprintf(range, sizeof range, "[%.3f, %.3f]", lo, hi);
      if (r->reference >= 0 && med > 0.0) snprintf(speed, sizeof speed, "%.2fx", ref_ms / med);
      else snprintf(speed, sizeof speed, "-");
      fprintf(f, "%-13s %10u %10.3f %21s %9.1f %9llu %13llu %14s %7s\n", ds_algo_name(a->algo),
              r->sources[s] + (uint32_t)r->g->index_base, med, range,
              mteps(a->reached_arcs[s], med), (unsigned long long)a->rounds[s],
              (unsigned long long)a->edges_relaxed[s], speed, check_name(a->check[s]));
    }
  }
  if (r->n_sources > 1) {
    double ref_mean = 0.0;
    if (r->reference >= 0)
      for (uint32_t s = 0; s < r->n_sources; s++)
        ref_mean += median_of(r, &r->algos[r->reference], s) / r->n_sources;
    for (int i = 0; i < r->n_algos; i++) {
      const ds_algo_stats *a = &r->algos[i];
      double mean_ms = 0.0, mean_mteps = 0.0, rounds = 0.0, edges = 0.0;
      ds_check worst = DS_CHECK_NOT_RUN;
      for (uint32_t s = 0; s < r->n_sources; s++) {
        double med = median_of(r, a, s);
        mean_ms += med / r->n_sources;
        mean_mteps += mteps(a->reached_arcs[s], med) / r->n_sources;
        rounds += (double)a->rounds[s] / r->n_sources;
        edges += (double)a->edges_relaxed[s] / r->n_sources;
        if (a->check[s] > worst) worst = a->check[s];
      }
      char speed[32];
      if (r->reference >= 0 && mean_ms > 0.0)
        snprintf(speed, sizeof speed, "%.2fx", ref_mean / mean_ms);
      else snprintf(speed, sizeof speed, "-");
      fprintf(f, "%-13s %10s %10.3f %21s %9.1f %9.0f %13.0f %14s %7s\n", ds_algo_name(a->algo),
              "mean", mean_ms, "", mean_mteps, rounds, edges, speed, check_name(worst));
    }
  }
}

/* "model name" from /proc/cpuinfo, or "unknown". */
static void cpu_model(char *out, size_t len) {
  snprintf(out, len, "unknown");
  FILE *f = fopen("/proc/cpuinfo", "r");
  if (f == NULL) return;
  char line[512];
  while (fgets(line, sizeof line, f)) {
    if (strncmp(line, "model name", strlen("model name")) == 0) {
      char *colon = strchr(line, ':');
      if (colon != NULL) {
        colon++;
        while (*colon == ' ' || *colon == '\t') colon++;
        colon[strcspn(colon, "\n")] = '\0';
        snprintf(out, len, "%s", colon);
      }
      break;
    }
  }
  fclose(f);
}

cJSON *ds_report_json_root(const ds_cli *cli, const char *gpu_name, size_t gpu_mem, int threads) {
  cJSON *root = cJSON_CreateObject();
  if (root == NULL) return NULL;
  cJSON_AddStringToObject(root, "program", cli->prog->name);
  cJSON_AddStringToObject(root, "version", DS_VERSION);
  cJSON_AddStringToObject(root, "commit", DS_COMMIT);
  cJSON *cmd = cJSON_AddArrayToObject(root, "command");
  for (int i = 0; cmd != NULL && i < cli->argc; i++)
    cJSON_AddItemToArray(cmd, cJSON_CreateString(cli->argv[i]));
  char host[HOSTNAME_LEN] = "unknown", cpu[CPU_MODEL_LEN];
  if (gethostname(host, sizeof host) != 0) snprintf(host, sizeof host, "unknown");
  host[sizeof host - 1] = '\0';
  cpu_model(cpu, sizeof cpu);
  cJSON *machine = cJSON_AddObjectToObject(root, "machine");
  if (machine != NULL) {
    cJSON_AddStringToObject(machine, "hostname", host);
    cJSON_AddStringToObject(machine, "cpu", cpu);
    cJSON_AddNumberToObject(machine, "threads", threads);
  }
  if (gpu_name != NULL) {
    cJSON *gpu = cJSON_AddObjectToObject(root, "gpu");
    if (gpu != NULL) {
      cJSON_AddStringToObject(gpu, "name", gpu_name);
      cJSON_AddNumberToObject(gpu, "device", cli->device);
      cJSON_AddNumberToObject(gpu, "memory_bytes", (double)gpu_mem);
    }
  } else {
    cJSON_AddNullToObject(root, "gpu");
  }
  cJSON_AddArrayToObject(root, "runs");
  return root;
}

cJSON *ds_report_json_run(cJSON *root, const ds_graph *g, const char *path, double load_ms,
                          const char *cache) {
  cJSON *runs = cJSON_GetObjectItemCaseSensitive(root, "runs");
  cJSON *run = cJSON_CreateObject();
  if (runs == NULL || run == NULL) {
    cJSON_Delete(run);
    return NULL;
  }
  cJSON_AddItemToArray(runs, run);
  cJSON *jg = cJSON_AddObjectToObject(run, "graph");
  if (jg == NULL) return NULL;
  cJSON_AddStringToObject(jg, "name", g->name);
  cJSON_AddStringToObject(jg, "path", path);
  cJSON_AddStringToObject(jg, "format", ds_format_name(g->format));
  cJSON_AddNumberToObject(jg, "vertices", g->n);
  cJSON_AddNumberToObject(jg, "arcs", (double)g->m);
  cJSON_AddNumberToObject(jg, "index_base", g->index_base);
  cJSON_AddBoolToObject(jg, "symmetric", g->symmetric);
  cJSON_AddStringToObject(jg, "weight_type", g->weight_type == DS_WEIGHT_U32 ? "u32" : "f32");
  cJSON_AddBoolToObject(jg, "weights_generated", g->weights_generated);
  if (g->weights_generated) {
    char range[64];
    snprintf(range, sizeof range, "%u:%u", g->weight_min, g->weight_max);
    cJSON_AddStringToObject(jg, "weights", range);
    cJSON_AddNumberToObject(jg, "weight_seed", (double)g->weight_seed);
  }
  cJSON_AddNumberToObject(jg, "load_ms", load_ms);
  cJSON_AddStringToObject(jg, "cache", cache);
  return run;
}

int ds_report_json_graph(cJSON *root, const ds_graph_report *r, const ds_cli *cli) {
  const ds_graph *g = r->g;
  // 1. the graph
  cJSON *run = ds_report_json_run(root, g, r->path, r->load_ms, r->cache);
  if (run == NULL) return 0;

  // 2. the parameters
  cJSON *jp = cJSON_AddObjectToObject(run, "parameters");
  if (jp == NULL) return 0;
  cJSON_AddNumberToObject(jp, "delta", r->delta);
  cJSON_AddStringToObject(jp, "delta_rule", r->delta_auto ? "auto" : "given");
  cJSON_AddNumberToObject(jp, "buckets", r->buckets);
  cJSON_AddNumberToObject(jp, "trials", r->trials);
  cJSON_AddNumberToObject(jp, "warmup", 1);
  cJSON_AddNumberToObject(jp, "threads", r->threads);
  cJSON_AddNumberToObject(jp, "seed", (double)cli->seed);
  char wr[64];
  snprintf(wr, sizeof wr, "%u:%u", cli->weight_min, cli->weight_max);
  cJSON_AddStringToObject(jp, "weights", wr);
  cJSON_AddBoolToObject(jp, "undirected", cli->undirected);
  cJSON_AddBoolToObject(jp, "validate", cli->validate);
  cJSON_AddBoolToObject(jp, "predecessors", cli->predecessors);
  cJSON *js = cJSON_AddArrayToObject(jp, "sources");
  for (uint32_t s = 0; js != NULL && s < r->n_sources; s++)
    cJSON_AddItemToArray(js, cJSON_CreateNumber(r->sources[s] + (uint32_t)g->index_base));
  cJSON_AddStringToObject(jp, "reference",
                          r->reference >= 0 ? ds_algo_name(r->algos[r->reference].algo) : "none");

  // 3. the algorithms, per source
  cJSON *ja = cJSON_AddArrayToObject(run, "algorithms");
  if (ja == NULL) return 0;
  for (int i = 0; i < r->n_algos; i++) {
    const ds_algo_stats *a = &r->algos[i];
    cJSON *jalg = cJSON_CreateObject();
    if (jalg == NULL) return 0;
    cJSON_AddItemToArray(ja, jalg);
    cJSON_AddStringToObject(jalg, "name", ds_algo_name(a->algo));
    cJSON_AddStringToObject(jalg, "device", ds_algo_is_gpu(a->algo) ? "gpu" : "cpu");
    cJSON *per = cJSON_AddArrayToObject(jalg, "per_source");
    if (per == NULL) return 0;
    double mean_ms = 0.0, mean_mteps = 0.0, ref_mean = 0.0;
    ds_check worst = DS_CHECK_NOT_RUN;
    for (uint32_t s = 0; s < r->n_sources; s++) {
      const double *t = a->times_ms + (size_t)s * r->trials;
      double med, lo, hi;
      ds_stats_of(t, r->trials, &med, &lo, &hi);
      cJSON *o = cJSON_CreateObject();
      if (o == NULL) return 0;
      cJSON_AddItemToArray(per, o);
      cJSON_AddNumberToObject(o, "source", r->sources[s] + (uint32_t)g->index_base);
      cJSON_AddItemToObject(o, "times_ms", cJSON_CreateDoubleArray(t, (int)r->trials));
      cJSON_AddNumberToObject(o, "median_ms", med);
      cJSON_AddNumberToObject(o, "min_ms", lo);
      cJSON_AddNumberToObject(o, "max_ms", hi);
      cJSON_AddNumberToObject(o, "rounds", (double)a->rounds[s]);
      cJSON_AddNumberToObject(o, "edges_relaxed", (double)a->edges_relaxed[s]);
      cJSON_AddNumberToObject(o, "reached", a->reached[s]);
      cJSON_AddNumberToObject(o, "reached_arcs", (double)a->reached_arcs[s]);
      cJSON_AddNumberToObject(o, "mteps", mteps(a->reached_arcs[s], med));
      cJSON_AddStringToObject(o, "validation", a->check[s] == DS_CHECK_PASSED   ? "passed"
                                               : a->check[s] == DS_CHECK_FAILED ? "failed"
                                                                                : "not run");
      mean_ms += med / r->n_sources;
      mean_mteps += mteps(a->reached_arcs[s], med) / r->n_sources;
      if (r->reference >= 0) ref_mean += median_of(r, &r->algos[r->reference], s) / r->n_sources;
      if (a->check[s] > worst) worst = a->check[s];
    }
    cJSON_AddNumberToObject(jalg, "mean_median_ms", mean_ms);
    cJSON_AddNumberToObject(jalg, "mean_mteps", mean_mteps);
    if (r->reference >= 0 && mean_ms > 0.0)
      cJSON_AddNumberToObject(jalg, "speedup", ref_mean / mean_ms);
    else
      cJSON_AddNullToObject(jalg, "speedup");
    cJSON_AddStringToObject(jalg, "validation", worst == DS_CHECK_PASSED   ? "passed"
                                                : worst == DS_CHECK_FAILED ? "failed"
                                                                           : "not run");
    if (worst == DS_CHECK_FAILED) cJSON_AddStringToObject(jalg, "failure", a->failure);
  }
  return 1;
}

ds_status ds_report_json_write(const cJSON *root, const char *path, ds_error *err) {
  char *text = cJSON_Print(root);
  if (text == NULL) return ds_error_set(err, DS_ERR_NOMEM, "%s: out of memory for the report", path);
  ds_out_file out;
  ds_status st = ds_out_open(path, &out, err);
  if (st == DS_OK) {
    fputs(text, out.stream);
    fputc('\n', out.stream);
    st = ds_out_close(&out, err); /* reports a failed write of either */
  }
  free(text);
  return st;
}
