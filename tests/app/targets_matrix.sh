#!/usr/bin/env bash
# sssp --sources K --target LIST --output M: every row of the matrix against the full search
# from its source (Dijkstra, --source S --output): the same distance to every target, and as
# many rows as sources asked for.
#   targets_matrix.sh SSSP GRAPH TARGETS OUTDIR K [more sssp options]
set -euo pipefail
sssp=$1 graph=$2 targets=$3 out=$4 k=$5
shift 5
mkdir -p "$out"
"$sssp" --graph "$graph" --sources "$k" --target "$targets" --output "$out/matrix.txt" --quiet "$@"
header=$(head -n 1 "$out/matrix.txt")
[[ $header == "source "* ]] || { echo "matrix header: '$header'"; exit 1; }
read -ra cols <<< "${header#source }"
rows=$(($(wc -l < "$out/matrix.txt") - 1))
[[ $rows == "$k" ]] || { echo "$rows rows for $k sources"; exit 1; }
while read -r src rest; do
  read -ra d <<< "$rest"
  [[ ${#d[@]} == "${#cols[@]}" ]] || { echo "source $src: ${#d[@]} distances, ${#cols[@]} targets"; exit 1; }
  "$sssp" --graph "$graph" --source "$src" --algo dijkstra --trials 1 --quiet --output "$out/full.txt" \
    --no-cache
  for j in "${!cols[@]}"; do
    want=$(awk -v v="${cols[$j]}" '$1 == v {print $2}' "$out/full.txt")
    [[ ${d[$j]} == "$want" ]] || { echo "source $src, target ${cols[$j]}: matrix ${d[$j]}, full search $want"; exit 1; }
  done
done < <(tail -n +2 "$out/matrix.txt")
echo "targets matrix: $rows sources x ${#cols[@]} targets as the full searches"
