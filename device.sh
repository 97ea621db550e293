#!/usr/bin/env bash
# One device call for the graph codes (run from /work/main on the GPU machine, $OUT set):
# build this worktree, the graph GPU tests (forcing the hash probe and the kcore round
# settings), then kron_bench on Kronecker 20 and 22: tc with each long-row probe (per row
# class), kcore with a sweep of the small-round bounds, the CSR build with each transfer mode.
# Writes $OUT/kron_bench.json and $OUT/device.log; prints a compact summary. About 420 s at most.
#   bash xfer/wt-graph/device.sh            (SOLO="default 0:0 ..." PROBES=... to change the sweeps)
set -u
start=$(date +%s)
el() { echo $(( $(date +%s) - start )); }
left() { echo $(( 410 - $(el) )); }
src=/work/main/xfer/wt-graph
rt=/work/main/rt/root/usr
O=${OUT:-/tmp/out}; mkdir -p "$O"; L=$O/device.log
SOLO=${SOLO:-default,0:0,256:512,512:1024,4096:32768,1024:2048:2}
PROBES=${PROBES:-bitmap,hash,search}
export LD_LIBRARY_PATH=$rt/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$L"
cmake -S $src -B /tmp/gb -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
  -DCJSON_INCLUDE_DIR=$rt/include -DCJSON_LIBRARY=$rt/lib/x86_64-linux-gnu/libcjson.so \
  >> "$L" 2>&1 || { echo "cmake failed"; tail -20 "$L"; exit 1; }
cmake --build /tmp/gb -j16 --target kron_bench test_graph_codes_gpu test_csr_gpu tc kcore \
  >> "$L" 2>&1 || { echo "build failed"; grep -E "error" "$L" | head -30; exit 1; }
echo "build done at $(el)s"
(cd /tmp/gb && timeout 150 ctest -R "gpu_graph_codes|gpu_csr_build" -j4 --output-on-failure \
  >> "$L" 2>&1); rc=$?
echo "ctest gpu rc=$rc at $(el)s"; grep -E "tests passed|Failed|FAIL|\*\*\*" "$L" | tail -8
# the CLI path of the new option, validated against the oracle
timeout 30 /tmp/gb/app/tc/tc --graph $src/datasets/delaunay_n16.mtx.gz --no-cache --algo gpu \
  --intersect hash --validate --trials 2 >> "$L" 2>&1; echo "tc --intersect hash --validate rc=$?"
l=$(left); [ "$l" -gt 30 ] || exit 0
timeout "$l" /tmp/gb/bench/graph_codes/kron_bench --scales 20,22 --short 16 --probes "$PROBES" \
  --solo "$SOLO" --trials 3 --cpu-trials 1 --threads 16 --csr --json "$O/kron_bench.json" \
  > "$O/kron_bench.txt" 2>&1; rc=$?
echo "kron_bench rc=$rc at $(el)s"
cat "$O/kron_bench.txt" >> "$L"; rm -f "$O/kron_bench.txt"
grep -E "csr build|kcore solo|tc: cpu|^(20|22) |class [0-9]|DIFF|error|usage" "$L" | \
  sed -E 's/ \(([0-9]+):([0-9]+):([0-9]+)\)//' | cut -c1-230
