#!/usr/bin/env bash
# The isect command's exit codes and messages: 0 when all holds, 1 when a
# case fails, 2 for unreadable input, naming file, line and value, while every
# other case is still checked.
set -u
isect=$1
data=$2
source "$(dirname "$0")/expect.sh"
expect 0 "1 passed, 0 failed, 0 skipped .*, 0 errors" -- "$isect" replay "$data/good"
expect 2 "bad/not_a_float.case:4: box.hi: '1.0.0' is not a number" -- "$isect" replay "$data/good" "$data/bad"
# A failed case outranks the unreadable ones: exit 1 (the one exit rule).
expect 1 "1 passed, 1 failed, 0 skipped .*, 2 errors" -- "$isect" replay "$data/good" "$data/bad" "$data/wrong_expect.case"
expect 1 "expect says overlap but both references say disjoint" -- "$isect" replay "$data/wrong_expect.case"
expect 2 "no_such.case: no such file or folder" -- "$isect" replay "$data/no_such.case"
expect 2 "garbage.case: missing key 'family'" -- "$isect" replay "$data/bad/garbage.case"
expect 2 "" -- "$isect" check --seconds -3
expect 2 "" -- "$isect" frobnicate
expect 2 "no float kernel named 'nope'" -- "$isect" check --kernel nope --cases 10
expect 0 "sat +tolerant=1 +200 " -- "$isect" check --cases 200 --seed 3 --quiet --out "${TMPDIR:-/tmp}/isect-cli-test"
expect 1 "expect says hit but both references say miss" -- "$isect" replay "$data/wrong_expect_ray.case"
expect 2 "negative_tmax.case:4: tmax: '-1' is outside the domain of ray_triangle" -- "$isect" replay "$data/bad_family"
expect 2 "no family named 'cube_sphere'" -- "$isect" check --family cube_sphere --cases 10
expect 1 "broken:touching_disjoint .*BROKEN" -- "$isect" check --family aabb_aabb --kernel broken:touching_disjoint --cases 3000 --seed 1 --quiet --out "${TMPDIR:-/tmp}/isect-cli-test"
expect 0 "watertight +tolerant=1" -- "$isect" kernels

# Hand-written cases: a decimal that is not a float is a warning naming the
# float it became (an error under --strict); expect.NAME X +- TOL; either
# normal of an edge is right, a face's wrong normal is not.
expect 0 "tolerance_and_decimals.case:3: org: '0.1' is not a float; it reads as 0.100000001 \\(0x1.99999ap-4\\)" -- "$isect" replay "$data/hand"
expect 2 "tolerance_and_decimals.case:3: org: '0.1' is not a float.*--strict" -- "$isect" replay --strict "$data/hand"
# A float's shortest round-trip decimal (what isect writes) names that float:
# no warning, even under --strict; a rounded hexfloat is not a float.
expect 0 "^silent, 1 passed" -- sh -c "printf 'family aabb_plane\nbox.lo 0 0 0\nbox.hi 2.0000002 1 1\nn 1 0 0\nd -2.0000002\nexpect front\n' > '${TMPDIR:-/tmp}/isect-rt.case' && '$isect' replay --strict '${TMPDIR:-/tmp}/isect-rt.case' > '${TMPDIR:-/tmp}/isect-rt.out' 2>&1; grep -q warning '${TMPDIR:-/tmp}/isect-rt.out' && echo warned || echo silent, \$(grep -o '[0-9]* passed' '${TMPDIR:-/tmp}/isect-rt.out')"
expect 2 "d: '-0x1.0000001p\+1' is not a float" -- sh -c "sed 's/^d .*/d -0x1.0000001p+1/' '${TMPDIR:-/tmp}/isect-rt.case' > '${TMPDIR:-/tmp}/isect-hex.case' && '$isect' replay --strict '${TMPDIR:-/tmp}/isect-hex.case'"
expect 1 "expect.normal.y says -1 but the references say 0" -- "$isect" replay "$data/wrong_face_normal.case"
expect 1 "expect.t says 1.5 \\+- 0.25 but the references say 1" -- sh -c "sed 's/^expect.t .*/expect.t 1.5 +- 0.25/' '$data/hand/tolerance_and_decimals.case' > '${TMPDIR:-/tmp}/isect-tol.case' && '$isect' replay '${TMPDIR:-/tmp}/isect-tol.case'"

# The findings database: a finding written by one run is replayed first by
# the next run of the same kernel, and breaks it while it still fails;
# promoted, it moves into the corpus.
db=$(mktemp -d)
expect 1 "BROKEN" -- "$isect" check --family aabb_aabb --kernel broken:touching_disjoint --cases 3000 --seed 1 --quiet --out "$db/findings"
expect 1 "findings replayed first: [1-9][0-9]* \\([1-9][0-9]* still failing, 0 now passing" -- \
    "$isect" check --family aabb_aabb --kernel broken:touching_disjoint --gen uniform --cases 1 --seed 2 --quiet --out "$db/findings"
first=$(ls "$db/findings"/*.case | head -1)
sed 's/^# signature: broken:touching_disjoint|/# signature: overlap|/' "$first" > "$db/findings/now_fixed.case"
expect 0 "now passing +.*now_fixed.case \\(overlap\\)" -- "$isect" check --family aabb_aabb --kernel overlap --cases 100 --seed 2 --quiet --out "$db/findings"
expect 0 "\"still_failing\": false" -- "$isect" check --family aabb_aabb --kernel overlap --cases 100 --seed 2 --format json --out "$db/findings"
expect 0 "promoted .*now_fixed.case -> $db/corpus/aabb_aabb/now_fixed.case" -- "$isect" promote "$db/findings/now_fixed.case" --corpus "$db/corpus"
expect 2 "already exists" -- sh -c "cp '$first' '$db/now_fixed.case' && '$isect' promote '$db/now_fixed.case' --corpus '$db/corpus'"
expect 0 "1 passed, 0 failed" -- "$isect" replay "$db/corpus/aabb_aabb/now_fixed.case"
# A double run's findings are replayed by the next double run only.
expect 1 "watertight +tolerant=1 .*BROKEN" -- "$isect" check --precision double --family ray_triangle --kernel watertight --cases 20000 --seed 1 --quiet --out "$db/double"
expect 1 "findings replayed first: [1-9][0-9]* \([1-9][0-9]* still failing" -- "$isect" check --precision double --family ray_triangle --kernel watertight --gen grid --cases 1 --seed 2 --quiet --out "$db/double"
expect 0 "moller_trumbore +tolerant=1 .* holds" -- "$isect" check --family ray_triangle --kernel moller_trumbore --cases 2000 --seed 2 --quiet --out "$db/double"
rm -rf "$db"

# One report for every check: replay and fuzz take --format like check, with
# the same fields (JSON field list in docs/checking.md).
expect 1 '"command": "replay"' -- "$isect" replay --format json --kernel broken:naive_slab_nan "$data/../../corpus/ray_aabb"
expect 1 '"wrong_answers": [1-9]' -- "$isect" replay --format json --kernel broken:naive_slab_nan "$data/../../corpus/ray_aabb"
expect 0 '"passed": true' -- "$isect" replay --format json --kernel broken:naive_slab_nan --expect-broken "$data/../../corpus/ray_aabb/slab_nan_on_face.case"
expect 1 '<failure message="answers miss, exact is hit' -- "$isect" replay --format junit --kernel broken:naive_slab_nan "$data/../../corpus/ray_aabb"
expect 1 '\| ray_aabb \| broken:naive_slab_nan \| conservative \| 5 \|' -- "$isect" replay --format markdown --kernel broken:naive_slab_nan "$data/../../corpus/ray_aabb"
expect 1 'failure message="expect says overlap but both references say disjoint' -- "$isect" replay --format junit "$data/wrong_expect.case"
expect 2 "is not text, markdown, json or junit" -- "$isect" replay --format yaml "$data/good"
# ... and check on built-in kernels, without --plugin.
expect 1 '<testcase classname="aabb_aabb" name="broken:touching_disjoint \(exact\)".*' -- "$isect" check --family aabb_aabb --kernel broken:touching_disjoint --cases 3000 --seed 1 --format junit --out "${TMPDIR:-/tmp}/isect-cli-test"
# Double precision: the double built-ins are listed and checked in units of
# 2^-53; a bad --precision is a usage error.
expect 0 "double-precision kernels" -- "$isect" kernels
expect 0 "ray_triangle \(double\).*" -- "$isect" check --precision double --family ray_triangle --domain 2^-250:2^250 --cases 3000 --seed 1 --quiet --out "${TMPDIR:-/tmp}/isect-cli-double"
expect 1 "broken:seed_epsilon +tolerant=1 .*BROKEN" -- "$isect" check --precision double --family ray_triangle --kernel broken:seed_epsilon --cases 20000 --seed 1 --quiet --out "${TMPDIR:-/tmp}/isect-cli-double"
expect 2 "--precision 'half' is not float or double" -- "$isect" check --precision half --cases 10
# isect diff: two built-in kernels on the same inputs; the references say
# which side each disagreement's exact answer is on.
expect 1 "disagree; the references side with A on [0-9]+, with B on [0-9]+" -- "$isect" diff moller_trumbore watertight --family ray_triangle --cases 20000 --seed 1 --out "${TMPDIR:-/tmp}/isect-cli-diff"
expect 0 "A and B agree on every one" -- "$isect" diff exact exact --family ray_triangle --cases 5000 --seed 1 --out "${TMPDIR:-/tmp}/isect-cli-diff"
expect 1 '"command": "diff"' -- "$isect" diff moller_trumbore watertight --family ray_triangle --cases 20000 --seed 1 --format json --out "${TMPDIR:-/tmp}/isect-cli-diff"
expect 2 "no family 'ray_triangle' has a float kernel on both sides" -- "$isect" diff moller_trumbore nope --family ray_triangle --cases 10
rm -rf "${TMPDIR:-/tmp}/isect-cli-junit"  # a finding left there would be replayed first
expect 0 '<testsuite name="isect check built-in kernels" tests="2" failures="0" errors="0">' -- "$isect" check --family aabb_aabb --cases 300 --seed 1 --format junit --out "${TMPDIR:-/tmp}/isect-cli-junit"
# isect decode, the inverse of encode: a fuzz target's inputs (a
# ClusterFuzzLite crash, say) back as case files that replay as they were.
codec=$(mktemp -d)
"$isect" encode "$data/../../corpus/aabb_aabb" --out "$codec/bin" >/dev/null
expect 0 "aabb_aabb-point_boxes_touch_at_origin_bin.case" -- "$isect" decode --family aabb_aabb "$codec"/bin/*.bin --out "$codec/cases"
expect 0 " 0 failed" -- "$isect" replay "$codec/cases"
expect 2 "no family named 'nope'" -- "$isect" decode --family nope "$codec"/bin/point_boxes_touch_at_origin.bin
rm -rf "$codec"
exit $fail
