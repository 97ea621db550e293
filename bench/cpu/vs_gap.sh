#!/usr/bin/env bash
# cpu-delta at its automatic delta against GAP's sssp at each of several deltas, on the same
# graphs, source and threads, interleaved: each repeat runs every program once, so that a busy
# spell of a shared host falls on all of them. One line per run: graph, threads, program,
# delta, median and minimum of its timed trials (ms), and ours' rounds and arcs relaxed.
# Summarise with bench/cpu/summary.py.
#
#   bench/cpu/vs_gap.sh --gap /path/to/gapbs --threads "1 16" --deltas "256 512 1024 2048" \
#       [--sssp build/app/sssp] [--base OTHER_SSSP] [--our-deltas "auto 512 2048"] \
#       [--repeats 5] [--trials 9] G1.mtx G2.mtx ...
#
# GAP reads G.wsg beside G.mtx (made once by GAP's converter: converter -f G.mtx -b G.wsg -w),
# both start at the file's first vertex (ours: --source 1 of the 1-based file; GAP: -r 0).
# --base runs a second sssp binary beside the first (A/B of two builds); --our-deltas runs ours
# at those widths too (auto: the automatic one), to see whether the rule's choice is the best.
set -euo pipefail
sssp=build/app/sssp base="" gap="" threads="1" deltas="512 1024" our_deltas=auto repeats=5 trials=9
while [[ $# -gt 0 && $1 == --* ]]; do
  case $1 in
  --sssp) sssp=$2 ;; --base) base=$2 ;; --gap) gap=$2 ;; --threads) threads=$2 ;;
  --deltas) deltas=$2 ;; --our-deltas) our_deltas=$2 ;; --repeats) repeats=$2 ;; --trials) trials=$2 ;;
  *) echo "vs_gap.sh: unknown option $1" >&2; exit 2 ;;
  esac
  shift 2
done
[[ -n $gap && $# -gt 0 ]] || { echo "usage: vs_gap.sh --gap GAPDIR [options] GRAPH.mtx ..." >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ours() { # ours LABEL BINARY GRAPH THREADS DELTA
  "$2" --graph "$3" --source 1 --algo cpu-delta --threads "$4" --delta "$5" --trials "$trials" \
    --quiet --json "$tmp/o.json" >/dev/null
  python3 - "$tmp/o.json" "$1" "$3" "$4" <<'PY'
import json, sys
a = json.load(open(sys.argv[1]))["runs"][0]["algorithms"][0]
s = a["per_source"][0]
print(sys.argv[3], sys.argv[4], sys.argv[2], int(a["delta"]), "%.3f" % s["median_ms"],
      "%.3f" % s["min_ms"], s["rounds"], s["edges_relaxed"])
PY
}

theirs() { # theirs GRAPH THREADS DELTA
  OMP_NUM_THREADS=$2 "$gap/sssp" -f "${1%.mtx}.wsg" -r 0 -d "$3" -n "$trials" |
    python3 -c 'import re, statistics, sys
x = [1e3 * float(v) for v in re.findall(r"Trial Time:\s+([0-9.]+)", sys.stdin.read())]
print(sys.argv[1], sys.argv[2], "gap", sys.argv[3], "%.3f" % statistics.median_low(x), "%.3f" % min(x), "- -")' "$1" "$2" "$3"
}

for ((r = 0; r < repeats; r++)); do
  for g in "$@"; do
    for t in $threads; do
      for d in $our_deltas; do # "ours"/"base" at the automatic delta, "-fixed" at a given one
        x=$([[ $d == auto ]] || echo -fixed)
        ours "ours$x" "$sssp" "$g" "$t" "$d"
        [[ -z $base ]] || ours "base$x" "$base" "$g" "$t" "$d"
      done
      for d in $deltas; do theirs "$g" "$t" "$d"; done
    done
  done
done
