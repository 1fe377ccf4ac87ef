#!/usr/bin/env bash
# A genuine defect's reproducer (isect report) compiles against the library
# alone and prints the wrong answer: it exits 1, having printed what the
# library answered beside the exact answer.
#   reproducer_test.sh ISECT PLUGIN CONTRACT CASE ROWS_JSON ROW CXX
set -eu
isect=$1 plugin=$2 contract=$3 case=$4 rows=$5 row=$6 cxx=$7
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
IFS=$'\t' read -r source build defines < <(python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))[sys.argv[2]]
print(r['source'], r['build'] or '-', ' '.join('--define ' + d for d in r['defines']), sep='\t')" "$rows" "$row")
[ "$build" = - ] && build=""
# shellcheck disable=SC2086
"$isect" report "$case" --plugin "$plugin" --contract "$contract" --source "$source" $defines --build "$build" \
    --out "$work" >/dev/null
repro=$(ls "$work"/*-repro.cpp)
# shellcheck disable=SC2086
"$cxx" -std=c++17 -O1 "$repro" -o "$work/repro" $build
set +e
out=$(timeout 10 "$work/repro" 2>&1)
rc=$?
set -e
echo "$out"
if [ "$rc" = 124 ]; then
    echo "ok: the reproducer hangs, as the finding says"; exit 0
fi
if ! grep -q "exact" <<<"$out"; then echo "FAIL: the reproducer does not print the exact answer"; exit 1; fi
if [ "$rc" != 1 ]; then echo "FAIL: the reproducer exited $rc, not 1 (the library's answer is right there)"; exit 1; fi
echo "ok: the reproducer prints the wrong answer beside the exact one"
