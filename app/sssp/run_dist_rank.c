/* `sssp --gpus N` / `--mpi`: the work of one rank (ds_dist_rank_main, which the launch runs on
 * every rank): its part of the graph, cut out of the loaded CSR or built by the ranks, then per
 * source and algorithm one untimed warm-up and the timed trials, each timed result validated and,
 * where a process holds the graph, gathered on rank 0 and checked against Dijkstra. The engine
 * is set up on the GPU once (allocations, the part's copy there) and kept for every search; that
 * and each search's own start and result copy are timed apart from the trials. The run around it
 * (the load, the launch, the report) is run_dist.c's.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab.h"
#include "sssp.h"

#include "dist/dgraph.h"
#include "dist/dsssp.h"
#include "dist/dsssp_engine.h" /* ds_dsssp_update: the bytes of an update sent */

#ifdef DS_HAVE_NCCL
#include "dist/comm_nccl.h"
#include "dist/dsssp_gpu.h"

#include "run_dist_state.h"

/* Rank 0 receives every rank's n_local values of `size` bytes, in vertex
 * order (the ranks own increasing ranges); out is rank 0's, g->n values. */
static ds_status gather(ds_comm *host, const ds_dgraph *part, const void *local, size_t size,
                        void *out, ds_error *err) {
  const int ranks = ds_comm_size(host);
  uint64_t *send = calloc((size_t)ranks, sizeof *send);
  if (send == NULL) return ds_comm_agree(host, ds_error_set(err, DS_ERR_NOMEM, "out of memory"), err);
  ds_status st = ds_comm_agree(host, DS_OK, err);
  send[0] = (uint64_t)part->n_local * size;
  void *recv = NULL;
  size_t cap = 0;
  if (st == DS_OK) st = ds_comm_exchange(host, local, send, &recv, &cap, NULL, err);
  if (st == DS_OK && ds_comm_rank(host) == 0 && part->n > 0)
    memcpy(out, recv, (size_t)part->n * size);
  free(recv);
  free(send);
  return st;
}

/* The lab's test hook (DS_TEST_CORRUPT): the last reached vertex of this
 * rank's but the source gets a larger distance, so that validation fails. */
static void corrupt_for_test(const dist_run *d, const ds_dgraph *part, uint32_t source, void *dist) {
  const ds_graph *g = d->g;
  for (uint32_t i = part->n_local; i-- > 0;) {
    /* ds_dist_is_finite reads dist[i] by g's type and the width: a local index serves */
    if (part->first + i == source || !ds_dist_is_finite(g, dist, d->width, i)) continue;
    if (g->weight_type == DS_WEIGHT_F32) ((float *)dist)[i] = 2.0f * ((float *)dist)[i] + 1.0f;
    else if (d->width == DS_DIST_WIDE) ((uint64_t *)dist)[i]++;
    else if (((uint32_t *)dist)[i] < DS_DIST_MAX_U32) ((uint32_t *)dist)[i]++;
    else continue;
    return;
  }
}


/* Records a validation failure of (algorithm i, source s) on rank 0. */
static void record_failure(dist_run *d, int me, int i, uint32_t s, uint32_t source, const char *msg) {
  if (me == 0 || d->cli->mpi) d->validation_failed = 1; /* --gpus: the ranks share d */
  if (me != 0) return;
  ds_algo_stats *a = &d->r->algos[i];
  if (a->check[s] != DS_CHECK_FAILED) {
    fprintf(stderr, "sssp: validation failed: %s from source %u on %s: %s\n", ds_algo_name(a->algo),
            source + (uint32_t)d->g->index_base, d->g->name, msg);
    if (a->failure[0] == '\0') snprintf(a->failure, sizeof a->failure, "%s", msg);
  }
  a->check[s] = DS_CHECK_FAILED;
}

/* A check's outcome: a validation failure is recorded (the run goes on, and
 * ends with exit code 3); another error ends the run with the check's message. */
static ds_status settle(dist_run *d, int me, int i, uint32_t s, uint32_t source, ds_status st,
                        const ds_error *verr, ds_error *err) {
  if (st == DS_ERR_VALIDATION) record_failure(d, me, i, s, source, verr->msg);
  else if (st != DS_OK && err != NULL) *err = *verr;
  return st;
}

/* 4. One timed result: the Graph500 rules by the ranks, then Dijkstra's
 * distances on rank 0. Returns DS_OK also where it failed validation
 * (recorded); another status ends the run. */
static ds_status check_result(dist_run *d, ds_comm *host, const ds_dgraph *part, int i, uint32_t s,
                              uint32_t source, const void *dist, const uint32_t *pred,
                              ds_error *err) {
  const int me = ds_comm_rank(host);
  ds_error verr = {{0}};
  uint32_t bad = 0;
  ds_status st = ds_dsssp_validate(host, part, source, dist, d->width, pred, &bad, &verr);
  st = settle(d, me, i, s, source, st, &verr, err);
  if (st == DS_OK && d->oracle) {
    st = gather(host, part, dist, ds_dist_size(d->g, d->width), d->all, err);
    if (st != DS_OK) return st;
    ds_status local = DS_OK;
    if (me == 0) local = ds_sssp_compare(d->g, d->ref, d->all, d->width, NULL, &verr);
    st = settle(d, me, i, s, source, ds_comm_agree(host, local, &verr), &verr, err);
  }
  if (st == DS_ERR_VALIDATION) return DS_OK;
  if (st == DS_OK && me == 0 && d->r->algos[i].check[s] == DS_CHECK_NOT_RUN)
    d->r->algos[i].check[s] = DS_CHECK_PASSED;
  return st;
}

/* This rank's statistics of its last trial into rank 0's tables. */
static ds_status collect(dist_run *d, ds_comm *host, int i, uint32_t s, const ds_dsssp_result *res,
                         double setup_ms, ds_error *err) {
  const int me = ds_comm_rank(host), ranks = d->ranks;
  double *v = calloc((size_t)ranks * F_COUNT, sizeof *v);
  ds_status st = ds_comm_agree(host, v != NULL ? DS_OK : ds_error_set(err, DS_ERR_NOMEM, "out of memory"), err);
  if (st != DS_OK) {
    free(v);
    return st;
  }
  double *mine = v + (size_t)me * F_COUNT;
  mine[F_RELAX] = res->relax_ms;
  mine[F_EXCHANGE] = res->exchange_ms;
  mine[F_REDUCE] = res->reduce_ms;
  mine[F_SENT] = (double)res->updates_sent;
  mine[F_RECEIVED] = (double)res->updates_received;
  mine[F_EDGES] = (double)res->edges_relaxed;
  mine[F_REACHED] = (double)res->reached;
  mine[F_REACHED_ARCS] = (double)res->reached_arcs;
  /* a sum over ranks that each add their own slot: the values are exact */
  st = ds_comm_allreduce(host, DS_COMM_F64, DS_COMM_SUM, v, v, (size_t)ranks * F_COUNT, err);
  if (st == DS_OK && me == 0) {
    ds_graph_report *r = d->r;
    ds_algo_stats *a = &r->algos[i];
    memcpy(d->split + ((size_t)i * r->n_sources + s) * ranks * F_COUNT, v,
           (size_t)ranks * F_COUNT * sizeof *v);
    uint64_t edges = 0, reached = 0, arcs = 0;
    for (int p = 0; p < ranks; p++) {
      edges += (uint64_t)v[p * F_COUNT + F_EDGES];
      reached += (uint64_t)v[p * F_COUNT + F_REACHED];
      arcs += (uint64_t)v[p * F_COUNT + F_REACHED_ARCS];
    }
    a->rounds[s] = res->rounds;
    a->edges_relaxed[s] = edges;
    a->reached[s] = (uint32_t)reached;
    a->reached_arcs[s] = arcs;
    d->setup_ms[(size_t)i * r->n_sources + s] = setup_ms;
  }
  free(v);
  return st;
}

/* 3. The work of one rank: its part, then every source and algorithm. */
ds_status ds_dist_rank_main(ds_comm *host, ds_comm *dev, void *arg, ds_error *err) {
  dist_run *d = (dist_run *)arg;
  const ds_cli *cli = d->cli;
  ds_graph_report *r = d->r;
  const int me = ds_comm_rank(host), ranks = ds_comm_size(host);
  ds_dgraph part;
  memset(&part, 0, sizeof part);
  void *dist = NULL;
  uint32_t *pred = NULL;
  double *held = NULL;
  ds_dsssp_gpu_engine *engine = NULL;

  // 3a. this rank's part, generated or read by the ranks, or cut out of the loaded graph; its
  // result arrays
  ds_status local = DS_OK, st;
  double mine_held[H_COUNT] = {0};
  if (d->kron) {
    if ((st = ds_dist_kron_part(d, host, &part, err)) != DS_OK) goto done;
  } else if (d->ranged) {
    if ((st = ds_dist_file_part(d, host, &part, mine_held, err)) != DS_OK) goto done;
  } else {
    local = ds_dgraph_view(d->g, me, ranks, &part, err);
  }
  const size_t dsize = ds_dist_size(d->g, d->width), n_local = part.n_local ? part.n_local : 1;
  if (local == DS_OK) {
    dist = malloc(n_local * dsize);
    if (cli->predecessors) pred = malloc(n_local * sizeof *pred);
    held = calloc((size_t)ranks * H_COUNT, sizeof *held);
    if (dist == NULL || (cli->predecessors && pred == NULL) || held == NULL)
      local = ds_error_set(err, DS_ERR_NOMEM, "rank %d: out of memory for the distances of %u "
                           "vertices", me, part.n_local);
  }
  st = ds_comm_agree(host, local, err);
  if (st != DS_OK) goto done;

  // 3b. what every rank holds, for the report
  memcpy(held + (size_t)me * H_COUNT, mine_held, sizeof mine_held);
  held[me * H_COUNT + H_DEVICE] = ds_comm_nccl_device(dev);
  held[me * H_COUNT + H_FIRST] = part.first;
  held[me * H_COUNT + H_VERTICES] = part.n_local;
  held[me * H_COUNT + H_ARCS] = (double)part.m_local;
  st = ds_comm_allreduce(host, DS_COMM_F64, DS_COMM_SUM, held, held, (size_t)ranks * H_COUNT, err);
  if (st != DS_OK) goto done;
  if (me == 0) memcpy(d->held, held, (size_t)ranks * H_COUNT * sizeof *held);

  // 3c. the engine on every rank's GPU, once for all the searches; the slowest rank's time
  double opened = ds_comm_now();
  if ((st = ds_dsssp_gpu_open(dev, &part, cli->predecessors, &engine, err)) != DS_OK) goto done;
  opened = 1e3 * (ds_comm_now() - opened);
  if ((st = ds_comm_allreduce(host, DS_COMM_F64, DS_COMM_MAX, &opened, &opened, 1, err)) != DS_OK)
    goto done;
  if (me == 0) d->engine_ms = opened;

  // 3d. per source: Dijkstra on rank 0 where it checks; per algorithm a
  // warm-up (on the first source, as run.c) and the timed trials
  ds_dsssp_params params;
  ds_dsssp_params_default(&params);
  params.want_pred = cli->predecessors;
  params.dist_width = d->width;
  for (uint32_t s = 0; s < r->n_sources; s++) {
    const uint32_t src = r->sources[s];
    if (d->oracle) {
      local = DS_OK;
      if (me == 0) {
        ds_sssp_params sp;
        ds_sssp_params_default(&sp);
        sp.threads = cli->threads;
        sp.dist_width = d->width;
        ds_sssp_result rr;
        memset(&rr, 0, sizeof rr);
        rr.dist = d->ref;
        local = ds_sssp_dijkstra(d->g, src, &sp, &rr, err);
      }
      if ((st = ds_comm_agree(host, local, err)) != DS_OK) goto done;
    }
    for (int i = 0; i < r->n_algos; i++) {
      ds_algo_stats *a = &r->algos[i];
      params.delta = a->delta;
      params.buckets = a->algo == DS_ALGO_NEAR_FAR ? DS_SSSP_MIN_BUCKETS : r->buckets;
      ds_dsssp_result res;
      double setup_ms = 0.0;
      for (uint32_t t = (s == 0 ? 0 : 1); t <= r->trials; t++) { /* t = 0: warm-up */
        memset(dist, POISON_BYTE, n_local * dsize);
        if (pred != NULL) memset(pred, POISON_BYTE, n_local * sizeof *pred);
        memset(&res, 0, sizeof res);
        res.dist = dist;
        res.pred = pred;
        if ((st = ds_dsssp_gpu_search(engine, src, &params, &res, err)) != DS_OK) goto done;
        // the slowest rank's search, and its start and result copy
        double mine[2] = {res.relax_ms + res.exchange_ms + res.reduce_ms, 0.0}, slow[2];
        mine[1] = res.time_ms - mine[0];
        if ((st = ds_comm_allreduce(host, DS_COMM_F64, DS_COMM_MAX, mine, slow, 2, err)) != DS_OK)
          goto done;
        if (t == 0) continue;
        if (me == 0) a->times_ms[(size_t)s * r->trials + (t - 1)] = slow[0];
        setup_ms = slow[1];
        if (ds_lab_corrupt()) corrupt_for_test(d, &part, src, dist);
        if (cli->validate &&
            (st = check_result(d, host, &part, i, s, src, dist, pred, err)) != DS_OK)
          goto done;
      }
      if ((st = collect(d, host, i, s, &res, setup_ms, err)) != DS_OK) goto done;
      // --output: the first algorithm's last result (a single source: the CLI checks)
      if (i == 0 && cli->output_path != NULL) {
        st = gather(host, &part, dist, dsize, d->kept_dist, err);
        if (st == DS_OK && pred != NULL)
          st = gather(host, &part, pred, sizeof *pred, d->kept_pred, err);
        if (st != DS_OK) goto done;
      }
    }
  }
done:
  ds_dsssp_gpu_close(engine);
  free(held);
  free(dist);
  free(pred);
  if (d->kron || d->ranged) ds_dgraph_free(&part); /* built here; else a view of the loaded graph */
  else ds_dgraph_view_free(&part);
  return st;
}

#endif /* DS_HAVE_NCCL */
