#!/usr/bin/env bash
# GPU SSSP benchmark suite: `sssp --algo all --validate --json` over the fixed
# graph set of issue 4, one JSON per graph in bench/results/.
#
#   bench/sssp/run.sh [--bin DIR] [--work DIR] [--out DIR] [--trials T] [--quick] [--heavy] [--graphs LIST]
#     --bin DIR    where sssp and graphgen are (default: build-gpu/app and
#                  build-gpu/graph/gen, else build/...)
#     --work DIR   where generated graphs go (default: /tmp/ds-bench; big:
#                  Kronecker scale 22 is ~1.5 GB of .mtx plus its cache)
#     --out DIR    results (default: bench/results)
#     --quick      scale 20 Kronecker, the thesis R-MAT and NY only
#     --heavy      the heavy-tailed weight classes instead (graphs.sh: kron20, rmat-thesis,
#                  grid-1000, geo-1M and NY with log-uniform and bimodal weights over 1..2^24)
#     --graphs LIST  these graphs of the set only (space-separated names, as in
#                  graphs.sh; the whole suite runs past the GPU machine's
#                  10 minutes per command, so it is run in parts there)
#
# Graphs (graphs.sh: generated at run time with graphgen, fixed seeds, too big
# to commit; and the bundled road networks with seeded weights).
# Each run: --delta auto, --buckets 10, --trials T (median), the same source
# for every algorithm, --validate (a mismatch fails the suite).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
bin="" work=/tmp/ds-bench out="$root/bench/results" trials=5 quick=0 heavy=0 graphs=""
while [ $# -gt 0 ]; do
  case "$1" in
    --bin) bin=$2; shift 2 ;;
    --work) work=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --trials) trials=$2; shift 2 ;;
    --quick) quick=1; shift ;;
    --heavy) heavy=1; shift ;;
    --graphs) graphs=$2; shift 2 ;;
    *) echo "usage: $0 [--bin DIR] [--work DIR] [--out DIR] [--trials T] [--quick] [--heavy] [--graphs LIST]" >&2; exit 2 ;;
  esac
done
find_bin() { # name: the first of --bin, build-gpu, build
  for d in "$bin" "$root/build-gpu/$2" "$root/build/$2"; do
    [ -n "$d" ] && [ -x "$d/$1" ] && { echo "$d/$1"; return; }
  done
  echo "$0: cannot find $1 (build the project or give --bin)" >&2; exit 1
}
SSSP=$(find_bin sssp app)
GEN=$(find_bin graphgen graph/gen)
mkdir -p "$work" "$out"
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1 | tr ' ' '_' || echo unknown)

# shellcheck source=graphs.sh
. "$here/graphs.sh"
run() { # name, extra sssp options...
  local name=$1; shift
  local spec file extra json="$out/sssp-${gpu}-${name}.json"
  spec=$(suite_graph "$name" "$GEN" "$work" "$root")
  file=${spec%%$'\t'*} extra=${spec#*$'\t'}
  echo "== $name"
  # shellcheck disable=SC2086
  "$SSSP" --graph "$file" --algo all --validate --delta auto --buckets 10 --trials "$trials" \
          --seed 1 --cache-dir "$work" --json "$json" $extra "$@"
}

if [ -z "$graphs" ]; then
  graphs="kron20 rmat-thesis NY"
  [ "$quick" = 0 ] && graphs="$graphs kron22 grid-1000 geo-1M BAY COL"
  [ "$heavy" = 1 ] && graphs="kron20-log kron20-bimodal rmat-thesis-log rmat-thesis-bimodal grid-1000-log
    grid-1000-bimodal geo-1M-log geo-1M-bimodal NY-log NY-bimodal"
fi
for g in $graphs; do run "$g"; done
echo "results in $out"
