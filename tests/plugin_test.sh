#!/usr/bin/env bash
# isect check --plugin: a good plugin in every report format, and plugins
# that crash, hang, answer garbage or export nothing, each with a clear
# report and the right exit code (0 holds, 1 broken, 2 cannot check).
set -u
isect=$1
example=$2
plugins=$3
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
source "$(dirname "$0")/expect.sh"
common=(--cases 400 --seed 3 --quiet --out "$out" --timeout-ms 500)
# A crash costs a worker's restart (about 20 ms under ASan): fewer cases.
crashing=(--cases 100 --seed 3 --quiet --out "$out" --timeout-ms 500)
expect 0 "the contract holds for every family checked" -- "$isect" check --plugin "$example" "${common[@]}"
expect 0 '"verdict": "holds"' -- "$isect" check --plugin "$example" --format json "${common[@]}"
"$isect" check --plugin "$example" --format json "${common[@]}" | python3 -m json.tool >/dev/null ||
    { echo "FAIL: --format json is not JSON"; fail=1; }
expect 0 '<testsuite name="isect check example_kernels' -- "$isect" check --plugin "$example" --format junit "${common[@]}"
expect 0 '\| ray_triangle \| example_kernels \| tolerant=1 \| 400 \|' -- "$isect" check --plugin "$example" --format markdown "${common[@]}"
expect 1 "crash: signal 11" -- "$isect" check --plugin "$plugins/isect_test_crash.so" "${crashing[@]}"
expect 0 "[1-9][0-9]* passed, 0 failed" -- "$isect" replay "$out"/isect_test_crash_so-aabb_aabb-3-*.case
expect 1 "stopped at the first hang \(no answer within 500 ms\)" -- "$isect" check --plugin "$plugins/isect_test_hang.so" "${common[@]}"
# Batches: a crash inside a batch entry is pinned on its input (the batch is
# run again input by input), so crash.c written as isect_aabb_aabb_batch
# breaks the contract on exactly the cases crash.c does; a hang likewise.
verdict() { "$isect" check --plugin "$1" "${crashing[@]}" --jobs 1 | grep -o "BROKEN ([0-9]* violations, [0-9]* class[es]*)"; }
scalar=$(verdict "$plugins/isect_test_crash.so")
batched=$(verdict "$plugins/isect_test_batch_crash.so")
if [ -z "$scalar" ] || [ "$scalar" != "$batched" ]; then
    echo "FAIL: crash.c says '$scalar', the same crashes through a batch entry '$batched'"
    fail=1
else
    echo "ok: crash.c and its batch entry: $scalar"
fi
expect 1 "crash: signal 11" -- "$isect" check --plugin "$plugins/isect_test_batch_crash.so" "${crashing[@]}"
expect 0 "[1-9][0-9]* passed, 0 failed" -- "$isect" replay "$out"/isect_test_batch_crash_so-aabb_aabb-3-*.case
expect 1 "stopped at the first hang \(no answer within 500 ms\)" -- "$isect" check --plugin "$plugins/isect_test_batch_hang.so" "${common[@]}"
expect 1 '<failure message=".*hang: no answer within 500 ms' -- "$isect" check --plugin "$plugins/isect_test_hang.so" --format junit "${common[@]}"
expect 1 "answer 7 is not one of aabb_plane_overlap's \\(disjoint, overlap\\)" -- "$isect" check --plugin "$plugins/isect_test_garbage.so" "${common[@]}"
# The side of a plane is returned as -1, 0, 1: a 2 is named as returned.
expect 1 "answer 2 is not one of aabb_plane's \\(back, straddle, front" -- "$isect" check --plugin "$plugins/isect_test_garbage.so" --family aabb_plane "${common[@]}"
# One batch bound, ISECT_BATCH_MAX (1024), that the host never exceeds: a
# batch entry with a scratch array of that many lanes (which aborts past it)
# holds when correct. An answer none of the family's is asked again alone
# (n = 1) before it is called a finding, and the report says the batch
# entry's answers depend on the batch; a batch slower than the timeout in
# which no input hangs alone is said, not silently run input by input.
expect 0 "isect_test_batch_bound.so +exact .* holds" -- "$isect" check --plugin "$plugins/isect_test_batch_bound.so" \
    --contract exact --cases 20000 --seed 1 --jobs 1 --quiet --out "$out"
expect 0 "note: the batch entry answered [0-9]+ inputs? with none of the family's answers in a batch, but properly alone" -- \
    "$isect" check --plugin "$plugins/isect_test_batch_depends.so" --contract exact --cases 20000 --seed 1 --quiet --out "$out"
expect 0 "note: the batch entry took longer than the timeout \(200 ms\) on [0-9]+ calls? in which no input hangs alone" -- \
    "$isect" check --plugin "$plugins/isect_test_batch_slow.so" --contract exact --cases 1500 --seed 1 --jobs 1 --timeout-ms 200 \
    --quiet --out "$out"
# What a plugin prints goes to a log of the run's own beside the findings,
# whole, and the report says it in one line: 20,000 debug lines do not reach
# the terminal.
"$isect" check --plugin "$plugins/isect_test_noisy.so" --contract exact --cases 20000 --seed 1 --out "$out/noisy" \
    >"$out/noisy.txt" 2>"$out/noisy.err"
if grep -q "note: the plugin printed [0-9]* lines .*kept whole in $out/noisy/isect_test_noisy-output.log" "$out/noisy.txt" &&
    [ "$(wc -c <"$out/noisy.err")" -lt 2000 ] && [ "$(wc -c <"$out/noisy/isect_test_noisy-output.log")" -gt 400000 ]; then
    echo "ok: a noisy plugin: $(wc -c <"$out/noisy/isect_test_noisy-output.log") bytes kept in a log, one line in the report"
else
    echo "FAIL: a noisy plugin: $(wc -c <"$out/noisy.err") bytes on stderr"; grep note "$out/noisy.txt"; fail=1
fi
expect 2 "exports none of the family functions" -- "$isect" check --plugin "$plugins/isect_test_nosym.so" "${common[@]}"
expect 2 "does not export isect_sphere_aabb" -- "$isect" check --plugin "$example" --family sphere_aabb "${common[@]}"
expect 2 "cannot load" -- "$isect" check --plugin "$0" "${common[@]}"
expect 2 "no such file" -- "$isect" check --plugin "$out/none.so" "${common[@]}"
expect 2 "is not exact, conservative, conservative=K or tolerant=K" -- "$isect" check --plugin "$example" --contract sloppy
exit $fail
