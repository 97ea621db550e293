/* The state the sssp program's distributed run (run_dist.c) shares with its
 * report (run_dist_report.c): the run's results as rank 0 gathers them. */
#ifndef DS_RUN_DIST_STATE_H
#define DS_RUN_DIST_STATE_H

#include "app.h"
#include "sssp.h"
#include "sssp_report.h"

#define POISON_BYTE 0xA5 /* fills result arrays before each run, as run.c */
#define MS_PER_S 1e3
#define MEGA 1e6
#define MIB (1024.0 * 1024.0)
/* Dijkstra on the host runs on rank 0 while the other ranks wait in their
 * next collective, within the communicator's timeout (120 s): graphs up to
 * this many arcs take seconds there. Larger ones are checked by the
 * distributed validator alone. */
#define ORACLE_MAX_ARCS (1ull << 26)
/* Under mpirun each process loads the graph at its own pace (one may parse
 * the text while another reads the cache) before the ranks agree that every
 * load succeeded: a bound for the slowest load, not for a collective. */
#define LOAD_AGREE_TIMEOUT_MS 1800000u

/* What a rank reports of one (algorithm, source): its last timed trial. */
enum { F_RELAX, F_EXCHANGE, F_REDUCE, F_SENT, F_RECEIVED, F_EDGES, F_REACHED, F_REACHED_ARCS,
       F_COUNT };
/* What a rank holds. */
enum { H_DEVICE, H_FIRST, H_VERTICES, H_ARCS, H_COUNT };

/* One graph's run, shared by the ranks of this process; rank 0 fills the
 * report's parts. */
typedef struct {
  const ds_cli *cli;
  const ds_graph *g;
  ds_graph_report *r;
  ds_dist_width width;
  int ranks;
  int oracle;          /* --validate compares with Dijkstra */
  void *ref, *all;     /* rank 0: Dijkstra's distances, and the ranks' gathered */
  void *kept_dist;     /* rank 0: the first algorithm's result, for --output */
  uint32_t *kept_pred;
  double *held;        /* R * H_COUNT: every rank's device and part */
  double *split;       /* (algo, source, rank, field) */
  double *setup_ms;    /* (algo, source): the slowest rank's engine setup, last trial */
  int validation_failed;
} dist_run;
/* The table's lines of the ranks and their split (stdout). */
void ds_dist_print_ranks(const dist_run *d);

/* The run's "distributed" object and per-source splits into the JSON report;
 * 0 when out of memory. */
int ds_dist_json(cJSON *root, const dist_run *d);

#endif /* DS_RUN_DIST_STATE_H */
