#!/usr/bin/env python3
"""Runs the programs of docs/tutorial.md and checks what they print and draw.

    tutorial.py OUTDIR "CC FLAGS" "LINK FLAGS" [--update]

Each program is a fenced block preceded by `<!-- program: NAME -->`; each
`<!-- output: STEM -->` block holds what every program STEM.* prints. The
programs run in OUTDIR/tutorial, with their filmstrips sent there
(FILMSTRIP_DIR), so nothing is written into the checkout. A
program that writes STEM.svg must write docs/tutorial/STEM.svg byte for
byte, so the C and Python versions draw the same filmstrip, and the one in
the docs is the one the programs draw (--update rewrites it).
"""
import os
import re
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOC = os.path.join(ROOT, "docs", "tutorial.md")
ASSETS = os.path.join(ROOT, "docs", "tutorial")
BLOCK = r"```\w*\n(.*?)```"


def blocks(kind):
    text = open(DOC, encoding="utf-8").read()
    return {m.group(1): m.group(2) for m in re.finditer(r"<!-- " + kind + r": (\S+) -->\n" + BLOCK, text, re.S)}


def run(name, code, outdir, cc, link):
    """Builds (C) and runs one program in `outdir`; returns what it printed."""
    path = os.path.join(outdir, name)
    with open(path, "w", encoding="utf-8") as f:
        f.write(code)
    if name.endswith(".c"):
        binary = path[:-2]
        subprocess.run(f"{cc} -I{ASSETS} {path} -o {binary} {link}", shell=True, check=True)
        command = [binary]
    else:
        command = [sys.executable, path]
    # FILMSTRIP_DIR: the filmstrips go to `outdir`, where they are compared, never into the checkout
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([os.path.join(ROOT, "bindings", "python", "src"), ASSETS]),
               FILMSTRIP_DIR=outdir)
    result = subprocess.run(command, cwd=outdir, env=env, capture_output=True, text=True)
    if result.returncode != 0:
        raise RuntimeError(f"{name} exited with {result.returncode}:\n{result.stderr}")
    return result.stdout


def main():
    outdir, cc, link = sys.argv[1], sys.argv[2], sys.argv[3]
    update = "--update" in sys.argv[4:]
    outdir = os.path.join(os.path.abspath(outdir), "tutorial")
    os.makedirs(outdir, exist_ok=True)
    programs, outputs = blocks("program"), blocks("output")
    passed = failed = 0

    def verdict(ok, what):
        nonlocal passed, failed
        if ok:
            passed += 1
        else:
            failed += 1
            print(f"FAIL {what}")

    if not programs:
        verdict(False, "docs/tutorial.md has no <!-- program: NAME --> blocks")
    for name, code in programs.items():
        stem = name.rsplit(".", 1)[0]
        svg = os.path.join(outdir, stem + ".svg")
        if os.path.exists(svg):
            os.remove(svg)
        try:
            printed = run(name, code, outdir, cc, link)
        except (RuntimeError, subprocess.CalledProcessError) as e:
            verdict(False, f"{name}: {e}")
            continue
        expected = outputs.get(stem)
        verdict(expected is not None and printed == expected,
                f"{name} printed:\n{printed}but docs/tutorial.md says:\n{expected}")
        if os.path.exists(svg):
            shown = os.path.join(ASSETS, stem + ".svg")
            if update:
                shutil.copyfile(svg, shown)
            same = os.path.exists(shown) and open(svg, "rb").read() == open(shown, "rb").read()
            verdict(same, f"{name} drew {svg}, which differs from docs/tutorial/{stem}.svg "
                          "(tools/tutorial.py ... --update rewrites it)")
        print(f"tutorial: {name} ran" + (f", printed what the tutorial shows and drew {stem}.svg"
                                           if os.path.exists(svg) else ", printed what the tutorial shows"))
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
