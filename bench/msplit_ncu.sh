#!/usr/bin/env bash
# Profile msplit_bench's kernels with Nsight Compute on the GPU machine (the device keeps nothing,
# so reports are exported as CSV for reading elsewhere):
#   bench/msplit_ncu.sh BENCH OUT NAME "BENCH ARGS" [KERNEL_REGEX] [COUNT]
# writes OUT/NAME-details.csv (speed of light, occupancy, launch, warp states, memory) and
# OUT/NAME-src-K.csv (SASS with per-instruction samples and stall reasons) for each kernel K
# matched (default regex: multisplit_; the first COUNT launches, default 3).
set -uo pipefail
bench=$1 out=$2 name=$3 args=$4 regex=${5:-multisplit_} count=${6:-3}
mkdir -p "$out"
rep="/tmp/$name"
# shellcheck disable=SC2086
ncu --section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats \
  --section SourceCounters --section MemoryWorkloadAnalysis --import-source yes \
  -k "regex:$regex" -c "$count" -f -o "$rep" "$bench" $args > "$out/$name-ncu.log" 2>&1 || {
  tail -20 "$out/$name-ncu.log"; exit 1; }
ncu -i "$rep.ncu-rep" --page details --csv > "$out/$name-details.csv" 2>&1
for k in histogram onesweep tile bucket_starts; do
  ncu -i "$rep.ncu-rep" -k "regex:$k" --page source --csv --print-source sass > "$out/$name-src-$k.csv" 2>/dev/null || true
  [ -s "$out/$name-src-$k.csv" ] || rm -f "$out/$name-src-$k.csv"
done
