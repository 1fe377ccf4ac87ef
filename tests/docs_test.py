#!/usr/bin/env python3
"""The docs say what is true: every C and C++ code block of README.md and
docs/*.md compiles (C as a plugin would, against core/; C++ against the
check library's headers), and docs/case-format.md's table of every family's
keys is what `isect kernels --case-keys` prints from the family descriptions.

    docs_test.py ISECT SOURCE_DIR CC CXX
"""
import pathlib
import re
import subprocess
import sys
import tempfile

isect, source, cc, cxx = sys.argv[1], pathlib.Path(sys.argv[2]), sys.argv[3], sys.argv[4]
failed = 0


def fail(why):
    global failed
    failed = 1
    print("FAIL: " + why)


def blocks(page):
    """(language, first line, text) of each fenced block of a page."""
    out, lang, start, lines = [], None, 0, []
    for n, line in enumerate(page.read_text().splitlines(), 1):
        fence = re.match(r"^```(\w*)\s*$", line)
        if fence and lang is None:
            lang, start, lines = fence.group(1), n + 1, []
        elif fence:
            out.append((lang, start, "\n".join(lines) + "\n"))
            lang = None
        elif lang is not None:
            lines.append(line)
    return out


pages = [source / "README.md"] + sorted((source / "docs").glob("*.md"))
includes = ["-I" + str(source / d) for d in ("core", ".", "reference")]
compiled = 0
with tempfile.TemporaryDirectory() as work:
    for page in pages:
        for lang, line, text in blocks(page):
            if lang not in ("c", "cpp"):
                continue
            where = "%s:%d" % (page.relative_to(source), line)
            src = pathlib.Path(work) / ("block." + ("c" if lang == "c" else "cpp"))
            src.write_text(text)
            command = ([cc, "-std=c11"] if lang == "c" else [cxx, "-std=c++17"]) + \
                ["-fsyntax-only", "-Wall", "-Werror"] + includes + [str(src)]
            r = subprocess.run(command, capture_output=True, text=True)
            if r.returncode != 0:
                fail("the %s block at %s does not compile:\n%s" % (lang, where, r.stderr[-2000:]))
            else:
                compiled += 1
                print("ok: the %s block at %s compiles" % (lang, where))
if compiled == 0:
    fail("no C or C++ block found to compile")

# The case format's table of keys is the family descriptions'.
page = (source / "docs" / "case-format.md").read_text()
m = re.search(r"<!-- case-keys: from isect kernels --case-keys -->\n(.*?)<!-- end case-keys -->", page, re.S)
generated = subprocess.run([isect, "kernels", "--case-keys"], capture_output=True, text=True, check=True).stdout
if not m:
    fail("docs/case-format.md has no generated table of keys")
elif m.group(1) != generated:
    fail("docs/case-format.md's table of keys is not `isect kernels --case-keys`; paste its output between the markers")
else:
    rows = [l for l in generated.splitlines() if l.startswith("| `")]
    print("ok: docs/case-format.md's table of keys is the families' own (%d families)" % len(rows))
sys.exit(failed)
