"""Runtime, Layer, the animation kinds, Barrier, Transaction, Timer, Reader."""
from __future__ import annotations

import threading
import weakref
from array import array
from ctypes import byref, c_char_p, c_double, c_int, c_int32, c_size_t, c_uint64, c_void_p, create_string_buffer
from typing import Callable, Iterable, Optional, Sequence, Union

from . import _ffi
from ._errors import BufferTooSmallError, ClosedError
from ._types import CalculationMode, Direction, Event, FillMode, ValueKind, event_from_c

lib = _ffi.lib
Value = Union[float, Sequence[float]]

try:  # optional fast path for bulk reads
    import numpy as _np
except ImportError:  # pragma: no cover - exercised when numpy is absent
    _np = None


def _doubles(value: Value):
    """(pointer, count) for a float or a sequence of floats."""
    if isinstance(value, (int, float)):
        items = [float(value)]
    else:
        items = [float(v) for v in value]
    return (c_double * len(items))(*items), len(items)


def _value(buffer, n: int) -> Value:
    return buffer[0] if n == 1 else tuple(buffer[:n])


def _utf8(s: Optional[str]) -> Optional[bytes]:
    return None if s is None else s.encode("utf-8")


class _Native:
    """The runtime pointer, shared with the finalizers of objects inside it."""

    def __init__(self, ptr):
        self.ptr = ptr
        self.lock = threading.Lock()

    def destroy_child(self, fn, handle: int) -> None:
        with self.lock:
            if self.ptr is not None:
                try:
                    fn(self.ptr, handle)
                except Exception:
                    pass


def _destroy_runtime(native: _Native) -> None:
    with native.lock:
        ptr, native.ptr = native.ptr, None
    if ptr is not None:
        lib.animrt_runtime_destroy(ptr)


class Runtime:
    """An animrt runtime: layers, animations, barriers and the host-driven clock.

    Use it as a context manager or call close(); it is also closed when
    garbage-collected. Objects created from it keep it alive.
    """

    def __init__(self, event_capacity: int = 0, threads: int = 1):
        """`event_capacity` bounds the event queue (0: 65536); `threads` lets
        large batches be evaluated on that many threads (0: one per processor)."""
        ptr = c_void_p()
        lib.animrt_runtime_create(event_capacity, byref(ptr))
        self._native = _Native(ptr)
        if threads != 1:
            lib.animrt_runtime_set_threads(ptr, threads)
        self._finalizer = weakref.finalize(self, _destroy_runtime, self._native)
        self._keypaths: dict[str, int] = {}
        self._callback = None
        self._callback_error: Optional[BaseException] = None
        self._next_token = 1

    # -- lifetime --------------------------------------------------------
    @property
    def _ptr(self):
        ptr = self._native.ptr
        if ptr is None:
            raise ClosedError("the runtime is closed")
        return ptr

    @property
    def closed(self) -> bool:
        return self._native.ptr is None

    def close(self) -> None:
        """Destroys the runtime and everything in it. Idempotent."""
        self._finalizer()

    def __enter__(self) -> "Runtime":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # -- time and events -------------------------------------------------
    def tick(self, now: float) -> None:
        """Advances the runtime to `now` seconds (never backwards)."""
        lib.animrt_runtime_tick(self._ptr, now)
        if self._callback_error is not None:
            error, self._callback_error = self._callback_error, None
            raise error

    @property
    def time(self) -> float:
        out = c_double()
        lib.animrt_runtime_time(self._ptr, byref(out))
        return out.value

    def events(self) -> list:
        """Drains and returns the queued events, oldest first."""
        out: list = []
        buffer = (_ffi.Event * 256)()
        n = c_size_t()
        while True:
            lib.animrt_event_poll(self._ptr, buffer, 256, byref(n))
            out.extend(event_from_c(buffer[i]) for i in range(n.value))
            if n.value < 256:
                return out

    def on_event(self, callback: Optional[Callable[[Event], None]]) -> None:
        """Calls `callback(event)` for every event at the end of each tick,
        instead of queueing them (None goes back to polling). An exception
        raised by the callback is re-raised by tick()."""
        if callback is None:
            lib.animrt_event_set_callback(self._ptr, _ffi.EVENT_FN(), None)
            self._callback = None
            return

        def trampoline(_user, event_p):
            try:
                callback(event_from_c(event_p.contents))
            except BaseException as e:  # surfaced by tick()
                if self._callback_error is None:
                    self._callback_error = e

        self._callback = _ffi.EVENT_FN(trampoline)
        lib.animrt_event_set_callback(self._ptr, self._callback, None)

    # -- key paths and properties ----------------------------------------
    def keypath(self, path: str) -> int:
        """The id of a key path (cached)."""
        kp = self._keypaths.get(path)
        if kp is None:
            out = c_int32()
            lib.animrt_keypath_id(self._ptr, path.encode("utf-8"), byref(out))
            kp = self._keypaths[path] = out.value
        return kp

    def keypath_info(self, path: str) -> tuple:
        """(ValueKind, number of doubles) for a key path."""
        kind, n = c_int(), c_size_t()
        lib.animrt_keypath_info(self._ptr, self.keypath(path), byref(kind), byref(n))
        return ValueKind(kind.value), n.value

    def define_property(self, name: str, initial: Value, kind: Optional[ValueKind] = None) -> None:
        """Defines a host property; the kind follows from `initial` unless given
        (2 numbers are a point, 4 a rect, 16 a transform)."""
        values, n = _doubles(initial)
        if kind is None:
            kind = {1: ValueKind.SCALAR, 2: ValueKind.POINT, 4: ValueKind.RECT, 16: ValueKind.TRANSFORM}.get(n)
            if kind is None:
                raise ValueError(f"cannot infer a value kind from {n} numbers; pass kind=")
        lib.animrt_property_define(self._ptr, name.encode("utf-8"), int(kind), values, n)

    # -- objects ---------------------------------------------------------
    def layer(self, parent: Optional["Layer"] = None) -> "Layer":
        return Layer(self, parent)

    def basic(self, key_path: str, *, from_: Optional[Value] = None, to: Optional[Value] = None,
              by: Optional[Value] = None, **timing) -> "BasicAnimation":
        return BasicAnimation(self, key_path, from_=from_, to=to, by=by, **timing)

    def spring(self, key_path: str, *, mass: float = 1, stiffness: float = 100, damping: float = 10,
               initial_velocity: float = 0, from_: Optional[Value] = None, to: Optional[Value] = None,
               by: Optional[Value] = None, **timing) -> "SpringAnimation":
        return SpringAnimation(self, key_path, mass=mass, stiffness=stiffness, damping=damping,
                               initial_velocity=initial_velocity, from_=from_, to=to, by=by, **timing)

    def keyframe(self, key_path: str, values: Sequence[Value], *, key_times: Optional[Sequence[float]] = None,
                 timing_functions: Optional[Sequence[Optional[str]]] = None,
                 calculation_mode: Union[str, CalculationMode] = CalculationMode.LINEAR,
                 **timing) -> "KeyframeAnimation":
        return KeyframeAnimation(self, key_path, values, key_times=key_times, timing_functions=timing_functions,
                                 calculation_mode=calculation_mode, **timing)

    def group(self, children: Iterable["Animation"], **timing) -> "AnimationGroup":
        return AnimationGroup(self, children, **timing)

    def barrier(self) -> "Barrier":
        return Barrier(self)

    def transaction(self, animation_duration: float = 0, token: Optional[int] = None) -> "Transaction":
        return Transaction(self, animation_duration, token)

    def timer(self, delay: float, token: int = 0) -> "Timer":
        return Timer(self, delay, token)

    def reader(self, targets: Iterable[tuple]) -> "Reader":
        return Reader(self, targets)

    def evaluate(self, timing_function: str, x: float) -> float:
        """The value of a named timing function at x."""
        out = c_double()
        lib.animrt_timing_function_evaluate(self._ptr, timing_function.encode("utf-8"), x, byref(out))
        return out.value

    def _token(self) -> int:
        self._next_token += 1
        return self._next_token


class _Child:
    """An object named by a handle inside a runtime."""

    _destroy = None  # the C destroy function, for finalizers

    def __init__(self, runtime: Runtime, handle: int):
        self.runtime = runtime
        self.id = handle
        if self._destroy is not None:
            self._finalizer = weakref.finalize(self, runtime._native.destroy_child, self._destroy, handle)

    def close(self) -> None:
        """Destroys the object. Idempotent."""
        if self._destroy is not None:
            self._finalizer()

    def __eq__(self, other) -> bool:
        return isinstance(other, _Child) and other.id == self.id

    def __hash__(self) -> int:
        return hash(self.id)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.id:#x}>"


class Layer(_Child):
    """A layer: model values the host sets, presentation values animrt computes.

    Layers are scene objects: they live until destroy() or until the runtime
    closes, whether or not a Python object refers to them.
    """

    def __init__(self, runtime: Runtime, parent: Optional["Layer"] = None):
        out = c_uint64()
        lib.animrt_layer_create(runtime._ptr, parent.id if parent else 0, byref(out))
        super().__init__(runtime, out.value)

    def destroy(self) -> None:
        """Destroys the layer; its animations stop. Destroying twice raises HandleError."""
        lib.animrt_layer_destroy(self.runtime._ptr, self.id)

    def set_parent(self, parent: Optional["Layer"]) -> None:
        lib.animrt_layer_set_parent(self.runtime._ptr, self.id, parent.id if parent else 0)

    def set_timing(self, begin_time: float = 0, speed: float = 1, time_offset: float = 0) -> None:
        """The layer's own time: local = (parent − begin_time) × speed + time_offset."""
        lib.animrt_layer_set_timing(self.runtime._ptr, self.id, begin_time, speed, time_offset)

    def __setitem__(self, key_path: str, value: Value) -> None:
        values, n = _doubles(value)
        lib.animrt_layer_set_value(self.runtime._ptr, self.id, self.runtime.keypath(key_path), values, n)

    def __getitem__(self, key_path: str) -> Value:
        return self.model(key_path)

    def model(self, key_path: str) -> Value:
        out, n = (c_double * 16)(), c_size_t()
        lib.animrt_layer_get_value(self.runtime._ptr, self.id, self.runtime.keypath(key_path), out, 16, byref(n))
        return _value(out, n.value)

    def presentation(self, key_path: str) -> Value:
        """What is on screen for `key_path` as of the last tick."""
        out, n = (c_double * 16)(), c_size_t()
        lib.animrt_layer_get_presentation(self.runtime._ptr, self.id, self.runtime.keypath(key_path), out, 16,
                                          byref(n))
        return _value(out, n.value)

    def add(self, animation: "Animation", key: Optional[str] = None, barrier: Optional["Barrier"] = None) -> int:
        """Attaches a copy of `animation`; returns the attached copy's id."""
        out = c_uint64()
        lib.animrt_layer_add_animation(self.runtime._ptr, self.id, animation.id, _utf8(key),
                                       barrier.id if barrier else 0, byref(out))
        return out.value

    def remove(self, key: str) -> bool:
        removed = c_int()
        lib.animrt_layer_remove_animation(self.runtime._ptr, self.id, key.encode("utf-8"), byref(removed))
        return bool(removed.value)

    def remove_all(self) -> None:
        lib.animrt_layer_remove_all_animations(self.runtime._ptr, self.id)

    def keys(self) -> list:
        """The keys of the layer's animations, in the order they apply."""
        n = c_size_t()
        lib.animrt_layer_animation_count(self.runtime._ptr, self.id, byref(n))
        keys = []
        for i in range(n.value):
            needed = c_size_t()
            try:  # a size query: a NULL buffer reports the bytes needed
                lib.animrt_layer_animation_key(self.runtime._ptr, self.id, i, None, 0, byref(needed))
            except BufferTooSmallError:
                pass
            buffer = create_string_buffer(needed.value)
            lib.animrt_layer_animation_key(self.runtime._ptr, self.id, i, buffer, needed.value, byref(needed))
            keys.append(buffer.value.decode("utf-8"))
        return keys


_TIMING = {"begin_time": 0, "duration": 1, "speed": 2, "time_offset": 3, "repeat_count": 4,
           "repeat_duration": 5, "iteration_start": 6, "end_delay": 7}
_FLAGS = {"autoreverses": 0, "removed_on_completion": 1, "additive": 2, "cumulative": 3,
          "from_presentation": 4, "allows_overdamping": 5}


def _timing_property(name: str):
    param = _TIMING[name]

    def get(self) -> float:
        out = c_double()
        lib.animrt_animation_get_timing(self.runtime._ptr, self.id, param, byref(out))
        return out.value

    def set(self, value: float) -> None:
        lib.animrt_animation_set_timing(self.runtime._ptr, self.id, param, value)

    return property(get, set, doc=f"Timing: {name}.")


def _flag_property(name: str, default: bool):
    flag = _FLAGS[name]

    def get(self) -> bool:
        return self._flags.get(name, default)

    def set(self, on: bool) -> None:
        lib.animrt_animation_set_flag(self.runtime._ptr, self.id, flag, 1 if on else 0)
        self._flags[name] = bool(on)

    return property(get, set, doc=f"Flag: {name}.")


class Animation(_Child):
    """An animation description; adding it to a layer attaches a copy."""

    _destroy = lib.animrt_animation_destroy
    _kind = 0

    begin_time = _timing_property("begin_time")
    duration = _timing_property("duration")
    speed = _timing_property("speed")
    time_offset = _timing_property("time_offset")
    repeat_count = _timing_property("repeat_count")
    repeat_duration = _timing_property("repeat_duration")
    iteration_start = _timing_property("iteration_start")
    end_delay = _timing_property("end_delay")
    autoreverses = _flag_property("autoreverses", False)
    removed_on_completion = _flag_property("removed_on_completion", True)
    additive = _flag_property("additive", False)
    cumulative = _flag_property("cumulative", False)
    from_presentation = _flag_property("from_presentation", False)

    def __init__(self, runtime: Runtime, key_path: Optional[str], **timing):
        out = c_uint64()
        lib.animrt_animation_create(runtime._ptr, self._kind, _utf8(key_path), byref(out))
        self._flags: dict = {}
        super().__init__(runtime, out.value)
        self.key_path = key_path
        try:
            self.configure(**timing)
        except BaseException:
            self.close()
            raise

    def configure(self, *, fill_mode=None, direction=None, timing_function=None, **options) -> "Animation":
        """Sets timing parameters, flags, fill mode, direction or timing function."""
        for name, value in options.items():
            if name not in _TIMING and name not in _FLAGS:
                raise TypeError(f"unknown animation option {name!r}")
            setattr(self, name, value)
        if fill_mode is not None:
            self.fill_mode = fill_mode
        if direction is not None:
            self.direction = direction
        if timing_function is not None:
            self.timing_function = timing_function
        return self

    @property
    def fill_mode(self) -> FillMode:
        return self._flags.get("fill_mode", FillMode.REMOVED)

    @fill_mode.setter
    def fill_mode(self, mode) -> None:
        mode = FillMode[mode.upper()] if isinstance(mode, str) else FillMode(mode)
        lib.animrt_animation_set_fill_mode(self.runtime._ptr, self.id, int(mode))
        self._flags["fill_mode"] = mode

    @property
    def direction(self) -> Direction:
        return self._flags.get("direction", Direction.NORMAL)

    @direction.setter
    def direction(self, d) -> None:
        d = Direction[d.upper().replace("-", "_")] if isinstance(d, str) else Direction(d)
        lib.animrt_animation_set_direction(self.runtime._ptr, self.id, int(d))
        self._flags["direction"] = d

    @property
    def timing_function(self) -> Optional[str]:
        return self._flags.get("timing_function")

    @timing_function.setter
    def timing_function(self, name) -> None:
        """A name ("easeInEaseOut", "steps(4)", "cubic-bezier(…)") or four control points."""
        if isinstance(name, (tuple, list)):
            x1, y1, x2, y2 = (float(v) for v in name)
            lib.animrt_animation_set_cubic_bezier(self.runtime._ptr, self.id, x1, y1, x2, y2)
            name = f"cubic-bezier({x1}, {y1}, {x2}, {y2})"
        else:
            lib.animrt_animation_set_timing_function(self.runtime._ptr, self.id, _utf8(name))
        self._flags["timing_function"] = name


class _FromToBy:
    _SLOTS = {"from_": 0, "to": 1, "by": 2}

    def _set_ends(self, from_, to, by) -> None:
        for name, value in (("from_", from_), ("to", to), ("by", by)):
            if value is not None:
                self.set_value(name, value)

    def set_value(self, slot: str, value: Optional[Value]) -> None:
        """Sets "from_", "to" or "by" (None clears it)."""
        if value is None:
            lib.animrt_animation_set_value(self.runtime._ptr, self.id, self._SLOTS[slot], None, 0)
        else:
            values, n = _doubles(value)
            lib.animrt_animation_set_value(self.runtime._ptr, self.id, self._SLOTS[slot], values, n)


class BasicAnimation(Animation, _FromToBy):
    """Core Animation's CABasicAnimation: fromValue / toValue / byValue."""
    _kind = 0

    def __init__(self, runtime: Runtime, key_path: str, *, from_=None, to=None, by=None, **timing):
        super().__init__(runtime, key_path, **timing)
        self._set_ends(from_, to, by)


class SpringAnimation(Animation, _FromToBy):
    """CASpringAnimation: a basic animation paced by a damped spring."""
    _kind = 2
    allows_overdamping = _flag_property("allows_overdamping", False)

    def __init__(self, runtime: Runtime, key_path: str, *, mass=1.0, stiffness=100.0, damping=10.0,
                 initial_velocity=0.0, from_=None, to=None, by=None, **timing):
        super().__init__(runtime, key_path, **timing)
        lib.animrt_animation_set_spring(runtime._ptr, self.id, mass, stiffness, damping, initial_velocity)
        self._set_ends(from_, to, by)

    @property
    def settling_duration(self) -> float:
        out = c_double()
        lib.animrt_animation_get_settling_duration(self.runtime._ptr, self.id, byref(out))
        return out.value


class KeyframeAnimation(Animation):
    """CAKeyframeAnimation: values, key times, per-segment timing functions."""
    _kind = 1

    def __init__(self, runtime: Runtime, key_path: str, values: Sequence[Value], *, key_times=None,
                 timing_functions=None, calculation_mode=CalculationMode.LINEAR, **timing):
        super().__init__(runtime, key_path, **timing)
        self.values = values
        if key_times is not None:
            self.key_times = key_times
        if timing_functions is not None:
            self.timing_functions = timing_functions
        self.calculation_mode = calculation_mode

    @property
    def values(self) -> list:
        return self._flags.get("values", [])

    @values.setter
    def values(self, values: Sequence[Value]) -> None:
        rows = [[float(v)] if isinstance(v, (int, float)) else [float(c) for c in v] for v in values]
        width = len(rows[0]) if rows else 0
        flat = [c for row in rows for c in row]
        if any(len(r) != width for r in rows):
            raise ValueError("every keyframe value must have the same number of components")
        lib.animrt_keyframe_set_values(self.runtime._ptr, self.id, (c_double * len(flat))(*flat), len(rows), width)
        self._flags["values"] = list(values)

    @property
    def key_times(self) -> Optional[list]:
        return self._flags.get("key_times")

    @key_times.setter
    def key_times(self, times: Optional[Sequence[float]]) -> None:
        times = list(times or [])
        lib.animrt_keyframe_set_key_times(self.runtime._ptr, self.id, (c_double * len(times))(*times), len(times))
        self._flags["key_times"] = times or None

    @property
    def timing_functions(self) -> list:
        return self._flags.get("timing_functions", [])

    @timing_functions.setter
    def timing_functions(self, names: Sequence[Optional[str]]) -> None:
        encoded = (c_char_p * len(names))(*[_utf8(n) for n in names])
        lib.animrt_keyframe_set_timing_functions(self.runtime._ptr, self.id, encoded, len(names))
        self._flags["timing_functions"] = list(names)

    @property
    def calculation_mode(self) -> CalculationMode:
        return self._flags.get("calculation_mode", CalculationMode.LINEAR)

    @calculation_mode.setter
    def calculation_mode(self, mode) -> None:
        if isinstance(mode, str):
            mode = {"linear": 0, "discrete": 1, "paced": 2, "cubic": 3, "cubicPaced": 4, "cubic_paced": 4}[mode]
        mode = CalculationMode(mode)
        lib.animrt_keyframe_set_calculation_mode(self.runtime._ptr, self.id, int(mode))
        self._flags["calculation_mode"] = mode

    def set_spline(self, tension=None, continuity=None, bias=None) -> None:
        """Kochanek–Bartels parameters per keyframe for the cubic modes."""
        arrays = [None if a is None else list(a) for a in (tension, continuity, bias)]
        n = max([len(a) for a in arrays if a is not None] or [0])
        ptrs = [None if a is None else (c_double * n)(*(a + [0.0] * (n - len(a)))) for a in arrays]
        lib.animrt_keyframe_set_spline(self.runtime._ptr, self.id, ptrs[0], ptrs[1], ptrs[2], n)


class AnimationGroup(Animation):
    """CAAnimationGroup: children run in the group's time, clipped to its duration."""
    _kind = 3

    def __init__(self, runtime: Runtime, children: Iterable[Animation] = (), **timing):
        super().__init__(runtime, None, **timing)
        for child in children:
            self.append(child)

    def append(self, child: Animation) -> None:
        """Adds a copy of `child` as it is now."""
        lib.animrt_group_add(self.runtime._ptr, self.id, child.id)


class Barrier(_Child):
    """A DispatchGroup-style barrier: enter / leave / notify."""

    _destroy = lib.animrt_barrier_destroy

    def __init__(self, runtime: Runtime):
        out = c_uint64()
        lib.animrt_barrier_create(runtime._ptr, byref(out))
        super().__init__(runtime, out.value)

    def enter(self) -> None:
        lib.animrt_barrier_enter(self.runtime._ptr, self.id)

    def leave(self) -> None:
        """Raises StateError when there is no matching enter."""
        lib.animrt_barrier_leave(self.runtime._ptr, self.id)

    def notify(self, token: int) -> None:
        """A BarrierNotified event with `token` when the count is next zero (at once if it is zero)."""
        lib.animrt_barrier_notify(self.runtime._ptr, self.id, token)

    @property
    def count(self) -> int:
        out = c_size_t()
        lib.animrt_barrier_count(self.runtime._ptr, self.id, byref(out))
        return out.value


class Transaction:
    """`with rt.transaction(token=7):` — animations added inside count toward
    a TransactionCompleted event with the token once all have stopped."""

    def __init__(self, runtime: Runtime, animation_duration: float = 0, token: Optional[int] = None):
        self.runtime = runtime
        self.animation_duration = animation_duration
        self.token = runtime._token() if token is None else token
        self._open = False

    def __enter__(self) -> "Transaction":
        lib.animrt_transaction_begin(self.runtime._ptr, self.animation_duration)
        self._open = True
        return self

    def __exit__(self, *exc) -> None:
        if self._open:
            self._open = False
            lib.animrt_transaction_commit(self.runtime._ptr, self.token)


class Timer(_Child):
    """A one-shot timer on the runtime's clock."""

    def __init__(self, runtime: Runtime, delay: float, token: int = 0):
        out = c_uint64()
        lib.animrt_timer_start(runtime._ptr, delay, token, byref(out))
        super().__init__(runtime, out.value)
        self.token = token

    def cancel(self) -> None:
        """A cancelled timer never fires. Raises HandleError if it already fired."""
        lib.animrt_timer_cancel(self.runtime._ptr, self.id)


class Reader(_Child):
    """Resolved (layer, key path) targets, read in one call."""

    _destroy = lib.animrt_reader_destroy

    def __init__(self, runtime: Runtime, targets: Iterable[tuple]):
        targets = list(targets)
        n = len(targets)
        layers = (c_uint64 * n)(*[t[0].id if isinstance(t[0], Layer) else int(t[0]) for t in targets])
        keypaths = (c_int32 * n)(*[runtime.keypath(t[1]) for t in targets])
        out = c_uint64()
        lib.animrt_reader_create(runtime._ptr, layers, keypaths, n, byref(out))
        super().__init__(runtime, out.value)
        self.count = n
        self.width = runtime.keypath_info(targets[0][1])[1] if targets else 1

    def __len__(self) -> int:
        return self.count * self.width

    def read(self, out=None):
        """Presentation values of every target. Fills `out` (any writable
        buffer of doubles: array('d'), a numpy float64 array, …) in place, or
        returns a new numpy array (when numpy is installed) or array('d')."""
        n = len(self)
        if out is None:
            out = _np.empty(n, dtype=_np.float64) if _np is not None else array("d", bytes(8 * n))
        target = (c_double * n).from_buffer(out)
        needed = c_size_t()
        lib.animrt_reader_read(self.runtime._ptr, self.id, target, n, byref(needed))
        return out
