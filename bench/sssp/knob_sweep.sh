#!/usr/bin/env bash
# Sweep of the GPU SSSP tuning knobs (environment variables read by
# app/sssp/gpu/context.cu; experiments only) over chosen graphs of the suite.
#   bench/sssp/knob_sweep.sh BUILD_DIR WORK_DIR OUT_DIR "CONFIGS" "GRAPHS" [ALGOS]
#     CONFIGS  ';'-separated sets of NAME=VALUE settings ("" = the defaults), e.g.
#              "DS_GPU_SOLO_MAX=0;DS_GPU_SOLO_MAX=256 DS_GPU_DYNAMIC_TILES=1"
#     GRAPHS   names of the suite's graph set (graphs.sh): kron20 kron22 rmat-thesis
#              grid-1000 geo-1M NY BAY COL (generated into WORK_DIR)
#     ALGOS    sssp --algo list (default near-far,multisplit,sort,bellman-ford)
#   TRACE=1 also writes the per-round trace of near-far / bellman-ford
#   (DS_GPU_TRACE) to OUT_DIR/trace-GRAPH-CONFIGINDEX.txt.
# Knobs (read by app/sssp/gpu_options.c; defaults and their measurements in app/sssp/gpu/tuning.cuh): DS_GPU_SOLO_MAX, DS_GPU_TEAM_BLOCKS, DS_GPU_TEAM_MAX,
# DS_GPU_SOLO_LOCAL (0/1), DS_GPU_MIN_TILE, DS_GPU_RANK_BLOCKS (0/1), DS_GPU_DYNAMIC_TILES
# (0/1/2), DS_GPU_BLOCKS_PER_SM, DS_GPU_HUGE_DEGREE, DS_GPU_SPILL_LIMIT, DS_GPU_LOCAL_SOLO,
# DS_GPU_LOCAL_TEAM, DS_GPU_LOCAL_GRID (local steps per round, one block per SM only),
# DS_GPU_LOCAL_ORDER (0 by density, 1 off, k), DS_GPU_HUB_ORDER (0 by the graph, 1 off, k), DS_GPU_HUB_DEGREE,
# DS_GPU_DENSE_DIV (0 default, 1 off, k: dense grid rounds from n / k vertices). Every run is validated (--validate).
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$1 work=$2 out=$3 configs=$4 graphs=$5 algos=${6:-near-far,multisplit,sort,bellman-ford}
mkdir -p "$work" "$out"
# shellcheck source=graphs.sh
. "$root/bench/sssp/graphs.sh"
status=0
IFS=';' read -r -a cfgs <<< "$configs"
[ ${#cfgs[@]} -eq 0 ] && cfgs=("")
for g in $graphs; do
  spec=$(suite_graph "$g" "$build/graph/gen/graphgen" "$work" "$root") || { status=1; continue; }
  file=${spec%%$'\t'*} extra=${spec#*$'\t'}
  for i in "${!cfgs[@]}"; do
    cfg=${cfgs[$i]}
    trace=()
    [ "${TRACE:-0}" = 1 ] && trace=("DS_GPU_TRACE=$out/trace-$g-$i.txt")
    log="$out/knob-$g-$i.txt"
    # shellcheck disable=SC2086
    env $cfg "${trace[@]}" "$build/app/sssp_lab" --graph "$file" --algo "$algos" --delta auto \
      --buckets 10 --trials 5 --seed 1 --validate --cache-dir "$work" --json "$out/knob-$g-$i.json" \
      $extra > "$log" 2>&1 || { echo "FAILED: $g [$cfg] (see $log)"; status=1; }
    printf '%-12s [%s] ' "$g" "${cfg:-defaults}"
    grep -E "^ *(near-far|multisplit|sort|bellman-ford) " "$log" | awk '{printf "%s %s (%s r, %.2fM e)  ", $1, $3, $7, $8 / 1e6}'
    echo
  done
done
exit $status
