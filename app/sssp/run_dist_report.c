/* Rank 0's report of a distributed run of `sssp` (--gpus, --mpi): the lines
 * of the ranks and their time split in the table, and the JSON report's
 * distributed fields (run_dist.c gathers what they print). */
#include <stdio.h>
#include <string.h>

#include "run.h"
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

/* Where the ranks built their CSR (dgraph.h: the GPU where it fits, else the host). */
static const char *csr_where(const dist_run *d) {
  return d->csr_on_host ? "on the host, on one rank at least" : "on the GPUs";
}

void ds_dist_print_ranks(const dist_run *d) {
  const ds_graph_report *r = d->r;
  printf("%d ranks (%s, NCCL):", d->ranks, launch_name(d->cli));
  for (int p = 0; p < d->ranks; p++) {
    const double *h = d->held + (size_t)p * H_COUNT;
    printf("%s rank %d GPU %.0f %.0f vertices %.0f arcs", p ? ";" : "", p, h[H_DEVICE],
           h[H_VERTICES], h[H_ARCS]);
  }
  printf("\n");
  if (d->kron) /* the graph generated and built by the ranks: where its build went */
    printf("built by the ranks (the slowest rank's ms): generate %.1f, partition %.1f, group by "
           "owner %.1f, exchange %.1f, CSR %.1f (%s)\n", d->build_ms[B_GENERATE],
           d->build_ms[B_PARTITION], d->build_ms[B_GROUP], d->build_ms[B_EXCHANGE],
           d->build_ms[B_CSR], csr_where(d));
  if (d->ranged) { /* the file read by the ranks, each its byte range: the phases, then each rank */
    printf("read by the ranks, each its byte range (the slowest rank's ms): header %.1f, read "
           "%.1f, parse %.1f, partition %.1f, group by owner %.1f, exchange %.1f, CSR %.1f (%s)\n",
           d->build_ms[B_HEADER], d->build_ms[B_READ], d->build_ms[B_PARSE],
           d->build_ms[B_PARTITION], d->build_ms[B_GROUP], d->build_ms[B_EXCHANGE],
           d->build_ms[B_CSR], csr_where(d));
    printf("read per rank:");
    for (int p = 0; p < d->ranks; p++) {
      const double *h = d->held + (size_t)p * H_COUNT;
      printf("%s rank %d %.2f MiB, read and parse %.1f ms, group and exchange %.1f ms, CSR %.1f ms",
             p ? ";" : "", p, h[H_READ_BYTES] / MIB, h[H_READ_MS], h[H_EXCHANGE_MS], h[H_CSR_MS]);
    }
    printf("\n");
  }
  printf("the engine set up on the GPUs in %.1f ms (the slowest rank: the parts' copies, once "
         "for every search)\n", d->engine_ms);
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
  cJSON_AddNumberToObject(jd, "engine_setup_ms", d->engine_ms);
  if (d->kron || d->ranged) { /* built by the ranks: the build's phases, the slowest rank's */
    cJSON *jb = cJSON_AddObjectToObject(jd, "build");
    if (jb == NULL) return 0;
    cJSON_AddStringToObject(jb, "source", d->kron ? "generated by the ranks (Graph500 Kronecker)"
                                                  : "read by the ranks, each its byte range of the file");
    if (d->kron) cJSON_AddNumberToObject(jb, "generate_ms", d->build_ms[B_GENERATE]);
    if (d->ranged) {
      cJSON_AddNumberToObject(jb, "header_ms", d->build_ms[B_HEADER]);
      cJSON_AddNumberToObject(jb, "read_ms", d->build_ms[B_READ]);
      cJSON_AddNumberToObject(jb, "parse_ms", d->build_ms[B_PARSE]);
    }
    cJSON_AddNumberToObject(jb, "partition_ms", d->build_ms[B_PARTITION]);
    cJSON_AddNumberToObject(jb, "group_ms", d->build_ms[B_GROUP]);
    cJSON_AddNumberToObject(jb, "exchange_ms", d->build_ms[B_EXCHANGE]);
    cJSON_AddNumberToObject(jb, "csr_ms", d->build_ms[B_CSR]);
    cJSON_AddStringToObject(jb, "csr_built", d->csr_on_host ? "host" : "gpu");
    cJSON_AddStringToObject(jb, "time", d->kron ? "each phase the slowest rank's"
                                                : "each phase the slowest rank's; per_rank: each rank's");
  }
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
    if (d->ranged) {
      cJSON_AddNumberToObject(o, "bytes_read", h[H_READ_BYTES]);
      cJSON_AddNumberToObject(o, "read_ms", h[H_READ_MS]);
      cJSON_AddNumberToObject(o, "exchange_ms", h[H_EXCHANGE_MS]);
      cJSON_AddNumberToObject(o, "csr_ms", h[H_CSR_MS]);
    }
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

/* Rank 0's files and report of a graph's run. */
ds_exit_code ds_dist_report(const ds_cli *cli, cJSON *json, const dist_run *d, const char *path) {
  const ds_exit_code rc = d->validation_failed ? DS_EXIT_VALIDATION : DS_EXIT_OK;
  if (cli->output_path != NULL && ds_app_output_wanted(cli, rc)) {
    ds_exit_code orc = ds_run_write_output(cli->output_path, d->g, d->kept_dist, d->width,
                                           d->kept_pred);
    if (orc != DS_EXIT_OK) return orc;
  }
  if (!cli->quiet) {
    ds_report_graph_line(stdout, d->r);
    ds_report_table(stdout, d->r);
    ds_dist_print_ranks(d);
    fflush(stdout);
  }
  if (json != NULL && (!ds_report_json_graph(json, d->r, cli) || !ds_dist_json(json, d))) {
    fprintf(stderr, "sssp: out of memory for the report of %s\n", path);
    return DS_EXIT_INTERNAL;
  }
  return DS_EXIT_OK;
}
