#!/usr/bin/env bash
# Keeps every include arrow in app/ and api/ pointing down: the programs' own headers (the sssp
# program's run*.h, sssp_report.h and gpu_options.h; app/common's option table, configuration,
# outputs, report, driver, lab seam and app.h) are included only by the programs' own files,
# never by the engines (app/gpu, app/dist, the k-core and triangle libraries, the CPU SSSP
# library), by app/common's shared device code, or by the installed library (api/).
# usage: check_includes.sh ROOT
set -u
root=$1
cd "$root" || exit 2
program_headers='(run|run_[a-z_]+|sssp_report|gpu_options|app|cli|config|outputs|report|kernel|lab)\.h'
# the programs' own files (and those headers themselves)
program_files='^app/sssp/(main|run|run_[a-z_]+|sssp_report|gpu_options)\.[ch]$|^app/common/(app|cli|config|outputs|report|kernel|lab|lab_none|lab_env)\.[ch]$|^app/(kcore/kcore|tc/tc)_main\.c$'
failures=0
while read -r f; do
  [[ $f =~ $program_files ]] && continue
  hits=$(grep -nE "^[[:space:]]*#[[:space:]]*include[[:space:]]*\"([^\"]*/)?$program_headers\"" "$f")
  if [ -n "$hits" ]; then
    echo "$hits" | sed "s|^|FAIL: $f:|; s|\$| (a program's header, outside the programs)|"
    failures=$((failures + 1))
  fi
done < <(find app api -type f \( -name '*.c' -o -name '*.h' -o -name '*.cpp' -o -name '*.cu' -o -name '*.cuh' \) 2>/dev/null | sort)
if [ "$failures" -ne 0 ]; then
  echo "$failures files include a program's header"
  exit 1
fi
echo "includes in app/ and api/ point down"
