/* The sources of an `sssp` run (run_sources.h). */
#include "run_sources.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "driver.h"
#include "ds/rng.h"

#define MAX_SOURCE_DRAWS 64   /* random draws for a vertex with out-arcs, per source */
#define SOURCE_STREAM 0x5EED50u /* separates source draws from weight draws */

static uint64_t out_degree(const ds_graph *g, uint32_t v) {
  return g->row_offsets[v + 1] - g->row_offsets[v];
}

ds_exit_code ds_run_pick_sources(const ds_cli *cli, const ds_graph *g, const char *path,
                                 uint32_t *sources, uint32_t count) {
  const uint32_t base = (uint32_t)g->index_base;
  if (cli->source_mode == DS_SOURCE_VERTEX) {
    if (cli->source < base || cli->source - base >= g->n) {
      fprintf(stderr, "sssp: source %llu is out of range: %s has vertices %u..%llu\n",
              (unsigned long long)cli->source, path, base,
              (unsigned long long)g->n - 1 + base);
      return DS_EXIT_USAGE;
    }
    sources[0] = (uint32_t)(cli->source - base);
    return DS_EXIT_OK;
  }
  if (cli->source_mode == DS_SOURCE_DEFAULT && count == 1) {
    sources[0] = 0;
    for (uint32_t v = 0; v < g->n; v++)
      if (out_degree(g, v) > 0) {
        sources[0] = v;
        break;
      }
    return DS_EXIT_OK;
  }
  // random sources: distinct vertices with out-arcs (the caller asks for no
  // more than there are); a source whose draws keep hitting taken or
  // arc-less vertices takes the next free one after its last draw, so the
  // drawing ends however few candidates are left
  unsigned char *taken = (unsigned char *)calloc(g->n, 1);
  if (taken == NULL) {
    fprintf(stderr, "sssp: out of memory choosing sources on %s\n", path);
    return DS_EXIT_INTERNAL;
  }
  uint64_t state = cli->seed ^ SOURCE_STREAM;
  for (uint32_t i = 0; i < count; i++) {
    uint32_t v = 0;
    int found = 0;
    for (int t = 0; t < MAX_SOURCE_DRAWS && !found; t++) {
      v = (uint32_t)(ds_splitmix64_next(&state) % g->n);
      found = out_degree(g, v) > 0 && !taken[v];
    }
    for (uint32_t k = 1; k < g->n && !found; k++) {
      uint32_t u = (uint32_t)(((uint64_t)v + k) % g->n);
      if (out_degree(g, u) > 0 && !taken[u]) {
        v = u;
        found = 1;
      }
    }
    sources[i] = v;
    taken[v] = 1;
  }
  free(taken);
  return DS_EXIT_OK;
}

uint32_t ds_run_source_candidates(const ds_graph *g) {
  uint32_t k = 0;
  for (uint32_t v = 0; v < g->n; v++) k += out_degree(g, v) > 0;
  return k;
}

#define BATCH_OPTION "--batch"

ds_exit_code ds_run_take_batch(int *argc, char **argv, const char *const *value_options,
                               ds_batch_mode *mode, char *msg, size_t msg_len) {
  static const char *const MODES[] = {"auto", "on", "off"};
  const size_t len = strlen(BATCH_OPTION);
  int kept = 1;
  for (int i = 1; i < *argc; i++) {
    const char *arg = argv[i];
    if (strncmp(arg, BATCH_OPTION, len) != 0 || (arg[len] != '\0' && arg[len] != '=')) {
      argv[kept++] = argv[i];
      /* another option's value stays with it, even one that reads "--batch" */
      int takes_value = 0;
      for (const char *const *o = value_options; *o != NULL; o++) takes_value |= strcmp(*o, arg) == 0;
      if (takes_value && i + 1 < *argc) argv[kept++] = argv[++i];
      continue;
    }
    const char *value = arg[len] == '=' ? arg + len + 1 : i + 1 < *argc ? argv[++i] : NULL;
    if (value == NULL)
      return ds_cli_fail(DS_EXIT_USAGE, msg, msg_len, "option %s needs a value (auto, on or off)", BATCH_OPTION);
    int found = 0;
    for (int m = 0; m < 3 && !found; m++)
      if (strcmp(value, MODES[m]) == 0) {
        *mode = (ds_batch_mode)m;
        found = 1;
      }
    if (!found)
      return ds_cli_fail(DS_EXIT_USAGE, msg, msg_len, "%s: unknown mode '%s' (known: auto, on, off)", BATCH_OPTION,
                         value);
  }
  argv[kept] = NULL;
  *argc = kept;
  return DS_EXIT_OK;
}

int ds_run_batch_chosen(ds_batch_mode mode, const ds_graph *g, uint32_t n_sources, int want_pred,
                        const char **rule) {
  *rule = mode == DS_BATCH_ON ? "on" : "auto";
  if (mode == DS_BATCH_OFF || want_pred || n_sources < 2) return 0;
  return mode == DS_BATCH_ON || ds_gpu_batch_pays(g, n_sources);
}

/* What the sink of a batch shares: the last trial checks and counts. */
typedef struct {
  const ds_graph *g;
  const uint32_t *sources;
  const ds_sssp_params *params;
  void *ref; /* Dijkstra's distances of the source being checked; NULL: no check */
  ds_target_matrix *tm; /* the sources' distances to the targets, or NULL */
  ds_batch_stats *b;
} batch_sink_state;

static ds_status batch_sink(void *user, uint32_t i, const ds_sssp_result *res, ds_error *err) {
  batch_sink_state *s = (batch_sink_state *)user;
  s->b->rounds += res->rounds;
  s->b->edges_relaxed += res->edges_relaxed;
  s->b->reached_arcs += res->reached_arcs;
  if (s->tm != NULL) ds_run_matrix_row(s->tm, i, res->dist);
  if (s->ref == NULL) return DS_OK;
  const uint32_t source = s->sources[i];
  /* the batched engine searches to the end whatever the targets: so does its reference (a
     Dijkstra stopped at the targets leaves the rest of its row unreached) */
  ds_sssp_params full = *s->params;
  full.targets = NULL;
  full.n_targets = 0;
  ds_sssp_result rr;
  memset(&rr, 0, sizeof rr);
  rr.dist = s->ref;
  ds_status st = ds_sssp_dijkstra(s->g, source, &full, &rr, err);
  if (st != DS_OK) return st;
  ds_error why = {{0}};
  st = ds_sssp_validate(s->g, source, res->dist, full.dist_width, NULL, NULL, &why);
  if (st == DS_OK) st = ds_sssp_compare(s->g, s->ref, res->dist, full.dist_width, NULL, &why);
  if (ds_driver_check_note(&s->b->check, st == DS_OK ? NULL : why.msg, s->b->failure, sizeof s->b->failure))
    fprintf(stderr, "sssp: validation failed: batched search from source %u on %s: %s\n",
            source + (uint32_t)s->g->index_base, s->g->name, why.msg);
  return DS_OK;
}

ds_exit_code ds_run_batch(const ds_cli *cli, const ds_graph *g, ds_gpu_ctx *ctx, const uint32_t *sources,
                          uint32_t count, const ds_sssp_params *params, ds_target_matrix *tm,
                          ds_batch_stats *b) {
  if ((b->times_ms = (double *)calloc(cli->trials, sizeof(double))) == NULL) {
    fprintf(stderr, "sssp: out of memory for the batched searches' times on %s\n", g->name);
    return DS_EXIT_INTERNAL;
  }
  void *ref = NULL;
  if (cli->validate && (ref = malloc((size_t)g->n * ds_dist_size(g, params->dist_width))) == NULL) {
    fprintf(stderr, "sssp: out of memory for the reference distances of %s\n", g->name);
    return DS_EXIT_INTERNAL;
  }
  ds_exit_code rc = DS_EXIT_OK;
  for (uint32_t k = 0; k <= cli->trials && rc == DS_EXIT_OK; k++) { /* k = 0: warm-up */
    const int last = k == cli->trials;
    batch_sink_state state = {g, sources, params, last ? ref : NULL, last ? tm : NULL, b};
    b->rounds = b->edges_relaxed = b->reached_arcs = 0;
    ds_gpu_batch_info info;
    ds_error err = {{0}};
    const ds_status st = ds_gpu_sssp_batch(ctx, sources, count, params, batch_sink, &state, &info, &err);
    if (st != DS_OK) {
      fprintf(stderr, "sssp: batched searches on %s: %s\n", g->name, err.msg);
      rc = ds_app_exit_of(st);
      break;
    }
    if (k > 0) b->times_ms[k - 1] = info.time_ms;
    b->slots = info.slots;
    b->rows = info.rows;
    b->launches = info.launches;
  }
  free(ref);
  if (rc == DS_EXIT_OK && b->check == DS_CHECK_FAILED) rc = DS_EXIT_VALIDATION;
  return rc;
}
