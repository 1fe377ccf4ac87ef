#!/usr/bin/env bash
# Runs .clusterfuzzlite/build.sh as ClusterFuzzLite and OSS-Fuzz would (their
# environment variables, libFuzzer with ASan), then checks what lands in
# $OUT and runs each target briefly from its seed corpus.
set -euo pipefail
source_dir=$1
cxx=${2:-clang++-14}
cc=${cxx/clang++/clang}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/src" "$scratch/out" "$scratch/work"
ln -s "$source_dir" "$scratch/src/isect"
export SRC=$scratch/src OUT=$scratch/out WORK=$scratch/work CC=$cc CXX=$cxx
export CFLAGS="-O1 -fno-omit-frame-pointer -gline-tables-only -fsanitize=address -fsanitize-address-use-after-scope -fsanitize=fuzzer-no-link"
export CXXFLAGS="$CFLAGS"
export LIB_FUZZING_ENGINE="-fsanitize=fuzzer"
bash "$source_dir/.clusterfuzzlite/build.sh"
for t in "$OUT"/fuzz_*; do
    case "$t" in *.zip|*.dict|*.options) continue ;; esac
    name=$(basename "$t")
    for f in "$OUT/${name}_seed_corpus.zip" "$OUT/$name.dict" "$OUT/$name.options"; do
        [ -s "$f" ] || { echo "FAIL: $f missing"; exit 1; }
    done
    mkdir -p "$scratch/seeds/$name" "$scratch/pool/$name"
    (cd "$scratch/seeds/$name" && unzip -q "$OUT/${name}_seed_corpus.zip")
    "$t" -runs=20000 -seed=1 -dict="$OUT/$name.dict" "$scratch/pool/$name" "$scratch/seeds/$name"
    echo "ok: $name built by build.sh and ran 20000 inputs"
done
