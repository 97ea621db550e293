/* The CPU engines through the deltasplit C API against the same engines
 * called directly (app/sssp's Dijkstra, app/kcore's and app/tc's oracles) on
 * the same graphs: every SSSP algorithm without a GPU, batches against single
 * searches, the caller's buffers and the library's, a wrapped CSR against the
 * loaded one, the cache, k-core and triangles on a directed and an undirected
 * graph, and threads sharing one graph.
 *
 * usage: test_api_cpu DATASETS_DIR */
#include "ds_test.h"

#include <math.h>
#include <pthread.h>

#include <deltasplit/deltasplit.h>

#include "ds/graph.h"
#include "kcore.h"
#include "sssp.h"
#include "tc.h"

#include "api_test_util.h"

/* Dijkstra's distances from s, by the engine, at g's natural or wide width. */
static void *dijkstra(const ds_graph *g, uint32_t s, ds_dist_width w) {
  ds_sssp_params p;
  ds_sssp_params_default(&p);
  p.dist_width = w;
  ds_sssp_result r;
  memset(&r, 0, sizeof r);
  r.dist = malloc((size_t)g->n * ds_dist_size(g, w));
  ds_error e;
  if (!CHECK(ds_sssp_dijkstra(g, s, &p, &r, &e) == DS_OK, "dijkstra: %s", e.msg)) {
    free(r.dist);
    return NULL;
  }
  return r.dist;
}

static void same_distances(const ds_graph *ref, const void *want, const dsp_sssp_result *r, const char *what) {
  ds_error e;
  const ds_dist_width w = r->dist_type == DSP_DIST_U64 ? DS_DIST_WIDE : DS_DIST_NATURAL;
  CHECK(ds_sssp_compare(ref, want, r->dist, w, NULL, &e) == DS_OK, "%s: %s", what, e.msg);
}

/* Searches to targets: with every CPU algorithm (and the automatic one),
 * validated, each target's distance equal to Dijkstra's full one and its path
 * (dsp_sssp_path, the length asked first) from the source along arcs of g,
 * tight at every step; the source as a target; a nearby target stops the
 * search early; and the errors: a target out of range, targets NULL, a
 * result without predecessors, too little room for the path. */
static void targets_cases(const dsp_graph *g, const ds_graph *ref) {
  const uint32_t source = 0;
  const ds_dist_width w = ds_sssp_dist_width(ref);
  void *want = dijkstra(ref, source, w);
  if (want == NULL) return;
  uint32_t near = 1; /* the vertex nearest the source, which stops any search early */
  for (uint32_t v = 1; v < ref->n; v++)
    if (ds_dist_is_finite(ref, want, w, v) &&
        (!ds_dist_is_finite(ref, want, w, near) ||
         ds_dist_read(want, 0, w, v).i < ds_dist_read(want, 0, w, near).i))
      near = v;
  const uint32_t targets[] = {ref->n - 1, ref->n / 3, source, near};
  const dsp_sssp_algo algos[] = {DSP_SSSP_AUTO, DSP_SSSP_CPU_DELTA, DSP_SSSP_DIJKSTRA};
  uint32_t *path = (uint32_t *)malloc(ref->n * sizeof(uint32_t));
  dsp_error err;
  for (size_t a = 0; a < sizeof algos / sizeof algos[0] && path != NULL; a++) {
    for (uint32_t k = 1; k <= 4; k *= 4) { /* the nearest alone, then all four */
      dsp_sssp_options opt;
      dsp_sssp_options_init(&opt);
      opt.algo = algos[a];
      opt.validate = 1;
      opt.targets = k == 1 ? &near : targets;
      opt.n_targets = k;
      dsp_sssp_result r = {0};
      if (!CHECK(dsp_sssp(g, NULL, &source, 1, &opt, &r, &err) == DSP_OK, "%s to %u targets: %s",
                 dsp_sssp_algo_name(algos[a]), k, err.msg))
        continue;
      CHECK(r.pred != NULL, "%s: targets without predecessors", dsp_sssp_algo_name(algos[a]));
      if (k == 1)
        CHECK(r.stopped_early && r.reached < ref->n, "%s to vertex %u: did not stop early (%u reached)",
              dsp_sssp_algo_name(algos[a]), near, r.reached);
      for (uint32_t i = 0; i < k && r.pred != NULL; i++) {
        const uint32_t t = opt.targets[i];
        const double d = dsp_sssp_distance(&r, t);
        const ds_dist_value x = ds_dist_read(want, ref->weight_type == DS_WEIGHT_F32, w, t);
        CHECK(x.inf ? isinf(d) : d == (double)x.i, "%s: target %u at %g, Dijkstra says %llu",
              dsp_sssp_algo_name(algos[a]), t, d, (unsigned long long)x.i);
        uint32_t len = 0, len2 = 0;
        if (!CHECK(dsp_sssp_path(g, &r, t, NULL, 0, &len, &err) == DSP_OK &&
                       dsp_sssp_path(g, &r, t, path, len, &len2, &err) == DSP_OK && len == len2,
                   "path to %u: %s", t, err.msg))
          continue;
        CHECK(x.inf ? len == 0 : len >= 1 && path[0] == source && path[len - 1] == t,
              "%s: the path to %u has %u vertices, from %u to %u", dsp_sssp_algo_name(algos[a]), t,
              len, len ? path[0] : 0, len ? path[len - 1] : 0);
        uint64_t sum = 0;
        for (uint32_t j = 1; j < len; j++) {
          uint64_t e = ref->row_offsets[path[j - 1]];
          while (e < ref->row_offsets[path[j - 1] + 1] && ref->col[e] != path[j]) e++;
          if (!CHECK(e < ref->row_offsets[path[j - 1] + 1], "path to %u: %u -> %u is no arc", t,
                     path[j - 1], path[j]))
            break;
          sum += ((const uint32_t *)ref->weights)[e];
        }
        CHECK(x.inf || sum == x.i, "path to %u sums to %llu, not %llu", t, (unsigned long long)sum,
              (unsigned long long)x.i);
        if (len > 1)
          CHECK(dsp_sssp_path(g, &r, t, path, len - 1, &len2, &err) == DSP_ERR_ARG,
                "path to %u: room for %u of %u vertices accepted", t, len - 1, len);
      }
      dsp_sssp_result_free(&r, 1);
    }
  }
  // errors: a target out of range, targets missing, a result without predecessors
  dsp_sssp_options opt;
  dsp_sssp_options_init(&opt);
  const uint32_t outside = ref->n;
  opt.targets = &outside;
  opt.n_targets = 1;
  dsp_sssp_result r = {0};
  CHECK(dsp_sssp(g, NULL, &source, 1, &opt, &r, &err) == DSP_ERR_ARG && strstr(err.msg, "target") != NULL,
        "target %u of %u vertices: '%s'", outside, ref->n, err.msg);
  opt.targets = NULL;
  CHECK(dsp_sssp(g, NULL, &source, 1, &opt, &r, &err) == DSP_ERR_ARG, "targets NULL accepted");
  opt.n_targets = 0;
  uint32_t len = 0;
  if (CHECK(dsp_sssp(g, NULL, &source, 1, &opt, &r, &err) == DSP_OK, "no targets: %s", err.msg))
    CHECK(dsp_sssp_path(g, &r, 1, NULL, 0, &len, &err) == DSP_ERR_ARG,
          "a path from a result without predecessors");
  dsp_sssp_result_free(&r, 1);
  free(path);
  free(want);
}

/* every algorithm (n_algos 7), or the first n_algos: automatic, cpu-delta, Dijkstra */
static void sssp_cases(const dsp_graph *g, const ds_graph *ref, size_t n_algos) {
  const uint32_t sources[] = {0, ref->n / 2, ref->n - 1};
  const ds_dist_width w = ds_sssp_dist_width(ref);
  void *want[3];
  for (int i = 0; i < 3; i++) want[i] = dijkstra(ref, sources[i], w);
  const dsp_sssp_algo algos[] = {DSP_SSSP_AUTO,       DSP_SSSP_CPU_DELTA, DSP_SSSP_DIJKSTRA,
                                 DSP_SSSP_MULTISPLIT, DSP_SSSP_NEAR_FAR,  DSP_SSSP_SORT,
                                 DSP_SSSP_BELLMAN_FORD};
  dsp_error err;
  for (size_t a = 0; a < n_algos && a < sizeof algos / sizeof algos[0]; a++) {
    dsp_sssp_options opt;
    dsp_sssp_options_init(&opt);
    opt.algo = algos[a];
    opt.predecessors = 1;
    opt.validate = 1;
    // 1. a batch of three, the library's arrays
    dsp_sssp_result batch[3];
    memset(batch, 0, sizeof batch);
    if (!CHECK(dsp_sssp(g, NULL, sources, 3, &opt, batch, &err) == DSP_OK, "%s: %s",
               dsp_sssp_algo_name(algos[a]), err.msg))
      continue;
    for (int i = 0; i < 3; i++) {
      char what[96];
      snprintf(what, sizeof what, "%s from %u", dsp_sssp_algo_name(algos[a]), sources[i]);
      same_distances(ref, want[i], &batch[i], what);
      CHECK(batch[i].source == sources[i] && batch[i].pred != NULL && batch[i].reached > 0, "%s: result", what);
      CHECK(batch[i].algo == (algos[a] == DSP_SSSP_DIJKSTRA ? DSP_SSSP_DIJKSTRA : DSP_SSSP_CPU_DELTA),
            "%s ran as %s without a GPU", what, dsp_sssp_algo_name(batch[i].algo));
    }
    // 2. one search into the caller's arrays: the same as the batch's
    const size_t bytes = dsp_sssp_dist_bytes(g, &opt);
    dsp_sssp_result one = {0};
    void *dist = malloc((size_t)ref->n * bytes);
    one.dist = dist;
    CHECK(dsp_sssp(g, NULL, &sources[1], 1, &opt, &one, &err) == DSP_OK, "caller's arrays: %s", err.msg);
    CHECK(one.dist == dist && one.pred != NULL, "the caller's array was replaced");
    CHECK(memcmp(dist, batch[1].dist, (size_t)ref->n * bytes) == 0, "%s: a single search differs from the batch's",
          dsp_sssp_algo_name(algos[a]));
    dsp_sssp_result_free(&one, 1);
    CHECK(one.dist == dist && one.pred == NULL, "dsp_sssp_result_free freed the caller's array");
    free(dist);
    dsp_sssp_result_free(batch, 3);
  }
  for (int i = 0; i < 3; i++) free(want[i]);
}

/* The wrapped CSR of a loaded graph answers as the loaded graph. */
static void wrapped(const dsp_graph *g, const ds_graph *ref) {
  dsp_graph_info info;
  dsp_error err;
  REQUIRE(dsp_graph_describe(g, &info, &err) == DSP_OK, "describe: %s", err.msg);
  dsp_csr c = {info.vertices, info.arcs, info.row_offsets, info.col, info.weights, info.weight_type,
               info.undirected, info.index_base, "wrapped"};
  dsp_graph *wg = NULL;
  REQUIRE(dsp_graph_wrap_csr(&c, &wg, &err) == DSP_OK, "wrap: %s", err.msg);
  uint32_t s = ref->n / 3;
  dsp_sssp_result r = {0};
  if (CHECK(dsp_sssp(wg, NULL, &s, 1, NULL, &r, &err) == DSP_OK, "wrapped: %s", err.msg)) {
    void *want = dijkstra(ref, s, ds_sssp_dist_width(ref));
    if (want) same_distances(ref, want, &r, "wrapped");
    free(want);
  }
  dsp_sssp_result_free(&r, 1);
  dsp_kcore_result kr = {0};
  CHECK(dsp_kcore(wg, NULL, NULL, &kr, &err) == DSP_OK, "wrapped k-core: %s", err.msg);
  dsp_kcore_result_free(&kr);
  dsp_graph_free(wg);
  CHECK(info.row_offsets[info.vertices] == info.arcs, "the wrapped arrays are the caller's still");
}

/* k-core and triangles: every backend and with validation, against the oracles on und. */
static void whole_graph(const dsp_graph *g, const ds_graph *und) {
  dsp_error err;
  ds_error e;
  uint32_t *core = malloc((size_t)und->n * sizeof *core), degeneracy = 0;
  uint64_t *tri = malloc((size_t)und->n * sizeof *tri), total = 0;
  REQUIRE(ds_kcore_oracle(und, core, &e) == DS_OK, "oracle: %s", e.msg);
  REQUIRE(ds_tc_oracle(und, &total, tri, &e) == DS_OK, "oracle: %s", e.msg);
  ds_kcore_summary(core, und->n, &degeneracy, NULL);
  for (dsp_backend b = DSP_BACKEND_AUTO; b <= DSP_BACKEND_ORACLE; b++) {
    if (b == DSP_BACKEND_GPU) continue;
    dsp_kcore_options ko;
    dsp_kcore_options_init(&ko);
    ko.backend = b;
    ko.validate = 1;
    ko.threads = 2;
    dsp_kcore_result kr = {0};
    if (CHECK(dsp_kcore(g, NULL, &ko, &kr, &err) == DSP_OK, "k-core %s: %s", dsp_backend_name(b), err.msg)) {
      CHECK(memcmp(kr.core, core, (size_t)und->n * sizeof *core) == 0 && kr.degeneracy == degeneracy,
            "k-core %s: core numbers differ from the oracle's", dsp_backend_name(b));
      CHECK(kr.backend == (b == DSP_BACKEND_AUTO ? DSP_BACKEND_CPU : b), "k-core ran on %s",
            dsp_backend_name(kr.backend));
    }
    dsp_kcore_result_free(&kr);
    dsp_tc_options to;
    dsp_tc_options_init(&to);
    to.backend = b;
    to.validate = 1;
    to.per_vertex = 1;
    dsp_tc_result tr = {0};
    if (CHECK(dsp_tc(g, NULL, &to, &tr, &err) == DSP_OK, "tc %s: %s", dsp_backend_name(b), err.msg))
      CHECK(tr.triangles == total && memcmp(tr.per_vertex, tri, (size_t)und->n * sizeof *tri) == 0,
            "tc %s: %llu triangles, the oracle's %llu", dsp_backend_name(b), (unsigned long long)tr.triangles,
            (unsigned long long)total);
    dsp_tc_result_free(&tr);
  }
  /* the caller's core array */
  dsp_kcore_result kr = {0};
  kr.core = malloc((size_t)und->n * sizeof *core);
  uint32_t *mine = kr.core;
  CHECK(dsp_kcore(g, NULL, NULL, &kr, &err) == DSP_OK && kr.core == mine, "k-core into the caller's array");
  dsp_kcore_result_free(&kr);
  free(mine);
  free(core);
  free(tri);
}

/* Threads sharing one graph, each its own sources. */
typedef struct {
  const dsp_graph *g;
  const ds_graph *ref;
  uint32_t source;
  int ok;
} worker;

static void *search(void *arg) {
  worker *w = (worker *)arg;
  dsp_sssp_options opt;
  dsp_sssp_options_init(&opt);
  opt.threads = 1;
  dsp_sssp_result r = {0};
  dsp_error err;
  void *want = dijkstra(w->ref, w->source, ds_sssp_dist_width(w->ref));
  ds_error e;
  w->ok = want != NULL && dsp_sssp(w->g, NULL, &w->source, 1, &opt, &r, &err) == DSP_OK &&
          ds_sssp_compare(w->ref, want, r.dist, ds_sssp_dist_width(w->ref), NULL, &e) == DS_OK;
  dsp_sssp_result_free(&r, 1);
  free(want);
  return NULL;
}

static void threads(const dsp_graph *g, const ds_graph *ref) {
  enum { THREADS = 4 };
  pthread_t t[THREADS];
  worker w[THREADS];
  for (int i = 0; i < THREADS; i++) {
    w[i] = (worker){g, ref, (uint32_t)((uint64_t)ref->n * i / THREADS), 0};
    REQUIRE(pthread_create(&t[i], NULL, search, &w[i]) == 0, "pthread_create");
  }
  for (int i = 0; i < THREADS; i++) {
    pthread_join(t[i], NULL);
    CHECK(w[i].ok, "thread %d: its search from %u differs from Dijkstra's", i, w[i].source);
  }
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s DATASETS_DIR\n", argv[0]);
    return 2;
  }
  scratch_make(scratch, sizeof scratch, "api_cpu");
  char rome[1024], delaunay[1024];
  snprintf(rome, sizeof rome, "%s/rome99.gr", argv[1]);
  snprintf(delaunay, sizeof delaunay, "%s/delaunay_n16.mtx.gz", argv[1]);
  dsp_graph *g = NULL, *again = NULL, *dg = NULL;
  ds_graph ref, und, dref;
  memset(&ref, 0, sizeof ref);
  memset(&und, 0, sizeof und);
  memset(&dref, 0, sizeof dref);
  dsp_graph *ug = NULL;
  dsp_graph_info info;
  dsp_load_options opt;
  dsp_load_options_init(&opt);
  opt.cache_dir = scratch;
  dsp_error err;
  /* the cache: written by the first load, read by the next (the undirected load below
     writes its own over it: the undirected option is part of what a cache records) */
  if (load_both(rome, 0, &g, &ref) &&
      CHECK(dsp_graph_load(rome, &opt, &again, &err) == DSP_OK, "again: %s", err.msg) &&
      CHECK(dsp_graph_describe(again, &info, &err) == DSP_OK, "describe: %s", err.msg))
    CHECK(info.cache == DSP_CACHE_HIT && info.vertices == ref.n && info.arcs == ref.m && info.index_base == 1 &&
              !info.undirected,
          "rome99 from its cache: cache %d, %u vertices, %llu arcs", (int)info.cache, info.vertices,
          (unsigned long long)info.arcs);
  if (g != NULL && load_both(rome, 1, &ug, &und) && load_both(delaunay, 0, &dg, &dref)) {
    sssp_cases(g, &ref, 7);
    sssp_cases(dg, &dref, 3);
    targets_cases(g, &ref);
    targets_cases(dg, &dref);
    wrapped(g, &ref);
    whole_graph(g, &und);  /* directed: every arc an edge, as loaded undirected */
    whole_graph(dg, &dref);
    threads(g, &ref);
  }
  dsp_graph_free(g);
  dsp_graph_free(ug);
  dsp_graph_free(again);
  dsp_graph_free(dg);
  ds_graph_free(&ref);
  ds_graph_free(&und);
  ds_graph_free(&dref);
  scratch_remove(scratch);
  return ds_test_finish("api_cpu");
}
