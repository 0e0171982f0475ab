"""Bundles libanimrt.so into the package, building it first if need be.

The library comes from ANIMRT_LIBRARY if set, else from the checkout's
.build/release (running `make lib` there when it is not built yet). If none
can be had, the build stops with the instruction, so that a successful
install always imports.
"""
import os
import shutil
import subprocess

from setuptools import Distribution, setup
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
BUILT = os.path.join(ROOT, ".build", "release", "libanimrt.so")


class LibraryMissing(SystemExit):
    """Stops the build with a message saying how to get the library."""

    def __init__(self, message: str) -> None:
        super().__init__(f"error: animrt: {message}")


def library() -> str:
    """The path of the libanimrt.so to bundle."""
    named = os.environ.get("ANIMRT_LIBRARY")
    if named:
        if not os.path.isfile(named):
            raise LibraryMissing(f"ANIMRT_LIBRARY is {named!r}, which is not a file; point it at a built "
                                 "libanimrt.so, or unset it to build one with `make lib`")
        return named
    if os.path.isfile(BUILT):
        return BUILT
    if os.path.isfile(os.path.join(ROOT, "Package.swift")) and os.path.isfile(os.path.join(ROOT, "Makefile")):
        print(f"animrt: libanimrt.so is not built yet; running `make lib` in {ROOT}", flush=True)
        result = subprocess.run(["make", "-C", ROOT, "lib"])
        if result.returncode == 0 and os.path.isfile(BUILT):
            return BUILT
        raise LibraryMissing(f"`make lib` failed in {ROOT}: it needs the Swift toolchain on PATH (for example "
                             "export PATH=/opt/swift/usr/bin:$PATH); run `make lib` there, then pip install "
                             "./bindings/python again")
    raise LibraryMissing("libanimrt.so was not found: install from an animrt checkout after `make lib` "
                         "(pip install ./bindings/python), or set ANIMRT_LIBRARY to a built libanimrt.so")


class BuildWithLibrary(build_py):
    def run(self) -> None:
        source = library()
        super().run()
        target = os.path.join(self.build_lib, "animrt", "libanimrt.so")
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copy2(source, target)


class BinaryDistribution(Distribution):
    """The wheel holds a shared library: tag it for this platform."""

    def has_ext_modules(self) -> bool:
        return True


setup(cmdclass={"build_py": BuildWithLibrary}, distclass=BinaryDistribution)
