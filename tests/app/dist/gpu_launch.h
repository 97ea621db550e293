/* The launch of the GPU tests of app/dist, the same rank function either way:
 *   --gpus N   one process driving N GPUs, a thread a rank (ds_comm_nccl_run);
 *   --mpi      under mpirun, one process a GPU (ds_comm_nccl_mpi_run).
 * Skips (exit 77, with the reason) where NCCL was not built, where MPI is
 * asked for but absent, and where the machine has fewer GPUs than ranks.
 * Ranks that are threads cannot use ds_test.h's checks (its counters are not
 * thread-safe): a rank counts its own failures (RCHECK) and returns
 * DS_ERR_VALIDATION if it had any; main checks every rank's status.
 * Include after ds_test.h, where DS_HAVE_NCCL. */
#ifndef DS_DIST_GPU_LAUNCH_H
#define DS_DIST_GPU_LAUNCH_H

#include <stdarg.h>
#include <stdint.h>

#include <cuda_runtime_api.h>

#include "dist/comm_nccl.h"

#define LAUNCH_MAX_RANKS 8

typedef struct {
  int gpus;        /* ranks: --gpus N, or the MPI world's size */
  int mpi;
  int fail_rank;   /* --fail-rank R: rank R asks for a GPU that does not exist; -1 none */
  int rank;        /* this process's rank under --mpi */
  int mpi_up;      /* MPI_Init was called */
  int quick;       /* --quick: the test's short form, for compute-sanitizer */
} launch_opts;

typedef struct {
  int rank;
  int failures;
} rank_checks;

DS_TEST_PRINTF(4, 5)
static inline int rank_fail(rank_checks *rc, const char *file, int line, const char *fmt, ...) {
  char msg[DS_ERROR_MSG_LEN];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  fprintf(stderr, "FAIL %s:%d: rank %d: %s\n", ds_test_where_(file), line, rc->rank, msg);
  rc->failures++;
  return 0;
}

/* A check inside a rank's function: its value is cond. */
#define RCHECK(rc, cond, ...) ((cond) ? 1 : rank_fail((rc), __FILE__, __LINE__, __VA_ARGS__))

/* The end of a rank's function: its failures as its status. */
static inline ds_status rank_outcome(const rank_checks *rc, ds_error *err) {
  if (rc->failures == 0) return DS_OK;
  return ds_error_set(err, DS_ERR_VALIDATION, "%d check%s failed on rank %d", rc->failures,
                      rc->failures == 1 ? "" : "s", rc->rank);
}

static inline int launch_usage(const char *prog) {
  fprintf(stderr, "usage: %s --gpus N [--fail-rank R] [--quick]  (one process, N GPUs)\n"
                  "       mpirun -np N %s --mpi [--fail-rank R] [--quick]  (a process a GPU)\n", prog, prog);
  return 2;
}

/* Parses the options; 0, or the exit code of a usage error. */
static inline int launch_parse(int argc, char **argv, launch_opts *o) {
  memset(o, 0, sizeof *o);
  o->fail_rank = -1;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--gpus") == 0 && i + 1 < argc) o->gpus = atoi(argv[++i]);
    else if (strcmp(argv[i], "--mpi") == 0) o->mpi = 1;
    else if (strcmp(argv[i], "--fail-rank") == 0 && i + 1 < argc) o->fail_rank = atoi(argv[++i]);
    else if (strcmp(argv[i], "--quick") == 0) o->quick = 1;
    else return launch_usage(argv[0]);
  }
  if (o->mpi == (o->gpus > 0) || (!o->mpi && (o->gpus < 1 || o->gpus > LAUNCH_MAX_RANKS)))
    return launch_usage(argv[0]);
  return 0;
}

/* Starts what the launch needs (MPI) and says whether the machine can run it:
 * 0 to go on, else the exit code to return (a skip). */
static inline int launch_begin(launch_opts *o, int *argc, char ***argv) {
  if (o->mpi) {
#ifdef DS_HAVE_MPI
    MPI_Init(argc, argv);
    o->mpi_up = 1;
    MPI_Comm_size(MPI_COMM_WORLD, &o->gpus);
    MPI_Comm_rank(MPI_COMM_WORLD, &o->rank);
    if (o->gpus > LAUNCH_MAX_RANKS) return ds_test_skip("%d ranks: at most %d", o->gpus, LAUNCH_MAX_RANKS);
#else
    (void)argc, (void)argv;
    return ds_test_skip("--mpi: built without MPI (install libopenmpi-dev, reconfigure)");
#endif
  }
  int count = 0;
  cudaError_t rc = cudaGetDeviceCount(&count);
  if (rc != cudaSuccess) return ds_test_skip("no GPU: %s", cudaGetErrorString(rc));
  if (count < o->gpus)
    return ds_test_skip("%d ranks need %d GPUs; this machine has %d", o->gpus, o->gpus, count);
  return 0;
}

/* Runs fn on every rank. rank_status[r] and rank_err[r] for each rank this
 * process runs (every rank with --gpus, its own under --mpi); the others keep
 * DS_OK. Returns the first failing rank's status. */
static inline ds_status launch_run(const launch_opts *o, ds_comm_gpu_rank_fn fn, void *arg,
                            const ds_comm_options *opt, ds_status *rank_status,
                            ds_error *rank_err, ds_error *err) {
  int devices[LAUNCH_MAX_RANKS];
  for (int r = 0; r < LAUNCH_MAX_RANKS; r++) {
    devices[r] = r == o->fail_rank ? 99 : -1; /* 99: a GPU no test machine has */
    rank_status[r] = DS_OK;
    rank_err[r].msg[0] = '\0';
  }
  if (!o->mpi) return ds_comm_nccl_run(o->gpus, devices, opt, fn, arg, rank_status, rank_err, err);
#ifdef DS_HAVE_MPI
  rank_status[o->rank] = ds_comm_nccl_mpi_run(MPI_COMM_WORLD, devices, opt, fn, arg,
                                              &rank_err[o->rank]);
  if (err != NULL) *err = rank_err[o->rank];
  return rank_status[o->rank];
#else
  return ds_error_set(err, DS_ERR_UNSUPPORTED, "built without MPI");
#endif
}

static inline void launch_end(const launch_opts *o) {
#ifdef DS_HAVE_MPI
  if (o->mpi_up) MPI_Finalize();
#else
  (void)o;
#endif
}

/* Parses the options and starts the launch: 0 to go on, else main's exit
 * code (a usage error, a skip). */
static inline int launch_start(launch_opts *o, int *argc, char ***argv) {
  int rc = launch_parse(*argc, *argv, o);
  if (rc == 0) rc = launch_begin(o, argc, argv);
  if (rc != 0) launch_end(o);
  return rc;
}

/* The ranks whose outcome this process knows: all with --gpus, its own under --mpi. */
static inline int launch_first(const launch_opts *o) { return o->mpi ? o->rank : 0; }
static inline int launch_last(const launch_opts *o) { return o->mpi ? o->rank + 1 : o->gpus; }

#endif /* DS_DIST_GPU_LAUNCH_H */
