#!/usr/bin/env python3
"""Runs the Python binding's tests under every other CPython 3 on this machine.

    python_versions.py VERSION...        (e.g. 3.9 3.10 3.11 3.12 3.13 3.14)

`make test-python` runs the whole Python suite under python3; this runs it
again under each listed version found as pythonX.Y on PATH, or else among
pyenv's installed versions (whose shims answer only for the active version).
The run leaves out test_install.py: it builds five wheels with pip and
setuptools, about 50 s a version, and its subject (setup.py bundling the
library) does not depend on the interpreter the way the binding does.
Everything else runs: ctypes calls and callbacks, numpy buffers, the
docstrings, and mypy --strict over the package and the docs' examples under
that version's own mypy; then the two READMEs' Python examples.

pytest, numpy and mypy are installed with pip for a version that lacks them.
A version that is not found, or whose packages pip cannot install (a machine
offline, a version too new for a wheel), is named on one line with the reason
and not counted as a failure: these runs add to the python3 suite, which is
required. A found and set-up version whose tests fail fails the run.
Needs ANIMRT_LIBRARY and ANIMRT_PLUGIN_DIR, as the Python tests do.
"""
import glob
import os
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TESTS = os.path.join("bindings", "python", "tests")
LEFT_OUT = os.path.join(TESTS, "test_install.py")
READMES = ["README.md", os.path.join("bindings", "python", "README.md")]
DEPENDENCIES = ["pytest", "numpy", "mypy"]
PROBE = "import platform, sys; print(platform.python_implementation(), '%d.%d.%d' % sys.version_info[:3])"


def probe(executable):
    """(implementation, full version) of an interpreter that runs, else None (a pyenv shim for an
    inactive version is on PATH but exits with an error)."""
    try:
        result = subprocess.run([executable, "-c", PROBE], capture_output=True, text=True, timeout=60)
    except OSError:
        return None
    if result.returncode != 0:
        return None
    implementation, version = result.stdout.split()
    return implementation, version


def pyenv_candidates(version):
    """pyenv's installs of `version`, newest patch first."""
    pyenv = shutil.which("pyenv")
    if not pyenv:
        return []
    root = subprocess.run([pyenv, "root"], capture_output=True, text=True).stdout.strip()
    found = glob.glob(os.path.join(root, "versions", version + ".*", "bin", "python" + version))

    def patch(path):
        name = os.path.basename(os.path.dirname(os.path.dirname(path)))
        return int(name.split(".")[2]) if name.split(".")[2].isdigit() else -1
    return sorted(found, key=patch, reverse=True)


def find(version):
    """(executable, full version) of CPython `version`, or None."""
    on_path = shutil.which("python" + version)
    for executable in ([on_path] if on_path else []) + pyenv_candidates(version):
        found = probe(executable)
        if found and found[0] == "CPython" and found[1].rsplit(".", 1)[0] == version:
            return executable, found[1]
    return None


def set_up(executable, version):
    """Installs what the tests import; returns why it could not, or None."""
    script = "import importlib.util, sys; sys.exit(any(importlib.util.find_spec(m) is None for m in sys.argv[1:]))"
    if subprocess.run([executable, "-c", script, *DEPENDENCIES]).returncode == 0:
        return None
    print(f"python{version}: installing {', '.join(DEPENDENCIES)} with pip", flush=True)
    env = dict(os.environ, PIP_ROOT_USER_ACTION="ignore")
    result = subprocess.run([executable, "-m", "pip", "install", "-q", "--disable-pip-version-check", *DEPENDENCIES],
                            env=env, capture_output=True, text=True)
    if result.returncode != 0:
        return (f"pip could not install {' '.join(DEPENDENCIES)}: {executable} -m pip install "
                f"{' '.join(DEPENDENCIES)}\n{result.stdout}{result.stderr}")
    return None


def run(executable):
    """Runs the suite and the README examples; returns (passed, failure output or None)."""
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "bindings", "python", "src"))
    tests = subprocess.run([executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--ignore", LEFT_OUT, TESTS],
                           cwd=ROOT, env=env, capture_output=True, text=True)
    if tests.returncode != 0:
        return None, tests.stdout + tests.stderr
    summary = tests.stdout.strip().splitlines()[-1]
    for readme in READMES:
        example = subprocess.run([executable, os.path.join("tools", "readme_examples.py"), "python", readme],
                                 cwd=ROOT, env=env, capture_output=True, text=True)
        if example.returncode != 0:
            return None, example.stdout + example.stderr
    return summary.strip("= ").split(" in ")[0], None


def main():
    versions = sys.argv[1:]
    if not os.environ.get("ANIMRT_LIBRARY"):
        sys.exit("python_versions.py needs ANIMRT_LIBRARY (and ANIMRT_PLUGIN_DIR): run it with make test-python")
    this = "%d.%d" % sys.version_info[:2]
    failed = []
    for version in versions:
        if version == this:
            print(f"python{version}: the whole suite ran above under {sys.executable} ({sys.version.split()[0]})")
            continue
        found = find(version)
        if not found:
            print(f"python{version}: not found on PATH or in pyenv, not tested")
            continue
        executable, full = found
        start = time.monotonic()
        unavailable = set_up(executable, version)
        if unavailable is not None:
            print(unavailable)
            print(f"python{version} ({full}): not tested, its packages could not be installed (above)")
            continue
        summary, error = run(executable)
        seconds = time.monotonic() - start
        if error is not None:
            print(error)
            print(f"python{version} ({full}, {executable}): FAILED after {seconds:.1f} s")
            failed.append(version)
        else:
            print(f"python{version} ({full}): {summary} (all but test_install.py), README examples match, "
                  f"{seconds:.1f} s")
    if failed:
        sys.exit(f"the Python tests failed under {', '.join('python' + v for v in failed)}")


if __name__ == "__main__":
    main()
