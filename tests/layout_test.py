#!/usr/bin/env python3
"""docs/layout.md is true to the tree: every path it names exists (a name in
a folder's row is looked up in that folder, then from the root; FAMILY, NAME
and the like stand for any name), and every source file of the folders it
describes file by file is named in its row."""
import glob
import os
import re
import sys

root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), ".."))
text = open(os.path.join(root, "docs", "layout.md")).read()

# The folders whose every source file the table must name.
COMPLETE = ["check", "check/model", "check/engine", "check/io", "check/families", "tools", "fuzz", "bench",
            "libraries", "reference", "reference/fast", "reference/isect/ref", "cmake"]
SOURCE = (".cpp", ".hpp", ".h", ".py", ".sh", ".def", ".cmake", ".in")

failures = []
rows = {}
for line in text.splitlines():
    m = re.match(r"^\| `([^`]+)` \| (.*) \|$", line)
    if m:
        rows[m.group(1).rstrip("/")] = m.group(2)


def pattern(token):
    # FAMILY, NAME, ROOM...: any name.
    return re.sub(r"[A-Z]{3,}(?![a-z])", "*", token)


def exists(folder, token):
    token = token.rstrip("/")
    for base in (os.path.join(root, folder), root):
        if glob.glob(os.path.join(base, pattern(token))):
            return True
    return False


def path_like(token):
    return "/" in token or token.endswith(SOURCE) or token.endswith((".md", ".txt", ".json", ".dict", ".case"))


for folder, what in rows.items():
    if not os.path.isdir(os.path.join(root, folder)):
        failures.append(f"docs/layout.md: the folder `{folder}` does not exist")
    for token in re.findall(r"`([^`]+)`", what):
        if " " in token or not path_like(token) or token.startswith("-"):
            continue
        if not exists(folder, token):
            failures.append(f"docs/layout.md: `{token}` (row `{folder}`) names no file")
for token in re.findall(r"`([^`\s]+/[^`\s]*)`", text.split("| folder | what |")[0]):
    if not exists("", token):
        failures.append(f"docs/layout.md: `{token}` names no file")

for folder in COMPLETE:
    what = rows.get(folder)
    if what is None:
        failures.append(f"docs/layout.md: no row for `{folder}`")
        continue
    named = set(re.findall(r"`([^`]+)`", what))
    patterns = [pattern(n) for n in named]
    for path in sorted(glob.glob(os.path.join(root, folder, "*"))):
        name = os.path.basename(path)
        if not os.path.isfile(path) or not name.endswith(SOURCE) or name == "CMakeLists.txt":
            continue
        # A header beside its source is named with it.
        stem, ext = os.path.splitext(name)
        candidates = [name] + ([stem + ".cpp"] if ext == ".hpp" else [])
        if not any(glob.fnmatch.fnmatch(c, p) or glob.fnmatch.fnmatch(c, os.path.basename(p))
                   for c in candidates for p in patterns):
            failures.append(f"docs/layout.md: `{folder}/{name}` is not named in the row of `{folder}`")

for f in failures:
    print("FAIL:", f)
if failures:
    sys.exit(1)
print(f"ok: docs/layout.md names {len(rows)} folders, every path it names exists, every source file of "
      f"{len(COMPLETE)} folders is named")
