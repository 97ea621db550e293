#!/usr/bin/env bash
# Configure and build the default preset on the GPU machine, which has nvcc and CMake but no
# cJSON package: cJSON comes from rt/ (ignored by git), made beforehand on the dev machine with
#   mkdir -p rt && cd rt && apt-get download libcjson-dev libcjson1 && for f in *.deb; do dpkg -x "$f" root; done
# and carried along. Usage (then export the LD_LIBRARY_PATH it prints before running sssp):
#   bench/device_build.sh COMMIT LOG_DIR   (COMMIT: pass the sha from this machine; the device's .git copy may be stale)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
commit=$1 log=$2
mkdir -p "$log"
c="$root/rt/root/usr"
cmake --preset default -S "$root" -DDS_COMMIT_OVERRIDE="$commit" -DCJSON_INCLUDE_DIR="$c/include" \
  -DCJSON_LIBRARY="$c/lib/x86_64-linux-gnu/libcjson.so" > "$log/cmake.txt" 2>&1 || { tail -30 "$log/cmake.txt"; exit 1; }
cmake --build "$root/build" -j "$(nproc)" > "$log/build.txt" 2>&1 || { grep -E "error|Error" "$log/build.txt" | head -30; exit 1; }
echo "export LD_LIBRARY_PATH=$c/lib/x86_64-linux-gnu"
