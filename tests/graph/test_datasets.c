/* The bundled graphs (datasets/) load with the sizes datasets/README.md
 * gives, pass ds_csr_check, and are symmetric where the file says so. The
 * cache is off so that nothing is written into the source tree. */
#include "graph_test_util.h"

static const struct {
  const char *file;
  uint32_t n;
  uint64_t entries, arcs; /* arcs: what the CSR holds */
  int symmetric;
} sets[] = {
    {"NY.mtx.gz", 264346, 365050, 730100, 1},
    {"BAY.mtx.gz", 321270, 397415, 794830, 1},
    {"COL.mtx.gz", 435666, 521200, 1042400, 1},
    {"luxembourg_osm.mtx.gz", 114599, 119666, 239332, 1},
    {"delaunay_n16.mtx.gz", 65536, 196575, 393150, 1},
    {"rome99.gr", 3353, 8870, 8859, 0}, /* 11 parallel arcs keep their smallest weight */
};

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: test_datasets DATASETS_DIR\n");
    return 2;
  }
  for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", argv[1], sets[i].file);
    ds_load_options opt = options_no_cache();
    ds_graph g;
    ds_error err;
    if (ds_graph_load(path, &opt, &g, &err) != DS_OK) {
      CHECK(0, "%s", err.msg);
      continue;
    }
    CHECK(g.n == sets[i].n && g.input_entries == sets[i].entries && g.m == sets[i].arcs,
          "%s: n %u entries %llu arcs %llu; want %u %llu %llu", sets[i].file, g.n,
          (unsigned long long)g.input_entries, (unsigned long long)g.m, sets[i].n,
          (unsigned long long)sets[i].entries, (unsigned long long)sets[i].arcs);
    CHECK(g.symmetric == sets[i].symmetric, "%s: symmetric %d", sets[i].file, g.symmetric);
    CHECK(ds_csr_check(&g, &err) == DS_OK, "%s: %s", sets[i].file, err.msg);
    printf("%-24s n %9u  arcs %9llu  ok\n", sets[i].file, g.n, (unsigned long long)g.m);
    ds_graph_free(&g);
  }
  return ds_test_finish("bundled datasets");
}
