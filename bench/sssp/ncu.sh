#!/usr/bin/env bash
# Nsight Compute on one GPU SSSP search (the device keeps nothing, so the report is exported as
# CSV for reading elsewhere):
#   bench/sssp/ncu.sh BUILD_DIR WORK_DIR OUT NAME GRAPH ALGO [KERNEL_REGEX]
# GRAPH is a name of the suite's graph set (graphs.sh). Profiles the first launch of the kernels
# matching KERNEL_REGEX (default: near_far_kernel) in `sssp --algo ALGO --trials 1` and writes
# OUT/NAME-details.csv (speed of light, occupancy, warp states, memory), OUT/NAME-sass.csv (SASS
# with per-instruction samples and stall reasons) and OUT/NAME-cuda.csv (the same per source line).
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$1 work=$2 out=$3 name=$4 graph=$5 algo=$6 regex=${7:-near_far_kernel}
mkdir -p "$work" "$out"
# shellcheck source=graphs.sh
. "$root/bench/sssp/graphs.sh"
spec=$(suite_graph "$graph" "$build/graph/gen/graphgen" "$work" "$root") || exit 1
file=${spec%%$'\t'*} extra=${spec#*$'\t'}
rep="/tmp/$name"
# shellcheck disable=SC2086
ncu --section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats \
  --section SourceCounters --section MemoryWorkloadAnalysis --import-source yes \
  -k "regex:$regex" -c 1 -f -o "$rep" "$build/app/sssp" --graph "$file" --algo "$algo" \
  --delta auto --buckets 10 --trials 1 --seed 1 --cache-dir "$work" $extra \
  > "$out/$name-ncu.log" 2>&1 || {
  tail -20 "$out/$name-ncu.log"; exit 1; }
ncu -i "$rep.ncu-rep" --page details --csv > "$out/$name-details.csv" 2>&1
ncu -i "$rep.ncu-rep" --page source --csv --print-source sass > "$out/$name-sass.csv" 2>&1
ncu -i "$rep.ncu-rep" --page source --csv --print-source cuda > "$out/$name-cuda.csv" 2>&1
