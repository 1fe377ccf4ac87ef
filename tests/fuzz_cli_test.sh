#!/usr/bin/env bash
# `isect fuzz` end to end on one family and a planted bug: a short campaign
# writes a minimised case, the JSON report counts it, and `isect replay
# --expect-broken` judges every written case broken. Then what a campaign
# must never do: lose its cases to SIGTERM or leave libFuzzer running, end
# its jobs on a kernel that fails on the seeds, or judge a -Ofast plugin's
# kernel in another floating-point state than isect check does.
#   fuzz_cli_test.sh ISECT FUZZ_DIR EXAMPLE_PLUGIN_DIR EXAMPLE_KERNELS_DIR
set -u
isect=$(realpath "$1")
fuzz_dir=$(realpath "$2")
examples=$3
kernels=$4
source "$(dirname "$0")/expect.sh"
work=$(mktemp -d)
export ISECT_FUZZ_DIR=$fuzz_dir
expect 1 '"new_cases": [1-9]' -- "$isect" fuzz --family aabb_aabb --kernel broken:intersection_min_lo --minutes 0.05 \
    --corpus "$work/corpus" --format json
expect 0 '"passed": true' -- sh -c "'$isect' replay --kernel broken:intersection_min_lo --expect-broken --format json '$work/corpus'"
# A convention's planted bug, fuzzed in the family the convention declares.
expect 1 "broken:touching_takes_a_side.*BROKEN" -- "$isect" fuzz --family aabb_plane --kernel broken:touching_takes_a_side \
    --minutes 0.05 --corpus "$work/convention"
expect 1 "broken:largest_deviation_face.*BROKEN" -- "$isect" fuzz --family sphere_aabb --kernel broken:largest_deviation_face \
    --minutes 0.05 --corpus "$work/surface"
expect 2 "is not text, markdown, json or junit" -- "$isect" fuzz --family aabb_aabb --format yaml

# A campaign never deletes another's folder: a crash input an earlier
# campaign kept is still there after the next one.
mkdir -p "$work/w/aabb_aabb-overlap/run-earlier/artifacts"
echo kept > "$work/w/aabb_aabb-overlap/run-earlier/artifacts/crash-earlier"
"$isect" fuzz --family aabb_aabb --kernel overlap --minutes 0.05 --corpus "$work/other" --work "$work/w" >/dev/null 2>&1
if [ -s "$work/w/aabb_aabb-overlap/run-earlier/artifacts/crash-earlier" ] && [ -d "$work/w/aabb_aabb-overlap/pool" ]; then
    echo "ok: an earlier campaign's crash input survives the next campaign"
else echo "FAIL: the next campaign deleted an earlier one's crash input, or worked elsewhere"; ls -R "$work/w" | head; fail=1; fi
# Campaign work goes to a folder of the user's: never beside the targets
# (the build tree) and, run inside isect's source tree, not there either.
(cd "$work" && "$isect" fuzz --family aabb_aabb --kernel overlap --minutes 0.05 --corpus "$work/cwd" >/dev/null 2>&1)
if [ -d "$work/isect-fuzz/aabb_aabb-overlap/pool" ] && ! ls -d "$fuzz_dir"/../campaign_* >/dev/null 2>&1; then
    echo "ok: campaign work in ./isect-fuzz of the current folder, none in the build tree"
else echo "FAIL: campaign work not in ./isect-fuzz, or left in the build tree"; ls "$work" "$fuzz_dir/.."; fail=1; fi

# SIGTERM (a CI timeout, a cancelled job): the cases found so far are
# written, the report says interrupted, the exit status is 143, and no
# libFuzzer process is left behind.
"$isect" fuzz --family aabb_aabb --kernel broken:touching_disjoint --minutes 2 --corpus "$work/term" >"$work/term.out" 2>&1 &
pid=$!
for _ in $(seq 600); do grep -q "classes found [1-9]" "$work/term.out" && break; sleep 0.1; done
sleep 1
kill -TERM $pid
wait $pid
rc=$?
sleep 1
left=$(pgrep -f "$fuzz_dir/fuzz_aabb_aabb" | wc -l)
if [ $rc = 143 ] && grep -q "INTERRUPTED by SIGTERM" "$work/term.out" && [ "$(ls "$work/term" | wc -l)" -ge 1 ] && [ "$left" = 0 ]; then
    echo "ok: SIGTERM during isect fuzz -> 143, $(ls "$work/term" | wc -l) cases kept, no libFuzzer left"
else
    echo "FAIL: SIGTERM during isect fuzz: exit $rc, $(ls "$work/term" | wc -l) cases, $left libFuzzer processes left"
    tail -20 "$work/term.out"; fail=1
fi
expect 0 "the contract breaks on every case, as expected" -- "$isect" replay --kernel broken:touching_disjoint --expect-broken "$work/term"

# A relation a kernel claims is fuzzed too: strict edge tests keep their
# contract and leak; the finding is kept as a case that names its relation.
expect 1 "broken:strict_edges: watertight BROKEN" -- "$isect" fuzz --family ray_triangle --kernel broken:strict_edges \
    --minutes 0.05 --corpus "$work/leaks"
if grep -qx "relation  watertight" "$work"/leaks/*.case; then echo "ok: the fuzz finding names its relation"
else echo "FAIL: no fuzz finding names the relation watertight"; ls "$work/leaks"; fail=1; fi

# A kernel that fails on the seed inputs: each finding is kept and the jobs
# go on (no crash, so libFuzzer never restarts a job for it).
"$isect" fuzz --family aabb_aabb --kernel broken:touching_disjoint --minutes 0.05 --corpus "$work/seedfail" >"$work/seedfail.out" 2>&1
log=$(grep -o "libFuzzer log in [^ ]*" "$work/seedfail.out" | sed 's/libFuzzer log in //')
if grep -q "new case" "$work/seedfail.out" && grep -q "oom/timeout/crash: 0/0/0" "$log" && ! grep -q "oom/timeout/crash: [0-9]*/[0-9]*/[1-9]" "$log"; then
    echo "ok: a kernel failing on the seeds: $(grep -c 'new case' "$work/seedfail.out") new cases, no job ended by a finding"
else
    echo "FAIL: a kernel failing on the seeds ended jobs or found nothing"; tail -5 "$log"; tail -5 "$work/seedfail.out"; fail=1
fi

# The floating-point environment: the -Ofast build of the example plugin
# sets FTZ/DAZ as it loads; fuzz judges its kernel so, the truth never, and
# says so, as check does; --fp-env sets it on purpose.
expect 1 "environment: FTZ, DAZ \\(set by the plugin as it loaded" -- "$isect" fuzz --plugin "$examples/example_kernels_ofast.so" \
    --family aabb_aabb --contract exact --minutes 0.05 --corpus "$work/ofast"
expect 1 "the contract is BROKEN" -- "$isect" fuzz --plugin "$examples/example_kernels.so" --family aabb_aabb --contract exact \
    --fp-env ftz,daz --minutes 0.05 --corpus "$work/ftz"
expect 0 "environment: default" -- "$isect" fuzz --plugin "$examples/example_kernels.so" --family aabb_aabb --contract exact \
    --minutes 0.05 --corpus "$work/default"
# Declared preconditions reach the targets: three.js's 1/d slabs are broken
# by a zero direction, which the class names, and hold once it is declared.
expect 1 "declare --require nonzero_direction" -- "$isect" fuzz --plugin "$kernels/slabs_one_over_d.so" --family ray_aabb \
    --contract tolerant=64 --domain 2^-20:2^20 --minutes 0.05 --corpus "$work/zero_dir"
expect 0 "requires: nonzero_direction" -- "$isect" fuzz --plugin "$kernels/slabs_one_over_d.so" --family ray_aabb \
    --contract tolerant=64 --domain 2^-20:2^20 --require nonzero_direction --minutes 0.05 --corpus "$work/nonzero_dir"
# A plugin's findings stay inside the domain and preconditions it declares
# (the bytes are fitted into them; nothing outside is judged), each written
# case gets the verdict isect replay gives it under the same declarations,
# and isect fuzz finds its targets with no environment variable set.
declared=(--domain 2^-20:2^20 --require proper_triangle,nonzero_direction)
expect 1 "the contract is BROKEN" -- env -u ISECT_FUZZ_DIR "$isect" fuzz --plugin "$kernels/mt_epsilon.so" --family ray_triangle \
    --contract tolerant=64 "${declared[@]}" --minutes 0.1 --corpus "$work/declared" --work "$work/w2"
expect 0 "[1-9][0-9]* passed, 0 failed, 0 skipped" -- "$isect" replay --plugin "$kernels/mt_epsilon.so" --contract tolerant=64 \
    "${declared[@]}" --expect-broken "$work/declared"
# Under coreutils timeout (SIGTERM to isect, then to its process group):
# the campaign stops in order, judges and writes what libFuzzer found, and
# prints its report.
timeout 12 "$isect" fuzz --plugin "$kernels/mt_epsilon.so" --family ray_triangle --contract tolerant=64 "${declared[@]}" \
    --minutes 1 --corpus "$work/timeout" --work "$work/w3" >"$work/timeout.out" 2>&1
rc=$?
if [ $rc = 124 ] && grep -q "INTERRUPTED by SIGTERM" "$work/timeout.out" && [ "$(ls "$work/timeout" | wc -l)" -ge 1 ]; then
    echo "ok: isect fuzz under timeout: exit 124, the report and $(ls "$work/timeout" | wc -l) case(s) kept"
else
    echo "FAIL: isect fuzz under timeout: exit $rc, $(ls "$work/timeout" 2>/dev/null | wc -l) cases"; tail -20 "$work/timeout.out"; fail=1
fi
rm -rf "$work"
exit $fail
