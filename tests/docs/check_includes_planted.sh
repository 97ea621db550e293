#!/usr/bin/env bash
# check_includes.sh must see each kind of arrow that points up: on a copy of app/, api/ and
# graph/src it passes, and with one violation planted at a time it fails naming that violation.
# usage: check_includes_planted.sh ROOT
set -u
root=$1
check="$(cd "$(dirname "$0")" && pwd)/check_includes.sh"
work=$(mktemp -d "${TMPDIR:-/tmp}/planted.XXXXXX") || exit 2
trap 'rm -rf "$work"' EXIT
failures=0
fresh() { # a clean copy of the checked folders in $work/tree
  rm -rf "$work/tree" && mkdir -p "$work/tree/graph" &&
    cp -r "$root/app" "$root/api" "$work/tree/" && cp -r "$root/graph/src" "$work/tree/graph/"
}
# plant NAME EXPECTED FILE LINE: FILE gets LINE appended; the check must fail with EXPECTED
plant() {
  fresh || exit 2
  printf '%s\n' "$4" >> "$work/tree/$3"
  out=$(bash "$check" "$work/tree" 2>&1)
  if [ $? -eq 0 ] || ! grep -qF -- "$2" <<< "$out"; then
    echo "FAIL: planted $1 ($3: $4) not reported as '$2':"
    echo "$out" | sed 's/^/  /'
    failures=$((failures + 1))
  else
    echo "ok: planted $1 is reported"
  fi
}

fresh || exit 2
if ! out=$(bash "$check" "$work/tree" 2>&1); then
  echo "FAIL: the unplanted copy does not pass:"
  echo "$out" | sed 's/^/  /'
  failures=$((failures + 1))
fi
plant "an engine including the program's header" "a program's header, outside the programs" \
  app/sssp/gpu/gpu_sssp.h '#include "run.h"'
plant "the CPU engine including the program's report" "a program's header, outside the programs" \
  app/sssp/cpu/dist.c '#include "sssp_report.h"'
plant "the installed library including the driver" "a program's header, outside the programs" \
  api/sssp.c '#include "driver.h"'
plant "app/common including the SSSP contract" "shared code includes a graph code's header" \
  app/common/cli.h '#include "sssp.h"'
plant "app/common including the k-core library" "shared code includes a graph code's header" \
  app/common/device_graph.cu '#include "kcore.h"'
plant "tc including the GPU SSSP engine" "kcore and tc include an SSSP engine's header" \
  app/tc/tc_cpu.c '#include "gpu_sssp.h"'
plant "kcore linking the CPU SSSP library" "ds_kcore links the SSSP engine ds_cpu" \
  app/kcore/CMakeLists.txt 'target_link_libraries(ds_kcore PRIVATE ds_cpu)'
plant "app/common linking the GPU SSSP library" "ds_app_common links the SSSP engine" \
  app/CMakeLists.txt 'target_link_libraries(ds_app_common PUBLIC ${DS_SSSP_GPU_LIB})'
plant "the programs of programs.cmake linking the SSSP options" "links the SSSP engine ds_gpu_options" \
  app/programs.cmake 'target_link_libraries(${exe} PRIVATE ds_gpu_options)'
plant "a circle of calls in the CPU SSSP library" "a circle of calls among" \
  app/sssp/cpu/sssp.c 'static void planted(void) { ds_sssp_cpu_delta(0, 0, 0, 0, 0); }'
plant "a circle of calls in the graph layer" "a circle of calls among" \
  graph/src/checksum.c 'static void planted(void) { ds_cache_seal(0, 0); }'
plant "the GPU SSSP engine including msplit's internals" "msplit's internals, not its public API" \
  app/sssp/gpu/frontier_queue.cuh '#include <msplit/detail/warp_scan.cuh>'

if [ "$failures" -ne 0 ]; then
  echo "$failures planted violations went unseen"
  exit 1
fi
echo "every planted violation is reported"
