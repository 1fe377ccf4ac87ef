#!/bin/bash -eu
# Builds isect's fuzz targets the way ClusterFuzzLite and OSS-Fuzz expect:
# the checkout in $SRC/isect; compilers and flags from CC, CXX, CFLAGS,
# CXXFLAGS (the engine's sanitizer and coverage flags); the engine from
# LIB_FUZZING_ENGINE; binaries, seed corpora, dictionaries and options into
# $OUT. Only the fuzz targets are built: no RapidCheck, GoogleTest or Benchmark.
src=$SRC/isect
build=${WORK:-/tmp}/isect-oss-build

cmake -S "$src" -B "$build" -G Ninja \
    -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER="$CC" -DCMAKE_CXX_COMPILER="$CXX" \
    -DISECT_BUILD_TOOLS=OFF -DISECT_BUILD_TESTS=OFF -DISECT_BUILD_BENCH=OFF \
    -DISECT_BUILD_FUZZ=ON -DISECT_FUZZ_ENGINE="$LIB_FUZZING_ENGINE"
cmake --build "$build" -j"$(nproc)"

# Every family's target (the families listed once, in families.def), with
# its seeds (its corpus: the target reads a case file's text as that case),
# the float dictionary and its options. 1024 bytes hold the slot layout of
# the widest family (obb_obb: 2 + 5 x 30 bytes, 2 + 9 x 30 in double) and a
# seed case's text.
for family in $(sed -n 's/^ISECT_FAMILY(\([a-z_0-9]*\)).*/\1/p' "$src/check/model/families.def"); do
    name=fuzz_$family
    cp "$build/fuzz/$name" "$OUT/$name"
    (cd "$src/corpus/$family" && zip -q -j "$OUT/${name}_seed_corpus.zip" ./*.case)
    cp "$src/fuzz/floats.dict" "$OUT/$name.dict"
    printf '[libfuzzer]\nmax_len = 1024\n' > "$OUT/$name.options"
done
