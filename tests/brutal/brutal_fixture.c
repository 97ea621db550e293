/* The brutal memory test's fixture (brutal_fixture.h). */
#include "brutal_fixture.h"

#include <sys/stat.h>
#include <zlib.h>

const input_spec inputs[IN_COUNT] = {
  [IN_MTX_INT] = {"int.mtx", "%%MatrixMarket matrix coordinate integer general", SMALL_M},
  [IN_MTX_REAL] = {"real.mtx", "%%MatrixMarket matrix coordinate real general", SMALL_M},
  [IN_MTX_PATTERN] = {"pattern.mtx", "%%MatrixMarket matrix coordinate pattern general", SMALL_M},
  [IN_MTX_SYM] = {"sym.mtx", "%%MatrixMarket matrix coordinate integer symmetric", SMALL_M},
  [IN_MTX_GZ] = {"big.mtx.gz", "%%MatrixMarket matrix coordinate integer general", GZ_ENTRIES},
  [IN_GR] = {"g.gr", NULL, SMALL_M},
  [IN_EL] = {"g.el", NULL, SMALL_M},
  [IN_WEL] = {"g.wel", NULL, SMALL_M},
};

/* One line of input i for edge (u, v) (0-based) of weight r. */
static int format_line(char *line, size_t len, input_id i, uint32_t u, uint32_t v, uint64_t r) {
  switch (i) {
  case IN_MTX_REAL:
    return snprintf(line, len, "%u %u %.3f\n", u + 1, v + 1, (double)(r % 10000) / 1000);
  case IN_MTX_PATTERN: return snprintf(line, len, "%u %u\n", u + 1, v + 1);
  case IN_MTX_SYM: /* the lower triangle */
    return snprintf(line, len, "%u %u %u\n", (u > v ? u : v) + 1, (u > v ? v : u) + 1,
                    (uint32_t)(r % 1000));
  case IN_GR: return snprintf(line, len, "a %u %u %u\n", u + 1, v + 1, (uint32_t)(r % 1000));
  case IN_EL: return snprintf(line, len, "%u %u\n", u, v);
  case IN_WEL: return snprintf(line, len, "%u %u %u\n", u, v, (uint32_t)(r % 1000));
  default: return snprintf(line, len, "%u %u %u\n", u + 1, v + 1, (uint32_t)(r % 1000));
  }
}

/* Writes input i with random entries (gzip-compressed when its name says .gz). */
static void write_input(const fixture *fx, input_id i) {
  const input_spec *s = &inputs[i];
  size_t cap = 256 + (size_t)s->entries * 64, len = 0;
  char *text = malloc(cap);
  if (text == NULL) exit(2);
  if (s->banner != NULL)
    len += (size_t)snprintf(text, cap, "%s\n%u %u %u\n", s->banner, SMALL_N, SMALL_N, s->entries);
  else if (i == IN_GR)
    len += (size_t)snprintf(text, cap, "c brutal\np sp %u %u\n", SMALL_N, s->entries);
  uint64_t seed = 7 + (uint64_t)i;
  for (uint32_t e = 0; e < s->entries; e++) {
    uint32_t u = (uint32_t)(test_rand(&seed) % SMALL_N), v = (uint32_t)(test_rand(&seed) % SMALL_N);
    uint64_t r = test_rand(&seed);
    if (i == IN_MTX_GZ) { /* periodic lines: gzip shrinks them far below a quarter */
      u = e % SMALL_N;
      v = e / SMALL_N % SMALL_N;
      r = e % SMALL_N;
    }
    len += (size_t)format_line(text + len, cap - len, i, u, v, r);
  }
  if (i == IN_MTX_GZ) {
    gzFile z = gzopen(fx->path[i], "wb9");
    if (z == NULL || gzwrite(z, text, (unsigned)len) != (int)len || gzclose(z) != Z_OK) {
      perror(fx->path[i]);
      exit(2);
    }
  } else {
    write_bytes(fx->path[i], text, len);
  }
  free(text);
}

int fixture_make(fixture *fx) {
  ds_error err;
  memset(fx, 0, sizeof *fx);
  scratch_make(fx->dir, sizeof fx->dir, "brutal");
  // 1. one file per format and its graph, loaded without failures
  for (int i = 0; i < IN_COUNT; i++) {
    snprintf(fx->path[i], PATH_LEN, "%s/%s", fx->dir, inputs[i].file);
    write_input(fx, (input_id)i);
    ds_load_options o = load_options(NULL);
    if (ds_graph_load(fx->path[i], &o, &fx->ref[i], &err) != DS_OK) {
      printf("fixture: %s\n", err.msg);
      return 0;
    }
  }
  // 2. caches: one fresh for the hit cases, one folder that the miss case empties
  snprintf(fx->hit_dir, PATH_LEN, "%s/hit", fx->dir);
  snprintf(fx->miss_dir, PATH_LEN, "%s/miss", fx->dir);
  snprintf(fx->out_cache, PATH_LEN, "%s/out.dscache", fx->dir);
  snprintf(fx->out_mtx, PATH_LEN, "%s/out.mtx", fx->dir);
  if (mkdir(fx->hit_dir, 0700) != 0 || mkdir(fx->miss_dir, 0700) != 0) {
    perror("mkdir");
    return 0;
  }
  ds_load_options hit = load_options(fx->hit_dir);
  ds_graph g;
  if (ds_graph_load(fx->path[IN_MTX_INT], &hit, &g, &err) != DS_OK ||
      ds_cache_path(fx->path[IN_MTX_INT], &hit, fx->hit_cache, PATH_LEN, &err) != DS_OK) {
    printf("fixture: %s\n", err.msg);
    return 0;
  }
  ds_graph_free(&g);
  struct stat cache_sb;
  if (stat(fx->hit_cache, &cache_sb) != 0) {
    perror("fixture: no cache");
    return 0;
  }
  if (ds_input_stamp_of(fx->path[IN_MTX_INT], &fx->in_stamp, &err) != DS_OK) {
    printf("fixture: %s\n", err.msg);
    return 0;
  }
  // 3. an edge list, and the graphs ds_csr_build makes of it
  fx->src = malloc(SMALL_M * sizeof *fx->src);
  fx->dst = malloc(SMALL_M * sizeof *fx->dst);
  fx->w = malloc(SMALL_M * sizeof *fx->w);
  if (fx->src == NULL || fx->dst == NULL || fx->w == NULL) return 0;
  uint64_t seed = 99;
  for (uint32_t e = 0; e < SMALL_M; e++) {
    fx->src[e] = (uint32_t)(test_rand(&seed) % SMALL_N);
    fx->dst[e] = (uint32_t)(test_rand(&seed) % SMALL_N);
    fx->w[e] = (uint32_t)(test_rand(&seed) % 1000);
  }
  ds_edge_list el = {SMALL_N, SMALL_M, fx->src, fx->dst, DS_WEIGHT_U32, fx->w};
  ds_edge_list pattern = {SMALL_N, SMALL_M, fx->src, fx->dst, DS_WEIGHT_U32, NULL};
  if (ds_csr_build(&el, 1, NULL, &fx->built, &err) != DS_OK ||
      ds_csr_build(&pattern, 0, NULL, &fx->built_pattern, &err) != DS_OK) {
    printf("fixture: %s\n", err.msg);
    return 0;
  }
  // 4. search graphs, Dijkstra's answers, and room for the answers under test
  static const weight_kind kinds[SEARCHES] = {W_WIDE, W_FLOAT, W_HUGE};
  for (int f = 0; f < SEARCHES; f++) {
    if (!test_random_graph(SEARCH_N, SEARCH_M, kinds[f], 0, 5 + (uint64_t)f, &fx->search[f]))
      return 0;
    fx->dist_ref[f] = malloc(SEARCH_N * sizeof(uint64_t));
    fx->pred_ref[f] = malloc(SEARCH_N * sizeof(uint32_t));
    if (fx->dist_ref[f] == NULL || fx->pred_ref[f] == NULL) return 0;
    ds_sssp_params p;
    ds_sssp_params_default(&p);
    p.want_pred = 1;
    p.dist_width = search_width(fx, f);
    ds_sssp_result r = {.dist = fx->dist_ref[f], .pred = fx->pred_ref[f]};
    if (ds_sssp_dijkstra(&fx->search[f], 0, &p, &r, &err) != DS_OK) {
      printf("fixture: %s\n", err.msg);
      return 0;
    }
  }
  fx->dist = malloc(SEARCH_N * sizeof(uint64_t));
  fx->pred = malloc(SEARCH_N * sizeof(uint32_t));
  return fx->dist != NULL && fx->pred != NULL;
}

void fixture_free(fixture *fx) {
  for (int i = 0; i < IN_COUNT; i++) ds_graph_free(&fx->ref[i]);
  ds_graph_free(&fx->built);
  ds_graph_free(&fx->built_pattern);
  for (int f = 0; f < SEARCHES; f++) {
    ds_graph_free(&fx->search[f]);
    free(fx->dist_ref[f]);
    free(fx->pred_ref[f]);
  }
  free(fx->src);
  free(fx->dst);
  free(fx->w);
  free(fx->dist);
  free(fx->pred);
  scratch_remove(fx->dir);
}
