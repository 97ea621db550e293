#!/usr/bin/env bash
# Keeps README.md and the option reference (docs/usage.md) honest:
#   1. README's test command is .ci/run's, word for word ("$ci_install && $ci_test"), and runs
#      the tests twice: the ci preset, and the asan preset (CPU parts under ASan and UBSan);
#   2. every option that `sssp --help` lists is described in the option reference;
#   3. every exit code of `sssp --help` is in the exit-code tables of both, with the same number.
# usage: check_readme.sh README.md docs/usage.md .ci/run PROGRAM
#        (PROGRAM: sssp, kcore or tc: the same checks of its --help)
set -u
readme=$1 usage=$2 ci=$3 sssp=$4
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# 1. the test command (the variables are read from .ci/run, not run)
ci_packages=$(sed -n 's/^ci_packages="\(.*\)"$/\1/p' "$ci")
ci_install=$(sed -n 's/^ci_install="\(.*\)"$/\1/p' "$ci" | sed "s/\$ci_packages/$ci_packages/")
ci_test=$(sed -n 's/^ci_test="\(.*\)"$/\1/p' "$ci")
if [ -z "$ci_packages" ] || [ -z "$ci_install" ] || [ -z "$ci_test" ]; then
  fail "$ci does not define ci_packages, ci_install and ci_test"
elif ! grep -qxF -- "$ci_install && $ci_test" "$readme"; then
  fail "README.md has no line '$ci_install && $ci_test' (the command .ci/run runs)"
fi
for preset in ci asan; do
  case " $ci_test " in
    *" ctest --preset $preset "*) ;;
    *) fail "$ci: the test command does not run 'ctest --preset $preset'" ;;
  esac
done

# 2. options
prog=$(basename "$sssp")
help=$("$sssp" --help) || fail "$prog --help failed"
for opt in $(echo "$help" | grep -oE -- '--[a-z][a-z-]+' | sort -u); do
  grep -qF -- "\`$opt" "$usage" || fail "option $opt of $prog --help is not in $usage"
done

# 3. exit codes: "  N  text" lines after "exit codes" in --help, "| N | text" rows in the tables
while read -r code word; do
  for doc in "$readme" "$usage"; do
    grep -qE "^\| *$code *\| *$word" "$doc" ||
      fail "exit code $code ($word...) of $prog --help is not in $doc's table"
  done
done < <(echo "$help" | sed -n '/^exit codes/,$p' | sed -n 's/^  \([0-9]\)  \([a-z]*\).*/\1 \2/p')

[ "$failures" -eq 0 ] && echo "README.md and $usage agree with .ci/run and $prog --help"
exit $((failures > 0))
