#!/usr/bin/env bash
# Delta (and bucket count) sweep of the GPU algorithms over graphs of the suite.
#   bench/sssp/delta_sweep.sh BUILD_DIR WORK_DIR OUT_DIR "GRAPHS" "DELTAS" [BUCKETS] [ALGOS]
#     DELTAS   space-separated bucket widths; "auto" allowed
#     BUCKETS  space-separated bucket counts of multisplit/sort (default 10)
#     ALGOS    sssp --algo list (default near-far,multisplit)
# One line per (graph, delta, buckets): each algorithm's median ms, rounds and
# edges relaxed; every run validated; the sssp logs and JSON go to OUT_DIR.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$1 work=$2 out=$3 graphs=$4 deltas=$5 buckets=${6:-10} algos=${7:-near-far,multisplit}
mkdir -p "$work" "$out"
# shellcheck source=graphs.sh
. "$root/bench/sssp/graphs.sh"
status=0
for g in $graphs; do
  spec=$(suite_graph "$g" "$build/graph/gen/graphgen" "$work" "$root") || { status=1; continue; }
  file=${spec%%$'\t'*} extra=${spec#*$'\t'}
  for d in $deltas; do
    for m in $buckets; do
      log="$out/delta-$g-$d-$m.txt"
      # shellcheck disable=SC2086
      "$build/app/sssp" --graph "$file" --algo "$algos" --delta "$d" --buckets "$m" \
        --trials 3 --seed 1 --validate --cache-dir "$work" --json "$out/delta-$g-$d-$m.json" \
        $extra > "$log" 2>&1 || { echo "FAILED: $g delta $d buckets $m (see $log)"; status=1; }
      printf '%-12s delta %-7s m %-4s ' "$g" "$d" "$m"
      grep -E "^ *(near-far|multisplit|sort|bellman-ford) " "$log" | awk '{printf "%s %s ms  ", $1, $3}'
      echo
    done
  done
done
exit $status
