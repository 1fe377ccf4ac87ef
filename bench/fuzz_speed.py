#!/usr/bin/env python3
"""Executions per second of each fuzz target on its own (built-in) kernels,
one process on one core, from the seed corpus: libFuzzer's default entropic
schedule and -entropic=0. A benchmark to run by hand, not a test.

With --failing FAMILY:KERNEL..., instead: each family's target on its
built-in kernels and on a kernel that fails on the seeds (a planted bug), in
the mode isect fuzz runs it (ISECT_FUZZ_FINDINGS: a finding is kept and the
run goes on), and the ratio of the two rates, measured one after the other.

usage: fuzz_speed.py FUZZ_DIR SEEDS_DIR [--seconds N] [--failing aabb_aabb:broken:touching_disjoint ...]
"""
import argparse
import glob
import os
import re
import subprocess
import tempfile


def execs_per_second(target, seeds, seconds, extra, env=None):
    with tempfile.TemporaryDirectory() as pool:
        out = subprocess.run([target, f"-max_total_time={seconds}", "-max_len=1024", "-seed=1", *extra, pool, seeds],
                             capture_output=True, text=True, env=env).stderr
    done = re.findall(r"Done (\d+) runs in (\d+) second", out)
    return int(done[-1][0]) / max(1, int(done[-1][1])) if done else None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("fuzz_dir")
    ap.add_argument("seeds_dir")
    ap.add_argument("--seconds", type=int, default=20)
    ap.add_argument("--failing", nargs="*", default=[])
    a = ap.parse_args()
    if a.failing:
        print("| target | kernel failing on the seeds | execs/s, built-in kernels | execs/s, failing kernel | ratio |")
        print("|---|---|---:|---:|---:|")
        for pair in a.failing:
            family, kernel = pair.split(":", 1)
            target = os.path.join(a.fuzz_dir, "fuzz_" + family)
            seeds = os.path.join(a.seeds_dir, family)
            with tempfile.TemporaryDirectory() as found:
                env = dict(os.environ, ISECT_FUZZ_FINDINGS=found)
                good = execs_per_second(target, seeds, a.seconds, [], env)
                bad = execs_per_second(target, seeds, a.seconds, [], dict(env, ISECT_FUZZ_SUBJECT=f"kernel {kernel}"))
                classes = len(os.listdir(found))
            print(f"| fuzz_{family} | `{kernel}` ({classes} classes kept) | {good:,.0f} | {bad:,.0f} | {bad / good:.2f} |",
                  flush=True)
        return
    print("| target | execs/s (default schedule) | execs/s (-entropic=0) |")
    print("|---|---:|---:|")
    for target in sorted(glob.glob(os.path.join(a.fuzz_dir, "fuzz_*"))):
        name = os.path.basename(target)
        if name.endswith("_replay") or not os.access(target, os.X_OK):
            continue
        seeds = os.path.join(a.seeds_dir, name[len("fuzz_"):])
        default = execs_per_second(target, seeds, a.seconds, [])
        flat = execs_per_second(target, seeds, a.seconds, ["-entropic=0"])
        cell = lambda x: "stopped at a finding" if x is None else f"{x:,.0f}"
        print(f"| {name} | {cell(default)} | {cell(flat)} |", flush=True)


if __name__ == "__main__":
    main()
