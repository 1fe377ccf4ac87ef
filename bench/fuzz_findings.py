#!/usr/bin/env python3
"""For every family and one planted bug of it: `isect fuzz --family F --kernel
broken:NAME --minutes M` into a scratch corpus, then `isect replay --kernel
broken:NAME --expect-broken` on what it wrote. Prints a Markdown table: the
cases written, the first one's finding, and whether replay judged every
written case broken. Exit 1 when a family found nothing or replay disagreed.

usage: fuzz_findings.py [--isect ./isect] [--minutes M] [--family F ...]
"""
import argparse
import os
import subprocess
import sys
import tempfile

# One planted bug per family: the first `isect kernels` lists for it.
BUGS = {
    "aabb_triangle": "broken:sat_without_edge_axes",
    "ray_triangle": "broken:seed_epsilon",
    "ray_aabb": "broken:naive_slab_nan",
    "segment_aabb": "broken:exit_ignores_tmax",
    "aabb_plane": "broken:sign_slip",
    "aabb_plane_overlap": "broken:absolute_epsilon",
    "aabb_aabb": "broken:intersection_min_lo",
    "sphere_aabb": "broken:closest_wrong_face",
    "moving_aabb": "broken:seed_z_check",
    "moving_aabb_plane": "broken:seed_front_only",
    "transformed_aabb": "broken:transposed",
    "triangle_measures": "broken:seed_circumcentre",
    "polygon_measures": "broken:convex_turns_only",
}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--isect", default="./isect")
    ap.add_argument("--minutes", default="1")
    ap.add_argument("--family", nargs="*", default=list(BUGS))
    a = ap.parse_args()
    print("| family | planted bug | cases written | replay --expect-broken | first finding |")
    print("|---|---|---:|---|---|")
    ok = True
    for family in a.family:
        bug = BUGS[family]
        corpus = tempfile.mkdtemp(prefix=f"isect-fuzz-{family}-")
        fuzz = subprocess.run([a.isect, "fuzz", "--family", family, "--kernel", bug, "--minutes", a.minutes,
                               "--corpus", corpus], capture_output=True, text=True)
        cases = sorted(os.path.join(corpus, c) for c in os.listdir(corpus) if c.endswith(".case"))
        first = ""
        for line in fuzz.stdout.splitlines():
            if line.startswith("new case"):
                first = line.split(": ", 1)[1]
                break
        verdict = "nothing to replay"
        if cases:
            replay = subprocess.run([a.isect, "replay", "--kernel", bug, "--expect-broken"] + cases,
                                    capture_output=True, text=True)
            verdict = "every case broken" if replay.returncode == 0 else f"FAILED (exit {replay.returncode})"
            if replay.returncode != 0:
                sys.stderr.write(replay.stdout + replay.stderr)
        ok = ok and bool(cases) and verdict == "every case broken"
        print(f"| {family} | `{bug}` | {len(cases)} | {verdict} | {first.replace('|', '/')} |", flush=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
