#!/usr/bin/env python3
"""Time to the first finding of every planted bug of every family, by search
method: the uniform generator alone and isect's generator mix (both through
`isect check --stop-at-first`), and the family's libFuzzer target from an
empty corpus with and without the float-aware mutator. Median wall-clock
seconds over several seeds; a run that finds nothing within the cap counts
as the cap and is marked '>'. Ends with the tally the mutator must win:
bugs found within the cap, and the median over the bugs, for each libFuzzer
column.

usage: time_to_finding.py ISECT FUZZ_DIR [--seeds N] [--cap SECONDS] [--family F ...] [--precision P] [--fuzzers-only]

Every planted bug runs in its own precision (the double-precision section of
`isect kernels` runs with --precision double and ISECT_FUZZ_PRECISION=double).

--fuzzers-only runs the two libFuzzer columns alone (the mutator's verdict).
Seconds for `isect check` are its own clock (from the first case); for
libFuzzer they are wall-clock including start-up (~0.27 s here). The count
of inputs run is the machine-independent figure and the one the verdict uses.
"""
import argparse
import os
import statistics
import subprocess
import tempfile
import time

def planted_bugs(isect):
    """(family, broken:NAME, precision) for every planted bug `isect kernels`
    lists, in both of its sections (float, then "double-precision kernels")."""
    out, family, precision = [], None, "float"
    for line in subprocess.run([isect, "kernels"], capture_output=True, text=True, check=True).stdout.splitlines():
        if line.startswith("double-precision kernels"):
            precision = "double"
        elif line and not line.startswith(" ") and not line.endswith(":") and " " not in line.strip():
            family = line.strip()
        elif line.strip().startswith("broken:"):
            out.append((family, line.split()[0], precision))
    return out


def run_check(isect, family, kernel, precision, gen, seed, cap):
    """(seconds, cases run) to the first violation, or None. A run that
    fails for any other reason stops the script: it is not a miss."""
    cmd = [isect, "check", "--family", family, "--kernel", kernel, "--precision", precision, "--seconds", str(cap),
           "--seed", str(seed), "--stop-at-first", "--quiet", "--out", tempfile.mkdtemp()]
    if gen:
        cmd += ["--gen", gen]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    out = proc.stdout
    if "BROKEN" not in out:
        if proc.returncode != 0:
            raise SystemExit(f"{' '.join(cmd)} failed ({proc.returncode}):\n{proc.stderr}")
        return None
    head = out.splitlines()[0]  # "isect check: FAMILY, N cases in X s (R/s), seed S"
    cases = int(head.split(",")[1].split()[0])
    seconds = float(head.split(" cases in ")[1].split()[0])
    return seconds, cases


def run_fuzzer(target, kernel, precision, seed, cap, plain):
    """(seconds, inputs run) to the first finding, or None. The count of
    inputs is libFuzzer's own and does not depend on the machine's load. A
    target that dies without a finding (an unknown kernel, say) stops the
    script: it is not a miss."""
    env = dict(os.environ, ISECT_FUZZ_SUBJECT=f"kernel {kernel}", ISECT_FUZZ_PRECISION=precision)
    if plain:
        env["ISECT_FUZZ_MUTATOR"] = "plain"
    with tempfile.TemporaryDirectory() as pool:
        start = time.monotonic()
        proc = subprocess.run([target, f"-seed={seed}", f"-max_total_time={cap}", "-max_len=1024",
                               "-print_final_stats=1", f"-artifact_prefix={pool}/", pool],
                              env=env, capture_output=True, text=True)
        elapsed = time.monotonic() - start
    if "==== isect finding ====" not in proc.stderr:
        if proc.returncode != 0:
            raise SystemExit(f"{target} ({kernel}, {precision}) died without a finding ({proc.returncode}):\n"
                             + proc.stderr[-2000:])
        return None
    runs = [int(line.split()[-1]) for line in proc.stderr.splitlines()
            if line.startswith("stat::number_of_executed_units")]
    return elapsed, runs[0] if runs else None


def median_cell(runs, cap):
    """'seconds (inputs)' medians over the seeds; a miss counts as the cap."""
    secs = statistics.median([r[0] if r else float("inf") for r in runs])
    counts = statistics.median([r[1] if r and r[1] is not None else float("inf") for r in runs])
    if secs == float("inf"):
        return f">{cap}"
    return f"{secs:.3f} ({counts:.0f})"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("isect")
    ap.add_argument("fuzz_dir")
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--cap", type=int, default=30)
    ap.add_argument("--family", nargs="*")
    ap.add_argument("--fuzzers-only", action="store_true")
    ap.add_argument("--precision", choices=["float", "double"], help="only the planted bugs of this precision")
    a = ap.parse_args()
    target = lambda family: os.path.join(a.fuzz_dir, "fuzz_" + family)
    methods = [
        ("uniform generator", lambda f, k, p, s: run_check(a.isect, f, k, p, "uniform", s, a.cap)),
        ("isect generators", lambda f, k, p, s: run_check(a.isect, f, k, p, None, s, a.cap)),
        ("libFuzzer, plain mutator", lambda f, k, p, s: run_fuzzer(target(f), k, p, s, a.cap, True)),
        ("libFuzzer, float-aware mutator", lambda f, k, p, s: run_fuzzer(target(f), k, p, s, a.cap, False)),
    ]
    if a.fuzzers_only:
        methods = methods[2:]
    print(f"median seconds (and inputs run) to the first finding over {a.seeds} seeds (cap {a.cap} s)")
    print("| family | planted bug | precision | " + " | ".join(m for m, _ in methods) + " |")
    print("|---|---|---|" + "---:|" * len(methods))
    found = {m: 0 for m, _ in methods}
    inputs = {m: [] for m, _ in methods}
    seconds = {m: [] for m, _ in methods}
    wins = {m: 0 for m, _ in methods}
    for family, k, precision in planted_bugs(a.isect):
        if a.family and family not in a.family:
            continue
        if a.precision and precision != a.precision:
            continue
        cells, medians = [], {}
        for m, f in methods:
            runs = [f(family, k, precision, s) for s in range(1, a.seeds + 1)]
            cells.append(median_cell(runs, a.cap))
            counts = [r[1] if r and r[1] is not None else float("inf") for r in runs]
            medians[m] = statistics.median(counts)
            found[m] += medians[m] != float("inf")
            inputs[m].append(medians[m])
            seconds[m].append(statistics.median([r[0] if r else float("inf") for r in runs]))
        fuzzers = [m for m, _ in methods[-2:]]
        best = min(medians[m] for m in fuzzers)
        for m in fuzzers:
            wins[m] += medians[m] == best
        print(f"| {family} | {k.split(':', 1)[1]} | {precision} | " + " | ".join(cells) + " |", flush=True)
    print()
    for m, _ in methods:
        tail = f"; fewest inputs of the two libFuzzer columns (ties count) on {wins[m]}" if m.startswith("libFuzzer") else ""
        mid = statistics.median(inputs[m]) if inputs[m] else float("inf")
        secs = statistics.median(seconds[m]) if seconds[m] else float("inf")
        print(f"{m}: {found[m]} of {len(inputs[m])} planted bugs found (median run) within {a.cap} s; "
              f"median over the bugs {secs:.3f} s, {mid:.0f} inputs{tail}")


if __name__ == "__main__":
    main()
