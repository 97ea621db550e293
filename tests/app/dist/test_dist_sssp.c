/* Distributed delta-stepping on the CPU twin (app/dist/dsssp_cpu.c and the
 * rounds of dsssp_rounds.c) on 1 to 7 simulated ranks, against the project's
 * Dijkstra oracle (ds_cpu) and the one-graph validator: integer (zero weights
 * included) and float weights, directed and symmetric, Near-Far (2 buckets)
 * and wider windows, deltas from one bucket a weight to one bucket for all,
 * the bundled rome99 road graph; the exchange schedule (one count exchange,
 * one payload exchange and one all-reduce a round), combining, termination,
 * ranks without vertices, a source without arcs, distances beyond 32 bits.
 * The distributed Graph500 validator passes every result above (that it
 * rejects corrupted ones is test_dist_validate's part).
 * usage: test_dist_sssp [rome99.gr]
 */
#include "ds_test.h"

#include <math.h>

#include "dist/dsssp.h"
#include "dist/dsssp_engine.h" /* ds_dsssp_update: the bytes of an update */
#include "dist_sssp_run.h"

static const int RANKS[] = {1, 2, 3, 4, 7};
#define N_RANKS (sizeof RANKS / sizeof *RANKS)

/* ---- searches against Dijkstra ----------------------------------------- */

typedef struct {
  const char *name;
  const test_edges *edges;
  int symmetric;
  uint32_t source;
} graph_case;

static void check_search(const graph_case *gc, const ds_graph *whole, int ranks, double delta,
                         uint32_t buckets, ds_dist_width width, int want_pred) {
  ds_dsssp_params p;
  ds_dsssp_params_default(&p);
  p.delta = delta;
  p.buckets = buckets;
  p.want_pred = want_pred;
  p.dist_width = width;
  ds_status st;
  ds_error err;
  run_arg *a = run(gc->edges, gc->symmetric, ranks, gc->source, &p, (corruption_spec){C_NONE, 0, 0, 0}, &st, &err);
  char what[160];
  snprintf(what, sizeof what, "%s R=%d delta %g buckets %u%s%s", gc->name, ranks, delta, buckets,
           width == DS_DIST_WIDE ? " wide" : "", want_pred ? "" : " no pred");
  void *expect = calloc(whole->n ? whole->n : 1, sizeof(uint64_t));
  if (expect == NULL) exit(2);
  if (!CHECK(st == DS_OK, "%s: %s", what, err.msg)) goto done;

  // 1. the distances of Dijkstra, and predecessors that the one-graph validator accepts
  ds_sssp_params dp;
  ds_sssp_params_default(&dp);
  dp.dist_width = width;
  ds_sssp_result dr;
  memset(&dr, 0, sizeof dr);
  dr.dist = expect;
  REQUIRE(ds_sssp_dijkstra(whole, gc->source, &dp, &dr, &err) == DS_OK, "dijkstra: %s", err.msg);
  CHECK(ds_sssp_compare(whole, expect, a->dist, width, NULL, &err) == DS_OK, "%s: %s", what,
        err.msg);
  CHECK(ds_sssp_validate(whole, gc->source, a->dist, width, want_pred ? a->pred : NULL, NULL,
                         &err) == DS_OK, "%s: one-graph validator: %s", what, err.msg);

  // 2. the distributed validator agrees, on every rank
  for (int r = 0; r < ranks; r++)
    CHECK(a->validated[r] == DS_OK, "%s rank %d: distributed validator: %s", what, r, a->vmsg[r]);

  // 3. the schedule: every rank the same rounds; per round one count exchange, one payload
  //    exchange and one all-reduce, plus the first bucket's and two agreements'
  uint64_t reached = 0, sent = 0, received = 0, remote = 0;
  for (int r = 0; r < ranks; r++) {
    const ds_dsssp_result *res = &a->res[r];
    const ds_comm_stats *b = &a->before[r], *f = &a->after[r];
    CHECK(res->rounds == a->res[0].rounds && res->buckets == a->res[0].buckets,
          "%s rank %d: %llu rounds and %llu buckets, rank 0 %llu and %llu", what, r,
          (unsigned long long)res->rounds, (unsigned long long)res->buckets,
          (unsigned long long)a->res[0].rounds, (unsigned long long)a->res[0].buckets);
    CHECK(f->alltoall_calls - b->alltoall_calls == res->rounds &&
              f->alltoallv_calls - b->alltoallv_calls == res->rounds &&
              f->allreduce_calls - b->allreduce_calls == res->rounds + 3 &&
              f->barrier_calls == b->barrier_calls,
          "%s rank %d: %llu rounds made %llu/%llu/%llu/%llu calls", what, r,
          (unsigned long long)res->rounds,
          (unsigned long long)(f->alltoall_calls - b->alltoall_calls),
          (unsigned long long)(f->alltoallv_calls - b->alltoallv_calls),
          (unsigned long long)(f->allreduce_calls - b->allreduce_calls),
          (unsigned long long)(f->barrier_calls - b->barrier_calls));
    CHECK(f->bytes_sent - b->bytes_sent == res->updates_sent * sizeof(ds_dsssp_update),
          "%s rank %d: %llu bytes sent for %llu updates", what, r,
          (unsigned long long)(f->bytes_sent - b->bytes_sent),
          (unsigned long long)res->updates_sent);
    CHECK(res->buckets <= res->rounds && res->rounds > 0, "%s rank %d: %llu buckets in %llu "
          "rounds", what, r, (unsigned long long)res->buckets, (unsigned long long)res->rounds);
    reached += res->reached;
    sent += res->updates_sent;
    received += res->updates_received;
    remote += res->updates_remote;
  }
  CHECK(reached == dr.reached, "%s: %llu reached, Dijkstra %u", what, (unsigned long long)reached,
        dr.reached);
  CHECK(sent == received, "%s: %llu updates sent, %llu received", what, (unsigned long long)sent,
        (unsigned long long)received);
  CHECK(sent <= remote && (ranks > 1 || remote == 0), "%s: %llu sent of %llu remote relaxations",
        what, (unsigned long long)sent, (unsigned long long)remote);
done:
  free(expect);
  run_free(a);
}

/* Deltas of a sixteenth of the CPU's automatic one (many buckets), the automatic
 * one, and one bucket for all; windows of 2 (Near-Far), 10 and the maximum;
 * every rank count. One bucket a weight unit (thousands of rounds) once. */
static void check_graph(const graph_case *gc, int unit_delta) {
  ds_graph whole;
  ds_error err;
  ds_edge_list all = test_whole(gc->edges);
  REQUIRE(ds_csr_build(&all, gc->symmetric, NULL, &whole, &err) == DS_OK, "%s", err.msg);
  const double automatic = ds_delta_auto_cpu(&whole);
  const double deltas[] = {automatic / 16, automatic, 1e9};
  const uint32_t windows[] = {2, 10, DS_SSSP_MAX_BUCKETS};
  for (size_t i = 0; i < N_RANKS; i++)
    for (size_t d = 0; d < 3; d++)
      check_search(gc, &whole, RANKS[i], deltas[d], windows[(i + d) % 3], DS_DIST_NATURAL, 1);
  check_search(gc, &whole, 3, deltas[1], 10, DS_DIST_NATURAL, 0);
  if (whole.weight_type == DS_WEIGHT_U32) check_search(gc, &whole, 4, deltas[1], 2, DS_DIST_WIDE, 1);
  if (unit_delta) check_search(gc, &whole, 2, 1.0, 2, DS_DIST_NATURAL, 1);
  ds_graph_free(&whole);
}

/* The edges of a loaded graph's CSR, as a directed list. */
static test_edges edges_of_graph(const ds_graph *g) {
  test_edges e;
  memset(&e, 0, sizeof e);
  e.n = g->n;
  e.count = g->m;
  e.type = g->weight_type;
  e.src = malloc((g->m ? g->m : 1) * sizeof *e.src);
  e.dst = malloc((g->m ? g->m : 1) * sizeof *e.dst);
  e.weights = malloc((g->m ? g->m : 1) * 4);
  if (e.src == NULL || e.dst == NULL || e.weights == NULL) exit(2);
  for (uint32_t u = 0; u < g->n; u++)
    for (uint64_t a = g->row_offsets[u]; a < g->row_offsets[u + 1]; a++) e.src[a] = u;
  memcpy(e.dst, g->col, g->m * sizeof *e.dst);
  memcpy(e.weights, g->weights, g->m * 4);
  return e;
}

/* A list of edges written out (u, v, w). */

/* ---- termination and limits -------------------------------------------- */

static void test_lone_source(void) {
  static const uint32_t arcs[][3] = {{1, 2, 5}, {2, 3, 5}}; /* the source 0 has no arc */
  test_edges e = edges_of(4, arcs, 2);
  ds_dsssp_params p;
  ds_dsssp_params_default(&p);
  p.want_pred = 1;
  for (size_t i = 0; i < N_RANKS; i++) {
    ds_status st;
    ds_error err;
    run_arg *a = run(&e, 0, RANKS[i], 0, &p, (corruption_spec){C_NONE, 0, 0, 0}, &st, &err);
    if (CHECK(st == DS_OK, "lone source R=%d: %s", RANKS[i], err.msg)) {
      CHECK(a->res[0].rounds == 1 && a->res[0].buckets == 1, "lone source R=%d: %llu rounds",
            RANKS[i], (unsigned long long)a->res[0].rounds);
      const uint32_t *d = a->dist;
      CHECK(d[0] == 0 && d[1] == DS_INF_U32 && d[3] == DS_INF_U32 && a->pred[2] == DS_NO_PRED,
            "lone source R=%d: distances %u %u %u %u", RANKS[i], d[0], d[1], d[2], d[3]);
      for (int r = 0; r < RANKS[i]; r++)
        CHECK(a->validated[r] == DS_OK, "lone source R=%d rank %d: %s", RANKS[i], r, a->vmsg[r]);
    }
    run_free(a);
  }
  test_edges_free(&e);
}

/* A path whose length passes 2^32: DS_ERR_RANGE on every rank in 32 bits, exact in 64. */
static void test_range(void) {
  const uint32_t big = 2000000000u;
  static uint32_t arcs[][3] = {{0, 1, 0}, {1, 2, 0}, {2, 3, 0}, {3, 4, 7}};
  for (int i = 0; i < 3; i++) arcs[i][2] = big;
  test_edges e = edges_of(5, (const uint32_t (*)[3])arcs, 4);
  ds_dsssp_params p;
  ds_dsssp_params_default(&p);
  p.delta = 1e9;
  for (int wide = 0; wide <= 1; wide++) {
    p.dist_width = wide ? DS_DIST_WIDE : DS_DIST_NATURAL;
    ds_status st;
    ds_error err;
    run_arg *a = run(&e, 0, 3, 0, &p, (corruption_spec){C_NONE, 0, 0, 0}, &st, &err);
    if (!wide) {
      CHECK(st == DS_ERR_RANGE, "range: status %d (%s)", st, err.msg);
      CHECK(strstr(err.msg, "vertex 3 (0-based) has a distance beyond the 32-bit") != NULL,
            "range: message '%s'", err.msg);
    } else if (CHECK(st == DS_OK, "range, wide: %s", err.msg)) {
      const uint64_t *d = a->dist;
      CHECK(d[4] == 3ull * big + 7, "range, wide: distance %llu", (unsigned long long)d[4]);
    }
    run_free(a);
  }
  test_edges_free(&e);
}

static void test_bad_params(const test_edges *e) {
  ds_dsssp_params p;
  ds_dsssp_params_default(&p);
  struct {
    uint32_t source;
    double delta;
    uint32_t buckets;
    const char *pattern;
  } cases[] = {{e->n, 1, 10, "out of range"}, {0, 0, 10, "delta 0"}, {0, 1, 1, "1 buckets"},
               {0, NAN, 10, "positive and finite"}};
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    p.delta = cases[i].delta;
    p.buckets = cases[i].buckets;
    ds_status st;
    ds_error err;
    run_arg *a = run(e, 0, 3, cases[i].source, &p, (corruption_spec){C_NONE, 0, 0, 0}, &st, &err);
    CHECK(st == DS_ERR_ARG && strstr(err.msg, cases[i].pattern) != NULL, "bad params %zu: "
          "status %d, '%s'", i, st, err.msg);
    run_free(a);
  }
}

/* A rank that leaves after the build (a crashed GPU, a killed thread) never
 * answers: every other rank's search fails within the timeout, naming it. */
#define LEAVE_TIMEOUT_MS 200u

typedef struct {
  const test_edges *edges;
  ds_status st[TEST_MAX_RANKS];
  char msg[TEST_MAX_RANKS][DS_ERROR_MSG_LEN];
} leave_arg;

static ds_status leaving_rank(ds_comm *c, void *argp, ds_error *err) {
  leave_arg *a = argp;
  const int r = ds_comm_rank(c);
  ds_edge_list s = test_slice(a->edges, r, ds_comm_size(c), 0);
  ds_dgraph g;
  ds_status st = ds_dgraph_build(c, &s, 1, NULL, &g, NULL, err);
  if (st != DS_OK) return st;
  uint32_t *dist = malloc((g.n_local + 1) * sizeof *dist);
  ds_dsssp_params p;
  ds_dsssp_params_default(&p);
  p.delta = 100;
  ds_dsssp_result res;
  memset(&res, 0, sizeof res);
  res.dist = dist;
  if (r != ds_comm_size(c) - 1 && dist != NULL) st = ds_dsssp_cpu(c, &g, 0, &p, &res, err);
  a->st[r] = st;
  snprintf(a->msg[r], DS_ERROR_MSG_LEN, "%s", st == DS_OK ? "" : err->msg);
  free(dist);
  ds_dgraph_free(&g);
  return st;
}

static void test_rank_leaves(const test_edges *e) {
  for (int ranks = 2; ranks <= 4; ranks += 2) {
    leave_arg a;
    memset(&a, 0, sizeof a);
    a.edges = e;
    ds_comm_options opt = {LEAVE_TIMEOUT_MS};
    ds_status rs[TEST_MAX_RANKS];
    ds_error err;
    char who[32];
    snprintf(who, sizeof who, "rank %d did not reach", ranks - 1);
    ds_comm_inproc_run(ranks, &opt, leaving_rank, &a, rs, NULL, &err);
    for (int r = 0; r + 1 < ranks; r++)
      CHECK(a.st[r] == DS_ERR_IO && strstr(a.msg[r], who) != NULL, "rank leaves, R=%d rank %d: "
            "status %d, '%s'", ranks, r, a.st[r], a.msg[r]);
  }
}

int main(int argc, char **argv) {
  const test_shape shape = {1500, 9000, 0.02, 0.1, 0.02, 30};
  const test_shape sparse = {1200, 1500, 0.0, 0.05, 0.01, 0}; /* long paths, many buckets */
  test_edges ints = test_edges_random(&shape, DS_WEIGHT_U32, 0, 11);
  test_edges floats = test_edges_random(&shape, DS_WEIGHT_F32, 0, 12);
  test_edges thin = test_edges_random(&sparse, DS_WEIGHT_U32, 0, 13);
  const graph_case cases[] = {
      {"int", &ints, 0, 0}, {"int symmetric", &ints, 1, 700}, {"float", &floats, 0, 1},
      {"float symmetric", &floats, 1, 0}, {"thin symmetric", &thin, 1, 5}};
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) check_graph(&cases[i], i == 0);

  if (argc > 1) { /* the bundled road graph */
    ds_load_options opt;
    ds_load_options_default(&opt);
    opt.use_cache = 0;
    ds_graph rome;
    ds_error err;
    if (CHECK(ds_graph_load(argv[1], &opt, &rome, &err) == DS_OK, "%s", err.msg)) {
      test_edges re = edges_of_graph(&rome);
      const graph_case rc = {"rome99", &re, 0, rome.n / 2};
      check_graph(&rc, 0);
      test_edges_free(&re);
      ds_graph_free(&rome);
    }
  }
  test_lone_source();
  test_range();
  test_bad_params(&ints);
  test_rank_leaves(&ints);
  test_edges_free(&ints);
  test_edges_free(&floats);
  test_edges_free(&thin);
  return ds_test_finish("dist sssp");
}
