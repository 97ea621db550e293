#!/usr/bin/env bash
# Heavy-tailed weights: every GPU engine over a few bucket widths, and multisplit over bucket
# counts, on graphs of graphs.sh (NAME-log, NAME-bimodal).
#   bench/sssp/heavy_sweep.sh BUILD_DIR WORK_DIR LOG_DIR "GRAPHS" [SECONDS] [PARTS]
#     SECONDS  start no run after this many seconds (0, the default: no limit), and stop any
#              one run after 60 s: the device's commands have a time limit, so every graph's
#              main rows run before any bucket sweep
#     PARTS    "main sweep" (default), or one of them
# Main rows: near-far, multisplit and sort with --buckets auto at each width of the graph's
# list ("auto" is the automatic delta), Bellman-Ford (delta-free) at the automatic delta only;
# sweep rows: multisplit with 4, 16, 64 and 256 buckets at two or three of the widths. The
# odd widths are 8, 32, 64 and 256 x each graph's median weight (ds_median_weight: 6,334 on
# grid-1000-log, 6,300.5 on geo-1M-log, 5,763 on NY-log, 130 on the bimodal ones), the rest
# powers of 2 around them; NY's are shifted up, as its distances reach 10-250 times the grid's
# (a width of 8,192 leaves 12,000 non-empty buckets there).
# One row per engine: graph, delta asked, delta used, buckets asked and used, engine, median ms
# of 3 trials, rounds, arcs relaxed, check. Every run is validated (--validate: Dijkstra and the
# validator); the sssp logs go to LOG_DIR.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$1 work=$2 logs=$3 graphs=$4 limit=${5:-0} parts=${6:-"main sweep"}
mkdir -p "$work" "$logs"
# shellcheck source=graphs.sh
. "$root/bench/sssp/graphs.sh"
start=$SECONDS status=0

one() { # graph file extra delta buckets algos
  local g=$1 file=$2 extra=$3 d=$4 m=$5 algos=$6 log
  if [ "$limit" != 0 ] && [ $((SECONDS - start)) -ge "$limit" ]; then
    echo "time up before $g delta $d buckets $m $algos"; return
  fi
  log="$logs/$g-$d-$m-${algos//,/-}.txt"
  # shellcheck disable=SC2086
  timeout 60 "$build/app/sssp" --graph "$file" --algo "$algos" --delta "$d" --buckets "$m" \
    --trials 3 --seed 1 --validate --cache-dir "$work" $extra > "$log" 2>&1 ||
    { echo "FAILED: $g delta $d buckets $m $algos (see $log)"; status=1; }
  local dv mv
  dv=$(sed -n 's/^delta \([^ ]*\) .*/\1/p' "$log") mv=$(sed -n 's/.*buckets \([0-9]*\) .*/\1/p' "$log")
  grep -E "^(near-far|multisplit|sort|bellman-ford) " "$log" | awk -v g="$g" -v d="$d" -v dv="$dv" \
    -v m="$m" -v mv="$mv" '{printf "%-18s %-7s %10s %-4s %4s %-13s %9s ms rounds %6s relaxed %10s %s\n",
                            g, d, dv, m, mv, $1, $3, $7, $8, $10}'
}

widths() { # graph: "ALL|SWEPT"
  case "$1" in
    grid-1000-log) echo "auto 8192 50672 131072 202688 405376 2097152|auto 50672 405376" ;;
    geo-1M-log) echo "auto 8192 50404 131072 201616 403232 2097152|auto 50404 403232" ;;
    grid-1000-bimodal) echo "auto 256 1040 4096 4160 8320 65536|auto 1040 8320" ;;
    geo-1M-bimodal) echo "auto 256 1040 4160 8320 65536|auto 1040 8320" ;;
    NY-log|BAY-log|COL-log) echo "auto 46104 131072 368832 1475328 8388608|auto 368832 1475328" ;;
    NY-bimodal|BAY-bimodal|COL-bimodal) echo "auto 1040 4096 8320 33280 262144|auto 8320 33280" ;;
    *) echo "auto 256 4096 65536 1048576|auto 65536" ;; # Kronecker and R-MAT
  esac
}
declare -A files extras
for g in $graphs; do
  spec=$(suite_graph "$g" "$build/graph/gen/graphgen" "$work" "$root") || { status=1; continue; }
  files[$g]=${spec%%$'\t'*} extras[$g]=${spec#*$'\t'}
done
for g in $graphs; do
  [ -n "${files[$g]:-}" ] && [[ $parts == *main* ]] || continue
  ws=$(widths "$g")
  for d in ${ws%%|*}; do
    algos=near-far,multisplit,sort
    [ "$d" = auto ] && algos=$algos,bellman-ford
    one "$g" "${files[$g]}" "${extras[$g]}" "$d" auto "$algos"
  done
done
for g in $graphs; do
  [ -n "${files[$g]:-}" ] && [[ $parts == *sweep* ]] || continue
  ws=$(widths "$g")
  for d in ${ws#*|}; do
    for m in 4 16 64 256; do one "$g" "${files[$g]}" "${extras[$g]}" "$d" "$m" multisplit; done
  done
done
exit $status
