#!/usr/bin/env python3
"""Time to the first finding for planted bugs, by search method: the uniform
generator alone, isect's generator mix (both through `isect check`), and
libFuzzer with and without the float-aware mutator, each from an empty corpus.
Median wall-clock seconds over several seeds; a run that finds nothing within
the cap counts as the cap and is marked '>'.

usage: time_to_finding.py ISECT FUZZ_TARGET [--seeds N] [--cap SECONDS]
"""
import argparse
import os
import statistics
import subprocess
import tempfile
import time

KERNELS = ["broken:sat_without_edge_axes", "broken:sat_normal_in_float",
           "broken:sat_absolute_epsilon", "broken:sat_normal_one_vertex", "broken:conservative_touching_separates"]


def run_check(isect, kernel, gen, seed, cap):
    cmd = [isect, "check", "--kernel", kernel, "--seconds", str(cap), "--seed", str(seed),
           "--stop-at-first", "--quiet", "--out", tempfile.mkdtemp()]
    if gen:
        cmd += ["--gen", gen]
    out = subprocess.run(cmd, capture_output=True, text=True).stdout
    for line in out.splitlines():
        if "first violation at case" in line:
            return float(line.rsplit("after", 1)[1].split()[0])
    return None


def run_fuzzer(target, kernel, seed, cap, plain):
    env = dict(os.environ, ISECT_FUZZ_KERNEL=kernel)
    if plain:
        env["ISECT_FUZZ_MUTATOR"] = "plain"
    with tempfile.TemporaryDirectory() as pool:
        start = time.monotonic()
        proc = subprocess.run([target, f"-seed={seed}", f"-max_total_time={cap}", "-max_len=77",
                               f"-artifact_prefix={pool}/", pool], env=env, capture_output=True, text=True)
        elapsed = time.monotonic() - start
    return elapsed if "==== isect finding ====" in proc.stderr else None


def median(times, cap):
    values = [t if t is not None else float("inf") for t in times]
    m = statistics.median(values)
    return f">{cap}" if m == float("inf") else f"{m:.3f}"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("isect")
    ap.add_argument("target")
    ap.add_argument("--seeds", type=int, default=5)
    ap.add_argument("--cap", type=int, default=30)
    a = ap.parse_args()
    methods = [
        ("uniform generator", lambda k, s: run_check(a.isect, k, "uniform", s, a.cap)),
        ("isect generators", lambda k, s: run_check(a.isect, k, None, s, a.cap)),
        ("libFuzzer, plain mutator", lambda k, s: run_fuzzer(a.target, k, s, a.cap, True)),
        ("libFuzzer, float-aware mutator", lambda k, s: run_fuzzer(a.target, k, s, a.cap, False)),
    ]
    print(f"median seconds to the first finding over {a.seeds} seeds (cap {a.cap} s)")
    print("| planted bug | " + " | ".join(m for m, _ in methods) + " |")
    print("|---|" + "---:|" * len(methods))
    for k in KERNELS:
        cells = [median([f(k, s) for s in range(1, a.seeds + 1)], a.cap) for _, f in methods]
        print(f"| {k.split(':', 1)[1]} | " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
