#!/usr/bin/env python3
"""isect check's cost per case in instructions, two builds side by side:
`valgrind --tool=callgrind` counts the instructions of `isect check --family
F --cases N --seed 1 --jobs 1` (built-in kernels) for each family, once per
build, less a run of one case (what a process pays once), per case judged
(a family with conventions judges each case once per convention). With one worker, instruction counts repeat exactly for the same
binary and input, whatever else the machine is doing (two workers add the
spinning of whichever waits, up to 12% of a light family's count), so a change's cost shows where a wall-clock
ratio on a shared machine swings by 10% from run to run
(bench/oracle_ratios.py --before gives the wall-clock one).

usage: instruction_ratios.py BEFORE_ISECT AFTER_ISECT [--cases N] [--family F ...]
"""
import argparse
import json
import re
import subprocess
import sys
import tempfile

from kernel_ratios import families_of


def instructions(isect, family, cases):
    """Instructions of the run, and the cases it judged: a family with
    conventions (aabb_aabb's volume_overlap) judges each case once per
    convention, as a run of its own."""
    with tempfile.TemporaryDirectory() as tmp:
        cmd = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={tmp}/out", isect, "check", "--family", family,
               "--cases", str(cases), "--seed", "1", "--jobs", "1", "--format", "json", "--out", f"{tmp}/findings"]
        run = subprocess.run(cmd, capture_output=True, text=True)
    m = re.search(r"Collected : (\d+)", run.stderr)
    if not m:
        sys.exit(f"no instruction count from {' '.join(cmd)}:\n{run.stderr[-2000:]}")
    try:
        judged = sum(f["cases"] for f in json.loads(run.stdout)["families"])
    except json.JSONDecodeError:
        # Under valgrind the rounding mode does not change, so CGAL's and
        # isect's interval filters can be unsound and the references then
        # disagree (triangle_triangle): the run stops with that message.
        why = [l for l in run.stderr.splitlines() if not l.startswith("==")]
        raise RunFailed(why[0] if why else "no report")
    return int(m.group(1)), judged


class RunFailed(Exception):
    pass


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
        (many, judged), (one, judged_one) = instructions(isect, family, a.cases), instructions(isect, family, 1)
        return (many - one) / (judged - judged_one)

    for family in families:
        try:
            b = per_case(a.before, family)
            c = per_case(a.after, family)
        except RunFailed as e:
            print(f"| {family} | | | not measured under valgrind: {e} |", flush=True)
            continue
        print(f"| {family} | {b:,.0f} | {c:,.0f} | {c / b:.3f} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
