#!/usr/bin/env bash
# The progress bar end to end: quiet when stderr is not a terminal; on a
# terminal (script(1) provides one) a bar and a closing line, which says
# "failed" for a load that failed.
# usage: progress_case.sh TEST_PROGRESS
set -u
bin=$1
# 1. stderr is a pipe: nothing may reach it
err=$("$bin" quiet 2>&1 >/dev/null)
rc=$?
[ $rc -eq 0 ] || { echo "FAIL: '$bin quiet' exited $rc"; "$bin" quiet; exit 1; }
[ -z "$err" ] || { echo "FAIL: the bar was written to a non-terminal stderr: $err"; exit 1; }
# 2. a terminal
command -v script >/dev/null || { echo "SKIP: script(1) is missing: the terminal case cannot run"; exit 77; }
out=$(script -qec "'$bin' tty" /dev/null)
rc=$?
[ $rc -eq 0 ] || { echo "FAIL: '$bin tty' exited $rc"; echo "$out"; exit 1; }
echo "$out" | grep -q "g: parse .*50%" || { echo "FAIL: no bar at 50%"; echo "$out"; exit 1; }
echo "$out" | grep -q "g: loaded in" || { echo "FAIL: no closing line"; echo "$out"; exit 1; }
echo "$out" | grep -q "h: failed after" || { echo "FAIL: a failed load's bar not closed as failed"; echo "$out"; exit 1; }
if echo "$out" | grep -q "h: loaded in"; then echo "FAIL: a failed load said 'loaded'"; echo "$out"; exit 1; fi
echo "$out" | grep -q "slow: failed after" || { echo "FAIL: a load that failed did not close its bar as failed"; echo "$out"; exit 1; }
if echo "$out" | grep -q "slow: loaded in"; then echo "FAIL: a load that failed said 'loaded'"; echo "$out"; exit 1; fi
if echo "$out" | grep -q "25%"; then echo "FAIL: a bar within the first second"; echo "$out"; exit 1; fi
echo "ok: quiet on a pipe, a bar and a closing line on a terminal"
