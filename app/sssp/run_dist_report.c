/* Rank 0's report of a distributed run of `sssp` (--gpus, --mpi): the lines
 * of the ranks and their time split in the table, and the JSON report's
 * distributed fields (run_dist.c gathers what they print). */
#include <stdio.h>
#include <string.h>

#include "run_dist_state.h"

#include "dist/dsssp_engine.h" /* ds_dsssp_update: the bytes of an update sent */

static const char *launch_name(const ds_cli *cli) {
  return cli->mpi ? "mpirun, a process a GPU" : "one process, a thread a GPU";
}

/* Graph500's count: the input's edges in the searched component. A symmetric
 * CSR holds each undirected edge as two arcs, both out of reached vertices;
 * the input's duplicates and self-loops, which the CSR drops, are not
 * counted (Graph500's reference counts its edge list's). */
static double graph500_edges(const ds_graph *g, uint64_t reached_arcs) {
  return g->symmetric ? (double)reached_arcs / 2.0 : (double)reached_arcs;
}

static double per_s(double count, double ms) { return ms > 0.0 ? count / (ms / MS_PER_S) : 0.0; }

void ds_dist_print_ranks(const dist_run *d) {
  const ds_graph_report *r = d->r;
  printf("%d ranks (%s, NCCL):", d->ranks, launch_name(d->cli));
  for (int p = 0; p < d->ranks; p++) {
    const double *h = d->held + (size_t)p * H_COUNT;
    printf("%s rank %d GPU %.0f %.0f vertices %.0f arcs", p ? ";" : "", p, h[H_DEVICE],
           h[H_VERTICES], h[H_ARCS]);
  }
  printf("\n");
  // the split of each search's last trial, rank by rank
  printf("%-13s %10s %5s %10s %12s %13s %13s %10s %9s %11s\n", "algorithm", "source", "rank",
         "relax ms", "exchange ms", "all-reduce ms", "updates sent", "MiB sent", "setup ms",
         "G500 MTEPS");
  for (uint32_t s = 0; s < r->n_sources; s++)
    for (int i = 0; i < r->n_algos; i++) {
      const ds_algo_stats *a = &r->algos[i];
      const double *v = d->split + ((size_t)i * r->n_sources + s) * d->ranks * F_COUNT;
      double med, lo, hi;
      ds_stats_of(a->times_ms + (size_t)s * r->trials, r->trials, &med, &lo, &hi);
      const double teps = per_s(graph500_edges(d->g, a->reached_arcs[s]), med) / MEGA;
      for (int p = 0; p < d->ranks; p++) {
        const double *x = v + (size_t)p * F_COUNT;
        printf("%-13s %10u %5d %10.3f %12.3f %13.3f %13.0f %10.2f", ds_algo_name(a->algo),
               r->sources[s] + (uint32_t)d->g->index_base, p, x[F_RELAX], x[F_EXCHANGE],
               x[F_REDUCE], x[F_SENT], x[F_SENT] * sizeof(ds_dsssp_update) / MIB);
        if (p == 0) printf(" %9.3f %11.1f\n", d->setup_ms[(size_t)i * r->n_sources + s], teps);
        else printf(" %9s %11s\n", "", "");
      }
    }
}

/* The distributed run's parts of the JSON run that ds_report_json_graph made. */
int ds_dist_json(cJSON *root, const dist_run *d) {
  const ds_graph_report *r = d->r;
  cJSON *runs = cJSON_GetObjectItemCaseSensitive(root, "runs");
  cJSON *run = cJSON_GetArrayItem(runs, cJSON_GetArraySize(runs) - 1);
  if (run == NULL) return 0;
  cJSON *jd = cJSON_AddObjectToObject(run, "distributed");
  if (jd == NULL) return 0;
  cJSON_AddNumberToObject(jd, "ranks", d->ranks);
  cJSON_AddNumberToObject(jd, "gpus", d->ranks);
  cJSON_AddStringToObject(jd, "launch", d->cli->mpi ? "mpi" : "threads");
  cJSON_AddStringToObject(jd, "transport", "nccl");
  cJSON_AddStringToObject(jd, "time", "the slowest rank's rounds (relax, exchange, all-reduce); "
                                      "the engine's setup apart");
  cJSON *jr = cJSON_AddArrayToObject(jd, "per_rank");
  if (jr == NULL) return 0;
  for (int p = 0; p < d->ranks; p++) {
    const double *h = d->held + (size_t)p * H_COUNT;
    cJSON *o = cJSON_CreateObject();
    if (o == NULL) return 0;
    cJSON_AddItemToArray(jr, o);
    cJSON_AddNumberToObject(o, "rank", p);
    cJSON_AddNumberToObject(o, "device", h[H_DEVICE]);
    cJSON_AddNumberToObject(o, "first_vertex", h[H_FIRST] + d->g->index_base);
    cJSON_AddNumberToObject(o, "vertices", h[H_VERTICES]);
    cJSON_AddNumberToObject(o, "arcs", h[H_ARCS]);
  }
  // per algorithm and source: Graph500's TEPS, the setup, each rank's split
  cJSON *ja = cJSON_GetObjectItemCaseSensitive(run, "algorithms");
  for (int i = 0; i < r->n_algos; i++) {
    const ds_algo_stats *a = &r->algos[i];
    cJSON *jalg = cJSON_GetArrayItem(ja, i);
    cJSON *per = cJSON_GetObjectItemCaseSensitive(jalg, "per_source");
    if (jalg == NULL || per == NULL) return 0;
    cJSON_AddStringToObject(jalg, "engine", "distributed");
    for (uint32_t s = 0; s < r->n_sources; s++) {
      cJSON *o = cJSON_GetArrayItem(per, (int)s);
      if (o == NULL) return 0;
      double med, lo, hi;
      ds_stats_of(a->times_ms + (size_t)s * r->trials, r->trials, &med, &lo, &hi);
      const double edges = graph500_edges(d->g, a->reached_arcs[s]);
      cJSON_AddNumberToObject(o, "graph500_edges", edges);
      cJSON_AddNumberToObject(o, "teps_graph500", per_s(edges, med));
      cJSON_AddNumberToObject(o, "setup_ms", d->setup_ms[(size_t)i * r->n_sources + s]);
      cJSON *ranks = cJSON_AddArrayToObject(o, "per_rank");
      if (ranks == NULL) return 0;
      const double *v = d->split + ((size_t)i * r->n_sources + s) * d->ranks * F_COUNT;
      for (int p = 0; p < d->ranks; p++) {
        const double *x = v + (size_t)p * F_COUNT;
        cJSON *q = cJSON_CreateObject();
        if (q == NULL) return 0;
        cJSON_AddItemToArray(ranks, q);
        cJSON_AddNumberToObject(q, "rank", p);
        cJSON_AddNumberToObject(q, "relax_ms", x[F_RELAX]);
        cJSON_AddNumberToObject(q, "exchange_ms", x[F_EXCHANGE]);
        cJSON_AddNumberToObject(q, "allreduce_ms", x[F_REDUCE]);
        cJSON_AddNumberToObject(q, "updates_sent", x[F_SENT]);
        cJSON_AddNumberToObject(q, "updates_received", x[F_RECEIVED]);
        cJSON_AddNumberToObject(q, "bytes_sent", x[F_SENT] * sizeof(ds_dsssp_update));
        cJSON_AddNumberToObject(q, "edges_relaxed", x[F_EDGES]);
        cJSON_AddNumberToObject(q, "reached", x[F_REACHED]);
      }
    }
  }
  return 1;
}
