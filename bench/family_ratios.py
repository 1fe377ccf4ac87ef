#!/usr/bin/env python3
"""Run bench/family_bench once and print, per family and kernel, ns per call
and how many times faster the kernel is than the family's CGAL reference
(exact rational kernel), all measured in the same run. ns/call includes the
checker's adapter, shown on its own as "adapter ns".

usage: family_ratios.py FAMILY_BENCH_BINARY [extra benchmark args...]
"""
import sys

from kernel_ratios import cpu_model, run_benchmark


def main() -> int:
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    data = run_benchmark(sys.argv, 0.1)
    ns = {}
    for b in data["benchmarks"]:
        if b["name"].startswith("generate/"):
            continue  # bench/precondition_ratios.py reads those
        family, kernel = b["name"].split("/")[:2]
        ns.setdefault(family, {})[kernel] = 1e9 / b["items_per_second"]
    ctx = data["context"]
    print(f"machine: {cpu_model()}, {ctx['num_cpus']} cpus at {ctx['mhz_per_cpu']} MHz")
    print("| family | kernel | ns/call | adapter ns | CGAL reference ns/call | speed vs CGAL reference |")
    print("|---|---|---:|---:|---:|---:|")
    for family, kernels in ns.items():
        base, adapter = kernels.get("cgal_reference"), kernels.get("adapter", 0)
        for kernel, t in kernels.items():
            if kernel in ("cgal_reference", "adapter"):
                continue
            ratio = f"{base / t:.0f}x" if base else "-"
            print(f"| {family} | {kernel} | {t:.1f} | {adapter:.1f} | {base:.0f} | {ratio} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
