#!/usr/bin/env python3
"""Run bench/kernel_bench once and print, per yes/no family and workload,
the exact kernel's time against the family's fast float kernel and against
CGAL's filtered do_intersect (Epick), all measured in the same run, with the
exact kernel's fallback rate (the share of calls that needed exact
arithmetic).

usage: kernel_ratios.py KERNEL_BENCH_BINARY [extra benchmark args...]
"""
import json
import subprocess
import sys

# The fast float kernel each exact kernel is compared with (aabb_aabb's only
# kernel is exact already: comparisons of floats).
FLOAT_KERNEL = {
    "aabb_triangle": "sat",
    "ray_triangle": "moller_trumbore",
    "ray_aabb": "woo",
    "segment_aabb": "woo",
    "aabb_plane": "float_plain",
    "aabb_plane_overlap": "centre_extents",
    "sphere_aabb": "overlap",
    "triangle_triangle": "moller",
    "ray_sphere": "rtg",
    "segment_segment": "ericson",
    "point_triangle": "ericson",
}
WORKLOADS = ["random", "uniform", "mix"]


def families_of(isect):
    """The families `isect kernels` lists (the one list, families.def), each
    with its kernels and planted bugs in the order listed."""
    out = subprocess.run([isect, "kernels"], capture_output=True, text=True, check=True).stdout
    families = {}
    for line in out.splitlines():
        if not line.strip():
            break  # the double-precision kernels follow
        if not line[0].isspace():
            current = families.setdefault(line.strip(), [])
        elif line.strip() and not line.strip().startswith("preconditions"):
            current.append(line.split()[0])
    return families


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown cpu"


def run_benchmark(argv, min_time):
    """Runs a Google Benchmark binary (argv[1], extra args after it) once
    and returns its JSON report."""
    cmd = [argv[1], "--benchmark_format=json", f"--benchmark_min_time={min_time}", *argv[2:]]
    return json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)


def main() -> int:
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    data = run_benchmark(sys.argv, 0.2)
    ns, fallback = {}, {}
    for b in data["benchmarks"]:
        family, kernel, workload = b["name"].split("/")[:3]
        ns[(family, kernel, workload)] = 1e9 / b["items_per_second"]
        if "fallback_rate" in b:
            fallback[(family, workload)] = b["fallback_rate"]
    ctx = data["context"]
    print(f"machine: {cpu_model()}, {ctx['num_cpus']} cpus at {ctx['mhz_per_cpu']} MHz; "
          f"4096 inputs per workload, ns per call, one run")
    print()
    print("| family | workload | float kernel | ns | exact ns | exact / float | Epick ns | Epick / exact | exact fallbacks |")
    print("|---|---|---|---:|---:|---:|---:|---:|---:|")
    families = []
    for family, _, _ in ns:
        if family not in families:
            families.append(family)
    for family in families:
        for w in WORKLOADS:
            exact = ns.get((family, "exact", w))
            if exact is None:
                continue
            fk = FLOAT_KERNEL.get(family)
            fast = ns.get((family, fk, w)) if fk else None
            epick = ns.get((family, "epick", w))
            cells = [family, w, fk or "-", f"{fast:.1f}" if fast else "-", f"{exact:.1f}",
                     f"{exact / fast:.2f}x" if fast else "-", f"{epick:.1f}" if epick else "-",
                     f"{epick / exact:.2f}x" if epick else "-", f"{100 * fallback.get((family, w), 0):.1f}%"]
            print("| " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
