/* What a transport implements to become a ds_comm backend (in-process, MPI,
 * NCCL). Not for users of the communicator.
 *
 * comm.c checks the arguments, keeps the statistics and times the calls, then
 * calls these functions; a backend moves bytes and bounds its waits by
 * comm->timeout_ms. A backend whose transport failed returns DS_ERR_IO from
 * then on. The NCCL backend (comm_nccl.c) fills the same table: alltoall_u64
 * and alltoallv as grouped ncclSend/ncclRecv (the counts through a small
 * device buffer), allreduce as ncclAllReduce, each waited for on the rank's
 * stream with a bounded poll of ncclCommGetAsyncError, abort as
 * ncclCommAbort; memory DS_COMM_DEVICE.
 */
#ifndef DS_DIST_COMM_BACKEND_H
#define DS_DIST_COMM_BACKEND_H

#include "dist/comm.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ds_comm_ops {
  const char *name;
  ds_comm_memory memory;
  ds_status (*alltoall_u64)(ds_comm *comm, const uint64_t *send, uint64_t *recv, ds_error *err);
  ds_status (*alltoallv)(ds_comm *comm, const void *send, const uint64_t *send_bytes,
                         const uint64_t *send_off, void *recv, const uint64_t *recv_bytes,
                         const uint64_t *recv_off, ds_error *err);
  ds_status (*allreduce)(ds_comm *comm, ds_comm_type type, ds_comm_op op, const void *in,
                         void *out, size_t count, ds_error *err);
  ds_status (*barrier)(ds_comm *comm, ds_error *err);
  void (*abort)(ds_comm *comm, const char *why);
  void (*destroy)(ds_comm *comm); /* frees impl; comm.c frees comm itself */
} ds_comm_ops;

struct ds_comm {
  const ds_comm_ops *ops;
  int rank, size;
  uint32_t timeout_ms;
  ds_comm_stats stats;
  void *impl; /* the backend's state */
};

/* A communicator of a backend (NULL when out of memory). */
ds_comm *ds_comm_new(const ds_comm_ops *ops, int rank, int size, const ds_comm_options *opt,
                     void *impl);

/* Element-wise op of count values of type: acc = op(acc, x). For backends
 * that reduce on the host. */
void ds_comm_reduce_into(ds_comm_type type, ds_comm_op op, void *acc, const void *x,
                         size_t count);


#ifdef __cplusplus
}
#endif
#endif /* DS_DIST_COMM_BACKEND_H */
