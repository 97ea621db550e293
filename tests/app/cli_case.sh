#!/usr/bin/env bash
# One end-to-end case of the `sssp` program.
#   cli_case.sh EXPECTED_EXIT PATTERN [--golden OUT GOLDEN] [--json-check CHECKER OUT]
#               [--before SCRIPT] [--after SCRIPT] [--absent PATTERN] -- COMMAND...
# Runs COMMAND; passes when its exit code is EXPECTED_EXIT, its output
# (stdout and stderr) matches the extended regular expression PATTERN (and,
# with --absent, does not match that one), and,
# with --golden, the file OUT equals GOLDEN; with --json-check, CHECKER OUT
# must succeed. --before runs the bash SCRIPT first (to make links, FIFOs,
# files); --after runs one that must succeed afterwards (what the command
# left behind). Prints the output when it fails.
set -u
expected=$1 pattern=$2
shift 2
golden_out="" golden="" checker="" json_out="" before="" after="" absent=""
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
  case $1 in
    --golden) golden_out=$2 golden=$3; shift 3 ;;
    --json-check) checker=$2 json_out=$3; shift 3 ;;
    --before) before=$2; shift 2 ;;
    --after) after=$2; shift 2 ;;
    --absent) absent=$2; shift 2 ;;
    *) echo "cli_case.sh: unknown argument $1"; exit 2 ;;
  esac
done
shift # --
[ -n "$golden_out" ] && rm -f "$golden_out"
[ -n "$json_out" ] && rm -f "$json_out"

command="$*"
if [ -n "$before" ]; then
  bash -c "$before" || { echo "FAIL: the --before script failed: $before"; exit 1; }
fi
output=$("$@" 2>&1)
rc=$?
fail() {
  echo "FAIL: $*"
  echo "command: $command"
  echo "--- output ---"
  echo "$output"
  exit 1
}
[ "$rc" -eq "$expected" ] || fail "exit code $rc, expected $expected"
echo "$output" | grep -Eq -- "$pattern" || fail "output does not match '$pattern'"
if [ -n "$absent" ] && echo "$output" | grep -Eq -- "$absent"; then
  fail "output matches '$absent'"
fi
if [ -n "$golden" ]; then
  diff -u "$golden" "$golden_out" || fail "$golden_out differs from $golden"
fi
if [ -n "$checker" ]; then
  "$checker" "$json_out" || fail "$json_out does not pass $checker"
fi
if [ -n "$after" ]; then
  bash -c "$after" || fail "the --after check failed: $after"
fi
echo "ok: exit $rc, output matches '$pattern'"
exit 0
