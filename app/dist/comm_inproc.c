/* The in-process backend of ds_comm: R ranks as R threads of one process.
 *
 * The ranks share a mailbox: a slot per rank where it publishes its part of
 * the current collective (which one, and pointers to its buffers), and a
 * barrier with a generation count. A collective is
 *   1. publish the slot; wait until every rank has published (barrier A);
 *   2. check that all the slots name the same collective with matching sizes,
 *      then read what this rank needs straight from the others' buffers;
 *   3. wait until every rank has read (barrier B), so that no buffer is
 *      reused while another rank still reads it.
 * This is what one process that drives all the GPUs of a machine does with
 * NCCL: no copies through the mailbox, one pass over each payload.
 *
 * Bounded waits: barrier A gives up after the timeout, names the ranks that
 * did not arrive, and marks the group failed; every rank waiting wakes with
 * that message and every later call fails at once. Barrier B waits even in a
 * failed group (every rank passed barrier A, so each of them is alive and
 * on its way there); otherwise a rank that found a mismatch could return and
 * free a buffer that another rank is still reading.
 */
#define _POSIX_C_SOURCE 200809L
#include "dist/comm_backend.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define COPY_PIECE ((uint64_t)1 << 20)        /* 1 MB: what one thread copies at a time */
#define COPY_PARALLEL_MIN ((uint64_t)1 << 21) /* below 2 MB one thread copies (a search's rounds
                                                 exchange little: no team for them) */

typedef enum { OP_ALLTOALL_U64 = 0, OP_ALLTOALLV, OP_ALLREDUCE, OP_BARRIER } op_kind;
static const char *const OP_NAMES[] = {"alltoall_u64", "alltoallv", "allreduce", "barrier"};

#define REDUCE_STACK_WORDS 256 /* all-reduces up to this count need no heap scratch */

typedef struct {
  op_kind op;
  const void *send; /* alltoall: send; allreduce: in */
  const uint64_t *send_bytes, *send_off;
  ds_comm_type type;
  ds_comm_op rop;
  size_t count;
} slot;

typedef struct {
  pthread_mutex_t lock;
  pthread_cond_t cond;
  int size, refs, arrived;
  uint64_t generation;
  uint64_t *arrivals; /* barrier arrivals of each rank, to name the missing ones */
  int failed;
  char fail_msg[DS_ERROR_MSG_LEN];
  slot *slots;
} mailbox;

static mailbox *box_of(ds_comm *c) { return (mailbox *)c->impl; }

/* Marks the group failed (the first reason stays) and wakes every waiter.
 * The caller holds the lock. */
static void fail_locked(mailbox *b, const char *msg) {
  if (!b->failed) {
    b->failed = 1;
    snprintf(b->fail_msg, sizeof b->fail_msg, "%s", msg);
  }
  pthread_cond_broadcast(&b->cond);
}

static ds_status failed_error(mailbox *b, ds_error *err) {
  return ds_error_set(err, DS_ERR_IO, "%s", b->fail_msg);
}

/* The ranks that have arrived fewer than `mine` times, as "2, 5". */
static void missing_ranks(const mailbox *b, uint64_t mine, char *out, size_t len) {
  size_t used = 0;
  out[0] = '\0';
  for (int p = 0; p < b->size && used + 16 < len; p++)
    if (b->arrivals[p] < mine)
      used += (size_t)snprintf(out + used, len - used, "%s%d", used ? ", " : "", p);
}

/* The barrier. through_failure: wait for every rank even in a failed group
 * (barrier B). Returns DS_ERR_IO when the group failed before or during it. */
static ds_status wait_all(ds_comm *c, op_kind op, int through_failure, ds_error *err) {
  mailbox *b = box_of(c);
  pthread_mutex_lock(&b->lock);
  if (b->failed && !through_failure) {
    ds_status st = failed_error(b, err);
    pthread_mutex_unlock(&b->lock);
    return st;
  }
  const uint64_t mine = ++b->arrivals[c->rank];
  const uint64_t gen = b->generation;
  if (++b->arrived == b->size) {
    b->arrived = 0;
    b->generation++;
    pthread_cond_broadcast(&b->cond);
  } else {
    struct timespec deadline;
    clock_gettime(CLOCK_MONOTONIC, &deadline);
    deadline.tv_sec += c->timeout_ms / 1000;
    deadline.tv_nsec += (long)(c->timeout_ms % 1000) * 1000000L;
    if (deadline.tv_nsec >= 1000000000L) {
      deadline.tv_sec++;
      deadline.tv_nsec -= 1000000000L;
    }
    while (b->generation == gen && (through_failure || !b->failed)) {
      int rc = pthread_cond_timedwait(&b->cond, &b->lock, &deadline);
      if (rc == ETIMEDOUT && b->generation == gen) {
        char who[256], msg[DS_ERROR_MSG_LEN];
        missing_ranks(b, mine, who, sizeof who);
        snprintf(msg, sizeof msg, "in-process group of %d ranks: rank %s did not reach %s "
                 "(collective %llu of rank %d) within %u ms", b->size, who, OP_NAMES[op],
                 (unsigned long long)(mine + 1) / 2, c->rank, c->timeout_ms);
        fail_locked(b, msg);
        break;
      }
    }
  }
  ds_status st = DS_OK;
  if (b->failed && (b->generation == gen || through_failure)) st = failed_error(b, err);
  pthread_mutex_unlock(&b->lock);
  return st;
}

/* Step 1: publish this rank's slot and wait for the others'. */
static ds_status publish(ds_comm *c, const slot *s, ds_error *err) {
  mailbox *b = box_of(c);
  b->slots[c->rank] = *s; /* read by others only after barrier A, which orders it */
  return wait_all(c, s->op, 0, err);
}

/* Step 2's check: every slot names this collective, with these reduction
 * arguments. Fails the group (and returns 0) otherwise. */
static int same_collective(ds_comm *c, const slot *s) {
  mailbox *b = box_of(c);
  for (int p = 0; p < b->size; p++) {
    const slot *o = &b->slots[p];
    const char *what = NULL;
    if (o->op != s->op) what = OP_NAMES[o->op];
    else if (s->op == OP_ALLREDUCE && (o->type != s->type || o->rop != s->rop || o->count != s->count))
      what = "an all-reduce of another type, operation or count";
    if (what == NULL) continue;
    char msg[DS_ERROR_MSG_LEN];
    snprintf(msg, sizeof msg, "in-process group: rank %d called %s while rank %d called %s "
             "(%zu values)", c->rank, OP_NAMES[s->op], p, what, s->count);
    pthread_mutex_lock(&b->lock);
    fail_locked(b, msg);
    pthread_mutex_unlock(&b->lock);
    return 0;
  }
  return 1;
}

static void fail_group(ds_comm *c, const char *msg) {
  mailbox *b = box_of(c);
  pthread_mutex_lock(&b->lock);
  fail_locked(b, msg);
  pthread_mutex_unlock(&b->lock);
}

static ds_status inproc_alltoall_u64(ds_comm *c, const uint64_t *send, uint64_t *recv,
                                     ds_error *err) {
  mailbox *b = box_of(c);
  slot s = {OP_ALLTOALL_U64, send, NULL, NULL, DS_COMM_U64, DS_COMM_MIN, 0};
  ds_status st = publish(c, &s, err);
  if (st != DS_OK) return st;
  if (same_collective(c, &s))
    for (int p = 0; p < b->size; p++) recv[p] = ((const uint64_t *)b->slots[p].send)[c->rank];
  return wait_all(c, s.op, 1, err);
}

/* What every rank sent this one into recv: in pieces of COPY_PIECE bytes over the rank's
 * threads where the exchange is large (a build's arcs: gigabytes a rank, whose copy and first
 * touch of fresh pages one thread makes slow), else block by block. */
static void copy_blocks(ds_comm *c, void *recv, const uint64_t *recv_bytes, const uint64_t *recv_off) {
  const mailbox *b = box_of(c);
  uint64_t total = 0, pieces = 0;
  for (int p = 0; p < b->size; p++) total += recv_bytes[p], pieces += (recv_bytes[p] + COPY_PIECE - 1) / COPY_PIECE;
  const int threads = total >= COPY_PARALLEL_MIN ? ds_comm_threads(c) : 1;
  if (threads == 1) {
    for (int p = 0; p < b->size; p++)
      if (recv_bytes[p] > 0)
        memcpy((char *)recv + recv_off[p], (const char *)b->slots[p].send + b->slots[p].send_off[c->rank],
               (size_t)recv_bytes[p]);
    return;
  }
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1)
  for (uint64_t k = 0; k < pieces; k++) {
    int p = 0; /* the block of piece k: blocks in rank order, each in whole pieces */
    uint64_t first = 0;
    for (;; p++) {
      const uint64_t n = (recv_bytes[p] + COPY_PIECE - 1) / COPY_PIECE;
      if (k < first + n) break;
      first += n;
    }
    const uint64_t at = (k - first) * COPY_PIECE;
    const uint64_t len = recv_bytes[p] - at < COPY_PIECE ? recv_bytes[p] - at : COPY_PIECE;
    memcpy((char *)recv + recv_off[p] + at,
           (const char *)b->slots[p].send + b->slots[p].send_off[c->rank] + at, (size_t)len);
  }
}

static ds_status inproc_alltoallv(ds_comm *c, const void *send, const uint64_t *send_bytes,
                                  const uint64_t *send_off, void *recv,
                                  const uint64_t *recv_bytes, const uint64_t *recv_off,
                                  ds_error *err) {
  mailbox *b = box_of(c);
  slot s = {OP_ALLTOALLV, send, send_bytes, send_off, DS_COMM_U64, DS_COMM_MIN, 0};
  ds_status st = publish(c, &s, err);
  if (st != DS_OK) return st;
  if (same_collective(c, &s)) {
    // every size first: a rank that copies nothing on a mismatch copies nothing at all
    for (int p = 0; p < b->size; p++) {
      const uint64_t theirs = b->slots[p].send_bytes[c->rank];
      if (theirs != recv_bytes[p]) {
        char msg[DS_ERROR_MSG_LEN];
        snprintf(msg, sizeof msg, "in-process alltoallv: rank %d sends rank %d %llu bytes, "
                 "but rank %d expects %llu", p, c->rank, (unsigned long long)theirs, c->rank,
                 (unsigned long long)recv_bytes[p]);
        fail_group(c, msg);
        return wait_all(c, s.op, 1, err);
      }
    }
    copy_blocks(c, recv, recv_bytes, recv_off);
  }
  return wait_all(c, s.op, 1, err);
}

static ds_status inproc_allreduce(ds_comm *c, ds_comm_type type, ds_comm_op op, const void *in,
                                  void *out, size_t count, ds_error *err) {
  mailbox *b = box_of(c);
  uint64_t stack[REDUCE_STACK_WORDS];
  void *acc = count <= REDUCE_STACK_WORDS ? (void *)stack : malloc(count * sizeof(uint64_t));
  if (acc == NULL) {
    char msg[DS_ERROR_MSG_LEN];
    snprintf(msg, sizeof msg, "in-process allreduce: rank %d is out of memory for %zu values",
             c->rank, count);
    fail_group(c, msg);
    return ds_error_set(err, DS_ERR_NOMEM, "%s", msg);
  }
  slot s = {OP_ALLREDUCE, in, NULL, NULL, type, op, count};
  ds_status st = publish(c, &s, err);
  if (st == DS_OK) {
    const int ok = same_collective(c, &s);
    if (ok && count > 0) { /* in rank order, so every rank gets the same bits */
      memcpy(acc, b->slots[0].send, count * sizeof(uint64_t));
      for (int p = 1; p < b->size; p++) ds_comm_reduce_into(type, op, acc, b->slots[p].send, count);
    }
    st = wait_all(c, s.op, 1, err); /* out may be in: written after everyone has read */
    if (st == DS_OK && count > 0) memcpy(out, acc, count * sizeof(uint64_t));
  }
  if (acc != stack) free(acc);
  return st;
}

static ds_status inproc_barrier(ds_comm *c, ds_error *err) {
  slot s = {OP_BARRIER, NULL, NULL, NULL, DS_COMM_U64, DS_COMM_MIN, 0};
  ds_status st = publish(c, &s, err);
  if (st != DS_OK) return st;
  same_collective(c, &s);
  return wait_all(c, s.op, 1, err);
}

static void inproc_abort(ds_comm *c, const char *why) {
  char msg[DS_ERROR_MSG_LEN];
  snprintf(msg, sizeof msg, "rank %d aborted: %s", c->rank, why);
  fail_group(c, msg);
}

static void box_release(mailbox *b) {
  pthread_mutex_lock(&b->lock);
  int last = --b->refs == 0;
  pthread_mutex_unlock(&b->lock);
  if (!last) return;
  pthread_mutex_destroy(&b->lock);
  pthread_cond_destroy(&b->cond);
  free(b->arrivals);
  free(b->slots);
  free(b);
}

static void inproc_destroy(ds_comm *c) { box_release(box_of(c)); }

static const ds_comm_ops INPROC_OPS = {
    "in-process",        DS_COMM_HOST,  inproc_alltoall_u64, inproc_alltoallv,
    inproc_allreduce,    inproc_barrier, inproc_abort,       inproc_destroy,
};

ds_status ds_comm_inproc_create(int size, const ds_comm_options *opt, ds_comm **comms,
                                ds_error *err) {
  // 1. check arguments
  if (comms == NULL) return ds_error_set(err, DS_ERR_ARG, "ds_comm_inproc_create: comms is NULL");
  if (size < 1 || size > DS_COMM_MAX_RANKS)
    return ds_error_set(err, DS_ERR_ARG, "in-process group of %d ranks: the rank count must be "
                        "1 to %d", size, DS_COMM_MAX_RANKS);
  if (opt != NULL && opt->timeout_ms == 0)
    return ds_error_set(err, DS_ERR_ARG, "communicator timeout 0 ms: it must be at least 1 ms");
  for (int r = 0; r < size; r++) comms[r] = NULL;

  // 2. the shared mailbox, with a monotonic clock for its timed waits
  mailbox *b = calloc(1, sizeof *b);
  if (b == NULL) goto nomem;
  b->arrivals = calloc((size_t)size, sizeof *b->arrivals);
  b->slots = calloc((size_t)size, sizeof *b->slots);
  if (b->arrivals == NULL || b->slots == NULL) {
    free(b->arrivals);
    free(b->slots);
    free(b);
    goto nomem;
  }
  pthread_condattr_t attr;
  pthread_condattr_init(&attr);
  pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
  pthread_cond_init(&b->cond, &attr);
  pthread_condattr_destroy(&attr);
  pthread_mutex_init(&b->lock, NULL);
  b->size = size;

  // 3. one communicator a rank, each holding a reference to the mailbox
  for (int r = 0; r < size; r++) {
    comms[r] = ds_comm_new(&INPROC_OPS, r, size, opt, b);
    if (comms[r] == NULL) { /* the last reference frees the mailbox */
      b->refs++;
      for (int q = 0; q < r; q++) ds_comm_destroy(comms[q]), comms[q] = NULL;
      box_release(b);
      goto nomem;
    }
    b->refs++;
  }
  return DS_OK;
nomem:
  return ds_error_set(err, DS_ERR_NOMEM, "in-process group of %d ranks: out of memory", size);
}

/* ---- running ranks as threads ---------------------------------------------- */

typedef struct {
  ds_comm *comm;
  ds_comm_rank_fn fn;
  void *arg;
  ds_status status;
  ds_error err;
} rank_job;

static void *rank_main(void *p) {
  rank_job *j = p;
  j->err.msg[0] = '\0';
  j->status = j->fn(j->comm, j->arg, &j->err);
  return NULL;
}

ds_status ds_comm_inproc_run(int size, const ds_comm_options *opt, ds_comm_rank_fn fn,
                             void *arg, ds_status *rank_status, ds_error *rank_err,
                             ds_error *err) {
  if (fn == NULL || rank_status == NULL)
    return ds_error_set(err, DS_ERR_ARG, "ds_comm_inproc_run: fn and rank_status must not be NULL");
  ds_comm **comms = calloc(size > 0 ? (size_t)size : 1, sizeof *comms);
  rank_job *jobs = calloc(size > 0 ? (size_t)size : 1, sizeof *jobs);
  pthread_t *threads = calloc(size > 0 ? (size_t)size : 1, sizeof *threads);
  char *started = calloc(size > 0 ? (size_t)size : 1, 1);
  ds_status st = DS_OK;
  if (comms == NULL || jobs == NULL || threads == NULL || started == NULL) {
    st = ds_error_set(err, DS_ERR_NOMEM, "ds_comm_inproc_run: out of memory for %d ranks", size);
    goto done;
  }
  st = ds_comm_inproc_create(size, opt, comms, err);
  if (st != DS_OK) goto done;

  // 1. a thread a rank; one that cannot start fails the group for the others
  for (int r = 0; r < size; r++) {
    jobs[r] = (rank_job){comms[r], fn, arg, DS_OK, {{0}}};
    int rc = pthread_create(&threads[r], NULL, rank_main, &jobs[r]);
    if (rc == 0) {
      started[r] = 1;
      continue;
    }
    char why[128];
    snprintf(why, sizeof why, "its thread could not start (%s)", strerror(rc));
    ds_comm_abort(comms[r], why);
    jobs[r].status = ds_error_set(&jobs[r].err, DS_ERR_IO, "rank %d: %s", r, why);
  }
  // 2. wait for all, and report the first failure
  for (int r = 0; r < size; r++)
    if (started[r]) pthread_join(threads[r], NULL);
  for (int r = 0; r < size; r++) {
    rank_status[r] = jobs[r].status;
    if (rank_err != NULL) rank_err[r] = jobs[r].err;
    if (st == DS_OK && jobs[r].status != DS_OK)
      st = ds_error_set(err, jobs[r].status, "rank %d: %s", r, jobs[r].err.msg);
  }
  for (int r = 0; r < size; r++) ds_comm_destroy(comms[r]);
done:
  free(comms);
  free(jobs);
  free(threads);
  free(started);
  return st;
}
