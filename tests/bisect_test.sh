#!/usr/bin/env bash
# One exit-status rule for every command (0 held, 1 broken whatever else
# went wrong, 2 nothing judged or an error alone, 128 + N on a signal), and
# docs/plugins.md's `git bisect run` recipe held to it: in a history of a
# kernel (good, a commit that does not build, good, bad with an unreadable
# case beside, bad), bisect names the first bad commit, with isect check
# and with isect replay.
#   bisect_test.sh ISECT SOURCE_DIR CC
set -u
isect=$(realpath "$1")
source_dir=$(realpath "$2")
cc=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
repo=$work/repo
mkdir -p "$repo/cases"
cd "$repo" || exit 1
git init -q
git config user.email t@t
git config user.name t
kernel() {  # kernel CONDITION: a box-box test whose overlap test is CONDITION
    cat >k.c <<C
#include "isect/plugin.h"
int isect_abi_version(void) { return ISECT_ABI_VERSION; }
int isect_aabb_aabb(const float a_lo[3], const float a_hi[3], const float b_lo[3], const float b_hi[3],
                    float out_lo[3], float out_hi[3]) {
    for (int i = 0; i < 3; ++i) {
        if ($1) return 0;
        out_lo[i] = a_lo[i] > b_lo[i] ? a_lo[i] : b_lo[i];
        out_hi[i] = a_hi[i] < b_hi[i] ? a_hi[i] : b_hi[i];
    }
    return 1;
}
C
}
cp "$source_dir/corpus/aabb_aabb/touching_faces_overlap.case" cases/
kernel 'a_lo[i] > b_hi[i] || b_lo[i] > a_hi[i]'; git add -A; git commit -qm good1
echo "this does not compile" >>k.c; git commit -qam broken_build
kernel 'a_lo[i] > b_hi[i] || b_lo[i] > a_hi[i]'; git commit -qam good2
# The first bad: touching is disjoint, and a case file beside it is unreadable.
kernel 'a_lo[i] >= b_hi[i] || b_lo[i] >= a_hi[i]'; printf 'family aabb_aabb\nnot a case\n' >cases/unreadable.case
git add -A; git commit -qm bad1
echo "// still bad" >>k.c; git commit -qam bad2
build='cc -shared -fPIC -I'"$source_dir"'/core -o k.so k.c 2>/dev/null || exit 125'
for run in "'$isect' check --plugin ./k.so --contract exact --family aabb_aabb --cases 20000 --seed 1 --quiet --out findings" \
           "'$isect' replay --plugin ./k.so --contract exact cases"; do
    git bisect start HEAD HEAD~4 >/dev/null 2>&1
    # The recipe of docs/plugins.md: 0 good, 1 bad, anything else skipped.
    git bisect run sh -c "CC=$cc; $build; $run >/dev/null 2>&1; rc=\$?; [ \$rc -le 1 ] && exit \$rc || exit 125" >"$work/bisect.log" 2>&1
    first=$(grep -oE "^[0-9a-f]+ is the first bad commit" "$work/bisect.log" | cut -d' ' -f1)
    git bisect reset >/dev/null 2>&1
    if [ -n "$first" ] && [ "$(git log -1 --format=%s "$first")" = bad1 ]; then echo "ok: bisect with ${run%% --*} names bad1"
    else echo "FAIL: bisect with ${run%% --*}: $(tail -5 "$work/bisect.log")"; fail=1; fi
done
# The rule itself: a broken contract outranks an unreadable file.

$cc -shared -fPIC -I"$source_dir/core" -o k.so k.c
"$isect" replay --plugin ./k.so --contract exact cases >/dev/null 2>&1
rc=$?
if [ $rc = 1 ]; then echo "ok: replay of a broken case beside an unreadable one exits 1"; else echo "FAIL: it exits $rc"; fail=1; fi
exit $fail
