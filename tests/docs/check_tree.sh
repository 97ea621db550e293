#!/usr/bin/env bash
# Keeps the benchmark side of the tree as docs/performance.md and STYLE.md describe it:
#   1. benchmarks include no test fixture (nor the test harness) and no library's private header;
#   2. every benchmark source is built by a CMake target;
#   3. scripts are not named for one machine (the GPU is read at run time);
#   4. splitmix64 is written once, in graph/include/ds/rng.h;
#   5. nothing cites the removed lab notebooks (NOTES-*.md, "notes step N"): a comment gives the
#      reason or points to docs/performance.md (EXEMPT: the GPU evidence file, written by a script
#      of its day, and this check);
#   6. every bench/, docs/ and tests/ path that README.md, docs/*.md and bench/results/README.md
#      name exists, and so does the target of every relative link in them.
# usage: check_tree.sh ROOT
set -u
root=$1
cd "$root" || exit 2
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
sources() { # folders...: the C, C++ and CUDA files below them
  find "$@" \( -name 'build*' -o -name '.git' \) -prune -o -type f \
    \( -name '*.c' -o -name '*.h' -o -name '*.cpp' -o -name '*.cu' -o -name '*.cuh' \) -print
}

# 1. includes of test fixtures or private headers, in code and in CMake include paths
private='(tests/|ds_test\.h|test_util\.h|test_graphs\.h|graph_internal\.h|gen_edges\.h|gen_kinds\.h|lex\.h)'
for f in $(sources bench primitives/bench); do
  grep -nE "#include *\"[^\"]*$private" "$f" | sed "s|^|$f:|" | while read -r hit; do
    echo "FAIL: a benchmark includes a test fixture or private header: $hit"; done
  grep -qE "#include *\"[^\"]*$private" "$f" && failures=$((failures + 1))
done
for f in bench/CMakeLists.txt bench/*/CMakeLists.txt primitives/bench/CMakeLists.txt; do
  grep -qE 'include_directories.*(tests|graph/src|gen/src)' "$f" &&
    fail "$f puts a test or private folder on a benchmark's include path"
done

# 2. every benchmark source is named by a CMakeLists.txt beside it
for f in $(find bench primitives/bench -type f \( -name '*.c' -o -name '*.cpp' -o -name '*.cu' \)); do
  grep -qF "$(basename "$f")" "$(dirname "$f")/CMakeLists.txt" 2>/dev/null ||
    fail "$f is built by no CMake target"
done

# 3. machine-specific script names
for f in $(find bench -type f \( -name '*.sh' -o -name '*.py' \)); do
  case "$(basename "$f")" in *[hH]100* | *[hH]200* | *[aA]100*) fail "$f is named for one GPU" ;; esac
done

# 4. splitmix64's second multiplier appears in the random-number header only
for f in $(sources app graph primitives tests bench); do
  [ "$f" = graph/include/ds/rng.h ] && continue
  grep -qi '94D049BB133111EB' "$f" && fail "$f has its own copy of splitmix64 (use ds/rng.h)"
done

# 5. citations of the lab notebooks, in the files of the project (git's list where there is
#    one, so that ignored scratch folders do not count)
EXEMPT='^(bench/results/h100-tests\.txt|tests/docs/check_tree\.sh)$'
cite='NOTES-[a-z]+\.md|notes steps? [0-9]'
citing() {
  if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    git ls-files -z | xargs -0 grep -liE "$cite" 2>/dev/null
  else
    grep -rliE "$cite" --exclude-dir='build*' --exclude-dir=.git . | sed 's|^\./||'
  fi
}
while read -r f; do
  [[ "$f" =~ $EXEMPT ]] && continue
  fail "$f cites the removed lab notebooks: $(grep -niE "$cite" "$f" | head -1)"
done < <(citing)

# 6. paths named in the documents exist (placeholders such as GPU, GRAPH or * are skipped):
#    bench/, docs/ and tests/ paths from the root (img/ from docs/), and relative link targets
#    from the document's folder
docs=$(printf '%s\n' README.md docs/performance.md docs/*.md bench/results/README.md | awk '!seen[$0]++')
for doc in $docs; do
  [ -f "$doc" ] || { fail "$doc is missing"; continue; }
  base=""
  case "$doc" in docs/*) base=docs/ ;; esac
  for p in $(grep -oE '(\]\(|`)(bench|docs|img|tests)/[A-Za-z0-9_./*{},-]+' "$doc" | sed -E 's/^(\]\(|`)//' | sort -u); do
    case "$p" in *GPU* | *GRAPH* | *'*'* | *'{'* | */) continue ;; esac
    path=$p
    [ -n "$base" ] && [ "${p#img/}" != "$p" ] && path=$base$p
    [ -e "$path" ] || fail "$doc names $p, which does not exist"
  done
  for t in $(grep -oE '\]\([^)#[:space:]]+' "$doc" | sed 's/^](//' | sort -u); do
    case "$t" in http:* | https:* | mailto:*) continue ;; esac
    [ -e "$(dirname "$doc")/$t" ] || fail "$doc links to $t, which does not exist"
  done
done

[ "$failures" -eq 0 ] && echo "bench/, docs/ and the random-number header are as documented"
exit $((failures > 0))
