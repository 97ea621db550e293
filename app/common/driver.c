/* The programs' one driver (driver.h): the whole run's order, a graph's
 * load, and the warm-up, trials and checks of its measurements. */
#include "driver.h"

#include <stdio.h>
#include <string.h>

#include "lab.h"

typedef struct {
  const ds_driver_program *p;
  void *prog;
  const ds_driver_run *run;
} each_ctx;

static ds_exit_code each_graph(const void *ctx, const char *path) {
  const each_ctx *c = (const each_ctx *)ctx;
  return c->p->graph(c->prog, c->run, path);
}

ds_exit_code ds_driver_main(const ds_cli *cli, const ds_driver_program *p, void *prog) {
  ds_exit_code rc = DS_EXIT_OK;
  ds_driver_run run;
  memset(&run, 0, sizeof run);
  run.cli = cli;

  // 1. threads, algorithms, device (described in the reports even where
  // only CPU algorithms run)
  if ((rc = ds_app_threads(cli, &run.threads)) != DS_EXIT_OK) return rc;
  ds_app_gpus(&run.dev);
  if ((rc = p->plan(prog, &run)) != DS_EXIT_OK) return rc;
  if ((rc = ds_app_device(cli, &run.dev)) != DS_EXIT_OK) return rc;

  // 2. the report's fixed part
  if (cli->json_path != NULL) {
    run.json = ds_report_json_root(cli, run.dev.have_gpu ? run.dev.name : NULL, run.dev.memory,
                                   run.threads);
    if (run.json == NULL) {
      fprintf(stderr, "%s: out of memory\n", cli->prog->name);
      return DS_EXIT_INTERNAL;
    }
  }

  // 3. each graph in turn, then the JSON report, also when validation failed
  const each_ctx ctx = {p, prog, &run};
  rc = ds_app_each_graph(cli, each_graph, &ctx);
  return ds_app_finish_json(cli, run.json, rc);
}

ds_exit_code ds_driver_load(const ds_cli *cli, const char *path, int undirected, ds_graph *g,
                            double *load_ms, const char **cache) {
  ds_exit_code rc = ds_app_load_graph(cli, path, undirected, g, load_ms, cache);
  if (rc != DS_EXIT_OK) return rc;
  if (g->n == 0) {
    fprintf(stderr, "%s: %s: the graph has no vertices\n", cli->prog->name, path);
    ds_graph_free(g);
    return DS_EXIT_INPUT;
  }
  return DS_EXIT_OK;
}

ds_exit_code ds_driver_measure(const ds_driver_trials *t) {
  ds_exit_code rc = DS_EXIT_OK;
  for (uint32_t s = 0; s < t->n_sources; s++) {
    // 1. the reference of this source
    if (t->validate && t->reference != NULL) {
      ds_exit_code xrc = t->reference(t->ctx, s);
      if (xrc != DS_EXIT_OK) return xrc;
    }
    // 2. every algorithm: the warm-up (first source), then the timed trials
    for (int i = 0; i < t->n_algos; i++) {
      int failed = 0;
      for (uint32_t k = (s == 0 ? 0 : 1); k <= t->trials; k++) { /* k = 0: warm-up */
        double ms = 0.0;
        ds_exit_code xrc = t->run(t->ctx, i, s, &ms);
        if (xrc != DS_EXIT_OK) return xrc;
        if (k == 0) continue;
        if (ds_lab_corrupt()) t->corrupt(t->ctx, i, s);
        t->times_ms[i][(size_t)s * t->trials + (k - 1)] = ms;
        if (t->validate && !t->check(t->ctx, i, s)) failed = 1;
      }
      t->done(t->ctx, i, s);
      if (failed) rc = DS_EXIT_VALIDATION;
    }
  }
  return rc;
}

int ds_driver_check_note(ds_check *state, const char *why, char *failure, size_t len) {
  if (why == NULL) {
    if (*state == DS_CHECK_NOT_RUN) *state = DS_CHECK_PASSED;
    return 0;
  }
  const int first = *state != DS_CHECK_FAILED;
  if (first && failure[0] == '\0') snprintf(failure, len, "%s", why);
  *state = DS_CHECK_FAILED;
  return first;
}
