"""The package and every Python example in the docs type-check with mypy --strict; results are typed
precisely and common mistakes are caught before the program runs (R5.2)."""
import os
import re
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
BINDING = os.path.dirname(HERE)
ROOT = os.path.dirname(os.path.dirname(BINDING))
SOURCE = os.path.join(BINDING, "src")
TUTORIAL_ASSETS = os.path.join(ROOT, "docs", "tutorial")
DOCS = ["README.md", "bindings/python/README.md", "docs/tutorial.md", "docs/names.md"]


def mypy(*args, cwd=ROOT):
    """Runs mypy --strict; returns (exit status, output)."""
    try:
        import mypy  # noqa: F401
    except ImportError:
        pytest.fail("these tests need mypy: python3 -m pip install mypy (make test installs it)")
    env = dict(os.environ, MYPYPATH=os.pathsep.join([SOURCE, TUTORIAL_ASSETS]))
    cache = os.path.join(ROOT, ".build", "mypy-cache")
    result = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--cache-dir", cache, "--no-error-summary",
                             "--hide-error-context", *args], cwd=cwd, env=env, capture_output=True, text=True)
    return result.returncode, result.stdout + result.stderr


def test_the_package_is_strictly_typed():
    status, output = mypy(os.path.join(SOURCE, "animrt"))
    assert status == 0, output


def doc_examples():
    """Every ```python block of the docs: each is a whole program."""
    for doc in DOCS:
        with open(os.path.join(ROOT, doc), encoding="utf-8") as f:
            text = f.read()
        for i, m in enumerate(re.finditer(r"```python\n(.*?)```", text, re.S)):
            yield f"{doc}#{i}", m.group(1)


def test_the_docs_examples_are_strictly_typed(tmp_path):
    files = []
    for name, code in doc_examples():
        path = tmp_path / (re.sub(r"\W", "_", name) + ".py")
        path.write_text(code)
        files.append(str(path))
    assert len(files) >= 5, files
    status, output = mypy(*files, os.path.join(TUTORIAL_ASSETS, "filmstrip.py"))
    assert status == 0, output


TYPED = '''
import animrt
import numpy

with animrt.Runtime() as rt:
    layer = rt.layer()
    progress = rt.define_property("progress", 0.0)
    corner = rt.define_property("corner", (0.0, 0.0))
    reveal_type(layer.presentation("opacity"))
    reveal_type(layer.presentation("position"))
    reveal_type(layer.presentation("backgroundColor"))
    reveal_type(layer.presentation("transform"))
    reveal_type(layer.presentation(progress))
    reveal_type(layer.presentation(corner))
    reveal_type(layer.value("bounds"))
    reveal_type(layer["position.x"])
    reveal_type(layer.presentation("some.host.property"))
    reveal_type(rt.events())
    reveal_type(rt.reader([(layer, "position")]).read())
    reveal_type(rt.spring("opacity").duration)
    reveal_type(layer.add_animation(rt.basic("opacity", to=1)))
    reveal_type(layer.add_animation(rt.basic("opacity", to=1)).wait)
    x, y = layer.presentation("position")
    for event in rt.events():
        if isinstance(event, animrt.AnimationStopped):
            reveal_type(event.layer)
            reveal_type(event.key)
'''

# What each reveal_type above must show, as type expressions: mypy spells each of them in the same run
# (cast("...", None)), so the comparison holds whichever mypy and numpy the interpreter has (mypy 1 writes
# Union[builtins.float, ...] where mypy 2 writes float | ...; each numpy spells NDArray its own way).
EXPECTED = [
    "float", "Tuple[float, float]", "Tuple[float, float, float, float]", "Tuple[float, ...]",
    "float", "Tuple[float, float]", "Tuple[float, float, float, float]", "float",
    "Union[float, Tuple[float, ...]]",
    "List[Union[animrt.AnimationStarted, animrt.AnimationStopped, animrt.BarrierNotified, "
    "animrt.TransactionCompleted, animrt.TimerFired, animrt.Overflow, animrt.StateChanged, animrt.Emitted, "
    "animrt.RequestIssued, animrt.StaleResult, animrt.MachineError]]",
    "numpy.typing.NDArray[numpy.float64]",
    "float", "animrt.AttachedAnimation", "Callable[[], Coroutine[Any, Any, bool]]",
    "animrt.Layer", "Optional[str]",
]


def test_results_are_typed_precisely(tmp_path):
    expected = "".join(f"reveal_type(cast({e!r}, None))\n" for e in EXPECTED)
    path = tmp_path / "typed.py"
    path.write_text("from typing import Any, Callable, Coroutine, List, Optional, Tuple, Union, cast\nimport numpy.typing\n" + TYPED + expected)
    _, output = mypy(str(path))
    revealed = re.findall(r'Revealed type is "(.*)"', output)
    assert len(revealed) == 2 * len(EXPECTED), output
    got, wanted = revealed[:len(EXPECTED)], revealed[len(EXPECTED):]
    assert got == wanted, "\n".join(f"{e}: revealed {g}, expected {w}" for e, g, w in zip(EXPECTED, got, wanted)
                                     if g != w)
    assert "error" not in output.replace("Revealed", ""), output


MISTAKES = {
    'rt.basic("opacity", durration=1)': 'Unexpected keyword argument "durration"',
    'rt.basic("opacity", fill_mode="forward")': 'incompatible type "Literal',
    'rt.basic("opacity", timing_function=(0.1, 0.2))': 'incompatible type "tuple[float, float]"',
    'rt.spring("opacity", duration="setling")': 'incompatible type "Literal[\'setling\']"',
    'x, y = layer.presentation("opacity")': '"float" object is not iterable',
    'alpha: float = layer.presentation("position")': 'expression has type "tuple[float, float]"',
    'layer["opacity"] = "#ff0000"': 'expression has type "str"',
    'rt.tick("2")': 'incompatible type "str"',
    'rt.keyframe("opacity", [0, 1], calculation_mode="cubic_paced")': 'incompatible type "Literal',
    'layer.add_animation(layer)': 'incompatible type "Layer"',
    'rt.start_timer(1.0, lambda x: None)': 'incompatible type',
    'layer.add_animation(rt.basic("opacity", to=1)).wait()': 'must be used',  # an await forgotten
}


def test_common_mistakes_are_caught_by_the_type_checker(tmp_path):
    lines = ["import animrt", "rt = animrt.Runtime()", "layer = rt.layer()"] + list(MISTAKES)
    path = tmp_path / "mistakes.py"
    path.write_text("\n".join(lines) + "\n")
    _, output = mypy(str(path))
    for number, (line, expected) in enumerate(MISTAKES.items(), start=4):
        errors = [e for e in output.splitlines() if f"mistakes.py:{number}:" in e]
        assert any(expected in e for e in errors), f"line {number}, {line!r}: {errors or 'no error'}\n{output}"
