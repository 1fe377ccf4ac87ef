#!/usr/bin/env bash
# find_package(isect) from outside the repository: install isect from this
# build into a scratch prefix, build tests/external_plugin against it, and
# run the ctest gate it registers (isect check --plugin).
set -eu
build=$1
source=$2
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cmake --install "$build" --prefix "$scratch/prefix" >/dev/null
cmake -S "$source/tests/external_plugin" -B "$scratch/build" -DCMAKE_PREFIX_PATH="$scratch/prefix" >/dev/null
cmake --build "$scratch/build" >/dev/null
test -f "$scratch/build/my_kernels.so"
grep -q "$scratch/prefix/bin/isect" "$scratch/build/CTestTestfile.cmake" ||
    { echo "FAIL: the gate does not run the installed isect"; exit 1; }
grep -q -- "--domain" "$scratch/build/CTestTestfile.cmake" ||
    { echo "FAIL: DOMAIN did not reach the gate's command line"; exit 1; }
ctest --test-dir "$scratch/build" --output-on-failure
echo "ok: a plugin built outside the repository with find_package(isect) is checked"
