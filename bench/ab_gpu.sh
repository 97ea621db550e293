#!/usr/bin/env bash
# An interleaved A/B of the GPU SSSP engines and the primitives between two source trees, on one
# GPU machine, for changes that must not move the speed (refactors, bounded waits):
#   bench/ab_gpu.sh BASE_SRC NEW_SRC OUT [ROUNDS]
# BASE_SRC and NEW_SRC are source trees (e.g. `git archive COMMIT | tar -x -C DIR`); both are
# built with the default preset and the benchmarks on (cJSON from rt/, as device_build.sh), in
# OUT/build-base and OUT/build-new (a tree already built there, app/sssp and the benchmarks, is
# used as it is). Then ROUNDS times (default 2), base then new:
#   - sssp --algo near-far,multisplit,sort --delta auto --buckets 10 --trials 10 --json on NY and
#     COL (bundled) and a Kronecker scale-20 graph (graphgen, made once), each tree with a cache of
#     its own (the cache's format may differ between them);
#   - msplit_bench, sort_bench and segsort_bench on fixed configurations (raw output kept).
# OUT/ab-sssp.txt: per graph and algorithm, each round's median ms for base and new, and
# new / base of their medians; the benches' outputs are OUT/{base,new}-ROUND-*.txt.
set -euo pipefail
base=$(cd "$1" && pwd) new=$(cd "$2" && pwd) out=$3 rounds=${4:-2}
root=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out"
c="$root/rt/root/usr"
export LD_LIBRARY_PATH="$c/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
for v in base new; do
  src=$base; [ $v = new ] && src=$new
  [ -x "$out/build-$v/app/sssp" ] && [ -x "$out/build-$v/primitives/bench/msplit_bench" ] && continue
  cmake --preset default -S "$src" -B "$out/build-$v" -DCJSON_INCLUDE_DIR="$c/include" \
    -DCJSON_LIBRARY="$c/lib/x86_64-linux-gnu/libcjson.so" -DDS_BUILD_TESTS=OFF > "$out/cmake-$v.txt" 2>&1
  cmake --build "$out/build-$v" -j "$(nproc)" > "$out/build-$v.txt" 2>&1 ||
    { grep -E "error" "$out/build-$v.txt" | head -20; exit 1; }
done
kron="$out/kron20.mtx"
[ -f "$kron" ] || "$out/build-new/graph/gen/graphgen" kron --scale 20 --seed 1 -o "$kron" --quiet
graphs=("$new/datasets/NY.mtx.gz" "$new/datasets/COL.mtx.gz" "$kron")
for r in $(seq 1 "$rounds"); do
  for v in base new; do
    b="$out/build-$v"
    for g in "${graphs[@]}"; do
      "$b/app/sssp" --graph "$g" --algo near-far,multisplit,sort --delta auto --buckets 10 --trials 10 \
        --quiet --cache-dir "$out/cache-$v" --json "$out/$v-$r-$(basename "${g%%.*}").json"
    done
    pb="$b/primitives/bench"
    "$pb/msplit_bench" --n 16,28 --m 2,8,16,256 --dist uniform --variants onepass,direct,grid --modes keys,pairs \
      --trials 10 --no-baselines > "$out/$v-$r-msplit.txt" 2>&1
    "$pb/sort_bench" --n 13,28 --configs keys32,bits4,pairs32,keys64 --trials 10 > "$out/$v-$r-sort.txt" 2>&1
    "$pb/segsort_bench" --n 26 --dists len8,len4096,powerlaw,len67108864 --trials 10 --no-cub \
      > "$out/$v-$r-segsort.txt" 2>&1
  done
done
python3 - "$out" "$rounds" > "$out/ab-sssp.txt" <<'PY'
import json, sys, glob, os, statistics
out, rounds = sys.argv[1], int(sys.argv[2])
rows = {}
for v in ("base", "new"):
    for f in sorted(glob.glob(os.path.join(out, f"{v}-*-*.json"))):
        d = json.load(open(f))
        for run in d["runs"]:
            for a in run["algorithms"]:
                rows.setdefault((run["graph"]["name"], a["name"]), {"base": [], "new": []})[v].append(a["mean_median_ms"])
print(f"{'graph':28} {'algorithm':12} {'base ms (rounds)':>28} {'new ms (rounds)':>28} {'new/base':>9}")
for (g, a), m in sorted(rows.items()):
    bm, nm = statistics.median(m["base"]), statistics.median(m["new"])
    fmt = lambda xs: " ".join(f"{x:.3f}" for x in xs)
    print(f"{g:28} {a:12} {fmt(m['base']):>28} {fmt(m['new']):>28} {nm / bm:9.3f}")
PY
cat "$out/ab-sssp.txt"
