/* The distributed CSR build on several OpenMP threads a rank (app/dist/partition.c,
 * dgraph_build.c, dgraph_csr.c): slices large enough for its threaded steps (the partition's
 * counts, its bounds against the whole input's; grouping by owner, by blocks of rows, the
 * blocks' sorts, a hub row long enough to be sorted on all threads at once), with duplicates,
 * self-loops and integer, float and pattern weights, on 1, 2 and 3 ranks; each rank's rows
 * against the whole graph's CSR (ds_csr_build), heads and weight bits. ctest runs it with OMP_NUM_THREADS=4: the
 * in-process ranks share them (4, 2 and 1 threads a rank). */
#include "ds_test.h"

#include "dist/dgraph.h"
#include "dist_test_util.h"

static const int RANKS[] = {1, 2, 3};

typedef struct {
  const test_edges *edges;
  int symmetric;
  ds_load_options opt;
  ds_dgraph g[TEST_MAX_RANKS];
} build_arg;

static ds_status build_rank(ds_comm *c, void *arg, ds_error *err) {
  build_arg *a = arg;
  const int r = ds_comm_rank(c);
  ds_edge_list s = test_slice(a->edges, r, ds_comm_size(c), 0);
  return ds_dgraph_build(c, &s, a->symmetric, &a->opt, &a->g[r], NULL, err);
}

static void check_build(const char *name, const test_edges *e, int symmetric, int ranks) {
  build_arg *a = calloc(1, sizeof *a);
  if (a == NULL) exit(2);
  a->edges = e;
  a->symmetric = symmetric;
  ds_load_options_default(&a->opt);
  a->opt.seed = 5;
  a->opt.weight_min = 0;
  a->opt.weight_max = 30; /* pattern weights: many duplicates of a weight */
  ds_status rs[TEST_MAX_RANKS];
  ds_error err;
  ds_graph whole;
  memset(&whole, 0, sizeof whole);
  ds_status st = ds_comm_inproc_run(ranks, NULL, build_rank, a, rs, NULL, &err);
  if (CHECK(st == DS_OK, "%s R=%d: %s", name, ranks, err.msg)) {
    ds_edge_list all = test_whole(e);
    if (CHECK(ds_csr_build(&all, symmetric, &a->opt, &whole, &err) == DS_OK, "%s", err.msg)) {
      const uint64_t bad = test_rows_differ(a->g, ranks, &whole);
      CHECK(bad == 0, "%s R=%d: %llu rows differ from the whole graph's (or the parts do not "
            "tile it)", name, ranks, (unsigned long long)bad);
    }
    /* the partition's threaded counts: the bounds of the whole input's degrees */
    uint64_t max_degree = 0, *off = test_input_offsets(e, symmetric, &max_degree);
    ds_partition ref;
    if (CHECK(ds_partition_from_offsets(ranks, e->n, off, &ref, &err) == DS_OK, "%s", err.msg)) {
      for (int r = 0; r < ranks; r++)
        CHECK(memcmp(a->g[r].part.bounds, ref.bounds, ((size_t)ranks + 1) * sizeof *ref.bounds) == 0,
              "%s R=%d rank %d: bounds differ from the whole input's", name, ranks, r);
      ds_partition_free(&ref);
    }
    free(off);
  }
  for (int r = 0; r < ranks; r++) ds_dgraph_free(&a->g[r]);
  ds_graph_free(&whole);
  free(a);
}

int main(void) {
  /* a hub of about 120,000 arcs a direction (a long row), duplicates and self-loops */
  const test_shape hub = {20000, 400000, 0.3, 0.2, 0.05, 100};
  /* short rows, few repeats */
  const test_shape road = {300000, 450000, 0.0, 0.02, 0.01, 10};
  test_edges ints = test_edges_random(&hub, DS_WEIGHT_U32, 0, 11);
  test_edges floats = test_edges_random(&hub, DS_WEIGHT_F32, 0, 12);
  test_edges pattern = test_edges_random(&hub, DS_WEIGHT_U32, 1, 13);
  test_edges sparse = test_edges_random(&road, DS_WEIGHT_F32, 0, 14);
  for (size_t i = 0; i < sizeof RANKS / sizeof *RANKS; i++) {
    const int r = RANKS[i];
    check_build("int hub", &ints, 0, r);
    check_build("int hub symmetric", &ints, 1, r);
    check_build("float hub symmetric", &floats, 1, r);
    check_build("pattern hub symmetric", &pattern, 1, r);
    check_build("road float", &sparse, 0, r);
    check_build("road float symmetric", &sparse, 1, r);
  }
  test_edges_free(&ints);
  test_edges_free(&floats);
  test_edges_free(&pattern);
  test_edges_free(&sparse);
  return ds_test_finish("dist build threads");
}
