/* Searches that stop at targets (ds_sssp_params.targets): Dijkstra and
 * cpu-delta (1 and 2 threads, with and without bucket fusion) on random graphs
 * of every weight kind and on a bundled road network (the path given as the
 * argument), each target's distance against the full Dijkstra's, its path
 * (ds_sssp_path) walked arc by arc and summed against that distance, starting
 * at the source; unreachable targets, the source as a target, repeated targets,
 * several at once, and a target out of range (DS_ERR_ARG). Early exit must
 * happen: on the road, a near target stops the search before every vertex is
 * reached.
 */
#include "app_test_util.h"

#include <stdlib.h>
#include <string.h>

#define MAX_TARGETS 8

typedef struct {
  const char *name;
  ds_algo algo;
  int threads;
  size_t fuse_limit; /* 0: the default; 1: no fusion, so rounds decide when to stop */
} engine;

static const engine ENGINES[] = {{"dijkstra", DS_ALGO_DIJKSTRA, 1, 0},
                                 {"cpu-delta 1 thread", DS_ALGO_CPU_DELTA, 1, 0},
                                 {"cpu-delta 2 threads", DS_ALGO_CPU_DELTA, 2, 0},
                                 {"cpu-delta 2 threads, no fusion", DS_ALGO_CPU_DELTA, 2, 1}};
#define N_ENGINES (sizeof ENGINES / sizeof ENGINES[0])

/* The weight of arc u->v (the smallest, should the CSR hold several), as a
 * double; -1 where there is none. */
static double arc_weight(const ds_graph *g, uint32_t u, uint32_t v) {
  double best = -1.0;
  for (uint64_t e = g->row_offsets[u]; e < g->row_offsets[u + 1]; e++) {
    if (g->col[e] != v) continue;
    const double w = g->weight_type == DS_WEIGHT_U32 ? (double)((const uint32_t *)g->weights)[e]
                                                     : (double)((const float *)g->weights)[e];
    if (best < 0.0 || w < best) best = w;
  }
  return best;
}

/* One search from source to k targets, checked against the full distances
 * `full`; returns whether it stopped early. */
static int check_search(const ds_graph *g, const engine *en, uint32_t source,
                        const uint32_t *targets, uint32_t k, const double *full, double delta,
                        const char *what) {
  const ds_dist_width w = ds_sssp_dist_width(g);
  void *dist = malloc((size_t)g->n * ds_dist_size(g, w));
  uint32_t *pred = (uint32_t *)malloc((size_t)g->n * sizeof(uint32_t));
  uint32_t *path = (uint32_t *)malloc((size_t)g->n * sizeof(uint32_t));
  int stopped = 0;
  if (!CHECK(dist && pred && path, "%s: no memory", what)) goto done;
  ds_sssp_params p;
  ds_sssp_params_default(&p);
  p.delta = delta;
  p.want_pred = 1;
  p.threads = en->threads;
  p.cpu_fuse_limit = en->fuse_limit;
  p.dist_width = w;
  p.targets = targets;
  p.n_targets = k;
  ds_sssp_result r;
  memset(&r, 0, sizeof r);
  r.dist = dist;
  r.pred = pred;
  ds_error err = {{0}};
  if (!CHECK(ds_sssp_cpu(g, en->algo, source, &p, &r, &err) == DS_OK, "%s, %s: %s", what,
             en->name, err.msg))
    goto done;
  stopped = r.stopped_early;
  // the library's own check of the targets, then this test's: distance, and the path by hand
  CHECK(ds_sssp_check_targets(g, source, targets, k, dist, w, pred, NULL, NULL, &err) == DS_OK,
        "%s, %s: %s", what, en->name, err.msg);
  for (uint32_t i = 0; i < k; i++) {
    const uint32_t t = targets[i];
    const double d = test_dist_w(g, dist, w, t);
    CHECK(test_same(g, full[t], d), "%s, %s: target %u at %g, the full search says %g", what,
          en->name, t, d, full[t]);
    uint32_t len = 0;
    if (!CHECK(ds_sssp_path(g, source, pred, t, path, g->n, &len, &err) == DS_OK, "%s, %s: %s",
               what, en->name, err.msg))
      continue;
    if (isinf(full[t])) {
      CHECK(len == 0, "%s, %s: unreachable target %u has a path of %u", what, en->name, t, len);
      continue;
    }
    if (!CHECK(len >= 1 && path[0] == source && path[len - 1] == t,
               "%s, %s: the path to %u (%u vertices) does not run from %u to it", what, en->name,
               t, len, source))
      continue;
    double sum = 0.0;
    for (uint32_t j = 1; j < len; j++) {
      const double aw = arc_weight(g, path[j - 1], path[j]);
      if (!CHECK(aw >= 0.0, "%s, %s: path to %u steps %u -> %u, no arc", what, en->name, t,
                 path[j - 1], path[j]))
        break;
      sum = g->weight_type == DS_WEIGHT_U32 ? sum + aw : (double)((float)sum + (float)aw);
    }
    CHECK(test_same(g, full[t], sum), "%s, %s: the path to %u sums to %g, not %g", what,
          en->name, t, sum, full[t]);
  }
done:
  free(dist);
  free(pred);
  free(path);
  return stopped;
}

/* Random graphs: random targets, the source itself, and (on sparse graphs)
 * unreachable ones, one at a time and together. */
static void random_graphs(void) {
  uint64_t s = 77;
  for (int kind = 0; kind < W_KINDS; kind++) {
    if (kind == W_HUGE) continue; /* 64-bit paths: test_wide's; its targets need no other code */
    for (int trial = 0; trial < 6; trial++) {
      const uint32_t n = 50 + (uint32_t)(test_rand(&s) % 400);
      const uint64_t m = (trial % 2 ? 4 : 1) * (uint64_t)n; /* sparse ones leave vertices out */
      ds_graph g;
      if (!test_random_graph(n, m, (weight_kind)kind, trial % 3 == 0, s + (uint64_t)trial, &g))
        continue;
      const uint32_t source = (uint32_t)(test_rand(&s) % n);
      double *full = test_bellman_ford(&g, source);
      if (CHECK(full != NULL, "no memory for the oracle")) {
        uint32_t targets[MAX_TARGETS];
        uint32_t k = 0;
        targets[k++] = (uint32_t)(test_rand(&s) % n);
        targets[k++] = source;
        for (uint32_t v = 0; v < n && k < MAX_TARGETS - 2; v++) /* an unreachable one, if any */
          if (isinf(full[v])) {
            targets[k++] = v;
            break;
          }
        targets[k++] = (uint32_t)(test_rand(&s) % n);
        targets[k] = targets[0]; /* a repeat */
        k++;
        const double delta = kind == W_FLOAT ? 2.5 : kind == W_TINY ? 1.0 : 150.0;
        char what[96];
        for (size_t e = 0; e < N_ENGINES; e++) {
          snprintf(what, sizeof what, "random graph n=%u kind %d trial %d, one target", n, kind,
                   trial);
          check_search(&g, &ENGINES[e], source, targets, 1, full, delta, what);
          snprintf(what, sizeof what, "random graph n=%u kind %d trial %d, %u targets", n, kind,
                   trial, k);
          check_search(&g, &ENGINES[e], source, targets, k, full, delta, what);
          snprintf(what, sizeof what, "random graph n=%u kind %d trial %d, the source", n, kind,
                   trial);
          check_search(&g, &ENGINES[e], source, &source, 1, full, delta, what);
        }
      }
      free(full);
      ds_graph_free(&g);
    }
  }
}

/* A target out of range is refused by both engines, naming it. */
static void bad_target(void) {
  ds_graph g;
  if (!test_random_graph(20, 60, W_WIDE, 0, 5, &g)) return;
  uint32_t dist[20], pred[20];
  const uint32_t targets[2] = {3, 20};
  for (size_t e = 0; e < N_ENGINES; e++) {
    ds_sssp_params p;
    ds_sssp_params_default(&p);
    p.want_pred = 1;
    p.targets = targets;
    p.n_targets = 2;
    ds_sssp_result r;
    memset(&r, 0, sizeof r);
    r.dist = dist;
    r.pred = pred;
    ds_error err = {{0}};
    CHECK(ds_sssp_cpu(&g, ENGINES[e].algo, 0, &p, &r, &err) == DS_ERR_ARG &&
              strstr(err.msg, "target 20") != NULL,
          "%s: target 20 of 20 vertices: '%s'", ENGINES[e].name, err.msg);
  }
  uint32_t len = 7;
  ds_error err = {{0}};
  CHECK(ds_sssp_path(&g, 0, pred, 20, NULL, 0, &len, &err) == DS_ERR_ARG,
        "ds_sssp_path: target 20 of 20 accepted");
  // a cycle in the predecessors is an error, not an endless walk
  for (uint32_t v = 0; v < 20; v++) pred[v] = v == 0 ? DS_NO_PRED : v == 5 ? 6 : v == 6 ? 5 : 0;
  CHECK(ds_sssp_path(&g, 0, pred, 6, NULL, 0, &len, &err) == DS_ERR_VALIDATION,
        "ds_sssp_path: a cycle of predecessors accepted");
  ds_graph_free(&g);
}

/* The road: targets at random vertices, several together; the nearest of them
 * must stop the search before it reaches everything. */
static void road(const char *path) {
  ds_load_options opt;
  ds_load_options_default(&opt);
  ds_graph g;
  ds_error err = {{0}};
  if (!CHECK(ds_graph_load(path, &opt, &g, &err) == DS_OK, "%s: %s", path, err.msg)) return;
  const ds_dist_width w = ds_sssp_dist_width(&g);
  void *dist = malloc((size_t)g.n * ds_dist_size(&g, w));
  double *full = (double *)malloc((size_t)g.n * sizeof(double));
  if (!CHECK(dist && full, "no memory")) goto done;
  const uint32_t source = 0;
  ds_sssp_params p;
  ds_sssp_params_default(&p);
  p.dist_width = w;
  ds_sssp_result r;
  memset(&r, 0, sizeof r);
  r.dist = dist;
  if (!CHECK(ds_sssp_dijkstra(&g, source, &p, &r, &err) == DS_OK, "%s: %s", path, err.msg))
    goto done;
  for (uint32_t v = 0; v < g.n; v++) full[v] = test_dist_w(&g, dist, w, v);
  const double delta = ds_delta_auto_cpu(&g);
  uint64_t s = 4242;
  int stopped = 0;
  for (int trial = 0; trial < 4; trial++) {
    uint32_t targets[3];
    for (int i = 0; i < 3; i++) targets[i] = (uint32_t)(test_rand(&s) % g.n);
    // the closest vertex to the source besides itself: a search to it must stop early
    uint32_t near = source == 0 ? 1 : 0;
    for (uint32_t v = 0; v < g.n; v++)
      if (v != source && full[v] < full[near]) near = v;
    char what[96];
    for (size_t e = 0; e < N_ENGINES; e++) {
      snprintf(what, sizeof what, "%s trial %d, one target", path, trial);
      check_search(&g, &ENGINES[e], source, targets, 1, full, delta, what);
      snprintf(what, sizeof what, "%s trial %d, three targets", path, trial);
      check_search(&g, &ENGINES[e], source, targets, 3, full, delta, what);
      snprintf(what, sizeof what, "%s trial %d, the nearest vertex", path, trial);
      CHECK(check_search(&g, &ENGINES[e], source, &near, 1, full, delta, what),
            "%s, %s: did not stop early", what, ENGINES[e].name);
      stopped++;
    }
  }
  CHECK(stopped > 0, "no early stop checked");
done:
  free(dist);
  free(full);
  ds_graph_free(&g);
}

int main(int argc, char **argv) {
  random_graphs();
  bad_target();
  if (argc > 1) road(argv[1]);
  return ds_test_finish("searches to targets");
}
