#!/usr/bin/env python3
"""Runs the README's examples and checks their printed output.

    readme_examples.py c OUTDIR "CC FLAGS" "LINK FLAGS"
    readme_examples.py python [MARKDOWN]     (README.md by default)
    readme_examples.py plugin OUTDIR "CC FLAGS" "LINK FLAGS"   (docs/plugins.md)

The python examples import animrt: run them with PYTHONPATH=bindings/python/src
(and ANIMRT_LIBRARY naming libanimrt.so when it is not in .build/release), as
make test does.

Each example is a fenced ```c or ```python block followed by a ```text
block with exactly what it prints. In docs/plugins.md, each ```c block that
opens with a file's name ("/* bouncy.c: ...") is a whole file: one followed
by a ```text block is the host, the others are plugins, built into OUTDIR as
libNAME.so with the command the doc gives, and the host runs in OUTDIR (it
loads "./libNAME.so"). The plugin in include/animrt.h's comment is built
the same way and loaded by a small host that evaluates its curve.
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


def run(command, **kwargs):
    result = subprocess.run(command, capture_output=True, text=True, **kwargs)
    if result.returncode != 0:
        print(result.stdout + result.stderr, end="")
        sys.exit(f"the example failed (exit status {result.returncode})")
    return result.stdout


def plugin_example(outdir, cc, link, markdown="docs/plugins.md"):
    """Builds the doc's plugins and its host, runs the host, checks what it prints."""
    text = open(os.path.join(ROOT, markdown), encoding="utf-8").read()
    blocks = re.findall(r"```(\w*)\n(.*?)```", text, re.S)
    files = []  # (code, name, the output it prints or None)
    for i, (language, code) in enumerate(blocks):
        named = re.match(r"/\* (\w+)\.c: ", code)
        if language == "c" and named:
            follows = blocks[i + 1] if i + 1 < len(blocks) else ("", "")
            files.append((code, named.group(1), follows[1] if follows[0] == "text" else None))
    hosts = [f for f in files if f[2] is not None]
    plugins = [f for f in files if f[2] is None]
    if len(hosts) != 1 or not plugins:
        sys.exit(f"{markdown} needs one whole host file followed by its ```text output and at least one plugin; "
                 f"it has {len(hosts)} and {len(plugins)}")
    for code, name, _ in plugins:
        build_plugin(outdir, name, code, cc)
    code, name, expected = hosts[0]
    check("plugin", run([build_host(outdir, name, code, cc, link)], cwd=outdir), expected, markdown)
    header_plugin_example(outdir, cc, link)


def write_source(outdir, name, code):
    """Writes `code` to OUTDIR/NAME.c; returns its path."""
    source = os.path.join(outdir, name + ".c")
    with open(source, "w", encoding="utf-8") as f:
        f.write(code)
    return source


def build_plugin(outdir, name, code, cc):
    """Builds `code` as OUTDIR/libNAME.so, as docs/plugins.md builds a plugin."""
    source = write_source(outdir, name, code)
    run(f"{cc} -shared -fPIC -fvisibility=hidden {source} -o {os.path.join(outdir, 'lib' + name + '.so')} -lm",
        shell=True)


def build_host(outdir, name, code, cc, link):
    """Builds `code` as the program OUTDIR/NAME, linked with animrt; returns its path."""
    binary = os.path.join(outdir, name)
    run(f"{cc} {write_source(outdir, name, code)} -o {binary} {link}", shell=True)
    return binary


# Loads the plugin of include/animrt.h's comment and evaluates its curve at both ends.
HEADER_HOST = r"""#include <stdio.h>
#include "animrt.h"

int main(void) {
    animrt_runtime *rt;
    animrt_id plugin;
    double start, end;
    if (animrt_runtime_create(0, &rt) || animrt_plugin_load(rt, "./libheader_plugin.so", &plugin)
        || animrt_timing_function_evaluate(rt, "bounce(2)", 0, &start)
        || animrt_timing_function_evaluate(rt, "bounce(2)", 1, &end)) {
        printf("%s\n", animrt_last_error_message());
        return 1;
    }
    printf("bounce(2): %g at 0, %g at 1\n", start, end);
    animrt_runtime_destroy(rt);
    return 0;
}
"""


def header_plugin_example(outdir, cc, link):
    """The plugin in include/animrt.h's comment, as written there: it builds, loads, and its curve
    runs from 0 to 1."""
    header = open(os.path.join(ROOT, "include", "animrt.h"), encoding="utf-8").read()
    found = re.search(r"^ \*     #include <math.h>\n.*?ANIMRT_PLUGIN_DEFINE\(.*?\);\n", header, re.S | re.M)
    if not found:
        sys.exit("include/animrt.h has no example plugin (from '#include <math.h>' to ANIMRT_PLUGIN_DEFINE)")
    build_plugin(outdir, "header_plugin", '#include "animrt.h"\n' + re.sub(r"^ \*     ", "", found.group(0), flags=re.M), cc)
    host = build_host(outdir, "header_plugin_host", HEADER_HOST, cc, link)
    check("plugin", run([host], cwd=outdir), "bounce(2): 0 at 0, 1 at 1\n", "include/animrt.h")


def main():
    if len(sys.argv) == 5 and sys.argv[1] == "plugin":
        return plugin_example(os.path.abspath(sys.argv[2]), sys.argv[3], sys.argv[4])
    if len(sys.argv) < 2 or sys.argv[1] not in ("c", "python") or (sys.argv[1] == "c" and len(sys.argv) != 5):
        sys.exit(__doc__.rstrip())
    language = sys.argv[1]
    markdown = sys.argv[2] if language == "python" and len(sys.argv) > 2 else "README.md"
    code, expected = example(language, markdown)
    if language == "c":
        outdir, cc, link = sys.argv[2], sys.argv[3], sys.argv[4]
        source = os.path.join(outdir, "readme_example.c")
        binary = os.path.join(outdir, "readme_example")
        with open(source, "w", encoding="utf-8") as f:
            f.write(code)
        run(f"{cc} {source} -o {binary} {link}", shell=True)
        output = run([binary])
    else:
        output = run([sys.executable, "-c", code])
    check(language, output, expected, markdown)


if __name__ == "__main__":
    main()
