#!/usr/bin/env python3
"""Line and region coverage of the Swift library from every test suite.

    coverage.py [--minimum PERCENT] [--files]

Builds the package with the toolchain's coverage instrumentation
(-profile-generate -profile-coverage-mapping) into .build/coverage, then
runs, each writing its own profile:

  - the Swift tests (swift test, on the instrumented build);
  - every C test program in bindings/c/tests, linked against the
    instrumented libanimrt.so;
  - the Python tests, with ANIMRT_LIBRARY pointing at that library;

merges the profiles with llvm-profdata and reports with llvm-cov, for the
core (Sources/AnimationCore), the C exports (Sources/animrt), the state
machine engine (Sources/StateMachines), plugins (Sources/Plugins) and all
of them.
Swift's coverage mapping has no branch regions, so "branch" coverage is
reported as region coverage: every arm of an if, guard, switch, ?:, && and
|| is a region of its own. Fails when the lines of the core or of the
exports are below --minimum (default 90).
"""
import argparse
import glob
import json
import os
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRATCH = os.path.join(ROOT, ".build", "coverage")
PRODUCTS = os.path.join(SCRATCH, "debug")
PROFILES = os.path.join(SCRATCH, "profiles")
FLAGS = ["-Xswiftc", "-profile-generate", "-Xswiftc", "-profile-coverage-mapping"]


def tool(name):
    """A toolchain program: next to swift, else on PATH."""
    swift = shutil.which("swift")
    if swift:
        candidate = os.path.join(os.path.dirname(os.path.realpath(swift)), name)
        if os.path.exists(candidate):
            return candidate
    found = shutil.which(name)
    if not found:
        sys.exit(f"coverage: {name} not found (it comes with the Swift toolchain: put swift on PATH)")
    return found


def run(cmd, env=None, quiet=False):
    print("+ " + " ".join(cmd), flush=True)
    result = subprocess.run(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE if quiet else None,
                            stderr=subprocess.STDOUT if quiet else None, text=True)
    if result.returncode != 0:
        if quiet:
            print(result.stdout)
        sys.exit(f"coverage: {' '.join(cmd[:3])} … failed (exit {result.returncode})")
    return result


def profile_env(prefix):
    env = dict(os.environ)
    env["LLVM_PROFILE_FILE"] = os.path.join(PROFILES, prefix + "-%p.profraw")
    return env


def build():
    run(["swift", "build", "--scratch-path", SCRATCH, "--build-tests"] + FLAGS, quiet=True)


def swift_tests():
    run(["swift", "test", "--skip-build", "--scratch-path", SCRATCH], env=profile_env("swift"), quiet=True)


def c_tests():
    cc = os.environ.get("CC", "cc")
    out = os.path.join(SCRATCH, "c")
    os.makedirs(out, exist_ok=True)
    # The plugins the plugin tests load (make plugins: into .build/c).
    run(["make", "--no-print-directory", "plugins"], quiet=True)
    arguments = {"test_plugins": [os.path.join(ROOT, ".build", "c")]}
    sources = sorted(glob.glob(os.path.join(ROOT, "bindings", "c", "tests", "test_*.c")))
    if not sources:
        sys.exit("coverage: no C tests found in bindings/c/tests")
    for source in sources:
        name = os.path.splitext(os.path.basename(source))[0]
        binary = os.path.join(out, name)
        run([cc, "-std=c99", "-D_POSIX_C_SOURCE=200809L", "-Iinclude", "-Ibindings/c/tests", source,
             "-L" + PRODUCTS, "-lanimrt", "-Wl,-rpath," + PRODUCTS, "-lm", "-lpthread", "-o", binary])
        run([binary] + arguments.get(name, []), env=profile_env("c-" + name), quiet=True)
    return [os.path.basename(s) for s in sources]


def python_tests():
    env = profile_env("python")
    env["ANIMRT_LIBRARY"] = os.path.join(PRODUCTS, "libanimrt.so")
    run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "bindings/python/tests"], env=env, quiet=True)


def summarize(profdata):
    objects = [os.path.join(PRODUCTS, "libanimrt.so"), "-object", os.path.join(PRODUCTS, "animrtPackageTests.xctest")]
    exported = subprocess.run([tool("llvm-cov"), "export", "-summary-only", "-instr-profile", profdata] + objects
                              + [os.path.join(ROOT, "Sources")], cwd=ROOT, capture_output=True, text=True, check=True)
    files = json.loads(exported.stdout)["data"][0]["files"]
    groups = {"AnimationCore (the core)": "Sources/AnimationCore/", "animrt (the C exports)": "Sources/animrt/",
              "StateMachines (the engine)": "Sources/StateMachines/", "Plugins (plugins, libffi)": "Sources/Plugins/"}
    table = {}
    for label, prefix in list(groups.items()) + [("all", "Sources/")]:
        lines = [0, 0]
        regions = [0, 0]
        for f in files:
            if os.path.relpath(f["filename"], ROOT).startswith(prefix):
                s = f["summary"]
                lines[0] += s["lines"]["covered"]; lines[1] += s["lines"]["count"]
                regions[0] += s["regions"]["covered"]; regions[1] += s["regions"]["count"]
        table[label] = (lines, regions)
    per_file = sorted((f["summary"]["lines"]["percent"], os.path.relpath(f["filename"], ROOT), f["summary"]) for f in files)
    return table, per_file


def percent(pair):
    return 100.0 * pair[0] / pair[1] if pair[1] else 100.0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--minimum", type=float, default=90.0, help="least line coverage of the core and of the exports")
    parser.add_argument("--files", action="store_true", help="list every file, least covered first")
    args = parser.parse_args()
    shutil.rmtree(PROFILES, ignore_errors=True)
    os.makedirs(PROFILES)
    # Any instrumented process a suite starts on its own writes here too
    # (not default.profraw in the working directory), and is merged.
    os.environ["LLVM_PROFILE_FILE"] = os.path.join(PROFILES, "other-%p.profraw")
    build()
    swift_tests()
    c_programs = c_tests()
    python_tests()
    raw = sorted(glob.glob(os.path.join(PROFILES, "*.profraw")))
    profdata = os.path.join(SCRATCH, "merged.profdata")
    run([tool("llvm-profdata"), "merge", "-sparse", "-o", profdata] + raw)
    table, per_file = summarize(profdata)
    print(f"\ncoverage of the Swift library from the Swift tests, {len(c_programs)} C test programs "
          f"({', '.join(c_programs)}) and the Python tests ({len(raw)} profiles)\n")
    print(f"{'':28} {'lines':>22} {'regions (branches)':>24}")
    for label, (lines, regions) in table.items():
        print(f"{label:28} {percent(lines):6.2f} % of {lines[1]:5} {percent(regions):8.2f} % of {regions[1]:5}")
    if args.files:
        print()
        for p, name, s in per_file:
            print(f"  {p:6.2f} % lines  {s['regions']['percent']:6.2f} % regions  {name}")
    print(f"\nfor the lines not run: {tool('llvm-cov')} show -instr-profile {os.path.relpath(profdata, ROOT)} "
          f"{os.path.relpath(os.path.join(PRODUCTS, 'libanimrt.so'), ROOT)} -object "
          f"{os.path.relpath(os.path.join(PRODUCTS, 'animrtPackageTests.xctest'), ROOT)} Sources/AnimationCore/FILE")
    low = [label for label in list(table)[:2] if percent(table[label][0]) < args.minimum]
    if low:
        print(f"below {args.minimum:.0f} % of lines: {', '.join(low)}")
        print("0 passed, 1 failed")
        return 1
    print("1 passed, 0 failed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
