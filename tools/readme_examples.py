#!/usr/bin/env python3
"""Runs the README's examples and checks their printed output.

    readme_examples.py c OUTDIR "CC FLAGS" "LINK FLAGS"
    readme_examples.py python [MARKDOWN]     (README.md by default)

Each example is a fenced ```c or ```python block followed by a ```text
block with exactly what it prints.
"""
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def example(language, markdown="README.md"):
    readme = open(os.path.join(ROOT, markdown), encoding="utf-8").read()
    match = re.search(r"```" + language + r"\n(.*?)```\s*\n+```text\n(.*?)```", readme, re.S)
    if not match:
        sys.exit(f"{markdown} has no ```{language} example followed by its ```text output")
    return match.group(1), match.group(2)


def check(language, output, expected, markdown="README.md"):
    if output != expected:
        print(f"{markdown} {language} example printed:\n{output}\nbut {markdown} says:\n{expected}")
        print("0 passed, 1 failed")
        sys.exit(1)
    print(f"{markdown} {language} example: output matches")
    print("1 passed, 0 failed")


def main():
    language = sys.argv[1]
    markdown = sys.argv[2] if language == "python" and len(sys.argv) > 2 else "README.md"
    code, expected = example(language, markdown)
    if language == "c":
        outdir, cc, link = sys.argv[2], sys.argv[3], sys.argv[4]
        source = os.path.join(outdir, "readme_example.c")
        binary = os.path.join(outdir, "readme_example")
        with open(source, "w", encoding="utf-8") as f:
            f.write(code)
        subprocess.run(f"{cc} {source} -o {binary} {link}", shell=True, check=True)
        output = subprocess.run([binary], check=True, capture_output=True, text=True).stdout
    else:
        output = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout
    check(language, output, expected, markdown)


if __name__ == "__main__":
    main()
