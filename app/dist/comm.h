/* Communicators of the distributed engine: R ranks that exchange buffers.
 *
 * One interface over several transports (backends), so that everything above
 * it (the partition, the graph build, the SSSP rounds, the validation) is the
 * same code whatever carries the bytes:
 *   - in-process (this header): R ranks as R threads of one process sharing a
 *     mailbox. The CPU twin's transport, and the model of one process that
 *     drives all the GPUs of a machine (ncclCommInitAll);
 *   - MPI (dist/comm_mpi.h, where MPI was found at configure time): one
 *     process per rank, bootstrapped the way NCCL is (rank 0 makes an id,
 *     MPI_Bcast, every rank joins with it);
 *   - NCCL (dist/comm_nccl.h, where NCCL was found): the same calls, the
 *     payload of ds_comm_alltoallv in GPU memory. A backend is a table of
 *     functions (dist/comm_backend.h); ds_comm_memory says where its buffers live.
 *
 * Collectives: every rank of a communicator makes the same collective calls
 * in the same order, with matching arguments (the same count, type and
 * operation for ds_comm_allreduce; recv_bytes[p] on rank r equal to
 * send_bytes[r] on rank p for ds_comm_alltoallv). Buffers may be reused as
 * soon as a call returns. A communicator is used by one thread at a time.
 *
 * Nothing waits without bound. Every wait ends within the communicator's
 * timeout (ds_comm_options.timeout_ms); a rank that does not answer in time,
 * a rank that aborted (ds_comm_abort) or ranks that called different
 * collectives are an error on every rank: the in-process backend marks its
 * group failed, so the current and every later call of every rank fails with
 * the same message at once; on MPI each waiting rank meets the timeout itself.
 * A communicator that failed stays failed.
 *
 * Memory: ds_comm_alltoall_u64, ds_comm_allreduce and ds_comm_agree take
 * host memory on every backend (small control values; a device backend stages
 * them); the payload of ds_comm_alltoallv lives where ds_comm_memory_kind says.
 *
 * Errors: DS_ERR_ARG (a bad argument on this rank), DS_ERR_UNSUPPORTED (a size
 * the transport cannot carry), DS_ERR_NOMEM, DS_ERR_IO (the transport failed:
 * timeout, abort, mismatched collectives, an MPI error). A rank whose call
 * fails before it reaches the transport aborts the communicator
 * (ds_comm_abort), since it takes no part in the collective the others are in.
 */
#ifndef DS_DIST_COMM_H
#define DS_DIST_COMM_H

#include <stddef.h>
#include <stdint.h>

#include "ds/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ds_comm ds_comm;

typedef enum { DS_COMM_U64 = 0, DS_COMM_F64 = 1 } ds_comm_type;
typedef enum { DS_COMM_MIN = 0, DS_COMM_MAX = 1, DS_COMM_SUM = 2 } ds_comm_op;
/* Where a backend's payload buffers live: host memory (in-process, MPI) or
 * the rank's GPU (NCCL). */
typedef enum { DS_COMM_HOST = 0, DS_COMM_DEVICE = 1 } ds_comm_memory;

/* A bound on every wait. Long enough for a rank's local work between two
 * collectives (a graph build) on a loaded machine; tests of the failure
 * paths set a short one. */
#define DS_COMM_TIMEOUT_MS_DEFAULT 120000u
#define DS_COMM_MAX_RANKS 4096 /* the mailbox and the count arrays are O(R) per rank */

typedef struct {
  uint32_t timeout_ms; /* > 0 */
} ds_comm_options;

void ds_comm_options_default(ds_comm_options *opt);

/* What one rank's communicator has done, for reports and for tests of the
 * exchange schedule. Bytes count payload to and from other ranks only. */
typedef struct {
  uint64_t alltoall_calls;  /* ds_comm_alltoall_u64: the counts step of an exchange */
  uint64_t alltoallv_calls; /* ds_comm_alltoallv: the payload step */
  uint64_t allreduce_calls;
  uint64_t barrier_calls;
  uint64_t bytes_sent;
  uint64_t bytes_received;
  double wait_ms;           /* wall time inside the calls */
} ds_comm_stats;

int ds_comm_rank(const ds_comm *comm);
int ds_comm_size(const ds_comm *comm);
const char *ds_comm_backend_name(const ds_comm *comm); /* "in-process", "mpi", ... */
ds_comm_memory ds_comm_memory_kind(const ds_comm *comm);
/* The OpenMP threads for this rank's own work: OpenMP's default, shared by the
 * ranks of an in-process group (threads of one process, on its cores); at
 * least 1, and 1 without OpenMP. */
int ds_comm_threads(const ds_comm *comm);

/* Seconds on a monotonic clock (the communicators' deadlines and the ranks' phase times). */
double ds_comm_now(void);
void ds_comm_stats_get(const ds_comm *comm, ds_comm_stats *stats);

/* One 64-bit value to every rank: send[p] goes to rank p, recv[p] comes from
 * rank p (R values each, host memory). The first step of every exchange:
 * each rank learns how much the others will send it.
 * Example, the exchange of a buffer grouped by destination:
 *   ds_comm_alltoall_u64(c, send_bytes, recv_bytes, &err);
 *   ... offsets: prefix sums of send_bytes and recv_bytes; size recv ...
 *   ds_comm_alltoallv(c, send, send_bytes, send_off, recv, recv_bytes, recv_off, &err); */
ds_status ds_comm_alltoall_u64(ds_comm *comm, const uint64_t *send, uint64_t *recv,
                               ds_error *err);

/* All-to-all of byte buffers whose sizes both sides know (ds_comm_alltoall_u64):
 * rank r's bytes [send_off[p], send_off[p] + send_bytes[p]) of send land in
 * rank p's recv at recv_off[r], where rank p's recv_bytes[r] must equal
 * send_bytes[p] of rank r. send and recv are in the backend's memory
 * (ds_comm_memory_kind), the four arrays of R values in host memory; the
 * ranges of recv must not overlap. A rank's part to itself is copied too.
 * Device buffers: the backend works on a stream of its own, so whatever the
 * caller queued that writes send or recv (on any stream) must be complete
 * before the call; on return the exchange is complete. */
ds_status ds_comm_alltoallv(ds_comm *comm, const void *send, const uint64_t *send_bytes,
                            const uint64_t *send_off, void *recv, const uint64_t *recv_bytes,
                            const uint64_t *recv_off, ds_error *err);

/* Element-wise reduction of count values of the given type over the ranks;
 * every rank receives the same result (the ranks' values are combined in rank
 * order, so a floating-point sum is identical everywhere). in and out may be
 * the same buffer. count 0 is a no-op that still synchronises. */
ds_status ds_comm_allreduce(ds_comm *comm, ds_comm_type type, ds_comm_op op, const void *in,
                            void *out, size_t count, ds_error *err);

ds_status ds_comm_barrier(ds_comm *comm, ds_error *err);

/* Turns one rank's local outcome into the same outcome on every rank: a
 * collective that every rank calls after a step that may fail locally (an
 * allocation, a check of its input), so that no rank goes on into a
 * collective that a failed rank will never make.
 * [in] local  this rank's status of the step.
 * [in,out] err  on the failing rank, its message (kept); on the others,
 *   "rank F: <its message>", F being the least failing rank.
 * Returns DS_OK where every rank passed DS_OK, else rank F's status (or the
 * transport's error). Costs one small all-reduce, and on failure one more
 * (of about a kilobyte) that carries the message. */
ds_status ds_comm_agree(ds_comm *comm, ds_status local, ds_error *err);

/* ds_comm_agree with one 64-bit value of the failing rank's choosing (a
 * vertex id, say): *detail is rank F's on every rank when the step failed,
 * left alone otherwise. */
ds_status ds_comm_agree_detail(ds_comm *comm, ds_status local, uint64_t *detail, ds_error *err);

/* Tells the other ranks now that this rank stops (after an error that leaves
 * it unable to take part in the next collective), where the backend can: the
 * in-process group fails at once with "rank R aborted: why" on every rank; on
 * MPI the others find out by their timeout (MPI_Abort would end the process).
 * This communicator fails too. */
void ds_comm_abort(ds_comm *comm, const char *why);

/* The two steps of an exchange in host memory: counts, then payload.
 * [in] send, send_bytes  R byte counts, the buffer grouped by destination rank
 *                        (rank p's bytes follow rank p-1's)
 * [in,out] recv, recv_capacity  a buffer that grows (realloc) to hold what
 *                        arrives, grouped by source rank; free(*recv) after.
 * [out] recv_bytes       R counts; NULL if not wanted.
 * Host backends only (DS_ERR_ARG on a device backend, before any collective:
 * every rank's backend is the same, so all of them refuse). */
ds_status ds_comm_exchange(ds_comm *comm, const void *send, const uint64_t *send_bytes,
                           void **recv, size_t *recv_capacity, uint64_t *recv_bytes,
                           ds_error *err);

/* Frees this rank's communicator (a group's shared mailbox goes with the last
 * of its ranks). NULL is a no-op. */
void ds_comm_destroy(ds_comm *comm);

/* A communicator's unique id, made by one rank and given to all (NCCL's
 * bootstrap: comm_mpi.h broadcasts it, comm_nccl.h joins with it). */
#define DS_COMM_ID_BYTES 128 /* NCCL_UNIQUE_ID_BYTES, so that an ncclUniqueId fits */

typedef struct {
  unsigned char bytes[DS_COMM_ID_BYTES];
} ds_comm_id;

/* Makes a fresh id on the root rank (ncclGetUniqueId's place). */
typedef ds_status (*ds_comm_id_maker)(void *ctx, ds_comm_id *id, ds_error *err);

/* ---- the in-process backend ---------------------------------------------- */

/* size communicators sharing one mailbox, comms[r] for the thread of rank r.
 * [out] comms  an array of size pointers; NULL on failure.
 * Errors: DS_ERR_ARG (size out of 1..DS_COMM_MAX_RANKS, a zero timeout),
 * DS_ERR_NOMEM. */
ds_status ds_comm_inproc_create(int size, const ds_comm_options *opt, ds_comm **comms,
                                ds_error *err);

/* The work of one rank: called with its communicator and the shared arg. */
typedef ds_status (*ds_comm_rank_fn)(ds_comm *comm, void *arg, ds_error *err);

/* Runs fn on size threads, one a rank, over an in-process group, and waits
 * for all of them. A thread that cannot start fails the group, so the ranks
 * already running end with an error instead of waiting for it.
 * [out] rank_status, rank_err  size entries each (rank_err may be NULL): what
 *   each rank's fn returned.
 * Returns DS_OK when every rank returned DS_OK; else the first failing rank's
 * status, with "rank R: message" in err. */
ds_status ds_comm_inproc_run(int size, const ds_comm_options *opt, ds_comm_rank_fn fn,
                             void *arg, ds_status *rank_status, ds_error *rank_err,
                             ds_error *err);

#ifdef __cplusplus
}
#endif
#endif /* DS_DIST_COMM_H */
