#!/usr/bin/env python3
"""Check every seed specimen under every contract, keep each counterexample
as a corpus case, and print the README's verdict table.

usage: run_table.py ISECT_BINARY SPECIMEN_DIR [--seconds N] [--seed N] [--domain LO:HI]

With --domain the table is printed for that domain and no corpus case is
written (the corpus backs the table over every finite float).

Counterexamples go to corpus/FAMILY/specimen-PLUGIN-CONTRACT.case (the
contract without '=' or '.'); ctest replays each against its specimen and
requires the contract to break (examples/specimens/CMakeLists.txt). A
verdict "holds" is backed by specimen-PLUGIN-CONTRACT-holds.case: the first
of the family's hand-made trap cases on which the specimen keeps the
contract, which ctest replays requiring that it still does.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

CONTRACTS = ["exact", "conservative", "tolerant=1"]


def backing_case(isect, so, plugin, contract, family, root):
    """Copies the first trap case of the family that the specimen keeps."""
    folder = os.path.join(root, "corpus", family)
    for name in sorted(os.listdir(folder)):
        if name.startswith("specimen-") or not name.endswith(".case"):
            continue
        path = os.path.join(folder, name)
        run = subprocess.run([isect, "replay", "--plugin", so, "--contract", contract, path], capture_output=True)
        if run.returncode == 0:
            tag = contract.replace("=", "").replace(".", "_")
            dest = os.path.join("corpus", family, f"specimen-{plugin}-{tag}-holds.case")
            with open(path) as src, open(os.path.join(root, dest), "w") as out:
                out.write(f"# {plugin} keeps {contract} here (and on every generated case); from {name}:\n")
                out.write(src.read())
            return dest
    return ""


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("isect")
    ap.add_argument("specimens")
    ap.add_argument("--seconds", type=float, default=3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--domain", default="")
    args = ap.parse_args()
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    rows = []
    for so in sorted(f for f in os.listdir(args.specimens) if f.endswith(".so")):
        plugin = so[:-3]
        for contract in CONTRACTS:
            with tempfile.TemporaryDirectory() as out:
                cmd = [args.isect, "check", "--plugin", os.path.join(args.specimens, so), "--contract", contract,
                       "--seconds", str(args.seconds), "--seed", str(args.seed), "--format", "json", "--out", out,
                       "--quiet"] + (["--domain", args.domain] if args.domain else [])
                run = subprocess.run(cmd, capture_output=True, text=True)
                if run.returncode not in (0, 1):
                    print(run.stderr, file=sys.stderr)
                    return 2
                report = json.loads(run.stdout)
                for fam in report["families"]:
                    kern = fam["kernels"][0]
                    case = ""
                    if args.domain:
                        rows.append((plugin, fam["family"], contract, kern, ""))
                        continue
                    if kern["verdict"] == "holds":
                        case = backing_case(args.isect, os.path.join(args.specimens, so), plugin, contract,
                                            fam["family"], root)
                    if kern.get("counterexample"):  # the witness of its largest failure class
                        tag = contract.replace("=", "").replace(".", "_")
                        dest = os.path.join("corpus", fam["family"], f"specimen-{plugin}-{tag}.case")
                        os.makedirs(os.path.join(root, "corpus", fam["family"]), exist_ok=True)
                        shutil.copy(kern["counterexample"], os.path.join(root, dest))
                        case = dest
                    rows.append((plugin, fam["family"], contract, kern, case))
    print(f"`run_table.py` with --seconds {args.seconds} --seed {args.seed} per specimen, family and contract"
          f" ({'domain ' + args.domain if args.domain else 'every finite float'}):\n")
    print("| specimen | family | contract | verdict | classes | wrong answers / cases | measured K | counterexample |")
    print("|---|---|---|---|---:|---:|---:|---|")
    for plugin, family, contract, kern, case in rows:
        k = kern["measured_k"]
        k = "-" if kern["wrong_answers"] == 0 else (k if isinstance(k, str) else f"{k:.3g}")
        classes = kern["classes"]
        verdict = "holds" if kern["verdict"] == "holds" else "**broken**: " + classes[0]["why"]
        link = f"[{os.path.basename(case)}](../{case})" if case else ""
        print(f"| {plugin} | {family} | {contract} | {verdict} | {len(classes)} | {kern['wrong_answers']} / "
              f"{kern['cases']} | {k} | {link} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
