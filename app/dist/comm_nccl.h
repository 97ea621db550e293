/* The NCCL backend of ds_comm: one rank per GPU, the payload of
 * ds_comm_alltoallv in GPU memory (DS_COMM_DEVICE). Built where CUDA is on and
 * NCCL was found at configure time (DS_HAVE_NCCL); include only then.
 *
 * Memory: ds_comm_alltoallv's send and recv are device pointers on the rank's
 * GPU, moved by grouped ncclSend/ncclRecv (a rank's part to itself by a
 * device copy), so that the engine's updates never cross to the host. The
 * control calls (ds_comm_alltoall_u64, ds_comm_allreduce, ds_comm_barrier,
 * ds_comm_agree) keep comm.h's host memory: the backend stages their few
 * values through a small device buffer. A float sum is all-gathered and added
 * in rank order on the host, as the other backends do, so that every rank
 * holds the same bits.
 *
 * Two ways to start, one code path above: a rank is a thread (one process
 * driving N local GPUs, ds_comm_nccl_run) or a process (mpirun, one process
 * per GPU: ds_comm_mpi_bootstrap with ds_comm_nccl_id_make, then
 * ds_comm_nccl_create). Either way every rank holds two communicators of the
 * same ranks: a host one (in-process or MPI) for the graph build, the
 * validation and the agreement of local failures, and this one for the
 * device-resident exchange of the search.
 *
 * Nothing waits without bound. The communicator is non-blocking (ncclConfig_t
 * blocking = 0): every call is polled, ncclCommGetAsyncError until NCCL has
 * queued the work, then the rank's stream, until ds_comm_options.timeout_ms has
 * passed; then the NCCL communicator is aborted (ncclCommAbort) and this call
 * and every later one fail with DS_ERR_IO. The other ranks meet the failure
 * as a NCCL error or by their own timeout.
 *
 * NVLink multicast stays off (NCCL_NVLS_ENABLE=0 is set where unset before
 * any communicator is made; another value is refused): on the project's
 * machines a process that uses it can take the host's shared GPUs out of
 * service.
 */
#ifndef DS_DIST_COMM_NCCL_H
#define DS_DIST_COMM_NCCL_H

#include "dist/comm.h"

#ifdef DS_HAVE_MPI
#include <mpi.h>
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Checks that nccl.h as compiled (NCCL_VERSION_CODE) and the libnccl loaded at
 * run time (ncclGetVersion) are the same major and minor version: a library
 * older than its header may lack what the header declares, and one of another
 * minor version may lay out ncclConfig_t otherwise.
 * [out] header, library  may be NULL: the two codes (e.g. 22809 for 2.28.9).
 * Errors: DS_ERR_UNSUPPORTED ("nccl.h is 2.28.9 but libnccl is 2.21.5 ..."). */
ds_status ds_nccl_check_version(int *header, int *library, ds_error *err);

/* "2.28.9" for a version code. */
void ds_nccl_version_string(int code, char *out, size_t len);

/* Turns NVLink multicast off for NCCL in this process (setenv
 * NCCL_NVLS_ENABLE=0 where unset). Called by every entry below; thread-safe.
 * Errors: DS_ERR_ARG where NCCL_NVLS_ENABLE is set to anything but 0. */
ds_status ds_nccl_nvls_off(ds_error *err);

/* A ds_comm_id_maker for ds_comm_mpi_bootstrap: the version check, then
 * ncclGetUniqueId. */
ds_status ds_comm_nccl_id_make(void *ctx, ds_comm_id *id, ds_error *err);

/* This rank's NCCL communicator on `device`, over the ranks of host
 * (collective over host: every rank of it calls this with the same id).
 * 1. local checks: the versions, NVLink multicast, the device, a stream and
 *    the staging buffers; the ranks agree on them (ds_comm_agree over host),
 *    so a rank that fails here (a GPU missing) is "rank F: ..." on every rank
 *    at once;
 * 2. ncclCommInitRankConfig (non-blocking), polled within opt->timeout_ms;
 *    the ranks agree again.
 * The calling thread's current device becomes `device`.
 * [out] out  NULL on failure.
 * Errors, on every rank: DS_ERR_ARG, DS_ERR_UNSUPPORTED (versions),
 * DS_ERR_DEVICE (no such GPU, a CUDA error), DS_ERR_NOMEM, DS_ERR_IO (NCCL
 * failed or timed out, or the host communicator's errors). */
ds_status ds_comm_nccl_create(ds_comm *host, const ds_comm_id *id, int device,
                              const ds_comm_options *opt, ds_comm **out, ds_error *err);

/* The GPU this rank's communicator drives; -1 for another backend. */
int ds_comm_nccl_device(const ds_comm *comm);

/* Queued calls, for an engine that keeps its rounds on the GPU and waits once
 * a round: each queues its work on the communicator's stream (device values:
 * counts, payload, all-reduce words) and returns once NCCL has queued it,
 * within opt->timeout_ms; ds_comm_nccl_wait then waits for the stream, as
 * bounded as every call. The engine queues its kernels on the same stream
 * (ds_comm_nccl_stream, a cudaStream_t), so that they order with the
 * exchanges without a wait. They count in ds_comm_stats as their host forms
 * do. Errors: DS_ERR_IO (NCCL failed or timed out: the communicator is
 * aborted), DS_ERR_DEVICE. Only for this backend (ds_comm_nccl_device >= 0). */
void *ds_comm_nccl_stream(const ds_comm *comm);
/* d_send[p] to rank p, d_recv[p] from rank p (R values each, device memory). */
ds_status ds_comm_nccl_queue_alltoall_u64(ds_comm *comm, const uint64_t *d_send, uint64_t *d_recv,
                                          ds_error *err);
/* ds_comm_alltoallv's exchange (the counts and offsets in host memory). */
ds_status ds_comm_nccl_queue_alltoallv(ds_comm *comm, const void *d_send, const uint64_t *send_bytes,
                                       const uint64_t *send_off, void *d_recv,
                                       const uint64_t *recv_bytes, const uint64_t *recv_off,
                                       ds_error *err);
/* The element-wise minimum over the ranks of count words, in place. */
ds_status ds_comm_nccl_queue_min_u64(ds_comm *comm, uint64_t *d_values, size_t count, ds_error *err);
/* Until the stream has run what is queued. */
ds_status ds_comm_nccl_wait(ds_comm *comm, const char *what, ds_error *err);

/* The work of one rank of a GPU group: its host communicator, its NCCL one
 * (current device already set), and the shared arg. */
typedef ds_status (*ds_comm_gpu_rank_fn)(ds_comm *host, ds_comm *dev, void *arg, ds_error *err);

/* One process driving `gpus` local GPUs: one rank a GPU, a thread a rank (an
 * in-process host group, ds_comm_inproc_run), each joining one NCCL
 * communicator (ds_comm_nccl_create with the process's ncclGetUniqueId), then
 * running fn.
 * [in] devices  gpus device ids, rank r on devices[r] (GPU r where NULL or
 *               negative).
 * [out] rank_status, rank_err  as ds_comm_inproc_run (rank_err may be NULL).
 * Errors: DS_ERR_ARG (gpus < 1, more GPUs asked for than the process sees:
 * refused before any thread starts), the versions, and each rank's error. */
ds_status ds_comm_nccl_run(int gpus, const int *devices, const ds_comm_options *opt,
                           ds_comm_gpu_rank_fn fn, void *arg, ds_status *rank_status,
                           ds_error *rank_err, ds_error *err);

#ifdef DS_HAVE_MPI
/* One process a GPU under mpirun, the same rank work as ds_comm_nccl_run:
 * an MPI host communicator of world (ds_comm_mpi_create), NCCL's id made by
 * world's rank 0 and broadcast (ds_comm_mpi_bootstrap with
 * ds_comm_nccl_id_make), this process's NCCL communicator, then fn. MPI must
 * be initialised (and is left so).
 * [in] devices  NULL, or world-size device ids (negative: the default), rank
 *               r on devices[r]; by default the process's rank on its machine
 *               (OMPI_COMM_WORLD_LOCAL_RANK and the like), else the world rank
 *               modulo the GPUs it sees.
 * Returns fn's status, or the setup's error (on every rank). */
ds_status ds_comm_nccl_mpi_run(MPI_Comm world, const int *devices, const ds_comm_options *opt,
                               ds_comm_gpu_rank_fn fn, void *arg, ds_error *err);
#endif

#ifdef __cplusplus
}
#endif
#endif /* DS_DIST_COMM_NCCL_H */
