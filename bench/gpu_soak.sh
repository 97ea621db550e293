#!/usr/bin/env bash
# The GPU soak: every GPU suite of the CTest tree many times over, several at once (each suite
# beside the others on the same GPU), counting stalls. Usage, on a machine with a GPU and a build
# tree made by `cmake --preset default`:
#   bench/gpu_soak.sh [--build DIR] [--out DIR] [--reps N] [--jobs J] [--tests REGEX] [--summary NAME]
#                     [--gpus G] [--minutes M]
# Runs every suite of `ctest -L gpu` (or -R REGEX) N times (default 20), J runs at once (default 4)
# on each GPU, and writes OUT/NAME (default MODEL-soak.txt, as gpu_check.sh names its summary):
# the GPU, commit, and per suite its runs, passes, failures, stalls and its fastest, median and
# slowest time. The runs are a pool, not rounds of ctest: a slot that frees takes the next run at
# once, so a long suite never leaves the others waiting for it. Rep r's runs queue before rep
# r + 1's, so the counts stay even when a run is stopped early.
# With --gpus G (default 1) the runs are shared out over the machine's first G GPUs, one pool per
# GPU (CUDA_VISIBLE_DEVICES): a soak of 20 reps takes half the time on two. Suites of several
# ranks (label dist: NCCL, sssp --gpus, mpirun) see all G GPUs, beside the pools' runs.
# J stays below 5: a GPU suite's CTest timeout is 5x its time alone, and J suites that all keep
# the GPU busy each run up to J times slower (8 at once stopped the SSSP suites at their
# timeouts while they still passed graph after graph); the soak's time is bound by the GPUs'
# work, not by J.
# --minutes M ends the soak after M minutes: a run starts only if its suite's slowest time so far
# fits before the end. A soak resumes in OUT: the runs already in OUT/soak-runs.txt count, and
# each suite runs until it has N (so that a soak longer than one call of a lent machine goes on in
# the next; copy the file back into OUT first).
# A stall is a run that reports "the GPU search stalled" (the kernels' bounded waits gave up:
# app/sssp/gpu/barriers.cuh), "the GPU k-core stalled" or "gave up waiting" (msplit's waits), or that
# CTest stopped at its timeout (a wait that nothing bounded).
# Exit 0 when every run passed.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build="$root/build" out="${OUT:-/tmp/gpu-soak}" reps=20 jobs=4 select=(-L gpu) name="" gpus=1
minutes=0
usage="usage: $0 [--build DIR] [--out DIR] [--reps N] [--jobs J] [--tests REGEX] [--summary NAME] [--gpus G] [--minutes M]"
while [ $# -gt 0 ]; do
  [ $# -ge 2 ] || { echo "$usage" >&2; exit 2; }
  case "$1" in
    --build) build=$2 ;;
    --out) out=$2 ;;
    --reps) reps=$2 ;;
    --jobs) jobs=$2 ;;
    --tests) select=(-R "$2") ;;
    --summary) name=$2 ;;
    --gpus) gpus=$2 ;;
    --minutes) minutes=$2 ;;
    *) echo "$usage" >&2; exit 2 ;;
  esac
  shift 2
done
if [ "$jobs" -ge 5 ]; then
  echo "--jobs $jobs: at 5 runs a GPU and more, a suite can reach its timeout (5x its time alone) by sharing the GPU; use 4 or fewer" >&2
  exit 2
fi
mkdir -p "$out"
gpu=$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1)
commit=${DS_COMMIT:-$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)}
if [ -z "$name" ]; then
  model=$(echo "${gpu%%,*}" | sed -e 's/^NVIDIA //' | awk '{print tolower($1)}')
  name="${model:-unknown-gpu}-soak.txt"
fi
# the suites, slowest first (by their CTest cost data, when an earlier run left it)
suites=$(ctest --test-dir "$build" "${select[@]}" -N | sed -nE 's/^ *Test +#[0-9]+: +([^ ]+).*/\1/p')
[ -n "$suites" ] || { echo "no test matches ${select[*]} in $build" >&2; exit 2; }
multi=$(ctest --test-dir "$build" -L dist -N | sed -nE 's/^ *Test +#[0-9]+: +([^ ]+).*/\1/p' | tr '\n' ' ')
all_gpus=$(seq -s, 0 $((gpus - 1)))
export multi all_gpus
costs="$build/Testing/Temporary/CTestCostData.txt"
if [ -f "$costs" ]; then
  suites=$(for s in $suites; do
             echo "$(awk -v s="$s" '$1==s{print $3; f=1} END{if(!f) print 0}' "$costs") $s"
           done | sort -gr | awk '{print $2}')
fi
runs="$out/soak-runs.txt" # one line per suite run: gpu:rep, name, status, seconds, stalled
touch "$runs"
logs=$(mktemp -d)
export build logs out runs
deadline=0
[ "$minutes" -gt 0 ] && deadline=$(( $(date +%s) + 60 * minutes ))
export deadline
start=$(date +%s)
# what a stalled run prints: a bounded wait that gave up (the SSSP and k-core kernels, msplit)
export stall_re="the GPU search stalled|the GPU k-core stalled|gave up waiting"
# One run of a suite on GPU g, its line appended to the pool's file.
one_run() {
  local g=$1 rep=$2 test=$3 log="$logs/log-$1-$2-$3.txt"
  if [ "$deadline" -gt 0 ]; then
    local slowest
    slowest=$(cat "$runs" "$logs"/runs-* 2>/dev/null | awk -v t="$test" '$2==t && $4>m{m=$4} END{printf "%d", m + 1}')
    [ $(( $(date +%s) + slowest )) -le "$deadline" ] || return 0
  fi
  # a suite of several ranks (label dist) sees every GPU of the soak, the others their pool's
  local visible=$g
  case " $multi " in *" $test "*) visible=$all_gpus ;; esac
  CUDA_VISIBLE_DEVICES=$visible ctest --test-dir "$build" -R "^$test\$" --output-on-failure > "$log" 2>&1
  # "1/1 Test  #7: gpu_sssp_dense ....   Passed   33.41 sec" (or ***Failed, ***Timeout)
  local line status secs stalled=0
  line=$(grep -E "^ *[0-9]+/[0-9]+ Test +#[0-9]+: " "$log" | head -1)
  status=$(echo "$line" | grep -oE "Passed|\*\*\*Failed|\*\*\*Timeout|\*\*\*Skipped|Not Run|Exception" | head -1)
  secs=$(echo "$line" | grep -oE "[0-9.]+ sec" | awk '{print $1}')
  [ "$status" = "Not Run" ] && status=NotRun
  [ "$status" = "***Timeout" ] && stalled=1
  grep -qE "$stall_re" "$log" && [ "$status" != "Passed" ] && stalled=1
  echo "$g:$rep $test ${status:-unknown} ${secs:-0} $stalled" >> "$logs/runs-$g"
  if [ "$stalled" = 1 ]; then cp "$log" "$out/soak-stall-gpu$g-rep$rep-$test.log"
  elif [ "$status" != "Passed" ] && [ "$status" != "***Skipped" ]; then cp "$log" "$out/soak-fail-gpu$g-rep$rep-$test.log"; fi
  rm -f "$log"
}
export -f one_run
# OUT/NAME from the runs so far (every half minute, so that a call stopped at its time limit
# keeps what it did)
write_summary() {
  elapsed=$(( $(date +%s) - start ))
  local all summary="$out/$name"
  all=$(mktemp)
  cat "$runs" "$logs"/runs-* > "$all" 2>/dev/null
  done_reps=$(awk '{split($1, a, ":"); print a[2]}' "$all" | sort -u | wc -l)
  {
    echo "# GPU soak: bench/gpu_soak.sh --reps $reps (reps begun: $done_reps) --gpus $gpus --jobs $jobs ${select[*]}"
    echo "gpu: $gpu (x $gpus: $jobs runs at once on each)"
    echo "commit: $commit"
    echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "wall: ${elapsed} s (this call)"
    printf "%-32s %5s %5s %5s %6s %8s %8s %8s\n" suite runs pass fail stalls "min s" "median s" "max s"
    awk '{n[$2]++; if ($3=="Passed") p[$2]++; else if ($3!="***Skipped") f[$2]++; s[$2]+=$5; t[$2]=t[$2] " " $4}
         END {for (k in n) print k, n[k], p[k]+0, f[k]+0, s[k]+0, t[k]}' "$all" | sort |
      while read -r suite n p f s times; do
        sorted=$(echo "$times" | tr ' ' '\n' | grep -v '^$' | sort -g)
        cnt=$(echo "$sorted" | wc -l)
        min=$(echo "$sorted" | head -1) max=$(echo "$sorted" | tail -1)
        med=$(echo "$sorted" | sed -n "$(( (cnt + 1) / 2 ))p")
        printf "%-32s %5d %5d %5d %6d %8s %8s %8s\n" "$suite" "$n" "$p" "$f" "$s" "$min" "$med" "$max"
      done
    awk '{n++; if ($3!="Passed" && $3!="***Skipped") f++; s+=$5} END {printf "total: %d runs, %d failed, %d stalls\n", n, f, s}' "$all"
  } > "$summary.tmp" && mv "$summary.tmp" "$summary"
  rm -f "$all"
}
# What each suite still needs (N less its runs in OUT), dealt out in turns: turn i holds every suite
# that needs an i-th run, slowest first, on GPU (i - 1) mod G; each GPU's pool takes its turns in order.
queue=$(for s in $suites; do
          echo "$s $(awk -v t="$s" '$2==t{n++} END{print n+0}' "$runs")"
        done | awk -v reps="$reps" -v gpus="$gpus" '
          {name[NR] = $1; done_[NR] = $2; k = NR}
          END {for (i = 1; i <= reps; i++)
                 for (j = 1; j <= k; j++)
                   if (done_[j] + i <= reps) print (i - 1) % gpus, done_[j] + i, name[j]}')
pools=()
for g in $(seq 0 $((gpus - 1))); do
  echo "$queue" | awk -v g="$g" '$1==g' | xargs -P "$jobs" -L 1 bash -c 'one_run "$@"' _ &
  pools+=($!)
done
(while sleep 30; do write_summary; done) &
ticker=$!
wait "${pools[@]}"
kill "$ticker" 2>/dev/null
cat "$logs"/runs-* >> "$runs" 2>/dev/null
rm -f "$logs"/runs-*
write_summary
cat "$out/$name"
rm -rf "$logs"
awk '$3!="Passed" && $3!="***Skipped"{bad=1} END{exit bad}' "$runs"
