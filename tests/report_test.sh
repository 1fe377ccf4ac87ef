#!/usr/bin/env bash
# isect report: a finding as a standalone reproducer and an issue body. The
# reproducer of a planted defect compiles alone and prints the wrong answer
# beside the exact one (exit 1); a case the kernel keeps is nothing to
# report; a bad case file is named.
#   report_test.sh ISECT SOURCE_DIR EXAMPLE_KERNELS_DIR CXX
set -u
isect=$1
source_dir=$2
kernels=$3
cxx=$4
source "$(dirname "$0")/expect.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# bx's Möller-Trumbore on a ray in the triangle's plane: NaN numbers.
printf 'family  ray_triangle\norg     0 0 0\ndir     1 0 0\ntmax    inf\ntri     1 -1 0   1 1 0   3 0 0\nexpect  hit\n' >"$work/coplanar.case"
expect 0 "coplanar-repro.cpp" -- "$isect" report "$work/coplanar.case" --plugin "$kernels/mt_no_det_check.so" \
    --source "$source_dir/examples/kernels/mt_no_det_check.c" --title "bx intersect(Ray, Triangle)" --out "$work"
if "$cxx" -std=c++17 -O1 "$work/coplanar-repro.cpp" -o "$work/repro" 2>"$work/cc.log"; then
    out=$("$work/repro"); rc=$?
    if [ "$rc" = 1 ] && grep -q "exact" <<<"$out"; then echo "ok: the reproducer prints the wrong answer and exits 1"
    else echo "FAIL: the reproducer exited $rc:"; echo "$out"; fail=1; fi
else
    echo "FAIL: the reproducer does not compile alone:"; cat "$work/cc.log"; fail=1
fi
for part in "### bx intersect\(Ray, Triangle\): t is nan where the exact value is 1 \(coplanar ray\)" "\*\*Exact answer\*\*: hit" "\*\*Contract\*\*: tolerant=1"; do
    if grep -qE "$part" "$work/coplanar-issue.md"; then echo "ok: the issue body has /$part/"
    else echo "FAIL: the issue body lacks /$part/"; cat "$work/coplanar-issue.md"; fail=1; fi
done
# A case the kernel gets right: nothing to report.
printf 'family  ray_triangle\norg     0.25 0.25 -1\ndir     0 0 1\ntmax    inf\ntri     0 0 0   1 0 0   0 1 0\nexpect  hit\n' >"$work/plain.case"
expect 1 "keeps its contract .* nothing to report" -- "$isect" report "$work/plain.case" --plugin "$kernels/mt_no_det_check.so" \
    --source "$source_dir/examples/kernels/mt_no_det_check.c" --out "$work"
# A case file that is not one.
printf 'family  ray_triangle\norg 0 0\n' >"$work/bad.case"
expect 2 "bad.case:2: org" -- "$isect" report "$work/bad.case" --plugin "$kernels/mt_no_det_check.so" \
    --source "$source_dir/examples/kernels/mt_no_det_check.c" --out "$work"
exit $fail
