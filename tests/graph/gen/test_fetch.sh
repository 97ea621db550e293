#!/usr/bin/env bash
# Tests of datasets/fetch.sh that need no internet: --list, usage errors, the
# offline failure, and (where curl is installed) a full fetch from a fake
# mirror on the local file system, including a corrupt archive.
# usage: test_fetch.sh PATH_TO_FETCH_SH
set -u
fetch="$1"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }

expect() { # expect CODE WORD -- command...
  local want="$1" word="$2"; shift 3
  local code=0
  "$@" >"$tmp/out" 2>&1 || code=$?
  [[ $code -eq $want ]] || fail "'$*' exited $code, expected $want: $(head -c 300 "$tmp/out")"
  grep -q -- "$word" "$tmp/out" || fail "'$*' does not print '$word': $(head -c 300 "$tmp/out")"
}

# 1. --list: every graph, its group and URL; nothing downloaded, no folder made
export DS_FETCH_DEST="$tmp/large"
expect 0 "sparse.tamu.edu/MM/Gleich/flickr.tar.gz" -- "$fetch" --list
for g in flickr cit-Patents belgium_osm road_usa soc-LiveJournal1; do
  grep -q "^$g " "$tmp/out" || fail "--list lacks $g"
done
[[ -e "$tmp/large" ]] && fail "--list created the destination"
expect 0 "usage" -- "$fetch" --help

# 2. usage errors
expect 2 "unknown option" -- "$fetch" --frobnicate
expect 2 "unknown graph" -- "$fetch" not-a-graph
expect 2 "needs a directory" -- "$fetch" --dest

# 3. offline: an unreachable mirror fails with a clear message, exit 1
DS_FETCH_BASE_URL="http://127.0.0.1:9" expect 1 "no internet" -- "$fetch" flickr
[[ -e "$tmp/large/flickr.mtx" ]] && fail "offline run left a file"

# 4. a fake mirror on the file system (curl reads file:// URLs)
if command -v curl >/dev/null 2>&1; then
  mkdir -p "$tmp/mirror/DIMACS10" "$tmp/src/belgium_osm" "$tmp/bad/DIMACS10" "$tmp/bsrc/belgium_osm"
  printf '%%%%MatrixMarket matrix coordinate pattern symmetric\n%% test\n1441295 1441295 1\n2 1\n' \
    >"$tmp/src/belgium_osm/belgium_osm.mtx"
  tar -czf "$tmp/mirror/DIMACS10/belgium_osm.tar.gz" -C "$tmp/src" belgium_osm
  export DS_FETCH_BASE_URL="file://$tmp/mirror"
  expect 0 "belgium_osm.mtx" -- "$fetch" belgium_osm
  cmp -s "$tmp/large/belgium_osm.mtx" "$tmp/src/belgium_osm/belgium_osm.mtx" \
    || fail "the extracted file differs from the archived one"
  [[ -e "$tmp/large/belgium_osm.tar.gz" ]] && fail "the archive was not removed"
  expect 0 "skipped" -- "$fetch" belgium_osm
  # a graph the mirror lacks: the download fails
  rm -f "$tmp/large/belgium_osm.mtx"
  expect 1 "" -- "$fetch" belgium_osm road_usa
  [[ -e "$tmp/large/road_usa.mtx" ]] && fail "a failed download left road_usa.mtx"
  # an archive whose size line has the wrong vertex count is rejected
  printf '%%%%MatrixMarket matrix coordinate pattern symmetric\n5 5 1\n2 1\n' \
    >"$tmp/bsrc/belgium_osm/belgium_osm.mtx"
  tar -czf "$tmp/bad/DIMACS10/belgium_osm.tar.gz" -C "$tmp/bsrc" belgium_osm
  rm -f "$tmp/large/belgium_osm.mtx"
  DS_FETCH_BASE_URL="file://$tmp/bad" expect 1 "1441295" -- "$fetch" belgium_osm
  [[ -e "$tmp/large/belgium_osm.mtx" || -e "$tmp/large/belgium_osm.mtx.part" ]] \
    && fail "a rejected archive left a file"
  # not a gzip at all
  rm -f "$tmp/large/belgium_osm.mtx"
  echo "not an archive" >"$tmp/bad/DIMACS10/belgium_osm.tar.gz"
  DS_FETCH_BASE_URL="file://$tmp/bad" expect 1 "corrupt" -- "$fetch" belgium_osm
else
  echo "curl not installed: fake-mirror part skipped"
fi

if [[ $fails -gt 0 ]]; then echo "test_fetch: $fails failures" >&2; exit 1; fi
echo "test_fetch: all passed"
