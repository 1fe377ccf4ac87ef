#!/usr/bin/env python3
"""Run a Google Benchmark program once and print ns per test and the ratio of
each kernel's speed to CGAL's filtered do_intersect, measured in the same run.

usage: ratios.py BENCH_BINARY [extra benchmark args...]
"""
import json
import subprocess
import sys

WORKLOADS = {"0": "sparse", "1": "candidates", "2": "degenerate"}
BASELINE = "cgal_filtered"


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown cpu"


def main() -> int:
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    cmd = [sys.argv[1], "--benchmark_format=json", "--benchmark_min_time=0.2", "--benchmark_min_warmup_time=0.2",
           *sys.argv[2:]]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    data = json.loads(out)
    ns = {}  # (kernel, workload) -> ns per test
    for b in data["benchmarks"]:
        name, arg = b["name"].split("/")[:2]
        kernel = name.removeprefix("BM_")
        ns[(kernel, WORKLOADS.get(arg, arg))] = 1e9 / b["items_per_second"]
    ctx = data["context"]
    print(f"machine: {cpu_model()}, {ctx['num_cpus']} cpus at {ctx['mhz_per_cpu']} MHz")
    kernels = sorted({k for k, _ in ns}, key=lambda k: (k != "sat", k != "conservative", k))
    loads = [w for w in WORKLOADS.values() if any((k, w) in ns for k in kernels)]
    print("| kernel | " + " | ".join(f"{w} ns/test | {w} speed vs CGAL" for w in loads) + " |")
    print("|---|" + "---:|---:|" * len(loads))
    for k in kernels:
        cells = []
        for w in loads:
            t, base = ns.get((k, w)), ns.get((BASELINE, w))
            cells.append(f"{t:.1f}" if t else "-")
            r = base / t if t and base else None
            cells.append("-" if r is None else f"{r:.2f}x" if r >= 0.1 else f"1/{1 / r:.0f}")
        print(f"| {k} | " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
