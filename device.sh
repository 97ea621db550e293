#!/usr/bin/env bash
# The round variants of the GPU SSSP on the H100: are road rounds cheaper with
#   stop50   DS_GPU_TEAM_STOP=50     team blocks end their local steps once half the busy ones wait
#   cap64    DS_GPU_LOCAL_CAP=64     a block keeps at most 64 vertices per local step
#   ord16    DS_GPU_LOCAL_ORDER=16   local steps in distance order, windows of delta / 16
#   ord64    DS_GPU_LOCAL_ORDER=64   the same, windows of delta / 64 (NY: 511, ~4 mean weights)
#   rows     DS_GPU_LOCAL_ROWS=1     a local step loads the rows of the targets it keeps only
#   combo    DS_GPU_TEAM_STOP=50 DS_GPU_LOCAL_ORDER=16 DS_GPU_LOCAL_ROWS=1
# against the defaults (base)? Run on the GPU machine from /work/main, with this
# worktree and rt/ (cJSON, bench/device_build.sh says how it is made) carried along:
#   bash xfer/wt-rounds/device.sh            ($OUT: where the 3 result files go)
# 1. builds the worktree (sssp, graphgen, gpu_sssp_test; Release, sm_90) into /work/main/build-rounds
#    (outside the carried worktree, so a second call on a warm machine rebuilds only what changed);
# 2. runs the GPU SSSP test (--quick, with the bundled roads) under each variant;
# 3. times NY, BAY, COL, grid-1000 and geo-1M with near-far and multisplit, delta auto,
#    9 trials, validated, the configurations interleaved, as many passes as the time allows;
# 4. if time is left, one ncu profile of near_far_kernel on NY: base and the fastest variant.
# Files: $OUT/summary.txt (the table, test results), $OUT/log.txt (every command's output),
# $OUT/ncu.txt (ncu's details pages). Stops starting work at BUDGET_S seconds (default 280).
# STEPS=test,time,ncu (default) picks steps 2-4; e.g. STEPS=test, then STEPS=time,ncu in a second
# call if one does not fit. For a dry run elsewhere: BUILD_DIR=an existing build (skips step 1),
# GRAPHS="NY BAY".
set -uo pipefail
t0=$SECONDS
budget=${BUDGET_S:-280}
wt=$(cd "$(dirname "$0")" && pwd)
main=$(cd "$wt/../.." && pwd)
out=${OUT:-$wt/out}
mkdir -p "$out"
sum=$out/summary.txt log=$out/log.txt
: > "$sum"
: > "$log"
say() { echo "$*" | tee -a "$sum"; }
left() { echo $((budget - (SECONDS - t0))); }
build=${BUILD_DIR:-$main/build-rounds}
want() { [[ ",${STEPS:-test,time,ncu}," == *",$1,"* ]]; }
work=/tmp/ds-rounds
mkdir -p "$work"
commit=${COMMIT:-$(git -C "$wt" rev-parse --short HEAD 2>/dev/null || echo unknown)}
say "# round variants, commit $commit, $(nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader 2>/dev/null)"

# 1. build
c=$main/rt/root/usr
export LD_LIBRARY_PATH=$c/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
[ -n "${BUILD_DIR:-}" ] || {
  cmake --preset default -S "$wt" -B "$build" -DDS_COMMIT_OVERRIDE="$commit" -DDS_BUILD_BENCH=OFF \
    -DMSPLIT_BUILD_BENCH=OFF -DCJSON_INCLUDE_DIR="$c/include" \
    -DCJSON_LIBRARY="$c/lib/x86_64-linux-gnu/libcjson.so" &&
    cmake --build "$build" -j 16 --target sssp graphgen gpu_sssp_test
} >> "$log" 2>&1 || { say "BUILD FAILED (log.txt)"; grep -E "error" "$log" | head -20 | tee -a "$sum"; exit 1; }
sssp=$build/app/sssp gen=$build/graph/gen/graphgen test=$build/tests/app/gpu/gpu_sssp_test
say "built in $((SECONDS - t0)) s: $sssp"

names=(base stop50 cap64 ord16 ord64 rows combo)
envs=("" "DS_GPU_TEAM_STOP=50" "DS_GPU_LOCAL_CAP=64" "DS_GPU_LOCAL_ORDER=16" "DS_GPU_LOCAL_ORDER=64"
  "DS_GPU_LOCAL_ROWS=1" "DS_GPU_TEAM_STOP=50 DS_GPU_LOCAL_ORDER=16 DS_GPU_LOCAL_ROWS=1")

# the generated graphs, on the CPU while the tests run
# shellcheck source=bench/sssp/graphs.sh
. "$wt/bench/sssp/graphs.sh"
read -r -a graphs <<< "${GRAPHS:-NY BAY COL grid-1000 geo-1M}"
(for g in "${graphs[@]}"; do suite_graph "$g" "$gen" "$work" "$wt" > /dev/null 2>> "$work/gen.log"; done) &
genpid=$!

# 2. the test: the defaults, the ctest entries' harsh settings (tests/app/gpu/CMakeLists.txt)
#    and all variants at once on small teams, then the timed variants (the timings below
#    validate every search too)
say "## gpu_sssp_test --quick --datasets (exit 0 = passed, 124 = timed out)"
tests=(""
  "DS_GPU_BLOCKS_PER_SM=1 DS_GPU_LOCAL_SOLO=5 DS_GPU_LOCAL_TEAM=5 DS_GPU_LOCAL_GRID=5 DS_GPU_LOCAL_ORDER=64 DS_GPU_LOCAL_CAP=16 DS_GPU_LOCAL_ROWS=1 DS_GPU_SPILL_LIMIT=100"
  "DS_GPU_BLOCKS_PER_SM=1 DS_GPU_SOLO_MAX=8 DS_GPU_TEAM_BLOCKS=3 DS_GPU_TEAM_MAX=64 DS_GPU_MIN_TILE=1 DS_GPU_LOCAL_SOLO=3 DS_GPU_LOCAL_TEAM=6 DS_GPU_LOCAL_GRID=3 DS_GPU_TEAM_STOP=1 DS_GPU_SPILL_LIMIT=100"
  "DS_GPU_BLOCKS_PER_SM=1 DS_GPU_SOLO_MAX=8 DS_GPU_TEAM_BLOCKS=3 DS_GPU_TEAM_MAX=64 DS_GPU_MIN_TILE=1 DS_GPU_LOCAL_SOLO=3 DS_GPU_LOCAL_TEAM=6 DS_GPU_LOCAL_GRID=3 DS_GPU_TEAM_STOP=1 DS_GPU_LOCAL_ORDER=64 DS_GPU_LOCAL_CAP=32 DS_GPU_LOCAL_ROWS=1 DS_GPU_SPILL_LIMIT=100"
  "${envs[@]:1}")
want test || tests=()
for t in "${!tests[@]}"; do
  e=${tests[$t]}
  # the defaults and the harsh settings first, while 90 s are left; the rest while 150 s are
  [ "$(left)" -gt $((t < 4 ? 90 : 150)) ] || { say "skipped (time): [$e]"; continue; }
  s=$SECONDS
  echo "== test [$e]" >> "$log"
  # shellcheck disable=SC2086
  env $e timeout 40 "$test" --quick --datasets "$wt/datasets" >> "$log" 2>&1
  say "exit $? in $((SECONDS - s)) s: [${e:-defaults}]"
done

# 3. timings, interleaved: every configuration of a graph once per pass
wait "$genpid"
cat "$work/gen.log" >> "$log" 2> /dev/null
declare -A res
declare -A file extra
for g in "${graphs[@]}"; do
  spec=$(suite_graph "$g" "$gen" "$work" "$wt" 2>> "$log") || { say "no graph $g"; continue; }
  file[$g]=${spec%%$'\t'*}
  extra[$g]=${spec#*$'\t'}
done
say "graphs ready at $((SECONDS - t0)) s"
pass=0
while want time && [ "$(left)" -gt 60 ] && [ $pass -lt 3 ]; do
  pass=$((pass + 1))
  for g in "${graphs[@]}"; do
    [ -n "${file[$g]:-}" ] || continue
    for i in "${!names[@]}"; do
      [ "$(left)" -gt 15 ] || break 3
      # at most 60 s, and never past the budget: a variant that hangs must not take the
      # call past its limit before the table below is written
      tmo=$(($(left) - 5))
      [ "$tmo" -le 60 ] || tmo=60
      echo "== pass $pass $g ${names[$i]} [${envs[$i]}]" >> "$log"
      # shellcheck disable=SC2086
      r=$(env ${envs[$i]} timeout "$tmo" "$sssp" --graph "${file[$g]}" ${extra[$g]} --algo near-far,multisplit \
        --delta auto --trials 9 --seed 1 --validate --cache-dir "$work" 2>&1)
      st=$?
      echo "$r" >> "$log"
      # the result table: name sources ms [min, max] MTEPS rounds edges speedup validation
      line=$(echo "$r" | awk -v st=$st '$1 == "near-far" || $1 == "multisplit" {
          v = ($NF == "passed") ? "" : "!"; printf "%s %.3f %d %.2f%s ", $1, $3, $7, $8 / 1e6, v }
        END { if (st) printf "exit%d", st }')
      [ $st -eq 0 ] || echo "FAILED (exit $st): pass $pass $g ${names[$i]}" | tee -a "$sum"
      res[$g,$i]="${res[$g,$i]:-}|$line"
    done
  done
done
say "## ms (rounds, M arcs relaxed) per pass; '!' not validated; graph arcs: NY 0.73M BAY 0.80M COL 1.04M grid 4.0M geo 8.0M"
best=base bestms=999
for g in "${graphs[@]}"; do
  for i in "${!names[@]}"; do
    row=$(echo "${res[$g,$i]:-}" | tr '|' '\n' | awk 'NF {
        for (k = 1; k + 3 <= NF; k += 4) { a[$k] = a[$k] sprintf("%s%.2f", (a[$k] ? "/" : ""), $(k + 1)); r[$k] = $(k + 2); e[$k] = $(k + 3) } }
      END { printf "nf %s (%s r, %s M)  ms %s (%s r, %s M)", a["near-far"], r["near-far"], e["near-far"],
            a["multisplit"], r["multisplit"], e["multisplit"] }')
    say "$(printf '%-10s %-9s %s' "$g" "${names[$i]}" "$row")"
    if [ "$g" = NY ] && [ "$i" -gt 0 ]; then
      ms=$(echo "$row" | awk '{ split($2, t, "/"); print t[1] }')
      if awk -v a="$ms" -v b="$bestms" 'BEGIN { exit !(a + 0 > 0 && a + 0 < b + 0) }'; then best=$i bestms=$ms; fi
    fi
  done
done
say "timed in $pass pass(es), at $((SECONDS - t0)) s"

# 4. ncu on NY, base and the fastest variant on NY (near-far, first pass)
if want ncu && [ "$(left)" -gt 70 ] && command -v ncu > /dev/null && [ "$best" != base ]; then
  : > "$out/ncu.txt"
  for i in 0 "$best"; do
    [ "$(left)" -gt 30 ] || break
    echo "#### ncu near_far_kernel NY ${names[$i]} [${envs[$i]}]" >> "$out/ncu.txt"
    # shellcheck disable=SC2086
    env ${envs[$i]} timeout $(($(left) - 10)) ncu --section SpeedOfLight --section WarpStateStats \
      --section MemoryWorkloadAnalysis --section SourceCounters -k regex:near_far_kernel -c 1 \
      "$sssp" --graph "${file[NY]}" ${extra[NY]} --algo near-far --delta auto --trials 1 --seed 1 \
      --cache-dir "$work" >> "$out/ncu.txt" 2>&1
  done
  say "ncu: base and ${names[$best]} in ncu.txt, at $((SECONDS - t0)) s"
fi
say "done in $((SECONDS - t0)) s"
