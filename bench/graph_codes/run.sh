#!/usr/bin/env bash
# k-core and triangle-counting benchmark: `kcore` and `tc` with every backend this build has
# (the OpenMP backend always; the GPU ones where built and a device is present) on the SSSP
# suite's graphs, one JSON per program and graph in bench/results/.
#
#   bench/graph_codes/run.sh [--bin DIR] [--work DIR] [--out DIR] [--trials T] [--threads N]
#                            [--graphs LIST] [--validate]
#     --bin DIR     where kcore/, tc/ and graph/gen/ are built (default: build-gpu/app, then build/app)
#     --work DIR    where generated graphs go (default: /tmp/ds-bench, shared with bench/sssp/run.sh)
#     --out DIR     results (default: bench/results)
#     --graphs LIST graphs of the suite (bench/sssp/graphs.sh names; default:
#                   "kron20 kron22 NY BAY COL geo-1M")
#     --validate    compare every result with the serial oracle (the triangle oracle merges whole
#                   rows, O(sum of squared degrees): minutes on Kronecker scale 22)
# Weights are read but not used; directed inputs are made undirected by the programs (a note).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
bin="" work=/tmp/ds-bench out="$root/bench/results" trials=5 threads=0 validate=""
graphs="kron20 kron22 NY BAY COL geo-1M"
while [ $# -gt 0 ]; do
  case "$1" in
    --bin) bin=$2; shift 2 ;;
    --work) work=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --trials) trials=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    --graphs) graphs=$2; shift 2 ;;
    --validate) validate=--validate; shift ;;
    *) echo "usage: $0 [--bin DIR] [--work DIR] [--out DIR] [--trials T] [--threads N] [--graphs LIST] [--validate]" >&2
       exit 2 ;;
  esac
done
find_bin() { # path below the build's app/ or graph/: the first of --bin, build-gpu, build
  for d in "$bin" "$root/build-gpu/app" "$root/build/app"; do
    [ -n "$d" ] && [ -x "$d/$1" ] && { echo "$d/$1"; return; }
  done
  echo "$0: cannot find $1 (build the project or give --bin)" >&2; exit 1
}
KCORE=$(find_bin kcore/kcore)
TC=$(find_bin tc/tc)
GEN=$(find_bin ../graph/gen/graphgen)
mkdir -p "$work" "$out"
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1 | tr ' ' '_' || true)
machine=${gpu:-cpu-$(nproc)core}
# the GPU backends join the run where this build and machine have them
algos=cpu
"$KCORE" --help 2>/dev/null | grep -q -- "gpu" && [ -n "$gpu" ] && algos=cpu,gpu

# shellcheck source=../sssp/graphs.sh
. "$root/bench/sssp/graphs.sh"
thread_opt=()
[ "$threads" -gt 0 ] && thread_opt=(--threads "$threads")
for name in $graphs; do
  spec=$(suite_graph "$name" "$GEN" "$work" "$root")
  file=${spec%%$'\t'*}
  for prog in kcore tc; do
    exe=$KCORE
    [ $prog = tc ] && exe=$TC
    echo "== $prog $name"
    # a GPU backend that cannot run this graph is reported by the program; fall back to cpu only
    "$exe" --graph "$file" --algo "$algos" $validate --trials "$trials" "${thread_opt[@]}" \
           --cache-dir "$work" --json "$out/$prog-$machine-$name.json" ||
      { [ "$algos" = cpu ] && exit 1
        "$exe" --graph "$file" --algo cpu $validate --trials "$trials" "${thread_opt[@]}" \
               --cache-dir "$work" --json "$out/$prog-$machine-$name.json"; }
  done
done
