#!/usr/bin/env bash
# Declared domains, failure classes and validity maps on kernels as users
# write them (examples/kernels): inside --domain 2^-20:2^20 ordinary float
# code holds the contracts it should, real bugs stay BROKEN with witnesses
# inside the domain, two bugs are two classes, and the map picture is
# written and opens.
set -u
isect=$1
kernels=$2
plugins=$3
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
source "$(dirname "$0")/expect.sh"
dom=(--domain 2^-20:2^20 --cases 20000 --seed 1 --quiet --out "$out")
expect 0 "domain: 2\^-20:2\^20" -- "$isect" check --plugin "$kernels/float_sat.so" --contract tolerant=64 "${dom[@]}"
expect 0 "float_sat_conservative +conservative .* holds" -- "$isect" check --plugin "$kernels/float_sat_conservative.so" --contract conservative "${dom[@]}"
expect 0 "transform_nearest +tolerant=64 .* holds" -- "$isect" check --plugin "$kernels/transform_nearest.so" --contract tolerant=64 "${dom[@]}"
expect 1 "cuts box.(lo|hi)" -- "$isect" check --plugin "$kernels/transform_nearest.so" --contract exact "${dom[@]}"
expect 1 "false miss \(centre (below|above) the box \(nearest on a (lo|hi) face\)\)" -- "$isect" check --plugin "$kernels/sphere_wrong_face.so" --contract tolerant=64 "${dom[@]}"
expect 1 "BROKEN \([0-9]+ violations, 2 classes\)" -- "$isect" check --plugin "$kernels/two_bugs.so" --contract exact "${dom[@]}"
expect 1 "false miss \(inside\), inputs ordinary" -- "$isect" check --plugin "$kernels/mt_epsilon.so" --contract tolerant=64 "${dom[@]}"
# Its witness: every nonzero value inside the domain, and still broken there.
expect 0 "[0-9]+ passed, 0 failed, 0 skipped" -- "$isect" replay --plugin "$kernels/mt_epsilon.so" --contract tolerant=64 \
    --expect-broken --domain 2^-20:2^20 "$out"/mt_epsilon-ray_triangle-1-*.case
# Double precision through ABI 2: the absolute epsilon of a double
# Möller-Trumbore is found inside the domain, its witness is a case in
# double, and replay judges it broken through isect_ray_triangle_d.
expect 1 "mt_epsilon_double +tolerant=1 .*BROKEN" -- "$isect" check --plugin "$kernels/mt_epsilon_double.so" --precision double "${dom[@]}"
expect 0 "^precision  double" -- cat "$out"/mt_epsilon_double-ray_triangle-1-*.case
expect 0 "[0-9]+ passed, 0 failed, 0 skipped" -- "$isect" replay --plugin "$kernels/mt_epsilon_double.so" \
    --expect-broken --domain 2^-20:2^20 "$out"/mt_epsilon_double-ray_triangle-1-*.case
expect 2 "exports no float function .*isect_ray_triangle_d.*--precision double" -- "$isect" check --plugin "$kernels/mt_epsilon_double.so" "${dom[@]}"
# One source built with and without FMA contraction: isect diff finds
# inputs where the two builds disagree and says which one the exact answer
# sides with (the FMA build exists where the machine runs FMA).
if [ -e "$kernels/mt_float_fma.so" ]; then
    expect 1 "disagree; the references side with A on [1-9][0-9]*, with B on [1-9][0-9]*" -- "$isect" diff \
        "$kernels/mt_float_nofma.so" "$kernels/mt_float_fma.so" --family ray_triangle --cases 20000 --seed 1 --out "$out"
    expect 0 "^# A = mt_float_nofma, B = mt_float_fma" -- sh -c "cat '$out'/diff-mt_float_nofma-mt_float_fma-ray_triangle-1*.case"
else
    echo "skip: this machine does not run FMA, so examples/kernels has no mt_float_fma build"
fi
# A plugin of ABI version 1 (floats only, returning 1) loads unchanged.
expect 0 "abi_v1 +tolerant=1 .* holds" -- "$isect" check --plugin "$plugins/isect_test_abi_v1.so" "${dom[@]}"
# Without a domain, the same plain float SAT is broken by products leaving float's range.
expect 1 "float_sat +tolerant=64 .*BROKEN" -- env ISECT_MAP_PICTURES=1 "$isect" check --plugin "$kernels/float_sat.so" \
    --contract tolerant=64 --cases 20000 --seed 1 --quiet --out "$out"
# The map picture is written beside the report, and opens.
png=$out/float_sat-aabb_triangle-1-map.png
if [ -s "$png" ] && /usr/bin/python3 -c "import matplotlib.image as m, sys; m.imread(sys.argv[1])" "$png"; then
    echo "ok: $png opens"
else
    echo "FAIL: no validity map picture at $png"; fail=1
fi
# ISECT_MAP_PICTURES=0 (as ctest runs these scripts): the tables, no picture.
expect 1 "validity map of float_sat" -- env ISECT_MAP_PICTURES=0 "$isect" check --plugin "$kernels/float_sat.so" \
    --contract tolerant=64 --cases 2000 --seed 1 --quiet --out "$out/no_pictures"
if ls "$out/no_pictures"/*.png >/dev/null 2>&1; then echo "FAIL: ISECT_MAP_PICTURES=0 drew a picture"; fail=1
else echo "ok: ISECT_MAP_PICTURES=0 draws no picture"; fi
# --gen is honoured with --plugin: the mix line shows what ran.
expect 0 "mix: grid 100%" -- "$isect" check --plugin "$kernels/float_sat.so" --contract tolerant=64 --gen grid "${dom[@]}"
# A plugin's own isect_domain(), and the command line over it.
expect 0 "domain: 2\^-10:2\^10" -- "$isect" check --plugin "$plugins/isect_test_declared_domain.so" --cases 2000 --seed 1 --quiet --out "$out"
expect 0 "domain: 2\^-4:2\^4" -- "$isect" check --plugin "$plugins/isect_test_declared_domain.so" --domain 2^-4:2^4 --cases 2000 --seed 1 --quiet --out "$out"
# Verdicts a kernel's author would sign: declared preconditions, number
# scales from the problem's conditioning, one class per cause, witnesses
# that show the cause.
big=(--domain 2^-20:2^20 --cases 30000 --seed 1 --quiet --out "$out")
# three.js's ray-box (1/d slabs, a nonzero direction assumed) holds once
# its precondition is declared; without it, the class says what to declare.
expect 0 "slabs_one_over_d +tolerant=64 .* holds" "requires: nonzero_direction \\([0-9.]+% of the generated inputs adapted" -- \
    "$isect" check --plugin "$kernels/slabs_one_over_d.so" --contract tolerant=64 --require nonzero_direction "${big[@]}"
expect 1 "declare --require nonzero_direction" -- "$isect" check --plugin "$kernels/slabs_one_over_d.so" --contract tolerant=64 "${big[@]}"
# pbrt-v4's watertight test with its self-intersection guard: exactly its
# one real class, once the zero direction it forbids is declared.
expect 1 "watertight_t_guard +tolerant=1 .*BROKEN \\([0-9]+ violations, 1 class\\)" -- "$isect" check \
    --plugin "$kernels/watertight_t_guard.so" --require nonzero_direction "${big[@]}"
# Bullet's centre-and-extent slabs: numbers within E = 2 of their condition,
# also where the exact entry is 0.
expect 0 "segment_centre_extent +tolerant=1 .* holds" -- "$isect" check --plugin "$kernels/segment_centre_extent.so" --error 2 "${big[@]}"
expect 0 "1 passed, 0 failed" -- "$isect" replay --plugin "$kernels/segment_centre_extent.so" --error 2 \
    "$kernels/../../../corpus/segment_aabb/origin_on_face_centre_extent.case"
# Touching called disjoint is in band at every scale, boxes of zero size
# at the origin included.
expect 0 "box_touch_disjoint +tolerant=1 .* holds" -- "$isect" check --plugin "$kernels/box_touch_disjoint.so" --cases 30000 --seed 1 --quiet --out "$out"
expect 0 "1 passed, 0 failed" -- "$isect" replay --plugin "$kernels/box_touch_disjoint.so" \
    "$kernels/../../../corpus/aabb_aabb/point_boxes_touch_at_origin.case"
# A SAT whose zero axis separates: BROKEN, its witness a proper triangle
# and a box with extent (it meets those preconditions).
expect 1 "sat_zero_axis +tolerant=1 .*BROKEN" -- "$isect" check --plugin "$kernels/sat_zero_axis.so" "${big[@]}"
expect 0 "1 passed, 0 failed, 0 skipped" -- "$isect" replay --plugin "$kernels/sat_zero_axis.so" \
    --expect-broken --require proper_triangle,positive_extent "$out"/sat_zero_axis-aabb_triangle-1-*.case
# Möller-Trumbore without t >= 0: one bug, one class.
expect 1 "BROKEN \\([0-9]+ violations, 1 class\\)" "false hit \\(behind the origin\\)" -- \
    "$isect" check --plugin "$kernels/mt_no_t_check.so" "${big[@]}"
# A precondition no family has is refused, naming the known ones.
expect 2 "--require 'round_box' is no family's precondition" -- "$isect" check --require round_box --cases 10
# Replay skips (and names) a case outside the declared preconditions.
expect 0 "skip .*misses --require proper_triangle" -- "$isect" replay --require proper_triangle \
    "$kernels/../../../corpus/aabb_triangle/zero_normal_segment_vs_point_box.case" "$kernels/../../../corpus/aabb_triangle/seed002_pm10_edge_axis.case"

# Bad domains are refused, naming the value.
expect 2 "--domain '1:0.5': LO is above HI" -- "$isect" check --domain 1:0.5 --cases 10
expect 2 "--domain '2\^-20' is not LO:HI" -- "$isect" check --domain 2^-20 --cases 10
expect 2 "each bound must be a positive finite decimal" -- "$isect" replay --domain 0:1 "$out"
exit $fail
