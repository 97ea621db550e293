/* The in-process communicator (app/dist/comm_inproc.c, comm.c) on 1 to 7
 * ranks: every collective against values each rank can predict, the
 * agreement of a local failure, the statistics; and the failure paths, none
 * of which may hang: a rank that never comes, an abort, mismatched
 * collectives, mismatched sizes, a bad argument. Each rank records what it
 * saw; main checks after the threads have joined (the harness is not
 * thread-safe). */
#include "ds_test.h"

#include <time.h>

#include "dist/comm.h"

#define MAX_RANKS 8
#define SHORT_TIMEOUT_MS 150u
#define FAILURE_BOUND_S 5.0 /* a failure case must end well within this */

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ---- the collectives, on healthy groups --------------------------------- */

typedef struct {
  int bad_alltoall, bad_alltoallv, bad_reduce, bad_exchange;
  double f64_sum; /* must be bit-identical on every rank */
  ds_status agree_ok, agree_fail;
  char agree_msg[DS_ERROR_MSG_LEN];
  uint64_t detail;
  ds_comm_stats stats;
} healthy_obs;

typedef struct {
  healthy_obs obs[MAX_RANKS];
} healthy_arg;

/* The bytes rank `from` sends rank `to`: a size and a pattern both can compute. */
static uint64_t payload_bytes(int from, int to) { return (uint64_t)((from * 7 + to * 3) % 5) * 3; }
static unsigned char payload_byte(int from, int to, uint64_t i) {
  return (unsigned char)(from * 31 + to * 17 + (int)i);
}

static ds_status healthy_rank(ds_comm *c, void *argp, ds_error *err) {
  healthy_arg *arg = argp;
  const int me = ds_comm_rank(c), size = ds_comm_size(c);
  healthy_obs *o = &arg->obs[me];
  ds_status st;
  uint64_t send[MAX_RANKS], recv[MAX_RANKS];

  // 1. alltoall_u64
  for (int p = 0; p < size; p++) send[p] = (uint64_t)me * 1000 + (uint64_t)p;
  if ((st = ds_comm_alltoall_u64(c, send, recv, err)) != DS_OK) return st;
  for (int p = 0; p < size; p++) o->bad_alltoall += recv[p] != (uint64_t)p * 1000 + (uint64_t)me;

  // 2. alltoallv of uneven sizes, some zero, the self part included
  uint64_t sb[MAX_RANKS], so[MAX_RANKS], rb[MAX_RANKS], ro[MAX_RANKS], out = 0, in = 0;
  unsigned char sbuf[MAX_RANKS * 16], rbuf[MAX_RANKS * 16];
  for (int p = 0; p < size; p++) {
    sb[p] = payload_bytes(me, p);
    so[p] = out;
    for (uint64_t i = 0; i < sb[p]; i++) sbuf[out + i] = payload_byte(me, p, i);
    out += sb[p];
    rb[p] = payload_bytes(p, me);
    ro[p] = in;
    in += rb[p];
  }
  if ((st = ds_comm_alltoallv(c, sbuf, sb, so, rbuf, rb, ro, err)) != DS_OK) return st;
  for (int p = 0; p < size; p++)
    for (uint64_t i = 0; i < rb[p]; i++) o->bad_alltoallv += rbuf[ro[p] + i] != payload_byte(p, me, i);

  // 3. all-reduces: min, max, sum of u64 (in place too), sum of f64
  uint64_t v[3] = {100 + (uint64_t)me, 100 + (uint64_t)me, (uint64_t)me}, r3[3];
  if ((st = ds_comm_allreduce(c, DS_COMM_U64, DS_COMM_MIN, v, r3, 1, err)) != DS_OK) return st;
  o->bad_reduce += r3[0] != 100;
  if ((st = ds_comm_allreduce(c, DS_COMM_U64, DS_COMM_MAX, v + 1, r3 + 1, 1, err)) != DS_OK) return st;
  o->bad_reduce += r3[1] != 100 + (uint64_t)size - 1;
  if ((st = ds_comm_allreduce(c, DS_COMM_U64, DS_COMM_SUM, v + 2, v + 2, 1, err)) != DS_OK) return st;
  o->bad_reduce += v[2] != (uint64_t)size * (uint64_t)(size - 1) / 2;
  double f = 0.1 * (me + 1) + 1e-17 * me, fs = 0;
  if ((st = ds_comm_allreduce(c, DS_COMM_F64, DS_COMM_SUM, &f, &fs, 1, err)) != DS_OK) return st;
  o->f64_sum = fs;
  if ((st = ds_comm_allreduce(c, DS_COMM_U64, DS_COMM_SUM, NULL, NULL, 0, err)) != DS_OK) return st;
  if ((st = ds_comm_barrier(c, err)) != DS_OK) return st;

  // 4. the host exchange, with a buffer that grows
  void *got = NULL;
  size_t cap = 0;
  uint64_t gotb[MAX_RANKS];
  st = ds_comm_exchange(c, sbuf, sb, &got, &cap, gotb, err);
  if (st == DS_OK) {
    uint64_t at = 0;
    for (int p = 0; p < size; p++) {
      o->bad_exchange += gotb[p] != rb[p];
      for (uint64_t i = 0; i < gotb[p] && gotb[p] == rb[p]; i++)
        o->bad_exchange += ((unsigned char *)got)[at + i] != payload_byte(p, me, i);
      at += gotb[p];
    }
  }
  free(got);
  if (st != DS_OK) return st;

  // 5. agreement: all pass, then the last rank fails with a message and a detail
  ds_error e;
  o->agree_ok = ds_comm_agree(c, DS_OK, &e);
  ds_status local = me == size - 1 ? ds_error_set(&e, DS_ERR_VALIDATION, "vertex 42 is wrong")
                                   : DS_OK;
  uint64_t detail = me == size - 1 ? 42 : 7;
  o->agree_fail = ds_comm_agree_detail(c, local, &detail, &e);
  snprintf(o->agree_msg, sizeof o->agree_msg, "%s", e.msg);
  o->detail = detail;
  ds_comm_stats_get(c, &o->stats);
  return DS_OK;
}

static void test_healthy(int size) {
  healthy_arg arg;
  memset(&arg, 0, sizeof arg);
  ds_status rs[MAX_RANKS];
  ds_error re[MAX_RANKS], err;
  ds_comm_options opt;
  ds_comm_options_default(&opt);
  ds_status st = ds_comm_inproc_run(size, &opt, healthy_rank, &arg, rs, re, &err);
  REQUIRE(st == DS_OK, "R=%d: %s", size, err.msg);
  char want[64];
  snprintf(want, sizeof want, "rank %d: vertex 42 is wrong", size - 1);
  for (int r = 0; r < size; r++) {
    const healthy_obs *o = &arg.obs[r];
    CHECK(o->bad_alltoall == 0, "R=%d rank %d: %d wrong alltoall values", size, r, o->bad_alltoall);
    CHECK(o->bad_alltoallv == 0, "R=%d rank %d: %d wrong alltoallv bytes", size, r, o->bad_alltoallv);
    CHECK(o->bad_reduce == 0, "R=%d rank %d: %d wrong reductions", size, r, o->bad_reduce);
    CHECK(o->bad_exchange == 0, "R=%d rank %d: %d wrong exchange bytes", size, r, o->bad_exchange);
    CHECK(memcmp(&o->f64_sum, &arg.obs[0].f64_sum, sizeof(double)) == 0,
          "R=%d rank %d: f64 sum %.17g differs from rank 0's %.17g", size, r, o->f64_sum,
          arg.obs[0].f64_sum);
    CHECK(o->agree_ok == DS_OK, "R=%d rank %d: agreement of all-OK gave %d", size, r, o->agree_ok);
    CHECK(o->agree_fail == DS_ERR_VALIDATION, "R=%d rank %d: agreement gave %d", size, r,
          o->agree_fail);
    if (r == size - 1)
      CHECK(strcmp(o->agree_msg, "vertex 42 is wrong") == 0, "failing rank's message became '%s'",
            o->agree_msg);
    else
      CHECK(strcmp(o->agree_msg, want) == 0, "R=%d rank %d: message '%s', want '%s'", size, r,
            o->agree_msg, want);
    CHECK(o->detail == 42, "R=%d rank %d: detail %llu, want 42", size, r,
          (unsigned long long)o->detail);
    // the schedule: 2 alltoalls (one direct, one in the exchange), 2 alltoallvs, 5 + 1 + 3
    // all-reduces (agree: 1 when all pass, 2 when one fails), 1 barrier
    CHECK(o->stats.alltoall_calls == 2 && o->stats.alltoallv_calls == 2 &&
              o->stats.allreduce_calls == 8 && o->stats.barrier_calls == 1,
          "R=%d rank %d: calls %llu/%llu/%llu/%llu", size, r,
          (unsigned long long)o->stats.alltoall_calls, (unsigned long long)o->stats.alltoallv_calls,
          (unsigned long long)o->stats.allreduce_calls, (unsigned long long)o->stats.barrier_calls);
    uint64_t out = 0, in = 0;
    for (int p = 0; p < size; p++)
      if (p != r) out += payload_bytes(r, p), in += payload_bytes(p, r);
    CHECK(o->stats.bytes_sent == 2 * out && o->stats.bytes_received == 2 * in,
          "R=%d rank %d: bytes %llu/%llu, want %llu/%llu", size, r,
          (unsigned long long)o->stats.bytes_sent, (unsigned long long)o->stats.bytes_received,
          (unsigned long long)(2 * out), (unsigned long long)(2 * in));
  }
}

/* ---- failures: every rank errs, within the bound ------------------------ */

typedef enum { F_ABSENT, F_ABORT, F_MISMATCH, F_SIZES, F_BAD_ARG } failure_kind;

typedef struct {
  failure_kind kind;
  ds_status first[MAX_RANKS], later[MAX_RANKS];
  char msg[MAX_RANKS][DS_ERROR_MSG_LEN];
} failure_arg;

static ds_status failing_rank(ds_comm *c, void *argp, ds_error *err) {
  failure_arg *a = argp;
  const int me = ds_comm_rank(c), size = ds_comm_size(c), odd = size - 1;
  ds_status st = DS_OK;
  uint64_t x = 1, y = 0;
  uint64_t sb[MAX_RANKS], so[MAX_RANKS], rb[MAX_RANKS], ro[MAX_RANKS];
  unsigned char buf[MAX_RANKS];
  switch (a->kind) {
  case F_ABSENT: /* the odd rank never comes */
    if (me == odd) return DS_OK;
    st = ds_comm_barrier(c, err);
    break;
  case F_ABORT:
    if (me == odd) {
      ds_comm_abort(c, "disk on fire");
      st = ds_comm_barrier(c, err); /* its own later calls fail too */
    } else {
      st = ds_comm_allreduce(c, DS_COMM_U64, DS_COMM_SUM, &x, &y, 1, err);
    }
    break;
  case F_MISMATCH:
    st = me == odd ? ds_comm_barrier(c, err)
                   : ds_comm_allreduce(c, DS_COMM_U64, DS_COMM_SUM, &x, &y, 1, err);
    break;
  case F_SIZES: /* the odd rank expects one byte more from rank 0 */
    for (int p = 0; p < size; p++) {
      sb[p] = rb[p] = 1;
      so[p] = ro[p] = (uint64_t)p;
      buf[p] = (unsigned char)me;
    }
    if (me == odd) rb[0] = 2, ro[0] = 0;
    {
      unsigned char in[MAX_RANKS + 1];
      st = ds_comm_alltoallv(c, buf, sb, so, in, rb, ro, err);
    }
    break;
  case F_BAD_ARG:
    st = ds_comm_allreduce(c, DS_COMM_U64, DS_COMM_SUM, me == odd ? NULL : &x, &y, 1, err);
    break;
  }
  a->first[me] = st;
  snprintf(a->msg[me], DS_ERROR_MSG_LEN, "%s", err->msg);
  ds_error e2;
  a->later[me] = ds_comm_barrier(c, &e2); /* a failed group stays failed */
  return st;
}

static void test_failure(failure_kind kind, const char *name, int size, ds_status odd_status,
                         const char *pattern) {
  failure_arg a;
  memset(&a, 0, sizeof a);
  a.kind = kind;
  ds_status rs[MAX_RANKS];
  ds_error err;
  ds_comm_options opt = {SHORT_TIMEOUT_MS};
  double t0 = now_s();
  ds_comm_inproc_run(size, &opt, failing_rank, &a, rs, NULL, &err);
  double took = now_s() - t0;
  CHECK(took < FAILURE_BOUND_S, "%s R=%d: the failure took %.1f s", name, size, took);
  for (int r = 0; r < size; r++) {
    const int odd = r == size - 1;
    if (kind == F_ABSENT && odd) continue;
    ds_status want = odd ? odd_status : DS_ERR_IO;
    CHECK(a.first[r] == want, "%s R=%d rank %d: status %d, want %d (%s)", name, size, r,
          a.first[r], want, a.msg[r]);
    CHECK(!odd || kind == F_BAD_ARG || strstr(a.msg[r], pattern) != NULL,
          "%s R=%d rank %d: message '%s' lacks '%s'", name, size, r, a.msg[r], pattern);
    CHECK(odd || strstr(a.msg[r], pattern) != NULL, "%s R=%d rank %d: message '%s' lacks '%s'",
          name, size, r, a.msg[r], pattern);
    CHECK(a.later[r] == DS_ERR_IO, "%s R=%d rank %d: a later call gave %d", name, size, r,
          a.later[r]);
  }
}

static void test_create_args(void) {
  ds_comm *comms[2];
  ds_error err;
  CHECK(ds_comm_inproc_create(0, NULL, comms, &err) == DS_ERR_ARG, "0 ranks accepted");
  CHECK(strstr(err.msg, "0 ranks") != NULL, "message: %s", err.msg);
  ds_comm_options zero = {0};
  CHECK(ds_comm_inproc_create(2, &zero, comms, &err) == DS_ERR_ARG, "timeout 0 accepted");
  CHECK(ds_comm_inproc_create(DS_COMM_MAX_RANKS + 1, NULL, comms, &err) == DS_ERR_ARG,
        "too many ranks accepted");
  REQUIRE(ds_comm_inproc_create(2, NULL, comms, &err) == DS_OK, "%s", err.msg);
  CHECK(ds_comm_rank(comms[1]) == 1 && ds_comm_size(comms[0]) == 2, "rank/size");
  CHECK(strcmp(ds_comm_backend_name(comms[0]), "in-process") == 0, "backend name");
  CHECK(ds_comm_memory_kind(comms[0]) == DS_COMM_HOST, "memory kind");
  ds_comm_destroy(comms[0]);
  ds_comm_destroy(comms[1]);
  ds_comm_destroy(NULL);
}

int main(void) {
  static const int SIZES[] = {1, 2, 3, 4, 7};
  for (size_t i = 0; i < sizeof SIZES / sizeof *SIZES; i++) test_healthy(SIZES[i]);
  test_create_args();
  for (int size = 2; size <= 4; size += 2) {
    test_failure(F_ABSENT, "absent", size, DS_OK, "did not reach");
    test_failure(F_ABORT, "abort", size, DS_ERR_IO, "aborted: disk on fire");
    test_failure(F_MISMATCH, "mismatch", size, DS_ERR_IO, "called");
    test_failure(F_SIZES, "sizes", size, DS_ERR_IO, "expects");
    test_failure(F_BAD_ARG, "bad argument", size, DS_ERR_ARG, "aborted");
  }
  return ds_test_finish("dist comm");
}
