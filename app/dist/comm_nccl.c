/* The NCCL backend of ds_comm (comm_nccl.h): grouped ncclSend/ncclRecv on
 * device buffers, collectives staged through a small device buffer, every wait
 * a bounded poll.
 *
 * A call is queued on the rank's stream, then waited for in two stages under
 * one deadline: (1) ncclCommGetAsyncError until NCCL has queued the group (a
 * non-blocking communicator returns ncclInProgress until then, and nothing
 * else may be queued on the stream before), (2) cudaStreamQuery until the
 * stream has run it. A NCCL error, a CUDA error or the deadline marks the
 * communicator failed and aborts the NCCL communicator (its work may still be
 * pending, so no later call on it could match the other ranks').
 */
#define _POSIX_C_SOURCE 200809L
#include "dist/comm_nccl.h"

#include <cuda_runtime_api.h>
#include <nccl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dist/comm_backend.h"

_Static_assert(sizeof(ncclUniqueId) <= DS_COMM_ID_BYTES, "an ncclUniqueId fits a ds_comm_id");

#define SPINS_BEFORE_SLEEP 1000 /* polls before a waiting rank sleeps between them: a round's */
#define POLL_SLEEP_NS 20000L    /* collectives take tens of microseconds, a slow rank seconds */
#define STAGE_WORDS_MIN 64      /* staging words at first; grows with the largest all-reduce */

typedef struct {
  ncclComm_t comm;
  cudaStream_t stream;
  int device;
  int failed, aborted;
  char fail_msg[DS_ERROR_MSG_LEN];
  uint64_t *d_stage, *h_stage; /* staged control values: device, pinned host */
  size_t stage_words;
} nccl_impl;

static nccl_impl *impl_of(ds_comm *c) { return (nccl_impl *)c->impl; }

/* ---- versions and the environment ----------------------------------------- */

void ds_nccl_version_string(int code, char *out, size_t len) {
  /* NCCL_VERSION: X*1000+Y*100+Z up to 2.8, X*10000+Y*100+Z from 2.9 on */
  const int wide = code >= 20900;
  const int major = wide ? code / 10000 : code / 1000;
  const int minor = wide ? code / 100 % 100 : code / 100 % 10;
  snprintf(out, len, "%d.%d.%d", major, minor, code % 100);
}

ds_status ds_nccl_check_version(int *header, int *library, ds_error *err) {
  int lib = 0;
  ncclResult_t rc = ncclGetVersion(&lib);
  if (header != NULL) *header = NCCL_VERSION_CODE;
  if (library != NULL) *library = lib;
  char h[32], l[32];
  ds_nccl_version_string(NCCL_VERSION_CODE, h, sizeof h);
  if (rc != ncclSuccess)
    return ds_error_set(err, DS_ERR_UNSUPPORTED, "ncclGetVersion failed (%s): libnccl does not "
                        "answer; the build's nccl.h is %s", ncclGetErrorString(rc), h);
  ds_nccl_version_string(lib, l, sizeof l);
  if (lib / 100 != NCCL_VERSION_CODE / 100 || lib < 20900)
    return ds_error_set(err, DS_ERR_UNSUPPORTED, "nccl.h is %s but the libnccl loaded is %s: "
                        "they must be the same major and minor version (point NCCL_ROOT at one "
                        "NCCL, or LD_LIBRARY_PATH at the library the build found)", h, l);
  return DS_OK;
}

static pthread_once_t nvls_once = PTHREAD_ONCE_INIT;
static int nvls_refused;

static void nvls_set(void) {
  const char *v = getenv("NCCL_NVLS_ENABLE");
  if (v == NULL) setenv("NCCL_NVLS_ENABLE", "0", 0);
  else nvls_refused = strcmp(v, "0") != 0;
}

ds_status ds_nccl_nvls_off(ds_error *err) {
  pthread_once(&nvls_once, nvls_set);
  if (nvls_refused)
    return ds_error_set(err, DS_ERR_ARG, "NCCL_NVLS_ENABLE=%s: NVLink multicast must stay off "
                        "(unset it, or set it to 0)", getenv("NCCL_NVLS_ENABLE"));
  return DS_OK;
}

ds_status ds_comm_nccl_id_make(void *ctx, ds_comm_id *id, ds_error *err) {
  (void)ctx;
  ds_status st = ds_nccl_check_version(NULL, NULL, err);
  if (st == DS_OK) st = ds_nccl_nvls_off(err);
  if (st != DS_OK) return st;
  memset(id, 0, sizeof *id);
  ncclUniqueId uid;
  ncclResult_t rc = ncclGetUniqueId(&uid);
  if (rc != ncclSuccess)
    return ds_error_set(err, DS_ERR_IO, "ncclGetUniqueId failed: %s (%s)", ncclGetErrorString(rc),
                        ncclGetLastError(NULL));
  memcpy(id->bytes, &uid, sizeof uid);
  return DS_OK;
}

/* ---- failing and waiting --------------------------------------------------- */

static void nccl_abort_comm(nccl_impl *m) {
  if (m->aborted || m->comm == NULL) return;
  m->aborted = 1;
  ncclCommAbort(m->comm);
}

/* Fails this communicator with msg (the first reason stays) and aborts NCCL's. */
static ds_status fail(ds_comm *c, ds_status st, ds_error *err, const char *what, const char *why) {
  nccl_impl *m = impl_of(c);
  char msg[DS_ERROR_MSG_LEN];
  snprintf(msg, sizeof msg, "NCCL rank %d of %d (GPU %d): %s %s", c->rank, c->size, m->device,
           what, why);
  if (!m->failed) {
    m->failed = 1;
    snprintf(m->fail_msg, sizeof m->fail_msg, "%s", msg);
  }
  nccl_abort_comm(m);
  return ds_error_set(err, st, "%s", msg);
}

static ds_status nccl_failed(ds_comm *c, ncclResult_t rc, const char *what, ds_error *err) {
  char why[DS_ERROR_MSG_LEN / 2];
  snprintf(why, sizeof why, "failed: %s (%s)", ncclGetErrorString(rc),
           ncclGetLastError(impl_of(c)->comm));
  return fail(c, DS_ERR_IO, err, what, why);
}

static ds_status cuda_failed(ds_comm *c, cudaError_t rc, const char *what, ds_error *err) {
  char why[256];
  snprintf(why, sizeof why, "failed: %s", cudaGetErrorString(rc));
  return fail(c, DS_ERR_DEVICE, err, what, why);
}

static void nap(long spins) {
  if (spins < SPINS_BEFORE_SLEEP) return;
  struct timespec ts = {0, POLL_SLEEP_NS};
  nanosleep(&ts, NULL);
}

/* Stage (1): until NCCL has queued what the last call started (rc: its return). */
static ds_status wait_queued(ds_comm *c, ncclResult_t rc, double deadline, const char *what,
                             ds_error *err) {
  nccl_impl *m = impl_of(c);
  for (long spins = 0;; spins++) {
    if (rc == ncclInProgress) ncclCommGetAsyncError(m->comm, &rc);
    if (rc == ncclSuccess) return DS_OK;
    if (rc != ncclInProgress) return nccl_failed(c, rc, what, err);
    if (ds_comm_now() > deadline) {
      char why[128];
      snprintf(why, sizeof why, "was not queued within %u ms: a rank did not answer", c->timeout_ms);
      return fail(c, DS_ERR_IO, err, what, why);
    }
    nap(spins);
  }
}

/* Stage (2): until the stream has run what is queued, watching NCCL's errors. */
static ds_status wait_stream(ds_comm *c, double deadline, const char *what, ds_error *err) {
  nccl_impl *m = impl_of(c);
  for (long spins = 0;; spins++) {
    cudaError_t q = cudaStreamQuery(m->stream);
    if (q == cudaSuccess) return DS_OK;
    if (q != cudaErrorNotReady) return cuda_failed(c, q, what, err);
    ncclResult_t rc = ncclSuccess;
    ncclCommGetAsyncError(m->comm, &rc);
    if (rc != ncclSuccess && rc != ncclInProgress) return nccl_failed(c, rc, what, err);
    if (ds_comm_now() > deadline) {
      char why[128];
      snprintf(why, sizeof why, "did not complete within %u ms: a rank did not answer",
               c->timeout_ms);
      return fail(c, DS_ERR_IO, err, what, why);
    }
    nap(spins);
  }
}

static double deadline_of(const ds_comm *c) { return ds_comm_now() + c->timeout_ms / 1e3; }

/* The entry of every call: the communicator has not failed, its device is current. */
static ds_status enter(ds_comm *c, ds_error *err) {
  nccl_impl *m = impl_of(c);
  if (m->failed) return ds_error_set(err, DS_ERR_IO, "%s", m->fail_msg);
  cudaError_t rc = cudaSetDevice(m->device);
  return rc == cudaSuccess ? DS_OK : cuda_failed(c, rc, "cudaSetDevice", err);
}

/* Room for `words` staged values on both sides. */
static ds_status stage_room(ds_comm *c, size_t words, ds_error *err) {
  nccl_impl *m = impl_of(c);
  if (words <= m->stage_words) return DS_OK;
  size_t want = m->stage_words ? m->stage_words : STAGE_WORDS_MIN;
  while (want < words) want *= 2;
  cudaFree(m->d_stage);
  cudaFreeHost(m->h_stage);
  m->d_stage = NULL, m->h_stage = NULL, m->stage_words = 0;
  cudaError_t rc = cudaMalloc((void **)&m->d_stage, want * sizeof(uint64_t));
  if (rc == cudaSuccess) rc = cudaMallocHost((void **)&m->h_stage, want * sizeof(uint64_t));
  if (rc != cudaSuccess) return cuda_failed(c, rc, "allocating the staging buffers", err);
  m->stage_words = want;
  return DS_OK;
}

/* ---- the calls ------------------------------------------------------------- */

/* Queues `words` host values into the staging buffer (at word 0). */
static ds_status stage_in(ds_comm *c, const void *in, size_t words, ds_error *err) {
  nccl_impl *m = impl_of(c);
  memcpy(m->h_stage, in, words * sizeof(uint64_t));
  cudaError_t rc = cudaMemcpyAsync(m->d_stage, m->h_stage, words * sizeof(uint64_t),
                                   cudaMemcpyHostToDevice, m->stream);
  return rc == cudaSuccess ? DS_OK : cuda_failed(c, rc, "staging values in", err);
}

/* Queues the copy back of `words` staged values (from word `at`), and waits. */
static ds_status stage_out(ds_comm *c, size_t at, size_t words, double deadline,
                           const char *what, ds_error *err) {
  nccl_impl *m = impl_of(c);
  cudaError_t rc = cudaMemcpyAsync(m->h_stage, m->d_stage + at, words * sizeof(uint64_t),
                                   cudaMemcpyDeviceToHost, m->stream);
  if (rc != cudaSuccess) return cuda_failed(c, rc, "staging values out", err);
  return wait_stream(c, deadline, what, err);
}

static ds_status nccl_alltoall_u64(ds_comm *c, const uint64_t *send, uint64_t *recv,
                                   ds_error *err) {
  nccl_impl *m = impl_of(c);
  const size_t r = (size_t)c->size;
  ds_status st = enter(c, err);
  if (st == DS_OK) st = stage_room(c, 2 * r, err);
  if (st == DS_OK) st = stage_in(c, send, r, err);
  if (st != DS_OK) return st;
  const double deadline = deadline_of(c);
  ncclResult_t rc = ncclGroupStart();
  for (size_t p = 0; p < r && rc == ncclSuccess; p++) {
    rc = ncclSend(m->d_stage + p, 1, ncclUint64, (int)p, m->comm, m->stream);
    if (rc == ncclSuccess || rc == ncclInProgress)
      rc = ncclRecv(m->d_stage + r + p, 1, ncclUint64, (int)p, m->comm, m->stream);
  }
  ncclResult_t end = ncclGroupEnd();
  if (rc == ncclSuccess || rc == ncclInProgress) rc = end;
  st = wait_queued(c, rc, deadline, "the all-to-all of counts", err);
  if (st == DS_OK) st = stage_out(c, r, r, deadline, "the all-to-all of counts", err);
  if (st == DS_OK) memcpy(recv, m->h_stage, r * sizeof *recv);
  return st;
}

/* The all-to-all of byte buffers queued on the rank's stream; returns once NCCL has queued it. */
static ds_status queue_alltoallv(ds_comm *c, const void *send, const uint64_t *send_bytes,
                                 const uint64_t *send_off, void *recv, const uint64_t *recv_bytes,
                                 const uint64_t *recv_off, double deadline, ds_error *err) {
  nccl_impl *m = impl_of(c);
  const int me = c->rank;
  // 1. this rank's part to itself: a device copy, queued before the group
  if (send_bytes[me] != recv_bytes[me]) {
    char why[160];
    snprintf(why, sizeof why, "sends itself %llu bytes but expects %llu",
             (unsigned long long)send_bytes[me], (unsigned long long)recv_bytes[me]);
    return fail(c, DS_ERR_ARG, err, "alltoallv", why);
  }
  if (send_bytes[me] > 0) {
    cudaError_t cr = cudaMemcpyAsync((char *)recv + recv_off[me], (const char *)send + send_off[me],
                                     (size_t)send_bytes[me], cudaMemcpyDeviceToDevice, m->stream);
    if (cr != cudaSuccess) return cuda_failed(c, cr, "the copy of a rank's part to itself", err);
  }
  // 2. one group of sends and receives to and from the others
  ncclResult_t rc = ncclGroupStart();
  for (int p = 0; p < c->size && (rc == ncclSuccess || rc == ncclInProgress); p++) {
    if (p == me) continue;
    if (send_bytes[p] > 0)
      rc = ncclSend((const char *)send + send_off[p], (size_t)send_bytes[p], ncclUint8, p, m->comm,
                    m->stream);
    if (recv_bytes[p] > 0 && (rc == ncclSuccess || rc == ncclInProgress))
      rc = ncclRecv((char *)recv + recv_off[p], (size_t)recv_bytes[p], ncclUint8, p, m->comm,
                    m->stream);
  }
  ncclResult_t end = ncclGroupEnd();
  if (rc == ncclSuccess || rc == ncclInProgress) rc = end;
  return wait_queued(c, rc, deadline, "the all-to-all of updates", err);
}

static ds_status nccl_alltoallv(ds_comm *c, const void *send, const uint64_t *send_bytes,
                                const uint64_t *send_off, void *recv, const uint64_t *recv_bytes,
                                const uint64_t *recv_off, ds_error *err) {
  ds_status st = enter(c, err);
  if (st != DS_OK) return st;
  const double deadline = deadline_of(c);
  st = queue_alltoallv(c, send, send_bytes, send_off, recv, recv_bytes, recv_off, deadline, err);
  return st == DS_OK ? wait_stream(c, deadline, "the all-to-all of updates", err) : st;
}

static ds_status nccl_allreduce(ds_comm *c, ds_comm_type type, ds_comm_op op, const void *in,
                                void *out, size_t count, ds_error *err) {
  nccl_impl *m = impl_of(c);
  const size_t r = (size_t)c->size;
  // a float sum: every rank's values, added in rank order (the same bits everywhere)
  const int gather = type == DS_COMM_F64 && op == DS_COMM_SUM;
  const size_t words = count == 0 ? 1 : count; /* count 0 still synchronises */
  ds_status st = enter(c, err);
  if (st == DS_OK) st = stage_room(c, gather ? words * (r + 1) : words, err);
  if (st != DS_OK) return st;
  const uint64_t zero = 0;
  st = stage_in(c, count == 0 ? &zero : in, words, err);
  if (st != DS_OK) return st;
  const double deadline = deadline_of(c);
  const ncclDataType_t t = type == DS_COMM_U64 ? ncclUint64 : ncclFloat64;
  ncclResult_t rc;
  if (gather)
    rc = ncclAllGather(m->d_stage, m->d_stage + words, words, t, m->comm, m->stream);
  else
    rc = ncclAllReduce(m->d_stage, m->d_stage, words, t,
                       op == DS_COMM_MIN ? ncclMin : op == DS_COMM_MAX ? ncclMax : ncclSum,
                       m->comm, m->stream);
  st = wait_queued(c, rc, deadline, "an all-reduce", err);
  if (st == DS_OK)
    st = stage_out(c, gather ? words : 0, gather ? words * r : words, deadline, "an all-reduce", err);
  if (st != DS_OK || count == 0) return st;
  if (gather) /* h_stage holds rank 0's values, then rank 1's, ... */
    for (size_t p = 1; p < r; p++) ds_comm_reduce_into(type, op, m->h_stage, m->h_stage + p * words, count);
  memcpy(out, m->h_stage, count * sizeof(uint64_t));
  return DS_OK;
}

static ds_status nccl_barrier(ds_comm *c, ds_error *err) {
  return nccl_allreduce(c, DS_COMM_U64, DS_COMM_MAX, NULL, NULL, 0, err);
}

static void nccl_abort(ds_comm *c, const char *why) {
  nccl_impl *m = impl_of(c);
  if (!m->failed) {
    m->failed = 1;
    snprintf(m->fail_msg, sizeof m->fail_msg, "rank %d aborted: %s", c->rank, why);
  }
  cudaSetDevice(m->device);
  nccl_abort_comm(m);
}

/* Frees what impl holds; a communicator that worked is finalised (its pending
 * work flushed, bounded by timeout_ms) before it is destroyed, else aborted. */
static void impl_free(nccl_impl *m, uint32_t timeout_ms) {
  if (m == NULL) return;
  cudaSetDevice(m->device);
  if (m->comm != NULL && !m->aborted) {
    ncclResult_t rc = m->failed ? ncclInternalError : ncclCommFinalize(m->comm);
    const double deadline = ds_comm_now() + timeout_ms / 1e3;
    for (long spins = 0; rc == ncclInProgress && ds_comm_now() < deadline; spins++) {
      nap(spins);
      ncclCommGetAsyncError(m->comm, &rc);
    }
    if (rc == ncclSuccess) ncclCommDestroy(m->comm);
    else ncclCommAbort(m->comm);
  }
  if (m->stream != NULL) cudaStreamDestroy(m->stream);
  cudaFree(m->d_stage);
  cudaFreeHost(m->h_stage);
  free(m);
}

static void nccl_destroy(ds_comm *c) { impl_free(impl_of(c), c->timeout_ms); }

static const ds_comm_ops NCCL_OPS = {
    "nccl", DS_COMM_DEVICE, nccl_alltoall_u64, nccl_alltoallv, nccl_allreduce, nccl_barrier,
    nccl_abort, nccl_destroy,
};

int ds_comm_nccl_device(const ds_comm *comm) {
  return comm != NULL && comm->ops == &NCCL_OPS ? ((const nccl_impl *)comm->impl)->device : -1;
}

/* ---- the queued calls: device values, no wait -------------------------------- */

void *ds_comm_nccl_stream(const ds_comm *comm) {
  return comm != NULL && comm->ops == &NCCL_OPS ? (void *)((const nccl_impl *)comm->impl)->stream
                                                : NULL;
}

ds_status ds_comm_nccl_queue_alltoall_u64(ds_comm *c, const uint64_t *d_send, uint64_t *d_recv,
                                          ds_error *err) {
  nccl_impl *m = impl_of(c);
  ds_status st = enter(c, err);
  if (st != DS_OK) return st;
  ncclResult_t rc = ncclGroupStart();
  for (int p = 0; p < c->size && rc == ncclSuccess; p++) {
    rc = ncclSend(d_send + p, 1, ncclUint64, p, m->comm, m->stream);
    if (rc == ncclSuccess || rc == ncclInProgress)
      rc = ncclRecv(d_recv + p, 1, ncclUint64, p, m->comm, m->stream);
  }
  ncclResult_t end = ncclGroupEnd();
  if (rc == ncclSuccess || rc == ncclInProgress) rc = end;
  c->stats.alltoall_calls++;
  return wait_queued(c, rc, deadline_of(c), "the all-to-all of counts", err);
}

ds_status ds_comm_nccl_queue_alltoallv(ds_comm *c, const void *d_send, const uint64_t *send_bytes,
                                       const uint64_t *send_off, void *d_recv,
                                       const uint64_t *recv_bytes, const uint64_t *recv_off,
                                       ds_error *err) {
  ds_status st = enter(c, err);
  if (st != DS_OK) return st;
  st = queue_alltoallv(c, d_send, send_bytes, send_off, d_recv, recv_bytes, recv_off,
                       deadline_of(c), err);
  c->stats.alltoallv_calls++;
  if (st == DS_OK)
    for (int p = 0; p < c->size; p++)
      if (p != c->rank) c->stats.bytes_sent += send_bytes[p], c->stats.bytes_received += recv_bytes[p];
  return st;
}

ds_status ds_comm_nccl_queue_min_u64(ds_comm *c, uint64_t *d_values, size_t count, ds_error *err) {
  nccl_impl *m = impl_of(c);
  ds_status st = enter(c, err);
  if (st != DS_OK) return st;
  ncclResult_t rc = ncclAllReduce(d_values, d_values, count, ncclUint64, ncclMin, m->comm, m->stream);
  c->stats.allreduce_calls++;
  return wait_queued(c, rc, deadline_of(c), "an all-reduce", err);
}

ds_status ds_comm_nccl_wait(ds_comm *c, const char *what, ds_error *err) {
  double t0 = ds_comm_now();
  ds_status st = enter(c, err);
  if (st == DS_OK) st = wait_stream(c, deadline_of(c), what, err);
  c->stats.wait_ms += 1e3 * (ds_comm_now() - t0);
  return st;
}

/* ---- joining --------------------------------------------------------------- */

/* Step 1 of ds_comm_nccl_create on this rank: the checks and the local state. */
static ds_status prepare(int rank, int device, nccl_impl **out, ds_error *err) {
  ds_status st = ds_nccl_check_version(NULL, NULL, err);
  if (st == DS_OK) st = ds_nccl_nvls_off(err);
  if (st != DS_OK) return st;
  int count = 0;
  cudaError_t rc = cudaGetDeviceCount(&count);
  if (rc != cudaSuccess)
    return ds_error_set(err, DS_ERR_DEVICE, "rank %d: no usable GPU: %s", rank,
                        cudaGetErrorString(rc));
  if (device < 0 || device >= count)
    return ds_error_set(err, DS_ERR_DEVICE, "rank %d: GPU %d does not exist: this process sees "
                        "%d GPU%s", rank, device, count, count == 1 ? "" : "s");
  nccl_impl *m = calloc(1, sizeof *m);
  if (m == NULL) return ds_error_set(err, DS_ERR_NOMEM, "rank %d: out of memory", rank);
  m->device = device;
  rc = cudaSetDevice(device);
  if (rc == cudaSuccess) rc = cudaStreamCreateWithFlags(&m->stream, cudaStreamNonBlocking);
  if (rc == cudaSuccess) rc = cudaMalloc((void **)&m->d_stage, STAGE_WORDS_MIN * sizeof(uint64_t));
  if (rc == cudaSuccess) rc = cudaMallocHost((void **)&m->h_stage, STAGE_WORDS_MIN * sizeof(uint64_t));
  if (rc != cudaSuccess) {
    impl_free(m, 0);
    return ds_error_set(err, DS_ERR_DEVICE, "rank %d: setting up GPU %d failed: %s", rank, device,
                        cudaGetErrorString(rc));
  }
  m->stage_words = STAGE_WORDS_MIN;
  *out = m;
  return DS_OK;
}

/* Step 2: ncclCommInitRankConfig, non-blocking, polled within timeout_ms. */
static ds_status join(nccl_impl *m, const ds_comm_id *id, int rank, int size, uint32_t timeout_ms,
                      ds_error *err) {
  ncclConfig_t cfg = NCCL_CONFIG_INITIALIZER;
  cfg.blocking = 0;
  ncclUniqueId uid;
  memcpy(&uid, id->bytes, sizeof uid);
  ncclResult_t rc = ncclCommInitRankConfig(&m->comm, size, uid, rank, &cfg);
  const double deadline = ds_comm_now() + timeout_ms / 1e3;
  for (long spins = 0; rc == ncclInProgress; spins++) {
    if (ds_comm_now() > deadline) {
      nccl_abort_comm(m);
      return ds_error_set(err, DS_ERR_IO, "rank %d of %d (GPU %d): ncclCommInitRankConfig did "
                          "not complete within %u ms: a rank did not join", rank, size, m->device,
                          timeout_ms);
    }
    nap(spins);
    ncclCommGetAsyncError(m->comm, &rc);
  }
  if (rc != ncclSuccess) {
    ds_status st = ds_error_set(err, DS_ERR_IO, "rank %d of %d (GPU %d): ncclCommInitRankConfig "
                                "failed: %s (%s)", rank, size, m->device, ncclGetErrorString(rc),
                                ncclGetLastError(m->comm));
    nccl_abort_comm(m);
    return st;
  }
  return DS_OK;
}

ds_status ds_comm_nccl_create(ds_comm *host, const ds_comm_id *id, int device,
                              const ds_comm_options *opt, ds_comm **out, ds_error *err) {
  if (out == NULL || host == NULL || id == NULL)
    return ds_error_set(err, DS_ERR_ARG, "ds_comm_nccl_create: host, id and out must not be NULL");
  *out = NULL;
  ds_comm_options defaults;
  if (opt == NULL) {
    ds_comm_options_default(&defaults);
    opt = &defaults;
  }
  const int rank = ds_comm_rank(host), size = ds_comm_size(host);
  // 1. the checks and the local state, agreed
  nccl_impl *m = NULL;
  ds_status local = opt->timeout_ms == 0
                        ? ds_error_set(err, DS_ERR_ARG, "communicator timeout 0 ms: it must be at "
                                       "least 1 ms")
                        : prepare(rank, device, &m, err);
  ds_status st = ds_comm_agree(host, local, err);
  // 2. join, agreed
  if (st == DS_OK) st = ds_comm_agree(host, join(m, id, rank, size, opt->timeout_ms, err), err);
  ds_comm *c = NULL;
  if (st == DS_OK) {
    c = ds_comm_new(&NCCL_OPS, rank, size, opt, m);
    st = ds_comm_agree(host, c ? DS_OK : ds_error_set(err, DS_ERR_NOMEM, "rank %d: out of "
                                                      "memory", rank), err);
  }
  if (st != DS_OK) {
    if (m != NULL && m->comm != NULL) nccl_abort_comm(m); /* another rank failed: don't wait */
    impl_free(m, opt->timeout_ms);
    free(c);
    return st;
  }
  *out = c;
  return DS_OK;
}

/* ---- one process, N GPUs --------------------------------------------------- */

typedef struct {
  const int *devices;
  const ds_comm_options *opt;
  ds_comm_id id;
  ds_comm_gpu_rank_fn fn;
  void *arg;
} group_job;

static ds_status gpu_rank(ds_comm *host, void *p, ds_error *err) {
  group_job *j = p;
  const int r = ds_comm_rank(host);
  ds_comm *dev = NULL;
  ds_status st = ds_comm_nccl_create(host, &j->id, j->devices && j->devices[r] >= 0 ? j->devices[r]
                                                                                   : r,
                                     j->opt, &dev, err);
  if (st != DS_OK) return st;
  st = j->fn(host, dev, j->arg, err);
  ds_comm_destroy(dev);
  return st;
}

ds_status ds_comm_nccl_run(int gpus, const int *devices, const ds_comm_options *opt,
                           ds_comm_gpu_rank_fn fn, void *arg, ds_status *rank_status,
                           ds_error *rank_err, ds_error *err) {
  if (fn == NULL || rank_status == NULL)
    return ds_error_set(err, DS_ERR_ARG, "ds_comm_nccl_run: fn and rank_status must not be NULL");
  int count = 0;
  cudaError_t rc = cudaGetDeviceCount(&count);
  if (rc != cudaSuccess) count = 0;
  if (gpus < 1 || gpus > count)
    return ds_error_set(err, DS_ERR_ARG, "%d GPU%s asked for, but this process sees %d%s%s", gpus,
                        gpus == 1 ? "" : "s", count, rc != cudaSuccess ? ": " : "",
                        rc != cudaSuccess ? cudaGetErrorString(rc) : "");
  group_job j = {devices, opt, {{0}}, fn, arg};
  ds_status st = ds_comm_nccl_id_make(NULL, &j.id, err);
  if (st != DS_OK) return st;
  return ds_comm_inproc_run(gpus, opt, gpu_rank, &j, rank_status, rank_err, err);
}

/* ---- one process a GPU, under mpirun ---------------------------------------- */

#ifdef DS_HAVE_MPI
#include "dist/comm_mpi.h"

/* The rank among this machine's processes, from the launcher's environment
 * (Open MPI, MPICH, Slurm): a collective (MPI_Comm_split_type) would wait
 * without bound for a rank that never comes. -1 where none says. */
static int local_rank(void) {
  static const char *const VARS[] = {"OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID",
                                     "MV2_COMM_WORLD_LOCAL_RANK", "SLURM_LOCALID"};
  for (size_t i = 0; i < sizeof VARS / sizeof *VARS; i++) {
    const char *v = getenv(VARS[i]);
    if (v != NULL && *v != '\0') return atoi(v);
  }
  return -1;
}

ds_status ds_comm_nccl_mpi_run(MPI_Comm world, const int *devices, const ds_comm_options *opt,
                               ds_comm_gpu_rank_fn fn, void *arg, ds_error *err) {
  if (fn == NULL) return ds_error_set(err, DS_ERR_ARG, "ds_comm_nccl_mpi_run: fn is NULL");
  ds_comm_options defaults;
  if (opt == NULL) {
    ds_comm_options_default(&defaults);
    opt = &defaults;
  }
  // 1. the host communicator, and NCCL's id from rank 0 over it
  ds_comm *host = NULL, *dev = NULL;
  ds_status st = ds_comm_mpi_create(world, opt, &host, err);
  if (st != DS_OK) return st;
  ds_comm_id id;
  st = ds_comm_mpi_bootstrap(world, opt->timeout_ms, ds_comm_nccl_id_make, NULL, &id, err);
  // 2. this process's GPU: the one asked for, else its rank on this machine
  if (st == DS_OK) {
    const int r = ds_comm_rank(host), lr = local_rank();
    int device = devices != NULL && devices[r] >= 0 ? devices[r] : lr;
    if (device < 0) { /* no launcher says: ranks in turn over the GPUs this process sees */
      int count = 0;
      device = cudaGetDeviceCount(&count) == cudaSuccess && count > 0 ? r % count : 0;
    }
    st = ds_comm_nccl_create(host, &id, device, opt, &dev, err);
  }
  // 3. the rank's work
  if (st == DS_OK) st = fn(host, dev, arg, err);
  ds_comm_destroy(dev);
  ds_comm_destroy(host);
  return st;
}
#endif
