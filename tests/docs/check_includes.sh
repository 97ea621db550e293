#!/usr/bin/env bash
# Keeps every arrow in app/, api/ and graph/src pointing down:
#   1. the programs' own headers (the sssp program's, every header at the top of app/sssp/, and
#      app/common's option table, configuration, outputs, report, driver, host memory, lab seam
#      and app.h) are included only by the programs' own files: never by an engine (app/sssp/cpu,
#      app/sssp/gpu, app/dist, the k-core and triangle libraries), by app/common's shared device
#      code, or by the installed library (api/);
#   2. app/common, the code the programs share, includes no header of a graph code (app/sssp and
#      its engines, app/dist, app/kcore, app/tc);
#   3. kcore and tc include no header of the SSSP engines (app/sssp and its engines, app/dist);
#   4. app/common, kcore and tc link no SSSP engine (ds_cpu, ds_gpu, its stub, ds_gpu_options,
#      ds_dist): their CMake link lines name none;
#   5. no circle of calls: among the C and CUDA files of graph/src, app/ and api/, no file calls a
#      ds_ function of a file that calls (through any chain) back into it;
#   6. the graph codes use msplit through its public API: no file of graph/, app/ or api/
#      includes a header under msplit/detail/.
# usage: check_includes.sh ROOT
set -u
root=$1
cd "$root" || exit 2
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
sources() { # folders...: the C, C++ and CUDA files below them, sorted
  find "$@" -type f \( -name '*.c' -o -name '*.h' -o -name '*.cpp' -o -name '*.cu' -o -name '*.cuh' \) \
    2>/dev/null | sort
}
# quoted includes of file $1 whose file name (without folders) is in the list $2 (a|b|c)
includes_of() {
  grep -nE "^[[:space:]]*#[[:space:]]*include[[:space:]]*\"([^\"]*/)?($2)\"" "$1"
}
# the file names of the headers below folders..., as a|b|c (escaped for a regular expression)
header_names() {
  find "$@" -type f \( -name '*.h' -o -name '*.cuh' \) -printf '%f\n' 2>/dev/null | sort -u |
    sed 's/\./\\./g' | paste -sd'|'
}

# 1. the programs' headers, only in the programs' files
common_program='app|cli|config|outputs|report|kernel|driver|host_mem|lab|lab_none|lab_env'
sssp_program=$(find app/sssp -maxdepth 1 -type f -name '*.h' -printf '%f\n' | sed 's/\.h$//' |
  paste -sd'|')
program_headers="($sssp_program|$common_program)\\.h"
program_files="^app/sssp/[^/]+\\.[ch]\$|^app/common/($common_program)\\.[ch]\$|^app/(kcore/kcore|tc/tc)_main\\.c\$"
for f in $(sources app api); do
  [[ $f =~ $program_files ]] && continue
  hits=$(includes_of "$f" "$program_headers")
  [ -n "$hits" ] && fail "$f:${hits%%$'\n'*} (a program's header, outside the programs)"
done

# 2. app/common includes no graph code's header
code_headers=$(header_names app/sssp app/dist app/kcore app/tc)
for f in $(sources app/common); do
  hits=$(includes_of "$f" "$code_headers")
  [ -n "$hits" ] && fail "$f:${hits%%$'\n'*} (the programs' shared code includes a graph code's header)"
done

# 3. kcore and tc include no SSSP engine's header
sssp_headers=$(header_names app/sssp app/dist)
for f in $(sources app/kcore app/tc); do
  hits=$(includes_of "$f" "$sssp_headers")
  [ -n "$hits" ] && fail "$f:${hits%%$'\n'*} (kcore and tc include an SSSP engine's header)"
done

# 4. the link lines of app/common, kcore and tc: one CMake command a line, then each
# target_link_libraries of ds_app_common, ds_kcore, ds_tc and the programs of programs.cmake
sssp_libs='ds_cpu|ds_gpu|ds_gpu_stub|ds_gpu_options|ds_dist|ds_dist_gpu|DS_SSSP_GPU_LIB'
for cm in app/CMakeLists.txt app/programs.cmake app/kcore/CMakeLists.txt app/tc/CMakeLists.txt; do
  [ -f "$cm" ] || continue
  sed 's/#.*//' "$cm" | tr '\n' ' ' | sed 's/)/)\n/g' |
    grep -E 'target_link_libraries\(' | sed 's/.*target_link_libraries(//' | while read -r line; do
      target=${line%% *}
      [[ $cm != app/programs.cmake && ! $target =~ ^(ds_app_common|ds_kcore|ds_tc)$ ]] && continue
      words=" $(echo "$line" | tr -s '(){}$ ' ' ') "
      [[ $words =~ \ ($sssp_libs)\  ]] &&
        echo "FAIL: $cm: $target links the SSSP engine ${BASH_REMATCH[1]} (app/common, kcore and tc must not)"
    done
done > "${TMPDIR:-/tmp}/check_includes.$$"
if [ -s "${TMPDIR:-/tmp}/check_includes.$$" ]; then
  cat "${TMPDIR:-/tmp}/check_includes.$$"
  failures=$((failures + $(wc -l < "${TMPDIR:-/tmp}/check_includes.$$")))
fi
rm -f "${TMPDIR:-/tmp}/check_includes.$$"

# 5. circles of calls: an edge from each file to the file that defines a ds_ function it calls
# (a definition: a line at the left margin, not static, that names the function and does not end
# in ';'), then tsort, which names the files of any circle
code=$(find graph/src app api -type f \( -name '*.c' -o -name '*.cu' \) 2>/dev/null | sort)
circle=$([ -n "$code" ] && awk '
  pass == 1 && /^[A-Za-z_][A-Za-z0-9_ *]*[ *]ds_[a-z0-9_]+\(/ &&
      !/^(static|typedef|extern|return)[^A-Za-z0-9_]/ && !/;[ \t]*$/ {
    match($0, /ds_[a-z0-9_]+\(/)
    defined_in[substr($0, RSTART, RLENGTH - 1)] = FILENAME
  }
  pass == 2 {
    line = $0
    while (match(line, /(^|[^A-Za-z0-9_])ds_[a-z0-9_]+[ \t]*\(/)) {
      name = substr(line, RSTART, RLENGTH)
      sub(/^[^d]*/, "", name)
      sub(/[ \t]*\($/, "", name)
      if ((name in defined_in) && defined_in[name] != FILENAME) print FILENAME, defined_in[name]
      line = substr(line, RSTART + RLENGTH)
    }
  }' pass=1 $code pass=2 $code | sort -u | tsort 2>&1 >/dev/null |
  grep -v 'input contains a loop' | sed 's/^tsort: //')
[ -n "$circle" ] && fail "a circle of calls among: $(echo "$circle" | paste -sd' ')"

# 6. msplit's internals, outside msplit
detail=$(grep -rnE '#include [<"]msplit/detail/' "$root/graph" "$root/app" "$root/api" \
           --include='*.c' --include='*.h' --include='*.cu' --include='*.cuh' 2>/dev/null | head -1)
[ -n "$detail" ] && fail "${detail#"$root"/} (a graph code includes msplit's internals, not its public API)"

if [ "$failures" -ne 0 ]; then
  echo "$failures arrows point up"
  exit 1
fi
echo "includes and calls in app/, api/ and graph/src point down; msplit is used through its public API"
