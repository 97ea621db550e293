/* The state the sssp program's distributed run (run_dist.c) shares with its
 * report (run_dist_report.c): the run's results as rank 0 gathers them. */
#ifndef DS_RUN_DIST_STATE_H
#define DS_RUN_DIST_STATE_H

#include "app.h"
#include "sssp.h"
#include "sssp_report.h"

#include "dist/comm.h"
#include "dist/dgraph.h"

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
/* What a rank holds; for a file the ranks read (ranged), its part of the
 * read and of the build. */
enum { H_DEVICE, H_FIRST, H_VERTICES, H_ARCS, H_READ_BYTES, H_READ_MS, H_EXCHANGE_MS, H_CSR_MS,
       H_COUNT };
/* The phases of a graph built by the ranks: generated (--kron: B_GENERATE),
 * or read, each rank its byte range (B_HEADER, B_READ, B_PARSE); then the
 * distributed build's. */
enum { B_GENERATE, B_HEADER, B_READ, B_PARSE, B_PARTITION, B_GROUP, B_EXCHANGE, B_CSR, B_COUNT };
/* After the phases, agreed with them (the largest of the ranks'): 1 where a rank
 * built its CSR on the host, not on its GPU. Not a time. */
#define B_CSR_HOST B_COUNT
#define B_VALUES (B_COUNT + 1)

/* One graph's run, shared by the ranks of this process; rank 0 fills the
 * report's parts. */
typedef struct {
  const ds_cli *cli;
  const ds_graph *g;   /* --kron: the graph's description only (no arrays), its arcs set by
                          the ranks once they have built it (shape) */
  ds_graph *shape;
  const char *path;
  int kron;            /* the ranks generate the graph, each its share (--kron) */
  int ranged;          /* --mpi: the ranks read the file, each its byte range (ds_dfile_build);
                          g is its description until they have built it (shape) */
  int load_failed;     /* ranged: the ranks' load failed (the file's error, not the run's) */
  uint32_t kron_scale;
  int gen_threads;     /* OpenMP threads of a rank's generation */
  double build_ms[B_COUNT]; /* --kron, ranged: the slowest rank's time in each phase of the build */
  int csr_on_host;     /* --kron, ranged: some rank built its CSR on the host (else all on GPUs) */
  ds_graph_report *r;
  ds_dist_width width;
  int ranks;
  int oracle;          /* --validate compares with Dijkstra */
  void *ref, *all;     /* rank 0: Dijkstra's distances, and the ranks' gathered */
  void *kept_dist;     /* rank 0: the first algorithm's result, for --output */
  uint32_t *kept_pred;
  double *held;        /* R * H_COUNT: every rank's device and part */
  double *split;       /* (algo, source, rank, field) */
  double *setup_ms;    /* (algo, source): the slowest rank's search outside its rounds (its start,
                          the result's copy back), last trial */
  double engine_ms;    /* the slowest rank's engine setup on its GPU, once for every search */
  int validation_failed;
} dist_run;
/* Graphs the ranks build (run_dist_kron.c): --kron, and a file under --mpi. */
/* --kron: the graph's description before the ranks build it. */
void ds_dist_kron_shape(const ds_cli *cli, uint32_t scale, ds_graph *g);
/* ds_load_options of cli's weights, --undirected and cache folder, no progress bar. */
void ds_dist_load_options(const ds_cli *cli, ds_load_options *opt);
/* A file the ranks read: its description before they do (the name alone). */
void ds_dist_file_shape(const char *path, ds_graph *g);
/* The report's parameters that need no arcs: ds_run_report_params' without the graph. */
void ds_dist_parts_report_params(const ds_cli *cli, const ds_algo *algos, int n_algos,
                                 int threads, ds_graph_report *r);
/* The work of one rank (run_dist_rank.c): the launch's rank function, arg a dist_run. */
ds_status ds_dist_rank_main(ds_comm *host, ds_comm *dev, void *arg, ds_error *err);
/* This rank's share built (collective), then the arcs, delta, buckets, sources and the build's
 * split from the parts into the report. */
ds_status ds_dist_kron_part(dist_run *d, ds_comm *host, ds_dgraph *part, ds_error *err);
/* The same for d->path read by the ranks, each its byte range (ds_dfile_build); held: this
 * rank's H_COUNT slots, whose read and build fields it fills. A failed load sets
 * d->load_failed. */
ds_status ds_dist_file_part(dist_run *d, ds_comm *host, ds_dgraph *part, double *held,
                            ds_error *err);

/* The table's lines of the ranks and their split (stdout). */
void ds_dist_print_ranks(const dist_run *d);

/* The run's "distributed" object and per-source splits into the JSON report;
 * 0 when out of memory. */
int ds_dist_json(cJSON *root, const dist_run *d);
/* Rank 0's files (--output, as the one-GPU run writes them) and report (the table, the ranks'
 * lines, the JSON) of a graph's run. */
ds_exit_code ds_dist_report(const ds_cli *cli, cJSON *json, const dist_run *d, const char *path);

#endif /* DS_RUN_DIST_STATE_H */
