"""pip install ./bindings/python gives a package that imports, or fails saying how to get the library (R5.2)."""
import os
import shutil
import subprocess
import sys
import zipfile

import pytest

BINDING = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ROOT = os.path.dirname(os.path.dirname(BINDING))


def built_library():
    import animrt._ffi
    return animrt._ffi.lib._name


def pip_wheel(source, out, env):
    """Builds a wheel of `source` into `out` as pip install does; returns pip's result."""
    return subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--disable-pip-version-check",
                           source, "-w", str(out)], env=env, capture_output=True, text=True)


def environment(**changes):
    env = {k: v for k, v in os.environ.items() if k not in ("ANIMRT_LIBRARY", "PYTHONPATH")}
    env.update(changes)
    return env


def copy_binding(tmp_path, root_files=None):
    """The binding's sources in a fresh tree, away from the checkout's build."""
    root = tmp_path / "checkout"
    shutil.copytree(BINDING, root / "bindings" / "python", ignore=shutil.ignore_patterns("tests", "build", "*.egg-info"))
    for name, text in (root_files or {}).items():
        (root / name).write_text(text)
    return root


def test_the_wheel_bundles_the_library_and_imports_without_the_checkout(tmp_path):
    result = pip_wheel(BINDING, tmp_path / "wheels", environment(ANIMRT_LIBRARY=built_library()))
    assert result.returncode == 0, result.stderr
    (wheel,) = (tmp_path / "wheels").iterdir()
    assert "linux" in wheel.name  # a platform wheel: it holds a shared library
    names = zipfile.ZipFile(wheel).namelist()
    assert "animrt/libanimrt.so" in names and "animrt/py.typed" in names and "animrt/_runtime.py" in names
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    run = subprocess.run([sys.executable, "-c", "import animrt; rt = animrt.Runtime(); print(animrt._ffi.lib._name)"],
                         cwd=tmp_path, env=environment(PYTHONPATH=str(site)), capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == str(site / "animrt" / "libanimrt.so")


def test_without_a_library_the_install_fails_with_the_instruction(tmp_path):
    root = copy_binding(tmp_path)
    result = pip_wheel(str(root / "bindings" / "python"), tmp_path / "wheels", environment())
    assert result.returncode != 0
    output = result.stdout + result.stderr
    assert "libanimrt.so was not found: install from an animrt checkout after `make lib`" in output, output
    assert not (tmp_path / "wheels").exists() or not list((tmp_path / "wheels").iterdir())


def test_a_wrong_ANIMRT_LIBRARY_is_named(tmp_path):
    missing = str(tmp_path / "nowhere" / "libanimrt.so")
    result = pip_wheel(BINDING, tmp_path / "wheels", environment(ANIMRT_LIBRARY=missing))
    assert result.returncode != 0
    assert f"ANIMRT_LIBRARY is {missing!r}, which is not a file" in result.stdout + result.stderr


@pytest.mark.parametrize("make_succeeds", [True, False])
def test_in_a_checkout_without_make_lib_the_install_runs_it(tmp_path, make_succeeds):
    # A checkout whose `make lib` is stood in for: it produces the library, or fails as without Swift.
    recipe = (f"\tmkdir -p .build/release && cp {built_library()} .build/release/libanimrt.so\n" if make_succeeds
              else "\t@echo 'animrt needs the Swift toolchain: put swift on PATH'; exit 1\n")
    root = copy_binding(tmp_path, {"Package.swift": "// stand-in\n", "Makefile": "lib:\n" + recipe})
    result = pip_wheel(str(root / "bindings" / "python"), tmp_path / "wheels", environment())
    output = result.stdout + result.stderr
    if make_succeeds:
        assert result.returncode == 0, output
        (wheel,) = (tmp_path / "wheels").iterdir()
        assert "animrt/libanimrt.so" in zipfile.ZipFile(wheel).namelist()
    else:
        assert result.returncode != 0
        assert "`make lib` failed" in output and "needs the Swift toolchain on PATH" in output, output
