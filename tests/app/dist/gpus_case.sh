#!/usr/bin/env bash
# One end-to-end case of `sssp --gpus N` or `mpirun -np N sssp --mpi` that needs N GPUs:
#   gpus_case.sh cli_case.sh ARGUMENTS...
# Runs cli_case.sh; where the case failed because the machine or the build cannot run it (fewer
# GPUs than ranks, no GPU on a process, a process of mpirun whose GPU (its rank on the machine)
# the machine lacks, a build without NCCL or MPI: sssp's own messages), it is
# a skip (exit 77) with that message, as the GPU tests skip with fewer GPUs; any other failure
# stays a failure.
set -u
case_script=$1
shift
output=$(bash "$case_script" "$@" 2>&1)
rc=$?
echo "$output"
[ "$rc" -eq 0 ] && exit 0
why=$(echo "$output" | grep -Eo -- "--gpus [0-9]+: (no GPU|only [0-9]+ GPUs?)[^\"]*|--mpi: no GPU[^\"]*|GPU [0-9]+ does not exist: this process sees [01] GPU|built without (NCCL|MPI)" | head -1)
if [ -n "$why" ]; then
  echo "SKIP: $why"
  exit 77
fi
exit "$rc"
