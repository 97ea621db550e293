/* The backend-independent part of ds_comm: argument checks, statistics and
 * timing around the backend's calls, the agreement of a local outcome, and
 * the host exchange (counts, then payload).
 *
 * A rank whose call fails here, before the backend, aborts the communicator:
 * the other ranks are already inside the collective (or will be), and would
 * otherwise learn of the failure only from their timeout.
 */
#define _POSIX_C_SOURCE 200809L
#include "dist/comm_backend.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef _OPENMP
#include <omp.h>
#endif

double ds_comm_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void ds_comm_options_default(ds_comm_options *opt) {
  if (opt != NULL) opt->timeout_ms = DS_COMM_TIMEOUT_MS_DEFAULT;
}

ds_comm *ds_comm_new(const ds_comm_ops *ops, int rank, int size, const ds_comm_options *opt,
                     void *impl) {
  ds_comm *c = calloc(1, sizeof *c);
  if (c == NULL) return NULL;
  ds_comm_options defaults;
  if (opt == NULL) {
    ds_comm_options_default(&defaults);
    opt = &defaults;
  }
  c->ops = ops;
  c->rank = rank;
  c->size = size;
  c->timeout_ms = opt->timeout_ms;
  c->impl = impl;
  return c;
}

int ds_comm_rank(const ds_comm *comm) { return comm ? comm->rank : -1; }
int ds_comm_size(const ds_comm *comm) { return comm ? comm->size : 0; }
const char *ds_comm_backend_name(const ds_comm *comm) { return comm ? comm->ops->name : "none"; }

int ds_comm_threads(const ds_comm *comm) {
#ifdef _OPENMP
  int threads = omp_get_max_threads();
  if (comm != NULL && strcmp(comm->ops->name, "in-process") == 0) threads /= comm->size;
  return threads > 1 ? threads : 1;
#else
  (void)comm;
  return 1;
#endif
}
ds_comm_memory ds_comm_memory_kind(const ds_comm *comm) {
  return comm ? comm->ops->memory : DS_COMM_HOST;
}

void ds_comm_stats_get(const ds_comm *comm, ds_comm_stats *stats) {
  if (stats == NULL) return;
  if (comm == NULL) memset(stats, 0, sizeof *stats);
  else *stats = comm->stats;
}

void ds_comm_abort(ds_comm *comm, const char *why) {
  if (comm != NULL) comm->ops->abort(comm, why ? why : "no reason given");
}

void ds_comm_destroy(ds_comm *comm) {
  if (comm == NULL) return;
  comm->ops->destroy(comm);
  free(comm);
}

/* An argument error of this rank: it fails the communicator (see above). */
static ds_status refuse(ds_comm *comm, ds_error *err, ds_status st) {
  ds_comm_abort(comm, err ? err->msg : "a bad argument");
  return st;
}

#define NULL_COMM_ERROR(err, what) ds_error_set(err, DS_ERR_ARG, "%s: the communicator is NULL", what)

ds_status ds_comm_alltoall_u64(ds_comm *comm, const uint64_t *send, uint64_t *recv,
                               ds_error *err) {
  if (comm == NULL) return NULL_COMM_ERROR(err, "ds_comm_alltoall_u64");
  if (send == NULL || recv == NULL)
    return refuse(comm, err, ds_error_set(err, DS_ERR_ARG, "ds_comm_alltoall_u64 on rank %d: "
                                          "send and recv must not be NULL", comm->rank));
  double t0 = ds_comm_now();
  ds_status st = comm->ops->alltoall_u64(comm, send, recv, err);
  comm->stats.alltoall_calls++;
  comm->stats.wait_ms += 1e3 * (ds_comm_now() - t0);
  return st;
}

ds_status ds_comm_alltoallv(ds_comm *comm, const void *send, const uint64_t *send_bytes,
                            const uint64_t *send_off, void *recv, const uint64_t *recv_bytes,
                            const uint64_t *recv_off, ds_error *err) {
  if (comm == NULL) return NULL_COMM_ERROR(err, "ds_comm_alltoallv");
  if (send_bytes == NULL || send_off == NULL || recv_bytes == NULL || recv_off == NULL)
    return refuse(comm, err, ds_error_set(err, DS_ERR_ARG, "ds_comm_alltoallv on rank %d: the "
                                          "count and offset arrays must not be NULL", comm->rank));
  uint64_t out = 0, in = 0;
  for (int p = 0; p < comm->size; p++) {
    if ((send_bytes[p] > 0 && send == NULL) || (recv_bytes[p] > 0 && recv == NULL))
      return refuse(comm, err, ds_error_set(err, DS_ERR_ARG, "ds_comm_alltoallv on rank %d: %s "
                                            "is NULL but rank %d's count is not 0", comm->rank,
                                            send_bytes[p] > 0 ? "send" : "recv", p));
    if (p != comm->rank) {
      out += send_bytes[p];
      in += recv_bytes[p];
    }
  }
  double t0 = ds_comm_now();
  ds_status st = comm->ops->alltoallv(comm, send, send_bytes, send_off, recv, recv_bytes,
                                      recv_off, err);
  comm->stats.alltoallv_calls++;
  comm->stats.wait_ms += 1e3 * (ds_comm_now() - t0);
  if (st == DS_OK) {
    comm->stats.bytes_sent += out;
    comm->stats.bytes_received += in;
  }
  return st;
}

ds_status ds_comm_allreduce(ds_comm *comm, ds_comm_type type, ds_comm_op op, const void *in,
                            void *out, size_t count, ds_error *err) {
  if (comm == NULL) return NULL_COMM_ERROR(err, "ds_comm_allreduce");
  if (type != DS_COMM_U64 && type != DS_COMM_F64)
    return refuse(comm, err, ds_error_set(err, DS_ERR_ARG, "ds_comm_allreduce on rank %d: "
                                          "unknown type %d", comm->rank, (int)type));
  if (op != DS_COMM_MIN && op != DS_COMM_MAX && op != DS_COMM_SUM)
    return refuse(comm, err, ds_error_set(err, DS_ERR_ARG, "ds_comm_allreduce on rank %d: "
                                          "unknown operation %d", comm->rank, (int)op));
  if (count > 0 && (in == NULL || out == NULL))
    return refuse(comm, err, ds_error_set(err, DS_ERR_ARG, "ds_comm_allreduce on rank %d: in "
                                          "and out must not be NULL", comm->rank));
  double t0 = ds_comm_now();
  ds_status st = comm->ops->allreduce(comm, type, op, in, out, count, err);
  comm->stats.allreduce_calls++;
  comm->stats.wait_ms += 1e3 * (ds_comm_now() - t0);
  return st;
}

ds_status ds_comm_barrier(ds_comm *comm, ds_error *err) {
  if (comm == NULL) return NULL_COMM_ERROR(err, "ds_comm_barrier");
  double t0 = ds_comm_now();
  ds_status st = comm->ops->barrier(comm, err);
  comm->stats.barrier_calls++;
  comm->stats.wait_ms += 1e3 * (ds_comm_now() - t0);
  return st;
}

void ds_comm_reduce_into(ds_comm_type type, ds_comm_op op, void *acc, const void *x,
                         size_t count) {
  if (type == DS_COMM_U64) {
    uint64_t *a = acc;
    const uint64_t *b = x;
    for (size_t i = 0; i < count; i++)
      a[i] = op == DS_COMM_SUM ? a[i] + b[i]
             : op == DS_COMM_MIN ? (b[i] < a[i] ? b[i] : a[i])
                                 : (b[i] > a[i] ? b[i] : a[i]);
  } else {
    double *a = acc;
    const double *b = x;
    for (size_t i = 0; i < count; i++)
      a[i] = op == DS_COMM_SUM ? a[i] + b[i]
             : op == DS_COMM_MIN ? (b[i] < a[i] ? b[i] : a[i])
                                 : (b[i] > a[i] ? b[i] : a[i]);
  }
}

/* The failing rank's outcome in 64-bit words, so that an all-reduce (MAX over
 * words that only that rank fills) carries it on any backend. */
#define AGREE_WORDS (2 + DS_ERROR_MSG_LEN / sizeof(uint64_t))

ds_status ds_comm_agree_detail(ds_comm *comm, ds_status local, uint64_t *detail, ds_error *err) {
  if (comm == NULL) return NULL_COMM_ERROR(err, "ds_comm_agree");
  // 1. the least failing rank (size where none failed)
  uint64_t mine = local == DS_OK ? (uint64_t)comm->size : (uint64_t)comm->rank, least = 0;
  ds_error terr;
  ds_status st = ds_comm_allreduce(comm, DS_COMM_U64, DS_COMM_MIN, &mine, &least, 1, &terr);
  if (st != DS_OK) {
    if (err != NULL) *err = terr;
    return st;
  }
  if (least == (uint64_t)comm->size) return DS_OK;

  // 2. its status, detail and message to every rank
  uint64_t words[AGREE_WORDS];
  memset(words, 0, sizeof words);
  if (least == (uint64_t)comm->rank) {
    words[0] = (uint64_t)local;
    words[1] = detail ? *detail : 0;
    if (err != NULL) memcpy(&words[2], err->msg, DS_ERROR_MSG_LEN);
    else strcpy((char *)&words[2], "(no message)");
  }
  st = ds_comm_allreduce(comm, DS_COMM_U64, DS_COMM_MAX, words, words, AGREE_WORDS, &terr);
  if (st != DS_OK) {
    if (err != NULL) *err = terr;
    return st;
  }
  if (least == (uint64_t)comm->rank) return local;
  char msg[DS_ERROR_MSG_LEN];
  memcpy(msg, &words[2], DS_ERROR_MSG_LEN);
  msg[DS_ERROR_MSG_LEN - 1] = '\0';
  if (detail != NULL) *detail = words[1];
  ds_status theirs = words[0] != DS_OK ? (ds_status)words[0] : DS_ERR_IO;
  return ds_error_set(err, theirs, "rank %d: %s", (int)least, msg);
}

ds_status ds_comm_agree(ds_comm *comm, ds_status local, ds_error *err) {
  return ds_comm_agree_detail(comm, local, NULL, err);
}

ds_status ds_comm_exchange(ds_comm *comm, const void *send, const uint64_t *send_bytes,
                           void **recv, size_t *recv_capacity, uint64_t *recv_bytes,
                           ds_error *err) {
  if (comm == NULL) return NULL_COMM_ERROR(err, "ds_comm_exchange");
  if (comm->ops->memory != DS_COMM_HOST)
    return ds_error_set(err, DS_ERR_ARG, "ds_comm_exchange: the %s backend's buffers are not in "
                        "host memory", comm->ops->name);
  if (send_bytes == NULL || recv == NULL || recv_capacity == NULL)
    return refuse(comm, err, ds_error_set(err, DS_ERR_ARG, "ds_comm_exchange on rank %d: "
                                          "send_bytes, recv and recv_capacity must not be NULL",
                                          comm->rank));
  const int r = comm->size;
  ds_status st = DS_OK;
  // 1. offsets of what goes out, and the counts of what comes in
  uint64_t *a = malloc(3 * (size_t)r * sizeof *a);
  if (a == NULL) {
    st = ds_error_set(err, DS_ERR_NOMEM, "ds_comm_exchange on rank %d: out of memory for %d "
                      "counts", comm->rank, 3 * r);
    return refuse(comm, err, st);
  }
  uint64_t *send_off = a, *in = a + r, *in_off = a + 2 * r;
  uint64_t total = 0;
  for (int p = 0; p < r; p++) {
    send_off[p] = total;
    total += send_bytes[p];
  }
  st = ds_comm_alltoall_u64(comm, send_bytes, in, err);
  if (st != DS_OK) goto done;

  // 2. room for it
  total = 0;
  for (int p = 0; p < r; p++) {
    in_off[p] = total;
    total += in[p];
  }
  if (total > *recv_capacity || *recv == NULL) {
    size_t want = total > 0 ? (size_t)total : 1;
    void *grown = realloc(*recv, want);
    if (grown == NULL) {
      st = ds_error_set(err, DS_ERR_NOMEM, "ds_comm_exchange on rank %d: out of memory for %llu "
                        "bytes arriving", comm->rank, (unsigned long long)total);
      ds_comm_abort(comm, err ? err->msg : "out of memory");
      goto done;
    }
    *recv = grown;
    *recv_capacity = want;
  }

  // 3. the payload
  st = ds_comm_alltoallv(comm, send, send_bytes, send_off, *recv, in, in_off, err);
  if (st == DS_OK && recv_bytes != NULL) memcpy(recv_bytes, in, (size_t)r * sizeof *in);
done:
  free(a);
  return st;
}
