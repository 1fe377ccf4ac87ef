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

# Every family's target, with its seeds (fuzz/seeds/FAMILY, byte inputs of
# the corpus cases), the float dictionary and its options. 128 bytes hold the
# slot layout of the widest family (2 + 5 x 18).
for family in $(cd "$src/fuzz/seeds" && ls); do
    name=fuzz_$family
    cp "$build/fuzz/$name" "$OUT/$name"
    (cd "$src/fuzz/seeds/$family" && zip -q -j "$OUT/${name}_seed_corpus.zip" ./*)
    cp "$src/fuzz/floats.dict" "$OUT/$name.dict"
    printf '[libfuzzer]\nmax_len = 128\n' > "$OUT/$name.options"
done
