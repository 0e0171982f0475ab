"""Bundles libanimrt.so into the package when the build tree has one.

`make lib` builds it at ../../.build/release/libanimrt.so; without it the
package still installs and finds the library through ANIMRT_LIBRARY.
"""
import os
import shutil

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))
BUILT = os.path.join(HERE, "..", "..", ".build", "release", "libanimrt.so")


class BuildWithLibrary(build_py):
    def run(self):
        super().run()
        if os.path.exists(BUILT):
            target = os.path.join(self.build_lib, "animrt", "libanimrt.so")
            os.makedirs(os.path.dirname(target), exist_ok=True)
            shutil.copy2(BUILT, target)


setup(cmdclass={"build_py": BuildWithLibrary})
