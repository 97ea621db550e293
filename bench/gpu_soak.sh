#!/usr/bin/env bash
# The GPU soak: every GPU suite of the CTest tree many times over, several at once (each suite
# beside the others on the same GPU), counting stalls. Usage, on a machine with a GPU and a build
# tree made by `cmake --preset default`:
#   bench/gpu_soak.sh [--build DIR] [--out DIR] [--reps N] [--jobs J] [--tests REGEX] [--summary NAME]
#                     [--gpus G]
# Runs `ctest -L gpu` (or -R REGEX) N times (default 20) with J suites at once (default 6), and
# writes OUT/NAME (default MODEL-soak.txt, as gpu_check.sh names its summary): the GPU, commit,
# and per suite its runs, passes, failures, stalls and its fastest, median and slowest time.
# With --gpus G (default 1) the N runs are shared out over the machine's first G GPUs of the
# same model, one stream of ctest runs per GPU (CUDA_VISIBLE_DEVICES), J suites at once on each:
# a soak of 20 runs takes a quarter of the time on four GPUs. Tests that need more GPUs than
# one skip there.
# A stall is a run that reports "the GPU search stalled" (the kernels' bounded waits gave up:
# app/gpu/barriers.cuh) or that CTest stopped at its timeout (a wait that nothing bounded).
# Exit 0 when every run passed.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build="$root/build" out="${OUT:-/tmp/gpu-soak}" reps=20 jobs=6 select=(-L gpu) name="" gpus=1
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --reps) reps=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    --tests) select=(-R "$2"); shift 2 ;;
    --summary) name=$2; shift 2 ;;
    --gpus) gpus=$2; shift 2 ;;
    *) echo "usage: $0 [--build DIR] [--out DIR] [--reps N] [--jobs J] [--tests REGEX] [--summary NAME] [--gpus G]" >&2
       exit 2 ;;
  esac
done
mkdir -p "$out"
gpu=$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1)
commit=${DS_COMMIT:-$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)}
if [ -z "$name" ]; then
  model=$(echo "${gpu%%,*}" | sed -e 's/^NVIDIA //' | awk '{print tolower($1)}')
  name="${model:-unknown-gpu}-soak.txt"
fi
runs="$out/soak-runs.txt" # one line per suite run: gpu:rep, name, status, seconds, stalled
: > "$runs"
logs=$(mktemp -d)
start=$(date +%s)
# OUT/NAME from the runs so far (after every rep, so that a run stopped at a time limit keeps
# what it did)
write_summary() {
  elapsed=$(( $(date +%s) - start ))
  summary="$out/$name"
  cat "$logs"/runs-* > "$runs" 2>/dev/null
  done_reps=$(awk '{print $1}' "$runs" | sort -u | wc -l)
  {
    echo "# GPU soak: bench/gpu_soak.sh --reps $reps (done: $done_reps) --gpus $gpus --jobs $jobs ${select[*]}"
    echo "gpu: $gpu (x $gpus: $jobs suites at once on each)"
    echo "commit: $commit"
    echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "wall: ${elapsed} s"
    printf "%-32s %5s %5s %5s %6s %8s %8s %8s\n" suite runs pass fail stalls "min s" "median s" "max s"
    awk '{n[$2]++; if ($3=="Passed") p[$2]++; else if ($3!="***Skipped") f[$2]++; s[$2]+=$5; t[$2]=t[$2] " " $4}
         END {for (k in n) print k, n[k], p[k]+0, f[k]+0, s[k]+0, t[k]}' "$runs" | sort |
      while read -r suite n p f s times; do
        sorted=$(echo "$times" | tr ' ' '\n' | grep -v '^$' | sort -g)
        cnt=$(echo "$sorted" | wc -l)
        min=$(echo "$sorted" | head -1) max=$(echo "$sorted" | tail -1)
        med=$(echo "$sorted" | sed -n "$(( (cnt + 1) / 2 ))p")
        printf "%-32s %5d %5d %5d %6d %8s %8s %8s\n" "$suite" "$n" "$p" "$f" "$s" "$min" "$med" "$max"
      done
    awk '{n++; if ($3!="Passed" && $3!="***Skipped") f++; s+=$5} END {printf "total: %d runs, %d failed, %d stalls\n", n, f, s}' "$runs"
  } > "$summary"
}
# what a stalled run prints: a bounded wait that gave up (the SSSP and k-core kernels, msplit)
stall_re="the GPU search stalled|the GPU k-core stalled|gave up waiting"
# One rep of stream g (GPU g): ctest once, its runs appended to the stream's file.
one_rep() {
  local g=$1 rep=$2 id="$1:$2" log="$logs/log-$1-$2.txt" runs_g="$logs/runs-$1"
  CUDA_VISIBLE_DEVICES=$g ctest --test-dir "$build" "${select[@]}" -j "$jobs" --output-on-failure > "$log" 2>&1
  # "  12/40 Test  #7: gpu_sssp_dense ....   Passed   33.41 sec" (or ***Failed, ***Timeout)
  grep -E "^ *[0-9]+/[0-9]+ Test +#[0-9]+: " "$log" | sed -E 's/^ *[0-9]+\/[0-9]+ Test +#[0-9]+: //' |
    while read -r test rest; do
      status=$(echo "$rest" | grep -oE "Passed|\*\*\*Failed|\*\*\*Timeout|\*\*\*Skipped|Not Run|Exception" | head -1)
      secs=$(echo "$rest" | grep -oE "[0-9.]+ sec" | awk '{print $1}')
      [ "$status" = "Not Run" ] && status=NotRun
      stalled=0
      [ "$status" = "***Timeout" ] && stalled=1
      # a watchdog's report is in the failure output that follows the suite's line
      [ "$status" = "***Failed" ] &&
        awk -v t="$test" '/Test +#[0-9]+: /{c=$0; sub(/.*Test +#[0-9]+: /,"",c); sub(/ .*/,"",c)}
                          c==t && /'"$stall_re"'/{f=1} END{exit !f}' "$log" && stalled=1
      echo "$id $test ${status:-unknown} ${secs:-0} $stalled"
    done >> "$runs_g"
  grep -qE "$stall_re|\*\*\*Timeout" "$log" && cp "$log" "$out/soak-stall-gpu$g-rep$rep.log"
  echo "gpu $g rep $rep: $(grep -E 'tests passed|tests failed' "$log")"
}
# Stream g runs reps g, g + gpus, ... of the total
stream() {
  local g=$1
  : > "$logs/runs-$g"
  for rep in $(seq $((g + 1)) "$gpus" "$reps"); do
    one_rep "$g" "$rep"
    write_summary
  done
}
for g in $(seq 0 $((gpus - 1))); do
  stream "$g" &
done
wait
write_summary
cat "$out/$name"
rm -rf "$logs"
awk '$3!="Passed" && $3!="***Skipped"{bad=1} END{exit bad}' "$runs"
