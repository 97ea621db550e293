/* The ranks' parts cut out of a graph that one process holds whole
 * (ds_dgraph_view, what `sssp --gpus N` and `sssp --mpi` do with the graph
 * they load), on 1 to 7 simulated ranks: the views tile the CSR (bounds of
 * ds_partition_from_offsets, rows rebased, arcs shared), and the CPU twin's
 * search over them, validated by the Graph500 rules, gives Dijkstra's
 * distances on the whole graph (random integer and float graphs, a hub,
 * isolated vertices, and rome99). Then the views' argument checks.
 * usage: test_dist_view [rome99.gr] */
#include "ds_test.h"

#include "dist/dgraph.h"
#include "dist/dsssp.h"
#include "dist_test_util.h"

static const int RANKS[] = {1, 2, 3, 4, 7};

typedef struct {
  const ds_graph *whole;
  uint32_t source;
  ds_dsssp_params params;
  void *dist;                           /* whole: each rank writes its range */
  ds_status validated[TEST_MAX_RANKS];
} view_arg;

/* One rank: its view, the twin's search into its range of the whole array,
 * and the Graph500 rules. */
static ds_status view_rank(ds_comm *comm, void *argp, ds_error *err) {
  view_arg *a = argp;
  const int me = ds_comm_rank(comm);
  ds_dgraph g;
  ds_status st = ds_comm_agree(comm, ds_dgraph_view(a->whole, me, ds_comm_size(comm), &g, err), err);
  if (st != DS_OK) return st;
  const size_t size = a->whole->weight_type == DS_WEIGHT_F32 ? sizeof(float) : sizeof(uint32_t);
  uint32_t *pred = malloc((g.n_local ? g.n_local : 1) * sizeof *pred);
  st = ds_comm_agree(comm, pred ? DS_OK : ds_error_set(err, DS_ERR_NOMEM, "out of memory"), err);
  ds_dsssp_result res;
  memset(&res, 0, sizeof res);
  res.dist = (char *)a->dist + (size_t)g.first * size;
  res.pred = pred;
  if (st == DS_OK) st = ds_dsssp_cpu(comm, &g, a->source, &a->params, &res, err);
  if (st == DS_OK) {
    ds_error verr;
    a->validated[me] = ds_dsssp_validate(comm, &g, a->source, res.dist, DS_DIST_NATURAL, pred,
                                         NULL, &verr);
  }
  free(pred);
  ds_dgraph_view_free(&g);
  return st;
}

/* The views of whole on every rank count tile it; then the search on them. */
static void check_views(const char *what, const ds_graph *whole, uint32_t source) {
  ds_error err;
  for (size_t k = 0; k < sizeof RANKS / sizeof *RANKS; k++) {
    const int ranks = RANKS[k];
    // 1. the tiling
    ds_partition ref;
    REQUIRE(ds_partition_from_offsets(ranks, whole->n, whole->row_offsets, &ref, &err) == DS_OK,
            "%s", err.msg);
    uint64_t arcs = 0;
    for (int r = 0; r < ranks; r++) {
      ds_dgraph g;
      if (!CHECK(ds_dgraph_view(whole, r, ranks, &g, &err) == DS_OK, "%s: %s", what, err.msg)) continue;
      CHECK(g.first == ref.bounds[r] && g.first + g.n_local == ref.bounds[r + 1] &&
                g.part.bounds[r] == ref.bounds[r] && g.n == whole->n && g.m == whole->m,
            "%s, %d ranks: rank %d holds [%u, +%u), the partition says [%u, %u)", what, ranks, r,
            g.first, g.n_local, ref.bounds[r], ref.bounds[r + 1]);
      const uint64_t base = whole->row_offsets[g.first];
      int rows_ok = g.row_offsets[0] == 0 && g.col == whole->col + base &&
                    g.weight_type == whole->weight_type && g.symmetric == whole->symmetric;
      for (uint32_t v = 0; v < g.n_local && rows_ok; v++)
        rows_ok = g.row_offsets[v + 1] == whole->row_offsets[g.first + v + 1] - base;
      CHECK(rows_ok, "%s, %d ranks: rank %d's rows differ from the whole CSR's", what, ranks, r);
      arcs += g.m_local;
      ds_dgraph_view_free(&g);
    }
    CHECK(arcs == whole->m, "%s, %d ranks: the views hold %llu arcs of %llu", what, ranks,
          (unsigned long long)arcs, (unsigned long long)whole->m);
    ds_partition_free(&ref);

    // 2. the twin on the views, against Dijkstra on the whole graph
    const size_t size = whole->weight_type == DS_WEIGHT_F32 ? sizeof(float) : sizeof(uint32_t);
    view_arg a;
    memset(&a, 0, sizeof a);
    a.whole = whole;
    a.source = source;
    ds_dsssp_params_default(&a.params);
    a.params.delta = whole->weight_type == DS_WEIGHT_F32 ? 50.0 : 50;
    a.params.want_pred = 1;
    a.dist = malloc((whole->n ? whole->n : 1) * size);
    void *ref_dist = malloc((whole->n ? whole->n : 1) * size);
    REQUIRE(a.dist && ref_dist, "out of memory");
    ds_sssp_params sp;
    ds_sssp_params_default(&sp);
    ds_sssp_result rr;
    memset(&rr, 0, sizeof rr);
    rr.dist = ref_dist;
    REQUIRE(ds_sssp_dijkstra(whole, source, &sp, &rr, &err) == DS_OK, "%s", err.msg);
    ds_status rank_status[TEST_MAX_RANKS];
    ds_error rank_err[TEST_MAX_RANKS];
    ds_status st = ds_comm_inproc_run(ranks, NULL, view_rank, &a, rank_status, rank_err, &err);
    if (CHECK(st == DS_OK, "%s, %d ranks: %s", what, ranks, err.msg)) {
      for (int r = 0; r < ranks; r++)
        CHECK(a.validated[r] == DS_OK, "%s, %d ranks: rank %d's validation failed", what, ranks, r);
      CHECK(ds_sssp_compare(whole, ref_dist, a.dist, DS_DIST_NATURAL, NULL, &err) == DS_OK,
            "%s, %d ranks: %s", what, ranks, err.msg);
    }
    free(a.dist);
    free(ref_dist);
  }
}

static void test_random(void) {
  const test_shape shape = {3000, 20000, 0.05, 0.05, 0.02, 40};
  const ds_weight_type types[] = {DS_WEIGHT_U32, DS_WEIGHT_F32};
  for (int t = 0; t < 2; t++)
    for (int sym = 0; sym < 2; sym++) {
      test_edges e = test_edges_random(&shape, types[t], 0, 7 + (uint64_t)t * 2 + (uint64_t)sym);
      ds_edge_list el = test_whole(&e);
      ds_graph g;
      ds_error err;
      REQUIRE(ds_csr_build(&el, sym, NULL, &g, &err) == DS_OK, "%s", err.msg);
      char what[64];
      snprintf(what, sizeof what, "random %s%s", t ? "float" : "integer", sym ? " symmetric" : "");
      check_views(what, &g, 0);
      ds_graph_free(&g);
      test_edges_free(&e);
    }
}

static void test_arguments(void) {
  const test_shape shape = {10, 20, 0, 0, 0, 0};
  test_edges e = test_edges_random(&shape, DS_WEIGHT_U32, 0, 3);
  ds_edge_list el = test_whole(&e);
  ds_graph g;
  ds_dgraph v;
  ds_error err;
  REQUIRE(ds_csr_build(&el, 0, NULL, &g, &err) == DS_OK, "%s", err.msg);
  CHECK(ds_dgraph_view(&g, 2, 2, &v, &err) == DS_ERR_ARG && strstr(err.msg, "rank 2 of 2"),
        "rank beyond the ranks: %s", err.msg);
  CHECK(ds_dgraph_view(&g, 0, 0, &v, &err) == DS_ERR_ARG, "no ranks accepted");
  CHECK(ds_dgraph_view(NULL, 0, 1, &v, &err) == DS_ERR_ARG, "NULL graph accepted");
  // more ranks than vertices: the last ones hold nothing, and still tile the graph
  uint64_t arcs = 0;
  for (int r = 0; r < 16; r++) {
    if (!CHECK(ds_dgraph_view(&g, r, 16, &v, &err) == DS_OK, "%s", err.msg)) continue;
    arcs += v.m_local;
    ds_dgraph_view_free(&v);
  }
  CHECK(arcs == g.m, "16 ranks over 10 vertices hold %llu arcs of %llu", (unsigned long long)arcs,
        (unsigned long long)g.m);
  ds_graph_free(&g);
  test_edges_free(&e);
}

int main(int argc, char **argv) {
  test_random();
  test_arguments();
  if (argc > 1) {
    ds_graph rome;
    ds_load_options opt;
    ds_load_options_default(&opt);
    opt.use_cache = 0;
    ds_error err;
    if (CHECK(ds_graph_load(argv[1], &opt, &rome, &err) == DS_OK, "%s", err.msg)) {
      check_views("rome99", &rome, rome.n / 2);
      ds_graph_free(&rome);
    }
  }
  return ds_test_finish("dgraph views");
}
