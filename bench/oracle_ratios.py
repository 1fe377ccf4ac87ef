#!/usr/bin/env python3
"""isect check's speed with the fast oracles against the references alone, in
one run: for each family, `isect check --oracle slow` and `--oracle fast`
alternate (ROUNDS times each, SECONDS each) on the same seed, so that load
on a shared machine falls on both. Prints a Markdown table of cases per
second (median over the rounds), the ratio, and how often the fast oracle
decided and the references judged.

With --before OLD_ISECT (an isect built from an earlier commit), its
`isect check` runs in the same rotation and the table gains its cases/s and
fast / before: the speed-up of the whole change, measured in one run.

usage: oracle_ratios.py ISECT [--seconds S] [--rounds N] [--family F ...] [--before OLD_ISECT]
"""
import argparse
import json
import re
import statistics
import subprocess
import sys

from kernel_ratios import families_of


def run(isect, family, oracle, seconds, seed):
    cmd = [isect, "check", "--family", family, "--oracle", oracle, "--jobs", "1", "--seconds", str(seconds), "--seed", str(seed),
           "--format", "json", "--quiet", "--out", "/tmp/isect-oracle-ratios"]
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode not in (0, 1):
        sys.exit(out.stderr)
    fam = json.loads(out.stdout)["families"][0]
    return fam


def run_before(isect, family, seconds, seed):
    """An older isect's cases/s, from its text report's first line."""
    cmd = [isect, "check", "--family", family, "--seconds", str(seconds), "--seed", str(seed), "--quiet",
           "--out", "/tmp/isect-oracle-ratios"]
    out = subprocess.run(cmd, capture_output=True, text=True).stdout
    m = re.search(r"(\d+) cases in ([\d.]+) s", out)
    return int(m.group(1)) / float(m.group(2))


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("isect")
    ap.add_argument("--seconds", type=float, default=3)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--family", nargs="*")
    ap.add_argument("--before")
    args = ap.parse_args()
    families = args.family or list(families_of(args.isect))
    before = "| before cases/s " if args.before else "| "
    print(f"| family {before}| references alone cases/s | fast cases/s | fast / references "
          f"{'| fast / before ' if args.before else ''}| fast oracle decided | references judged |")
    print("|---|" + ("---:|" if args.before else "") + "---:|---:|---:|" + ("---:|" if args.before else "") + "---:|---:|")
    for family in families:
        old, slow, fast, last = [], [], [], None
        for r in range(args.rounds):
            if args.before:
                old.append(run_before(args.before, family, args.seconds, r + 1))
            s = run(args.isect, family, "slow", args.seconds, r + 1)
            f = run(args.isect, family, "fast", args.seconds, r + 1)
            slow.append(s["cases_per_second"])
            fast.append(f["cases_per_second"])
            last = f
        ms, mf = statistics.median(slow), statistics.median(fast)
        decided = 100 * last["fast_oracle_cases"] / max(1, last["cases"])
        judged = 100 * last["reference_cases"] / max(1, last["cases"])
        if args.before:
            mo = statistics.median(old)
            print(f"| {family} | {mo:,.0f} | {ms:,.0f} | {mf:,.0f} | {mf / ms:.1f}x | {mf / mo:.1f}x | {decided:.2f}% | "
                  f"{judged:.2f}% |", flush=True)
        else:
            print(f"| {family} | {ms:,.0f} | {mf:,.0f} | {mf / ms:.1f}x | {decided:.2f}% | {judged:.2f}% |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
