#!/usr/bin/env python3
"""Every core, every machine: a run's cases, classes and witnesses depend on
its seed and case budget only.

  - `isect check --jobs 1`, `--jobs 2` and `--jobs 3` write the same report
    (but for the time it took), for built-in kernels, a planted bug with
    several failure classes, and a plugin (a worker process per job);
  - the run: lines of docs/ci/github-actions-shards.yml, run here (the four
    shards as processes at once, then the merge), give the verdict, the exit
    status and, in every format, the report of the unsharded run, on a
    planted bug and on kernels that hold;
  - isect merge refuses what is not one run's shards, and a missing shard
    fails the merged verdict.

usage: shard_test.py ISECT SOURCE_DIR EXAMPLE_PLUGIN
"""
import json
import os
import re
import subprocess
import sys
import tempfile

isect, source, plugin = (os.path.abspath(p) for p in sys.argv[1:4])
failures = []


def check(ok, what):
    print(("ok    " if ok else "FAIL  ") + what)
    if not ok:
        failures.append(what)


def run(args, cwd=None, env=None):
    p = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def normalised_json(text):
    """A JSON report less what depends on time, workers and file names."""
    d = json.loads(text)
    for key in ("jobs", "merged", "shard"):
        d.pop(key, None)
    for f in d["families"]:
        for key in ("seconds", "cases_per_second", "findings_replayed", "mismatch_case"):
            f.pop(key, None)
        for k in f["kernels"]:
            for key in ("map_picture", "counterexample", "hang_case"):
                k.pop(key, None)
            for c in k["classes"]:
                c.pop("case", None)
        for r in f.get("relations", []):
            for c in r["classes"]:
                c.pop("case", None)
    return d


def normalised_text(text):
    """A text, markdown or JUnit report less times, rates, paths and shards."""
    out = []
    for line in text.splitlines():
        line = re.sub(r"\d+ cases in [0-9.]+ s \(\d+/s\)", "N cases", line)
        line = re.sub(r", shards? [0-9/ ]+?( merged)?$", "", line)
        line = re.sub(r'time="[0-9.e+-]+"', 'time=""', line)
        line = re.sub(r"(written to|kept in|picture:) \S+", r"\1 PATH", line)
        line = re.sub(r"`[^`]*\.case`", "PATH", line)
        line = re.sub(r"!\[validity map[^\n]*", "", line)
        out.append(line)
    return "\n".join(out)


def report(args, out, fmt="json", jobs=None, env=None):
    cmd = [isect, "check", *args, "--quiet", "--format", fmt, "--out", out]
    if jobs:
        cmd += ["--jobs", str(jobs)]
    return run(cmd, env=env)


with tempfile.TemporaryDirectory() as tmp:
    # --- --jobs N judges what one worker judges -----------------------------------
    subjects = {
        "built-in kernels": ["--family", "ray_triangle", "--cases", "60000", "--seed", "7"],
        "a planted bug": ["--family", "aabb_triangle", "--kernel", "broken:sat_absolute_epsilon", "--cases", "40000",
                          "--seed", "3"],
        "a plugin": ["--plugin", plugin, "--cases", "30000", "--seed", "5"],
    }
    for name, args in subjects.items():
        reports, codes = [], []
        for jobs in (1, 2, 3):
            code, out, err = report(args, os.path.join(tmp, f"jobs-{jobs}"), jobs=jobs)
            codes.append(code)
            reports.append(normalised_json(out) if code in (0, 1) else err)
        check(len(set(codes)) == 1 and codes[0] in (0, 1), f"{name}: --jobs 1, 2, 3 exit alike ({codes})")
        check(reports[0] == reports[1] == reports[2], f"{name}: --jobs 1, 2, 3 give the same cases, classes and witnesses")
        if name == "a planted bug":
            classes = reports[0]["families"][0]["kernels"][0]["classes"]
            check(len(classes) >= 3 and all(c["minimised"] for c in classes[:3]),
                  f"{name}: several classes, minimised ({len(classes)})")

    # isect diff and isect replay take --jobs too, and say the same.
    outs = []
    for jobs in (1, 2):
        code, out, _ = run([isect, "diff", "broken:sat_absolute_epsilon", "sat", "--family", "aabb_triangle", "--cases",
                            "20000", "--seed", "4", "--format", "json", "--jobs", str(jobs), "--out",
                            os.path.join(tmp, f"diff-{jobs}")])
        outs.append((code, normalised_json(out)["families"]))
    check(outs[0] == outs[1] and outs[0][0] == 1, "isect diff: --jobs 1 and 2 give the same disagreements and classes")
    # ... and --shard: its shards merged are the whole diff's classes.
    diff = ["diff", "broken:sat_absolute_epsilon", "sat", "--family", "aabb_triangle", "--cases", "4000", "--seed", "4",
            "--format", "json"]
    paths, whole = [], run([isect] + diff + ["--out", os.path.join(tmp, "diff-whole")])[1]
    for i in (0, 1):
        code, out, _ = run([isect] + diff + ["--shard", f"{i}/2", "--out", os.path.join(tmp, f"diff-shard-{i}")])
        paths.append(os.path.join(tmp, f"diff-shard-{i}.json"))
        with open(paths[-1], "w") as f:
            f.write(out)
    code, out, err = run([isect, "merge", "--format", "json"] + paths)
    classes = lambda text: [(r["relation"], [c["count"] for c in r["classes"]])
                            for r in normalised_json(text)["families"][0]["relations"]]
    check(code == 1 and classes(out) == classes(whole) and classes(whole)[0][1],
          f"isect diff --shard: the shards merged have the whole diff's classes (exit {code}) {err[-300:]}")
    corpus = os.path.join(source, "corpus")
    outs = [run([isect, "replay", corpus, "--format", "json", "--jobs", str(jobs)])[:2] for jobs in (1, 2)]
    check(outs[0] == outs[1] and outs[0][0] == 0, "isect replay: --jobs 1 and 2 give the same report")

    # --- The CI matrix of docs/ci/github-actions-shards.yml, on one machine --------
    workflow = open(os.path.join(source, "docs", "ci", "github-actions-shards.yml")).read()
    matrix = [int(x) for x in re.search(r"shard: \[([0-9, ]+)\]", workflow).group(1).split(",")]
    jobs = {}
    for job in ("shard", "merge"):
        body = re.search(rf"\n  {job}:\n(.*?)(?=\n  \w+:\n|\Z)", workflow, re.S).group(1)
        jobs[job] = re.findall(r"- run: (.*)", body)
    check(len(matrix) == 4 and len(jobs["shard"]) == 1 and len(jobs["merge"]) == 3,
          "the workflow has a matrix of four shards and three merge steps")

    def run_workflow(args, where):
        """The workflow's run: lines with ISECT_ARGS = args: the shards as
        processes at once, then the merge steps; the last one's status."""
        os.makedirs(where)
        os.symlink(isect, os.path.join(where, "isect"))
        env = dict(os.environ, ISECT_ARGS=" ".join(args), GITHUB_STEP_SUMMARY=os.path.join(where, "summary.md"))
        shards = [subprocess.Popen(["bash", "-c", jobs["shard"][0].replace("${{ matrix.shard }}", str(i))], cwd=where,
                                   env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE) for i in matrix]
        codes = [s.wait() for s in shards]
        merged = [run(["bash", "-c", line], cwd=where, env=env) for line in jobs["merge"]]
        return codes, merged

    planted = ["--family", "aabb_triangle", "--kernel", "broken:sat_absolute_epsilon", "--cases", "40000", "--seed", "11"]
    holding = ["--family", "aabb_aabb", "--cases", "40000", "--seed", "11"]
    for name, args, expected in (("a planted bug", planted, 1), ("kernels that hold", holding, 0)):
        where = os.path.join(tmp, "workflow-" + str(expected))
        codes, merged = run_workflow(args, where)
        verdict, text, err = merged[-1]
        whole_code, whole_text, _ = report(args, os.path.join(tmp, "whole-" + str(expected)), fmt="text")
        check(verdict == whole_code == expected,
              f"{name}: the merged verdict exits {verdict}, the unsharded run {whole_code} (expected {expected}); shards {codes}")
        same = normalised_text(text) == normalised_text(whole_text)
        check(same, f"{name}: merged text report = unsharded one")
        if not same:
            import difflib
            print("\n".join(difflib.unified_diff(normalised_text(whole_text).splitlines(),
                                                 normalised_text(text).splitlines(), lineterm="")))
        for fmt in ("json", "markdown", "junit"):
            _, one, _ = report(args, os.path.join(tmp, f"whole-{expected}-{fmt}"), fmt=fmt)
            code, many, err = run([isect, "merge", "--format", fmt] +
                                  [os.path.join(where, f"shard-{i}.json") for i in matrix])
            same = normalised_json(one) == normalised_json(many) if fmt == "json" else \
                normalised_text(one) == normalised_text(many)
            check(code == expected and same, f"{name}: merged {fmt} report = unsharded one (exit {code}) {err.strip()}")
        check(os.path.getsize(os.path.join(where, "summary.md")) > 0 and
              "<testsuite" in open(os.path.join(where, "isect-junit.xml")).read(),
              f"{name}: the job summary and the JUnit file are written")

    # --- What isect merge refuses ------------------------------------------------
    # A missing shard is cases nobody judged: no pass (exit 2, or 1 when the
    # shards there already break a contract).
    for expected in (0, 1):
        shard = [os.path.join(tmp, f"workflow-{expected}", f"shard-{i}.json") for i in matrix]
        code, out, err = run([isect, "merge", *shard[:3]])
        check(code == (2 if expected == 0 else 1) and "shard 3/4 is missing" in out,
              f"a missing shard fails the merge (exit {code})")
    code, _, err = run([isect, "merge", shard[0], shard[0]])
    check(code == 2 and "is there twice" in err, f"a shard given twice is refused (exit {code}): {err.strip()}")
    other = os.path.join(tmp, "other-seed.json")
    with open(other, "w") as f:
        f.write(report(planted[:-1] + ["12", "--shard", "1/4"], os.path.join(tmp, "other"))[1])
    code, _, err = run([isect, "merge", shard[0], other])
    check(code == 2 and "is not a shard of the run of" in err, f"a shard of another seed is refused (exit {code})")
    code, _, err = run([isect, "merge", os.path.join(source, "README.md")])
    check(code == 2 and "not a JSON report of isect check" in err, f"a file that is no report is refused (exit {code})")
    code, _, err = run([isect, "check", "--shard", "4/4", "--seed", "1", "--cases", "10"])
    check(code == 2 and "I must be below N" in err, f"--shard 4/4 is a usage error (exit {code})")
    code, _, err = run([isect, "check", "--shard", "0/2", "--cases", "10"])
    check(code == 2 and "needs --seed" in err, f"--shard without --seed is a usage error (exit {code})")

sys.exit(1 if failures else 0)
