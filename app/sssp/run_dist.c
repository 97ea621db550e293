/* `sssp --gpus N` and `mpirun -np N sssp --mpi`: the searches of sssp on the
 * distributed GPU engine (app/dist, docs/distributed.md), one rank a GPU.
 *
 * --gpus N: one process, a thread a rank, rank r on GPU r (ds_comm_nccl_run).
 * --mpi: a process a rank under mpirun, each on the GPU of its rank on its
 * machine (ds_comm_nccl_mpi_run); rank 0 reports and writes the files (the
 * cache too), and every process ends with the same code.
 *
 * Per graph: 1. --gpus: load it on the host (through the binary cache), once:
 * the process is one, so one read serves every rank, and the whole graph
 * keeps Dijkstra's check. --mpi: no process reads the whole file; the ranks
 * read it, each its byte range, and build their parts (ds_dfile_build), where
 * ds_dfile_ranged says they can; a file they cannot read so (gzip, a pipe) is
 * loaded whole by every process, with a note (only rank 0 writes its cache);
 * --kron: the ranks generate it; 2. the sources, delta and buckets by the
 * single-GPU rules (a graph the ranks build: from the parts); 3. the ranks
 * start and each runs ds_dist_rank_main (run_dist_rank.c: its part, the
 * searches, their validation); 4. rank 0 reports.
 *
 * The time of a trial is the slowest rank's rounds (local work, exchange,
 * all-reduce), as the single-GPU engines time the search alone; the engine's
 * setup on the GPU is reported apart. Multisplit and near-far are the same
 * engine with a window of `buckets` or 2 buckets.
 */
#define _POSIX_C_SOURCE 200809L
#include <omp.h> /* omp_get_wtime: a load's time, as ds_app_load_graph times it */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "lab.h"
#include "run.h"
#include "run_dist.h"
#include "run_sources.h"
#include "sssp.h"
#include "sssp_report.h"

#include "dist/dfile.h"
#include "dist/dgraph.h"
#include "dist/dsssp.h"
#include "ds/device.h"
#include "ds/graph500.h"
#ifdef DS_HAVE_NCCL
#include "dist/comm_nccl.h"
#endif
#ifdef DS_HAVE_MPI
#include <mpi.h>
#include "dist/comm_mpi.h"
#endif

#include "run_dist_state.h"

/* 1. What --gpus and --mpi take: GPU algorithms of the distributed engine, no
 * --device. 0, or the usage error printed. */
static ds_exit_code check_options(const ds_cli *cli, ds_algo *algos, int *n_algos) {
  char what[32];
  if (cli->mpi) snprintf(what, sizeof what, "--mpi");
  else snprintf(what, sizeof what, "--gpus %d", cli->gpus);
  if (cli->mpi && cli->gpus > 0) {
    fprintf(stderr, "sssp: --gpus %d with --mpi: under mpirun the ranks are the processes, a GPU "
                    "each (mpirun -np N sssp --mpi ...); --gpus runs N ranks in one process\n",
            cli->gpus);
    return DS_EXIT_USAGE;
  }
  if (cli->device_given) {
    fprintf(stderr, "sssp: %s with --device: rank r runs on GPU r%s (choose the GPUs with "
                    "CUDA_VISIBLE_DEVICES)\n", what, cli->mpi ? " of its machine" : "");
    return DS_EXIT_USAGE;
  }
  *n_algos = 0;
  if (cli->algo_all || cli->n_algos == 0) algos[(*n_algos)++] = DS_ALGO_MULTISPLIT;
  if (cli->algo_all) algos[(*n_algos)++] = DS_ALGO_NEAR_FAR;
  for (int i = 0; i < cli->n_algos; i++) {
    const ds_algo a = (ds_algo)cli->algos[i];
    if (!ds_algo_is_gpu(a)) {
      fprintf(stderr, "sssp: %s runs the distributed GPU engine: %s is a CPU algorithm (with "
                      "--gpus or --mpi: multisplit, near-far)\n", what, ds_algo_name(a));
      return DS_EXIT_USAGE;
    }
    if (a != DS_ALGO_MULTISPLIT && a != DS_ALGO_NEAR_FAR) {
      fprintf(stderr, "sssp: %s: %s does not run on several GPUs (multisplit and near-far do)\n",
              what, ds_algo_name(a));
      return DS_EXIT_USAGE;
    }
    int seen = 0;
    for (int j = 0; j < *n_algos; j++) seen |= algos[j] == a;
    if (!seen) algos[(*n_algos)++] = a;
  }
  return DS_EXIT_OK;
}

#ifndef DS_HAVE_NCCL

ds_exit_code ds_run_dist(const ds_cli *cli) {
  ds_algo algos[DS_ALGO_COUNT];
  int n_algos = 0;
  ds_exit_code rc = check_options(cli, algos, &n_algos);
  if (rc != DS_EXIT_OK) return rc;
  char what[32];
  if (cli->mpi) snprintf(what, sizeof what, "--mpi");
  else snprintf(what, sizeof what, "--gpus %d", cli->gpus);
  /* (no word on why: CUDA off, or NCCL not found; the configure step said which) */
  fprintf(stderr, "sssp: %s: this sssp was built without NCCL, which several GPUs need: build "
                  "with CUDA where NCCL is found (NCCL_ROOT, the CUDA toolkit, or the "
                  "nvidia-nccl Python package: docs/distributed.md)\n", what);
  return DS_EXIT_DEVICE;
}

#else /* DS_HAVE_NCCL */

/* The exit code of a status of the ranks: the transport's failures and the
 * GPU engine's memory are device errors here, not the file or host errors
 * that ds_app_exit_of makes of them. */
static ds_exit_code dist_exit_of(ds_status st) {
  switch (st) {
  case DS_OK: return DS_EXIT_OK;
  case DS_ERR_ARG: return DS_EXIT_USAGE;
  case DS_ERR_VALIDATION: return DS_EXIT_VALIDATION;
  case DS_ERR_RANGE: return DS_EXIT_RANGE;
  default: return DS_EXIT_DEVICE; /* IO (NCCL, MPI, a rank lost), UNSUPPORTED, NOMEM on a GPU */
  }
}

/* The lab's test hook (DS_TEST_FAIL_RANK=F): rank F asks for a GPU that no
 * machine has, so that a rank that fails its setup can be seen to stop every
 * rank with its message and exit code 4. NULL (every rank its default GPU)
 * in the shipped program, or without the variable. */
#define FAIL_RANK_ENV "DS_TEST_FAIL_RANK"
#define NO_SUCH_GPU 99
static int *lab_devices(int ranks) {
  const char *v = ds_lab_getenv(FAIL_RANK_ENV);
  int *devices = v != NULL ? (int *)malloc((size_t)ranks * sizeof *devices) : NULL;
  if (devices == NULL) return NULL;
  for (int r = 0; r < ranks; r++) devices[r] = -1; /* the launch's default */
  const int f = atoi(v);
  if (f >= 0 && f < ranks) devices[f] = NO_SUCH_GPU;
  return devices;
}

// ---- a graph, and the run -------------------------------------------------------

typedef struct {
  const ds_cli *cli;     /* quiet on the processes of ranks other than 0 */
  ds_algo algos[DS_ALGO_COUNT];
  int n_algos;
  int ranks;
  int root;
  int threads;
  cJSON *json;
  ds_comm *load_comm;    /* --mpi: the processes' agreement on each load */
} dist_plan;

/* A message of the ranks without the second "rank F: " that an agreement
 * puts before a message that names its rank already. */
static const char *rank_message(const char *msg) {
  int f = -1, len = 0;
  if (sscanf(msg, "rank %d: %n", &f, &len) != 1 || len == 0) return msg;
  char again[32];
  snprintf(again, sizeof again, "rank %d: ", f);
  return strncmp(msg + len, again, strlen(again)) == 0 ? msg + len : msg;
}

/* Under mpirun, every process's outcome of a step it took alone becomes the
 * same on all (the least failing rank's exit code); --gpus: rc itself. */
static ds_exit_code agree_exit(const dist_plan *p, ds_exit_code rc) {
  if (p->load_comm == NULL) return rc;
  ds_error err = {{0}};
  uint64_t code = (uint64_t)rc;
  if (rc != DS_EXIT_OK) snprintf(err.msg, sizeof err.msg, "failed with exit code %d", (int)rc);
  ds_status st = ds_comm_agree_detail(p->load_comm, rc == DS_EXIT_OK ? DS_OK : DS_ERR_IO, &code, &err);
  if (st == DS_OK) return DS_EXIT_OK;
  if (rc == DS_EXIT_OK) { /* another rank's failure, printed there; say so once */
    if (p->root) fprintf(stderr, "sssp: %s\n", err.msg);
    return code >= DS_EXIT_USAGE && code <= DS_EXIT_RANGE ? (ds_exit_code)code : DS_EXIT_DEVICE;
  }
  return rc;
}

/* --mpi: whether the ranks read path in byte ranges (every process must say
 * so, or all load it whole), and the note that says why they do not. */
static ds_exit_code choose_ranged(const dist_plan *p, const char *path, int *ranged) {
  char why[DS_ERROR_MSG_LEN];
  uint64_t yes = (uint64_t)ds_dfile_ranged(path, why, sizeof why);
  ds_error err = {{0}};
  if (ds_comm_allreduce(p->load_comm, DS_COMM_U64, DS_COMM_MIN, &yes, &yes, 1, &err) != DS_OK) {
    if (p->root) fprintf(stderr, "sssp: %s: %s\n", path, err.msg);
    return DS_EXIT_DEVICE;
  }
  *ranged = yes != 0;
  if (!*ranged && !p->cli->quiet) /* rank 0's reason, or that another process has one */
    fprintf(stderr, "sssp: note: every process loads the whole file, as the ranks cannot read it "
                    "in byte ranges: %s\n", why[0] != '\0' ? why : "another process cannot");
  return DS_EXIT_OK;
}

/* A process other than rank 0 under mpirun reads the cache but never writes
 * it: user files are rank 0's, and processes of one machine would otherwise
 * write one cache file at once. 1: g came from a fresh cache. */
static int read_cache_only(const ds_cli *cli, const char *path, ds_graph *g, double *load_ms) {
  ds_load_options opt;
  ds_dist_load_options(cli, &opt);
  ds_input_stamp stamp;
  char cache_path[DS_PATH_LEN];
  const double t0 = omp_get_wtime();
  if (ds_input_stamp_of(path, &stamp, NULL) != DS_OK ||
      ds_cache_path(path, &opt, cache_path, sizeof cache_path, NULL) != DS_OK ||
      ds_cache_read(cache_path, &opt, &stamp, g, NULL) != DS_OK)
    return 0;
  *load_ms = (omp_get_wtime() - t0) * MS_PER_S;
  return 1;
}

/* 1. The whole graph on this process's host: through the cache, which under
 * mpirun rank 0 alone writes. */
static ds_exit_code load_whole(const dist_plan *p, const char *path, ds_graph *g,
                               ds_graph_report *r) {
  const ds_cli *cli = p->cli;
  if (!cli->mpi || p->root || cli->no_cache)
    return ds_app_load_graph(cli, path, cli->undirected, g, &r->load_ms, &r->cache);
  if (read_cache_only(cli, path, g, &r->load_ms)) {
    r->cache = "hit";
    return DS_EXIT_OK;
  }
  ds_cli text_only = *cli; /* the text, the cache left to rank 0 */
  text_only.no_cache = 1;
  return ds_app_load_graph(&text_only, path, cli->undirected, g, &r->load_ms, &r->cache);
}

static ds_exit_code run_graph(const void *ctx, const char *path) {
  const dist_plan *p = (const dist_plan *)ctx;
  const ds_cli *cli = p->cli;
  ds_exit_code rc = DS_EXIT_OK;
  ds_graph g;
  memset(&g, 0, sizeof g);
  ds_graph_report r;
  memset(&r, 0, sizeof r);
  dist_run d;
  memset(&d, 0, sizeof d);
  int loaded = 0;

  // 1. the graph: --kron, its description (the ranks generate it); --mpi, where the ranks can
  // read the file in byte ranges, its name (they read it); else on the host of every process
  uint32_t kron_scale = 0;
  d.kron = ds_graph500_path(path, &kron_scale);
  if (!d.kron && cli->mpi) rc = choose_ranged(p, path, &d.ranged);
  if (rc != DS_EXIT_OK) goto cleanup;
  if (d.kron) {
    ds_dist_kron_shape(cli, kron_scale, &g);
    r.cache = "off";
  } else if (d.ranged) {
    ds_dist_file_shape(path, &g);
    r.cache = "off"; /* neither read nor written: the ranks read the text, or the cache file given */
  } else {
    rc = load_whole(p, path, &g, &r);
    loaded = rc == DS_EXIT_OK;
  }
  if (rc == DS_EXIT_OK && !d.kron && !d.ranged && g.n == 0) {
    fprintf(stderr, "sssp: %s: the graph has no vertices\n", path);
    rc = DS_EXIT_INPUT;
  }
  if ((rc = agree_exit(p, rc)) != DS_EXIT_OK) goto cleanup;
  r.g = &g;
  r.path = path;

  // 2. sources, delta and buckets by the single-GPU rules (graphs the ranks build: they find
  // them, 3a)
  const int parts = d.kron || d.ranged;
  if (parts) ds_dist_parts_report_params(cli, p->algos, p->n_algos, p->threads, &r);
  else ds_run_report_params(cli, &g, path, p->algos, p->n_algos, p->threads, &r);
  d.cli = cli;
  d.g = &g;
  d.shape = &g;
  d.path = path;
  d.kron_scale = kron_scale;
  d.gen_threads = cli->mpi ? p->threads : (p->threads > p->ranks ? p->threads / p->ranks : 1);
  d.r = &r;
  /* a graph the ranks build: its width from the parts (3a), natural until then */
  d.width = parts ? DS_DIST_NATURAL : ds_sssp_dist_width(&g);
  d.ranks = p->ranks;
  d.oracle = cli->validate && !parts && g.m <= ORACLE_MAX_ARCS;
  if (cli->validate && !d.oracle && !cli->quiet) {
    if (parts)
      fprintf(stderr, "sssp: note: %s: no process holds the graph whole: the results are checked "
                      "by Graph500's rules alone\n", d.kron ? g.name : path);
    else
      fprintf(stderr, "sssp: note: %s: %llu arcs, beyond the %llu that Dijkstra on the host "
                      "checks here: the results are checked by Graph500's rules alone\n", path,
              (unsigned long long)g.m, ORACLE_MAX_ARCS);
  }
  const size_t n = g.n, dsize = ds_dist_size(&g, d.width);
  r.sources = (uint32_t *)malloc(r.n_sources * sizeof(uint32_t));
  if (r.sources == NULL) goto nomem;
  if (!parts) rc = ds_run_pick_sources(cli, &g, path, r.sources, r.n_sources);
  if ((rc = agree_exit(p, rc)) != DS_EXIT_OK) goto cleanup;
  if (!ds_run_report_alloc(&r)) goto nomem;
  d.held = (double *)calloc((size_t)p->ranks * H_COUNT, sizeof(double));
  d.split = (double *)calloc((size_t)p->n_algos * r.n_sources * p->ranks * F_COUNT, sizeof(double));
  d.setup_ms = (double *)calloc((size_t)p->n_algos * r.n_sources, sizeof(double));
  if (d.held == NULL || d.split == NULL || d.setup_ms == NULL) goto nomem;
  if (p->root && d.oracle &&
      ((d.ref = malloc(n * dsize)) == NULL || (d.all = malloc(n * dsize)) == NULL))
    goto nomem;
  /* (a graph the ranks read: rank 0 keeps this room once its size is known, 3a) */
  if (p->root && cli->output_path != NULL && !d.ranged &&
      ((d.kept_dist = malloc(n * dsize)) == NULL ||
       (cli->predecessors && (d.kept_pred = (uint32_t *)malloc(n * sizeof(uint32_t))) == NULL)))
    goto nomem;
  if ((rc = agree_exit(p, DS_EXIT_OK)) != DS_EXIT_OK) goto cleanup;

  // 3. the ranks
  ds_error err = {{0}};
  ds_status st;
  int *devices = lab_devices(p->ranks);
  if (!cli->mpi) {
    ds_status *rank_status = (ds_status *)calloc((size_t)p->ranks, sizeof *rank_status);
    ds_error *rank_err = (ds_error *)calloc((size_t)p->ranks, sizeof *rank_err);
    if (rank_status == NULL || rank_err == NULL) {
      free(rank_status);
      free(rank_err);
      free(devices);
      goto nomem;
    }
    st = ds_comm_nccl_run(p->ranks, devices, NULL, ds_dist_rank_main, &d, rank_status, rank_err, &err);
    // the ranks' agreed message as rank 0 has it, not under the launch's "rank 0: "
    for (int q = 0; q < p->ranks && st != DS_OK; q++)
      if (rank_status[q] != DS_OK && rank_err[q].msg[0] != '\0') {
        err = rank_err[q];
        break;
      }
    free(rank_status);
    free(rank_err);
  } else {
#ifdef DS_HAVE_MPI
    st = ds_comm_nccl_mpi_run(MPI_COMM_WORLD, devices, NULL, ds_dist_rank_main, &d, &err);
#else
    st = ds_error_set(&err, DS_ERR_UNSUPPORTED, "built without MPI");
#endif
  }
  free(devices);
  if (st != DS_OK) {
    if (p->root) fprintf(stderr, "sssp: %s: %s\n", path, rank_message(err.msg));
    /* the file the ranks read failed its load: an input error (memory: internal), as the
       load of one process makes it, not the device error of the run's other failures */
    if (d.load_failed) rc = st == DS_ERR_NOMEM ? DS_EXIT_INTERNAL : DS_EXIT_INPUT;
    else rc = dist_exit_of(st);
    goto cleanup;
  }
  if (d.validation_failed) rc = DS_EXIT_VALIDATION;

  // 5. rank 0: --output, the table, the JSON run; its outcome is every rank's
  ds_exit_code root_rc = p->root ? ds_dist_report(p->cli, p->json, &d, path) : DS_EXIT_OK;
  root_rc = agree_exit(p, root_rc);
  if (root_rc != DS_EXIT_OK) rc = root_rc;
  goto cleanup;

nomem:
  fprintf(stderr, "sssp: out of memory for %s\n", path);
  rc = agree_exit(p, DS_EXIT_INTERNAL);
cleanup:
  ds_run_report_free(&r);
  free(d.held);
  free(d.split);
  free(d.setup_ms);
  free(d.ref);
  free(d.all);
  free(d.kept_dist);
  free(d.kept_pred);
  if (loaded) ds_graph_free(&g);
  return rc;
}

/* The GPUs of this machine for --gpus N: a usage error, as a --device that
 * does not exist, where there are fewer. */
static ds_exit_code check_gpus(const ds_cli *cli, ds_app_device_info *dev) {
  ds_app_gpus(dev);
  if (cli->gpus > dev->gpus) {
    if (dev->gpus == 0) fprintf(stderr, "sssp: --gpus %d: no GPU (%s)\n", cli->gpus, dev->reason);
    else fprintf(stderr, "sssp: --gpus %d: only %d GPU%s\n", cli->gpus, dev->gpus,
                 dev->gpus == 1 ? "" : "s");
    return DS_EXIT_USAGE;
  }
  return DS_EXIT_OK;
}

ds_exit_code ds_run_dist(const ds_cli *cli) {
  dist_plan p;
  memset(&p, 0, sizeof p);
  ds_exit_code rc = check_options(cli, p.algos, &p.n_algos);
  if (rc != DS_EXIT_OK) return rc;
#ifndef DS_HAVE_MPI
  if (cli->mpi) {
    fprintf(stderr, "sssp: --mpi: this sssp was built without MPI (install libopenmpi-dev and "
                    "openmpi-bin, and configure again; docs/building.md); --gpus N runs the GPUs "
                    "of one machine\n");
    return DS_EXIT_DEVICE;
  }
#endif
  if ((rc = ds_app_threads(cli, &p.threads)) != DS_EXIT_OK) return rc;
#ifdef DS_HAVE_MPI
  ds_cli mpi_cli = *cli; /* a process's own: quiet but on rank 0, and its load's GPU */
#endif
  p.cli = cli;
  p.root = 1;
  ds_app_device_info dev;
  memset(&dev, 0, sizeof dev);

  // 1. the ranks: this process's threads, or the processes of mpirun
  if (!cli->mpi) {
    if ((rc = check_gpus(cli, &dev)) != DS_EXIT_OK) return rc;
    p.ranks = cli->gpus;
  } else {
#ifdef DS_HAVE_MPI
    if (MPI_Init(NULL, NULL) != MPI_SUCCESS) {
      fprintf(stderr, "sssp: --mpi: MPI_Init failed\n");
      return DS_EXIT_DEVICE;
    }
    int world = 0;
    MPI_Comm_size(MPI_COMM_WORLD, &p.ranks);
    MPI_Comm_rank(MPI_COMM_WORLD, &world);
    p.root = world == 0;
    mpi_cli.quiet = cli->quiet || !p.root; /* the report and notes are rank 0's */
    p.cli = &mpi_cli;
    ds_comm_options opt;
    ds_comm_options_default(&opt);
    opt.timeout_ms = LOAD_AGREE_TIMEOUT_MS;
    ds_error err = {{0}};
    if (ds_comm_mpi_create(MPI_COMM_WORLD, &opt, &p.load_comm, &err) != DS_OK) {
      fprintf(stderr, "sssp: --mpi: %s\n", err.msg);
      MPI_Finalize();
      return DS_EXIT_DEVICE;
    }
    // every process needs a GPU: one without is an error on every rank
    ds_app_gpus(&dev);
    /* a text load builds its CSR on the program's GPU: the processes of a
       machine spread those builds over its GPUs instead of all using GPU 0 */
    if (dev.gpus > 0) mpi_cli.device = world % dev.gpus;
    ds_status local = dev.gpus > 0 ? DS_OK
                                   : ds_error_set(&err, DS_ERR_DEVICE, "--mpi: no GPU (%s): every "
                                                  "process needs one", dev.reason);
    if (ds_comm_agree(p.load_comm, local, &err) != DS_OK) {
      if (p.root) fprintf(stderr, "sssp: %s\n", err.msg);
      rc = DS_EXIT_DEVICE;
    }
#endif
  }

  // 2. rank 0 describes its GPU and keeps the JSON report
  if (rc == DS_EXIT_OK && p.root) {
    ds_error err = {{0}};
    if (ds_device_describe(0, dev.name, sizeof dev.name, &dev.memory, &err) != DS_OK) {
      fprintf(stderr, "sssp: %s\n", err.msg);
      rc = DS_EXIT_DEVICE;
    }
    if (rc == DS_EXIT_OK && !cli->quiet) printf("GPU 0: %s; %d ranks\n", dev.name, p.ranks);
    if (rc == DS_EXIT_OK && cli->json_path != NULL &&
        (p.json = ds_report_json_root(cli, dev.name, dev.memory, p.threads)) == NULL) {
      fprintf(stderr, "sssp: out of memory\n");
      rc = DS_EXIT_INTERNAL;
    }
  }
  rc = agree_exit(&p, rc);

  // 3. each graph in turn, then the JSON report (rank 0's)
  if (rc == DS_EXIT_OK) rc = ds_app_each_graph(p.cli, run_graph, &p);
  if (p.root) rc = ds_app_finish_json(cli, p.json, rc);
  else cJSON_Delete(p.json);
#ifdef DS_HAVE_MPI
  if (cli->mpi) {
    // one code on every rank: the largest, should a rank have failed alone at the end
    int code = (int)rc;
    if (p.load_comm != NULL) {
      ds_error err = {{0}};
      uint64_t c = (uint64_t)code;
      (void)ds_comm_allreduce(p.load_comm, DS_COMM_U64, DS_COMM_MAX, &c, &c, 1, &err);
      code = (int)c;
    }
    ds_comm_destroy(p.load_comm);
    MPI_Finalize();
    rc = (ds_exit_code)code;
  }
#endif
  return rc;
}

#endif /* DS_HAVE_NCCL */
