#!/usr/bin/env python3
"""Time to the first finding of every planted bug of every family, by search
method: the uniform generator alone and isect's generator mix (both through
`isect check --stop-at-first`), and the family's libFuzzer target from an
empty corpus with and without the float-aware mutator. Median wall-clock
seconds over several seeds; a run that finds nothing within the cap counts
as the cap and is marked '>'. Ends with the tally the mutator must win:
bugs found within the cap, and the median over the bugs, for each libFuzzer
column.

usage: time_to_finding.py ISECT FUZZ_DIR [--seeds N] [--cap SECONDS] [--family F ...]
"""
import argparse
import os
import statistics
import subprocess
import tempfile
import time

def planted_bugs(isect):
    """(family, broken:NAME) for every planted bug `isect kernels` lists."""
    out, family = [], None
    for line in subprocess.run([isect, "kernels"], capture_output=True, text=True).stdout.splitlines():
        if line and not line.startswith(" "):
            family = line.strip()
        elif line.strip().startswith("broken:"):
            out.append((family, line.split()[0]))
    return out


def run_check(isect, family, kernel, gen, seed, cap):
    cmd = [isect, "check", "--family", family, "--kernel", kernel, "--seconds", str(cap), "--seed", str(seed),
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
        proc = subprocess.run([target, f"-seed={seed}", f"-max_total_time={cap}", "-max_len=128",
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
    ap.add_argument("fuzz_dir")
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--cap", type=int, default=30)
    ap.add_argument("--family", nargs="*")
    a = ap.parse_args()
    target = lambda family: os.path.join(a.fuzz_dir, "fuzz_" + family)
    methods = [
        ("uniform generator", lambda f, k, s: run_check(a.isect, f, k, "uniform", s, a.cap)),
        ("isect generators", lambda f, k, s: run_check(a.isect, f, k, None, s, a.cap)),
        ("libFuzzer, plain mutator", lambda f, k, s: run_fuzzer(target(f), k, s, a.cap, True)),
        ("libFuzzer, float-aware mutator", lambda f, k, s: run_fuzzer(target(f), k, s, a.cap, False)),
    ]
    print(f"median seconds to the first finding over {a.seeds} seeds (cap {a.cap} s)")
    print("| family | planted bug | " + " | ".join(m for m, _ in methods) + " |")
    print("|---|---|" + "---:|" * len(methods))
    medians = {m: [] for m, _ in methods}
    for family, k in planted_bugs(a.isect):
        if a.family and family not in a.family:
            continue
        cells = []
        for m, f in methods:
            times = [f(family, k, s) for s in range(1, a.seeds + 1)]
            values = [t if t is not None else float("inf") for t in times]
            medians[m].append(statistics.median(values))
            cells.append(median(times, a.cap))
        print(f"| {family} | {k.split(':', 1)[1]} | " + " | ".join(cells) + " |", flush=True)
    print()
    for m, _ in methods[2:]:
        found = sum(1 for x in medians[m] if x != float("inf"))
        mid = statistics.median(medians[m]) if medians[m] else float("inf")
        print(f"{m}: {found} of {len(medians[m])} planted bugs found (median run) within {a.cap} s; "
              f"median time over the bugs {'>' + str(a.cap) if mid == float('inf') else f'{mid:.3f}'} s")


if __name__ == "__main__":
    main()
