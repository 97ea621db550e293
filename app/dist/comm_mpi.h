/* The MPI backend of ds_comm: one process a rank. Built where MPI was found
 * at configure time (DS_HAVE_MPI); include only then.
 *
 * The bootstrap is NCCL's: the root rank makes a unique id, MPI_Bcast gives
 * it to every rank, and each rank joins with (id, size, rank). The NCCL
 * backend (comm_nccl.h) calls ds_comm_mpi_bootstrap with ncclGetUniqueId as
 * the maker (ds_comm_nccl_id_make) and then ncclCommInitRank; this backend joins by checking that every rank
 * holds the same id, and talks through its own duplicate of the parent
 * communicator.
 *
 * Every wait is bounded: the calls are MPI's non-blocking collectives
 * (MPI_Comm_idup, MPI_Ibcast, MPI_Ialltoall(v), MPI_Iallreduce,
 * MPI_Ibarrier), polled until ds_comm_options.timeout_ms has passed; a rank
 * that does not answer in time is DS_ERR_IO on each rank that waits for it,
 * and that communicator stays failed. MPI errors are returned (the
 * communicator's error handler is MPI_ERRORS_RETURN), never MPI_Abort.
 * Limits: MPI counts are int, so one exchange moves at most INT_MAX bytes to
 * or from a rank (DS_ERR_UNSUPPORTED beyond).
 */
#ifndef DS_DIST_COMM_MPI_H
#define DS_DIST_COMM_MPI_H

#include <mpi.h>

#include "dist/comm.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The default maker: the host name, process id, clock and random bytes, so
 * that two jobs never share an id. */
ds_status ds_comm_id_make(void *ctx, ds_comm_id *id, ds_error *err);

/* Rank 0 of comm makes an id with make(ctx, ...) and broadcasts it, with
 * its status and message: a maker that fails is that error on every rank.
 * [out] id  the same bytes on every rank.
 * Errors: the maker's, DS_ERR_IO (MPI failed, or a rank did not answer
 * within timeout_ms). */
ds_status ds_comm_mpi_bootstrap(MPI_Comm comm, uint32_t timeout_ms, ds_comm_id_maker make,
                                void *ctx, ds_comm_id *id, ds_error *err);

/* A ds_comm of all the ranks of parent (collective over parent). MPI must be
 * initialised, and stay so until the communicator is destroyed.
 * Errors, on every rank: DS_ERR_ARG (MPI not initialised, a zero timeout,
 * more than DS_COMM_MAX_RANKS ranks), DS_ERR_NOMEM, DS_ERR_IO (the bootstrap
 * failed, or the ranks do not hold the same id). */
ds_status ds_comm_mpi_create(MPI_Comm parent, const ds_comm_options *opt, ds_comm **out,
                             ds_error *err);

/* The most bytes one message of an exchange carries (exchanges go rank to
 * rank, a block in pieces of at most this many bytes: MPI's int counts stop
 * at 2^31 - 1, the default, which 0 restores). Tests set a small one to cut
 * small exchanges into many pieces. No effect on another backend. */
void ds_comm_mpi_set_piece(ds_comm *comm, size_t bytes);

#ifdef __cplusplus
}
#endif
#endif /* DS_DIST_COMM_MPI_H */
