#!/usr/bin/env bash
# Two `sssp --output` files of float distances hold the same vertices and, vertex by vertex,
# distances within a relative tolerance (float sums in another order: the distributed engine
# and the one-GPU engine add the same arcs in other orders):
#   same_distances.sh A B [TOLERANCE]    (default 1e-5; "inf" only equals "inf")
set -u
a=$1
b=$2
tol=${3:-1e-5}
[ -s "$a" ] && [ -s "$b" ] || { echo "same_distances: $a or $b is missing or empty"; exit 1; }
[ "$(wc -l < "$a")" = "$(wc -l < "$b")" ] || { echo "same_distances: $a and $b differ in length"; exit 1; }
paste -d' ' <(cut -d' ' -f1,2 "$a") <(cut -d' ' -f1,2 "$b") | awk -v tol="$tol" '
  function abs(x) { return x < 0 ? -x : x }
  {
    bad = $1 != $3
    if (!bad && ($2 == "inf" || $4 == "inf")) bad = $2 != $4
    else if (!bad) { m = abs($2) > 1 ? abs($2) : 1; bad = abs($2 - $4) > tol * m }
    if (bad) { printf "same_distances: line %d: \"%s %s\" against \"%s %s\"\n", NR, $1, $2, $3, $4; n++ }
    if (n >= 5) exit 1
  }
  END { if (n > 0) exit 1 }'
