#!/usr/bin/env bash
# One device session's worth of GPU evidence, in one command (the device machine keeps nothing):
#   bench/gpu_check.sh [--build DIR] [--out DIR] [--summary NAME] [--skip-tests] [--skip-sanitizer]
#                      [--msplit "ARGS"] [--sssp] [--ncu "BENCH ARGS"]
# Runs, on a machine with a GPU and a build tree made by `cmake --preset default`:
#   1. the whole CTest suite (GPU tests included)                       -> OUT/ctest.txt
#   2. compute-sanitizer memcheck and racecheck on the quick GPU suites -> OUT/sanitizer.txt
#   3. msplit_bench with the given arguments (JSON)                     -> OUT/msplit.json
#   4. the SSSP suite (bench/sssp/run.sh --quick) if --sssp              -> OUT/sssp-*.json
#   5. ncu on msplit_bench with the given arguments if --ncu            -> OUT/ncu.txt
# (The soak, every GPU suite many times over and several at once, counting stalls, is its
# sibling bench/gpu_soak.sh.)
# and writes OUT/NAME: GPU, commit, CTest summary and the sanitizer summaries. NAME defaults to
# the GPU's model, read at run time, as in bench/results/: MODEL-tests.txt (h100-tests.txt on an
# "NVIDIA H100 80GB HBM3"; unknown-gpu-tests.txt where nvidia-smi names none).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build="$root/build" out="${OUT:-/tmp/gpu-check}" summary_name="" tests=1 san=1 msplit_args="" sssp=0 ncu_args=""
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --summary) summary_name=$2; shift 2 ;;
    --skip-tests) tests=0; shift ;;
    --skip-sanitizer) san=0; shift ;;
    --msplit) msplit_args=$2; shift 2 ;;
    --sssp) sssp=1; shift ;;
    --ncu) ncu_args=$2; shift 2 ;;
    *) echo "usage: $0 [--build DIR] [--out DIR] [--summary NAME] [--skip-tests] [--skip-sanitizer] [--msplit ARGS] [--sssp] [--ncu ARGS]" >&2; exit 2 ;;
  esac
done
mkdir -p "$out"
gpu=$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1)
commit=${DS_COMMIT:-$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)}
[ -n "${DS_COMMIT:-}" ] || git -C "$root" diff --quiet HEAD -- 2>/dev/null || commit="$commit-dirty"
san_bin=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
if [ -z "$summary_name" ]; then
  # the model is the first word after the vendor: "NVIDIA H100 80GB HBM3" -> h100
  model=$(echo "${gpu%%,*}" | sed -e 's/^NVIDIA //' | awk '{print tolower($1)}')
  summary_name="${model:-unknown-gpu}-tests.txt"
fi
summary="$out/$summary_name"
{
  echo "# GPU test evidence: bench/gpu_check.sh"
  echo "gpu: $gpu"
  echo "commit: $commit"
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "cuda: $(nvcc --version 2>/dev/null | tail -1)"
} > "$summary"
rc=0

if [ $tests = 1 ]; then
  echo "== ctest"
  ctest --test-dir "$build" --output-on-failure -j 4 > "$out/ctest.txt" 2>&1 || rc=1
  { echo; echo "## ctest --test-dir build (all tests, GPU included)"; grep -E "tests passed|tests failed|Skipped|Failed|\*\*\*" "$out/ctest.txt"; } >> "$summary"
  tail -5 "$out/ctest.txt"
fi

if [ $san = 1 ]; then
  echo "== compute-sanitizer"
  : > "$out/sanitizer.txt"
  echo >> "$summary"; echo "## compute-sanitizer (quick GPU suites)" >> "$summary"
  # the GPU SSSP suite three times: as it runs, with local steps in every round
  # and on every graph (tests/app/gpu/CMakeLists.txt: gpu_sssp_local_steps), with
  # hub order on nearly every vertex (gpu_sssp_hub_order), and with that and
  # every grid round dense (gpu_sssp_dense_hub_order)
  local_env="DS_GPU_BLOCKS_PER_SM=1 DS_GPU_LOCAL_SOLO=3 DS_GPU_LOCAL_TEAM=3 DS_GPU_LOCAL_GRID=3"
  # (solo rounds up to 256 vertices in both: with the default 32, racecheck of the team and
  # grid rounds that take over ran past 420 s, alone or among the other suites; it ends in about
  # 100 s so. Dense rounds are grid rounds, which the solo limit does not change)
  hub_env="DS_GPU_BLOCKS_PER_SM=2 DS_GPU_HUB_ORDER=8 DS_GPU_HUB_DEGREE=2 DS_GPU_HUGE_DEGREE=256 DS_GPU_SOLO_MAX=256"
  dense_env="$hub_env DS_GPU_DENSE_DIV=4294967295"
  # Each (tool, suite) runs as its own process, all at once: the sanitizers are bound by host
  # instrumentation, so this takes the time of the slowest suite rather than the sum. Logs stay
  # in $logs; failing ones are appended to OUT/sanitizer-failures.log.
  # Under a sanitizer a block's legitimate wait at a barrier is far longer than on its own:
  # the search kernels give up only after 120 s (DS_GPU_STALL_MS) there, and msplit's forced
  # stalls wait 20 s instead of 20 ms (MSPLIT_TEST_STALL_MS).
  # A suite that runs past SAN_TIMEOUT seconds under its tool is stopped and reported as timed
  # out (a failure), so that one slow racecheck cannot hold the device call past its limit.
  san_timeout=${SAN_TIMEOUT:-300}
  # the runs are dealt out over the machine's GPUs: 36 at once on one GPU slowed every other process
  # on it (a soak beside them hit CTest timeouts); over the caller's CUDA_VISIBLE_DEVICES where
  # it chose them
  if [ -n "${CUDA_VISIBLE_DEVICES:-}" ]; then IFS=, read -r -a gpus <<< "$CUDA_VISIBLE_DEVICES"
  else mapfile -t gpus < <(seq 0 $(( $(nvidia-smi -L 2>/dev/null | grep -c "^GPU") - 1 ))); fi
  ngpu=${#gpus[@]}
  logs=$(mktemp -d)
  idx=0
  for tool in memcheck racecheck; do
    for t in "primitives/tests/test_multisplit --quick" "primitives/tests/test_grid_multisplit --quick" \
             "primitives/tests/test_histogram --quick" "primitives/tests/test_radix_sort --quick" \
             "primitives/tests/test_segmented_sort --quick" "primitives/tests/test_slab_hash --quick" \
             "tests/app/gpu/gpu_sssp_test --quick" "local: tests/app/gpu/gpu_sssp_test --quick" \
             "hub: tests/app/gpu/gpu_sssp_test --quick" "dense: tests/app/gpu/gpu_sssp_test --quick" "tests/app/gpu/gpu_batch_test --quick" \
             "tests/app/graph_gpu/test_graph_codes_gpu --sanitize" \
             "tests/app/graph_gpu/test_csr_gpu --sanitize" \
             "primitives/tests/test_grid_barrier --quick" "primitives/tests/test_lookback_stall --quick" \
             "primitives/tests/test_check_sync --quick" "primitives/tests/test_slab_hash_cycle --quick" \
             "primitives/tests/test_records --quick" "primitives/tests/test_lsm --quick" "primitives/tests/test_range_tree --quick" \
             "tests/app/dist/test_dist_gpu --gpus 2 --quick"; do
      idx=$((idx + 1))
      envs=""
      case "$t" in
        "local: "*) envs=$local_env; t=${t#local: } ;;
        "hub: "*) envs=$hub_env; t=${t#hub: } ;;
        "dense: "*) envs=$dense_env; t=${t#dense: } ;;
      esac
      # two ranks take two GPUs; NCCL's own probes (kernels of other architectures, peer access
      # already enabled) reach memcheck as API errors, so that suite counts only kernels' errors,
      # and NCCL's kernels are left uninstrumented (racecheck of them all ran past 424 s)
      two=0 api=""
      case "$t" in *"--gpus 2"*) two=1 api="--report-api-errors no --kernel-name-exclude kns=nccl" ;; esac
      res="$logs/$(printf %02d $idx).txt"
      # a primitive's suite is checked once the primitive is built in this tree
      if [ ! -x "$build/${t%% *}" ]; then echo "$tool ${envs:+$envs }$t: not built" > "$res"; continue; fi
      log="$logs/san-$tool-$(basename ${t%% *})-$idx.log"
      dev=""
      [ "$ngpu" -gt 0 ] && dev="CUDA_VISIBLE_DEVICES=${gpus[$((idx % ngpu))]}"
      [ "$two" = 1 ] && [ "$ngpu" -gt 1 ] && dev="$dev,${gpus[$(((idx + 1) % ngpu))]}"
      (
        # shellcheck disable=SC2086
        timeout "$san_timeout" env $envs $dev DS_GPU_STALL_MS=120000 MSPLIT_TEST_STALL_MS=20000 "$san_bin" --tool $tool $api --error-exitcode 9 $build/$t > "$log" 2>&1
        r=$?
        line=$(grep -E "ERROR SUMMARY|RACECHECK SUMMARY" "$log" | tail -1)
        [ $r = 124 ] && line="timed out after $san_timeout s (SAN_TIMEOUT)"
        { echo "$tool ${envs:+$envs }$t: exit $r: $line"
          grep -E "PASSED|FAILED|failures|tests passed|checks passed|FAIL" "$log" | tail -1; } > "$res"
        [ $r = 0 ] || echo "$log" > "$res.fail"
      ) &
    done
  done
  wait
  # failing logs go into one file (the device machine returns at most 8 files)
  for f in "$logs"/*.fail; do
    [ -e "$f" ] || continue
    l=$(cat "$f")
    { echo "==== $(basename "$l")"; cat "$l"; } >> "$out/sanitizer-failures.log"
  done
  for res in "$logs"/[0-9]*.txt; do
    head -1 "$res" >> "$out/sanitizer.txt"
    cat "$res" >> "$summary"
    grep -q ": exit 0: " "$res" || grep -q ": not built" "$res" || rc=1
  done
  rm -rf "$logs"
  cat "$out/sanitizer.txt"
fi

if [ -n "$msplit_args" ]; then
  echo "== msplit_bench $msplit_args"
  # shellcheck disable=SC2086
  "$build/primitives/bench/msplit_bench" $msplit_args --commit "$commit" --json "$out/msplit.json" \
    > "$out/msplit.txt" 2>&1 || rc=1
  tail -40 "$out/msplit.txt"
fi

if [ $sssp = 1 ]; then
  echo "== sssp suite"
  bash "$root/bench/sssp/run.sh" --out "$out" --quick > "$out/sssp.txt" 2>&1 || rc=1
  tail -40 "$out/sssp.txt"
fi

if [ -n "$ncu_args" ]; then
  echo "== ncu"
  # shellcheck disable=SC2086
  ncu --section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats \
      --section MemoryWorkloadAnalysis -k regex:multisplit "$build/primitives/bench/msplit_bench" $ncu_args \
      > "$out/ncu.txt" 2>&1 || rc=1
  grep -E "multisplit_|Duration|Throughput|Registers|Achieved Occupancy|Stall|Block Limit" "$out/ncu.txt" | head -60
fi
echo "rc=$rc"
exit $rc
