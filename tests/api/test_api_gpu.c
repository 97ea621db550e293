/* The GPU engines through the deltasplit C API against the same engines
 * called directly (ds_gpu_sssp, ds_kcore_gpu_run, ds_tc_gpu_run) on the same
 * graphs with the same parameters; the memory estimate against what an open
 * takes; a caller's stream; two contexts searching at once; contexts used
 * with the wrong graph or engine. Skipped (77) without a GPU.
 *
 * usage: test_api_gpu DATASETS_DIR */
#include "ds_test.h"

#include <math.h>
#include <pthread.h>
#include <stdint.h>

#include <cuda_runtime_api.h>
#include <deltasplit/deltasplit.h>

#include "ds/device.h"
#include "ds/graph.h"
#include "gpu_sssp.h"
#include "kcore.h"
#include "sssp.h"
#include "tc.h"

#include "api_test_util.h"

/* Every GPU algorithm from three sources: the API's result against
 * ds_gpu_sssp's with the parameters sssp would give it. */
static void sssp_against_engine(const dsp_graph *g, const ds_graph *ref, dsp_gpu *gpu) {
  const dsp_sssp_algo algos[] = {DSP_SSSP_AUTO, DSP_SSSP_MULTISPLIT, DSP_SSSP_NEAR_FAR, DSP_SSSP_SORT,
                                 DSP_SSSP_BELLMAN_FORD};
  const ds_algo engine[] = {DS_ALGO_MULTISPLIT, DS_ALGO_MULTISPLIT, DS_ALGO_NEAR_FAR, DS_ALGO_SORT,
                            DS_ALGO_BELLMAN_FORD};
  const uint32_t sources[] = {0, ref->n / 2, ref->n - 1};
  ds_gpu_ctx *ctx = NULL;
  ds_error e;
  REQUIRE(ds_gpu_open(0, ref, NULL, &ctx, &e) == DS_OK, "ds_gpu_open: %s", e.msg);
  const ds_dist_width w = ds_sssp_dist_width(ref);
  const size_t bytes = (size_t)ref->n * ds_dist_size(ref, w);
  void *want = malloc(bytes);
  uint32_t *pred = malloc((size_t)ref->n * sizeof *pred);
  for (size_t a = 0; a < sizeof algos / sizeof algos[0]; a++) {
    dsp_sssp_options opt;
    dsp_sssp_options_init(&opt);
    opt.algo = algos[a];
    opt.validate = 1;
    opt.predecessors = 1;
    dsp_sssp_result r[3];
    memset(r, 0, sizeof r);
    dsp_error err;
    if (!CHECK(dsp_sssp(g, gpu, sources, 3, &opt, r, &err) == DSP_OK, "%s: %s", dsp_sssp_algo_name(algos[a]),
               err.msg))
      continue;
    ds_sssp_params p;
    ds_sssp_params_default(&p);
    double delta = 0.0;
    const double run_delta = ds_delta_for_algos(ref, 0.0, &engine[a], 1, &delta);
    p.delta = delta > 0.0 ? delta : run_delta;
    p.buckets = ds_buckets_auto(ref, run_delta);
    p.want_pred = 1;
    p.dist_width = w;
    for (int i = 0; i < 3; i++) {
      ds_sssp_result er;
      memset(&er, 0, sizeof er);
      er.dist = want;
      er.pred = pred;
      if (!CHECK(ds_gpu_sssp(ctx, engine[a], sources[i], &p, &er, &e) == DS_OK, "ds_gpu_sssp: %s", e.msg)) continue;
      CHECK(memcmp(want, r[i].dist, bytes) == 0, "%s from %u on %s: distances differ from ds_gpu_sssp's",
            ds_algo_name(engine[a]), sources[i], ref->name);
      CHECK(r[i].reached == er.reached && r[i].reached_arcs == er.reached_arcs && r[i].delta == delta,
            "%s from %u: reached %u / %u, delta %g / %g", ds_algo_name(engine[a]), sources[i], r[i].reached,
            er.reached, r[i].delta, delta);
      CHECK(r[i].algo == (algos[a] == DSP_SSSP_AUTO ? DSP_SSSP_MULTISPLIT : algos[a]) && r[i].time_ms > 0.0,
            "ran as %s in %g ms", dsp_sssp_algo_name(r[i].algo), r[i].time_ms);
    }
    dsp_sssp_result_free(r, 3);
  }
  free(want);
  free(pred);
  ds_gpu_close(ctx);
}

/* Several sources batched (opt.batch on, and auto where the graph's rule
 * says so) against the same sources one after another: the same distances,
 * validated, with result.batched telling which ran; predecessors keep them one
 * by one. A result the caller gave keeps its array. */
static void batch_against_sequential(const dsp_graph *g, const ds_graph *ref, dsp_gpu *gpu) {
  enum { K = DS_GPU_BATCH_MIN_SOURCES }; /* as many as auto batches */
  uint32_t sources[K];
  for (uint32_t i = 0; i < K; i++) sources[i] = (uint32_t)(((uint64_t)i * 7919) % ref->n);
  const size_t bytes = (size_t)ref->n * ds_dist_size(ref, ds_sssp_dist_width(ref));
  const int pays = ds_gpu_batch_pays(ref, K);
  dsp_sssp_result one[K], all[K];
  memset(one, 0, sizeof one);
  memset(all, 0, sizeof all);
  void *mine = malloc(bytes);
  all[3].dist = mine;
  dsp_sssp_options opt;
  dsp_sssp_options_init(&opt);
  opt.validate = 1;
  dsp_error err;
  opt.batch = DSP_BATCH_OFF;
  REQUIRE(dsp_sssp(g, gpu, sources, K, &opt, one, &err) == DSP_OK, "one by one: %s", err.msg);
  for (int mode = DSP_BATCH_AUTO; mode <= DSP_BATCH_ON; mode++) {
    opt.batch = (dsp_sssp_batch)mode;
    if (!CHECK(dsp_sssp(g, gpu, sources, K, &opt, all, &err) == DSP_OK, "batch %d on %s: %s", mode, ref->name,
               err.msg))
      continue;
    const int want = mode == DSP_BATCH_ON || pays;
    for (int i = 0; i < K; i++) {
      CHECK(all[i].batched == want && one[i].batched == 0, "%s batch %d source %u: batched %d / %d", ref->name,
            mode, sources[i], all[i].batched, one[i].batched);
      /* batched under the automatic delta, the batch's own width; else the algorithm's */
      const double delta = want ? ds_gpu_batch_delta_auto(ref) : one[i].delta;
      CHECK(all[i].delta == delta, "%s batch %d source %u: delta %g, want %g", ref->name, mode, sources[i],
            all[i].delta, delta);
      CHECK(all[i].source == sources[i] && all[i].reached == one[i].reached &&
                all[i].reached_arcs == one[i].reached_arcs,
            "%s batch %d source %u: reached %u / %u", ref->name, mode, sources[i], all[i].reached, one[i].reached);
      if (ref->weight_type == DS_WEIGHT_U32)
        CHECK(memcmp(all[i].dist, one[i].dist, bytes) == 0, "%s batch %d source %u: distances differ", ref->name,
              mode, sources[i]);
    }
    CHECK(all[3].dist == mine, "the caller's array was replaced");
  }
  opt.batch = DSP_BATCH_ON;
  opt.predecessors = 1;
  dsp_sssp_result p[2];
  memset(p, 0, sizeof p);
  if (CHECK(dsp_sssp(g, gpu, sources, 2, &opt, p, &err) == DSP_OK, "with predecessors: %s", err.msg))
    CHECK(p[0].batched == 0 && p[0].pred != NULL, "with predecessors the searches run one by one");
  dsp_sssp_result_free(p, 2);
  dsp_sssp_result_free(one, K);
  dsp_sssp_result_free(all, K);
  free(mine);
}

/* k-core and triangles on the GPU: the API's against the engines' on und. */
/* Every GPU algorithm to targets (the vertex nearest the source, two far ones,
 * the source itself) against the CPU's full Dijkstra: validated (each
 * target's distance against Dijkstra's, its path arc by arc), the distances
 * compared here too, the paths read with dsp_sssp_path from the source to the
 * target. Near-Far stops early at the nearest vertex where the graph needs
 * more than one of its phases (require_stop: a road network); the bucket
 * engines and Bellman-Ford search to the end. */
static void targets_against_cpu(const dsp_graph *g, const ds_graph *ref, dsp_gpu *gpu, int require_stop) {
  const uint32_t source = 0;
  dsp_sssp_options opt;
  dsp_sssp_options_init(&opt);
  opt.algo = DSP_SSSP_DIJKSTRA;
  dsp_sssp_result full = {0};
  dsp_error err;
  REQUIRE(dsp_sssp(g, NULL, &source, 1, &opt, &full, &err) == DSP_OK, "dijkstra: %s", err.msg);
  uint32_t near = source == 0 ? 1 : 0;
  for (uint32_t v = 0; v < ref->n; v++)
    if (v != source && dsp_sssp_distance(&full, v) < dsp_sssp_distance(&full, near)) near = v;
  const uint32_t targets[] = {near, ref->n - 1, ref->n / 3, source};
  const uint32_t n_targets = sizeof targets / sizeof targets[0];
  const dsp_sssp_algo algos[] = {DSP_SSSP_MULTISPLIT, DSP_SSSP_NEAR_FAR, DSP_SSSP_SORT, DSP_SSSP_BELLMAN_FORD};
  uint32_t *path = malloc((size_t)ref->n * sizeof *path);
  for (size_t a = 0; a < sizeof algos / sizeof algos[0] && path != NULL; a++) {
    for (uint32_t k = 1; k <= n_targets; k += n_targets - 1) { /* the nearest alone, then all */
      dsp_sssp_options_init(&opt);
      opt.algo = algos[a];
      opt.validate = 1;
      opt.cpu_fallback = 0;
      opt.targets = targets;
      opt.n_targets = k;
      dsp_sssp_result r = {0};
      const char *name = dsp_sssp_algo_name(algos[a]);
      if (!CHECK(dsp_sssp(g, gpu, &source, 1, &opt, &r, &err) == DSP_OK, "%s to %u targets: %s", name, k,
                 err.msg))
        continue;
      if (algos[a] == DSP_SSSP_NEAR_FAR && k == 1 && require_stop)
        CHECK(r.stopped_early, "near-far to the nearest vertex %u: ran to the end", near);
      if (algos[a] != DSP_SSSP_NEAR_FAR)
        CHECK(!r.stopped_early, "%s: stopped early, which it does not do", name);
      for (uint32_t i = 0; i < k; i++) {
        const uint32_t t = targets[i];
        const double d = dsp_sssp_distance(&r, t), want = dsp_sssp_distance(&full, t);
        CHECK(d == want || fabs(d - want) <= 1e-5 * want, "%s: target %u at %g, Dijkstra says %g", name, t, d,
              want);
        uint32_t len = 0;
        if (CHECK(dsp_sssp_path(g, &r, t, path, ref->n, &len, &err) == DSP_OK, "%s: path to %u: %s", name, t,
                  err.msg))
          CHECK(isinf(want) ? len == 0 : len >= 1 && path[0] == source && path[len - 1] == t,
                "%s: the path to %u has %u vertices", name, t, len);
      }
      dsp_sssp_result_free(&r, 1);
    }
  }
  /* Near-Far to one target at a time, spread over the graph: exact each time,
     wherever in its bucket the search stops */
  enum { SPREAD = 24 };
  for (uint32_t i = 0; i < SPREAD; i++) {
    const uint32_t t = (uint32_t)(((uint64_t)i * 104729 + 17) % ref->n);
    dsp_sssp_options_init(&opt);
    opt.algo = DSP_SSSP_NEAR_FAR;
    opt.cpu_fallback = 0;
    opt.targets = &t;
    opt.n_targets = 1;
    dsp_sssp_result r = {0};
    if (!CHECK(dsp_sssp(g, gpu, &source, 1, &opt, &r, &err) == DSP_OK, "near-far to %u: %s", t, err.msg)) continue;
    const double d = dsp_sssp_distance(&r, t), want = dsp_sssp_distance(&full, t);
    CHECK(d == want || fabs(d - want) <= 1e-5 * want, "near-far to %u of %s: %g, Dijkstra says %g", t, ref->name, d,
          want);
    dsp_sssp_result_free(&r, 1);
  }
  free(path);
  dsp_sssp_result_free(&full, 1);
}

static void whole_graph_against_engine(const dsp_graph *g, const ds_graph *und, dsp_gpu *gpu) {
  ds_error e;
  dsp_error err;
  uint32_t *core = malloc((size_t)und->n * sizeof *core);
  uint64_t *tri = malloc((size_t)und->n * sizeof *tri), total = 0;
  ds_kcore_gpu *kc = NULL;
  ds_tc_gpu *tc = NULL;
  if (CHECK(ds_kcore_gpu_open(0, und, NULL, &kc, &e) == DS_OK && ds_kcore_gpu_run(kc, core, NULL, NULL, &e) == DS_OK,
            "k-core engine: %s", e.msg)) {
    dsp_kcore_options ko;
    dsp_kcore_options_init(&ko);
    ko.validate = 1;
    dsp_kcore_result kr = {0};
    if (CHECK(dsp_kcore(g, gpu, &ko, &kr, &err) == DSP_OK, "dsp_kcore: %s", err.msg))
      CHECK(kr.backend == DSP_BACKEND_GPU && memcmp(kr.core, core, (size_t)und->n * sizeof *core) == 0,
            "k-core of %s on %s: differs from ds_kcore_gpu_run's", und->name, dsp_backend_name(kr.backend));
    dsp_kcore_result_free(&kr);
  }
  if (CHECK(ds_tc_gpu_open(0, und, NULL, &tc, &e) == DS_OK && ds_tc_gpu_run(tc, &total, tri, NULL, NULL, &e) == DS_OK,
            "tc engine: %s", e.msg)) {
    dsp_tc_options to;
    dsp_tc_options_init(&to);
    to.validate = 1;
    to.per_vertex = 1;
    dsp_tc_result tr = {0};
    if (CHECK(dsp_tc(g, gpu, &to, &tr, &err) == DSP_OK, "dsp_tc: %s", err.msg))
      CHECK(tr.backend == DSP_BACKEND_GPU && tr.triangles == total &&
                memcmp(tr.per_vertex, tri, (size_t)und->n * sizeof *tri) == 0,
            "triangles of %s: %llu, ds_tc_gpu_run's %llu", und->name, (unsigned long long)tr.triangles,
            (unsigned long long)total);
    dsp_tc_result_free(&tr);
  }
  ds_kcore_gpu_close(kc);
  ds_tc_gpu_close(tc);
  free(core);
  free(tri);
}

/* What a context holds on the device after a run of each of its engines,
 * against dsp_gpu_bytes. The device gives memory in pages (2 MiB), so a
 * context of many small allocations holds more than their sum: up to
 * PAGE_SLACK. Run after every engine has run once in the process, so that the
 * modules the kernels load lazily are not counted as the context's. */
#define PAGE_SLACK ((size_t)32 << 20)
/* One measurement of what a context of these engines holds: the device's free
 * memory before it opens, after it has run every engine, and after it closes.
 * Returns 0 where the measurement is not the context's own: another process
 * on the device allocated or freed memory meanwhile (the free memory after the
 * close is not the one before it, within the page slack). */
static int held_once(const dsp_graph *g, const dsp_gpu_options *opt, size_t *held) {
  size_t before = 0, after = 0, closed = 0, total = 0;
  dsp_error err;
  dsp_gpu *gpu = NULL;
  if (!CHECK(cudaMemGetInfo(&before, &total) == cudaSuccess, "cudaMemGetInfo")) return 0;
  if (!CHECK(dsp_gpu_open(g, opt, &gpu, &err) == DSP_OK, "dsp_gpu_open: %s", err.msg)) return 0;
  uint32_t s = 0;
  dsp_sssp_result r = {0};
  dsp_kcore_result kr = {0};
  dsp_tc_result tr = {0};
  CHECK(!(opt->engines & DSP_ENGINE_SSSP) || dsp_sssp(g, gpu, &s, 1, NULL, &r, &err) == DSP_OK, "sssp: %s", err.msg);
  CHECK(!(opt->engines & DSP_ENGINE_KCORE) || dsp_kcore(g, gpu, NULL, &kr, &err) == DSP_OK, "k-core: %s", err.msg);
  CHECK(!(opt->engines & DSP_ENGINE_TC) || dsp_tc(g, gpu, NULL, &tr, &err) == DSP_OK, "tc: %s", err.msg);
  dsp_sssp_result_free(&r, 1);
  dsp_kcore_result_free(&kr);
  dsp_tc_result_free(&tr);
  if (!CHECK(cudaMemGetInfo(&after, &total) == cudaSuccess, "cudaMemGetInfo")) return 0;
  dsp_gpu_close(gpu);
  if (!CHECK(cudaMemGetInfo(&closed, &total) == cudaSuccess, "cudaMemGetInfo")) return 0;
  const size_t moved = closed > before ? closed - before : before - closed;
  if (after > before || moved > PAGE_SLACK) return 0;
  *held = before - after;
  return 1;
}

static void memory_estimate(const dsp_graph *g) {
  const unsigned masks[] = {DSP_ENGINE_SSSP, DSP_ENGINE_KCORE, DSP_ENGINE_TC, DSP_ENGINE_ALL};
  enum { TRIES = 5 };
  for (size_t i = 0; i < sizeof masks / sizeof masks[0]; i++) {
    dsp_gpu_options opt;
    dsp_gpu_options_init(&opt);
    opt.engines = masks[i];
    uint64_t estimate = 0;
    dsp_error err;
    REQUIRE(dsp_gpu_bytes(g, &opt, &estimate, &err) == DSP_OK, "dsp_gpu_bytes: %s", err.msg);
    /* Another process that allocates between a try's two readings and frees before its
     * last one inflates that try: the least of several quiet tries is this context's. */
    size_t held = SIZE_MAX;
    int measured = 0;
    for (int t = 0; t < TRIES && measured < 3; t++) {
      size_t h = 0;
      if (!held_once(g, &opt, &h)) continue;
      measured++;
      if (h < held) held = h;
    }
    if (measured == 0) {
      /* the device is shared (a soak, another user): only a quiet device measures */
      printf("engines %#x: estimate %.1f MiB, not measured: other processes moved the device's free memory "
             "in %d tries\n", masks[i], estimate / 1048576.0, TRIES);
      continue;
    }
    CHECK(held <= estimate + PAGE_SLACK, "engines %#x: the context holds %zu bytes, the estimate was %llu", masks[i],
          held, (unsigned long long)estimate);
    printf("engines %#x: estimate %.1f MiB, held %.1f MiB\n", masks[i], estimate / 1048576.0, held / 1048576.0);
  }
}

/* A graph that does not fit: each engine refuses it before allocating, with the
 * bytes, under a cap on the free memory the engines plan with (ds/device.h). */
static void does_not_fit(const dsp_graph *g) {
  const unsigned masks[] = {DSP_ENGINE_SSSP, DSP_ENGINE_KCORE, DSP_ENGINE_TC};
  /* 4 KiB: below any engine's need for the test graphs (rome99's CSR alone is 100 KB; at 1 MiB
     the k-core and triangle engines fit it) */
  ds_device_set_mem_cap((uint64_t)4 << 10);
  for (size_t i = 0; i < sizeof masks / sizeof masks[0]; i++) {
    dsp_gpu_options opt;
    dsp_gpu_options_init(&opt);
    opt.engines = masks[i];
    dsp_gpu *gpu = NULL;
    dsp_error err;
    dsp_status st = dsp_gpu_open(g, &opt, &gpu, &err);
    CHECK(st == DSP_ERR_DEVICE && gpu == NULL && strstr(err.msg, "does not fit") != NULL,
          "engines %#x under a 4 KiB cap: %s (%s)", masks[i], dsp_status_name(st), err.msg);
    dsp_gpu_close(gpu);
  }
  ds_device_set_mem_cap(0);
}

/* Contexts used with another graph, or for an engine they were not opened with. */
static void misuse(const dsp_graph *g, const dsp_graph *other) {
  dsp_gpu_options opt;
  dsp_gpu_options_init(&opt);
  opt.engines = DSP_ENGINE_SSSP;
  dsp_gpu *gpu = NULL;
  dsp_error err;
  REQUIRE(dsp_gpu_open(g, &opt, &gpu, &err) == DSP_OK, "dsp_gpu_open: %s", err.msg);
  uint32_t s = 0;
  dsp_sssp_result r = {0};
  dsp_kcore_result kr = {0};
  CHECK(dsp_sssp(other, gpu, &s, 1, NULL, &r, &err) == DSP_ERR_ARG, "a context over another graph: %s", err.msg);
  CHECK(dsp_kcore(g, gpu, NULL, &kr, &err) == DSP_ERR_ARG, "a context without k-core: %s", err.msg);
  dsp_gpu_close(gpu);
}

/* Two contexts on one device, each searching in its own thread, on a caller's stream. */
typedef struct {
  const dsp_graph *g;
  uint32_t source;
  cudaStream_t stream;
  dsp_status st;
  dsp_error err;
} worker;

static void *search(void *arg) {
  worker *w = (worker *)arg;
  dsp_gpu_options opt;
  dsp_gpu_options_init(&opt);
  opt.engines = DSP_ENGINE_SSSP;
  opt.stream = w->stream;
  dsp_gpu *gpu = NULL;
  dsp_sssp_options so;
  dsp_sssp_options_init(&so);
  so.validate = 1;
  dsp_sssp_result r[2];
  memset(r, 0, sizeof r);
  const uint32_t sources[2] = {w->source, 0};
  w->st = dsp_gpu_open(w->g, &opt, &gpu, &w->err);
  if (w->st == DSP_OK) w->st = dsp_sssp(w->g, gpu, sources, 2, &so, r, &w->err);
  dsp_sssp_result_free(r, 2);
  dsp_gpu_close(gpu);
  return NULL;
}

static void two_contexts(const dsp_graph *g, uint32_t n) {
  pthread_t t[2];
  worker w[2];
  for (int i = 0; i < 2; i++) {
    memset(&w[i], 0, sizeof w[i]);
    w[i].g = g;
    w[i].source = n / (i + 2);
    REQUIRE(cudaStreamCreate(&w[i].stream) == cudaSuccess, "cudaStreamCreate");
    REQUIRE(pthread_create(&t[i], NULL, search, &w[i]) == 0, "pthread_create");
  }
  for (int i = 0; i < 2; i++) {
    pthread_join(t[i], NULL);
    CHECK(w[i].st == DSP_OK, "context %d: %s", i, w[i].err.msg);
    cudaStreamDestroy(w[i].stream);
  }
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s DATASETS_DIR\n", argv[0]);
    return 2;
  }
  char reason[256];
  if (dsp_gpu_count(reason, sizeof reason) == 0) return ds_test_skip("no GPU: %s", reason);
  scratch_make(scratch, sizeof scratch, "api_gpu");
  const char *names[] = {"rome99.gr", "NY.mtx.gz", "delaunay_n16.mtx.gz"};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", argv[1], names[i]);
    dsp_graph *g = NULL, *ug = NULL;
    ds_graph ref, und;
    memset(&ref, 0, sizeof ref);
    memset(&und, 0, sizeof und);
    dsp_gpu *gpu = NULL;
    dsp_error err;
    if (load_both(path, 0, &g, &ref) && load_both(path, 1, &ug, &und) &&
        CHECK(dsp_gpu_open(g, NULL, &gpu, &err) == DSP_OK, "%s: dsp_gpu_open: %s", names[i], err.msg)) {
      printf("%s: %u vertices, %llu arcs\n", names[i], ref.n, (unsigned long long)ref.m);
      sssp_against_engine(g, &ref, gpu);
      batch_against_sequential(g, &ref, gpu);
      targets_against_cpu(g, &ref, gpu, i == 1);
      whole_graph_against_engine(g, &und, gpu);
      if (i == 1) memory_estimate(g); /* a road network of 264,346 vertices */
      if (i == 0) {
        misuse(g, ug);
        two_contexts(g, ref.n);
        does_not_fit(g);
      }
    }
    dsp_gpu_close(gpu);
    dsp_graph_free(g);
    dsp_graph_free(ug);
    ds_graph_free(&ref);
    ds_graph_free(&und);
  }
  scratch_remove(scratch);
  return ds_test_finish("api_gpu");
}
