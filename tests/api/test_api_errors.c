/* The error paths of the deltasplit C API, none of which needs a GPU: NULL
 * arguments, bad files, bad sources, bad options, CSR arrays that break the
 * rules, distances beyond their type, GPU calls without a GPU; every failure
 * with its status, the programs' exit code and a message, every success with
 * an empty one.
 *
 * usage: test_api_errors DATASETS_DIR */
#include "ds_test.h"

#include <math.h>

#include <deltasplit/deltasplit.h>

/* A call's status and message: the code expected, a message that says
 * something (or none after success). */
#define EXPECT(call, want, err)                                                                  \
  do {                                                                                           \
    dsp_status got_ = (call);                                                                    \
    CHECK(got_ == (want), "%s: %s (%s), expected %s", #call, dsp_status_name(got_), (err).msg,   \
          dsp_status_name(want));                                                                \
    CHECK(((want) == DSP_OK) == ((err).msg[0] == '\0'), "%s: message '%s'", #call, (err).msg);    \
  } while (0)

/* A 4-vertex path 0 -> 1 -> 2 -> 3 (weights w01, w12, w23) and an isolated vertex. */
static const uint64_t PATH_ROWS[] = {0, 1, 2, 3, 3, 3};
static const uint32_t PATH_COLS[] = {1, 2, 3};

static dsp_csr path_csr(const void *weights, dsp_weight_type wt) {
  dsp_csr c = {5, 3, PATH_ROWS, PATH_COLS, weights, wt, 0, 0, "path"};
  return c;
}

static void statuses(void) {
  const struct {
    dsp_status st;
    int exit_code;
  } table[] = {{DSP_OK, 0},           {DSP_ERR_ARG, 1},        {DSP_ERR_IO, 2},
               {DSP_ERR_FORMAT, 2},   {DSP_ERR_UNSUPPORTED, 2}, {DSP_ERR_VALIDATION, 3},
               {DSP_ERR_DEVICE, 4},   {DSP_ERR_NO_CUDA, 4},     {DSP_ERR_NOMEM, 5},
               {DSP_ERR_RANGE, 6}};
  for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
    CHECK(dsp_status_exit_code(table[i].st) == table[i].exit_code, "%s: exit code %d, expected %d",
          dsp_status_name(table[i].st), dsp_status_exit_code(table[i].st), table[i].exit_code);
    CHECK(strcmp(dsp_status_name(table[i].st), "unknown status") != 0, "status %d has no name",
          (int)table[i].st);
  }
  CHECK(dsp_status_exit_code((dsp_status)99) == 5, "an unknown status is an internal error");
  CHECK(dsp_version() == DELTASPLIT_VERSION, "library %d, headers %d", dsp_version(), DELTASPLIT_VERSION);
#ifdef DSP_TEST_CUDA
  CHECK(dsp_built_with_cuda() == 1, "a CUDA build says it has no CUDA");
#else
  CHECK(dsp_built_with_cuda() == 0, "a CPU build says it has CUDA");
#endif
}

static void null_arguments(const dsp_graph *g) {
  dsp_error err;
  dsp_graph *out = NULL;
  dsp_graph_info info;
  uint32_t source = 0;
  dsp_sssp_result r = {0};
  dsp_kcore_result kr = {0};
  dsp_tc_result tr = {0};
  dsp_gpu *gpu = NULL;
  uint64_t bytes = 0;
  EXPECT(dsp_graph_load(NULL, NULL, &out, &err), DSP_ERR_ARG, err);
  EXPECT(dsp_graph_load("x.mtx", NULL, NULL, &err), DSP_ERR_ARG, err);
  EXPECT(dsp_graph_wrap_csr(NULL, &out, &err), DSP_ERR_ARG, err);
  EXPECT(dsp_graph_describe(NULL, &info, &err), DSP_ERR_ARG, err);
  EXPECT(dsp_graph_describe(g, NULL, &err), DSP_ERR_ARG, err);
  EXPECT(dsp_sssp(NULL, NULL, &source, 1, NULL, &r, &err), DSP_ERR_ARG, err);
  EXPECT(dsp_sssp(g, NULL, NULL, 1, NULL, &r, &err), DSP_ERR_ARG, err);
  EXPECT(dsp_sssp(g, NULL, &source, 1, NULL, NULL, &err), DSP_ERR_ARG, err);
  EXPECT(dsp_sssp(g, NULL, &source, 0, NULL, &r, &err), DSP_ERR_ARG, err);
  EXPECT(dsp_kcore(NULL, NULL, NULL, &kr, &err), DSP_ERR_ARG, err);
  EXPECT(dsp_kcore(g, NULL, NULL, NULL, &err), DSP_ERR_ARG, err);
  EXPECT(dsp_tc(NULL, NULL, NULL, &tr, &err), DSP_ERR_ARG, err);
  EXPECT(dsp_tc(g, NULL, NULL, NULL, &err), DSP_ERR_ARG, err);
  EXPECT(dsp_gpu_open(NULL, NULL, &gpu, &err), DSP_ERR_ARG, err);
  EXPECT(dsp_gpu_open(g, NULL, NULL, &err), DSP_ERR_ARG, err);
  EXPECT(dsp_gpu_bytes(NULL, NULL, &bytes, &err), DSP_ERR_ARG, err);
  EXPECT(dsp_gpu_bytes(g, NULL, NULL, &err), DSP_ERR_ARG, err);
  /* a NULL error is allowed everywhere */
  CHECK(dsp_sssp(g, NULL, NULL, 1, NULL, &r, NULL) == DSP_ERR_ARG, "dsp_sssp without err");
  CHECK(dsp_sssp_dist_bytes(NULL, NULL) == 0, "dsp_sssp_dist_bytes(NULL)");
  CHECK(isnan(dsp_sssp_distance(NULL, 0)), "dsp_sssp_distance(NULL)");
  dsp_graph_free(NULL);
  dsp_gpu_close(NULL);
  dsp_sssp_result_free(NULL, 1);
  dsp_kcore_result_free(NULL);
  dsp_tc_result_free(NULL);
}

static void bad_files(const char *data) {
  char dir[512], path[1024];
  dsp_error err;
  dsp_graph *g = NULL;
  scratch_make(dir, sizeof dir, "api_errors");
  snprintf(path, sizeof path, "%s/missing.mtx", dir);
  EXPECT(dsp_graph_load(path, NULL, &g, &err), DSP_ERR_IO, err);
  CHECK(g == NULL && strstr(err.msg, "missing.mtx") != NULL, "the message names the file: %s", err.msg);
  CHECK(dsp_status_exit_code(DSP_ERR_IO) == 2, "a missing file is exit code 2");
  EXPECT(dsp_graph_load(dir, NULL, &g, &err), DSP_ERR_IO, err);
  const struct {
    const char *name, *text;
    dsp_status want;
    const char *says;
  } cases[] = {
      {"range.mtx", "%%MatrixMarket matrix coordinate integer general\n3 3 1\n1 4 7\n", DSP_ERR_FORMAT,
       "range.mtx:3"},
      {"complex.mtx", "%%MatrixMarket matrix coordinate complex general\n2 2 1\n1 2 1 1\n",
       DSP_ERR_UNSUPPORTED, "complex"},
      {"short.gr", "p sp 3 2\na 1 2 5\n", DSP_ERR_FORMAT, "short.gr"},
      {"negative.wel", "0 1 -3\n", DSP_ERR_FORMAT, "negative.wel:1"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    snprintf(path, sizeof path, "%s/%s", dir, cases[i].name);
    write_bytes(path, cases[i].text, strlen(cases[i].text));
    dsp_status st = dsp_graph_load(path, NULL, &g, &err);
    CHECK(st == cases[i].want, "%s: %s (%s), expected %s", cases[i].name, dsp_status_name(st), err.msg,
          dsp_status_name(cases[i].want));
    CHECK(strstr(err.msg, cases[i].says) != NULL, "%s: the message '%s' does not say '%s'", cases[i].name,
          err.msg, cases[i].says);
    CHECK(g == NULL, "%s: a graph after a failed load", cases[i].name);
  }
  dsp_load_options opt;
  dsp_load_options_init(&opt);
  opt.weight_min = 9;
  opt.weight_max = 2;
  snprintf(path, sizeof path, "%s/rome99.gr", data);
  EXPECT(dsp_graph_load(path, &opt, &g, &err), DSP_ERR_ARG, err);
  dsp_load_options_init(&opt);
  opt.format = (dsp_format)99;
  EXPECT(dsp_graph_load(path, &opt, &g, &err), DSP_ERR_ARG, err);
  scratch_remove(dir);
}

static void bad_csr(void) {
  const uint32_t w3[] = {1, 2, 3};
  const float fneg[] = {1.0f, -2.0f, 3.0f}, fnan[] = {1.0f, NAN, 3.0f};
  const uint64_t rows_short[] = {0, 1, 2, 3, 3, 2};  /* does not end at m */
  const uint64_t rows_down[] = {0, 2, 1, 3, 3, 3};   /* goes down */
  const uint32_t cols_loop[] = {1, 2, 2};            /* 2 -> 2 */
  const uint32_t cols_far[] = {1, 2, 9};             /* beyond 5 vertices */
  const uint64_t rows_two[] = {0, 2, 2, 3, 3, 3};
  const uint32_t cols_unsorted[] = {2, 1, 3};        /* row 0: 2 then 1 */
  const uint32_t cols_repeat[] = {1, 1, 3};
  struct {
    const char *what;
    dsp_csr c;
  } cases[] = {
      {"NULL offsets", {5, 3, NULL, PATH_COLS, w3, DSP_WEIGHT_U32, 0, 0, NULL}},
      {"NULL columns", {5, 3, PATH_ROWS, NULL, w3, DSP_WEIGHT_U32, 0, 0, NULL}},
      {"NULL weights", {5, 3, PATH_ROWS, PATH_COLS, NULL, DSP_WEIGHT_U32, 0, 0, NULL}},
      {"offsets short of m", {5, 3, rows_short, PATH_COLS, w3, DSP_WEIGHT_U32, 0, 0, NULL}},
      {"offsets going down", {5, 3, rows_down, PATH_COLS, w3, DSP_WEIGHT_U32, 0, 0, NULL}},
      {"a self loop", {5, 3, PATH_ROWS, cols_loop, w3, DSP_WEIGHT_U32, 0, 0, NULL}},
      {"a column out of range", {5, 3, PATH_ROWS, cols_far, w3, DSP_WEIGHT_U32, 0, 0, NULL}},
      {"an unsorted row", {5, 3, rows_two, cols_unsorted, w3, DSP_WEIGHT_U32, 0, 0, NULL}},
      {"a repeated arc", {5, 3, rows_two, cols_repeat, w3, DSP_WEIGHT_U32, 0, 0, NULL}},
      {"a negative weight", {5, 3, PATH_ROWS, PATH_COLS, fneg, DSP_WEIGHT_F32, 0, 0, NULL}},
      {"a NaN weight", {5, 3, PATH_ROWS, PATH_COLS, fnan, DSP_WEIGHT_F32, 0, 0, NULL}},
      {"undirected without reverse arcs", {5, 3, PATH_ROWS, PATH_COLS, w3, DSP_WEIGHT_U32, 1, 0, NULL}},
      {"index base 2", {5, 3, PATH_ROWS, PATH_COLS, w3, DSP_WEIGHT_U32, 0, 2, NULL}},
      {"weight type 7", {5, 3, PATH_ROWS, PATH_COLS, w3, (dsp_weight_type)7, 0, 0, NULL}},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    dsp_graph *g = NULL;
    dsp_error err;
    dsp_status st = dsp_graph_wrap_csr(&cases[i].c, &g, &err);
    CHECK(st == DSP_ERR_ARG && g == NULL && err.msg[0] != '\0', "%s: %s (%s)", cases[i].what,
          dsp_status_name(st), err.msg);
  }
}

static void bad_sources_and_options(const dsp_graph *g, const dsp_graph *fg) {
  dsp_error err;
  dsp_sssp_options opt;
  dsp_sssp_result r = {0};
  uint32_t source = 5;
  EXPECT(dsp_sssp(g, NULL, &source, 1, NULL, &r, &err), DSP_ERR_ARG, err);
  CHECK(strstr(err.msg, "source 5 is out of range") != NULL, "the message names the source: %s", err.msg);
  CHECK(r.dist == NULL, "a failed search left an array behind");
  source = 0;
  const uint32_t batch[] = {0, 1, 77};
  dsp_sssp_result three[3];
  memset(three, 0, sizeof three);
  EXPECT(dsp_sssp(g, NULL, batch, 3, NULL, three, &err), DSP_ERR_ARG, err);
  CHECK(three[0].dist != NULL && three[1].dist != NULL && three[2].dist == NULL,
        "a batch that fails at its third source keeps the first two results");
  dsp_sssp_result_free(three, 3);
  CHECK(three[0].dist == NULL && three[1].dist == NULL, "dsp_sssp_result_free");
  const struct {
    const char *what;
    double delta;
    uint32_t buckets;
    int algo, threads, width, batch;
  } cases[] = {{"delta -1", -1.0, 0, DSP_SSSP_CPU_DELTA, 0, 0, 0},
               {"delta NaN", NAN, 0, DSP_SSSP_CPU_DELTA, 0, 0, 0},
               {"delta inf", INFINITY, 0, DSP_SSSP_CPU_DELTA, 0, 0, 0},
               {"buckets 1", 0.0, 1, DSP_SSSP_CPU_DELTA, 0, 0, 0},
               {"buckets 257", 0.0, 257, DSP_SSSP_MULTISPLIT, 0, 0, 0},
               {"algorithm 99", 0.0, 0, 99, 0, 0, 0},
               {"threads -1", 0.0, 0, DSP_SSSP_DIJKSTRA, -1, 0, 0},
               {"width 9", 0.0, 0, DSP_SSSP_DIJKSTRA, 0, 9, 0},
               {"batch 3", 0.0, 0, DSP_SSSP_DIJKSTRA, 0, 0, 3},
               {"batch -1", 0.0, 0, DSP_SSSP_DIJKSTRA, 0, 0, -1}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    dsp_sssp_options_init(&opt);
    opt.delta = cases[i].delta;
    opt.buckets = cases[i].buckets;
    opt.algo = (dsp_sssp_algo)cases[i].algo;
    opt.threads = cases[i].threads;
    opt.width = (dsp_dist_width)cases[i].width;
    opt.batch = (dsp_sssp_batch)cases[i].batch;
    dsp_status st = dsp_sssp(g, NULL, &source, 1, &opt, &r, &err);
    CHECK(st == DSP_ERR_ARG && err.msg[0] != '\0', "%s: %s (%s)", cases[i].what, dsp_status_name(st), err.msg);
  }
  dsp_sssp_options_init(&opt);
  opt.width = DSP_WIDTH_WIDE;
  EXPECT(dsp_sssp(fg, NULL, &source, 1, &opt, &r, &err), DSP_ERR_ARG, err);
  CHECK(dsp_sssp_dist_bytes(fg, &opt) == 0, "no wide distances of float weights");
  // whole-graph options
  dsp_kcore_options ko;
  dsp_kcore_options_init(&ko);
  dsp_kcore_result kr = {0};
  ko.backend = (dsp_backend)9;
  EXPECT(dsp_kcore(g, NULL, &ko, &kr, &err), DSP_ERR_ARG, err);
  ko.backend = DSP_BACKEND_CPU;
  ko.threads = -2;
  EXPECT(dsp_kcore(g, NULL, &ko, &kr, &err), DSP_ERR_ARG, err);
  dsp_tc_options to;
  dsp_tc_options_init(&to);
  dsp_tc_result tr = {0};
  to.backend = (dsp_backend)9;
  EXPECT(dsp_tc(g, NULL, &to, &tr, &err), DSP_ERR_ARG, err);
  // GPU options
  dsp_gpu_options go;
  dsp_gpu *gpu = NULL;
  uint64_t bytes = 0;
  dsp_gpu_options_init(&go);
  go.engines = 0;
  EXPECT(dsp_gpu_bytes(g, &go, &bytes, &err), DSP_ERR_ARG, err);
  EXPECT(dsp_gpu_open(g, &go, &gpu, &err), DSP_ERR_ARG, err);
  go.engines = 8;
  EXPECT(dsp_gpu_open(g, &go, &gpu, &err), DSP_ERR_ARG, err);
  dsp_gpu_options_init(&go);
  go.tc_intersect = (dsp_tc_intersect)9;
  EXPECT(dsp_gpu_open(g, &go, &gpu, &err), DSP_ERR_ARG, err);
  dsp_gpu_options_init(&go);
  go.device = -1;
  EXPECT(dsp_gpu_open(g, &go, &gpu, &err), DSP_ERR_ARG, err);
  CHECK(gpu == NULL, "a context after a failed open");
}

/* GPU engines asked for without a GPU context: the fallback, or the status. */
static void without_gpu(const dsp_graph *g) {
  const dsp_status no_gpu = dsp_built_with_cuda() ? DSP_ERR_DEVICE : DSP_ERR_NO_CUDA;
  dsp_error err;
  dsp_sssp_options opt;
  dsp_sssp_options_init(&opt);
  opt.algo = DSP_SSSP_NEAR_FAR;
  uint32_t source = 0;
  dsp_sssp_result r = {0};
  EXPECT(dsp_sssp(g, NULL, &source, 1, &opt, &r, &err), DSP_OK, err);
  CHECK(r.algo == DSP_SSSP_CPU_DELTA, "near-far without a GPU ran as %s", dsp_sssp_algo_name(r.algo));
  dsp_sssp_result_free(&r, 1);
  opt.cpu_fallback = 0;
  EXPECT(dsp_sssp(g, NULL, &source, 1, &opt, &r, &err), no_gpu, err);
  dsp_kcore_options ko;
  dsp_kcore_options_init(&ko);
  ko.backend = DSP_BACKEND_GPU;
  dsp_kcore_result kr = {0};
  EXPECT(dsp_kcore(g, NULL, &ko, &kr, &err), no_gpu, err);
  dsp_tc_options to;
  dsp_tc_options_init(&to);
  to.backend = DSP_BACKEND_GPU;
  dsp_tc_result tr = {0};
  EXPECT(dsp_tc(g, NULL, &to, &tr, &err), no_gpu, err);
  /* opening a context: without CUDA, or without a device */
  dsp_gpu *gpu = NULL;
  uint64_t bytes = 0;
  char reason[256];
  if (!dsp_built_with_cuda()) {
    EXPECT(dsp_gpu_open(g, NULL, &gpu, &err), DSP_ERR_NO_CUDA, err);
    EXPECT(dsp_gpu_bytes(g, NULL, &bytes, &err), DSP_ERR_NO_CUDA, err);
    CHECK(dsp_gpu_count(reason, sizeof reason) == 0 && reason[0] != '\0', "no devices, with a reason");
  } else if (dsp_gpu_count(reason, sizeof reason) == 0) {
    EXPECT(dsp_gpu_open(g, NULL, &gpu, &err), DSP_ERR_DEVICE, err);
    EXPECT(dsp_gpu_bytes(g, NULL, &bytes, &err), DSP_OK, err);
    CHECK(bytes > 0, "the memory estimate is 0");
  }
  dsp_gpu_options go;
  dsp_gpu_options_init(&go);
  go.device = 4096;
  EXPECT(dsp_gpu_open(g, &go, &gpu, &err), dsp_built_with_cuda() && dsp_gpu_count(NULL, 0) > 0
                                               ? DSP_ERR_ARG : dsp_built_with_cuda() ? DSP_ERR_DEVICE
                                                                                     : DSP_ERR_NO_CUDA, err);
}

/* A distance beyond 32 bits: refused at the natural width, exact at the wide one. */
static void range(void) {
  const uint32_t heavy[] = {0xFFFFFFF0u, 0xFFFFFFF0u, 1};
  dsp_csr c = path_csr(heavy, DSP_WEIGHT_U32);
  dsp_graph *g = NULL;
  dsp_error err;
  REQUIRE(dsp_graph_wrap_csr(&c, &g, &err) == DSP_OK, "wrap: %s", err.msg);
  dsp_sssp_options opt;
  dsp_sssp_options_init(&opt);
  opt.algo = DSP_SSSP_DIJKSTRA;
  opt.width = DSP_WIDTH_NATURAL;
  uint32_t source = 0;
  dsp_sssp_result r = {0};
  EXPECT(dsp_sssp(g, NULL, &source, 1, &opt, &r, &err), DSP_ERR_RANGE, err);
  CHECK(dsp_status_exit_code(DSP_ERR_RANGE) == 6, "exit code 6");
  opt.width = DSP_WIDTH_AUTO;
  opt.validate = 1;
  EXPECT(dsp_sssp(g, NULL, &source, 1, &opt, &r, &err), DSP_OK, err);
  CHECK(r.dist_type == DSP_DIST_U64 && dsp_sssp_distance(&r, 3) == 2.0 * 0xFFFFFFF0u + 1 &&
            isinf(dsp_sssp_distance(&r, 4)),
        "wide distances: type %d, d(3) %g, d(4) %g", (int)r.dist_type, dsp_sssp_distance(&r, 3),
        dsp_sssp_distance(&r, 4));
  dsp_sssp_result_free(&r, 1);
  dsp_graph_free(g);
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s DATASETS_DIR\n", argv[0]);
    return 2;
  }
  const uint32_t w[] = {4, 5, 6};
  const float fw[] = {0.5f, 1.5f, 2.5f};
  dsp_csr c = path_csr(w, DSP_WEIGHT_U32), fc = path_csr(fw, DSP_WEIGHT_F32);
  dsp_graph *g = NULL, *fg = NULL;
  dsp_error err;
  if (dsp_graph_wrap_csr(&c, &g, &err) != DSP_OK || dsp_graph_wrap_csr(&fc, &fg, &err) != DSP_OK) {
    FAIL("wrapping the test graphs: %s", err.msg);
    return ds_test_finish("api_errors");
  }
  statuses();
  null_arguments(g);
  bad_files(argv[1]);
  bad_csr();
  bad_sources_and_options(g, fg);
  without_gpu(g);
  range();
  dsp_graph_free(g);
  dsp_graph_free(fg);
  return ds_test_finish("api_errors");
}
