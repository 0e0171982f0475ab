#!/usr/bin/env python3
"""Mutation testing: break the code on purpose and count what the tests catch.

    mutate.py [--list | --check | --only ID ...]

Each mutant in tools/mutants.py is one deliberate fault — a flipped sign or
comparison, swapped enum raw values, an off-by-one, a dropped statement —
written as an exact search/replace of a snippet that occurs exactly once in
its file. For each mutant the script applies it to a copy of the tree
(.build/mutate/tree, so the working tree is never touched), rebuilds what
it needs and runs only the suites the mutant names:

  swift    swift test (debug), optionally filtered
  c        every C test program, against the mutant's libanimrt.so
  python   the Python tests, against the mutant's libanimrt.so

A mutant is killed when a suite fails (or crashes, or runs past its time
limit), survives when all pass. Mutants marked `equivalent` behave like the
original by construction; they are built and run too (to show it) but do
not count in the score. The score is killed / (mutants − equivalent).

Before anything runs, every snippet is checked against the current tree:
a snippet that no longer matches exactly once is an error that names the
mutant, so the list is kept up to date as the code moves. The run is
CPU-heavy (a build per mutant): it lowers its own priority (nice 10) and
builds with at most 2 jobs.
"""
import argparse
import os
import re
import shutil
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mutants import MUTANTS  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WORK = os.path.join(ROOT, ".build", "mutate")
TREE = os.path.join(WORK, "tree")
LIB = os.path.join(TREE, ".build", "release", "libanimrt.so")
SUITE_TIMEOUT = 600
SUITES = ("swift", "c", "python")
# docs/testing.md counts the mutants by the folder of the code they break, in this order.
DOC = os.path.join("docs", "testing.md")
FOLDERS = ("Sources/AnimationCore", "Sources/CBatchKernel", "Sources/animrt", "Sources/StateMachines",
           "Sources/Plugins", "bindings/python")
# Arguments of C test programs that need them.
C_ARGUMENTS = {"test_plugins": [os.path.join(TREE, ".build", "c")]}


def tracked_files():
    out = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"], cwd=ROOT,
                         capture_output=True, check=True).stdout.decode()
    return sorted(f for f in out.split("\0") if f and os.path.isfile(os.path.join(ROOT, f)))


def sync_tree():
    """Copies the working tree's files into TREE (keeping TREE's .build, so
    builds stay incremental) and removes files that are gone."""
    files = tracked_files()
    wanted = set(files)
    for f in files:
        src, dst = os.path.join(ROOT, f), os.path.join(TREE, f)
        if not os.path.exists(dst) or open(src, "rb").read() != open(dst, "rb").read():
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            shutil.copy2(src, dst)
    for base, dirs, names in os.walk(TREE):
        rel = os.path.relpath(base, TREE)
        if rel == ".build" or rel.startswith(".build" + os.sep) or "__pycache__" in rel.split(os.sep):
            continue
        for n in names:
            r = os.path.normpath(os.path.join(rel, n))
            if r not in wanted:
                os.remove(os.path.join(base, n))


def check_snippets(mutants):
    """Every snippet must occur exactly once in its file; returns the problems."""
    problems = []
    ids = set()
    for m in mutants:
        if m.id in ids:
            problems.append(f"{m.id}: the id is used twice")
        ids.add(m.id)
        path = os.path.join(ROOT, m.file)
        if not os.path.exists(path):
            problems.append(f"{m.id}: {m.file} does not exist")
            continue
        n = open(path, encoding="utf-8").read().count(m.find)
        if n != 1:
            problems.append(f"{m.id}: the snippet occurs {n} times in {m.file} (it must occur exactly once):\n"
                            f"      {m.find!r}")
        if m.find == m.replace:
            problems.append(f"{m.id}: the replacement is the snippet itself")
        unknown = [s for s in m.suites if s.split(":")[0] not in SUITES]
        if unknown or not m.suites:
            problems.append(f"{m.id}: suites must be among {SUITES}, got {m.suites}")
    return problems


def check_docs(mutants, text):
    """docs/testing.md (`text`) must give the list's size, its count in each of
    FOLDERS and the equivalent mutants as tools/mutants.py has them; returns
    the problems."""
    flat = " ".join(text.split())
    problems = []
    found = re.search(r"The list has (\d+) mutants", flat)
    if not found or int(found.group(1)) != len(mutants):
        problems.append(f"{DOC}: it must say \"The list has {len(mutants)} mutants\"")
    outside = sorted({m.file for m in mutants if not m.file.startswith(tuple(f + "/" for f in FOLDERS))})
    if outside:
        problems.append(f"{DOC} counts mutants by folder; these files are in none of {FOLDERS}: {outside}")
    for folder in FOLDERS:
        n = sum(1 for m in mutants if m.file.startswith(folder + "/"))
        found = re.search(r"(\d+) in [\w' -]+ \(`" + re.escape(folder) + "`", flat)
        if not found or int(found.group(1)) != n:
            problems.append(f"{DOC}: it must count {n} mutants in (`{folder}`)")
    equivalent = {m.id for m in mutants if m.equivalent}
    found = re.search(r"(\d+) of them are marked equivalent", flat)
    if not found or int(found.group(1)) != len(equivalent):
        problems.append(f"{DOC}: it must say \"{len(equivalent)} of them are marked equivalent\"")
    start = text.find("equivalent mutants, which a run shows surviving:")
    listed = set()
    if start >= 0:
        block = text[start:].split("\n\n", 2)[1]  # the list after that line
        for item in re.findall(r"^- (.*?):", block, re.M):
            listed |= set(re.findall(r"`([^`]+)`", item))
    if listed != equivalent:
        problems.append(f"{DOC}: its list of equivalent mutants must name each of them once; "
                        f"missing {sorted(equivalent - listed)}, not equivalent {sorted(listed - equivalent)}")
    return problems


def descendants(root):
    """The ids of every process below `root` (children, theirs, ...), read from /proc."""
    children = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                # pid (comm) state ppid ...: comm may hold spaces and parentheses, so split after the last ')'.
                parent = int(f.read().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        children.setdefault(parent, []).append(int(entry))
    found, stack = [], [root]
    while stack:
        for child in children.get(stack.pop(), []):
            found.append(child)
            stack.append(child)
    return found


def run(cmd, cwd=TREE, env=None, timeout=SUITE_TIMEOUT):
    """(exit status, seconds, last lines of output); a timeout counts as a failure."""
    start = time.time()
    # A session of its own, so that a timeout kills the whole group: `swift test` runs the tests in a
    # child process, which a kill of `swift test` alone would leave looping (and growing) behind.
    p = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        out, _ = p.communicate(timeout=timeout)
        status, output = p.returncode, out.decode(errors="replace")
    except subprocess.TimeoutExpired:
        # `swift test` may start its test runner in a process group of its own: every descendant,
        # found before any is killed (orphans lose their parent), is killed with the group.
        doomed = descendants(p.pid)
        os.killpg(p.pid, signal.SIGKILL)
        for pid in doomed:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        out, _ = p.communicate()
        status, output = -1, (out or b"").decode(errors="replace") + f"\n(timed out after {timeout} s)"
    return status, time.time() - start, "\n".join(output.strip().splitlines()[-8:])


class Runner:
    def __init__(self):
        self.c_binaries = []

    def build_library(self):
        return run(["swift", "build", "-c", "release", "--product", "animrt", "-j", "2"])

    def build_swift_tests(self):
        return run(["swift", "build", "--build-tests", "-j", "2"])

    def build_c_tests(self):
        """The C test programs link libanimrt.so dynamically: built once, they
        run against whatever library the current mutant built. The plugins
        the plugin tests load are built into the tree's .build/c."""
        status, _, tail = run(["make", "--no-print-directory", "plugins"])
        if status != 0:
            return status, tail
        out = os.path.join(WORK, "c")
        os.makedirs(out, exist_ok=True)
        self.c_binaries = []
        folder = os.path.join(TREE, "bindings", "c", "tests")
        for name in sorted(os.listdir(folder)):
            if not (name.startswith("test_") and name.endswith(".c")):
                continue
            binary = os.path.join(out, name[:-2])
            status, _, tail = run([os.environ.get("CC", "cc"), "-std=c99", "-D_POSIX_C_SOURCE=200809L", "-Iinclude",
                                   "-Ibindings/c/tests", os.path.join(folder, name), "-L" + os.path.dirname(LIB),
                                   "-lanimrt", "-Wl,-rpath," + os.path.dirname(LIB), "-lm", "-lpthread", "-o", binary])
            if status != 0:
                return status, tail
            self.c_binaries.append(binary)
        return 0, ""

    def suite(self, spec):
        """Runs one suite; (passed, seconds, tail)."""
        kind, _, arg = spec.partition(":")
        if kind == "swift":
            cmd = ["swift", "test", "--skip-build"] + (["--filter", arg] if arg else [])
            status, secs, tail = run(cmd)
            return status == 0, secs, tail
        if kind == "c":
            total = 0.0
            for b in self.c_binaries:
                status, secs, tail = run([b] + C_ARGUMENTS.get(os.path.basename(b), []))
                total += secs
                if status != 0:
                    return False, total, f"{os.path.basename(b)}: {tail}"
            return True, total, ""
        env = dict(os.environ, ANIMRT_LIBRARY=LIB, PYTHONDONTWRITEBYTECODE="1")
        status, secs, tail = run([sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider",
                                  "bindings/python/tests"], env=env)
        return status == 0, secs, tail

    def builds_for(self, suites):
        """The builds a set of suites needs."""
        kinds = {s.split(":")[0] for s in suites}
        steps = []
        if kinds & {"c", "python"}:
            steps.append(("library", self.build_library))
        if "swift" in kinds:
            steps.append(("swift tests", self.build_swift_tests))
        return steps

    def evaluate(self, suites):
        """Builds and runs `suites` on the tree as it is: ('killed' | 'survived' | 'build failed', detail)."""
        for what, step in self.builds_for(suites):
            status, _, tail = step()
            if status != 0:
                return "build failed", f"{what}: {tail}"
        for s in suites:
            passed, secs, tail = self.suite(s)
            if not passed:
                return "killed", f"by {s} ({secs:.0f} s): {tail.splitlines()[-1] if tail else ''}"
        return "survived", ""


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--list", action="store_true", help="list the mutants and exit")
    parser.add_argument("--only", nargs="+", metavar="ID", help="run only these mutants")
    parser.add_argument("--check", action="store_true",
                        help="only check that every snippet still matches the code (make test runs this)")
    args = parser.parse_args()

    mutants = MUTANTS
    if args.list:
        for m in mutants:
            tag = " (equivalent)" if m.equivalent else ""
            print(f"{m.id:32} {m.kind:18} {m.file}{tag}\n{'':32} {m.why}")
        print(f"{len(mutants)} mutants, {sum(1 for m in mutants if m.equivalent)} marked equivalent")
        return 0
    problems = check_snippets(mutants) + check_docs(mutants, open(os.path.join(ROOT, DOC), encoding="utf-8").read())
    if problems:
        print("tools/mutants.py is out of date with the code or its count in docs/testing.md:")
        for p in problems:
            print("  " + p)
        print("update each mutant's snippet (or remove the mutant), and docs/testing.md's counts, and run again")
        return 2
    if args.check:
        kinds = sorted({m.kind for m in mutants})
        print(f"tools/mutants.py: {len(mutants)} mutants ({', '.join(kinds)}), every snippet matches once, "
              f"and {DOC} counts them")
        print("1 passed, 0 failed")
        return 0
    if args.only:
        unknown = set(args.only) - {m.id for m in mutants}
        if unknown:
            print(f"no such mutants: {', '.join(sorted(unknown))}")
            return 2
        mutants = [m for m in mutants if m.id in args.only]

    os.nice(10)
    os.makedirs(TREE, exist_ok=True)
    sync_tree()
    runner = Runner()
    started = time.time()
    all_suites = sorted({s for m in mutants for s in m.suites}, key=lambda s: SUITES.index(s.split(":")[0]))
    print(f"baseline: building and running {', '.join(all_suites)} on the unmutated tree", flush=True)
    status, _, tail = runner.build_library()
    if status != 0:
        print(f"the library does not build:\n{tail}")
        return 2
    status, tail = runner.build_c_tests()
    if status != 0:
        print(f"the C tests do not build:\n{tail}")
        return 2
    verdict, detail = runner.evaluate(all_suites)
    if verdict != "survived":
        print(f"the unmutated tree fails its own tests ({verdict} {detail}); fix that first")
        return 2

    results = []
    for n, m in enumerate(mutants, 1):
        path = os.path.join(TREE, m.file)
        original = open(path, encoding="utf-8").read()
        t0 = time.time()
        try:
            open(path, "w", encoding="utf-8").write(original.replace(m.find, m.replace, 1))
            verdict, detail = runner.evaluate(m.suites)
        finally:
            open(path, "w", encoding="utf-8").write(original)
        results.append((m, verdict, detail))
        shown = verdict + (" (equivalent, as expected)" if m.equivalent and verdict == "survived" else "")
        print(f"[{n}/{len(mutants)}] {m.id:32} {shown:10} {time.time() - t0:5.0f} s  {detail}", flush=True)

    # Leave the tree's build as the unmutated code.
    runner.build_library()
    counted = [(m, v) for m, v, _ in results if not m.equivalent]
    killed = [m for m, v in counted if v == "killed"]
    survived = [m for m, v in counted if v == "survived"]
    broken = [m for m, v, _ in results if v == "build failed"]
    equivalent = [(m, v) for m, v, _ in results if m.equivalent]
    scored = len(killed) + len(survived)
    print(f"\n{len(results)} mutants in {(time.time() - started) / 60:.1f} min: {len(killed)} killed, "
          f"{len(survived)} survived, {len(equivalent)} equivalent (not scored), {len(broken)} did not build")
    score = 100.0 * len(killed) / scored if scored else 0.0
    print(f"mutation score: {len(killed)} of {scored} = {score:.1f} %")
    for m in survived:
        print(f"  SURVIVED {m.id}: {m.why} ({m.file})")
    for m, v in equivalent:
        print(f"  equivalent {m.id}: {v}; {m.equivalent}")
    for m in broken:
        print(f"  DID NOT BUILD {m.id}: a mutant must compile; fix its replacement ({m.file})")
    ok = not survived and not broken and all(v == "survived" for _, v in equivalent)
    if not ok:
        print("an equivalent mutant that is killed is not equivalent: fix its note" if any(
            v != "survived" for _, v in equivalent) else "")
    print("1 passed, 0 failed" if ok else "0 passed, 1 failed")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
