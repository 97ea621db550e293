#!/usr/bin/env bash
# The brutal test counts and fails only the allocation functions it wraps; an
# allocating C library function that the libraries call and that is not wrapped
# would escape both the failures and the leak count. This lists the libraries'
# undefined symbols and fails on any allocating one outside the wrapped list.
# usage: wraps_cover.sh NM "WRAPPED FUNCTIONS" LIBRARY...
# (realpath allocates only when given no buffer, which nm cannot tell: the
# libraries always give one.)
set -u
nm=$1 wrapped=" $2 "
shift 2
allocating="malloc calloc realloc reallocarray free posix_memalign aligned_alloc memalign valloc
pvalloc strdup strndup wcsdup getline getdelim asprintf vasprintf open_memstream
open_wmemstream scandir mmap canonicalize_file_name get_current_dir_name tempnam"
used=$("$nm" -u "$@" | awk 'NF { print $NF }' | sed 's/@.*//' | sort -u) || exit 2
failures=0
for f in $allocating; do
  for sym in "$f" "__$f" "__${f}_chk"; do
    grep -qxF -- "$sym" <<<"$used" || continue
    case $wrapped in
      *" $sym "*) ;;
      *) echo "FAIL: the libraries call $sym, which the brutal test does not wrap"
         failures=$((failures + 1)) ;;
    esac
  done
done
[ "$failures" -eq 0 ] && echo "every allocating function the libraries call is wrapped:" \
  "$(grep -xE "$(echo $allocating | tr ' ' '|')" <<<"$used" | tr '\n' ' ')"
exit $((failures > 0))
