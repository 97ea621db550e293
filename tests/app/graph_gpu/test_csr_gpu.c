/* The GPU CSR build (ds_csr_build_gpu) against ds_csr_build, arc for arc and
 * weight for weight: seeded random edge lists (repeated edges with different
 * weights, self loops, integer, float with -0, and pattern weights of every
 * distribution; directed and symmetric), an empty list, no vertices, and bad
 * edges (the same error as the CPU build), then, but with --quick, every test
 * graph file and bundled dataset loaded through the loader's builder hook
 * (directed and made undirected; pattern files with every weight
 * distribution). The CSRs are compared whole. --sanitize: four random lists
 * alone (for racecheck's pace). Exits 77 where no CUDA device is present.
 *
 *   test_csr_gpu [--quick | --sanitize] [--datasets DIR] [--data DIR]
 */
#include "ds_test.h" /* first: it sets the feature macros */

#include <cuda_runtime_api.h>

#include "ds/csr_gpu.h"
#include "ds/graph.h"
#include "ds/rng.h"

static const char *const FILES[] = {"tiny.mtx", "tiny.wel", "tiny_pattern.mtx", "tiny_real.mtx",
                                    "k4_tail.el", "wide_arc.mtx"};
static const char *const DATASETS[] = {"rome99.gr", "NY.mtx.gz", "delaunay_n16.mtx.gz",
                                       "luxembourg_osm.mtx.gz", "BAY.mtx.gz", "COL.mtx.gz"};

static int same_graph(const ds_graph *a, const ds_graph *b, const char *what) {
  if (!CHECK(a->n == b->n && a->m == b->m, "%s: gpu %u vertices %llu arcs, cpu %u and %llu", what,
             b->n, (unsigned long long)b->m, a->n, (unsigned long long)a->m))
    return 0;
  int ok = CHECK(a->weight_type == b->weight_type && a->symmetric == b->symmetric &&
                     a->weights_generated == b->weights_generated &&
                     a->weight_dist == b->weight_dist,
                 "%s: descriptions differ", what);
  ok &= CHECK(memcmp(a->row_offsets, b->row_offsets, 8 * ((size_t)a->n + 1)) == 0,
              "%s: row offsets differ", what);
  ok &= CHECK(a->m == 0 || memcmp(a->col, b->col, 4 * (size_t)a->m) == 0, "%s: columns differ",
              what);
  ok &= CHECK(a->m == 0 || memcmp(a->weights, b->weights, 4 * (size_t)a->m) == 0,
              "%s: weights differ", what);
  return ok;
}

/* Pattern weights of dist over 3..900 (uniform) or 3..2^24 (the heavy-tailed
 * ones, whose octaves and modes need a wide range). */
static void compare_lists(const ds_edge_list *e, ds_weight_dist dist, const char *what) {
  for (int sym = 0; sym < 2; sym++) {
    ds_load_options opt;
    ds_load_options_default(&opt);
    opt.weight_min = 3;
    opt.weight_max = dist == DS_WEIGHTS_UNIFORM ? 900 : 1u << 24;
    opt.weight_dist = dist;
    opt.seed = 77;
    ds_graph cpu, gpu;
    ds_error ecpu, egpu;
    const ds_status scpu = ds_csr_build(e, sym, &opt, &cpu, &ecpu);
    const ds_status sgpu = ds_csr_build_gpu(0, e, sym, &opt, &gpu, &egpu);
    if (!CHECK(scpu == sgpu, "%s sym %d: gpu status %d (%s), cpu %d (%s)", what, sym, (int)sgpu,
               egpu.msg, (int)scpu, ecpu.msg))
      continue;
    if (scpu != DS_OK) CHECK(strcmp(ecpu.msg, egpu.msg) == 0, "%s: '%s' vs '%s'", what, egpu.msg,
                             ecpu.msg);
    else same_graph(&cpu, &gpu, what);
    ds_graph_free(&cpu);
    ds_graph_free(&gpu);
  }
}

/* n vertices, count edges drawn with repeats and self loops; kind 0: u32
 * weights, 1: float (some -0), 2, 3, 4: pattern, uniform, log, bimodal. */
static void random_lists(uint64_t seeds) {
  char what[96];
  for (uint64_t seed = 1; seed <= seeds; seed++) {
    const uint32_t n = 1 + (uint32_t)(seed * 37 % 3000);
    const uint64_t count = seed * 5003 % 40000;
    uint32_t *src = malloc((count + 1) * 4), *dst = malloc((count + 1) * 4);
    uint32_t *w = malloc((count + 1) * 4);
    float *f = malloc((count + 1) * sizeof *f);
    if (!CHECK(src && dst && w && f, "no memory")) return;
    uint64_t s = seed;
    for (uint64_t i = 0; i < count; i++) {
      src[i] = (uint32_t)(ds_splitmix64_next(&s) % n);
      dst[i] = i % 5 == 0 ? src[i] : (uint32_t)(ds_splitmix64_next(&s) % n);
      w[i] = (uint32_t)(ds_splitmix64_next(&s) % 50);
      f[i] = w[i] == 0 ? -0.0f : (float)w[i] / 7.0f;
    }
    for (int kind = 0; kind < 2 + DS_WEIGHT_DISTS; kind++) {
      ds_edge_list e = {n, count, src, dst, kind == 1 ? DS_WEIGHT_F32 : DS_WEIGHT_U32,
                        kind == 0 ? (const void *)w : kind == 1 ? (const void *)f : NULL};
      const ds_weight_dist dist = kind < 2 ? DS_WEIGHTS_UNIFORM : (ds_weight_dist)(kind - 2);
      snprintf(what, sizeof what, "random n=%u count=%llu kind %d", n, (unsigned long long)count,
               kind);
      compare_lists(&e, dist, what);
    }
    if (count > 0) { /* bad edges: an id out of range, then a negative weight */
      ds_edge_list e = {n, count, src, dst, DS_WEIGHT_F32, f};
      src[count / 2] = n;
      compare_lists(&e, DS_WEIGHTS_UNIFORM, "an id out of range");
      src[count / 2] = 0;
      f[count / 3] = -1.0f;
      compare_lists(&e, DS_WEIGHTS_UNIFORM, "a negative weight");
    }
    free(src);
    free(dst);
    free(w);
    free(f);
  }
  const uint32_t one = 0;
  ds_edge_list empty = {5, 0, &one, &one, DS_WEIGHT_U32, NULL};
  compare_lists(&empty, DS_WEIGHTS_UNIFORM, "no edges");
  ds_edge_list none = {0, 0, &one, &one, DS_WEIGHT_U32, NULL};
  compare_lists(&none, DS_WEIGHTS_UNIFORM, "no vertices");
}

static ds_status build_on_gpu(void *ctx, const ds_edge_list *edges, int symmetric,
                              const ds_load_options *opt, ds_graph *g, ds_error *err) {
  (void)ctx;
  return ds_csr_build_gpu(0, edges, symmetric, opt, g, err);
}

static void files(const char *dir, const char *const *names, size_t count) {
  char path[4096];
  for (size_t i = 0; i < count; i++) {
    snprintf(path, sizeof path, "%s/%s", dir, names[i]);
    for (int run = 0; run < 2 * DS_WEIGHT_DISTS; run++) {
      const int undirected = run % 2;
      const ds_weight_dist dist = (ds_weight_dist)(run / 2);
      ds_load_options opt;
      ds_load_options_default(&opt);
      opt.use_cache = 0;
      opt.progress = 0;
      opt.undirected = undirected;
      if (dist != DS_WEIGHTS_UNIFORM) /* the heavy-tailed road graphs of bench/sssp */
        opt.weight_max = 1u << 24, opt.weight_dist = dist;
      ds_graph cpu, gpu;
      ds_error err;
      if (!CHECK(ds_graph_load(path, &opt, &cpu, &err) == DS_OK, "%s: %s", path, err.msg)) continue;
      if (dist != DS_WEIGHTS_UNIFORM && !cpu.weights_generated) { /* the file's weights */
        ds_graph_free(&cpu);
        continue;
      }
      opt.csr_build = build_on_gpu;
      if (CHECK(ds_graph_load(path, &opt, &gpu, &err) == DS_OK, "%s gpu: %s", path, err.msg))
        same_graph(&cpu, &gpu, names[i]);
      ds_graph_free(&cpu);
      ds_graph_free(&gpu);
    }
  }
}

int main(int argc, char **argv) {
  const char *datasets = NULL, *data = NULL;
  int quick = 0, sanitize = 0;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--quick") == 0) quick = 1;
    else if (strcmp(argv[i], "--sanitize") == 0) quick = sanitize = 1;
    else if (strcmp(argv[i], "--datasets") == 0 && i + 1 < argc) datasets = argv[++i];
    else if (strcmp(argv[i], "--data") == 0 && i + 1 < argc) data = argv[++i];
    else {
      fprintf(stderr, "usage: %s [--quick | --sanitize] [--datasets DIR] [--data DIR]\n", argv[0]);
      return 2;
    }
  }
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0)
    return ds_test_skip("no CUDA device");
  random_lists(sanitize ? 4 : 24);
  if (!quick && data != NULL) files(data, FILES, sizeof FILES / sizeof FILES[0]);
  if (!quick && datasets != NULL) files(datasets, DATASETS, sizeof DATASETS / sizeof DATASETS[0]);
  return ds_test_finish("GPU CSR build against the CPU build%s", quick ? " (quick)" : "");
}
