#!/usr/bin/env bash
# Download the large graphs of the GPU SSSP literature from the SuiteSparse
# Matrix Collection and extract their Matrix Market files into datasets/large/.
#
#   datasets/fetch.sh --list            what it would fetch, with sizes
#   datasets/fetch.sh                   fetch all of them
#   datasets/fetch.sh flickr road_usa   fetch some
#
# Exit codes: 0 done, 1 download or extraction failed (or no internet), 2 usage error.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
dest="${DS_FETCH_DEST:-$here/large}"
# The collection's files are served at https://sparse.tamu.edu/MM/<group>/<name>.tar.gz
# (the mirror below serves the same paths). DS_FETCH_BASE_URL overrides both.
mirrors=("https://sparse.tamu.edu/MM" "https://suitesparse-collection-website.herokuapp.com/MM")
if [[ -n "${DS_FETCH_BASE_URL:-}" ]]; then mirrors=("$DS_FETCH_BASE_URL"); fi
connect_timeout=15

# name  group  vertices  stored-nnz(SuiteSparse)  kind  approx-.mtx-size
graphs=(
  "flickr           Gleich     820878    9837214  directed     150MB  Flickr user links (Gleich)"
  "cit-Patents      SNAP      3774768   16518948  directed     262MB  US patent citations (SNAP)"
  "belgium_osm      DIMACS10  1441295    3099940  undirected    40MB  Belgium OpenStreetMap roads (DIMACS10)"
  "road_usa         DIMACS10 23947347   57708624  undirected   750MB  USA road network (DIMACS10 / DIMACS9)"
  "soc-LiveJournal1 SNAP      4847571   68993773  directed    1100MB  LiveJournal friendships (SNAP)"
)

usage() {
  cat <<USAGE
usage: datasets/fetch.sh [--list] [--dest DIR] [--keep-archives] [NAME ...]

Downloads graphs from the SuiteSparse Matrix Collection and extracts NAME.mtx
into $dest (or DIR). With no NAME, fetches all; graphs already there are skipped.

  --list            print the graphs, their sizes and URLs; download nothing
  --dest DIR        where the .mtx files go (default datasets/large)
  --keep-archives   keep the .tar.gz files after extraction
  -h, --help        this text

Needs curl (or wget), tar and gzip, and internet access. Environment:
DS_FETCH_BASE_URL replaces the collection's URL (a mirror), DS_FETCH_DEST the destination.
Exit codes: 0 done, 1 download/extraction failure or no internet, 2 usage error.
The graphs are licensed by the SuiteSparse Matrix Collection under CC-BY 4.0;
road and OSM data also carry their own terms (see datasets/README.md).
USAGE
}

die_usage() { echo "fetch.sh: $*" >&2; echo "run 'datasets/fetch.sh --help' for the options" >&2; exit 2; }
die() { echo "fetch.sh: $*" >&2; exit 1; }

field() { # field LINE N
  local -a f
  read -r -a f <<<"$1"
  echo "${f[$2]}"
}

find_graph() {
  local g
  for g in "${graphs[@]}"; do
    if [[ "$(field "$g" 0)" == "$1" ]]; then echo "$g"; return 0; fi
  done
  return 1
}

list() {
  printf "%-17s %-9s %11s %12s  %-10s %9s  %s\n" name group vertices entries kind "~.mtx" url
  local g
  for g in "${graphs[@]}"; do
    printf "%-17s %-9s %11s %12s  %-10s %9s  %s\n" "$(field "$g" 0)" "$(field "$g" 1)" \
      "$(field "$g" 2)" "$(field "$g" 3)" "$(field "$g" 4)" "$(field "$g" 5)" \
      "${mirrors[0]}/$(field "$g" 1)/$(field "$g" 0).tar.gz"
  done
  echo "destination: $dest"
}

# --- arguments ----------------------------------------------------------------
do_list=0
keep=0
names=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --list) do_list=1 ;;
    --keep-archives) keep=1 ;;
    --dest) [[ $# -ge 2 ]] || die_usage "--dest needs a directory"; dest="$2"; shift ;;
    --dest=*) dest="${1#--dest=}" ;;
    -h|--help) usage; exit 0 ;;
    -*) die_usage "unknown option '$1'" ;;
    *) find_graph "$1" >/dev/null || die_usage "unknown graph '$1' (see --list)"; names+=("$1") ;;
  esac
  shift
done
if [[ $do_list -eq 1 ]]; then list; exit 0; fi
if [[ ${#names[@]} -eq 0 ]]; then
  for g in "${graphs[@]}"; do names+=("$(field "$g" 0)"); done
fi

# --- tools and network ----------------------------------------------------------
if command -v curl >/dev/null 2>&1; then
  fetch() { curl -fL --connect-timeout "$connect_timeout" --retry 2 -o "$2" "$1"; }
  probe() { curl -fsSIL --connect-timeout "$connect_timeout" --max-time 30 -o /dev/null "$1"; }
elif command -v wget >/dev/null 2>&1; then
  fetch() { wget -q --show-progress --timeout="$connect_timeout" --tries=3 -O "$2" "$1"; }
  probe() { wget -q --spider --timeout="$connect_timeout" --tries=1 "$1"; }
else
  die "neither curl nor wget is installed (apt-get install curl)"
fi
command -v tar >/dev/null 2>&1 || die "tar is not installed"

# Pick the first mirror that answers for the first graph's archive.
first="$(find_graph "${names[0]}")"
base=""
for m in "${mirrors[@]}"; do
  if probe "$m/$(field "$first" 1)/$(field "$first" 0).tar.gz" 2>/dev/null; then base="$m"; break; fi
done
if [[ -z "$base" ]]; then
  die "no internet access, or the SuiteSparse collection is unreachable (tried: ${mirrors[*]}).
Download the archives elsewhere (see 'datasets/fetch.sh --list' for the URLs), then extract
each <name>/<name>.mtx into $dest; or use graphgen for synthetic graphs of these sizes."
fi

# --- fetch and extract ------------------------------------------------------------
mkdir -p "$dest" || die "cannot create $dest"
for name in "${names[@]}"; do
  g="$(find_graph "$name")"
  group="$(field "$g" 1)"
  nverts="$(field "$g" 2)"
  out="$dest/$name.mtx"
  if [[ -s "$out" ]]; then
    echo "fetch.sh: $name: $out exists, skipped"
    continue
  fi
  url="$base/$group/$name.tar.gz"
  archive="$dest/$name.tar.gz"
  echo "fetch.sh: $name: downloading $url"
  fetch "$url" "$archive.part" || { rm -f "$archive.part"; die "$name: download of $url failed"; }
  mv "$archive.part" "$archive"
  echo "fetch.sh: $name: extracting $name/$name.mtx"
  tar -xzf "$archive" -O "$name/$name.mtx" >"$out.part" \
    || { rm -f "$out.part"; die "$name: $archive has no $name/$name.mtx or is corrupt"; }
  # check the banner and the vertex count of the size line
  head -n 1 "$out.part" | grep -q '^%%MatrixMarket matrix coordinate' \
    || { rm -f "$out.part"; die "$name: extracted file has no Matrix Market banner"; }
  size_line="$(grep -m 1 -v '^%' "$out.part" || true)"
  [[ "$(field "$size_line" 0)" == "$nverts" ]] \
    || { rm -f "$out.part"; die "$name: size line '$size_line' does not have $nverts vertices"; }
  mv "$out.part" "$out"
  [[ $keep -eq 1 ]] || rm -f "$archive"
  echo "fetch.sh: $name: $out ($(du -h "$out" | cut -f1))"
done
echo "fetch.sh: done; run for example: sssp --graph $dest/${names[0]}.mtx"
