import os
import signal
import sys

import pytest

# Run against the source tree when the package is not installed.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "src"))


@pytest.fixture(autouse=True)
def ctrl_c_raises():
    """Ctrl-C raises KeyboardInterrupt in every test, as in an interactive Python. A shell starts a
    background job (``make test &``) with SIGINT ignored, and Python then leaves it ignored: the tests
    that raise SIGINT themselves would see nothing happen."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


@pytest.fixture
def interrupt_after(monkeypatch):
    """``interrupt_after(name)`` has the library's `name` raise Ctrl-C's KeyboardInterrupt once, as
    the binding gets back from it: a SIGINT arriving during a call is handled at the first step of
    Python after it."""
    def arm(name: str) -> None:
        from animrt._ffi import lib
        function = getattr(lib, name)
        real, left = function.unchecked, [1]

        def call(*args):
            status = real(*args)
            if left[0]:
                left[0] -= 1
                signal.raise_signal(signal.SIGINT)
            return status
        monkeypatch.setattr(function, "unchecked", call)
    return arm


@pytest.fixture
def run_to_exit():
    """``run_to_exit(script)`` runs `script` in a fresh interpreter with this binding, to its exit,
    and returns the finished process (``stdout``, ``stderr``, ``returncode``)."""
    import subprocess
    src = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "src")

    def run(script: str) -> "subprocess.CompletedProcess[str]":
        return subprocess.run([sys.executable, "-c", script], env=dict(os.environ, PYTHONPATH=src),
                              capture_output=True, text=True, timeout=60)
    return run
