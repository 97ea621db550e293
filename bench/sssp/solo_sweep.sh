#!/usr/bin/env bash
# Sweep of the solo-round threshold (DS_GPU_SOLO_MAX: frontiers up to this many
# vertices are relaxed by one block without grid barriers; 0 = off) over the
# bundled road networks and a generated Kronecker graph.
#   bench/sssp/solo_sweep.sh BUILD_DIR OUT_DIR "THRESHOLDS" [extra sssp options]
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$1 out=$2 thresholds=$3; shift 3
mkdir -p "$out"
[ -f "$out/kron20.mtx" ] || "$build/graph/gen/graphgen" kron --scale 20 --edge-factor 16 --weights 1:255 \
  --seed 20 --quiet -o "$out/kron20.mtx"
for g in "$root/datasets/NY.mtx.gz" "$root/datasets/BAY.mtx.gz" "$root/datasets/COL.mtx.gz" "$out/kron20.mtx"; do
  for t in $thresholds; do
    name=$(basename "$g" | sed 's/\..*//')
    DS_GPU_SOLO_MAX=$t "$build/app/sssp" --graph "$g" --weights 1:255 --algo near-far,multisplit,sort,bellman-ford \
      --delta auto --buckets 10 --trials 5 --validate --cache-dir "$out" --json "$out/solo-$name-$t.json" "$@" \
      > "$out/solo-$name-$t.txt" 2>&1 || echo "FAILED: $name solo=$t"
    printf '%-8s solo=%-5s ' "$name" "$t"
    grep -E "^ *(near-far|multisplit|sort|bellman-ford) " "$out/solo-$name-$t.txt" | awk '{printf "%s %s  ", $1, $3}'
    echo
  done
done
