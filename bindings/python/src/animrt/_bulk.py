"""Whole scenes in one call: many layers, one animation added to many layers
with per-layer values, from numpy arrays or ``array('d')`` without a Python
loop over the items."""
from __future__ import annotations

import numbers
from array import array
from ctypes import POINTER, c_char, c_double, c_uint64, c_void_p, cast
from typing import TYPE_CHECKING, Any, Dict, Iterator, List, Optional, Sequence, Tuple, Union

from . import _arguments as check
from ._errors import ArgumentTypeError, BufferSizeError, BufferTooSmallError, InvalidArgumentError, KindError
from ._ffi import Column

if TYPE_CHECKING:
    from ._layer import Layer

#: animrt_column_field: timing parameters keep their animrt_timing_param number, values are 16 + slot.
COLUMNS: Dict[str, int] = {"begin_time": 0, "duration": 1, "speed": 2, "time_offset": 3, "repeat_count": 4,
                           "repeat_duration": 5, "iteration_start": 6, "end_delay": 7, "delay": 8, "iterations": 9,
                           "iteration_duration": 10, "from_": 16, "to": 17, "by": 18, "velocity": 19}
VALUE_COLUMNS = ("from_", "to", "by", "velocity")

_DOUBLE = ("d", "<d", "=d", "@d")
_UINT64 = ("Q", "<Q", "=Q", "@Q", "L", "<L", "=L", "@L")


LayersLike = Union["Sequence[Layer]", Sequence[int], Any]
"""Layers for a bulk call: a flat buffer of uint64 handles (``array('Q')`` from
:meth:`Runtime.create_layers`, a numpy uint64 array), or a sequence of
:class:`Layer` objects or handles."""

ColumnLike = Union[float, Sequence[float], Any]
"""One value per layer: a buffer of float64 (numpy array, ``array('d')``), a
sequence of numbers, or one number for every layer. For a key path of several
components (``position``), the values one layer after another, a sequence of
tuples, or one tuple for every layer; an array of several dimensions has one
row per layer (``(layers, components)``)."""


def _unmasked(obj: Any, name: str) -> Any:
    """A numpy masked array's data when no value is masked; one with masked values is refused (its
    buffer holds a number under each mask, which would be set as if given). Anything else, as it is."""
    if not type(obj).__module__.startswith("numpy.ma"):
        return obj
    import numpy
    masked = int(numpy.count_nonzero(obj.mask))  # numpy.ma.nomask (False) when none is
    if masked:
        raise InvalidArgumentError(f"{name} is a masked array with {check.counted(masked, 'masked value')}, "
                                   f"which would be set as the numbers under the mask; pass {name}.filled(x) "
                                   "with the number a masked one stands for")
    return obj.data


def _buffer(obj: object, formats: Tuple[str, ...], name: str) -> Optional[memoryview]:
    obj = _unmasked(obj, name)
    try:
        view = memoryview(obj)  # type: ignore[arg-type]
    except TypeError:
        return None
    if view.format not in formats or view.itemsize != 8:
        view.release()
        return None
    if not view.c_contiguous:
        view.release()
        raise ArgumentTypeError(f"the array {name} is not contiguous; pass a C-contiguous one "
                                "(numpy.ascontiguousarray)")
    return view


def _as_float64(values: Any, name: str) -> Any:
    """A numpy array of another dtype or layout as a contiguous float64 one (a copy; none when it is one
    already); a numpy number or 0-d array as a float, one number for every layer as a Python number is
    (ascontiguousarray would make it a column of one); what is not numpy, as it is."""
    values = _unmasked(values, name)
    dtype = getattr(values, "dtype", None)
    if dtype is None or type(values).__module__ != "numpy":
        return values
    import numpy
    if dtype.kind not in "iuf":
        raise KindError(f"{name} has dtype {dtype}; columns are numbers (numpy.asarray(x, dtype=float))")
    if numpy.ndim(values) == 0:
        return float(values)
    return numpy.ascontiguousarray(values, dtype=numpy.float64)


class Pinned:
    """Pointers to caller buffers for one C call; copies are made only when needed (read-only or
    non-buffer input), and kept alive until the call returns."""

    def __init__(self) -> None:
        self._keep: List[object] = []

    def address(self, view: memoryview) -> int:
        """The address of a contiguous buffer (a copy of it if it is read-only)."""
        self._keep.append(view)
        if view.nbytes == 0:
            return 0
        if view.readonly:
            copy = (c_char * view.nbytes).from_buffer_copy(view)
            self._keep.append(copy)
            return cast(copy, c_void_p).value or 0
        raw = (c_char * view.nbytes).from_buffer(view)
        self._keep.append(raw)
        return cast(raw, c_void_p).value or 0

    def layers(self, layers: object, name: str = "layers") -> Tuple[int, int]:
        """(address, count) of the layer handles."""
        from ._layer import Layer
        view = _buffer(layers, _UINT64, name)
        if view is None:
            if isinstance(layers, (str, bytes)) or not hasattr(layers, "__len__"):
                raise ArgumentTypeError(f"{name} is {check.describe(layers)}; it must be an array of layer handles "
                                        "(rt.create_layers(n), a numpy uint64 array) or a sequence of layers")
            sequence: Sequence[Any] = layers  # type: ignore[assignment]
            ids = array("Q", [x._id if isinstance(x, Layer) else check.integer(x, f"{name}[{i}]", 1, 2 ** 64 - 1)
                              for i, x in enumerate(sequence)])
            view = memoryview(ids)
        elif view.ndim > 1:  # len() would count its rows, and the layers past them be left out silently
            shape = tuple(view.shape or ())
            view.release()
            raise InvalidArgumentError(f"{name} has shape {shape}; layer handles are one flat array, one per layer: "
                                       f"pass {name}.ravel()")
        return self.address(view), len(view)

    def doubles(self, values: object, count: int, name: str, width: int = 1) -> int:
        """The address of exactly `count` doubles for column `name`, whose values have `width` components."""
        values = _as_float64(values, name)
        if isinstance(values, numbers.Real) and not isinstance(values, bool):
            view = memoryview(array("d", [check.double(values, name)]) * count)
        else:
            found = _buffer(values, _DOUBLE, name)
            if found is None:
                if getattr(values, "dtype", None) is not None:
                    raise KindError(f"{name} has dtype {getattr(values, 'dtype')}; columns are float64 "
                                    "(numpy.asarray(x, dtype=float))")
                if isinstance(values, (str, bytes)) or not hasattr(values, "__len__"):
                    raise ArgumentTypeError(f"{name} is {check.describe(values)}; it must be a float64 array, a "
                                            "sequence of numbers or one number")
                found = memoryview(self._sequence(values, count, name, width))
            view = found
        if view.nbytes != 8 * count:  # (an empty view of rows has no byte view to count: cast refuses it)
            wrong = BufferTooSmallError if view.nbytes < 8 * count else BufferSizeError
            raise wrong(f"{name} holds {check.counted(view.nbytes // 8, 'number')}; {count} {'is' if count == 1 else 'are'} needed "
                        "(one per layer, times the key path's components for values)")
        rows, shape = (count // width, width), tuple(view.shape or ())
        if len(shape) > 1 and shape != rows:  # row i would not be layer i's
            columns = ", ".join(c + "s" for c in "xyzw"[:width])  # one row per component: the columns
            hint = (f"; numpy.column_stack([{columns}]) makes rows of columns"
                    if shape == rows[::-1] and 1 < width <= 4 else "")
            raise InvalidArgumentError(f"{name} has shape {shape}; for {check.counted(rows[0], 'layer')} of "
                                       f"{check.counted(width, 'component')} it must be {rows}, one row per layer, or flat{hint}")
        return self.address(view)

    @staticmethod
    def _refuse_bools(items: List[Any], name: str) -> None:
        """A bool among a sequence's numbers is refused, as one given alone is and a numpy array of
        bools is (``array('d')`` would read it as 1.0 or 0.0). Looked for item by item only when the
        sequence's types (a set made in C) hold a bool or a tuple."""
        types = set(map(type, items))
        if bool not in types and tuple not in types and list not in types:
            return
        for where, c in Pinned._numbers(items, name):
            if isinstance(c, bool):
                raise ArgumentTypeError(f"{where} is {check.describe(c)}; values are numbers "
                                        f"(write {float(c)} if that is meant)")

    @staticmethod
    def _numbers(items: List[Any], name: str) -> Iterator[Tuple[str, Any]]:
        """Each number of a sequence (of numbers, or of tuples of numbers) with where it is:
        ``values[2]``, ``values[2][1]``."""
        for i, v in enumerate(items):
            if isinstance(v, (tuple, list)):
                for k, c in enumerate(v):
                    yield f"{name}[{i}][{k}]", c
            else:
                yield f"{name}[{i}]", v

    @staticmethod
    def _sequence(values: Any, count: int, name: str, width: int) -> "array[float]":
        """A Python sequence as doubles: numbers one after another, one tuple per layer, or, for a
        key path of several components, one tuple for every layer."""
        items = list(values)
        try:
            if width > 1 and items and all(isinstance(v, (tuple, list)) for v in items):
                wrong_lengths = {len(v) for v in items} - {width}
                if wrong_lengths:  # the shortest: a tuple too short is too small, even beside one too long
                    n = min(wrong_lengths)
                    wrong = BufferTooSmallError if n < width else BufferSizeError
                    raise wrong(f"{name} holds a tuple of {n} number{'s' if n != 1 else ''}, "
                                f"{'fewer' if n < width else 'more'} than {width}, the key path's components")
                flat = array("d", [c for v in items for c in v])
            else:
                flat = array("d", items)
        except TypeError:
            raise ArgumentTypeError(f"{name} holds something that is not a number; it must be a float64 "
                                    "array or a sequence of numbers") from None
        except OverflowError:  # an int no double holds: named, as one given alone is
            for where, c in Pinned._numbers(items, name):
                if isinstance(c, numbers.Real) and not isinstance(c, bool):
                    check.double(c, where)
            raise
        Pinned._refuse_bools(items, name)
        if width > 1 and len(items) == width and count != width and not isinstance(items[0], (tuple, list)):
            flat = flat * (count // width)  # one value for every layer
        return flat


def columns(pinned: Pinned, options: Dict[str, Any], count: int, components: int) -> Tuple[Any, int]:
    """The animrt_column array for the keyword `options` of Runtime.add_animations."""
    out = (Column * max(1, len(options)))()
    for i, (name, values) in enumerate(options.items()):
        if name not in COLUMNS:
            raise ArgumentTypeError(f"add_animations() got an unknown column {name!r}"
                                    f"{check.did_you_mean(name, COLUMNS)}; columns are {', '.join(COLUMNS)}")
        width = components if name in VALUE_COLUMNS else 1
        out[i].field = COLUMNS[name]
        out[i].values = cast(pinned.doubles(values, count * width, name, width), POINTER(c_double))
    return out, len(options)


def handles(count: int) -> "Tuple[array[int], Any]":
    """A uint64 array of `count` handles, and a pointer to it for C."""
    out = array("Q", bytes(8 * count))
    return out, (c_uint64 * count).from_buffer(out) if count else None
