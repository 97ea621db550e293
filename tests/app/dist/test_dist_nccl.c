/* The NCCL backend of ds_comm (app/dist/comm_nccl.c).
 *   test_dist_nccl version     nccl.h and libnccl agree (no GPU needed), and
 *                              NVLink multicast is off after ds_nccl_nvls_off;
 *   test_dist_nccl --gpus N    every collective on N GPUs of one process: the
 *   (or --mpi under mpirun)    all-to-all of counts, the all-to-all-v of device
 *                              buffers (empty parts, a rank's part to itself),
 *                              all-reduces (a float sum with the same bits on
 *                              every rank), the barrier, the agreement of one
 *                              rank's failure, the statistics;
 *   ... --late                 then rank 1 comes too late to a collective: an
 *                              error on the ranks that waited, within the
 *                              timeout (the NCCL communicator aborted);
 *   ... --fail-rank R          rank R asks for a GPU that does not exist: every
 *                              rank fails at setup with R's message, at once.
 * Exits 77 without NCCL, without MPI under --mpi, or with fewer GPUs than ranks.
 */
#include "ds_test.h"

#include <time.h>

#ifndef DS_HAVE_NCCL
int main(void) { return ds_test_skip("built without NCCL (CUDA and NCCL found at configure time)"); }
#else

#include "gpu_launch.h"

#define COLLECTIVE_TIMEOUT_MS 30000u /* long enough for NCCL's set-up on a loaded machine: 10 s was
                                        not, beside 36 sanitizer processes and a soak */
#define LATE_SLEEP_S 32              /* beyond the timeout */
#define SETUP_FAIL_BOUND_S 20.0      /* a failure at setup reaches every rank well within this,
                                        below the 30 s a rank waiting on its timeout would take */

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int test_version(void) {
  int header = 0, library = 0;
  ds_error err;
  ds_status st = ds_nccl_check_version(&header, &library, &err);
  char h[32], l[32];
  ds_nccl_version_string(header, h, sizeof h);
  ds_nccl_version_string(library, l, sizeof l);
  printf("nccl.h %s, libnccl %s\n", h, l);
  CHECK(st == DS_OK, "%s", err.msg);
  CHECK(strcmp(h, "2.28.9") == 0 || header >= 20900, "version string %s of %d", h, header);
  char old[32];
  ds_nccl_version_string(2708, old, sizeof old); /* the old encoding, up to 2.8 */
  CHECK(strcmp(old, "2.7.8") == 0, "2708 is %s", old);
  CHECK(ds_nccl_nvls_off(&err) == DS_OK, "%s", err.msg);
  const char *v = getenv("NCCL_NVLS_ENABLE");
  CHECK(v != NULL && strcmp(v, "0") == 0, "NCCL_NVLS_ENABLE is %s", v ? v : "unset");
  return ds_test_finish("dist nccl version");
}

/* The byte that rank `from` sends rank `to` at offset i. */
static unsigned char pattern(int from, int to, uint64_t i) {
  return (unsigned char)(from * 31 + to * 7 + (int)(i % 251));
}

static uint64_t part_bytes(int from, int to, int size) {
  if (from == 0 && to == size - 1) return 0; /* one empty part */
  return 1 + 37 * (uint64_t)from + 4099 * (uint64_t)to;
}

static void check_alltoallv(ds_comm *dev, rank_checks *rc) {
  const int me = ds_comm_rank(dev), size = ds_comm_size(dev);
  uint64_t sb[LAUNCH_MAX_RANKS], so[LAUNCH_MAX_RANKS], rb[LAUNCH_MAX_RANKS], ro[LAUNCH_MAX_RANKS];
  uint64_t out = 0, in = 0;
  for (int p = 0; p < size; p++) {
    sb[p] = part_bytes(me, p, size), so[p] = out, out += sb[p];
    rb[p] = part_bytes(p, me, size), ro[p] = in, in += rb[p];
  }
  unsigned char *hs = malloc(out), *hr = malloc(in);
  void *ds = NULL, *dr = NULL;
  ds_error err;
  if (!RCHECK(rc, hs && hr && cudaMalloc(&ds, out) == cudaSuccess && cudaMalloc(&dr, in) == cudaSuccess,
              "out of memory")) goto done;
  for (int p = 0; p < size; p++)
    for (uint64_t i = 0; i < sb[p]; i++) hs[so[p] + i] = pattern(me, p, i);
  cudaMemcpy(ds, hs, out, cudaMemcpyHostToDevice);
  cudaMemset(dr, 0, in);
  /* complete before the exchange (comm.h): the memset is asynchronous, and the backend's
     stream does not wait for the default stream; without this the self-copy could land
     before the memset (1 failure in the late-rank test on 4 loaded H200s) */
  RCHECK(rc, cudaDeviceSynchronize() == cudaSuccess, "cudaDeviceSynchronize");
  if (!RCHECK(rc, ds_comm_alltoallv(dev, ds, sb, so, dr, rb, ro, &err) == DS_OK, "%s", err.msg))
    goto done;
  cudaMemcpy(hr, dr, in, cudaMemcpyDeviceToHost);
  for (int p = 0; p < size; p++)
    for (uint64_t i = 0; i < rb[p]; i++)
      if (!RCHECK(rc, hr[ro[p] + i] == pattern(p, me, i), "alltoallv: byte %llu from rank %d",
                  (unsigned long long)i, p)) break;
  ds_comm_stats s;
  ds_comm_stats_get(dev, &s);
  RCHECK(rc, s.bytes_sent == out - sb[me] && s.bytes_received == in - rb[me],
         "stats: %llu sent, %llu received", (unsigned long long)s.bytes_sent,
         (unsigned long long)s.bytes_received);
done:
  free(hs);
  free(hr);
  cudaFree(ds);
  cudaFree(dr);
}

static void check_reductions(ds_comm *host, ds_comm *dev, rank_checks *rc) {
  const int me = ds_comm_rank(dev), size = ds_comm_size(dev);
  ds_error err;
  uint64_t v[3] = {(uint64_t)me + 5, (uint64_t)me + 5, (uint64_t)me + 5}, o[3];
  const ds_comm_op ops[3] = {DS_COMM_MIN, DS_COMM_MAX, DS_COMM_SUM};
  const uint64_t want[3] = {5, (uint64_t)size + 4, (uint64_t)size * (size + 9) / 2};
  for (int i = 0; i < 3; i++) {
    RCHECK(rc, ds_comm_allreduce(dev, DS_COMM_U64, ops[i], &v[i], &o[i], 1, &err) == DS_OK, "%s",
           err.msg);
    RCHECK(rc, o[i] == want[i], "all-reduce %d: %llu, want %llu", i, (unsigned long long)o[i],
           (unsigned long long)want[i]);
  }
  double f[2] = {0.1 * (me + 1), 1e-17 * (me + 1)}; /* in place; the same bits everywhere */
  RCHECK(rc, ds_comm_allreduce(dev, DS_COMM_F64, DS_COMM_SUM, f, f, 2, &err) == DS_OK, "%s", err.msg);
  uint64_t bits[2], lo[2], hi[2];
  memcpy(bits, f, sizeof bits);
  ds_comm_allreduce(host, DS_COMM_U64, DS_COMM_MIN, bits, lo, 2, &err);
  ds_comm_allreduce(host, DS_COMM_U64, DS_COMM_MAX, bits, hi, 2, &err);
  RCHECK(rc, lo[0] == hi[0] && lo[1] == hi[1], "a float sum differs between the ranks");
  RCHECK(rc, ds_comm_allreduce(dev, DS_COMM_U64, DS_COMM_SUM, NULL, NULL, 0, &err) == DS_OK,
         "count 0: %s", err.msg);
  RCHECK(rc, ds_comm_barrier(dev, &err) == DS_OK, "barrier: %s", err.msg);
  // one rank's failure, agreed over the NCCL communicator
  ds_error mine;
  ds_status local = me == size - 1 ? ds_error_set(&mine, DS_ERR_NOMEM, "on purpose") : DS_OK;
  ds_status st = ds_comm_agree(dev, local, &mine);
  char want_msg[64];
  snprintf(want_msg, sizeof want_msg, "rank %d: on purpose", size - 1);
  RCHECK(rc, st == DS_ERR_NOMEM && (me == size - 1 || strcmp(mine.msg, want_msg) == 0),
         "agree gave %d (%s)", st, mine.msg);
}

static ds_status collectives_rank(ds_comm *host, ds_comm *dev, void *arg, ds_error *err) {
  rank_checks rc = {ds_comm_rank(dev), 0};
  const int me = rc.rank, size = ds_comm_size(dev);
  ds_error e;
  RCHECK(&rc, strcmp(ds_comm_backend_name(dev), "nccl") == 0 &&
                  ds_comm_memory_kind(dev) == DS_COMM_DEVICE && ds_comm_size(host) == size,
         "backend %s", ds_comm_backend_name(dev));
  uint64_t send[LAUNCH_MAX_RANKS], recv[LAUNCH_MAX_RANKS];
  for (int p = 0; p < size; p++) send[p] = (uint64_t)me * 1000 + (uint64_t)p;
  RCHECK(&rc, ds_comm_alltoall_u64(dev, send, recv, &e) == DS_OK, "%s", e.msg);
  for (int p = 0; p < size; p++)
    RCHECK(&rc, recv[p] == (uint64_t)p * 1000 + (uint64_t)me, "alltoall from %d: %llu", p,
           (unsigned long long)recv[p]);
  check_alltoallv(dev, &rc);
  check_reductions(host, dev, &rc);
  if (!*(const int *)arg) return rank_outcome(&rc, err);

  // --late: rank 1 comes too late; the ranks that waited fail within the timeout
  const double t0 = now_s();
  if (me == 1) sleep(LATE_SLEEP_S);
  ds_status st = ds_comm_alltoall_u64(dev, send, recv, &e);
  const double waited = now_s() - t0;
  if (me != 1)
    RCHECK(&rc, st == DS_ERR_IO && waited < COLLECTIVE_TIMEOUT_MS / 1e3 + 5,
           "a late rank: %d after %.1f s (%s)", st, waited, e.msg);
  return rank_outcome(&rc, err);
}

int main(int argc, char **argv) {
  if (argc == 2 && strcmp(argv[1], "version") == 0) return test_version();
  int late = 0, kept = 1;
  for (int i = 1; i < argc; i++) { /* --late is this program's; the rest the launch's */
    if (strcmp(argv[i], "--late") == 0) late = 1;
    else argv[kept++] = argv[i];
  }
  argc = kept;
  launch_opts o;
  const int rc = launch_start(&o, &argc, &argv);
  if (rc != 0) return rc;
  ds_comm_options opt;
  ds_comm_options_default(&opt);
  opt.timeout_ms = COLLECTIVE_TIMEOUT_MS;
  ds_status rank_status[LAUNCH_MAX_RANKS];
  ds_error rank_err[LAUNCH_MAX_RANKS], err;
  const double t0 = now_s();
  ds_status st = launch_run(&o, collectives_rank, &late, &opt, rank_status, rank_err, &err);
  const double took = now_s() - t0;
  if (o.fail_rank < 0) {
    for (int r = launch_first(&o); r < launch_last(&o); r++)
      CHECK(rank_status[r] == DS_OK, "rank %d: %s", r, rank_err[r].msg);
  } else {
    char who[32], gpu[32];
    snprintf(who, sizeof who, "rank %d", o.fail_rank);
    snprintf(gpu, sizeof gpu, "GPU 99");
    for (int r = launch_first(&o); r < launch_last(&o); r++)
      CHECK(rank_status[r] == DS_ERR_DEVICE && strstr(rank_err[r].msg, who) != NULL &&
                strstr(rank_err[r].msg, gpu) != NULL,
            "rank %d: a failed setup gave %d (%s)", r, rank_status[r], rank_err[r].msg);
    CHECK(took < SETUP_FAIL_BOUND_S, "the failed setup took %.1f s", took);
    printf("every rank: %s\n", rank_err[launch_first(&o)].msg);
  }
  (void)st;
  launch_end(&o);
  return ds_test_finish("dist nccl, %d ranks%s", o.gpus, o.mpi ? " (mpi)" : "");
}
#endif
