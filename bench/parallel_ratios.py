#!/usr/bin/env python3
"""isect check on every core and through plugins, as ratios measured in one
run (these machines are shared and noisy: each pair alternates, ROUNDS
times, and the median of each side is taken).

  workers   each family's cases per second with --jobs N against --jobs 1
            (the same seed and time budget; every built-in kernel);
  plugins   a kernel through the plugin worker against the same kernel
            built in (isect's own overlap, sat and moller_trumbore compiled
            into bench/builtin_plugin.cpp), through its scalar functions
            and through its batch entries, each on one worker (--jobs 1)
            and the same contract.

usage: parallel_ratios.py ISECT BENCH_DIR [--seconds S] [--rounds N] [--jobs N] [--family F ...] [--only workers|plugins]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys


def rate(isect, args, seconds):
    cmd = [isect, "check", *args, "--seconds", str(seconds), "--seed", "1", "--format", "json", "--quiet",
           "--out", "/tmp/isect-parallel-ratios"]
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode not in (0, 1):
        sys.exit(" ".join(cmd) + ": " + out.stderr)
    fam = json.loads(out.stdout)["families"][0]
    return fam["cases"] / fam["seconds"]


def medians(isect, variants, seconds, rounds):
    """Each variant's median cases/s, the variants taking turns."""
    seen = [[] for _ in variants]
    for _ in range(rounds):
        for i, args in enumerate(variants):
            seen[i].append(rate(isect, args, seconds))
    return [statistics.median(s) for s in seen]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("isect")
    ap.add_argument("bench_dir")
    ap.add_argument("--seconds", type=float, default=3)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--family", nargs="*")
    ap.add_argument("--only", choices=["workers", "plugins"])
    a = ap.parse_args()
    kernels = subprocess.run([a.isect, "kernels"], capture_output=True, text=True).stdout
    families = a.family or [line for line in kernels.split("\n\n")[0].splitlines() if line and not line.startswith(" ")]
    if a.only != "plugins":
        print(f"| family | --jobs 1 cases/s | --jobs {a.jobs} cases/s | ratio |")
        print("|---|---:|---:|---:|")
        for f in families:
            one, many = medians(a.isect, [["--family", f, "--jobs", "1"], ["--family", f, "--jobs", str(a.jobs)]],
                                a.seconds, a.rounds)
            print(f"| {f} | {one:,.0f} | {many:,.0f} | {many / one:.2f}x |", flush=True)
        print()
    if a.only != "workers":
        scalar = os.path.join(a.bench_dir, "builtin_plugin.so")
        batch = os.path.join(a.bench_dir, "builtin_plugin_batch.so")
        print("| family | kernel (contract) | built in cases/s | plugin | plugin / built in | batch entry | batch / built in |")
        print("|---|---|---:|---:|---:|---:|---:|")
        for f, k, contract, e in (("aabb_aabb", "overlap", "exact", "0"), ("aabb_triangle", "sat", "tolerant=1", "16"),
                                  ("ray_triangle", "moller_trumbore", "tolerant=1", "1")):
            common = ["--family", f, "--jobs", "1"]
            held = ["--contract", contract, "--error", e]
            built_in, plugin, batched = medians(a.isect, [common + ["--kernel", k],
                                                          common + ["--plugin", scalar] + held,
                                                          common + ["--plugin", batch] + held], a.seconds, a.rounds)
            print(f"| {f} | {k} ({contract}) | {built_in:,.0f} | {plugin:,.0f} | {plugin / built_in:.2f} | "
                  f"{batched:,.0f} | {batched / built_in:.2f} |", flush=True)


if __name__ == "__main__":
    main()
