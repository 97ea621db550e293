/* `sssp` on one GPU or none, on the programs' driver (driver.h): for each
 * graph, load it (through the binary cache), pick the sources and delta,
 * measure every chosen algorithm (the driver's warm-up per algorithm and
 * graph, then --trials timed runs per source, validated against Dijkstra),
 * and hand the measurements to sssp_report.c.
 *
 * Algorithms: the list given, or by default multisplit,near-far with a GPU and
 * cpu-delta,dijkstra without one. Where GPU algorithms are asked for and no
 * GPU is usable, a note says so once and cpu-delta runs in their place.
 * Delta: --delta D serves every algorithm; under auto each backend has its
 * rule, the GPU algorithms ds_delta_auto's width, cpu-delta (also in a GPU
 * algorithm's place) ds_delta_auto_cpu's (ds_delta_for_algos).
 * Result arrays are poisoned before every run, so an algorithm that leaves
 * vertices unwritten fails validation.
 */
#define _POSIX_C_SOURCE 200809L
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ds/rng.h"
#include "app.h"
#include "driver.h"
#include "gpu_options.h"
#include "lab.h"
#include "sssp_report.h"
#include "run.h"
#include "run_memory.h"
#include "run_sources.h"
#include "run_targets.h"
#include "sssp.h"

_Static_assert(DS_CLI_MIN_BUCKETS == DS_SSSP_MIN_BUCKETS && DS_CLI_MAX_BUCKETS == DS_SSSP_MAX_BUCKETS,
               "--buckets takes the SSSP library's range");

/* Measurement hooks: cpu-delta's fusion limits, heavy-vertex threshold and
 * prefetch distance (ds_sssp_params), so that one build can be swept on another machine; unset
 * or 0 keeps the defaults, which are what users get. */
#define FUSE_LIMIT_ENV "DS_CPU_FUSE_LIMIT"
#define LONE_LIMIT_ENV "DS_CPU_LONE_LIMIT"
#define HEAVY_ARCS_ENV "DS_CPU_HEAVY_ARCS"
#define PREFETCH_ENV "DS_CPU_PREFETCH" /* arcs ahead; negative: none */

/* The algorithms of the whole run. */
typedef struct {
  ds_algo algos[DS_ALGO_COUNT];
  int n_algos;
  int uses_gpu;
  ds_batch_mode batch; /* --batch */
} run_plan;

#define exit_of ds_app_exit_of

/* The CPU knobs from the lab's environment (0 where unset: the defaults), checked as strictly as
 * the lab's other variables. */
static ds_status cpu_knobs(ds_sssp_params *p, ds_error *err) {
  long long fuse = 0, lone = 0, heavy = 0, prefetch = 0;
  ds_status st = ds_lab_number(FUSE_LIMIT_ENV, 0, "a whole number", &fuse, err);
  if (st == DS_OK) st = ds_lab_number(LONE_LIMIT_ENV, 0, "a whole number", &lone, err);
  if (st == DS_OK) st = ds_lab_number(HEAVY_ARCS_ENV, 0, "a whole number", &heavy, err);
  if (st == DS_OK) st = ds_lab_number(PREFETCH_ENV, 1, "an integer", &prefetch, err);
  if (st != DS_OK) return st;
  if (prefetch < INT_MIN || prefetch > INT_MAX)
    return ds_error_set(err, DS_ERR_ARG, "%s=%lld is out of range", PREFETCH_ENV, prefetch);
  p->cpu_fuse_limit = (size_t)fuse;
  p->cpu_lone_limit = (size_t)lone;
  p->cpu_heavy_arcs = (size_t)heavy;
  p->cpu_prefetch = (int)prefetch;
  return DS_OK;
}

/* 1. The algorithm list, with GPU algorithms replaced where there is no GPU. */
static ds_exit_code plan_algorithms(void *prog, const ds_driver_run *run) {
  run_plan *p = (run_plan *)prog;
  const ds_cli *cli = run->cli;
  const int gpus = run->dev.gpus;
  const char *reason = run->dev.reason;
  ds_algo wanted[2 * DS_ALGO_COUNT]; /* "all" and the names given */
  int n = 0, defaulted = 0;
  if (cli->algo_all) {
    for (int a = 0; a < DS_ALGO_COUNT; a++)
      if (gpus > 0 || !ds_algo_is_gpu((ds_algo)a)) wanted[n++] = (ds_algo)a;
  }
  for (int i = 0; i < cli->n_algos; i++) wanted[n++] = cli->algos[i];
  if (n == 0) {
    defaulted = 1;
    if (gpus > 0) {
      wanted[n++] = DS_ALGO_MULTISPLIT;
      wanted[n++] = DS_ALGO_NEAR_FAR;
    } else {
      wanted[n++] = DS_ALGO_CPU_DELTA;
      wanted[n++] = DS_ALGO_DIJKSTRA;
    }
  }
  char replaced[128] = "";
  p->n_algos = 0;
  for (int i = 0; i < n; i++) {
    ds_algo a = wanted[i];
    if (ds_algo_is_gpu(a) && gpus == 0) {
      if (replaced[0]) strcat(replaced, ", ");
      strcat(replaced, ds_algo_name(a));
      a = DS_ALGO_CPU_DELTA;
    }
    int seen = 0;
    for (int j = 0; j < p->n_algos; j++) seen |= p->algos[j] == a;
    if (!seen) p->algos[p->n_algos++] = a;
    if (ds_algo_is_gpu(a)) p->uses_gpu = 1;
  }
  if (!cli->quiet && gpus == 0 && (replaced[0] || defaulted))
    fprintf(stderr, "sssp: no GPU (%s): running on the CPU backend%s%s%s\n", reason,
            replaced[0] ? " (cpu-delta in place of " : "", replaced,
            replaced[0] ? ")" : "");
  if (!cli->quiet && p->batch == DS_BATCH_ON && !p->uses_gpu)
    fprintf(stderr, "sssp: note: --batch on batches GPU searches: none run here, the sources run one "
                    "after another\n");
  return DS_EXIT_OK;
}

/* Refuses a run whose memory (beyond the loaded graph) exceeds what the
 * machine has available, before anything of it is allocated. */
static ds_exit_code check_memory(const ds_cli *cli, const run_plan *p, const ds_graph *g,
                                 const char *path, uint32_t n_sources, ds_dist_width width) {
  ds_run_memory m;
  ds_run_memory_estimate(g, cli, p->algos, p->n_algos, n_sources, width, &m);
  char parts[160];
  snprintf(parts, sizeof parts, "results %.1f, working memory %.1f, per-source statistics %.1f",
           (double)m.results / DS_DRIVER_MIB, (double)m.scratch / DS_DRIVER_MIB,
           (double)m.per_source / DS_DRIVER_MIB);
  return ds_app_check_host_memory(cli, path, m.graph, m.results + m.scratch + m.per_source, parts,
                                  m.per_source, ": fewer --sources or --trials");
}

/* One run of one algorithm. */
static ds_status run_one(ds_gpu_ctx *ctx, const ds_graph *g, ds_algo algo, uint32_t source,
                         const ds_sssp_params *params, ds_sssp_result *res, ds_error *err) {
  size_t n = g->n;
  memset(res->dist, DS_DRIVER_POISON_BYTE, n * ds_dist_size(g, params->dist_width));
  if (res->pred != NULL) memset(res->pred, DS_DRIVER_POISON_BYTE, n * sizeof(uint32_t));
  res->time_ms = 0.0;
  res->rounds = res->edges_relaxed = res->reached_arcs = 0;
  res->reached = 0;
  res->stopped_early = 0;
  if (ds_algo_is_gpu(algo)) return ds_gpu_sssp_env(ctx, algo, source, params, res, err);
  return ds_sssp_cpu(g, algo, source, params, res, err);
}

/* The test hook's corruption: the last reached vertex other than the source
 * gets a larger distance. */
static void corrupt_for_test(const ds_graph *g, uint32_t source, void *dist, ds_dist_width w) {
  for (uint32_t v = g->n; v-- > 0;) {
    if (v == source || !ds_dist_is_finite(g, dist, w, v)) continue;
    if (g->weight_type == DS_WEIGHT_F32) ((float *)dist)[v] = 2.0f * ((float *)dist)[v] + 1.0f;
    else if (w == DS_DIST_WIDE) ((uint64_t *)dist)[v]++;
    else if (((uint32_t *)dist)[v] < DS_DIST_MAX_U32) ((uint32_t *)dist)[v]++;
    else continue;
    return;
  }
}

/* Checks one result; records the first failure of (algorithm, source). A
 * search that stopped at targets is checked at them: their distances against
 * Dijkstra's full ones, their paths arc by arc (the other distances need not
 * be final). */
static int check_result(const ds_graph *g, uint32_t source, const ds_sssp_result *res,
                        ds_dist_width w, const void *ref, const ds_sssp_params *params,
                        ds_algo_stats *a, uint32_t s) {
  ds_error err = {{0}};
  ds_status st = DS_OK;
  if (params->n_targets > 0) {
    st = ds_sssp_check_targets(g, source, params->targets, params->n_targets, res->dist, w,
                               res->pred, ref, NULL, &err);
  } else {
    st = ds_sssp_validate(g, source, res->dist, w, res->pred, NULL, &err);
    if (st == DS_OK && ref != NULL) st = ds_sssp_compare(g, ref, res->dist, w, NULL, &err);
  }
  if (ds_driver_check_note(&a->check[s], st == DS_OK ? NULL : err.msg, a->failure,
                           sizeof a->failure))
    fprintf(stderr, "sssp: validation failed: %s from source %u on %s: %s\n",
            ds_algo_name(a->algo), source + (uint32_t)g->index_base, g->name, err.msg);
  return st == DS_OK;
}

void ds_run_report_params(const ds_cli *cli, const ds_graph *g, const char *path,
                          const ds_algo *algos, int n_algos, int threads, ds_graph_report *r) {
  r->n_sources = cli->sources;
  uint32_t candidates = ds_run_source_candidates(g);
  if (r->n_sources > 1 && r->n_sources > candidates) {
    r->n_sources = candidates > 0 ? candidates : 1;
    if (!cli->quiet)
      fprintf(stderr, "sssp: note: %s has %u vertices with out-arcs: %u sources, not %u\n", path,
              candidates, r->n_sources, cli->sources);
  }
  r->trials = cli->trials;
  r->threads = threads;
  double deltas[DS_ALGO_COUNT];
  r->delta_auto = cli->delta_auto;
  r->delta = ds_delta_for_algos(g, cli->delta_auto ? 0.0 : cli->delta, algos, n_algos, deltas);
  r->n_algos = n_algos;
  for (int i = 0; i < n_algos; i++) {
    r->algos[i].algo = algos[i];
    r->algos[i].delta = deltas[i];
  }
  r->buckets_auto = cli->buckets_auto;
  r->buckets = cli->buckets_auto ? ds_buckets_auto(g, r->delta) : cli->buckets;
}

int ds_run_report_alloc(ds_graph_report *r) {
  r->reference = -1;
  for (int i = 0; i < r->n_algos; i++) {
    ds_algo_stats *a = &r->algos[i];
    a->times_ms = (double *)calloc((size_t)r->n_sources * r->trials, sizeof(double));
    a->rounds = (uint64_t *)calloc(r->n_sources, sizeof(uint64_t));
    a->edges_relaxed = (uint64_t *)calloc(r->n_sources, sizeof(uint64_t));
    a->reached_arcs = (uint64_t *)calloc(r->n_sources, sizeof(uint64_t));
    a->reached = (uint32_t *)calloc(r->n_sources, sizeof(uint32_t));
    a->check = (ds_check *)calloc(r->n_sources, sizeof(ds_check));
    if (!a->times_ms || !a->rounds || !a->edges_relaxed || !a->reached_arcs || !a->reached ||
        !a->check)
      return 0;
    if (a->algo == DS_ALGO_NEAR_FAR) r->reference = i;
  }
  for (int i = 0; i < r->n_algos && r->reference < 0; i++)
    if (r->algos[i].algo == DS_ALGO_DIJKSTRA) r->reference = i;
  return 1;
}

void ds_run_report_free(ds_graph_report *r) {
  for (int i = 0; i < DS_ALGO_COUNT; i++) {
    ds_algo_stats *a = &r->algos[i];
    free(a->times_ms);
    free(a->rounds);
    free(a->edges_relaxed);
    free(a->reached_arcs);
    free(a->reached);
    free(a->check);
  }
  free(r->sources);
  free(r->batch.times_ms);
  memset(r, 0, sizeof *r);
}

/* A graph's measurements: what the driver's callbacks share. */
typedef struct {
  const ds_cli *cli;
  const ds_graph *g;
  ds_graph_report *r;
  ds_gpu_ctx *ctx;
  ds_sssp_params params;
  ds_sssp_result res;
  ds_dist_width width;
  void *ref;           /* the reference distances, when validating */
  void *kept_dist;     /* the first algorithm's result, for --output and the targets' paths
                          (NULL: not kept) */
  uint32_t *kept_pred;
  int first_stopped;   /* the first algorithm's search stopped at the targets */
  ds_target_matrix *matrix; /* several sources with targets: filled by the first algorithm
                               (NULL: none, or the batch fills it) */
} measure;

static ds_exit_code m_reference(void *ctx, uint32_t s) {
  measure *m = (measure *)ctx;
  ds_sssp_result rr;
  memset(&rr, 0, sizeof rr);
  rr.dist = m->ref;
  ds_error err = {{0}};
  ds_status st = ds_sssp_dijkstra(m->g, m->r->sources[s], &m->params, &rr, &err);
  if (st == DS_OK) return DS_EXIT_OK;
  fprintf(stderr, "sssp: reference Dijkstra: %s\n", err.msg);
  return exit_of(st);
}

static ds_exit_code m_run(void *ctx, int i, uint32_t s, double *ms) {
  measure *m = (measure *)ctx;
  const ds_algo_stats *a = &m->r->algos[i];
  const uint32_t src = m->r->sources[s];
  m->params.delta = a->delta > 0.0 ? a->delta : m->r->delta; /* Dijkstra and Bellman-Ford: unused */
  ds_error err = {{0}};
  ds_status st = run_one(m->ctx, m->g, a->algo, src, &m->params, &m->res, &err);
  if (st != DS_OK) {
    fprintf(stderr, "sssp: %s from source %u: %s\n", ds_algo_name(a->algo),
            src + (uint32_t)m->g->index_base, err.msg);
    return exit_of(st);
  }
  *ms = m->res.time_ms;
  return DS_EXIT_OK;
}

static void m_corrupt(void *ctx, int i, uint32_t s) {
  (void)i;
  measure *m = (measure *)ctx;
  corrupt_for_test(m->g, m->r->sources[s], m->res.dist, m->width);
}

static int m_check(void *ctx, int i, uint32_t s) {
  measure *m = (measure *)ctx;
  return check_result(m->g, m->r->sources[s], &m->res, m->width, m->ref, &m->params,
                      &m->r->algos[i], s);
}

static void m_done(void *ctx, int i, uint32_t s) {
  measure *m = (measure *)ctx;
  ds_algo_stats *a = &m->r->algos[i];
  a->rounds[s] = m->res.rounds;
  a->edges_relaxed[s] = m->res.edges_relaxed;
  a->reached_arcs[s] = m->res.reached_arcs;
  a->reached[s] = m->res.reached;
  if (i == 0) m->first_stopped = m->res.stopped_early;
  if (m->matrix != NULL && a->algo == m->matrix->algo) ds_run_matrix_row(m->matrix, s, m->res.dist);
  if (i == 0 && m->kept_dist != NULL) {
    memcpy(m->kept_dist, m->res.dist, (size_t)m->g->n * ds_dist_size(m->g, m->width));
    if (m->kept_pred != NULL) memcpy(m->kept_pred, m->res.pred, m->g->n * sizeof(uint32_t));
  }
}

/* 2. One graph: load, run, validate, report. */
static ds_exit_code run_graph(void *prog, const ds_driver_run *run, const char *path) {
  const run_plan *p = (const run_plan *)prog;
  const ds_cli *cli = run->cli;
  ds_exit_code rc = DS_EXIT_OK;
  ds_graph g;
  memset(&g, 0, sizeof g);
  ds_graph_report r;
  memset(&r, 0, sizeof r);
  measure m;
  memset(&m, 0, sizeof m);
  void *dist = NULL;
  uint32_t *pred = NULL, *targets = NULL;
  ds_target_matrix tm;
  memset(&tm, 0, sizeof tm);
  ds_error err = {{0}};
  int loaded = 0;

  // 3a. load
  if ((rc = ds_driver_load(cli, path, cli->undirected, &g, &r.load_ms, &r.cache)) != DS_EXIT_OK)
    goto cleanup;
  loaded = 1;
  r.g = &g;
  r.path = path;

  // 3b. parameters: sources and delta; batched, the GPU algorithms leave the
  // per-source measurement to the batched engine, at the batch's delta
  ds_run_report_params(cli, &g, path, p->algos, p->n_algos, run->threads, &r);
  r.batch.ran = p->uses_gpu && ds_run_batch_chosen(p->batch, &g, r.n_sources, cli->predecessors,
                                                   &r.batch.rule);
  if (r.batch.ran) {
    int kept = 0;
    for (int i = 0; i < r.n_algos; i++)
      if (!ds_algo_is_gpu(r.algos[i].algo)) r.algos[kept++] = r.algos[i];
    r.n_algos = kept;
    r.batch.delta = cli->delta_auto ? ds_gpu_batch_delta_auto(&g) : r.delta; /* gpu_sssp.h */
  } else if (p->batch == DS_BATCH_ON && p->uses_gpu && !cli->quiet) {
    fprintf(stderr, "sssp: note: --batch on: %s, so the sources run one after another\n",
            r.n_sources < 2 ? "one source" : "predecessors or targets are asked for (batched searches give distances only)");
  }
  // Integer graphs whose paths may not fit 32 bits get 64-bit distances.
  const ds_dist_width width = ds_sssp_dist_width(&g);
  if (width == DS_DIST_WIDE && !cli->quiet)
    fprintf(stderr,
            "sssp: note: %s: paths may be longer than 2^32-3, so distances are 64-bit; the GPU "
            "algorithms compute in 32 bits and stop with exit code 6 if a distance does not fit\n",
            path);
  if ((rc = check_memory(cli, p, &g, path, r.n_sources, width)) != DS_EXIT_OK) goto cleanup;
  r.sources = (uint32_t *)malloc(r.n_sources * sizeof(uint32_t));
  if (r.sources == NULL) goto nomem;
  if ((rc = ds_run_pick_sources(cli, &g, path, r.sources, r.n_sources)) != DS_EXIT_OK) goto cleanup;
  if (cli->n_targets > 0 &&
      (targets = (uint32_t *)malloc(cli->n_targets * sizeof(uint32_t))) == NULL)
    goto nomem;
  if (targets != NULL && (rc = ds_run_pick_targets(cli, &g, path, targets)) != DS_EXIT_OK)
    goto cleanup;

  // 3c. memory for results and statistics
  if (!ds_run_report_alloc(&r)) goto nomem;
  size_t n = g.n;
  const size_t dist_bytes = ds_dist_size(&g, width);
  dist = malloc(n * dist_bytes);
  if (dist == NULL) goto nomem;
  // one source's targets get their paths, read from the predecessors (which also check a search
  // that stopped at its targets); several sources' targets a matrix of distances (the first
  // algorithm's; batched, the batch's: full searches, checked in full)
  const int matrix = targets != NULL && r.n_sources > 1;
  int want_pred = cli->predecessors || targets != NULL;
  tm = (ds_target_matrix){&g, p->algos[0], r.sources, targets, r.n_sources, cli->n_targets, width, NULL};
  if (matrix && !ds_run_matrix_alloc(&tm)) goto nomem;
  if (matrix && !(r.batch.ran && ds_algo_is_gpu(p->algos[0]))) m.matrix = &tm;
  if (want_pred && (pred = (uint32_t *)malloc(n * sizeof(uint32_t))) == NULL) goto nomem;
  if (cli->validate && (m.ref = malloc(n * dist_bytes)) == NULL) goto nomem;
  // --output and the targets' paths are the first algorithm's result, told once every
  // algorithm has run and been checked; the later ones overwrite dist, so it is kept
  const int keep_first = (cli->output_path != NULL || targets != NULL) && !matrix && p->n_algos > 1;
  if (keep_first && (m.kept_dist = malloc(n * dist_bytes)) == NULL) goto nomem;
  if (keep_first && want_pred && (m.kept_pred = (uint32_t *)malloc(n * sizeof(uint32_t))) == NULL)
    goto nomem;

  // 3d. the device
  if (p->uses_gpu) {
    ds_status st = ds_gpu_open_env(cli->device, &g, &m.ctx, &err);
    if (st != DS_OK) {
      fprintf(stderr, "sssp: %s\n", err.msg);
      rc = exit_of(st);
      goto cleanup;
    }
  }

  // 3e. run: per source, the reference distances, then every algorithm
  ds_sssp_params_default(&m.params);
  m.params.buckets = r.buckets;
  m.params.want_pred = want_pred;
  m.params.threads = cli->threads;
  m.params.dist_width = width;
  m.params.targets = targets;
  m.params.n_targets = targets != NULL ? cli->n_targets : 0;
  {
    ds_status st = cpu_knobs(&m.params, &err);
    if (st != DS_OK) {
      fprintf(stderr, "sssp: %s\n", err.msg);
      rc = exit_of(st);
      goto cleanup;
    }
  }
  m.cli = cli;
  m.g = &g;
  m.r = &r;
  m.width = width;
  m.res.dist = dist;
  m.res.pred = pred;
  double *times[DS_ALGO_COUNT];
  for (int i = 0; i < r.n_algos; i++) times[i] = r.algos[i].times_ms;
  const ds_driver_trials trials = {.n_algos = r.n_algos, .n_sources = r.n_sources,
                                   .trials = r.trials, .validate = cli->validate,
                                   .times_ms = times, .ctx = &m, .reference = m_reference,
                                   .run = m_run, .corrupt = m_corrupt, .check = m_check,
                                   .done = m_done};
  if (r.n_algos > 0) rc = ds_driver_measure(&trials);
  if (rc != DS_EXIT_OK && rc != DS_EXIT_VALIDATION) goto cleanup;
  if (r.batch.ran) {
    m.params.delta = r.batch.delta;
    const ds_exit_code brc = ds_run_batch(cli, &g, m.ctx, r.sources, r.n_sources, &m.params,
                                          matrix && m.matrix == NULL ? &tm : NULL, &r.batch);
    if (brc != DS_EXIT_OK && brc != DS_EXIT_VALIDATION) {
      rc = brc;
      goto cleanup;
    }
    if (rc == DS_EXIT_OK) rc = brc;
  }

  // 3f. --output: the first algorithm's result (a single source, checked by
  // the CLI), unless a result was found wrong; with targets, their paths
  const ds_target_answer answer = {&g, p->algos[0], r.sources[0], targets, m.params.n_targets,
                                   keep_first ? m.kept_dist : dist, width,
                                   keep_first ? m.kept_pred : pred, m.first_stopped};
  if (cli->output_path != NULL && ds_app_output_wanted(cli, rc)) {
    ds_exit_code orc =
        matrix ? ds_run_write_matrix(cli->output_path, &tm)
        : targets != NULL
            ? ds_run_write_target_output(cli->output_path, &answer)
            : ds_run_write_output(cli->output_path, &g, answer.dist, width, answer.pred);
    if (orc != DS_EXIT_OK) {
      rc = orc;
      goto cleanup;
    }
  }

  // 3g. report
  if (!cli->quiet) {
    ds_report_graph_line(stdout, &r);
    if (r.n_algos > 0) ds_report_table(stdout, &r);
    ds_report_batch(stdout, &r);
    if (matrix) {
      ds_run_print_matrix(stdout, &tm, 1);
    } else if (targets != NULL) {
      ds_exit_code trc = ds_run_print_targets(stdout, &answer);
      if (trc != DS_EXIT_OK && rc == DS_EXIT_OK) rc = trc;
    }
    fflush(stdout);
  }
  if (run->json != NULL && !ds_report_json_graph(run->json, &r, cli)) goto nomem;
  if (run->json != NULL && targets != NULL &&
      !(matrix ? ds_run_json_matrix(run->json, &tm) : ds_run_json_targets(run->json, &answer)))
    goto nomem;
  goto cleanup;

nomem:
  fprintf(stderr, "sssp: out of memory for %s\n", path);
  rc = DS_EXIT_INTERNAL;
cleanup:
  if (m.ctx != NULL) ds_gpu_close(m.ctx);
  ds_run_report_free(&r);
  free(dist);
  free(pred);
  free(targets);
  free(m.ref);
  free(m.kept_dist);
  free(m.kept_pred);
  ds_run_matrix_free(&tm);
  if (loaded) ds_graph_free(&g);
  return rc;
}

ds_exit_code ds_run(const ds_cli *cli, ds_batch_mode batch) {
  run_plan p;
  memset(&p, 0, sizeof p);
  p.batch = batch;
  const ds_driver_program prog = {plan_algorithms, run_graph};
  return ds_driver_main(cli, &prog, &p);
}
