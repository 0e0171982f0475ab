#!/usr/bin/env python3
"""Every function declared in include/animrt.h is called by a C test.

    check_calls.py HEADER TEST_DIR

Reads the header's function declarations and the C test programs in
TEST_DIR (comments and strings removed) and fails, naming them, if some
function is called by none of them. The chaos test does not count: it only
checks that statuses are known, not what a call does. So a function added
to the header later fails `make test` until a test calls it.
"""
import os
import re
import sys

# Tests that exercise calls without checking what they do.
NOT_COUNTED = {"test_chaos.c"}


def strip(code):
    """C source without comments and string or character literals."""
    pattern = r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\''
    return re.sub(pattern, " ", code, flags=re.S)


def declared(header):
    text = strip(open(header, encoding="utf-8").read())
    text = re.sub(r"typedef[^;]*;", " ", text)  # typedefs, including the callback type
    names = re.findall(r"\b(animrt_\w+)\s*\([^;{]*\)\s*;", text)
    if not names:
        sys.exit(f"check_calls: no function declarations found in {header}")
    return sorted(set(names))


def main():
    header, folder = sys.argv[1], sys.argv[2]
    functions = declared(header)
    calls = {f: [] for f in functions}
    sources = sorted(f for f in os.listdir(folder) if f.endswith((".c", ".cpp")) and f not in NOT_COUNTED)
    for name in sources:
        code = strip(open(os.path.join(folder, name), encoding="utf-8").read())
        for f in functions:
            n = len(re.findall(r"\b" + f + r"\s*\(", code))
            if n:
                calls[f].append((name, n))
    missing = [f for f in functions if not calls[f]]
    print(f"C tests: {len(functions)} functions declared in {os.path.basename(header)}, "
          f"{len(functions) - len(missing)} called by {', '.join(sources)}")
    if missing:
        print("never called by a C test: " + ", ".join(missing))
        print("0 passed, 1 failed")
        return 1
    print("1 passed, 0 failed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
