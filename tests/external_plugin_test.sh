#!/usr/bin/env bash
# The CI gate as the README writes it: install isect from this build into a
# scratch prefix, paste the README's CMake snippet into an empty project
# (only SECONDS shortened), and gate a user's kernel with ctest: a correct
# kernel passes, a broken one fails (also where the project forgot
# enable_testing()), a misspelled keyword fails at configure time, and the
# gate's keywords reach isect check's command line.
set -u
build=$1
source=$2
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
fail=0
cmake --install "$build" --prefix "$scratch/prefix" >/dev/null || { echo "FAIL: cmake --install"; exit 1; }

# The first ```cmake block of the README, verbatim but for its time budget.
snippet=$(awk '/^```cmake$/{on=1; next} /^```$/{if (on) exit} on' "$source/README.md" | sed -E 's/SECONDS [0-9]+/SECONDS 2/')
grep -q "isect_add_plugin_check" <<<"$snippet" || { echo "FAIL: no isect_add_plugin_check in the README's cmake block"; exit 1; }

# project NAME KERNEL_SOURCE CMAKELISTS_TEXT: a fresh project folder.
project() {
    mkdir -p "$scratch/$1"
    cp "$2" "$scratch/$1/my_kernels.c"
    printf '%s\n' "$3" > "$scratch/$1/CMakeLists.txt"
}
configure() { cmake -S "$scratch/$1" -B "$scratch/$1/build" -DCMAKE_PREFIX_PATH="$scratch/prefix" >"$scratch/$1.log" 2>&1; }
gate() { configure "$1" && cmake --build "$scratch/$1/build" >>"$scratch/$1.log" 2>&1 &&
         ctest --test-dir "$scratch/$1/build" --output-on-failure >>"$scratch/$1.log" 2>&1; }
check() {  # check NAME WANT(pass|fail) WHY
    if gate "$1"; then got=pass; else got=fail; fi
    if [ "$got" = "$2" ]; then echo "ok: $3"; else echo "FAIL: $3 (ctest: $got)"; tail -30 "$scratch/$1.log"; fail=1; fi
}

project good "$source/tests/external_plugin/my_kernels.c" "$snippet"
check good pass "the README's snippet passes a correct kernel"
grep -q "$scratch/prefix/bin/isect" "$scratch/good/build/CTestTestfile.cmake" ||
    { echo "FAIL: the gate does not run the installed isect"; fail=1; }
grep -q -- "--domain" "$scratch/good/build/CTestTestfile.cmake" ||
    { echo "FAIL: DOMAIN did not reach the gate's command line"; fail=1; }

project broken "$source/tests/external_plugin/my_kernels_broken.c" "$snippet"
check broken fail "the README's snippet fails a broken kernel"
grep -q "Total Tests: 0\|No tests were found" "$scratch/broken.log" && { echo "FAIL: ctest found no test"; fail=1; }

project forgot "$source/tests/external_plugin/my_kernels_broken.c" "$(grep -v '^enable_testing' <<<"$snippet")"
check forgot fail "without enable_testing() the gate still exists and fails a broken kernel"

project typo "$source/tests/external_plugin/my_kernels.c" "$(sed 's/CONTRACT/CONTRCT/' <<<"$snippet")"
if configure typo; then echo "FAIL: a misspelled keyword configured"; fail=1
elif grep -q "unknown argument" "$scratch/typo.log" && grep -q "CONTRCT" "$scratch/typo.log"; then echo "ok: a misspelled keyword fails configure, named"
else echo "FAIL: the configure error does not name CONTRCT"; cat "$scratch/typo.log"; fail=1; fi

# A DOMAIN that holds no float fails the gate as a usage error, never a pass.
project nofloat "$source/tests/external_plugin/my_kernels.c" "$(sed -E 's/DOMAIN [^ )]+/DOMAIN 1e39:1e40/' <<<"$snippet")"
check nofloat fail "a DOMAIN that holds no float fails the gate"
grep -q "holds no float" "$scratch/nofloat.log" || { echo "FAIL: the gate's failure does not say the domain holds no float"; fail=1; }
# A gate is deterministic and sized for ctest -j: a fixed seed, its workers
# declared as the test's processors; its findings are kept beside the
# project's sources, where a fresh CI build finds them.
grep -q -- '"--seed" "1"' "$scratch/good/build/CTestTestfile.cmake" || { echo "FAIL: the gate has no fixed default seed"; fail=1; }
grep -q 'PROCESSORS "2"' "$scratch/good/build/CTestTestfile.cmake" || { echo "FAIL: the gate does not declare its workers to ctest"; fail=1; }
ls "$scratch/broken/isect-findings/"*/*.case >/dev/null 2>&1 || { echo "FAIL: the broken gate's findings are not beside its sources"; fail=1; }
echo "ok: the gate's seed, processors and findings folder"

# A relation is a claim the gate holds a plugin to besides its contract:
# a strict-edge Möller-Trumbore keeps tolerant=1 and fails a watertight
# gate; Woop's test passes it.
relation_gate='isect_add_plugin_check(my_kernels_hold PLUGIN my_kernels CONTRACT tolerant=1 RELATION watertight FAMILY ray_triangle DOMAIN 2^-20:2^20 CASES 20000)'
project leaks "$source/examples/kernels/mt_strict_edges.c" "$(sed -E "s/^isect_add_plugin_check\(.*\)$/$relation_gate/" <<<"$snippet")"
check leaks fail "a strict-edge Möller-Trumbore fails a RELATION watertight gate"
grep -q "watertight BROKEN" "$scratch/leaks.log" || { echo "FAIL: the watertight gate does not say the relation broke"; fail=1; }
project woop "$source/examples/kernels/woop_watertight.c" "$(sed -E "s/^isect_add_plugin_check\(.*\)$/$relation_gate/" <<<"$snippet")"
check woop pass "Woop's watertight test passes a RELATION watertight gate"

# MESH: the user's own asset as a CI test. On a 4 x 4 terrain's shared
# edges a strict-edge Möller-Trumbore fails the watertight gate and Woop's
# test passes it.
mesh_gate='isect_add_plugin_check(my_mesh_holds PLUGIN my_kernels CONTRACT tolerant=1 RELATION watertight FAMILY ray_triangle DOMAIN 2^-20:2^20 MESH terrain.obj GEN mesh_edge CASES 20000)'
for name in mesh_leaks mesh_woop; do
    kernel=$([ "$name" = mesh_leaks ] && echo mt_strict_edges.c || echo woop_watertight.c)
    project "$name" "$source/examples/kernels/$kernel" "$(sed -E "s/^isect_add_plugin_check\(.*\)$/$mesh_gate/" <<<"$snippet")"
    cp "$source/tests/data/meshes/terrain.obj" "$scratch/$name/"
done
check mesh_leaks fail "a strict-edge Möller-Trumbore fails a MESH gate on the terrain's shared edges"
grep -q "mix: mesh_edge 100%" "$scratch/mesh_leaks.log" && grep -q "watertight BROKEN" "$scratch/mesh_leaks.log" ||
    { echo "FAIL: the MESH gate did not judge the mesh's edges"; fail=1; }
grep -q -- "--mesh\" \"$scratch/mesh_leaks/terrain.obj" "$scratch/mesh_leaks/build/CTestTestfile.cmake" ||
    { echo "FAIL: MESH is not on the gate's command line as a path beside the CMakeLists.txt"; fail=1; }
check mesh_woop pass "Woop's watertight test passes the MESH gate"

# Every option a gate needs reaches the command line.
project all "$source/tests/external_plugin/my_kernels.c" "$(sed -E 's/isect_add_plugin_check\((.*)\)/isect_add_plugin_check(\1)\nisect_add_plugin_check(all_options PLUGIN my_kernels CONTRACT exact ERROR 4 REQUIRE positive_radius PRECISION float FP_ENV ftz,daz CASES 500 SEED 7 TIMEOUT_MS 100 GEN uniform CASES_DIR cases FAMILY sphere_aabb CONVENTION none RELATION symmetric)/' <<<"$snippet")"
if configure all; then
    for flag in "--error\" \"4" "--require\" \"positive_radius" "--precision\" \"float" "--fp-env\" \"ftz,daz" "--cases\" \"500" "--seed\" \"7" \
                "--timeout-ms\" \"100" "--gen\" \"uniform" "--replay\" \"$scratch/all/cases" "--family\" \"sphere_aabb" "--contract\" \"exact" "--convention\" \"none" "--relation\" \"symmetric"; do
        grep -q -- "$flag" "$scratch/all/build/CTestTestfile.cmake" || { echo "FAIL: $flag is not on the gate's command line"; fail=1; }
    done
    echo "ok: every keyword reaches isect check"
else
    echo "FAIL: the gate with every keyword did not configure"; cat "$scratch/all.log"; fail=1
fi
exit $fail
