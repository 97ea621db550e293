/* `sssp --gpus N` and `mpirun -np N sssp --mpi` (run_dist.c): the graph's
 * searches on the distributed GPU engine of app/dist, one rank a GPU, with
 * sssp's options, report and exit codes. */
#ifndef DS_RUN_DIST_H
#define DS_RUN_DIST_H

#include "cli.h"

/* Runs every graph of cli on cli->gpus ranks in this process (a thread a GPU)
 * or, with cli->mpi, as this process's rank of an mpirun job; returns the
 * exit code, the same on every rank. */
ds_exit_code ds_run_dist(const ds_cli *cli);

#endif /* DS_RUN_DIST_H */
