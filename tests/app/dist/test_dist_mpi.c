/* The MPI backend (app/dist/comm_mpi.c) and the host side above it, one
 * process a rank under mpirun -np 2 or 3: the bootstrap (rank 0's id on every
 * rank; a maker that fails is an error everywhere), every collective (and an
 * exchange that leaves a rank out entirely), the agreement of a local failure,
 * the distributed build and delta-stepping (on random graphs, and on a
 * Graph500 Kronecker graph each process generates its share of) against
 * Dijkstra with the Graph500 validation (passing a right result, rejecting a
 * wrong one), the graph files given on the command line read by the
 * processes, each its byte range (every process's rows those of the file
 * loaded whole), and a rank that answers too late: an error on the ranks that
 * waited, within the timeout. Exits 77 where MPI was not found at configure
 * time. Each process prints its own summary line. The exchanges run twice:
 * as one MPI collective, and rank to rank in pieces of a few bytes. */
#include "ds_test.h"

#ifndef DS_HAVE_MPI
int main(void) { return ds_test_skip("built without MPI (install libopenmpi-dev, reconfigure)"); }
#else

#include <math.h>
#include <mpi.h>
#include <time.h>

#include "dist/comm_mpi.h"
#include "dist/dfile.h"
#include "dist/dkron.h"
#include "ds/graph500.h"
#include "dist/dsssp.h"
#include "dist_test_util.h"

#define LATE_TIMEOUT_MS 300u
#define LATE_SLEEP_MS 900L

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static ds_status failing_maker(void *ctx, ds_comm_id *id, ds_error *err) {
  (void)ctx;
  (void)id;
  return ds_error_set(err, DS_ERR_IO, "no entropy today");
}

static void test_bootstrap(int rank) {
  ds_comm_id id;
  ds_error err;
  ds_status st = ds_comm_mpi_bootstrap(MPI_COMM_WORLD, 10000, ds_comm_id_make, NULL, &id, &err);
  REQUIRE(st == DS_OK, "rank %d: bootstrap: %s", rank, err.msg);
  CHECK(memcmp(id.bytes, "dsid", 4) == 0, "rank %d: the id lacks its magic", rank);
  ds_comm_id root = id; /* rank 0's bytes, compared on every rank */
  MPI_Bcast(&root, (int)sizeof root, MPI_BYTE, 0, MPI_COMM_WORLD);
  CHECK(memcmp(&root, &id, sizeof id) == 0, "rank %d holds another id than rank 0", rank);
  st = ds_comm_mpi_bootstrap(MPI_COMM_WORLD, 10000, failing_maker, NULL, &id, &err);
  CHECK(st == DS_ERR_IO && strstr(err.msg, "no entropy today") != NULL,
        "rank %d: a failing maker gave %d (%s)", rank, st, err.msg);
}

/* An exchange of uneven sizes, rank p's bytes from me being p + 2 * me of value me ^ p; then one
 * where rank 1 neither sends nor receives (rank 0 sends to the others but rank 1), and a
 * collective after it: it must complete (no rank's empty buffers taken for in-place). */
static void check_exchanges(ds_comm *c) {
  const int me = ds_comm_rank(c), size = ds_comm_size(c);
  ds_error err;
  unsigned char out[64], *in = NULL;
  uint64_t bytes[TEST_MAX_RANKS], got[TEST_MAX_RANKS], at = 0;
  size_t cap = 0;
  for (int p = 0; p < size; p++) {
    bytes[p] = (uint64_t)(p + 2 * me);
    memset(out + at, me ^ p, bytes[p]);
    at += bytes[p];
  }
  REQUIRE(ds_comm_exchange(c, out, bytes, (void **)&in, &cap, got, &err) == DS_OK, "%s", err.msg);
  at = 0;
  for (int p = 0; p < size; p++) {
    CHECK(got[p] == (uint64_t)(me + 2 * p), "rank %d: %llu bytes from %d", me,
          (unsigned long long)got[p], p);
    for (uint64_t i = 0; i < got[p]; i++)
      if (in[at + i] != (unsigned char)(me ^ p)) {
        FAIL("rank %d: byte %llu from rank %d is %u", me, (unsigned long long)i, p, in[at + i]);
        break;
      }
    at += got[p];
  }
  free(in);
  uint64_t one[TEST_MAX_RANKS], some[TEST_MAX_RANKS];
  for (int p = 0; p < size; p++) one[p] = me == 0 && p != 1 ? 8 : 0;
  memset(out, 0x5a, sizeof out);
  in = NULL;
  cap = 0;
  REQUIRE(ds_comm_exchange(c, me == 1 ? NULL : out, one, (void **)&in, &cap, some, &err) == DS_OK,
          "%s", err.msg);
  CHECK(some[0] == (me != 1 ? 8u : 0u), "rank %d: %llu bytes from rank 0", me,
        (unsigned long long)some[0]);
  free(in);
  REQUIRE(ds_comm_barrier(c, &err) == DS_OK, "rank %d: the barrier after an exchange that left a "
          "rank out: %s", me, err.msg);
}

static void test_collectives(ds_comm *c) {
  const int me = ds_comm_rank(c), size = ds_comm_size(c);
  ds_error err;
  uint64_t send[TEST_MAX_RANKS], recv[TEST_MAX_RANKS];
  for (int p = 0; p < size; p++) send[p] = (uint64_t)me * 1000 + (uint64_t)p;
  REQUIRE(ds_comm_alltoall_u64(c, send, recv, &err) == DS_OK, "%s", err.msg);
  for (int p = 0; p < size; p++)
    CHECK(recv[p] == (uint64_t)p * 1000 + (uint64_t)me, "rank %d: alltoall from %d gave %llu", me,
          p, (unsigned long long)recv[p]);
  check_exchanges(c);
  /* the same rank to rank in pieces of at most 3 bytes (the way of exchanges past MPI's int
     counts): the blocks of more than 3 bytes go in several messages */
  ds_comm_mpi_set_piece(c, 3);
  check_exchanges(c);
  ds_comm_mpi_set_piece(c, 0);
  uint64_t v[3] = {10 + (uint64_t)me, 10 + (uint64_t)me, (uint64_t)me + 1};
  REQUIRE(ds_comm_allreduce(c, DS_COMM_U64, DS_COMM_MIN, v, v, 1, &err) == DS_OK, "%s", err.msg);
  REQUIRE(ds_comm_allreduce(c, DS_COMM_U64, DS_COMM_MAX, v + 1, v + 1, 1, &err) == DS_OK, "%s", err.msg);
  REQUIRE(ds_comm_allreduce(c, DS_COMM_U64, DS_COMM_SUM, v + 2, v + 2, 1, &err) == DS_OK, "%s", err.msg);
  CHECK(v[0] == 10 && v[1] == 10 + (uint64_t)size - 1 && v[2] == (uint64_t)size * (size + 1) / 2,
        "rank %d: min %llu max %llu sum %llu", me, (unsigned long long)v[0],
        (unsigned long long)v[1], (unsigned long long)v[2]);
  double f = 0.1 * (me + 1), fs = 0, all[TEST_MAX_RANKS];
  REQUIRE(ds_comm_allreduce(c, DS_COMM_F64, DS_COMM_SUM, &f, &fs, 1, &err) == DS_OK, "%s", err.msg);
  MPI_Allgather(&fs, 1, MPI_DOUBLE, all, 1, MPI_DOUBLE, MPI_COMM_WORLD);
  for (int p = 0; p < size; p++)
    CHECK(memcmp(&all[p], &fs, sizeof fs) == 0, "rank %d's f64 sum %.17g differs from rank %d's "
          "%.17g", me, fs, p, all[p]);
  REQUIRE(ds_comm_barrier(c, &err) == DS_OK, "%s", err.msg);
  // agreement: the last rank fails, every rank learns its message
  ds_status local = me == size - 1 ? ds_error_set(&err, DS_ERR_NOMEM, "no room at the inn") : DS_OK;
  uint64_t detail = (uint64_t)me;
  ds_status st = ds_comm_agree_detail(c, local, &detail, &err);
  CHECK(st == DS_ERR_NOMEM && strstr(err.msg, "no room at the inn") != NULL &&
            detail == (uint64_t)size - 1,
        "rank %d: agreement gave %d, '%s', detail %llu", me, st, err.msg, (unsigned long long)detail);
  CHECK(ds_comm_agree(c, DS_OK, &err) == DS_OK, "rank %d: all-OK agreement: %s", me, err.msg);
}

/* The distributed search on this process's part g from source, compared with
 * Dijkstra on the whole graph (small: each process can hold it), then
 * Graph500's validation, of the result and of a spoiled one. */
static void check_search(ds_comm *c, const ds_dgraph *g, const ds_graph *whole, uint32_t source,
                         uint32_t buckets) {
  const int me = ds_comm_rank(c), size = ds_comm_size(c);
  const ds_weight_type wt = whole->weight_type;
  ds_error err;
  void *dist = calloc(g->n_local + 1, sizeof(uint32_t));
  uint32_t *pred = calloc(g->n_local + 1, sizeof(uint32_t));
  void *expect = calloc(whole->n, sizeof(uint32_t));
  if (dist == NULL || pred == NULL || expect == NULL) exit(2);
  ds_dsssp_params p;
  ds_dsssp_params_default(&p);
  p.delta = ds_delta_auto_cpu(whole) / 4;
  p.buckets = buckets;
  p.want_pred = 1;
  ds_dsssp_result res;
  memset(&res, 0, sizeof res);
  res.dist = dist;
  res.pred = pred;
  if (!CHECK(ds_dsssp_cpu(c, g, source, &p, &res, &err) == DS_OK, "rank %d: search: %s", me,
             err.msg))
    goto done;
  ds_sssp_params dp;
  ds_sssp_params_default(&dp);
  ds_sssp_result dr;
  memset(&dr, 0, sizeof dr);
  dr.dist = expect;
  REQUIRE(ds_sssp_dijkstra(whole, source, &dp, &dr, &err) == DS_OK, "%s", err.msg);
  int bad = 0;
  for (uint32_t i = 0; i < g->n_local && !bad; i++) {
    const uint32_t v = g->first + i;
    if (wt == DS_WEIGHT_F32) {
      float x = ((float *)expect)[v], y = ((float *)dist)[i];
      bad = !(x == y || fabsf(x - y) <= DS_FLOAT_REL_TOL * fmaxf(x, y));
    } else {
      bad = ((uint32_t *)expect)[v] != ((uint32_t *)dist)[i];
    }
    if (bad) FAIL("rank %d: vertex %u's distance differs from Dijkstra's", me, v);
  }
  ds_status st = ds_dsssp_validate(c, g, source, dist, DS_DIST_NATURAL, pred, NULL, &err);
  CHECK(st == DS_OK, "rank %d: validation: %s", me, err.msg);
  // a reached vertex of the last rank loses its predecessor: rejected on every rank
  uint32_t victim = UINT32_MAX;
  for (int32_t i = (int32_t)g->n_local - 1; i >= 0 && victim == UINT32_MAX; i--)
    if (pred[i] != DS_NO_PRED) victim = g->first + (uint32_t)i;
  uint64_t v64 = me == size - 1 ? victim : UINT32_MAX;
  MPI_Allreduce(MPI_IN_PLACE, &v64, 1, MPI_UINT64_T, MPI_MIN, MPI_COMM_WORLD);
  if (ds_dgraph_owns(g, (uint32_t)v64)) pred[v64 - g->first] = DS_NO_PRED;
  uint32_t badv = 0;
  st = ds_dsssp_validate(c, g, source, dist, DS_DIST_NATURAL, pred, &badv, &err);
  CHECK(v64 == UINT32_MAX || (st == DS_ERR_VALIDATION && badv == v64 &&
                              strstr(err.msg, "has no predecessor") != NULL),
        "rank %d: a missing predecessor of %llu gave %d, vertex %u, '%s'", me,
        (unsigned long long)v64, st, badv, err.msg);
done:
  free(dist);
  free(pred);
  free(expect);
}

/* The search on a random graph whose edges the processes hold in slices. */
static void test_search(ds_comm *c, ds_weight_type wt, int symmetric, uint32_t buckets) {
  const int me = ds_comm_rank(c), size = ds_comm_size(c);
  const test_shape shape = {800, 5000, 0.02, 0.1, 0.02, 10};
  test_edges e = test_edges_random(&shape, wt, 0, 100 + (uint64_t)wt);
  ds_edge_list s = test_slice(&e, me, size, 0);
  ds_dgraph g;
  ds_graph whole;
  ds_error err;
  memset(&whole, 0, sizeof whole);
  if (CHECK(ds_dgraph_build(c, &s, symmetric, NULL, &g, NULL, &err) == DS_OK, "rank %d: build: "
            "%s", me, err.msg)) {
    ds_edge_list all = test_whole(&e);
    if (CHECK(ds_csr_build(&all, symmetric, NULL, &whole, &err) == DS_OK, "%s", err.msg))
      check_search(c, &g, &whole, 0, buckets);
    ds_dgraph_free(&g);
  }
  ds_graph_free(&whole);
  test_edges_free(&e);
}

/* The search on Graph500's Kronecker graph, each process generating its share
 * of the edges; Dijkstra's oracle on the graph generated whole. */
static void test_kron_search(ds_comm *c, uint32_t scale, uint32_t buckets) {
  const int me = ds_comm_rank(c);
  ds_dkron_spec spec;
  ds_dkron_spec_default(&spec);
  spec.scale = scale;
  spec.threads = 1;
  ds_dgraph g;
  ds_graph whole;
  ds_dkron_info info;
  ds_error err;
  memset(&info, 0, sizeof info);
  memset(&whole, 0, sizeof whole);
  if (!CHECK(ds_dkron_build(c, &spec, &g, &info, &err) == DS_OK, "rank %d: kron build: %s", me,
             err.msg))
    return;
  uint64_t drawn = info.edges;
  MPI_Allreduce(MPI_IN_PLACE, &drawn, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
  CHECK(drawn == ds_dkron_edge_count(&spec), "rank %d: the processes drew %llu edges", me,
        (unsigned long long)drawn);
  if (CHECK(ds_graph500_build(spec.scale, spec.edge_factor, spec.seed, NULL, &whole, &err) == DS_OK, "%s", err.msg)) {
    CHECK(g.m == whole.m && g.n == whole.n, "rank %d: %llu arcs, the whole graph %llu", me,
          (unsigned long long)g.m, (unsigned long long)whole.m);
    uint32_t source = 0; /* the first vertex with arcs */
    while (source + 1 < whole.n && whole.row_offsets[source + 1] == whole.row_offsets[source])
      source++;
    check_search(c, &g, &whole, source, buckets);
  }
  ds_graph_free(&whole);
  ds_dgraph_free(&g);
}

/* A graph file read by the processes, each its byte range (ds_dfile_build),
 * as `sssp --mpi --graph FILE` reads it: every process's rows are those of
 * the file loaded whole; the statistics of the parts give the one-process
 * run's delta, buckets, width and candidate sources; the search from the
 * first vertex with arcs (sssp's default source) matches Dijkstra's. */
static void test_file(ds_comm *c, const char *path) {
  const int me = ds_comm_rank(c), size = ds_comm_size(c);
  ds_load_options opt;
  ds_load_options_default(&opt);
  opt.use_cache = 0;
  opt.progress = 0;
  ds_dgraph g;
  ds_graph whole;
  ds_dfile_info info;
  ds_error err;
  memset(&info, 0, sizeof info);
  if (!CHECK(ds_dfile_build(c, path, &opt, &g, &info, &err) == DS_OK, "rank %d: %s: %s", me,
             path, err.msg))
    return;
  REQUIRE(ds_graph_load(path, &opt, &whole, &err) == DS_OK, "%s", err.msg);
  uint64_t rows_bad = 0;
  for (uint32_t i = 0; i < g.n_local; i++) {
    const uint32_t v = g.first + i;
    const uint64_t b = whole.row_offsets[v], deg = whole.row_offsets[v + 1] - b;
    rows_bad += g.row_offsets[i + 1] - g.row_offsets[i] != deg ||
                memcmp(g.col + g.row_offsets[i], whole.col + b, deg * sizeof(uint32_t)) != 0 ||
                memcmp((const uint32_t *)g.weights + g.row_offsets[i],
                       (const uint32_t *)whole.weights + b, deg * sizeof(uint32_t)) != 0;
  }
  uint64_t parts[2] = {g.n_local, info.entries};
  MPI_Allreduce(MPI_IN_PLACE, parts, 2, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
  CHECK(rows_bad == 0 && g.n == whole.n && g.m == whole.m && parts[0] == whole.n &&
        parts[1] == whole.input_entries, "rank %d of %d: %s: %llu rows differ, %llu vertices "
        "and %llu entries over the ranks", me, size, path, (unsigned long long)rows_bad,
        (unsigned long long)parts[0], (unsigned long long)parts[1]);
  ds_dgraph_stats s;
  if (CHECK(ds_dgraph_stats_of(c, &g, &s, &err) == DS_OK, "rank %d: %s: stats: %s", me, path,
            err.msg)) {
    const double delta = ds_delta_auto(&whole);
    uint32_t with_arcs = 0, source = UINT32_MAX;
    for (uint32_t v = whole.n; v-- > 0;)
      if (whole.row_offsets[v + 1] > whole.row_offsets[v]) {
        with_arcs++;
        source = v;
      }
    /* float weights: the parts' sums added in another order than one sum, within 1e-9 */
    const double dd = ds_dgraph_delta_auto(&s);
    CHECK((whole.weight_type == DS_WEIGHT_F32 ? fabs(dd - delta) <= 1e-9 * delta : dd == delta) &&
          ds_dgraph_buckets_auto(&s, delta) ==
          ds_buckets_auto(&whole, delta) && ds_dgraph_dist_width(&s) == ds_sssp_dist_width(&whole) &&
          s.with_arcs == with_arcs && s.m == whole.m, "rank %d of %d: %s: the parts' delta %g, "
          "buckets %u, width %d, %u vertices with arcs; the whole graph's %g, %u, %d, %u", me, size,
          path, ds_dgraph_delta_auto(&s), ds_dgraph_buckets_auto(&s, delta),
          (int)ds_dgraph_dist_width(&s), s.with_arcs, delta, ds_buckets_auto(&whole, delta),
          (int)ds_sssp_dist_width(&whole), with_arcs);
    if (source != UINT32_MAX && ds_sssp_dist_width(&whole) == DS_DIST_NATURAL)
      check_search(c, &g, &whole, source, ds_dgraph_buckets_auto(&s, delta));
  }
  ds_graph_free(&whole);
  ds_dgraph_free(&g);
}

/* The last rank comes to a barrier after the others' timeout: they fail, it
 * does not (its barrier matches theirs, still posted). */
static void test_late_rank(int rank, int size) {
  ds_comm_options opt = {LATE_TIMEOUT_MS};
  ds_comm *c = NULL;
  ds_error err;
  REQUIRE(ds_comm_mpi_create(MPI_COMM_WORLD, &opt, &c, &err) == DS_OK, "%s", err.msg);
  const int late = rank == size - 1;
  double t0 = now_s();
  if (late) {
    struct timespec ts = {LATE_SLEEP_MS / 1000, (LATE_SLEEP_MS % 1000) * 1000000L};
    nanosleep(&ts, NULL);
  }
  ds_status st = ds_comm_barrier(c, &err);
  double took = now_s() - t0;
  if (late) {
    CHECK(st == DS_OK, "the late rank's barrier: %s", err.msg);
  } else {
    CHECK(st == DS_ERR_IO && strstr(err.msg, "did not complete within 300 ms") != NULL,
          "rank %d: waiting for a late rank gave %d (%s)", rank, st, err.msg);
    CHECK(took < LATE_SLEEP_MS / 1e3, "rank %d waited %.2f s, past its timeout", rank, took);
    uint64_t x = 1;
    CHECK(ds_comm_allreduce(c, DS_COMM_U64, DS_COMM_SUM, &x, &x, 1, &err) == DS_ERR_IO,
          "rank %d: a failed communicator answered", rank);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  ds_comm_destroy(c);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size > TEST_MAX_RANKS) {
    MPI_Finalize();
    return ds_test_skip("%d ranks: this test runs on at most %d", size, TEST_MAX_RANKS);
  }
  test_bootstrap(rank);
  ds_comm *c = NULL;
  ds_error err;
  if (CHECK(ds_comm_mpi_create(MPI_COMM_WORLD, NULL, &c, &err) == DS_OK, "rank %d: %s", rank,
            err.msg)) {
    CHECK(ds_comm_rank(c) == rank && ds_comm_size(c) == size, "rank/size %d/%d, MPI %d/%d",
          ds_comm_rank(c), ds_comm_size(c), rank, size);
    CHECK(strcmp(ds_comm_backend_name(c), "mpi") == 0, "backend %s", ds_comm_backend_name(c));
    test_collectives(c);
    test_search(c, DS_WEIGHT_U32, 0, 2);
    test_search(c, DS_WEIGHT_F32, 1, 10);
    test_kron_search(c, 10, 8);
    for (int i = 1; i < argc; i++) test_file(c, argv[i]);
    ds_comm_destroy(c);
  }
  test_late_rank(rank, size);
  MPI_Finalize();
  return ds_test_finish("dist mpi, rank %d of %d", rank, size);
}
#endif
