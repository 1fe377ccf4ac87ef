#!/usr/bin/env python3
"""Executions per second of each fuzz target on its own (built-in) kernels,
one process on one core, from the seed corpus: libFuzzer's default entropic
schedule and -entropic=0. A benchmark to run by hand, not a test.

usage: fuzz_speed.py FUZZ_DIR SEEDS_DIR [--seconds N]
"""
import argparse
import glob
import os
import re
import subprocess
import tempfile


def execs_per_second(target, seeds, seconds, extra):
    with tempfile.TemporaryDirectory() as pool:
        out = subprocess.run([target, f"-max_total_time={seconds}", "-max_len=128", "-seed=1", *extra, pool, seeds],
                             capture_output=True, text=True).stderr
    done = re.findall(r"Done (\d+) runs in (\d+) second", out)
    return int(done[-1][0]) / max(1, int(done[-1][1])) if done else None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("fuzz_dir")
    ap.add_argument("seeds_dir")
    ap.add_argument("--seconds", type=int, default=20)
    a = ap.parse_args()
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
