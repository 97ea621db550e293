/* The 1-D partition and the distributed CSR build (app/dist/partition.c,
 * dgraph_build.c) on 1 to 7 simulated ranks: the bounds against the
 * partition from the whole graph's degrees, the balance within a vertex's
 * degree of m/R, owner(v), the arcs grouped for each owner and the counts of
 * the exchange, and every rank's rows against the one-graph CSR build of the
 * same edges (duplicates, self-loops, zero and float weights, pattern
 * weights, symmetric builds). Then slices that every rank must refuse. */
#include "ds_test.h"

#include "dist/dgraph.h"
#include "dist_test_util.h"

static const int RANKS[] = {1, 2, 3, 4, 7};

/* ---- the partition alone ---------------------------------------------- */

static void test_partition_rules(void) {
  ds_partition p;
  ds_error err;
  REQUIRE(ds_partition_uniform(3, 10, &p, &err) == DS_OK, "%s", err.msg);
  CHECK(p.bounds[0] == 0 && p.bounds[1] == 3 && p.bounds[2] == 6 && p.bounds[3] == 10,
        "uniform bounds %u %u %u %u", p.bounds[0], p.bounds[1], p.bounds[2], p.bounds[3]);
  for (uint32_t v = 0; v < 10; v++)
    CHECK(ds_partition_owner(&p, v) == (v < 3 ? 0 : v < 6 ? 1 : 2), "owner(%u) = %d", v,
          ds_partition_owner(&p, v));
  ds_partition_free(&p);
  // a hub of 90 arcs then 10 vertices of one arc: targets 25, 50, 75 all straddle the hub,
  // each bound goes to the nearer side (0, 1, 1): one rank holds the hub, the last the rest,
  // two are empty; owner() skips the empty ones
  uint64_t off[12] = {0, 90};
  for (int v = 2; v <= 11; v++) off[v] = off[v - 1] + 1;
  REQUIRE(ds_partition_from_offsets(4, 11, off, &p, &err) == DS_OK, "%s", err.msg);
  CHECK(p.bounds[1] == 0 && p.bounds[2] == 1 && p.bounds[3] == 1 && p.arcs == 100,
        "hub: bounds %u %u %u, arcs %llu", p.bounds[1], p.bounds[2], p.bounds[3],
        (unsigned long long)p.arcs);
  for (int r = 1; r < 4; r++) CHECK(p.bounds[r] <= p.bounds[r + 1], "bounds decrease at %d", r);
  for (uint32_t v = 0; v < 11; v++) {
    int o = ds_partition_owner(&p, v);
    CHECK(p.bounds[o] <= v && v < p.bounds[o + 1], "owner(%u) = %d outside its range", v, o);
  }
  ds_partition_free(&p);
  CHECK(ds_partition_uniform(0, 5, &p, &err) == DS_ERR_ARG, "0 ranks accepted");
}

/* ---- the build ---------------------------------------------------------- */

typedef struct {
  const test_edges *edges;
  int symmetric, all_on_first;
  ds_load_options opt;
  ds_dgraph g[TEST_MAX_RANKS];
  uint64_t to[TEST_MAX_RANKS][TEST_MAX_RANKS], from[TEST_MAX_RANKS][TEST_MAX_RANKS];
  uint64_t slice_arcs[TEST_MAX_RANKS];
  ds_comm_stats stats[TEST_MAX_RANKS];
} build_arg;

static ds_status build_rank(ds_comm *c, void *argp, ds_error *err) {
  build_arg *a = argp;
  const int r = ds_comm_rank(c);
  ds_edge_list s = test_slice(a->edges, r, ds_comm_size(c), a->all_on_first);
  ds_dgraph_build_info info;
  memset(&info, 0, sizeof info);
  info.arcs_to = a->to[r];
  info.arcs_from = a->from[r];
  ds_status st = ds_dgraph_build(c, &s, a->symmetric, &a->opt, &a->g[r], &info, err);
  a->slice_arcs[r] = info.slice_arcs;
  ds_comm_stats_get(c, &a->stats[r]);
  return st;
}

static void check_build(const char *name, const test_edges *e, int symmetric, int ranks,
                        int all_on_first) {
  build_arg *a = calloc(1, sizeof *a);
  if (a == NULL) exit(2);
  a->edges = e;
  a->symmetric = symmetric;
  a->all_on_first = all_on_first;
  ds_load_options_default(&a->opt);
  a->opt.seed = 77;
  a->opt.weight_min = 0;
  a->opt.weight_max = 50;
  ds_status rs[TEST_MAX_RANKS];
  ds_error err;
  ds_graph whole;
  memset(&whole, 0, sizeof whole);
  uint64_t max_degree = 0, *off = test_input_offsets(e, symmetric, &max_degree);
  ds_partition ref;
  memset(&ref, 0, sizeof ref);

  ds_status st = ds_comm_inproc_run(ranks, NULL, build_rank, a, rs, NULL, &err);
  if (!CHECK(st == DS_OK, "%s R=%d: %s", name, ranks, err.msg)) goto done;
  ds_edge_list all = test_whole(e);
  if (!CHECK(ds_csr_build(&all, symmetric, &a->opt, &whole, &err) == DS_OK, "%s", err.msg))
    goto done;
  if (!CHECK(ds_partition_from_offsets(ranks, e->n, off, &ref, &err) == DS_OK, "%s", err.msg))
    goto done;

  // 1. the same bounds on every rank, those from the whole graph's degrees
  const uint64_t m_in = off[e->n];
  for (int r = 0; r < ranks; r++) {
    const ds_partition *p = &a->g[r].part;
    CHECK(p->ranks == ranks && p->n == e->n && p->arcs == m_in, "%s R=%d rank %d: partition "
          "of %d ranks, %u vertices, %llu arcs", name, ranks, r, p->ranks, p->n,
          (unsigned long long)p->arcs);
    CHECK(memcmp(p->bounds, ref.bounds, ((size_t)ranks + 1) * sizeof *p->bounds) == 0,
          "%s R=%d rank %d: bounds differ from the whole graph's (bounds[1] %u, want %u)", name,
          ranks, r, p->bounds[1 % (ranks + 1)], ref.bounds[1 % (ranks + 1)]);
  }
  // 2. balance: every share within a vertex's degree of m/R (1 more for the floor)
  for (int r = 0; r < ranks; r++) {
    const uint64_t share = off[ref.bounds[r + 1]] - off[ref.bounds[r]];
    const double ideal = (double)m_in / ranks, gap = share > ideal ? share - ideal : ideal - share;
    CHECK(gap <= (double)max_degree + 1, "%s R=%d rank %d: %llu arcs, ideal %.1f, max degree "
          "%llu", name, ranks, r, (unsigned long long)share, ideal, (unsigned long long)max_degree);
  }
  // 3. grouping by owner: what each slice sent each rank, and the exchange's counts
  uint64_t expect_to[TEST_MAX_RANKS][TEST_MAX_RANKS];
  memset(expect_to, 0, sizeof expect_to);
  for (int r = 0; r < ranks; r++) {
    ds_edge_list s = test_slice(e, r, ranks, all_on_first);
    for (uint64_t i = 0; i < s.count; i++) {
      if (s.src[i] == s.dst[i]) continue;
      expect_to[r][ds_partition_owner(&ref, s.src[i])]++;
      if (symmetric) expect_to[r][ds_partition_owner(&ref, s.dst[i])]++;
    }
  }
  uint64_t slices = 0;
  for (int r = 0; r < ranks; r++) {
    slices += a->slice_arcs[r];
    for (int p = 0; p < ranks; p++) {
      CHECK(a->to[r][p] == expect_to[r][p], "%s R=%d: rank %d grouped %llu arcs for rank %d, "
            "want %llu", name, ranks, r, (unsigned long long)a->to[r][p], p,
            (unsigned long long)expect_to[r][p]);
      CHECK(a->from[p][r] == a->to[r][p], "%s R=%d: rank %d got %llu arcs from rank %d, which "
            "sent %llu", name, ranks, p, (unsigned long long)a->from[p][r], r,
            (unsigned long long)a->to[r][p]);
    }
    // one exchange (counts + payload), besides the agreements and the partition's reductions
    CHECK(a->stats[r].alltoall_calls == 1 && a->stats[r].alltoallv_calls == 1,
          "%s R=%d rank %d: %llu count exchanges and %llu payload exchanges, want 1 and 1", name,
          ranks, r, (unsigned long long)a->stats[r].alltoall_calls,
          (unsigned long long)a->stats[r].alltoallv_calls);
  }
  CHECK(slices == m_in, "%s R=%d: slices hold %llu arcs, want %llu", name, ranks,
        (unsigned long long)slices, (unsigned long long)m_in);
  // 4. the rows, against the one-graph build
  uint64_t stored = 0;
  for (int r = 0; r < ranks; r++) {
    const ds_dgraph *g = &a->g[r];
    stored += g->m_local;
    CHECK(g->m == whole.m && g->n == whole.n && g->weight_type == whole.weight_type,
          "%s R=%d rank %d: m %llu n %u type %d, want %llu %u %d", name, ranks, r,
          (unsigned long long)g->m, g->n, g->weight_type, (unsigned long long)whole.m, whole.n,
          whole.weight_type);
    CHECK(g->first == ref.bounds[r] && g->n_local == ref.bounds[r + 1] - ref.bounds[r],
          "%s R=%d rank %d: range [%u, +%u)", name, ranks, r, g->first, g->n_local);
    int bad = 0;
    for (uint32_t i = 0; i < g->n_local && !bad; i++) {
      const uint32_t v = g->first + i;
      const uint64_t b = whole.row_offsets[v], len = whole.row_offsets[v + 1] - b;
      if (g->row_offsets[i + 1] - g->row_offsets[i] != len) bad = 1;
      else if (memcmp(g->col + g->row_offsets[i], whole.col + b, len * 4) != 0) bad = 2;
      else if (memcmp((uint32_t *)g->weights + g->row_offsets[i], (uint32_t *)whole.weights + b,
                      len * 4) != 0)
        bad = 3;
      if (bad)
        FAIL("%s R=%d rank %d: row of vertex %u differs from the one-graph build (%s)", name,
             ranks, r, v, bad == 1 ? "length" : bad == 2 ? "heads" : "weights");
    }
  }
  CHECK(stored == whole.m, "%s R=%d: ranks store %llu arcs, want %llu", name, ranks,
        (unsigned long long)stored, (unsigned long long)whole.m);
done:
  for (int r = 0; r < ranks; r++) ds_dgraph_free(&a->g[r]);
  ds_graph_free(&whole);
  ds_partition_free(&ref);
  free(off);
  free(a);
}

/* ---- slices that every rank refuses ------------------------------------ */

typedef enum { BAD_ID, BAD_N, BAD_WEIGHT, BAD_KIND } bad_kind;

typedef struct {
  const test_edges *edges;
  bad_kind kind;
} bad_arg;

static ds_status bad_rank(ds_comm *c, void *argp, ds_error *err) {
  bad_arg *a = argp;
  const int r = ds_comm_rank(c), odd = ds_comm_size(c) - 1;
  ds_edge_list s = test_slice(a->edges, r, ds_comm_size(c), 0);
  uint32_t src[1] = {0}, dst[1] = {1}, wi[1] = {1};
  float wf[1] = {-1.0f};
  if (r == odd) { /* one edge, bad in one way */
    s.count = 1, s.src = src, s.dst = dst, s.weights = wi;
    if (a->kind == BAD_ID) dst[0] = s.n;
    if (a->kind == BAD_N) s.n += 1;
    if (a->kind == BAD_WEIGHT) s.weight_type = DS_WEIGHT_F32, s.weights = wf;
    if (a->kind == BAD_KIND) s.weights = NULL;
  }
  ds_dgraph g;
  ds_status st = ds_dgraph_build(c, &s, 0, NULL, &g, NULL, err);
  if (st == DS_OK) ds_dgraph_free(&g);
  return st;
}

static void test_refusals(const test_edges *e) {
  static const struct {
    bad_kind kind;
    const char *pattern;
  } cases[] = {{BAD_ID, "is out of range"}, {BAD_N, "disagree on the vertex count"},
               {BAD_WEIGHT, "finite and non-negative"}, {BAD_KIND, "different kinds of weight"}};
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    bad_arg a = {e, cases[i].kind};
    ds_status rs[3];
    ds_error re[3], err;
    ds_comm_inproc_run(3, NULL, bad_rank, &a, rs, re, &err);
    for (int r = 0; r < 3; r++) {
      CHECK(rs[r] == DS_ERR_ARG, "refusal %zu rank %d: status %d (%s)", i, r, rs[r], re[r].msg);
      CHECK(strstr(re[r].msg, cases[i].pattern) != NULL, "refusal %zu rank %d: '%s' lacks '%s'",
            i, r, re[r].msg, cases[i].pattern);
    }
  }
}

int main(void) {
  test_partition_rules();
  const test_shape small = {600, 4000, 0.05, 0.1, 0.02, 20};
  const test_shape wide = {200000, 60000, 0.01, 0.05, 0.01, 1000}; /* 2 search levels */
  const test_shape tiny = {3, 4, 0.0, 0.25, 0.25, 0};               /* more ranks than vertices */
  const test_shape none = {5, 0, 0, 0, 0, 0};                       /* no arcs at all */
  test_edges ints = test_edges_random(&small, DS_WEIGHT_U32, 0, 1);
  test_edges floats = test_edges_random(&small, DS_WEIGHT_F32, 0, 2);
  test_edges pattern = test_edges_random(&small, DS_WEIGHT_U32, 1, 3);
  test_edges big = test_edges_random(&wide, DS_WEIGHT_U32, 0, 4);
  test_edges few = test_edges_random(&tiny, DS_WEIGHT_U32, 0, 5);
  test_edges empty = test_edges_random(&none, DS_WEIGHT_U32, 0, 6);
  for (size_t i = 0; i < sizeof RANKS / sizeof *RANKS; i++) {
    const int r = RANKS[i];
    check_build("int", &ints, 0, r, 0);
    check_build("int symmetric", &ints, 1, r, 0);
    check_build("float", &floats, 0, r, 0);
    check_build("float symmetric, all edges on rank 0", &floats, 1, r, 1);
    check_build("pattern", &pattern, 1, r, 0);
    check_build("tiny", &few, 0, r, 0);
    check_build("no arcs", &empty, 1, r, 0);
  }
  check_build("wide", &big, 0, 7, 0);
  check_build("wide symmetric", &big, 1, 4, 0);
  test_refusals(&ints);
  test_edges_free(&ints);
  test_edges_free(&floats);
  test_edges_free(&pattern);
  test_edges_free(&big);
  test_edges_free(&few);
  test_edges_free(&empty);
  return ds_test_finish("dist graph");
}
