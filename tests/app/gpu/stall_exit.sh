#!/usr/bin/env bash
# The program's side of a stalled GPU search: with a stall forced in the
# search kernels (DS_GPU_FORCE_STALL, read by the lab build sssp_lab: one block never arrives at its first
# grid barrier) and a short bound, `sssp` must exit 4 and say that the GPU
# search stalled, and where. Skips (77) where no GPU runs the search.
#   stall_exit.sh SSSP GRAPH
set -u
sssp=$1 graph=$2
for algo in near-far multisplit sort bellman-ford; do
  out=$(DS_GPU_FORCE_STALL=1 DS_GPU_STALL_MS=100 "$sssp" --graph "$graph" --algo "$algo" --no-cache --trials 1 2>&1)
  rc=$?
  if echo "$out" | grep -q "running on the CPU backend"; then echo "skip: no GPU"; exit 77; fi
  if [ $rc != 4 ] || ! echo "$out" | grep -qE "the GPU search stalled: [a-z-]+: block [0-9]+ gave up waiting at the grid barrier"; then
    echo "FAIL: $algo: exit $rc (expected 4 and the stall's message)"
    echo "$out"
    exit 1
  fi
  echo "$algo: exit 4: $(echo "$out" | grep -o 'the GPU search stalled.*' | head -1)"
done
