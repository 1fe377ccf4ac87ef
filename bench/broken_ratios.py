#!/usr/bin/env python3
"""What breaking a contract costs isect check: cases/s of kernels that break
their contract against a kernel of the same family that holds, on the same
cases (`--cases N --seed 1 --jobs 1`), built in and through the plugin path.
Each process is timed whole (generating, judging, counting, minimising the
classes and writing their witnesses: what a CI gate waits for), the runs
interleaved round by round so that a shared machine's swings fall on every
kernel alike; the median of the rounds is kept.

usage: broken_ratios.py ISECT [--plugin-dir DIR] [--cases N] [--rounds R]

DIR holds builtin_plugin.so and builtin_plugin_broken.so (bench/builtin_plugin.cpp,
`cmake --build build --target builtin_plugin builtin_plugin_broken`): ray_sphere's
rtg, and the same wrong from inside the ball.
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

# (label, group, family, arguments); each group's first row holds its contract
# and is what the others are measured against.
BUILT_IN = [
    ("rtg", "ray_sphere", "ray_sphere", ["--kernel", "rtg"]),
    ("broken:textbook_quadratic", "ray_sphere", "ray_sphere", ["--kernel", "broken:textbook_quadratic"]),
    ("broken:inside_is_miss", "ray_sphere", "ray_sphere", ["--kernel", "broken:inside_is_miss"]),
    ("moller_trumbore", "ray_triangle", "ray_triangle", ["--kernel", "moller_trumbore"]),
    ("broken:seed_epsilon", "ray_triangle", "ray_triangle", ["--kernel", "broken:seed_epsilon"]),
    ("overlap", "aabb_aabb", "aabb_aabb", ["--kernel", "overlap"]),
    ("broken:touching_disjoint", "aabb_aabb", "aabb_aabb", ["--kernel", "broken:touching_disjoint"]),
]


def plugin_rows(plugin_dir):
    return [
        ("plugin rtg", "plugin", "ray_sphere",
         ["--plugin", os.path.join(plugin_dir, "builtin_plugin.so"), "--domain", "2^-20:2^20", "--error", "2"]),
        ("plugin rtg, inside is miss", "plugin", "ray_sphere",
         ["--plugin", os.path.join(plugin_dir, "builtin_plugin_broken.so"), "--domain", "2^-20:2^20", "--error", "2"]),
    ]


def run(isect, family, args, cases):
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [isect, "check", "--family", family, "--cases", str(cases), "--seed", "1", "--jobs", "1", "--quiet",
               "--out", f"{tmp}/findings"] + args
        start = time.perf_counter()
        p = subprocess.run(cmd, capture_output=True, text=True)
        took = time.perf_counter() - start
    if p.returncode not in (0, 1):
        sys.exit(f"{' '.join(cmd)} exited {p.returncode}:\n{p.stderr[-2000:]}")
    verdict = "holds" if p.returncode == 0 else "BROKEN"
    return took, verdict


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("isect")
    ap.add_argument("--plugin-dir")
    ap.add_argument("--cases", type=int, default=100000)
    ap.add_argument("--rounds", type=int, default=5)
    a = ap.parse_args()
    rows = BUILT_IN + (plugin_rows(a.plugin_dir) if a.plugin_dir else [])
    # Kernels a family does not know are left out (an older build).
    known = subprocess.run([a.isect, "kernels"], capture_output=True, text=True).stdout
    rows = [r for r in rows if "--kernel" not in r[3] or r[3][1] in known]
    times = {r[0]: [] for r in rows}
    verdicts = {}
    for _ in range(a.rounds):
        for label, _, family, args in rows:
            took, verdicts[label] = run(a.isect, family, args, a.cases)
            times[label].append(took)
    print(f"| kernel | family | verdict | seconds (median of {a.rounds}) | cases/s | / holding kernel |")
    print("|---|---|---|---:|---:|---:|")
    holding = {}
    for label, group, family, _ in rows:
        t = statistics.median(times[label])
        if group not in holding:
            holding[group] = t
        ratio = holding[group] / t
        print(f"| {label} | {family} | {verdicts[label]} | {t:.3f} | {a.cases / t:,.0f} | {ratio:.2f}x |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
