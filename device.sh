#!/usr/bin/env bash
# cpu-delta on the GPU machine's host cores, against the commit before the two-barrier rounds
# (BASE), with a delta sweep and the tuning limits as A/B variants of one build.
#   bash xfer/wt-cpu/device.sh            (from /work/main; writes under $OUT, else /tmp/ds-cpu-out)
# Needs rt/ (cJSON, as bench/device_build.sh) and xfer/wt-cpu carried; BASE is built from the
# worktree's git objects where they came along (else no "old" column).
# Builds this tree and BASE (CPU only, sssp and graphgen) in /tmp, generates Kronecker scale 18
# and 20 (weights 1..255, as the suite), and times `sssp --algo cpu-delta --threads $THREADS
# --trials $TRIALS` (median, ms) on NY, BAY, COL (weights 1..255), kron18 and kron20.
# stdout: one line per graph (auto delta; new and old at it, two interleaved runs each; best of
# the sweep; variants: F fuse limit, L lone limit, P prefetch, H heavy threshold, act
# OMP_WAIT_POLICY=active), then thread scaling on NY and kron18. $OUT/cpu_delta.tsv: every run
# (variant, delta, median, min, rounds, arcs relaxed); $OUT/build.log only if a build fails.
# About 1-2 minutes (65 s on the 2-core dev machine with 2 threads and 3 trials).
set -uo pipefail
root=$(cd "$(dirname "$0")" && pwd)
out=${OUT:-/tmp/ds-cpu-out}
threads=${THREADS:-16}
trials=${TRIALS:-9}
base_commit=${BASE:-a26f6ee}
work=/tmp/ds-cpu
mkdir -p "$out" "$work"
cj=$(cd "$root/../.." && pwd)/rt/root/usr # /work/main/rt: carry it (git ignores it)
if [ ! -f "$cj/include/cjson/cJSON.h" ]; then
  echo "no cJSON under $cj (carry rt/, see bench/device_build.sh)"
  exit 1
fi
export LD_LIBRARY_PATH=$cj/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
echo "host: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "tree: $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '?')$(git -C "$root" diff --quiet 2>/dev/null || echo '+dirty'), base: $base_commit, $threads threads, median of $trials"

# 1. builds (CPU only)
build() { # SRC DIR TARGETS...
  local src=$1 dir=$2
  shift 2
  cmake -S "$src" -B "$dir" -DCMAKE_BUILD_TYPE=Release -DDS_ENABLE_CUDA=OFF -DDS_BUILD_TESTS=OFF \
    -DDS_BUILD_BENCH=OFF -DCJSON_INCLUDE_DIR="$cj/include" \
    -DCJSON_LIBRARY="$cj/lib/x86_64-linux-gnu/libcjson.so" > "$dir.log" 2>&1 &&
    cmake --build "$dir" -j "$(nproc)" --target "$@" >> "$dir.log" 2>&1
}
t0=$SECONDS
if ! build "$root" "$work/new" sssp graphgen; then
  tail -40 "$work/new.log" > "$out/build.log"
  echo "build of the tree failed: $out/build.log"
  exit 1
fi
new=$work/new/app/sssp
old=""
rm -rf "$work/base-src" && mkdir -p "$work/base-src"
if git -C "$root" archive "$base_commit" 2>/dev/null | tar -x -C "$work/base-src" 2>/dev/null &&
  build "$work/base-src" "$work/base" sssp; then
  old=$work/base/app/sssp
else
  echo "base $base_commit not built (no git objects?): no old column"
fi
echo "built in $((SECONDS - t0)) s"

# 2. graphs: NAME<tab>file<tab>sssp options
gen=$work/new/graph/gen/graphgen
t0=$SECONDS
for s in 18 20; do
  [ -f "$work/kron$s.mtx" ] ||
    "$gen" kron --scale $s --edge-factor 16 --weights 1:255 --seed $s --quiet -o "$work/kron$s.mtx" ||
    echo "graphgen kron$s failed"
done
echo "graphs generated in $((SECONDS - t0)) s"

tsv=$out/cpu_delta.tsv
printf 'graph\tvariant\tdelta\tmedian_ms\tmin_ms\trounds\tarcs_relaxed\n' > "$tsv"
# run GRAPH VARIANT BIN DELTA [ENV=VALUE...]: one sssp run; the line goes to the tsv, and
# "median delta" to stdout
run() {
  local name=$1 variant=$2 bin=$3 delta=$4
  shift 4
  local file opts
  case "$name" in
    NY | BAY | COL) file=$root/datasets/$name.mtx.gz opts="--weights 1:255 --cache-dir $work/cache" ;;
    *) file=$work/$name.mtx opts="" ;;
  esac
  # shellcheck disable=SC2086
  local txt
  txt=$(env "$@" timeout 60 "$bin" --graph "$file" $opts --algo cpu-delta --threads "$threads" \
    --trials "$trials" --delta "$delta" 2>&1)
  local d row
  d=$(sed -n 's/^delta \([0-9.e+]*\) (.*/\1/p' <<< "$txt" | head -1)
  row=$(awk '/^cpu-delta/ {gsub(/[\[\],]/, " "); print $3, $4, $7, $8}' <<< "$txt" | head -1)
  if [ -z "$row" ]; then
    printf '%s\t%s\t%s\tfailed\n' "$name" "$variant" "$delta" >> "$tsv"
    echo "failed -"
    return
  fi
  read -r med mn rounds arcs <<< "$row"
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$variant" "$d" "$med" "$mn" "$rounds" "$arcs" >> "$tsv"
  echo "$med $d"
}

# 3. per graph: new and old at the automatic delta (twice, interleaved: the cores are shared),
# the delta sweep, the fusion variants at the automatic delta
printf '%-6s %6s %13s %13s %-22s %-34s\n' graph auto "new(auto)" "old(auto)" "best delta" \
  "variants at auto (fuse F / lone L / prefetch P / heavy H)"
for g in NY BAY COL kron18 kron20; do
  case "$g" in
    kron*) sweep="4 8 16 32 128" ;;
    *) sweep="256 512 1024 2048 4096" ;;
  esac
  n1=$(run $g new "$new" auto) o1="-" o2="-"
  [ -n "$old" ] && o1=$(run $g old "$old" auto)
  n2=$(run $g new "$new" auto)
  [ -n "$old" ] && o2=$(run $g old "$old" auto)
  auto=${n1#* }
  best="" bestd=""
  for d in $sweep; do
    r=$(run $g new "$new" "$d")
    m=${r% *}
    if [ "$m" != failed ] && { [ -z "$best" ] || awk "BEGIN{exit !($m < $best)}"; }; then
      best=$m bestd=$d
    fi
  done
  vars=""
  for v in DS_CPU_FUSE_LIMIT=1 DS_CPU_FUSE_LIMIT=256 DS_CPU_FUSE_LIMIT=4096 \
    DS_CPU_LONE_LIMIT=1 DS_CPU_LONE_LIMIT=16 DS_CPU_LONE_LIMIT=256 DS_CPU_LONE_LIMIT=1024 \
    DS_CPU_PREFETCH=-1 DS_CPU_PREFETCH=16 DS_CPU_HEAVY_ARCS=18446744073709551615 \
    DS_CPU_HEAVY_ARCS=1024 OMP_WAIT_POLICY=active; do
    r=$(run $g "$v" "$new" auto "$v")
    short=${v/DS_CPU_FUSE_LIMIT=/F}
    short=${short/DS_CPU_LONE_LIMIT=/L}
    short=${short/DS_CPU_PREFETCH=/P}
    short=${short/DS_CPU_HEAVY_ARCS=18446744073709551615/Hnever}
    short=${short/DS_CPU_HEAVY_ARCS=/H}
    short=${short/OMP_WAIT_POLICY=active/act}
    vars="$vars $short:${r% *}"
  done
  printf '%-6s %6s %6s/%-6s %6s/%-6s %-22s%s\n' "$g" "$auto" "${n1% *}" "${n2% *}" "${o1% *}" \
    "${o2% *}" "$best@$bestd" "$vars"
done
# 4. thread scaling at the automatic delta
for g in NY kron18; do
  line=""
  for th in 1 2 4 8 16; do
    r=$(threads=$th run $g "threads=$th" "$new" auto)
    line="$line $th:${r% *}"
  done
  echo "scaling $g (threads:ms):$line"
done
echo "GAP on this machine (issue text): NY 4.1 ms (delta 512), kron18 12.9, kron20 37.9"
echo "all runs: $tsv"
