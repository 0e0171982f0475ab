"""Values and key paths: the Python types of what a key path holds, and the
conversion of Python values to the library's arrays of doubles.

A value is a float for a scalar and a tuple for the rest: a point ``(x, y)``,
a size ``(width, height)``, a rect ``(x, y, width, height)``, a color
``(r, g, b, a)`` from 0 to 1, a transform (16 numbers, m11 … m44, row-major).
Any iterable of numbers is accepted as input (a list, a tuple, a numpy
array); results are always floats and tuples, typed by key path::

    x, y = layer.presentation("position")            # tuple[float, float]
    alpha = layer.presentation("opacity")            # float
"""
from __future__ import annotations

import numbers
import re
from ctypes import Array, c_double
from typing import Generic, Iterable, List, Literal, Mapping, NamedTuple, Tuple, TypeVar, Union

from ._arguments import describe, double, number
from ._enums import ValueKind
from ._errors import ArgumentTypeError, KindError

Point = Tuple[float, float]
"""``(x, y)``: ``position``, ``anchorPoint``, ``bounds.origin``."""
Size = Tuple[float, float]
"""``(width, height)``: ``bounds.size``, ``transform.translation``."""
Rect = Tuple[float, float, float, float]
"""``(x, y, width, height)``: ``bounds``."""
Color = Tuple[float, float, float, float]
"""``(r, g, b, a)``, each from 0 to 1: ``backgroundColor``, ``borderColor``, ``strokeColor``."""
Transform = Tuple[float, ...]
"""16 numbers, m11 … m44, row-major (Core Animation's CATransform3D layout): ``transform``."""
Value = Union[float, Tuple[float, ...]]
"""Any value: a float or a tuple of floats."""
ValueLike = Union[float, Iterable[float]]
"""What a value may be given as: a number, or an iterable of numbers (tuple, list, numpy array)."""

ScalarKeyPath = Literal[
    "opacity", "cornerRadius", "borderWidth", "lineWidth", "strokeStart", "strokeEnd", "zPosition",
    "position.x", "position.y", "anchorPoint.x", "anchorPoint.y",
    "bounds.origin.x", "bounds.origin.y", "bounds.size.width", "bounds.size.height",
    "transform.rotation", "transform.rotation.x", "transform.rotation.y", "transform.rotation.z",
    "transform.scale", "transform.scale.x", "transform.scale.y", "transform.scale.z",
    "transform.translation.x", "transform.translation.y", "transform.translation.z",
    "backgroundColor.red", "backgroundColor.green", "backgroundColor.blue", "backgroundColor.alpha",
    "borderColor.red", "borderColor.green", "borderColor.blue", "borderColor.alpha",
    "strokeColor.red", "strokeColor.green", "strokeColor.blue", "strokeColor.alpha",
]
"""Core Animation key paths that hold one number."""
PairKeyPath = Literal["position", "anchorPoint", "bounds.origin", "bounds.size", "transform.translation"]
"""Key paths that hold a point or a size: two numbers."""
QuadKeyPath = Literal["bounds", "backgroundColor", "borderColor", "strokeColor"]
"""Key paths that hold a rect or a color: four numbers."""
TransformKeyPath = Literal["transform"]
"""The whole transform: 16 numbers."""

V = TypeVar("V", bound=Union[float, Tuple[float, ...]])


class Property(str, Generic[V]):
    """The name of a host property, typed by its value, as :meth:`Runtime.define_property` returns it.

    It is a ``str`` (use it wherever a key path goes) whose type tells a type
    checker what reading it gives::

        progress = rt.define_property("progress", 0.0)     # Property[float]
        bar.add_animation(rt.basic(progress, to=1.0))
        done: float = bar.presentation(progress)
    """

    __slots__ = ()


class KeyPathInfo(NamedTuple):
    """A key path resolved by the library: its id, value kind and number of doubles."""
    id: int
    kind: ValueKind
    components: int


_PHRASES = {
    ValueKind.SCALAR: "a scalar: one number, e.g. 0.5",
    ValueKind.POINT: "a point: 2 numbers (x, y), e.g. (10.0, 20.0)",
    ValueKind.SIZE: "a size: 2 numbers (width, height), e.g. (100.0, 40.0)",
    ValueKind.RECT: "a rect: 4 numbers (x, y, width, height), e.g. (0.0, 0.0, 100.0, 40.0)",
    ValueKind.COLOR: "a color: 4 numbers (r, g, b, a) from 0 to 1, e.g. (1.0, 0.0, 0.0, 1.0)",
    ValueKind.TRANSFORM: "a transform: 16 numbers (m11 ... m44, row-major)",
}
_HEX = re.compile(r"#([0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})")


def phrase(kind: ValueKind) -> str:
    """What a value of `kind` is, for messages."""
    return _PHRASES[kind]


def _hex_hint(value: str, kind: ValueKind) -> str:
    """For "#ff0000" given as a color: the tuple it stands for."""
    m = _HEX.fullmatch(value.strip())
    if kind != ValueKind.COLOR or m is None:
        return ""
    digits = m.group(1)
    if len(digits) == 3:
        digits = "".join(c * 2 for c in digits)
    if len(digits) == 6:
        digits += "ff"
    rgba = tuple(round(int(digits[i:i + 2], 16) / 255, 4) for i in range(0, 8, 2))
    return f"; {value!r} is {rgba}"


def _zero_d(value: object) -> object:
    """A 0-d array (``numpy.array(0.5)``, ``x.sum()`` of some libraries) as the scalar it holds:
    it claims to be iterable, and iterating it raises a bare TypeError."""
    if getattr(value, "shape", None) == () and callable(getattr(value, "item", None)):
        return value.item()  # type: ignore[attr-defined]
    return value


def flatten(value: object, name: str, out: List[float]) -> None:
    value = _zero_d(value)
    if isinstance(value, numbers.Real) and not isinstance(value, bool):
        out.append(double(value, f"{name}[{len(out)}]"))
        return
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        number(value, f"{name}[{len(out)}]")  # raises, naming the bad component
        return
    for item in value:
        flatten(item, name, out)


def components(value: object, name: str, key_path: str, kind: ValueKind, count: int) -> List[float]:
    """`value` as `count` floats for `key_path`, or an exception naming `name`."""
    value = _zero_d(value)
    if isinstance(value, numbers.Real) and not isinstance(value, bool):
        items = [double(value, name)]
    elif value is None or isinstance(value, (str, bytes, bool, Mapping)) or not isinstance(value, Iterable):
        # (a dict iterates over its keys: {"x": 1, "y": 2} would be refused for its first key, 'x')
        hint = _hex_hint(value, kind) if isinstance(value, str) else ""
        raise ArgumentTypeError(f"{name} is {describe(value)}; '{key_path}' takes {phrase(kind)}{hint}")
    else:
        items = []
        flatten(value, name, items)
    if len(items) != count:
        raise KindError(f"{name} has {len(items)} number{'s' if len(items) != 1 else ''}; "
                        f"'{key_path}' takes {phrase(kind)}")
    return items


def doubles(value: object, name: str, key_path: str, info: KeyPathInfo) -> "Tuple[Array[c_double], int]":
    """`value` as a C array for `key_path`, and its length."""
    items = components(value, name, key_path, info.kind, info.components)
    return (c_double * len(items))(*items), len(items)


def python_value(items: "Array[c_double]", n: int) -> Value:
    """A float for one component, else a tuple."""
    return items[0] if n == 1 else tuple(items[:n])
