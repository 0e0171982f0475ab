#!/usr/bin/env python3
"""Every function declared in include/animrt.h is tested from C, with good
input and with bad input.

    check_calls.py HEADER TEST_DIR

Reads the header's function declarations and the C test programs in
TEST_DIR (comments and strings removed). Fails, naming them, if a function
is called by no test; or, for a function that returns animrt_status, if no
test checks that a bad call fails (a call inside CHECK_STATUS(…, ANIMRT_E_…))
or no test makes a call that is not such a failing one. The chaos test does
not count: it only checks that statuses are known, not what a call does. So
a function added to the header later fails `make test` until it has both.
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


def declarations(header):
    """{function: returns animrt_status}"""
    text = strip(open(header, encoding="utf-8").read())
    text = re.sub(r"typedef[^;]*;", " ", text)  # typedefs, including the callback type
    found = {}
    for m in re.finditer(r"([A-Za-z_][\w \*]*?)\s*\b(animrt_\w+)\s*\([^;{]*\)\s*;", text):
        found[m.group(2)] = m.group(1).strip() == "animrt_status"
    if not found:
        sys.exit(f"check_calls: no function declarations found in {header}")
    return found


def macro_arguments(code, start):
    """The top-level arguments of the macro call whose '(' is at `start`."""
    depth, args, current = 0, [], start + 1
    for i in range(start, len(code)):
        c = code[i]
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                args.append(code[current:i])
                return args
        elif c == "," and depth == 1:
            args.append(code[current:i])
            current = i + 1
    return args


def failing_checks(code):
    """Names of the functions called inside CHECK_STATUS(call, ANIMRT_E_…)."""
    names = []
    for m in re.finditer(r"\bCHECK_STATUS\s*\(", code):
        args = macro_arguments(code, m.end() - 1)
        if len(args) >= 2 and args[-1].strip().startswith("ANIMRT_E_"):
            call = re.match(r"\s*(animrt_\w+)\s*\(", ",".join(args[:-1]))
            if call:
                names.append(call.group(1))
    return names


def main():
    header, folder = sys.argv[1], sys.argv[2]
    functions = declarations(header)
    calls = {f: 0 for f in functions}
    bad = {f: 0 for f in functions}
    sources = sorted(f for f in os.listdir(folder) if f.endswith((".c", ".cpp")) and f not in NOT_COUNTED)
    for name in sources:
        code = strip(open(os.path.join(folder, name), encoding="utf-8").read())
        for f in functions:
            calls[f] += len(re.findall(r"\b" + f + r"\s*\(", code))
        for f in failing_checks(code):
            if f in bad:
                bad[f] += 1
    never = [f for f in functions if calls[f] == 0]
    no_bad = [f for f, status in functions.items() if status and calls[f] and bad[f] == 0]
    no_good = [f for f, status in functions.items() if status and calls[f] and calls[f] == bad[f]]
    print(f"C tests: {len(functions)} functions declared in {os.path.basename(header)}, "
          f"{len(functions) - len(never)} called by {', '.join(sources)}")
    for label, names in (("never called by a C test", never),
                         ("no C test checks that a bad call fails (CHECK_STATUS(call, ANIMRT_E_…))", no_bad),
                         ("no C test calls with good input", no_good)):
        if names:
            print(f"{label}: {', '.join(names)}")
    if never or no_bad or no_good:
        print("0 passed, 1 failed")
        return 1
    print("1 passed, 0 failed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
