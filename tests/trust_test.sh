#!/usr/bin/env bash
# A gate is trusted both ways: it never passes what it did not judge, and it
# never loses what it found. Each block here is a defect a new user met
# (issue "Never lose a finding, never pass a broken gate"); each fails on
# the code before that issue.
#   trust_test.sh ISECT EXAMPLE_PLUGIN_DIR TEST_PLUGIN_DIR SOURCE_DIR
set -u
isect=$(realpath "$1")
examples=$(realpath "$2")
plugins=$(realpath "$3")
source=$(realpath "$4")
source "$(dirname "$0")/expect.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
example=$examples/example_kernels.so
# No validity-map pictures (python and matplotlib, about a second each)
# but where a block looks at the maps on disk: those set it back to 1.
export ISECT_MAP_PICTURES=0
q=(--quiet --out "$work/findings")
d=(--out "$work/findings")

# --- Verdicts that cannot be vacuous ----------------------------------------------
expect 2 "no case was judged" -- "$isect" check --family aabb_aabb --seconds 1e-9 "${q[@]}"
# A domain that holds no number of the precision judges only zeros: a usage
# error, from the command line or a plugin's isect_domain(), in check and fuzz.
expect 2 "--domain 2\^-160:2\^-150 holds no float: the least is 2\^-149" -- "$isect" check --kernel broken:sat_absolute_epsilon \
    --domain 2^-160:2^-150 --cases 20000 --seed 1 "${q[@]}"
expect 2 "holds no float: the greatest is 3.4028235e\+38" -- "$isect" check --plugin "$example" --domain 1e39:1e40 --cases 100 "${q[@]}"
expect 2 "isect_domain\(\) declares 1e\+39:1e\+40 holds no float" -- "$isect" check --plugin "$plugins/isect_test_declared_domain_empty.so" \
    --cases 100 "${q[@]}"
expect 2 "isect_domain\(\) declared \[0, 0\]; it must be 0 < lo <= hi" -- "$isect" check \
    --plugin "$plugins/isect_test_declared_domain_zero.so" --cases 100 "${q[@]}"
expect 2 "holds no float" -- "$isect" fuzz --family aabb_aabb --domain 2^-160:2^-150 --minutes 0.1 --corpus "$work/nofloat"
expect 0 "domain: 1e\+39:1e\+40" -- "$isect" check --family triangle_triangle --precision double --domain 1e39:1e40 --cases 1000 \
    --seed 1 "${q[@]}"
expect 2 "--seconds: 'nan' is not a number above 0" -- "$isect" check --family aabb_aabb --seconds nan "${q[@]}"
expect 2 "--cases: '-5' is not a whole number from 1" -- "$isect" check --family aabb_aabb --cases -5 "${q[@]}"
expect 2 "--seed: '-1' is not a whole number from 0" -- "$isect" check --family aabb_aabb --seed -1 --cases 10 "${q[@]}"
expect 2 "--error: 'nan' is not a number" -- "$isect" check --plugin "$example" --error nan --cases 10 "${q[@]}"
expect 2 "--timeout-ms: '0' is not a whole number from 1" -- "$isect" check --plugin "$example" --timeout-ms 0 --cases 10 "${q[@]}"
expect 2 "--tolerance: 'nan' is not a number" -- "$isect" diff moller_trumbore watertight --tolerance nan --cases 10 "${d[@]}"
expect 2 "--cases: '-1' is not a whole number" -- "$isect" diff moller_trumbore watertight --cases -1 "${d[@]}"
expect 2 "--minutes: '0' is not a number above 0" -- "$isect" fuzz --family aabb_aabb --minutes 0
# A number is echoed as given: 1e-06, not 9.9999999999999995e-07.
expect 1 "numbers may differ by 1e-06 u" -- "$isect" diff moller_trumbore watertight --family ray_triangle --cases 20000 --seed 1 --tolerance 1e-6 "${d[@]}"
expect 1 '"tolerance": 1e-06,?$' -- "$isect" diff moller_trumbore watertight --family ray_triangle --cases 20000 --seed 1 --tolerance 1e-6 --format json "${d[@]}"

# Replay: every unreadable file is an error in every format, never "passed".
mkdir -p "$work/unreadable" "$work/empty" "$work/linked"
printf 'family aabb_aabb\nbox.lo 0 0\n' > "$work/unreadable/short.case"
printf 'nothing at all\n' > "$work/unreadable/garbage.case"
expect 2 "short.case" -- "$isect" replay "$work/unreadable"
expect 2 '"passed": false' -- "$isect" replay --format json "$work/unreadable"
expect 2 '"why": ".*garbage.case' -- "$isect" replay --format json "$work/unreadable"
expect 2 '<testsuite name="isect replay built-in kernels" tests="[1-9][0-9]*" failures="0" errors="[1-9]' -- "$isect" replay --format junit "$work/unreadable"
expect 2 '\*\*failed\*\*' -- "$isect" replay --format markdown "$work/unreadable"
# ... and a folder with nothing to replay is no pass.
expect 2 "no case files \(\*.case\) in $work/empty" -- "$isect" replay "$work/empty"
expect 2 '"passed": false' -- "$isect" replay --format json "$work/empty"
# A family folder linked into a corpus is replayed, not skipped.
ln -s "$source/corpus/aabb_aabb" "$work/linked/aabb_aabb"
expect 0 "[1-9][0-9]* passed, 0 failed" -- "$isect" replay "$work/linked"
# A UTF-8 byte order mark (an editor's) is not a key.
printf '\xef\xbb\xbffamily aabb_aabb\na.lo 0 0 0\na.hi 1 1 1\nb.lo 2 2 2\nb.hi 3 3 3\nexpect disjoint\n' > "$work/bom.case"
expect 0 "1 passed, 0 failed" -- "$isect" replay "$work/bom.case"

# --contract on a built-in kernel: its own, or a stricter one it is then
# held to; never silently its own instead.
expect 1 "sat +exact .*BROKEN" -- "$isect" check --family aabb_triangle --kernel sat --contract exact --cases 20000 --seed 1 "${q[@]}"
expect 2 "is not sat's own contract \(tolerant=1\) nor a stricter one" -- "$isect" check --family aabb_triangle --kernel sat --contract tolerant=64 --cases 10 "${q[@]}"
expect 2 "without --plugin needs --kernel" -- "$isect" check --contract exact --cases 10 "${q[@]}"
expect 2 "is not sat's own contract" -- "$isect" replay --kernel sat --contract conservative "$source/corpus/aabb_triangle"

# --- Signals: the report and the findings survive -------------------------------------
# run_in_background OUT ARGS...: starts isect, its pid in $pid.
run_in_background() { local out=$1; shift; "$isect" "$@" >"$out" 2>"$out.err" & pid=$!; }
# wait_for_case DIR: until a case file appears (at most 30 s).
wait_for_case() { for _ in $(seq 300); do ls "$1"/*.case >/dev/null 2>&1 && return 0; sleep 0.1; done; return 1; }
signal_test() {  # signal_test SIGNAL STATUS FORMAT PATTERN
    local dir=$work/sig-$1
    run_in_background "$work/sig-$1.out" check --family ray_triangle --kernel broken:seed_epsilon --seconds 120 --seed 5 \
        --format "$3" --quiet --out "$dir"
    wait_for_case "$dir"
    sleep 1
    kill -"$1" $pid
    wait $pid
    local rc=$?
    if [ $rc != "$2" ]; then echo "FAIL: isect check after $1 exited $rc, expected $2"; fail=1
    elif ! grep -qE -- "$4" "$work/sig-$1.out"; then echo "FAIL: the report after $1 lacks /$4/"; head -20 "$work/sig-$1.out"; fail=1
    elif ! "$isect" replay --kernel broken:seed_epsilon --expect-broken "$dir" >"$work/sig-$1.replay" 2>&1; then
        echo "FAIL: the findings kept after $1 do not replay broken"; tail -5 "$work/sig-$1.replay"; fail=1
    else echo "ok: $1 during isect check -> $rc, report kept, $(ls "$dir" | wc -l) findings replay broken"; fi
}
signal_test TERM 143 text "INTERRUPTED by SIGTERM"
# A signal while a plugin call hangs: the run stops within a second and the
# hang in hand is kept (its class, its input), the timeout not waited out.
"$isect" check --plugin "$plugins/isect_test_hang.so" --timeout-ms 60000 --seconds 60 --seed 1 --quiet \
    --out "$work/hang_int" >"$work/hang_int.out" 2>&1 &
pid=$!
sleep 3
kill -INT $pid
start=$(date +%s%N)
wait $pid
rc=$?
took=$(( ($(date +%s%N) - start) / 1000000 ))
if [ $rc = 130 ] && [ $took -lt 2500 ] && grep -q "hang: no answer after [0-9]* ms, when SIGINT stopped the run" "$work/hang_int.out" &&
    ls "$work/hang_int"/*.case >/dev/null 2>&1; then
    echo "ok: SIGINT during a hung plugin call: exit 130 after $took ms, the hang kept"
else
    echo "FAIL: SIGINT during a hung plugin call: exit $rc after $took ms"; head -20 "$work/hang_int.out"; fail=1
fi
# Coreutils timeout, the usual CI wrapper, signals the child and then its
# whole process group a few milliseconds later: the second signal finishes
# the first one's orderly stop (the report, minimised witnesses), it does
# not end the run at once.
timeout 4 "$isect" check --family ray_triangle --kernel broken:seed_epsilon --seconds 60 --seed 7 --format json --quiet \
    --out "$work/timeout" >"$work/timeout.json" 2>"$work/timeout.err"
rc=$?
if [ $rc = 124 ] && grep -q '"interrupted": "SIGTERM"' "$work/timeout.json" && grep -lq "minimised" "$work/timeout"/*.case &&
    "$isect" replay --kernel broken:seed_epsilon --expect-broken "$work/timeout" >/dev/null 2>&1; then
    echo "ok: under timeout: exit 124, the report kept, $(grep -l minimised "$work/timeout"/*.case | wc -l) witnesses minimised"
else
    echo "FAIL: under timeout: exit $rc, report $(wc -c <"$work/timeout.json") bytes"; tail -5 "$work/timeout.err"; fail=1
fi
signal_test INT 130 json '"interrupted": "SIGINT"'
# A CI timeout's SIGKILL: what was written before it is whole and judged.
run_in_background "$work/kill.out" check --family ray_triangle --kernel broken:seed_epsilon --seconds 120 --seed 6 --quiet --out "$work/kill"
wait_for_case "$work/kill"
kill -KILL $pid; wait $pid 2>/dev/null
expect 0 "the contract breaks on every case, as expected" -- "$isect" replay --kernel broken:seed_epsilon --expect-broken "$work/kill"
# diff and replay stop the same way.
run_in_background "$work/diff.out" diff moller_trumbore watertight --family ray_triangle --seconds 120 --seed 1 --out "$work/diff"
sleep 3; kill -TERM $pid; wait $pid
rc=$?
if [ $rc = 143 ] && grep -q "INTERRUPTED by SIGTERM" "$work/diff.out"; then echo "ok: SIGTERM during isect diff -> 143, report kept"
else echo "FAIL: isect diff after SIGTERM exited $rc"; head -5 "$work/diff.out"; fail=1; fi

# A plugin's workers: a signal to the whole process group (Ctrl-C, a CI job
# cancelled) is the checker's, never a crash of the input in hand; a
# checker killed while its worker hangs in the plugin leaves no worker.
setsid "$isect" check --plugin "$example" --seconds 120 --seed 1 --quiet --out "$work/group" >"$work/group.out" 2>&1 &
pid=$!
sleep 3
kill -TERM -- -$pid; wait $pid
rc=$?
if [ $rc = 143 ] && grep -q "INTERRUPTED by SIGTERM" "$work/group.out" && ! grep -q "crash" "$work/group.out"; then
    echo "ok: SIGTERM to the plugin's process group -> 143, no crash found"
else echo "FAIL: SIGTERM to the process group: exit $rc"; grep -m3 -E "crash|INTERRUPTED" "$work/group.out"; fail=1; fi
run_in_background "$work/hung.out" check --plugin "$plugins/isect_test_hang.so" --cases 2000 --seed 3 --timeout-ms 60000 --quiet --out "$work/hung"
sleep 2
workers=$(pgrep -P $pid | wc -l)
kill -KILL $pid; wait $pid 2>/dev/null
sleep 1
if [ "$workers" -ge 1 ] && ! pgrep -f "isect-plugin-worker $plugins/isect_test_hang.so" >/dev/null; then
    echo "ok: SIGKILL of a checker whose plugin hangs: its $workers worker(s) ended too"
else echo "FAIL: after SIGKILL of the checker, workers of the hanging plugin remain (or none ran: $workers)"; fail=1; fi

# --- Writes that cannot lie ----------------------------------------------------------
# An --out that cannot be made is an error before the run, not after it.
touch "$work/a_file"
expect 2 "--out $work/a_file/findings: cannot create the folder" -- "$isect" check --family aabb_aabb --cases 10 --out "$work/a_file/findings"
expect 2 "--out $work/a_file/findings: cannot create the folder" -- "$isect" diff moller_trumbore watertight --cases 10 --out "$work/a_file/findings"
expect 2 "--corpus $work/a_file/corpus: cannot create the folder" -- "$isect" fuzz --family aabb_aabb --minutes 0.01 --corpus "$work/a_file/corpus"
# A read-only folder and a full disk: small file systems of their own, in a
# mount namespace where this user may make them (else, as root, plain mounts).
in_ns() {
    if unshare -rm true 2>/dev/null; then unshare -rm sh -c "$1"
    elif [ "$(id -u)" = 0 ]; then sh -c "$1"
    else return 77; fi
}
mnt=$work/mnt
mkdir -p "$mnt"
in_ns "mount -t tmpfs -o ro,size=64k tmpfs '$mnt' && '$isect' check --family aabb_aabb --kernel broken:touching_disjoint --cases 3000 --seed 1 --quiet --out '$mnt/findings'; echo rc=\$?; umount '$mnt'" >"$work/ro.out" 2>&1
ns=$?
if [ $ns = 77 ]; then echo "FAIL: no way to mount a read-only file system here (unshare -rm, or root)"; fail=1
elif grep -q "rc=2" "$work/ro.out" && grep -q "cannot create the folder: Read-only file system\|cannot write there" "$work/ro.out"; then
    echo "ok: a read-only --out is an error before the run"
else echo "FAIL: read-only --out"; cat "$work/ro.out"; fail=1; fi
# A disk that fills mid-run: 16 KiB, three pages taken; the probe and the
# first witness fit, the later ones do not. Nothing half-written is left,
# and every witness not saved is named.
in_ns "mount -t tmpfs -o size=16k tmpfs '$mnt' && head -c 12288 /dev/zero > '$mnt/filler' &&
       '$isect' check --family ray_triangle --kernel broken:seed_epsilon --cases 300000 --seed 5 --quiet --out '$mnt/findings' > '$work/full.report'; echo rc=\$?;
       ls -la '$mnt/findings'; for f in '$mnt/findings'/*.case; do [ -s \"\$f\" ] || echo EMPTY \"\$f\"; '$isect' replay --kernel broken:seed_epsilon --expect-broken \"\$f\" >/dev/null 2>&1 || echo UNREADABLE \"\$f\"; done; umount '$mnt'" >"$work/full.out" 2>&1
if grep -q "rc=1" "$work/full.out" && grep -q "ERROR .*not saved: $mnt/findings.*No space left on device" "$work/full.report" &&
   grep -q "NOT SAVED" "$work/full.report" && ! grep -q "EMPTY\|UNREADABLE" "$work/full.out"; then
    echo "ok: a full disk: $(grep -c 'NOT SAVED (' "$work/full.report") classes named as not saved, none half-written"
else echo "FAIL: full disk"; cat "$work/full.out"; grep -E "ERROR|NOT SAVED|written to" "$work/full.report" | head; fail=1; fi
# ... and the report says exactly what is on disk: every file it names as
# written is there (as found where its minimised form did not fit, and it
# says so), no file it calls not written exists, one error line per file
# and one for the witnesses no file was made for, counting their classes.
in_ns "mount -t tmpfs -o size=64k tmpfs '$mnt' && ISECT_MAP_PICTURES=1 '$isect' check --kernel broken:surface_keeps_the_ball --cases 100000 --seed 1 --map \
       --out '$mnt/findings' > '$work/full64.report' 2>'$work/full64.err'; echo rc=\$?; ls '$mnt/findings' > '$work/full64.ls'; umount '$mnt'" \
    >"$work/full64.out" 2>&1
named=$(grep -oE "written to [^ ]*\.case" "$work/full64.report" | sed 's|.*/||' | sort -u)
missing=$(for f in $named; do grep -qx "$f" "$work/full64.ls" || echo "$f"; done)
unsaved=$(grep -c "NOT SAVED (" "$work/full64.report")
counted=$(grep -oE "[0-9]+ witness(es)? not written" "$work/full64.report" | grep -oE "^[0-9]+")
lines=$(grep -c "^ERROR .*\.case:" "$work/full64.report")
if [ -z "$missing" ] && [ "$unsaved" = "${counted:-0}" ] && [ "$lines" -le "$(grep -c '\.case$' "$work/full64.ls")" ] &&
   ! grep -q "Traceback\|needs python3" "$work/full64.report" "$work/full64.err"; then
    echo "ok: a full disk reported as it is: $(echo "$named" | wc -w) files named and there, $unsaved classes not saved and counted"
else
    echo "FAIL: a full disk misreported: missing '$missing', $unsaved NOT SAVED against '${counted}' counted, $lines file errors"
    grep -E "^ERROR" "$work/full64.report" | head -5; fail=1
fi

# Two runs on one --out never overwrite each other's maps.
ISECT_MAP_PICTURES=1 "$isect" check --family aabb_aabb --kernel overlap --cases 2000 --seed 1 --map --quiet --out "$work/shared" >/dev/null 2>&1 &
ISECT_MAP_PICTURES=1 "$isect" check --family aabb_aabb --kernel overlap --cases 2000 --seed 1 --map --quiet --out "$work/shared" >/dev/null 2>&1
wait
if [ "$(ls "$work/shared"/maps-1*.json | wc -l)" = 2 ]; then echo "ok: two runs on one --out keep their own maps"
else echo "FAIL: two runs on one --out: $(ls "$work/shared")"; fail=1; fi
# A class's file has the same name for any number of workers, and two runs
# of one seed sharing --out write each class once.
"$isect" check --kernel broken:surface_keeps_the_ball --cases 20000 --seed 1 --jobs 1 --quiet --out "$work/j1" >/dev/null 2>&1
"$isect" check --kernel broken:surface_keeps_the_ball --cases 20000 --seed 1 --jobs 2 --quiet --out "$work/j2" >/dev/null 2>&1
"$isect" check --kernel broken:surface_keeps_the_ball --cases 20000 --seed 1 --quiet --out "$work/both" >/dev/null 2>&1 &
"$isect" check --kernel broken:surface_keeps_the_ball --cases 20000 --seed 1 --quiet --out "$work/both" >/dev/null 2>&1
wait
if diff <(ls "$work/j1") <(ls "$work/j2") >/dev/null && diff <(ls "$work/j1") <(ls "$work/both") >/dev/null; then
    echo "ok: $(ls "$work/j1" | wc -l) class files, named alike for --jobs 1 and 2, written once by two runs at once"
else echo "FAIL: class files: --jobs 1 $(ls "$work/j1" | wc -l), --jobs 2 $(ls "$work/j2" | wc -l), two runs $(ls "$work/both" | wc -l)"; fail=1; fi
# Any kernel name makes file names: 300 characters (starting with '-'), or none.
for p in long_name empty_name; do
    "$isect" check --plugin "$plugins/isect_test_$p.so" --contract exact --cases 3000 --seed 1 --quiet --out "$work/$p" >/dev/null 2>&1
    n=$(ls "$work/$p"/*.case 2>/dev/null | wc -l)
    if [ "$n" -ge 1 ] && ! ls "$work/$p" | grep -q '^-' &&
        (cd "$work/$p" && "$isect" replay --plugin "$plugins/isect_test_$p.so" --contract exact --expect-broken $(ls *.case)) >/dev/null 2>&1; then
        echo "ok: a plugin with a $p: $n witnesses saved, replayed by their bare names"
    else echo "FAIL: a plugin with a $p: $n witnesses: $(ls "$work/$p" | head -3)"; fail=1; fi
done
# --jobs beyond what the machine or the work can use is said and bounded,
# not a thousand worker processes for 2,000 cases.
expect 0 "--jobs 1000 asks for more workers than four per core .*; running [0-9]+" -- "$isect" check --plugin "$example" \
    --jobs 1000 --cases 2000 --seed 1 "${q[@]}"
# Pictures are written as the umask says, as the cases are (not 0600).
ISECT_MAP_PICTURES=1 "$isect" check --family aabb_aabb --kernel broken:touching_disjoint --cases 3000 --seed 1 --map --quiet --out "$work/modes" >/dev/null 2>&1
png=$(stat -c %a "$work/modes"/*-map*.png 2>/dev/null | sort -u)
cases=$(stat -c %a "$work/modes"/*.case | sort -u)
if [ -n "$png" ] && [ "$png" = "$cases" ]; then echo "ok: pictures and cases are both mode $png"
else echo "FAIL: pictures mode '$png', cases '$cases'"; fail=1; fi
# A plugin's witness minimises as a built-in kernel's does.
expect 0 "^family  aabb_aabb" -- "$isect" minimize --plugin "$plugins/isect_test_empty_name.so" --contract exact \
    "$(ls "$work/empty_name"/*.case | head -1)"
# A witness already in the findings is not written again by the next seed.
"$isect" check --family aabb_aabb --kernel broken:touching_disjoint --cases 3000 --seed 1 --quiet --out "$work/db" >/dev/null 2>&1
before=$(ls "$work/db"/*.case | wc -l)
"$isect" check --family aabb_aabb --kernel broken:touching_disjoint --cases 3000 --seed 2 --quiet --out "$work/db" >"$work/db2.out" 2>&1
dups=$(for f in "$work/db"/*.case; do grep -v '^#' "$f" | md5sum; done | sort | uniq -d | wc -l)
if [ "$dups" = 0 ] && [ "$before" -gt 0 ]; then echo "ok: the next seed writes no witness twice ($before, then $(ls "$work/db"/*.case | wc -l) files)"
else echo "FAIL: $dups witnesses written twice"; fail=1; fi

# --- Words in machine-readable reports -------------------------------------------------
# JUnit and markdown show each witness with its real exact answer (touching
# boxes overlap), as the case file does.
expect 1 "expect  overlap" -- "$isect" check --family aabb_aabb --kernel broken:touching_disjoint --cases 3000 --seed 1 --format junit --out "$work/junit"
if "$isect" check --family aabb_aabb --kernel broken:touching_disjoint --cases 3000 --seed 1 --format junit --out "$work/junit2" 2>/dev/null | grep -q "expect  disjoint"; then
    echo "FAIL: JUnit shows a witness with a made-up answer"; fail=1
else echo "ok: JUnit's witnesses say what their case files say"; fi
expect 1 '<details>.*broken:touching_disjoint' -- "$isect" check --family aabb_aabb --kernel broken:touching_disjoint --cases 3000 --seed 1 --format markdown --out "$work/md"
expect 1 "^expect  overlap" -- "$isect" check --family aabb_aabb --kernel broken:touching_disjoint --cases 3000 --seed 1 --format markdown --out "$work/md2"

# --- First steps as the README writes them ------------------------------------------
# A plugin named without a slash is the file in this folder.
expect 0 "the contract holds for every family checked" -- sh -c "cd '$examples' && '$isect' check --plugin example_kernels.so --cases 400 --seed 1 --quiet --out '$work/bare'"
# promote goes into ./corpus of the current project.
mkdir -p "$work/project"
cp "$source/corpus/aabb_aabb/touching_faces_overlap.case" "$work/project/found.case"
expect 0 "promoted found.case -> corpus/aabb_aabb/found.case" -- sh -c "cd '$work/project' && '$isect' promote found.case"
# An isect without fuzz targets says in one line what it needs.
expect 2 "no libFuzzer target .*fuzz_aabb_aabb: build the targets with clang and -DISECT_BUILD_FUZZ=ON" -- \
    env ISECT_FUZZ_DIR="$work/none" "$isect" fuzz --family aabb_aabb --minutes 0.01 --corpus "$work/fc"

# --- The floating-point environment ---------------------------------------------------
# A kernel holds in the default environment and breaks under FTZ/DAZ (the
# exact box test compares subnormals as zeros), and says which it ran in.
expect 0 "environment: default" -- "$isect" check --plugin "$example" --family aabb_aabb --contract exact --cases 20000 --seed 1 "${q[@]}"
expect 1 "environment: FTZ, DAZ \(--fp-env ftz,daz\).*" -- "$isect" check --plugin "$example" --family aabb_aabb --contract exact --fp-env ftz,daz --cases 20000 --seed 1 "${q[@]}"
# The same source built with -Ofast: its load sets FTZ/DAZ; isect says so
# and judges it so (the truth never runs in it).
expect 1 "environment: FTZ, DAZ \(set by the plugin as it loaded" -- "$isect" check --plugin "$examples/example_kernels_ofast.so" --family aabb_aabb --contract exact --cases 20000 --seed 1 "${q[@]}"
# A kernel that changes the state inside its call is named, and restored.
expect 0 "the kernel CHANGED the floating-point control state on [0-9]+ call" -- "$isect" check --plugin "$plugins/isect_test_fp_changer.so" --contract exact --cases 3000 --seed 1 "${q[@]}"
expect 2 "--fp-env 'fast' is not default, ftz, daz or ftz,daz" -- "$isect" check --fp-env fast --cases 10 "${q[@]}"
exit $fail
