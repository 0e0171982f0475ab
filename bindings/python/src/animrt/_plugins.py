"""Extending a runtime: timing functions and functions written in Python, C functions bound by name
and signature (libffi), and plugins (docs/plugins.md).

What is added is usable everywhere a built-in is: a timing function by name in any animation or
machine definition (``"wobble(0.3)"``), a function in a definition's guards, expressions and
``call`` actions, and from Python through :meth:`Runtime.call`::

    rt.register_timing_function("wobble", lambda x, k: x + k * x * (1 - x), defaults=(0.5,))
    rt.register_function("canLike", "bool(f64)", lambda likes: likes < 100)
    power = rt.bind_function("pow", "f64(f64, f64)", library="libm.so.6")
    power(2, 10)                                   # 1024.0
    rt.load_plugin(".build/c/libexamples.so")     # what make plugins builds
    rt.basic("opacity", to=1, timing_function="bounce(3)")

A Python callable runs inside the library call that needs it (a tick, a send, a call), on that
call's thread. If it raises, the library is told it failed (a timing function's value counts as
0; a function's failure reaches the machine as ``error.execution``) and, once the call returns, it
raises :class:`CallbackError` from the callable's exception.
"""
from __future__ import annotations

import inspect
import math
import os
import re
import sys
from ctypes import byref, c_double, c_size_t, c_uint64, c_void_p, create_string_buffer, memmove, string_at
from numbers import Integral, Real
from typing import TYPE_CHECKING, Any, Callable, List, Optional, Sequence, Tuple, Union

from . import _arguments as check
from . import _callbacks
from ._errors import ArgumentTypeError, InvalidArgumentError, RangeError
from ._ffi import CURVE_BLOCK_FN, CURVE_FN, FUNCTION_FN, Value, lib
from ._object import Object, Strict

if TYPE_CHECKING:
    from ._runtime import Runtime

#: What a function takes and returns in Python: float (f32, f64), int (integers), bool, str, and for
#: pointers an int address or None.
CValue = Union[float, int, bool, str, None]
PathLike = Union[str, "os.PathLike[str]"]

# animrt_value_type
_NUMBER, _BOOL, _STRING, _INTEGER, _POINTER = 1, 2, 3, 4, 5
_CALLBACK_FAILED = 14
#: ANIMRT_STRING_MAX, the longest string result a function may return (in bytes).
STRING_MAX = 1 << 20
#: The buffer :meth:`Runtime.call` reads a string result into: one byte more holds any.
_RESULT_BYTES = STRING_MAX + 1


class Plugin(Object):
    """A plugin loaded into a runtime (``animrt_plugin_load``), made by :meth:`Runtime.load_plugin`.

    Its timing functions, functions and definitions are the runtime's until it is unloaded::

        examples = rt.load_plugin(".build/c/libexamples.so")
        examples.name                      # 'examples'
        examples.version                   # '1.0'
        card = rt.definition(named="likeButton")
    """

    def __init__(self, runtime: Runtime, handle: int, path: str) -> None:
        super().__init__(runtime, handle, owned=False)
        self.path = path

    @property
    def name(self) -> str:
        """The name the plugin gives itself (``animrt_plugin_name``): ``examples.name`` → 'examples'."""
        needed = c_size_t()
        buffer = create_string_buffer(256)
        self._runtime._call(lib.animrt_plugin_name, self._id, buffer, 256, byref(needed))
        return buffer.value.decode("utf-8")

    @property
    def version(self) -> str:
        """The version the plugin gives itself (``animrt_plugin_version``): ``examples.version`` → '1.0';
        '' when it gives none."""
        needed = c_size_t()
        buffer = create_string_buffer(256)
        self._runtime._call(lib.animrt_plugin_version, self._id, buffer, 256, byref(needed))
        return buffer.value.decode("utf-8")

    def unload(self) -> None:
        """Withdraws the plugin's names, runs its fini and releases its library
        (``animrt_plugin_unload``). While anything in the runtime uses one of its timing functions
        or functions (an animation, a description, a loaded definition, a machine), it raises
        :class:`StateError` naming them, and nothing changes: ``examples.unload()``."""
        self._runtime._call(lib.animrt_plugin_unload, self._id)

    def __repr__(self) -> str:
        return f"<Plugin {self._id:#x} {self.path}>"


class Function(Strict):
    """A function of a runtime, called from Python with :meth:`Runtime.call`'s conversions:
    ``power = rt.bind_function("pow", "f64(f64, f64)", library="libm.so.6"); power(2, 10)`` → 1024.0.

    ``runtime``, ``name`` and ``signature`` are read-only: they are what the function was registered
    or bound with, and the call goes by that name; a name the class does not have is refused.
    """

    def __init__(self, runtime: Runtime, name: str, signature: Optional[str]) -> None:
        self._runtime = runtime
        self._name = name
        self._signature = signature

    # Read-only: the library holds the function under its name and signature; assigning another
    # would change only what the object claims (and which function a call reaches).
    @property
    def runtime(self) -> Runtime:
        """The runtime it is registered or bound in: ``power.runtime.call("pow", 2, 10)``."""
        return self._runtime

    @property
    def name(self) -> str:
        """The name it is called by, from Python and from a definition's expressions:
        ``rt.bind_function("pow", "f64(f64, f64)", library="libm.so.6", name="power").name`` → 'power'."""
        return self._name

    @property
    def signature(self) -> Optional[str]:
        """The signature it was registered or bound with: ``power.signature`` → 'f64(f64, f64)'."""
        return self._signature

    def _read_only_hint(self, name: str) -> str:
        return ("; it is given when the function is registered or bound: rt.register_function(name, signature, fn) "
                "or rt.bind_function(symbol, signature, library=..., name=...)")

    def __call__(self, *args: CValue) -> CValue:
        return self._runtime.call(self._name, *args)

    def __repr__(self) -> str:
        return f"<Function {self._name} {self._signature or ''}>".replace(" >", ">")


# -- values ------------------------------------------------------------------

def encode(value: object, where: str) -> Value:
    """A Python value as a tagged value: bool, int, float, str, None or c_void_p (pointers)."""
    v = Value()
    if isinstance(value, bool):
        v.type, v.boolean = _BOOL, int(value)
    elif isinstance(value, int):
        if -2 ** 63 <= value < 2 ** 63:
            v.type, v.integer = _INTEGER, value
        elif _double_holds(value):
            # Outside int64_t, a whole number a double holds exactly (2**63, 2**70) goes as one: an f64
            # parameter or a machine's number takes it as it is, an integer parameter refuses it.
            v.type, v.number = _NUMBER, float(value)
        elif abs(value) > sys.float_info.max:
            raise RangeError(f"{where} is {check.shown(value)}, outside a signed 64-bit integer (-2**63 to 2**63 - 1) "
                             "and past the largest double")
        else:
            raise RangeError(f"{where} is {check.shown(value)}, outside a signed 64-bit integer (-2**63 to 2**63 - 1), and no "
                             "double holds it exactly; round it with float() to pass it as a double")
    elif isinstance(value, float):
        v.type, v.number = _NUMBER, value
    elif isinstance(value, str):
        v.type, v.string = _STRING, check.text(value, where).encode("utf-8")
    elif value is None or isinstance(value, c_void_p):
        v.type, v.pointer = _POINTER, (value.value if isinstance(value, c_void_p) else None)
    elif check.is_numpy_bool(value):
        return encode(bool(value), where)
    elif isinstance(value, Real) and type(value).__module__ == "numpy":
        # numpy's numbers of every width (int8 to uint64, float16 to longdouble), as the rest of the
        # binding takes them: as the Python int or float they hold
        return encode(int(value) if isinstance(value, Integral) else float(value), where)
    else:
        raise ArgumentTypeError(f"{where} is {check.describe(value)}; an argument is a number, a bool, a str, "
                                "or None / ctypes.c_void_p for a pointer")
    return v


def _double_holds(value: int) -> bool:
    """Whether a double holds the whole number `value` exactly."""
    try:
        return float(value) == value
    except OverflowError:  # past the largest double
        return False


def decode(v: Value) -> CValue:
    """A tagged value as Python."""
    if v.type == _NUMBER:
        return float(v.number)
    if v.type == _INTEGER:
        return int(v.integer)
    if v.type == _BOOL:
        return bool(v.boolean)
    if v.type == _STRING:
        return (v.string or b"").decode("utf-8")
    address: Optional[int] = v.pointer  # an int address or None
    return address


def _set_result(out: Value, result: object, keep: List[bytes]) -> None:
    """Writes a callable's return value into the preset-typed result, or raises TypeError."""
    kind = out.type
    if kind == 0:
        return
    if kind == _NUMBER:
        # A number, as everywhere in the binding (numpy's of every width too): True is a bool, not 1.0.
        if isinstance(result, Real) and not isinstance(result, bool):  # numpy's bool is no Real
            out.number = float(result)
            return
        raise TypeError(f"returned {check.describe(result)}; its signature says a number")
    if kind == _INTEGER:
        # An int, numpy's integers too (as arguments take them); a bool is no int here.
        if isinstance(result, Integral) and not isinstance(result, bool):  # numpy's bool is no Integral
            value = int(result)
            # The library checks the declared width within int64, the field's type; past it ctypes
            # would cut the int down without a word.
            if not -(2 ** 63) <= value < 2 ** 63:
                raise TypeError(f"returned {check.describe(result)}, past the integers a result carries "
                                "(-2**63 to 2**63 - 1; a u64 above 2**63 - 1 is refused)")
            out.integer = value
            return
        raise TypeError(f"returned {check.describe(result)}; its signature says an int")
    if kind == _BOOL:
        # True or False (0 and 1, numpy's bool too), as check.boolean takes them: a guard that
        # returns a str, a float or a list would otherwise count as its truth value unseen.
        if isinstance(result, bool) or check.is_numpy_bool(result) or \
                (isinstance(result, Integral) and int(result) in (0, 1)):
            out.boolean = 1 if result else 0
            return
        raise TypeError(f"returned {check.describe(result)}; its signature says a bool (True or False)")
    if kind == _STRING:
        if isinstance(result, str):
            data = check.text(result, "the str it returned").encode("utf-8")
            keep[:] = [data]  # valid until the next call: the library copies it at once
            out.string = data
            return
        raise TypeError(f"returned {check.describe(result)}; its signature says a str")
    if result is None or (isinstance(result, int) and not isinstance(result, bool) and 0 <= result < 2 ** 64):
        out.pointer = result
        return
    raise TypeError(f"returned {check.describe(result)}; its signature says a pointer (an int address or None)")


# -- Python callables as timing functions and functions ------------------------

def _finite_curve_value(y: float) -> float:
    """`y`, a timing function's result, when finite: the library would count a NaN as 0 and go on,
    and a curve that divides by zero somewhere would show its animations at their from value with
    nothing said."""
    if not math.isfinite(y):
        raise ValueError(f"returned {y!r}; a timing function returns a finite number (the library would "
                         "count it as 0)")
    return y


def curve_trampoline(runtime: Runtime, name: str, fn: Callable[..., float], parameters: int) -> Any:
    """The C timing function that calls `fn(x, *params)`; an exception is recorded and counts as 0."""
    key, native = _callbacks.key(runtime._ptr), runtime._native
    what = f"timing function {name!r}"

    def call(x: float, params: Any, _user: Any) -> float:
        try:
            y = fn(x, *[params[i] for i in range(parameters)]) if parameters else fn(x)
            # A number, as everywhere in the binding: float() would take "0.5" or True. (A finite
            # float is let through first: the ABC check alone costs 0.2 us, a third of the call;
            # y - y is 0 for a finite y, NaN for NaN and the infinities.)
            if type(y) is float and y - y == 0:
                return y
            if isinstance(y, bool) or not isinstance(y, Real):
                raise TypeError(f"returned {check.describe(y)}; a timing function returns a number")
            return _finite_curve_value(float(y))
        except BaseException as e:  # nothing may cross the library's frames
            _callbacks.record(key, what, e, native)
            return math.nan

    _callbacks.wrappers.add(call.__code__)
    return CURVE_FN(call)


def block_curve_trampoline(runtime: Runtime, name: str, fn: Callable[..., object], parameters: int) -> Any:
    """The C block timing function that calls `fn(x, y, *params)` once per array of progress values.

    `x` is a read-only memoryview of the values (format ``"d"``), `y` a writable one of as many
    zeros for `fn` to fill; both are copies the callable may keep. An exception is recorded and
    the whole array counts as 0."""
    key, native = _callbacks.key(runtime._ptr), runtime._native
    what = f"timing function {name!r}"

    def call(x: Any, y: Any, count: int, params: Any, _user: Any) -> None:
        size = count * 8
        out = bytearray(size)
        try:
            xs = memoryview(string_at(x, size)).cast("d")
            args = [params[i] for i in range(parameters)]
            ys = memoryview(out).cast("d")
            fn(xs, ys, *args)
            total = sum(ys)  # NaN or infinite when a value is (or, rarely, when finite ones overflow)
            if total - total != 0:
                for i, v in enumerate(ys):
                    if v - v != 0:
                        raise ValueError(f"wrote {v!r} to y[{i}] (for x = {xs[i]!r}); a timing function "
                                         "gives finite numbers (the library would count it as 0)")
        except BaseException as e:  # nothing may cross the library's frames
            _callbacks.record(key, what, e, native)
            out = bytearray(size)
        memmove(y, bytes(out), size)

    _callbacks.wrappers.add(call.__code__)
    return CURVE_BLOCK_FN(call)


def function_trampoline(runtime: Runtime, name: str, fn: Callable[..., object]) -> Any:
    """The C function that calls `fn(*args)`; an exception is recorded and becomes ANIMRT_E_CALLBACK."""
    key, native = _callbacks.key(runtime._ptr), runtime._native
    what = f"function {name!r}"
    keep: List[bytes] = []

    def call(_user: Any, args: Any, count: int, result: Any) -> int:
        try:
            values = [decode(args[i]) for i in range(count)]
            _set_result(result[0], fn(*values), keep)
            return 0
        except BaseException as e:  # nothing may cross the library's frames
            _callbacks.record(key, what, e, native)
            lib.animrt_error_set(_CALLBACK_FAILED, f"{what} raised {_callbacks.describe(e)}".encode("utf-8", "replace"))
            return _CALLBACK_FAILED

    _callbacks.wrappers.add(call.__code__)
    return FUNCTION_FN(call)


def numbers(values: Optional[Sequence[float]], name: str, count: int) -> Optional[Any]:
    """A C array of `count` doubles from a sequence of numbers (None stays None)."""
    if values is None:
        return None
    items = list(values) if isinstance(values, (list, tuple)) else None
    if items is None:
        raise ArgumentTypeError(f"{name} is {check.describe(values)}; it must be a tuple of numbers")
    if len(items) != count:
        raise ArgumentTypeError(f"{name} has {check.counted(len(items), 'number')}; the timing function has "
                                f"{check.counted(count, 'parameter')}")
    return (c_double * max(1, count))(*[check.number(v, f"{name}[{i}]") for i, v in enumerate(items)])


# A well-formed signature (docs/plugins.md): only then is the callable's arity worth checking.
# Spaces between tokens are what the library skips, spaces and tabs: a newline is its to explain.
_TYPE = r"(?:bool|[iu](?:8|16|32|64)|f32|f64|ptr|str)"
_SIGNATURE = re.compile(rf"[ \t]*(?:void|{_TYPE})[ \t]*\([ \t]*((?:{_TYPE}(?:[ \t]*,[ \t]*{_TYPE}){{0,15}})?)[ \t]*\)[ \t]*")


def _check_arity(fn: Callable[..., Any], count: int, what: str, leading: Tuple[str, ...] = ()) -> None:
    """Refuses, at registration, a callable that could never be called with
    `count` positional arguments (rather than failing at every call). For a
    timing function (`leading`: the arguments before its parameters), one
    that needs more of them is told that its parameters come from `defaults`."""
    try:
        parameters = inspect.signature(fn)
    except (TypeError, ValueError):  # a builtin without a signature: checked when called
        return
    try:
        parameters.bind(*([0.0] * count))
    except TypeError as e:
        hint = ""
        needed = [p.name for p in parameters.parameters.values()
                  if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) and p.default is p.empty]
        if leading and len(needed) > count:
            extra = needed[len(leading):]
            hint = (f"; the parameters after {', '.join(leading)} take their values from defaults=(…), one number each "
                    f"for {', '.join(extra)}")
        raise ArgumentTypeError(f"{what} is called with {check.counted(count, 'argument')}, but fn{parameters} cannot take them: "
                                f"{e}{hint}") from None


def register_timing_function(runtime: Runtime, name: str, fn: Callable[..., Any], defaults: Sequence[float],
                             minimum: Optional[Sequence[float]], maximum: Optional[Sequence[float]],
                             block: bool = False) -> None:
    """``animrt_timing_function_register`` (`fn(x, *params)`) or, with `block`,
    ``animrt_timing_function_register_block`` (`fn(x, y, *params)` over arrays)."""
    name = check.text(name, "name")
    if not callable(fn):
        takes = "x, y and the parameters" if block else "x and the parameters"
        raise ArgumentTypeError(f"fn is {check.describe(fn)}; it must be a callable taking {takes}")
    count = len(defaults) if isinstance(defaults, (list, tuple)) else -1
    if count < 0:
        raise ArgumentTypeError(f"defaults is {check.describe(defaults)}; it must be a tuple of numbers")
    arrays = (numbers(defaults, "defaults", count), numbers(minimum, "minimum", count), numbers(maximum, "maximum", count))
    leading = ("x", "y") if block else ("x",)
    _check_arity(fn, count + len(leading), f"timing function '{name}' ({', '.join(leading)} and {check.counted(count, 'parameter')})",
                 leading)
    if block:
        trampoline = block_curve_trampoline(runtime, name, fn, count)
        runtime._call(lib.animrt_timing_function_register_block, check.text(name, "name").encode("utf-8"), trampoline, None, count, *arrays)
    else:
        trampoline = curve_trampoline(runtime, name, fn, count)
        runtime._call(lib.animrt_timing_function_register, check.text(name, "name").encode("utf-8"), trampoline, None, count, *arrays)
    runtime._extensions.append(trampoline)


def register_function(runtime: Runtime, name: str, signature: str, fn: Callable[..., object]) -> Function:
    name = check.text(name, "name")
    signature = check.text(signature, "signature")
    if not callable(fn):
        raise ArgumentTypeError(f"fn is {check.describe(fn)}; it must be a callable")
    shape = _SIGNATURE.fullmatch(signature)
    if shape is not None:  # a malformed signature is explained by the library, column and all
        _check_arity(fn, len([t for t in shape.group(1).split(",") if t.strip()]), f"function '{name}' ({signature})")
    trampoline = function_trampoline(runtime, name, fn)
    runtime._call(lib.animrt_function_register, check.text(name, "name").encode("utf-8"),
                             check.text(signature, "signature").encode("utf-8"), trampoline, None)
    runtime._extensions.append(trampoline)
    return Function(runtime, name, signature)


# -- C functions and plugins ---------------------------------------------------

def _path(value: PathLike, name: str) -> bytes:
    """A path or soname as the bytes dlopen is given. A Path names a file: made absolute, so that
    "./libx.so" is not searched for as a soname (str(Path("./libx.so")) is "libx.so"). A NUL would
    end the C string early (dlopen would open what comes before it), so it is refused by name."""
    data = os.fsencode(os.path.abspath(value) if isinstance(value, os.PathLike) else value)
    if b"\0" in data:
        shown = os.fsdecode(data)
        raise InvalidArgumentError(f"{name} {shown[:60]!r} has a NUL character (at {shown.index(chr(0))}): C strings "
                                   "end there, so what follows it would be lost")
    return data


def _library(library: Optional[PathLike]) -> Optional[bytes]:
    if library is None:
        return None
    if isinstance(library, (str, os.PathLike)):
        return _path(library, "library")
    raise ArgumentTypeError(f"library is {check.describe(library)}; it must be a path or soname (str), or None "
                            "for the process")


def bind_function(runtime: Runtime, symbol: str, signature: str, library: Optional[PathLike],
                  name: Optional[str]) -> Function:
    symbol = check.text(symbol, "symbol")
    signature = check.text(signature, "signature")
    name = check.text(name, "name") if name is not None else symbol
    runtime._call(lib.animrt_function_bind, _library(library), symbol.encode("utf-8"), signature.encode("utf-8"),
                             name.encode("utf-8"))
    return Function(runtime, name, signature)


def bind_timing_function(runtime: Runtime, symbol: str, signature: str, library: Optional[PathLike],
                         name: Optional[str]) -> None:
    symbol = check.text(symbol, "symbol")
    name = check.text(name, "name") if name is not None else symbol
    runtime._call(lib.animrt_timing_function_bind, _library(library), symbol.encode("utf-8"),
                                    check.text(signature, "signature").encode("utf-8"), name.encode("utf-8"))


def load_plugin(runtime: Runtime, path: PathLike) -> Plugin:
    if not isinstance(path, (str, os.PathLike)):
        raise ArgumentTypeError(f"path is {check.describe(path)}; it must be the path of a shared library")
    out = c_uint64()
    runtime._call(lib.animrt_plugin_load, _path(path, "path"), byref(out))
    return Plugin(runtime, out.value, os.fsdecode(path))


def call(runtime: Runtime, name: str, args: Sequence[object]) -> CValue:
    name = check.text(name, "name")
    values = (Value * max(1, len(args)))(*[encode(a, f"argument {i + 1}") for i, a in enumerate(args)])
    out = Value()
    if runtime._result_buffer is None:
        runtime._result_buffer = create_string_buffer(_RESULT_BYTES)
    needed = c_size_t()
    runtime._call(lib.animrt_function_call, name.encode("utf-8"), values, len(args), byref(out),
                             runtime._result_buffer, _RESULT_BYTES, byref(needed))
    if out.type == 0:
        return None
    return decode(out)

