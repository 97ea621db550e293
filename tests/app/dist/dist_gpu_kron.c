/* A timing run of the distributed GPU engine on a Graph500 Kronecker graph, on
 * the GPUs of one machine (not a CTest test: a first measurement, until
 * `sssp --gpus N` exists):
 *   dist_gpu_kron --gpus N --scale S [--edge-factor F] [--trials T] [--delta D]
 *                 [--int-weights | --by-rank]
 *   mpirun -np N dist_gpu_kron --mpi --scale S ...
 * With --by-rank no process holds the graph: each rank generates its share of
 * Graph500's graph (ds_dkron_build_device: drawn and grouped by owner on its
 * GPU, float weights on [0, 1), sssp --kron's
 * graph) and the JSON line adds the build's phases (the slowest rank's), the
 * graph's scale bounded by the GPUs' memory alone. Otherwise
 * every process draws the whole edge list (ds_gen_edges: Graph500's a, b, c,
 * permuted, self-loops and duplicates kept, seed 1: `graphgen kron --scale S`'s
 * graph; integer weights 1..255 scaled into (0, 1) as Graph500's SSSP draws
 * floats, or kept with --int-weights, to compare with the one-GPU engine on
 * graphgen's file), each rank builds its part from its
 * slice over the host communicator, then T searches from one source on the
 * GPUs (predecessors on), the last one checked by the distributed Graph500
 * validator. Rank 0 prints one JSON line: ranks, the graph, each rank's arcs,
 * the source (0-based: sssp's --source is that plus 1), the build time, each trial's time (the slowest rank's), the median, rounds,
 * updates sent, the split of rank 0's time (relax and apply, exchange,
 * all-reduce) and arcs of reached vertices per second. Delta defaults to
 * DS_DELTA_AUTO_SCALE times the mean weight (the GPU rule of sssp.h for dense
 * graphs). Exit 0 when every rank's search and validation passed.
 */
#include "ds_test.h"

#ifndef DS_HAVE_NCCL
int main(void) { return ds_test_skip("built without NCCL (CUDA and NCCL found at configure time)"); }
#else

#include <time.h>

#include "dist/dkron.h"
#include "dist/dkron_gpu.h"
#include "dist/dsssp_gpu.h"
#include "dist_test_util.h"
#include "ds/gen.h"
#include "gpu_launch.h"

#define MAX_TRIALS 32
#define WEIGHT_SCALE (1.0f / 256) /* integer weights 1..255 -> float (0, 1) */

typedef struct {
  uint32_t scale, edge_factor;
  int trials, int_weights, by_rank;
  double delta;
  test_edges edges;
  uint32_t source;
} kron_arg;

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return 1e3 * (double)ts.tv_sec + 1e-6 * (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

#define BUILD_PHASES 5 /* generate, partition, group by owner, exchange, CSR */

/* --by-rank: this rank's share generated and built (ds_dkron_build_device); the
 * slowest rank's time in each phase; the source (the first vertex with arcs)
 * and, unless given, delta (DS_DELTA_AUTO_SCALE times the mean weight), over
 * every rank's arcs. */
static ds_status by_rank_part(const kron_arg *a, ds_comm *host, ds_dgraph *g, double *phases,
                              uint32_t *source, double *delta, ds_error *err) {
  ds_dkron_spec spec;
  ds_dkron_spec_default(&spec);
  spec.scale = a->scale;
  spec.edge_factor = a->edge_factor;
  ds_dkron_info info;
  memset(&info, 0, sizeof info);
  const ds_dkron_gpu_options gpu = {-1, 0}; /* the rank's GPU, set by the launch */
  ds_status st = ds_dkron_build_device(host, &spec, &gpu, g, &info, err);
  if (st != DS_OK) return st;
  const double ms[BUILD_PHASES] = {info.generate_ms, info.build.partition_ms, info.build.group_ms,
                                   info.build.exchange_ms, info.build.build_ms};
  uint64_t first = UINT64_MAX;
  for (uint32_t i = 0; i < g->n_local && first == UINT64_MAX; i++)
    if (g->row_offsets[i + 1] > g->row_offsets[i]) first = (uint64_t)g->first + i;
  double sum = 0.0;
  for (uint64_t e = 0; e < g->m_local; e++) sum += (double)((const float *)g->weights)[e];
  if ((st = ds_comm_allreduce(host, DS_COMM_F64, DS_COMM_MAX, ms, phases, BUILD_PHASES, err)) ||
      (st = ds_comm_allreduce(host, DS_COMM_U64, DS_COMM_MIN, &first, &first, 1, err)) ||
      (st = ds_comm_allreduce(host, DS_COMM_F64, DS_COMM_SUM, &sum, &sum, 1, err))) {
    ds_dgraph_free(g);
    return st;
  }
  *source = first == UINT64_MAX ? 0 : (uint32_t)first;
  if (*delta == 0) *delta = DS_DELTA_AUTO_SCALE * (g->m ? sum / (double)g->m : 1.0);
  return DS_OK;
}

static ds_status kron_rank(ds_comm *host, ds_comm *dev, void *argp, ds_error *err) {
  kron_arg *a = argp;
  const int me = ds_comm_rank(host), ranks = ds_comm_size(host);
  // 1. this rank's part of the graph: generated here (--by-rank), or built from its slice
  ds_dgraph g;
  double t0 = now_ms();
  double phases[BUILD_PHASES] = {0};
  uint32_t source = a->source;
  double delta = a->delta;
  ds_status st;
  if (a->by_rank) {
    st = by_rank_part(a, host, &g, phases, &source, &delta, err);
  } else {
    ds_edge_list s = test_slice(&a->edges, me, ranks, 0);
    st = ds_dgraph_build(host, &s, 1, NULL, &g, NULL, err);
  }
  if (st != DS_OK) return st;
  const double build_ms = now_ms() - t0;
  const size_t n = g.n_local ? g.n_local : 1;
  uint32_t *dist = malloc(n * sizeof *dist); /* float or integer distances: 4 bytes */
  uint32_t *pred = malloc(n * sizeof *pred);
  st = ds_comm_agree(host, dist && pred ? DS_OK : ds_error_set(err, DS_ERR_NOMEM, "out of memory"),
                     err);
  // 2. the searches; each trial's time is the slowest rank's
  ds_dsssp_params p;
  ds_dsssp_params_default(&p);
  p.delta = delta;
  p.want_pred = 1;
  ds_dsssp_result res;
  memset(&res, 0, sizeof res);
  double times[MAX_TRIALS];
  for (int t = 0; st == DS_OK && t < a->trials; t++) {
    memset(&res, 0, sizeof res);
    res.dist = dist, res.pred = pred;
    st = ds_dsssp_gpu(dev, &g, source, &p, &res, err);
    if (st == DS_OK)
      st = ds_comm_allreduce(host, DS_COMM_F64, DS_COMM_MAX, &res.time_ms, &times[t], 1, err);
  }
  // 3. the last result, by Graph500's rules; the totals
  uint32_t bad = 0;
  if (st == DS_OK) st = ds_dsssp_validate(host, &g, source, dist, DS_DIST_NATURAL, pred, &bad, err);
  uint64_t sums[3] = {res.reached_arcs, res.reached, res.updates_sent};
  if (st == DS_OK) st = ds_comm_allreduce(host, DS_COMM_U64, DS_COMM_SUM, sums, sums, 3, err);
  uint64_t arcs[LAUNCH_MAX_RANKS] = {0};
  arcs[me] = g.m_local;
  if (st == DS_OK) st = ds_comm_allreduce(host, DS_COMM_U64, DS_COMM_SUM, arcs, arcs, ranks, err);
  if (st == DS_OK && me == 0) {
    qsort(times, (size_t)a->trials, sizeof *times, cmp_double);
    const double median = times[a->trials / 2];
    printf("{\"ranks\": %d, \"graph\": \"%s%u_ef%u\", \"n\": %u, \"m\": %llu, \"arcs_per_rank\": [",
           ranks, a->by_rank ? "graph500_s" : "kron", a->scale, a->edge_factor, g.n,
           (unsigned long long)g.m);
    for (int r = 0; r < ranks; r++) printf("%s%llu", r ? ", " : "", (unsigned long long)arcs[r]);
    printf("], \"source\": %u, \"delta\": %g, \"build_ms\": %.1f, ", source, delta, build_ms);
    if (a->by_rank)
      printf("\"generate_ms\": %.1f, \"partition_ms\": %.1f, \"group_ms\": %.1f, "
             "\"exchange_ms\": %.1f, \"csr_ms\": %.1f, ", phases[0], phases[1], phases[2],
             phases[3], phases[4]);
    printf("\"trial_ms\": [");
    for (int t = 0; t < a->trials; t++) printf("%s%.3f", t ? ", " : "", times[t]);
    printf("], \"median_ms\": %.3f, \"rounds\": %llu, \"buckets\": %llu, \"reached\": %llu, "
           "\"updates_sent\": %llu, \"rank0_relax_ms\": %.3f, \"rank0_exchange_ms\": %.3f, "
           "\"rank0_reduce_ms\": %.3f, \"reached_arcs_per_s\": %.4g, \"validated\": true}\n",
           median, (unsigned long long)res.rounds, (unsigned long long)res.buckets,
           (unsigned long long)sums[1], (unsigned long long)sums[2], res.relax_ms,
           res.exchange_ms, res.reduce_ms, (double)sums[0] / (median / 1e3));
  }
  free(dist);
  free(pred);
  ds_dgraph_free(&g);
  return st;
}

/* Takes this program's options out of argv, leaving the launch's. 0, or 2. */
static int parse(int *argc, char **argv, kron_arg *a) {
  a->edge_factor = 16;
  a->trials = 5;
  int kept = 1;
  for (int i = 1; i < *argc; i++) {
    const int more = i + 1 < *argc;
    if (strcmp(argv[i], "--scale") == 0 && more) a->scale = (uint32_t)atoi(argv[++i]);
    else if (strcmp(argv[i], "--edge-factor") == 0 && more) a->edge_factor = (uint32_t)atoi(argv[++i]);
    else if (strcmp(argv[i], "--trials") == 0 && more) a->trials = atoi(argv[++i]);
    else if (strcmp(argv[i], "--delta") == 0 && more) a->delta = atof(argv[++i]);
    else if (strcmp(argv[i], "--int-weights") == 0) a->int_weights = 1;
    else if (strcmp(argv[i], "--by-rank") == 0) a->by_rank = 1;
    else argv[kept++] = argv[i];
  }
  *argc = kept;
  if (a->scale < 1 || a->scale > 31 || a->trials < 1 || a->trials > MAX_TRIALS || a->delta < 0 ||
      (a->by_rank && a->int_weights)) {
    fprintf(stderr, "--scale 1..31 and --trials 1..%d are needed; --delta > 0 or absent; "
            "--by-rank draws float weights, not --int-weights\n", MAX_TRIALS);
    return 2;
  }
  return 0;
}

/* Every rank's outcome, the launch's end, the summary line. */
static int finish_run(launch_opts *o, const kron_arg *a, const ds_status *rank_status,
                      const ds_error *rank_err) {
  for (int r = launch_first(o); r < launch_last(o); r++)
    CHECK(rank_status[r] == DS_OK, "rank %d: %s", r, rank_err[r].msg);
  launch_end(o);
  return ds_test_finish("dist gpu kron%u, %d ranks%s%s", a->scale, o->gpus,
                        o->mpi ? " (mpi)" : "", a->by_rank ? ", generated by the ranks" : "");
}

int main(int argc, char **argv) {
  kron_arg a;
  memset(&a, 0, sizeof a);
  if (parse(&argc, argv, &a) != 0) return 2;
  launch_opts o;
  const int rc = launch_start(&o, &argc, &argv);
  if (rc != 0) return rc;
  ds_status rank_status[LAUNCH_MAX_RANKS];
  ds_error rank_err[LAUNCH_MAX_RANKS];
  ds_error err;
  if (a.by_rank) { /* each rank its share: nothing drawn here */
    launch_run(&o, kron_rank, &a, NULL, rank_status, rank_err, &err);
    return finish_run(&o, &a, rank_status, rank_err);
  }
  // the whole edge list, in every process; float weights, and the default delta
  ds_gen_spec spec;
  ds_gen_spec_default(&spec, DS_GEN_KRON);
  spec.scale = a.scale;
  spec.edge_factor = a.edge_factor;
  spec.weight_min = 1;
  spec.weight_max = 255;
  ds_gen_edge_list k;
  if (ds_gen_edges(&spec, &k, &err) != DS_OK) {
    fprintf(stderr, "kron: %s\n", err.msg);
    launch_end(&o);
    return 2;
  }
  double sum = 0;
  for (uint64_t i = 0; i < k.count; i++) {
    const float f = (float)k.w[i] * WEIGHT_SCALE;
    sum += a.int_weights ? (double)k.w[i] : (double)f;
    if (!a.int_weights) memcpy(&k.w[i], &f, sizeof f);
  }
  if (a.delta == 0) a.delta = DS_DELTA_AUTO_SCALE * (k.count ? sum / (double)k.count : 1.0);
  a.edges = (test_edges){k.n, k.count, k.src, k.dst, a.int_weights ? DS_WEIGHT_U32 : DS_WEIGHT_F32,
                         k.w};
  a.source = k.count ? k.src[0] : 0; /* a vertex with an edge */
  launch_run(&o, kron_rank, &a, NULL, rank_status, rank_err, &err);
  test_edges_free(&a.edges);
  return finish_run(&o, &a, rank_status, rank_err);
}
#endif
