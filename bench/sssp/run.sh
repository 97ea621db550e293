#!/usr/bin/env bash
# GPU SSSP benchmark suite: `sssp --algo all --validate --json` over the fixed
# graph set of issue 4, one JSON per graph in bench/results/.
#
#   bench/sssp/run.sh [--bin DIR] [--work DIR] [--out DIR] [--trials T] [--quick]
#     --bin DIR    where sssp and graphgen are (default: build-gpu/app and
#                  build-gpu/graph/gen, else build/...)
#     --work DIR   where generated graphs go (default: /tmp/ds-bench; big:
#                  Kronecker scale 22 is ~1.5 GB of .mtx plus its cache)
#     --out DIR    results (default: bench/results)
#     --quick      scale 20 Kronecker, the thesis R-MAT and NY only
#
# Graphs (generated at run time with graphgen, fixed seeds; too big to commit):
#   kron20, kron22   Graph500 Kronecker, edge factor 16, weights 1..255
#   rmat-thesis      R-MAT n=800000, m=4800000, a=0.5 b=0.1 c=0.1, weights 0..1000
#   grid-1000        1000 x 1000 grid, weights 1..255 (road-like, high diameter)
#   geo-1M           random geometric graph, 1M points, degree 8, weights 1..255
#   NY, BAY, COL     bundled DIMACS road networks, seeded weights 1..255
# Each run: --delta auto, --buckets 10, --trials T (median), the same source
# for every algorithm, --validate (a mismatch fails the suite).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
bin="" work=/tmp/ds-bench out="$root/bench/results" trials=5 quick=0
while [ $# -gt 0 ]; do
  case "$1" in
    --bin) bin=$2; shift 2 ;;
    --work) work=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --trials) trials=$2; shift 2 ;;
    --quick) quick=1; shift ;;
    *) echo "usage: $0 [--bin DIR] [--work DIR] [--out DIR] [--trials T] [--quick]" >&2; exit 2 ;;
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

gen() { # name, graphgen arguments...
  local name=$1; shift
  [ -f "$work/$name.mtx" ] || "$GEN" "$@" --quiet -o "$work/$name.mtx"
}
run() { # name, graph file, extra sssp options...
  local name=$1 file=$2; shift 2
  local json="$out/sssp-${gpu}-${name}.json"
  echo "== $name"
  "$SSSP" --graph "$file" --algo all --validate --delta auto --buckets 10 --trials "$trials" \
          --seed 1 --cache-dir "$work" --json "$json" "$@"
}

gen kron20 kron --scale 20 --edge-factor 16 --weights 1:255 --seed 20
gen rmat-thesis rmat --n 800000 --m 4800000 --a 0.5 --b 0.1 --c 0.1 --weights 0:1000 --seed 30 --undirected
run kron20 "$work/kron20.mtx"
run rmat-thesis "$work/rmat-thesis.mtx"
run NY "$root/datasets/NY.mtx.gz" --weights 1:255
if [ "$quick" = 0 ]; then
  gen kron22 kron --scale 22 --edge-factor 16 --weights 1:255 --seed 22
  gen grid-1000 grid --rows 1000 --cols 1000 --weights 1:255 --seed 40
  gen geo-1M geo --n 1000000 --degree 8 --geo-weights random --weights 1:255 --seed 50
  run kron22 "$work/kron22.mtx"
  run grid-1000 "$work/grid-1000.mtx"
  run geo-1M "$work/geo-1M.mtx"
  run BAY "$root/datasets/BAY.mtx.gz" --weights 1:255
  run COL "$root/datasets/COL.mtx.gz" --weights 1:255
fi
echo "results in $out"
