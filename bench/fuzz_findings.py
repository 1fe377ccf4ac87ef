#!/usr/bin/env python3
"""For every family and one planted bug of it: `isect fuzz --family F --kernel
broken:NAME --minutes M` into a scratch corpus, then `isect replay --kernel
broken:NAME --expect-broken` on what it wrote. Prints a Markdown table: the
cases written, the first one's finding, and whether replay judged every
written case broken. Exit 1 when a family found nothing or replay disagreed.

With --specimens DIR the subjects are the seed specimens instead (every
PLUGIN.so in DIR, under the contract each is known to break, every family it
exports): `isect fuzz --plugin`, then `isect replay --plugin --expect-broken`.
The table adds when libFuzzer first reported a finding (its own clock, in the
campaign's log).

usage: fuzz_findings.py [--isect ./isect] [--minutes M] [--family F ...] [--specimens DIR]
"""
import argparse
import glob
import os
import re
import subprocess
import sys
import tempfile

from kernel_ratios import families_of

# The contract each specimen is known to break in every family it exports
# but aabb_aabb (docs/specimens.md): seed001_aabb3's aabb_plane holds
# tolerant=1 and breaks exact.
SPECIMEN_CONTRACT = {"seed001_aabb3": "exact"}


def campaign(isect, subject_args, corpus, replay_args):
    """Runs `isect fuzz` and replays what it wrote: (cases, verdict, first finding)."""
    fuzz = subprocess.run([isect, "fuzz", *subject_args, "--corpus", corpus], capture_output=True, text=True)
    cases = sorted(os.path.join(corpus, c) for c in os.listdir(corpus) if c.endswith(".case"))
    first = next((line.split(": ", 1)[1] for line in fuzz.stdout.splitlines() if line.startswith("new case")), "")
    verdict = "nothing to replay"
    if cases:
        replay = subprocess.run([isect, "replay", *replay_args, "--expect-broken"] + cases, capture_output=True, text=True)
        verdict = "every case broken" if replay.returncode == 0 else f"FAILED (exit {replay.returncode})"
        if replay.returncode != 0:
            sys.stderr.write(replay.stdout + replay.stderr)
    return cases, verdict, first, fuzz


def first_finding_seconds(log):
    """libFuzzer's fork-mode clock when its crash count first went above 0."""
    try:
        for line in open(log):
            m = re.search(r"oom/timeout/crash: \d+/\d+/(\d+) time: (\d+)s", line)
            if m and int(m.group(1)) > 0:
                return int(m.group(2))
    except OSError:
        pass
    return None


def specimens(a):
    print("| specimen | contract | family | first finding after | cases written | replay --plugin --expect-broken | first case |")
    print("|---|---|---|---:|---:|---|---|")
    fuzz_dir = os.environ.get("ISECT_FUZZ_DIR", "build-fuzz/fuzz")
    ok = True
    for plugin in sorted(glob.glob(os.path.join(a.specimens, "*.so"))):
        name = os.path.basename(plugin)[:-3]
        contract = SPECIMEN_CONTRACT.get(name, "tolerant=1")
        listing = subprocess.run([a.isect, "check", "--plugin", plugin, "--family", "none"], capture_output=True, text=True)
        exported = re.search(r"it exports:([^)]*)", listing.stderr)
        for family in (exported.group(1).split() if exported else []):
            if a.family and family not in a.family:
                continue
            corpus = tempfile.mkdtemp(prefix=f"isect-fuzz-{name}-{family}-")
            cases, verdict, first, _ = campaign(
                a.isect, ["--plugin", plugin, "--contract", contract, "--family", family, "--minutes", a.minutes],
                corpus, ["--plugin", plugin, "--contract", contract])
            secs = first_finding_seconds(os.path.join(fuzz_dir, "..", "campaign_" + family, "libfuzzer.log"))
            known_holds = name == "seed001_aabb3" and family == "aabb_aabb"
            ok = ok and (known_holds or (bool(cases) and verdict == "every case broken"))
            print(f"| {name} | {contract} | {family} | {'-' if secs is None else f'{secs} s'} | {len(cases)} | "
                  f"{verdict}{' (holds under every contract)' if known_holds and not cases else ''} | "
                  f"{first.replace('|', '/')} |", flush=True)
    return 0 if ok else 1


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--isect", default="./isect")
    ap.add_argument("--minutes", default="1")
    ap.add_argument("--family", nargs="*")
    ap.add_argument("--specimens")
    a = ap.parse_args()
    if a.specimens:
        return specimens(a)
    print("| family | planted bug | cases written | replay --expect-broken | first finding |")
    print("|---|---|---:|---|---|")
    ok = True
    # One planted bug per family: the first `isect kernels` lists for it.
    bugs = {f: next(k for k in ks if k.startswith("broken:")) for f, ks in families_of(a.isect).items()
            if any(k.startswith("broken:") for k in ks)}
    for family in a.family or list(bugs):
        bug = bugs[family]
        corpus = tempfile.mkdtemp(prefix=f"isect-fuzz-{family}-")
        cases, verdict, first, _ = campaign(a.isect, ["--family", family, "--kernel", bug, "--minutes", a.minutes],
                                            corpus, ["--kernel", bug])
        ok = ok and bool(cases) and verdict == "every case broken"
        print(f"| {family} | `{bug}` | {len(cases)} | {verdict} | {first.replace('|', '/')} |", flush=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
