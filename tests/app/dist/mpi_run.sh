#!/usr/bin/env bash
# Runs a test on NP processes: mpi_run.sh MPIEXEC NP PROGRAM [ARGS...]. Open MPI is told that
# more processes than cores is fine (CI machines have 2 cores) and, where the tests run as root
# (containers), that root may start them; other MPIs get the plain command.
set -u
mpiexec=$1
np=$2
shift 2
flags=()
if "$mpiexec" --version 2>&1 | grep -qiE "open ?mpi|openrte"; then
  flags+=(--oversubscribe)
  [ "$(id -u)" = 0 ] && flags+=(--allow-run-as-root)
fi
exec "$mpiexec" "${flags[@]}" -np "$np" "$@"
