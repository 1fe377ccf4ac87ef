#!/usr/bin/env python3
"""Run bench/family_bench's generation benchmarks once and print, per family
and precondition, ns per generated input with the input adapted to
--require NAME, against the same generation without it ("none"), all
measured in the same run.

usage: precondition_ratios.py FAMILY_BENCH_BINARY [extra benchmark args...]
"""
import sys

from kernel_ratios import cpu_model, run_benchmark


def main() -> int:
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    data = run_benchmark([*sys.argv, "--benchmark_filter=^generate/"], 0.2)
    ns = {}
    for b in data["benchmarks"]:
        _, family, name = b["name"].split("/")[:3]
        ns.setdefault(family, {})[name] = 1e9 / b["items_per_second"]
    ctx = data["context"]
    print(f"machine: {cpu_model()}, {ctx['num_cpus']} cpus at {ctx['mhz_per_cpu']} MHz; ns per generated input, one run")
    print()
    print("| family | --require | ns/input | without | ratio |")
    print("|---|---|---:|---:|---:|")
    worst = 0.0
    for family, names in ns.items():
        base = names["none"]
        for name, t in names.items():
            if name == "none":
                continue
            worst = max(worst, t / base)
            print(f"| {family} | {name} | {t:.0f} | {base:.0f} | {t / base:.2f}x |")
    print()
    print(f"largest ratio: {worst:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
