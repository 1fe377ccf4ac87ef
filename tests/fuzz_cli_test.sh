#!/usr/bin/env bash
# `isect fuzz` end to end on one family and a planted bug: a short campaign
# writes a minimised case, the JSON report counts it, and `isect replay
# --expect-broken` judges every written case broken.
set -u
isect=$1
fuzz_dir=$2
source "$(dirname "$0")/expect.sh"
work=$(mktemp -d)
export ISECT_FUZZ_DIR=$fuzz_dir
expect 1 '"new_cases": [1-9]' -- "$isect" fuzz --family aabb_aabb --kernel broken:intersection_min_lo --minutes 0.1 \
    --corpus "$work/corpus" --format json
expect 0 '"passed": true' -- sh -c "'$isect' replay --kernel broken:intersection_min_lo --expect-broken --format json '$work/corpus'"
expect 2 "is not text, markdown, json or junit" -- "$isect" fuzz --family aabb_aabb --format yaml
rm -rf "$work"
exit $fail
