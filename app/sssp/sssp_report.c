/* sssp's report: the graph and parameters lines, the comparison table, and
 * the JSON runs with graph, parameters and every trial's time per source
 * (over the shared parts of app/common/report.c).
 *
 * MTEPS = arcs of the CSR out of reached vertices / median time; the speedup
 * of an algorithm is the reference's median time over its own (reference:
 * near-far when it ran, else dijkstra). Each algorithm runs at its own delta,
 * which the table's last column and the JSON's algorithms give: the GPU
 * algorithms share one, so their speedups compare the same buckets; under
 * --delta auto cpu-delta's speedup compares each backend at its own rule.
 */
#include <stdio.h>
#include <string.h>

#include "sssp_report.h"

#define MS_PER_S 1e3
#define ARCS_PER_MEGA 1e6
#define DELTA_FMT "%.10g" /* every integer width up to UINT32_MAX exactly */

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

/* A check in the JSON report. */
static const char *validation_name(ds_check c) {
  return c == DS_CHECK_PASSED ? "passed" : c == DS_CHECK_FAILED ? "failed" : "not run";
}

/* How an algorithm's delta was chosen: NULL for one without buckets. */
static const char *delta_rule_of(const ds_graph_report *r, const ds_algo_stats *a) {
  if (!ds_algo_uses_delta(a->algo)) return NULL;
  if (!r->delta_auto) return "given";
  return ds_algo_is_gpu(a->algo) ? "auto-gpu" : "auto-cpu";
}

/* cpu-delta where it runs beside a GPU algorithm under --delta auto, at the
 * CPU rule's delta while the line's delta is the GPU rule's; else NULL. */
static const ds_algo_stats *cpu_beside_gpu(const ds_graph_report *r) {
  const ds_algo_stats *cpu = NULL;
  int gpu = 0;
  for (int i = 0; i < r->n_algos; i++) {
    gpu |= ds_algo_is_gpu(r->algos[i].algo);
    if (r->algos[i].algo == DS_ALGO_CPU_DELTA) cpu = &r->algos[i];
  }
  return r->delta_auto && gpu ? cpu : NULL;
}

/* An algorithm's delta for the table: "-" for one without buckets. */
static void format_delta(char *out, size_t len, const ds_algo_stats *a) {
  if (ds_algo_uses_delta(a->algo)) snprintf(out, len, DELTA_FMT, a->delta);
  else snprintf(out, len, "-");
}

void ds_report_graph_line(FILE *f, const ds_graph_report *r) {
  ds_report_load_line(f, r->g, r->load_ms, r->cache);
  const ds_algo_stats *cpu = cpu_beside_gpu(r);
  char cpu_delta[64] = "";
  if (cpu != NULL)
    snprintf(cpu_delta, sizeof cpu_delta, "; cpu-delta " DELTA_FMT ", the CPU's rule", cpu->delta);
  fprintf(f,
          "delta " DELTA_FMT " (%s%s), buckets %u (%s), %u timed trials after 1 warm-up, "
          "%d threads, %u source%s\n",
          r->delta, r->delta_auto ? "auto" : "given", cpu_delta, r->buckets,
          r->buckets_auto ? "auto" : "given", r->trials, r->threads,
          r->n_sources, r->n_sources == 1 ? "" : "s");
}

void ds_report_table(FILE *f, const ds_graph_report *r) {
  const char *ref = r->reference >= 0 ? ds_algo_name(r->algos[r->reference].algo) : "-";
  char speed_head[48];
  snprintf(speed_head, sizeof speed_head, "vs %s", ref);
  // delta comes last: scripts read the columns before it by position
  fprintf(f, "%-13s %10s %10s %21s %9s %9s %13s %14s %7s %10s\n", "algorithm", "source",
          "ms(median)", "[min, max] ms", "MTEPS", "rounds", "edges relaxed", speed_head, "check",
          "delta");
  for (uint32_t s = 0; s < r->n_sources; s++) {
    double ref_ms = r->reference >= 0 ? median_of(r, &r->algos[r->reference], s) : 0.0;
    for (int i = 0; i < r->n_algos; i++) {
      const ds_algo_stats *a = &r->algos[i];
      double med, lo, hi;
      ds_stats_of(a->times_ms + (size_t)s * r->trials, r->trials, &med, &lo, &hi);
      char range[48], speed[32], delta[32];
      snprintf(range, sizeof range, "[%.3f, %.3f]", lo, hi);
      if (r->reference >= 0 && med > 0.0) snprintf(speed, sizeof speed, "%.2fx", ref_ms / med);
      else snprintf(speed, sizeof speed, "-");
      format_delta(delta, sizeof delta, a);
      fprintf(f, "%-13s %10u %10.3f %21s %9.1f %9llu %13llu %14s %7s %10s\n",
              ds_algo_name(a->algo), r->sources[s] + (uint32_t)r->g->index_base, med, range,
              mteps(a->reached_arcs[s], med), (unsigned long long)a->rounds[s],
              (unsigned long long)a->edges_relaxed[s], speed, check_name(a->check[s]), delta);
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
      char speed[32], delta[32];
      if (r->reference >= 0 && mean_ms > 0.0)
        snprintf(speed, sizeof speed, "%.2fx", ref_mean / mean_ms);
      else snprintf(speed, sizeof speed, "-");
      format_delta(delta, sizeof delta, a);
      fprintf(f, "%-13s %10s %10.3f %21s %9.1f %9.0f %13.0f %14s %7s %10s\n",
              ds_algo_name(a->algo), "mean", mean_ms, "", mean_mteps, rounds, edges, speed,
              check_name(worst), delta);
    }
  }
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
  cJSON_AddStringToObject(jp, "buckets_rule", r->buckets_auto ? "auto" : "given");
  cJSON_AddNumberToObject(jp, "trials", r->trials);
  cJSON_AddNumberToObject(jp, "warmup", 1);
  cJSON_AddNumberToObject(jp, "threads", r->threads);
  cJSON_AddNumberToObject(jp, "seed", (double)cli->seed);
  char wr[64];
  snprintf(wr, sizeof wr, "%u:%u", cli->weight_min, cli->weight_max);
  cJSON_AddStringToObject(jp, "weights", wr);
  cJSON_AddStringToObject(jp, "weight_dist", ds_weight_dist_name(cli->weight_dist));
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
    const char *rule = delta_rule_of(r, a);
    if (rule != NULL) cJSON_AddNumberToObject(jalg, "delta", a->delta);
    else cJSON_AddNullToObject(jalg, "delta");
    cJSON_AddStringToObject(jalg, "delta_rule", rule != NULL ? rule : "none");
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
      cJSON_AddStringToObject(o, "validation", validation_name(a->check[s]));
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
    cJSON_AddStringToObject(jalg, "validation", validation_name(worst));
    if (worst == DS_CHECK_FAILED) cJSON_AddStringToObject(jalg, "failure", a->failure);
  }

  // 4. the batched searches, where they ran
  const ds_batch_stats *b = &r->batch;
  if (!b->ran) return 1;
  cJSON *jb = cJSON_AddObjectToObject(run, "batch");
  if (jb == NULL) return 0;
  double med, lo, hi;
  ds_stats_of(b->times_ms, r->trials, &med, &lo, &hi);
  cJSON_AddStringToObject(jb, "rule", b->rule);
  cJSON_AddNumberToObject(jb, "delta", b->delta);
  cJSON_AddStringToObject(jb, "delta_rule", r->delta_auto ? "auto-batch" : "given");
  cJSON_AddNumberToObject(jb, "sources", r->n_sources);
  cJSON_AddNumberToObject(jb, "slots", b->slots);
  cJSON_AddNumberToObject(jb, "launches", b->launches);
  cJSON_AddItemToObject(jb, "times_ms", cJSON_CreateDoubleArray(b->times_ms, (int)r->trials));
  cJSON_AddNumberToObject(jb, "median_ms", med);
  cJSON_AddNumberToObject(jb, "min_ms", lo);
  cJSON_AddNumberToObject(jb, "max_ms", hi);
  cJSON_AddNumberToObject(jb, "searches_per_s", med > 0.0 ? r->n_sources / (med / MS_PER_S) : 0.0);
  cJSON_AddNumberToObject(jb, "rounds", (double)b->rounds);
  cJSON_AddNumberToObject(jb, "edges_relaxed", (double)b->edges_relaxed);
  cJSON_AddNumberToObject(jb, "reached_arcs", (double)b->reached_arcs);
  cJSON_AddNumberToObject(jb, "mteps", mteps(b->reached_arcs, med));
  cJSON_AddStringToObject(jb, "validation", validation_name(b->check));
  if (b->check == DS_CHECK_FAILED) cJSON_AddStringToObject(jb, "failure", b->failure);
  return 1;
}

void ds_report_batch(FILE *f, const ds_graph_report *r) {
  const ds_batch_stats *b = &r->batch;
  if (!b->ran) return;
  double med, lo, hi;
  ds_stats_of(b->times_ms, r->trials, &med, &lo, &hi);
  fprintf(f,
          "batched (%s): %u searches, %u at once, %u launch%s: %.3f ms median [%.3f, %.3f] for all, "
          "%.1f searches/s, %.1f MTEPS, %llu rounds, %llu edges relaxed, check %s, delta " DELTA_FMT " (%s)\n",
          b->rule, r->n_sources, b->slots, b->launches, b->launches == 1 ? "" : "es", med, lo, hi,
          med > 0.0 ? r->n_sources / (med / MS_PER_S) : 0.0, mteps(b->reached_arcs, med),
          (unsigned long long)b->rounds, (unsigned long long)b->edges_relaxed, check_name(b->check), b->delta,
          r->delta_auto ? "auto, the batch's rule" : "given");
}
