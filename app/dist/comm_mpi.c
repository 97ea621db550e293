/* The MPI backend of ds_comm (comm_mpi.h): non-blocking collectives polled
 * against the communicator's timeout.
 *
 * A call that fails (an MPI error, a timeout) marks this rank's communicator
 * failed: its request may still be
 * pending, so no later collective on it could match the other ranks'. A
 * floating-point sum is gathered and added in rank order on every rank, as
 * the in-process backend does, since MPI does not promise the same bits on
 * every rank; the other reductions are exact, and go through MPI_Iallreduce.
 */
#define _POSIX_C_SOURCE 200809L
#include "dist/comm_mpi.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "dist/comm_backend.h"
#include "ds/rng.h"

#define SPINS_BEFORE_SLEEP 200 /* polls before a waiting rank starts to sleep between them, */
#define POLL_SLEEP_NS 20000L   /* for this long: ranks may share cores (mpirun --oversubscribe) */
#define ID_MAGIC "dsid"
#define PIECE_TAG 0x4453 /* the point-to-point messages of a large exchange */
#define BOOT_MSG_LEN 256

typedef struct {
  MPI_Comm comm;
  ds_comm_id id;
  int failed;
  char fail_msg[DS_ERROR_MSG_LEN];
  size_t piece; /* the most bytes one exchange message carries (ds_comm_mpi_set_piece) */
} mpi_impl;

static mpi_impl *impl_of(ds_comm *c) { return (mpi_impl *)c->impl; }

static ds_status mpi_error(int rc, const char *what, int rank, ds_error *err) {
  char s[MPI_MAX_ERROR_STRING];
  int len = 0;
  if (MPI_Error_string(rc, s, &len) != MPI_SUCCESS) snprintf(s, sizeof s, "error %d", rc);
  return ds_error_set(err, DS_ERR_IO, "MPI rank %d: %s failed: %s", rank, what, s);
}

/* Polls n requests until all complete, or fails after timeout_ms. */
static ds_status wait_all(MPI_Request *reqs, int n, uint32_t timeout_ms, const char *what, int rank,
                          int size, ds_error *err) {
  const double deadline = ds_comm_now() + timeout_ms / 1e3;
  for (long spins = 0;; spins++) {
    int done = 0;
    int rc = MPI_Testall(n, reqs, &done, MPI_STATUSES_IGNORE);
    if (rc != MPI_SUCCESS) return mpi_error(rc, what, rank, err);
    if (done) return DS_OK;
    if (ds_comm_now() > deadline)
      return ds_error_set(err, DS_ERR_IO, "MPI rank %d of %d: %s did not complete within %u ms: "
                          "a rank did not answer", rank, size, what, timeout_ms);
    if (spins >= SPINS_BEFORE_SLEEP) {
      struct timespec ts = {0, POLL_SLEEP_NS};
      nanosleep(&ts, NULL);
    }
  }
}

/* Polls req until it completes, or fails after timeout_ms. */
static ds_status wait_req(MPI_Request *req, uint32_t timeout_ms, const char *what, int rank,
                          int size, ds_error *err) {
  return wait_all(req, 1, timeout_ms, what, rank, size, err);
}

static ds_status failed_error(const mpi_impl *m, ds_error *err) {
  return ds_error_set(err, DS_ERR_IO, "%s", m->fail_msg);
}

static void mark_failed(mpi_impl *m, const char *msg) {
  if (m->failed) return;
  m->failed = 1;
  snprintf(m->fail_msg, sizeof m->fail_msg, "%s", msg);
}

/* Waits for a started collective (rc: what starting it returned). */
static ds_status finish(ds_comm *c, int rc, MPI_Request *req, const char *what, ds_error *err) {
  mpi_impl *m = impl_of(c);
  ds_error e;
  ds_status st = rc != MPI_SUCCESS ? mpi_error(rc, what, c->rank, &e)
                                   : wait_req(req, c->timeout_ms, what, c->rank, c->size, &e);
  if (st != DS_OK) {
    mark_failed(m, e.msg);
    if (err != NULL) *err = e;
  }
  return st;
}

static ds_status mpi_alltoall_u64(ds_comm *c, const uint64_t *send, uint64_t *recv,
                                  ds_error *err) {
  mpi_impl *m = impl_of(c);
  if (m->failed) return failed_error(m, err);
  MPI_Request req;
  int rc = MPI_Ialltoall(send, 1, MPI_UINT64_T, recv, 1, MPI_UINT64_T, m->comm, &req);
  return finish(c, rc, &req, "MPI_Ialltoall", err);
}

/* The pieces of at most `piece` bytes of n bytes. */
static uint64_t pieces_of(uint64_t n, size_t piece) { return (n + piece - 1) / piece; }

/* An exchange rank to rank, each block in pieces of at most m->piece bytes (MPI's counts are
 * int: one MPI_Ialltoallv carries no block or displacement past 2^31 - 1 bytes, and a rank cannot
 * choose it alone), received in order (MPI does not let messages of one sender, tag and
 * communicator overtake each other, so the pieces of consecutive exchanges do not mix either),
 * this rank's own block by a copy. */
static ds_status alltoallv_pieces(ds_comm *c, const void *send, const uint64_t *send_bytes,
                                  const uint64_t *send_off, void *recv, const uint64_t *recv_bytes,
                                  const uint64_t *recv_off, ds_error *err) {
  mpi_impl *m = impl_of(c);
  const int r = c->size, me = c->rank;
  if (send_bytes[me] != recv_bytes[me])
    return ds_error_set(err, DS_ERR_ARG, "MPI rank %d sends itself %llu bytes but expects %llu", me,
                        (unsigned long long)send_bytes[me], (unsigned long long)recv_bytes[me]);
  if (send_bytes[me] > 0)
    memmove((char *)recv + recv_off[me], (const char *)send + send_off[me], send_bytes[me]);
  uint64_t n = 0;
  for (int p = 0; p < r; p++)
    if (p != me) n += pieces_of(send_bytes[p], m->piece) + pieces_of(recv_bytes[p], m->piece);
  if (n > INT_MAX) return ds_error_set(err, DS_ERR_UNSUPPORTED, "MPI rank %d: %llu messages in one "
                                       "exchange", me, (unsigned long long)n);
  MPI_Request *reqs = malloc((n ? n : 1) * sizeof *reqs);
  if (reqs == NULL) return ds_error_set(err, DS_ERR_NOMEM, "MPI rank %d: out of memory for %llu "
                                        "requests", me, (unsigned long long)n);
  int k = 0, rc = MPI_SUCCESS;
  for (int p = 0; p < r && rc == MPI_SUCCESS; p++) /* every receive posted before the sends */
    for (uint64_t at = 0; p != me && at < recv_bytes[p] && rc == MPI_SUCCESS; at += m->piece) {
      const uint64_t len = recv_bytes[p] - at < m->piece ? recv_bytes[p] - at : m->piece;
      rc = MPI_Irecv((char *)recv + recv_off[p] + at, (int)len, MPI_BYTE, p, PIECE_TAG, m->comm, &reqs[k++]);
    }
  for (int p = 0; p < r && rc == MPI_SUCCESS; p++)
    for (uint64_t at = 0; p != me && at < send_bytes[p] && rc == MPI_SUCCESS; at += m->piece) {
      const uint64_t len = send_bytes[p] - at < m->piece ? send_bytes[p] - at : m->piece;
      rc = MPI_Isend((const char *)send + send_off[p] + at, (int)len, MPI_BYTE, p, PIECE_TAG, m->comm,
                     &reqs[k++]);
    }
  ds_error e;
  ds_status st = rc != MPI_SUCCESS ? mpi_error(rc, "an exchange rank to rank", me, &e)
                                   : wait_all(reqs, k, c->timeout_ms, "an exchange rank to rank", me, r, &e);
  free(reqs);
  if (st != DS_OK) {
    mark_failed(m, e.msg);
    if (err != NULL) *err = e;
  }
  return st;
}

static ds_status mpi_alltoallv(ds_comm *c, const void *send, const uint64_t *send_bytes,
                               const uint64_t *send_off, void *recv, const uint64_t *recv_bytes,
                               const uint64_t *recv_off, ds_error *err) {
  mpi_impl *m = impl_of(c);
  if (m->failed) return failed_error(m, err);
  return alltoallv_pieces(c, send, send_bytes, send_off, recv, recv_bytes, recv_off, err);
}

static ds_status mpi_allreduce(ds_comm *c, ds_comm_type type, ds_comm_op op, const void *in,
                               void *out, size_t count, ds_error *err) {
  mpi_impl *m = impl_of(c);
  if (m->failed) return failed_error(m, err);
  if (count * (size_t)c->size > INT_MAX) {
    ds_status st = ds_error_set(err, DS_ERR_UNSUPPORTED, "MPI rank %d: an all-reduce of %zu "
                                "values is more than MPI's int counts carry", c->rank, count);
    mark_failed(m, err ? err->msg : "an all-reduce too large for MPI's counts");
    return st;
  }
  MPI_Request req;
  if (type == DS_COMM_F64 && op == DS_COMM_SUM) { /* the same bits on every rank */
    double *all = malloc((count ? count : 1) * (size_t)c->size * sizeof *all);
    if (all == NULL) {
      ds_status st = ds_error_set(err, DS_ERR_NOMEM, "MPI rank %d: out of memory for an all-reduce",
                                  c->rank);
      mark_failed(m, err ? err->msg : "out of memory");
      return st;
    }
    int rc = MPI_Iallgather(in, (int)count, MPI_DOUBLE, all, (int)count, MPI_DOUBLE, m->comm, &req);
    ds_status st = finish(c, rc, &req, "MPI_Iallgather", err);
    if (st == DS_OK && count > 0) {
      memcpy(out, all, count * sizeof *all);
      for (int p = 1; p < c->size; p++) ds_comm_reduce_into(type, op, out, all + (size_t)p * count, count);
    }
    free(all);
    return st;
  }
  MPI_Op mop = op == DS_COMM_MIN ? MPI_MIN : op == DS_COMM_MAX ? MPI_MAX : MPI_SUM;
  MPI_Datatype t = type == DS_COMM_U64 ? MPI_UINT64_T : MPI_DOUBLE;
  int rc = MPI_Iallreduce(in == out ? MPI_IN_PLACE : in, out, (int)count, t, mop, m->comm, &req);
  return finish(c, rc, &req, "MPI_Iallreduce", err);
}

static ds_status mpi_barrier(ds_comm *c, ds_error *err) {
  mpi_impl *m = impl_of(c);
  if (m->failed) return failed_error(m, err);
  MPI_Request req;
  int rc = MPI_Ibarrier(m->comm, &req);
  return finish(c, rc, &req, "MPI_Ibarrier", err);
}

static void mpi_abort(ds_comm *c, const char *why) {
  char msg[DS_ERROR_MSG_LEN];
  snprintf(msg, sizeof msg, "rank %d aborted: %s", c->rank, why);
  mark_failed(impl_of(c), msg);
}

static void mpi_destroy(ds_comm *c) {
  mpi_impl *m = impl_of(c);
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized && m->comm != MPI_COMM_NULL) MPI_Comm_free(&m->comm);
  free(m);
}

static const ds_comm_ops MPI_OPS = {
    "mpi", DS_COMM_HOST, mpi_alltoall_u64, mpi_alltoallv, mpi_allreduce, mpi_barrier,
    mpi_abort, mpi_destroy,
};

/* ---- the bootstrap --------------------------------------------------------- */

ds_status ds_comm_id_make(void *ctx, ds_comm_id *id, ds_error *err) {
  (void)ctx;
  (void)err;
  memset(id, 0, sizeof *id);
  struct timespec rt, mt;
  clock_gettime(CLOCK_REALTIME, &rt);
  clock_gettime(CLOCK_MONOTONIC, &mt);
  uint64_t words[4] = {(uint64_t)getpid(), (uint64_t)rt.tv_sec * 1000000000u + (uint64_t)rt.tv_nsec,
                       (uint64_t)mt.tv_nsec, 0};
  FILE *f = fopen("/dev/urandom", "rb");
  if (f == NULL || fread(&words[3], sizeof words[3], 1, f) != 1)
    words[3] = ds_mix64(words[0] ^ ds_mix64(words[1] ^ ds_mix64(words[2]))); /* no urandom */
  if (f != NULL) fclose(f);
  memcpy(id->bytes, ID_MAGIC, 4);
  memcpy(id->bytes + 8, words, sizeof words);
  gethostname((char *)id->bytes + 8 + sizeof words, DS_COMM_ID_BYTES - 9 - sizeof words);
  return DS_OK;
}

static uint64_t id_hash(const ds_comm_id *id) {
  uint64_t h = 0, w;
  for (size_t i = 0; i < DS_COMM_ID_BYTES; i += sizeof w) {
    memcpy(&w, id->bytes + i, sizeof w);
    h = ds_mix64(h ^ w);
  }
  return h;
}

typedef struct {
  int32_t status;
  char msg[BOOT_MSG_LEN];
  ds_comm_id id;
} boot_msg;

ds_status ds_comm_mpi_bootstrap(MPI_Comm comm, uint32_t timeout_ms, ds_comm_id_maker make,
                                void *ctx, ds_comm_id *id, ds_error *err) {
  if (make == NULL || id == NULL)
    return ds_error_set(err, DS_ERR_ARG, "ds_comm_mpi_bootstrap: make and id must not be NULL");
  int rank = 0, size = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  // 1. the root makes the id (or fails, and says why)
  boot_msg b;
  memset(&b, 0, sizeof b);
  if (rank == 0) {
    ds_error e;
    e.msg[0] = '\0';
    b.status = (int32_t)make(ctx, &b.id, &e);
    if (b.status != DS_OK) snprintf(b.msg, sizeof b.msg, "%.*s", BOOT_MSG_LEN - 1, e.msg);
  }
  // 2. to every rank
  MPI_Request req;
  int rc = MPI_Ibcast(&b, (int)sizeof b, MPI_BYTE, 0, comm, &req);
  ds_status st = rc != MPI_SUCCESS ? mpi_error(rc, "MPI_Ibcast of the id", rank, err)
                                   : wait_req(&req, timeout_ms, "MPI_Ibcast of the id", rank, size, err);
  if (st != DS_OK) return st;
  if (b.status != DS_OK)
    return ds_error_set(err, (ds_status)b.status, "rank 0 could not make the communicator's "
                        "id: %s", b.msg);
  *id = b.id;
  return DS_OK;
}

ds_status ds_comm_mpi_create(MPI_Comm parent, const ds_comm_options *opt, ds_comm **out,
                             ds_error *err) {
  ds_comm_options defaults;
  if (out == NULL) return ds_error_set(err, DS_ERR_ARG, "ds_comm_mpi_create: out is NULL");
  *out = NULL;
  if (opt == NULL) {
    ds_comm_options_default(&defaults);
    opt = &defaults;
  }
  // 1. MPI up, arguments
  int up = 0, down = 0;
  MPI_Initialized(&up);
  MPI_Finalized(&down);
  if (!up || down)
    return ds_error_set(err, DS_ERR_ARG, "MPI is %s: call MPI_Init before ds_comm_mpi_create",
                        down ? "finalised" : "not initialised");
  if (opt->timeout_ms == 0)
    return ds_error_set(err, DS_ERR_ARG, "communicator timeout 0 ms: it must be at least 1 ms");
  int rank = 0, size = 0;
  MPI_Comm_rank(parent, &rank);
  MPI_Comm_size(parent, &size);
  if (size > DS_COMM_MAX_RANKS)
    return ds_error_set(err, DS_ERR_ARG, "MPI job of %d ranks: at most %d", size, DS_COMM_MAX_RANKS);

  // 2. a communicator of our own, whose errors return
  mpi_impl *m = calloc(1, sizeof *m);
  if (m == NULL) return ds_error_set(err, DS_ERR_NOMEM, "MPI rank %d: out of memory", rank);
  m->comm = MPI_COMM_NULL;
  MPI_Request req;
  int rc = MPI_Comm_idup(parent, &m->comm, &req);
  ds_status st = rc != MPI_SUCCESS ? mpi_error(rc, "MPI_Comm_idup", rank, err)
                                   : wait_req(&req, opt->timeout_ms, "MPI_Comm_idup", rank, size, err);
  if (st != DS_OK) {
    free(m);
    return st;
  }
  MPI_Comm_set_errhandler(m->comm, MPI_ERRORS_RETURN);

  // 3. the bootstrap: rank 0's id on every rank
  st = ds_comm_mpi_bootstrap(m->comm, opt->timeout_ms, ds_comm_id_make, NULL, &m->id, err);
  if (st != DS_OK) goto fail;

  // 4. join: every rank holds the same id, and has its state
  ds_status local = DS_OK;
  m->piece = INT_MAX;
  ds_comm *c = ds_comm_new(&MPI_OPS, rank, size, opt, m);
  if (c == NULL) local = DS_ERR_NOMEM;
  const uint64_t h = id_hash(&m->id);
  uint64_t v[3] = {h, ~h, ~(uint64_t)local};
  rc = MPI_Iallreduce(MPI_IN_PLACE, v, 3, MPI_UINT64_T, MPI_MIN, m->comm, &req);
  st = rc != MPI_SUCCESS ? mpi_error(rc, "MPI_Iallreduce of the id", rank, err)
                         : wait_req(&req, opt->timeout_ms, "MPI_Iallreduce of the id", rank, size, err);
  if (st == DS_OK && v[0] != ~v[1])
    st = ds_error_set(err, DS_ERR_IO, "MPI rank %d: the ranks hold different communicator ids "
                      "(two jobs mixed?)", rank);
  if (st == DS_OK && ~v[2] != DS_OK)
    st = ds_error_set(err, DS_ERR_NOMEM, "MPI rank %d: a rank ran out of memory creating the "
                      "communicator", rank);
  if (st != DS_OK) {
    free(c); /* ds_comm_destroy would free m too */
    goto fail;
  }
  *out = c;
  return DS_OK;
fail:
  if (m->comm != MPI_COMM_NULL) MPI_Comm_free(&m->comm);
  free(m);
  return st;
}

void ds_comm_mpi_set_piece(ds_comm *comm, size_t bytes) {
  if (comm == NULL || comm->ops != &MPI_OPS) return;
  impl_of(comm)->piece = bytes == 0 || bytes > INT_MAX ? (size_t)INT_MAX : bytes;
}
