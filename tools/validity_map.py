#!/usr/bin/env python3
"""Draws the validity maps of an `isect check` run: for each kernel, where
over the scale of the input it kept its contract.

usage: validity_map.py MAPS.json

MAPS.json is what isect check writes beside its report: a list of maps, each
{family, kernel, contract, domain, cases, png, cells}, a cell being
[log2 M bin, log2 feature bin, cases, wrong answers, violations, widest K]
(bins of 10 binades; -10000 for zero). Each map becomes one PNG (its "png"):
on the left the share of cases that broke the contract, on the right the
widest band a wrong answer needed, log10 K, over the input's largest
magnitude M (x) and its smallest nonzero feature (y).
"""
import json
import math
import os
import sys
import tempfile

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.colors import ListedColormap  # noqa: E402


def draw(m):
    cells = m["cells"]

    def axis(values):
        """Every bin from the least to the greatest, so that gaps show; zero first."""
        real = sorted(v for v in values if v > -10000)
        bins = list(range(real[0], real[-1] + 10, 10)) if real else []
        return ([-10000] if -10000 in values else []) + bins

    xs = axis({c[0] for c in cells})
    ys = axis({c[1] for c in cells})
    rate = [[math.nan] * len(xs) for _ in ys]
    band = [[math.nan] * len(xs) for _ in ys]
    counts = [[0] * len(xs) for _ in ys]
    for x, y, cases, wrong, violations, k in cells:
        i, j = ys.index(y), xs.index(x)
        counts[i][j] = cases
        rate[i][j] = violations / cases if cases else math.nan
        band[i][j] = math.log10(max(k, 1e-30)) if wrong else math.nan

    def label(b):
        return "0" if b <= -10000 else f"2^{b}"

    fig, axes = plt.subplots(1, 2, figsize=(13, 5.5), constrained_layout=True)
    red = ListedColormap(plt.get_cmap("RdYlGn_r")(range(256)))
    panels = [(axes[0], rate, "share of cases breaking the contract", red, 0, 1),
              (axes[1], band, "widest band of a wrong answer, log10 K", plt.get_cmap("viridis"), -13, 8)]
    for ax, grid, title, cmap, lo, hi in panels:
        image = ax.imshow(grid, origin="lower", aspect="auto", cmap=cmap, vmin=lo, vmax=hi)
        ax.set_xticks(range(len(xs)))
        ax.set_xticklabels([label(x) for x in xs], rotation=60, fontsize=7)
        ax.set_yticks(range(len(ys)))
        ax.set_yticklabels([label(y) for y in ys], fontsize=7)
        ax.set_xlabel("largest input magnitude M (bins of 10 binades)")
        ax.set_ylabel("smallest nonzero feature")
        ax.set_title(title, fontsize=10)
        fig.colorbar(image, ax=ax, shrink=0.85)
        for i in range(len(ys)):
            for j in range(len(xs)):
                n = counts[i][j]
                if n:
                    text = f"{n / 1e6:.1f}M" if n >= 1e6 else f"{n / 1e3:.0f}k" if n >= 1e4 else str(n)
                    ax.text(j, i, text, ha="center", va="center", fontsize=5, color="black")
    fig.suptitle(f"{m['kernel']} on {m['family']}, {m['contract']}: {m['cases']} cases, domain {m['domain']} "
                 "(numbers in cells: cases; blank: none generated)", fontsize=10)
    # Written beside its place and renamed into it: a reader never sees half a picture.
    folder, name = os.path.split(m["png"])
    handle, temp = tempfile.mkstemp(prefix="." + name + ".", dir=folder or ".")
    try:
        with os.fdopen(handle, "wb") as out:
            fig.savefig(out, format="png", dpi=110)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temp, m["png"])
    except BaseException:
        os.unlink(temp)
        raise
    finally:
        plt.close(fig)


def main() -> int:
    with open(sys.argv[1]) as f:
        maps = json.load(f)
    for m in maps:
        draw(m)
    return 0


if __name__ == "__main__":
    sys.exit(main())
