/* The reports' shared parts: the graph's line, the JSON report's root
 * (program, version, commit, command, machine, GPU), a run's graph block and
 * the writer, and median/min/max of the timings.
 *
 * MTEPS = arcs of the CSR out of reached vertices / median time; the speedup
 * of an algorithm is the reference's median time over its own (reference:
 * near-far when it ran, else dijkstra).
 */
#define _POSIX_C_SOURCE 200809L /* gethostname */
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


void ds_report_load_line(FILE *f, const ds_graph *g, double load_ms, const char *cache) {
  fprintf(f, "graph %s: %u vertices, %llu arcs, %s weights", g->name, g->n,
          (unsigned long long)g->m, g->weight_type == DS_WEIGHT_U32 ? "integer" : "float");
  if (g->weights_generated)
    fprintf(f, " (generated %u..%u, %s, seed %llu)", g->weight_min, g->weight_max,
            ds_weight_dist_name(g->weight_dist), (unsigned long long)g->weight_seed);
  fprintf(f, ", %s%s, loaded in %.1f ms (cache %s)\n", ds_format_name(g->format),
          g->symmetric ? ", symmetric" : "", load_ms, cache);
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
    cJSON_AddStringToObject(jg, "weight_dist", ds_weight_dist_name(g->weight_dist));
    cJSON_AddNumberToObject(jg, "weight_seed", (double)g->weight_seed);
  }
  cJSON_AddNumberToObject(jg, "load_ms", load_ms);
  cJSON_AddStringToObject(jg, "cache", cache);
  return run;
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
