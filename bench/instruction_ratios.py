#!/usr/bin/env python3
"""isect check's cost per case in instructions, two builds side by side:
`valgrind --tool=callgrind` counts the instructions of `isect check --family
F --cases N --seed 1 --jobs 1` (built-in kernels) for each family, once per
build, less a run of one case (what a process pays once). With one worker, instruction counts repeat exactly for the same
binary and input, whatever else the machine is doing (two workers add the
spinning of whichever waits, up to 12% of a light family's count), so a change's cost shows where a wall-clock
ratio on a shared machine swings by 10% from run to run
(bench/oracle_ratios.py --before gives the wall-clock one).

usage: instruction_ratios.py BEFORE_ISECT AFTER_ISECT [--cases N] [--family F ...]
"""
import argparse
import re
import subprocess
import sys
import tempfile

from kernel_ratios import families_of


def instructions(isect, family, cases):
    with tempfile.TemporaryDirectory() as tmp:
        cmd = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={tmp}/out", isect, "check", "--family", family,
               "--cases", str(cases), "--seed", "1", "--jobs", "1", "--quiet", "--out", f"{tmp}/findings"]
        err = subprocess.run(cmd, capture_output=True, text=True).stderr
    m = re.search(r"Collected : (\d+)", err)
    if not m:
        sys.exit(f"no instruction count from {' '.join(cmd)}:\n{err[-2000:]}")
    return int(m.group(1))


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("before")
    ap.add_argument("after")
    ap.add_argument("--cases", type=int, default=20000)
    ap.add_argument("--family", nargs="*")
    a = ap.parse_args()
    families = a.family or [f for f in families_of(a.after) if f in families_of(a.before)]
    print(f"| family | before instructions/case | after instructions/case | after / before |")
    print("|---|---:|---:|---:|")
    # Per case: a run of N cases less a run of one, so that what a process
    # pays once (loading its libraries, the registry) is not spread over
    # the cases.
    def per_case(isect, family):
        return (instructions(isect, family, a.cases) - instructions(isect, family, 1)) / (a.cases - 1)

    for family in families:
        b = per_case(a.before, family)
        c = per_case(a.after, family)
        print(f"| {family} | {b:,.0f} | {c:,.0f} | {c / b:.3f} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
