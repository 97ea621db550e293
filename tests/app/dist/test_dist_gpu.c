/* The GPU engine of distributed delta-stepping (app/dist/dsssp_gpu.cu) over
 * the NCCL backend, on 2 or more GPUs:
 *   test_dist_gpu --gpus N               one process, a thread a GPU;
 *   mpirun -np N test_dist_gpu --mpi     a process a GPU;
 *   ... --fail-rank R                    rank R asks for a GPU that does not
 *                                        exist: every rank fails at setup with
 *                                        R's message, at once, no hang.
 * Graphs: random directed with integer weights (zero weights, duplicates,
 * self-loops, a hub), random symmetric with float weights, and Kronecker
 * (Graph500's a, b, c; scale 12) with integer weights and with float weights
 * in [0, 1) as Graph500's SSSP kernel draws them, and a hub of some 38,000
 * heads (the engine relaxes such a vertex with the whole grid). On each, deltas of the
 * automatic one and an eighth of it, with and without predecessors, 64-bit
 * distances once: the GPU engine's distances against Dijkstra's and against
 * the CPU twin's on the same ranks, its result through the distributed
 * Graph500 validator, the same rounds on every rank; first on each graph,
 * the engine alone over the host communicator (updates staged through host
 * memory), so that a failure there is told apart from the transport's, then
 * one search set up alone over NCCL, then the others on one engine kept
 * across them (ds_dsssp_gpu_open).
 * Exits 77 without NCCL, without MPI under --mpi, or with fewer GPUs than ranks.
 */
#include "ds_test.h"

#include <math.h>
#include <time.h>

#ifndef DS_HAVE_NCCL
int main(void) { return ds_test_skip("built without NCCL (CUDA and NCCL found at configure time)"); }
#else

#include "dist/dsssp_gpu.h"
#include "dist_test_util.h"
#include "ds/gen.h"
#include "gpu_launch.h"

#define KRON_SCALE 12
#define KRON_EDGE_FACTOR 16
#define KRON_WEIGHT_MAX 255u
#define GRAPH500_WEIGHT_SCALE (1.0f / 256) /* integer weights 0..255 -> float [0, 1) */
#define SETUP_FAIL_BOUND_S 20.0 /* far below the 120 s a rank waiting on its timeout would take;
                                   MPI and CUDA starting beside 30 other processes took 7.8 s */
#define MAX_CASES 5

typedef struct {
  const char *name;
  test_edges edges;
  int symmetric;
  uint32_t source;
  double delta;  /* the automatic one */
  void *expect;  /* Dijkstra's distances, natural width, the whole graph */
  uint32_t reached;
} graph_case;

typedef struct {
  graph_case cases[MAX_CASES];
  int count;
  int quick;
} gpu_arg;

/* ---- the ranks' work ---------------------------------------------------------- */

static int same_dist(int is_float, ds_dist_width w, const void *a, const void *b, uint32_t i) {
  if (is_float) {
    const float x = ((const float *)a)[i], y = ((const float *)b)[i];
    if (isinf(x) || isinf(y)) return isinf(x) && isinf(y);
    return fabsf(x - y) <= DS_FLOAT_REL_TOL * fmaxf(fabsf(x), fabsf(y));
  }
  if (w == DS_DIST_WIDE) return ((const uint64_t *)a)[i] == ((const uint64_t *)b)[i];
  return ((const uint32_t *)a)[i] == ((const uint32_t *)b)[i];
}

/* This rank's distances against the whole array's (at g->first), or a rank's twin's. */
static void compare(rank_checks *rc, const char *what, const ds_dgraph *g, ds_dist_width w,
                    const void *expect, uint32_t at, const void *got) {
  const int fl = g->weight_type == DS_WEIGHT_F32;
  const size_t wb = fl ? 4 : w == DS_DIST_WIDE ? 8 : 4;
  const char *e = (const char *)expect + (size_t)at * wb;
  for (uint32_t v = 0; v < g->n_local; v++)
    if (!RCHECK(rc, same_dist(fl, w, e, got, v), "%s: vertex %u differs", what, g->first + v))
      return;
}

/* The same value on every rank (a collective over host). */
static int everywhere_same(ds_comm *host, uint64_t v) {
  uint64_t lo = 0, hi = 0;
  ds_error err;
  if (ds_comm_allreduce(host, DS_COMM_U64, DS_COMM_MIN, &v, &lo, 1, &err) != DS_OK ||
      ds_comm_allreduce(host, DS_COMM_U64, DS_COMM_MAX, &v, &hi, 1, &err) != DS_OK)
    return 0;
  return lo == hi;
}

typedef struct {
  double delta_scale;
  int want_pred, staged;
  ds_dist_width width;
} variant;

/* Returns 0 where the GPU search failed (on every rank: its errors are
 * agreed), so that the ranks stop together instead of meeting a failed
 * communicator's timeouts case after case. */
static int check_variant(ds_comm *host, ds_comm *dev, ds_dsssp_gpu_engine *engine,
                         const graph_case *gc, const ds_dgraph *g, const variant *va,
                         rank_checks *rc) {
  ds_dsssp_params p;
  ds_dsssp_params_default(&p);
  p.delta = gc->delta * va->delta_scale;
  p.want_pred = va->want_pred;
  p.dist_width = va->width;
  char what[160];
  snprintf(what, sizeof what, "%s delta %g%s%s%s%s", gc->name, p.delta, va->want_pred ? "" : " no pred",
           va->width == DS_DIST_WIDE ? " wide" : "", va->staged ? " staged" : "",
           engine != NULL ? " (kept engine)" : "");
  const size_t n = g->n_local ? g->n_local : 1;
  void *dg = malloc(n * 8), *dc = malloc(n * 8);
  uint32_t *pg = malloc(n * 4), *pc = malloc(n * 4);
  ds_dsssp_result rg, rcpu;
  memset(&rg, 0, sizeof rg);
  memset(&rcpu, 0, sizeof rcpu);
  rg.dist = dg, rg.pred = va->want_pred ? pg : NULL;
  rcpu.dist = dc, rcpu.pred = va->want_pred ? pc : NULL;
  ds_error err;
  int ran = 0;
  if (!RCHECK(rc, dg && dc && pg && pc, "out of memory")) exit(2); /* the others would wait */
  // 1. the GPU engine, and the CPU twin on the same ranks
  const ds_status st = engine != NULL ? ds_dsssp_gpu_search(engine, gc->source, &p, &rg, &err)
                                       : ds_dsssp_gpu(va->staged ? host : dev, g, gc->source, &p, &rg, &err);
  ran = RCHECK(rc, st == DS_OK, "%s: gpu: %s", what, err.msg);
  if (!ran) goto done;
  if (!RCHECK(rc, ds_dsssp_cpu(host, g, gc->source, &p, &rcpu, &err) == DS_OK, "%s: cpu twin: %s",
              what, err.msg)) goto done;
  // 2. the distances: Dijkstra's (natural width), the twin's
  if (va->width == DS_DIST_NATURAL) compare(rc, what, g, va->width, gc->expect, g->first, dg);
  compare(rc, what, g, va->width, dc, 0, dg);
  // 3. Graph500's rules, the reached count, the same rounds everywhere
  uint32_t bad = 0;
  RCHECK(rc, ds_dsssp_validate(host, g, gc->source, dg, va->width, rg.pred, &bad, &err) == DS_OK,
         "%s: validator: %s", what, err.msg);
  uint64_t reached = rg.reached;
  ds_comm_allreduce(host, DS_COMM_U64, DS_COMM_SUM, &reached, &reached, 1, &err);
  RCHECK(rc, reached == gc->reached, "%s: %llu reached, Dijkstra %u", what,
         (unsigned long long)reached, gc->reached);
  RCHECK(rc, everywhere_same(host, rg.rounds) && rg.rounds > 0, "%s: rounds differ (%llu here)",
         what, (unsigned long long)rg.rounds);
  RCHECK(rc, rg.updates_sent <= rg.updates_remote, "%s: %llu updates sent of %llu offered", what,
         (unsigned long long)rg.updates_sent, (unsigned long long)rg.updates_remote);
  if (ds_comm_rank(dev) == 0)
    printf("%s: %llu rounds, %llu buckets, %llu arcs relaxed and %llu updates sent on rank 0, "
           "%.2f ms\n", what, (unsigned long long)rg.rounds, (unsigned long long)rg.buckets,
           (unsigned long long)rg.edges_relaxed, (unsigned long long)rg.updates_sent, rg.time_ms);
done:
  free(dg);
  free(dc);
  free(pg);
  free(pc);
  return ran;
}

static ds_status sssp_rank(ds_comm *host, ds_comm *dev, void *argp, ds_error *err) {
  const gpu_arg *a = argp;
  rank_checks rc = {ds_comm_rank(dev), 0};
  /* the engine alone over the host communicator first: a failure there is the engine's, not
   * the transport's */
  const variant variants[] = {{1, 1, 1, DS_DIST_NATURAL},
                              {1, 1, 0, DS_DIST_NATURAL},
                              {0.125, 1, 0, DS_DIST_NATURAL},
                              {1, 0, 0, DS_DIST_NATURAL},
                              {1, 1, 0, DS_DIST_WIDE}};
  for (int c = 0; c < a->count; c++) {
    const graph_case *gc = &a->cases[c];
    ds_edge_list s = test_slice(&gc->edges, rc.rank, ds_comm_size(dev), 0);
    ds_dgraph g;
    ds_error e;
    if (!RCHECK(&rc, ds_dgraph_build(host, &s, gc->symmetric, NULL, &g, NULL, &e) == DS_OK,
                "%s: build: %s", gc->name, e.msg))
      return rank_outcome(&rc, err); /* every rank failed it: the collectives stay matched */
    /* the first search over NCCL sets its engine up alone (ds_dsssp_gpu), the later ones share
       one kept across them (other deltas, predecessors or not, widths) */
    ds_dsssp_gpu_engine *engine = NULL;
    int ok = RCHECK(&rc, ds_dsssp_gpu_open(dev, &g, 1, &engine, &e) == DS_OK, "%s: open: %s",
                    gc->name, e.msg);
    /* the quick form: the search alone over NCCL and one on the kept engine */
    const size_t first = a->quick ? 1 : 0, end = a->quick ? 3 : sizeof variants / sizeof *variants;
    for (size_t v = first; ok && v < end; v++) {
      if (variants[v].width == DS_DIST_WIDE && g.weight_type == DS_WEIGHT_F32) continue;
      ok = check_variant(host, dev, v >= 2 ? engine : NULL, gc, &g, &variants[v], &rc);
    }
    ds_dsssp_gpu_close(engine);
    ds_dgraph_free(&g);
    if (!ok) break;
  }
  return rank_outcome(&rc, err);
}

/* ---- the cases ------------------------------------------------------------------- */

/* Dijkstra on the whole graph, and the automatic delta. */
static void case_finish(graph_case *gc) {
  ds_graph whole;
  ds_error err;
  ds_edge_list all = test_whole(&gc->edges);
  if (ds_csr_build(&all, gc->symmetric, NULL, &whole, &err) != DS_OK) {
    fprintf(stderr, "%s: %s\n", gc->name, err.msg);
    exit(2);
  }
  gc->delta = ds_delta_auto_cpu(&whole);
  gc->expect = calloc(whole.n ? whole.n : 1, sizeof(uint32_t));
  ds_sssp_params dp;
  ds_sssp_params_default(&dp);
  ds_sssp_result dr;
  memset(&dr, 0, sizeof dr);
  dr.dist = gc->expect;
  if (gc->expect == NULL || ds_sssp_dijkstra(&whole, gc->source, &dp, &dr, &err) != DS_OK) {
    fprintf(stderr, "%s: dijkstra: %s\n", gc->name, err.msg);
    exit(2);
  }
  gc->reached = dr.reached;
  ds_graph_free(&whole);
}

/* Graph500's Kronecker edges (with their self-loops and duplicates), integer
 * weights 1..255 or those weights scaled into [0, 1). */
static test_edges kron_edges(int as_float) {
  ds_gen_spec spec;
  ds_gen_spec_default(&spec, DS_GEN_KRON);
  spec.scale = KRON_SCALE;
  spec.edge_factor = KRON_EDGE_FACTOR;
  spec.weight_min = 1;
  spec.weight_max = KRON_WEIGHT_MAX;
  ds_gen_edge_list k;
  ds_error err;
  if (ds_gen_edges(&spec, &k, &err) != DS_OK) {
    fprintf(stderr, "kron: %s\n", err.msg);
    exit(2);
  }
  test_edges e;
  memset(&e, 0, sizeof e);
  e.n = k.n;
  e.count = k.count;
  e.src = k.src, e.dst = k.dst;
  e.type = as_float ? DS_WEIGHT_F32 : DS_WEIGHT_U32;
  e.weights = k.w;
  if (as_float)
    for (uint64_t i = 0; i < k.count; i++) {
      const float f = (float)k.w[i] * GRAPH500_WEIGHT_SCALE;
      memcpy(&k.w[i], &f, sizeof f);
    }
  return e;
}

static void make_cases(gpu_arg *a) {
  const test_shape shape = {3000, 30000, 0.02, 0.1, 0.02, 20};
  a->cases[0] = (graph_case){"random u32 directed", test_edges_random(&shape, DS_WEIGHT_U32, 0, 11),
                             0, 0, 0, NULL, 0};
  a->cases[1] = (graph_case){"random f32 symmetric", test_edges_random(&shape, DS_WEIGHT_F32, 0, 12),
                             1, 5, 0, NULL, 0};
  a->cases[2] = (graph_case){"kron12 u32", kron_edges(0), 1, 0, 0, NULL, 0};
  a->cases[3] = (graph_case){"kron12 f32 [0,1)", kron_edges(1), 1, 0, 0, NULL, 0};
  /* a hub of about 38,000 distinct heads, above the engine's BIG_DEGREE (8,192: relaxed by the
     whole grid, not one warp) and LOCAL_STEP_MAX_LOWERED (32,768: the round takes no local
     step after the one that lowered them); the source is the hub */
  const test_shape hub = {60000, 120000, 0.5, 0.05, 0.01, 0};
  a->cases[4] = (graph_case){"hub u32 directed", test_edges_random(&hub, DS_WEIGHT_U32, 0, 13),
                             0, 0, 0, NULL, 0};
  a->count = MAX_CASES;
  for (int c = 2; c < 4; c++) a->cases[c].source = a->cases[c].edges.src[0]; /* not isolated */
  if (a->quick) { /* random u32, Kronecker f32, the hub */
    test_edges_free(&a->cases[1].edges);
    test_edges_free(&a->cases[2].edges);
    a->cases[1] = a->cases[3];
    a->cases[2] = a->cases[4];
    a->count = 3;
  }
  for (int c = 0; c < a->count; c++) case_finish(&a->cases[c]);
}

int main(int argc, char **argv) {
  launch_opts o;
  const int rc = launch_start(&o, &argc, &argv);
  if (rc != 0) return rc;
  gpu_arg *a = calloc(1, sizeof *a);
  if (a == NULL) return 2;
  a->quick = o.quick;
  make_cases(a);
  ds_status rank_status[LAUNCH_MAX_RANKS];
  ds_error rank_err[LAUNCH_MAX_RANKS], err;
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  launch_run(&o, sssp_rank, a, NULL, rank_status, rank_err, &err);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  const double took = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
  for (int r = launch_first(&o); r < launch_last(&o); r++) {
    if (o.fail_rank < 0) {
      CHECK(rank_status[r] == DS_OK, "rank %d: %s", r, rank_err[r].msg);
      continue;
    }
    char who[32];
    snprintf(who, sizeof who, "rank %d", o.fail_rank);
    CHECK(rank_status[r] == DS_ERR_DEVICE && strstr(rank_err[r].msg, who) != NULL,
          "rank %d: a failed setup gave %d (%s)", r, rank_status[r], rank_err[r].msg);
  }
  if (o.fail_rank >= 0) {
    CHECK(took < SETUP_FAIL_BOUND_S, "the failed setup took %.1f s", took);
    printf("every rank: %s\n", rank_err[launch_first(&o)].msg);
  }
  for (int c = 0; c < a->count; c++) {
    test_edges_free(&a->cases[c].edges);
    free(a->cases[c].expect);
  }
  free(a);
  launch_end(&o);
  return ds_test_finish("dist gpu sssp, %d ranks%s", o.gpus, o.mpi ? " (mpi)" : "");
}
#endif
