#!/usr/bin/env python3
"""Draws the validity maps of an `isect check` run: for each kernel, where
over the scale of the input it kept its contract.

usage: validity_map.py MAPS.json

MAPS.json is what isect check writes beside its report: a list of maps, each
{family, kernel, contract, domain, domain_lo, domain_hi, requires, cases,
png, cells}, a cell being [log2 M bin, log2 feature bin, cases, wrong
answers, violations, widest K] (bins of 10 binades; -10000 for zero). Each
map becomes one PNG (its "png"): on the left where the kernel broke its
contract, on the right the widest band a wrong answer needed, log10 K, over
the input's largest magnitude M (x) and its smallest nonzero feature (y).

The left panel is drawn so that a break cannot hide: a cell where no case
broke the contract is plain green, a cell where any did is coloured by the
share on a log scale (1e-6 to 1: an absolute epsilon failing 2% of cases is
as loud as a kernel failing all of them) and carries the number of
violations in bold. The declared domain is drawn as dashed lines, and the
preconditions are in the title.

Exit 0 when every picture is written; 3 when some could not be (each named
on stderr in one line, with why: a full disk, say); 4 when matplotlib is
missing.
"""
import json
import math
import os
import sys
import tempfile

try:
    import matplotlib
except ImportError:
    print("validity_map.py: matplotlib is missing (apt-get install python3-matplotlib)", file=sys.stderr)
    sys.exit(4)

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.colors import ListedColormap, LogNorm  # noqa: E402


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
    clean = [[math.nan] * len(xs) for _ in ys]
    band = [[math.nan] * len(xs) for _ in ys]
    counts = [[0] * len(xs) for _ in ys]
    broken = [[0] * len(xs) for _ in ys]
    for x, y, cases, wrong, violations, k in cells:
        i, j = ys.index(y), xs.index(x)
        counts[i][j] = cases
        broken[i][j] = violations
        if cases and violations:
            rate[i][j] = max(violations / cases, 1e-6)
        elif cases:
            clean[i][j] = 1.0
        band[i][j] = math.log10(max(k, 1e-30)) if wrong else math.nan

    def label(b):
        return "0" if b <= -10000 else f"2^{b}"

    def bin_of(v):
        """Where magnitude v falls on the M axis, in column coordinates; None off the axis."""
        real = [c for c in xs if c > -10000]
        if not v or v <= 0 or not math.isfinite(v) or not real:
            return None
        at = xs.index(real[0]) + (math.log2(v) - real[0]) / 10 - 0.5
        return at if -0.5 <= at <= len(xs) - 0.5 else None

    # Margins fixed for the longest labels (constrained layout measures
    # every tick label again and took half the drawing's time).
    fig, axes = plt.subplots(1, 2, figsize=(13, 5.5))
    fig.subplots_adjust(left=0.07, right=0.98, bottom=0.19, top=0.88, wspace=0.18)
    red = plt.get_cmap("autumn_r")
    green = ListedColormap(["#3a9d3a"])
    ax = axes[0]
    ax.imshow(clean, origin="lower", aspect="auto", cmap=green, vmin=0, vmax=1)
    image = ax.imshow(rate, origin="lower", aspect="auto", cmap=red, norm=LogNorm(vmin=1e-6, vmax=1))
    fig.colorbar(image, ax=ax, shrink=0.85, label="share of the cell's cases breaking the contract (green: none)")
    ax.set_title("where the contract breaks (count of violations in bold)", fontsize=10)
    ax2 = axes[1]
    image2 = ax2.imshow(band, origin="lower", aspect="auto", cmap=plt.get_cmap("viridis"), vmin=-13, vmax=8)
    fig.colorbar(image2, ax=ax2, shrink=0.85)
    ax2.set_title("widest band of a wrong answer, log10 K", fontsize=10)
    lo, hi = m.get("domain_lo"), m.get("domain_hi")
    for a in axes:
        a.set_xticks(range(len(xs)))
        a.set_xticklabels([label(x) for x in xs], rotation=60, fontsize=7)
        a.set_yticks(range(len(ys)))
        a.set_yticklabels([label(y) for y in ys], fontsize=7)
        a.set_xlabel("largest input magnitude M (bins of 10 binades)")
        a.set_ylabel("smallest nonzero feature")
        for v in (lo, hi):
            at = bin_of(v)
            if at is not None:
                a.axvline(at, color="black", linestyle="--", linewidth=1)
        for i in range(len(ys)):
            for j in range(len(xs)):
                n = counts[i][j]
                if a is axes[0] and broken[i][j]:
                    b = broken[i][j]
                    text = f"{b / 1e3:.0f}k" if b >= 1e4 else str(b)
                    a.text(j, i, text, ha="center", va="center", fontsize=7, color="black", fontweight="bold")
                elif n:
                    text = f"{n / 1e6:.1f}M" if n >= 1e6 else f"{n / 1e3:.0f}k" if n >= 1e4 else str(n)
                    a.text(j, i, text, ha="center", va="center", fontsize=5, color="black")
    requires = m.get("requires") or "none"
    fig.suptitle(f"{m['kernel']} on {m['family']}, {m['contract']}: {m['cases']} cases, domain {m['domain']} "
                 f"(dashed), requires {requires}; cells: cases, or violations in bold", fontsize=10)
    # Written beside its place and renamed into it: a reader never sees half a picture.
    folder, name = os.path.split(m["png"])
    try:
        handle, temp = tempfile.mkstemp(prefix="." + name + ".", dir=folder or ".")
    except OSError as e:
        plt.close(fig)
        raise PictureNotWritten(f"{m['png']}: {e.strerror} (picture not written)") from e
    try:
        # As the case files are: readable as the umask says, not 0600.
        mask = os.umask(0)
        os.umask(mask)
        os.fchmod(handle, 0o666 & ~mask)
        with os.fdopen(handle, "wb") as out:
            fig.savefig(out, format="png", dpi=110)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temp, m["png"])
    except OSError as e:
        os.unlink(temp)
        raise PictureNotWritten(f"{m['png']}: {e.strerror} (picture not written)") from e
    finally:
        plt.close(fig)


class PictureNotWritten(Exception):
    pass


def main() -> int:
    with open(sys.argv[1]) as f:
        maps = json.load(f)
    status = 0
    for m in maps:
        try:
            draw(m)
        except PictureNotWritten as e:
            print(f"validity_map.py: {e}", file=sys.stderr)
            status = 3
    return status


if __name__ == "__main__":
    sys.exit(main())
