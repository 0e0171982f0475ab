"""The exceptions: one class per animrt status, each carrying the library's message.

Every exception the binding raises for bad input is an :class:`AnimrtError`.
Each class also derives from the built-in exception a Python programmer
would expect (``ValueError``, ``TypeError``, ``LookupError``, …), so both
``except animrt.RangeError`` and ``except ValueError`` work::

    try:
        rt.basic("opacity", repeat_count=-2)
    except animrt.RangeError as e:
        print(e)   # repeat_count is -2.0; it must be 0 or more (math.inf repeats forever)
"""
from __future__ import annotations

import re
from typing import Dict, Optional, Type


class AnimrtError(Exception):
    """Base class of every animrt exception.

    ``status`` is the C status code (``ANIMRT_E_…``, see ``name``) and
    ``message`` the explanation, which names the bad value and, where it can,
    the fix::

        try:
            layer.presentation("opacty")
        except animrt.AnimrtError as e:
            e.name      # 'ANIMRT_E_NOT_FOUND'
            e.message   # "key path 'opacty' is not animatable; did you mean 'opacity'?"
    """

    status: int = -1
    name: str = "ANIMRT_E_UNKNOWN"

    def __init__(self, message: str, status: Optional[int] = None) -> None:
        super().__init__(message)
        self.message = message
        if status is not None:
            self.status = status


class NullPointerError(AnimrtError, ValueError):
    """ANIMRT_E_NULL: a required pointer was NULL (through raw ``_ffi`` calls, or a plugin's, such as a NULL name).

    >>> animrt._ffi.lib.animrt_layer_create(rt._ptr, 0, None)    # NullPointerError: out is NULL
    """
    status, name = 1, "ANIMRT_E_NULL"


class InvalidArgumentError(AnimrtError, ValueError):
    """ANIMRT_E_INVALID: a malformed argument, such as NaN, infinity or an empty name.

    >>> layer["opacity"] = math.nan    # InvalidArgumentError: ... must be finite
    """
    status, name = 2, "ANIMRT_E_INVALID"


class ArgumentTypeError(InvalidArgumentError, TypeError):
    """An argument of the wrong Python type (status ANIMRT_E_INVALID); also a ``TypeError``.

    >>> rt.tick("2")    # ArgumentTypeError: now is '2' (a str); it must be a number of seconds
    """


class RangeError(AnimrtError, ValueError):
    """ANIMRT_E_RANGE: a number out of range (a negative duration, a bezier x outside [0, 1], …).

    >>> rt.basic("opacity", duration=-1)    # RangeError: duration is -1.0; it must be 0 ...
    """
    status, name = 3, "ANIMRT_E_RANGE"


class HandleError(AnimrtError, LookupError):
    """ANIMRT_E_HANDLE: the object was destroyed, or belongs to another runtime.

    >>> layer.destroy(); layer.value("opacity")    # HandleError: layer handle 0x… is stale
    """
    status, name = 4, "ANIMRT_E_HANDLE"


class NotFoundError(AnimrtError, LookupError):
    """ANIMRT_E_NOT_FOUND: an unknown key path or timing-function name, with a suggestion.

    >>> rt.basic("opacity", timing_function="easeInOut")    # did you mean 'easeInEaseOut'?
    """
    status, name = 5, "ANIMRT_E_NOT_FOUND"


class KindError(AnimrtError, TypeError):
    """ANIMRT_E_KIND: a value of the wrong kind or size for its key path, or an option
    that does not apply to this kind of animation.

    >>> layer["position"] = 1.0    # KindError: value for 'position' ... takes a point: 2 numbers (x, y)
    """
    status, name = 6, "ANIMRT_E_KIND"


class BufferSizeError(AnimrtError, ValueError):
    """An output or input buffer of the wrong size (status ANIMRT_E_BUFFER), such as one too long;
    too small a buffer raises the subclass :class:`BufferTooSmallError`, so this catches both.

    >>> reader.read(numpy.empty(7))    # BufferSizeError: out holds 7 numbers; this reader writes 6 ...
    """
    status, name = 7, "ANIMRT_E_BUFFER"


class BufferTooSmallError(BufferSizeError):
    """ANIMRT_E_BUFFER: a buffer too small, the only wrong size the library reports (it says how much
    it needs); also a :class:`BufferSizeError`.

    >>> reader.read(numpy.empty(3))    # BufferTooSmallError: out holds 3 numbers; ...
    """


class StateError(AnimrtError):
    """ANIMRT_E_STATE: not allowed now, such as a leave without an enter.

    >>> rt.barrier().leave()    # StateError: leave on barrier 0x… without a matching enter
    """
    status, name = 8, "ANIMRT_E_STATE"


class ExistsError(AnimrtError):
    """ANIMRT_E_EXISTS: the name is taken.

    >>> rt.define_property("opacity", 1.0)    # ExistsError: 'opacity' is a built-in property; ...
    """
    status, name = 9, "ANIMRT_E_EXISTS"


class OutOfMemoryError(AnimrtError, MemoryError):
    """ANIMRT_E_NOMEM: out of memory or out of handle slots (16 million objects of one kind).

    >>> [rt.layer() for _ in range(2 ** 24)]    # OutOfMemoryError: too many layers
    """
    status, name = 10, "ANIMRT_E_NOMEM"


class TimeError(AnimrtError, ValueError):
    """ANIMRT_E_TIME: a tick time that is not finite or is earlier than the last one.

    >>> rt.tick(5); rt.tick(4)    # TimeError: ... earlier than the previous tick
    """
    status, name = 11, "ANIMRT_E_TIME"


class EnumError(AnimrtError, ValueError):
    """ANIMRT_E_ENUM: an unknown enumeration value, listing the valid ones.

    >>> rt.basic("opacity", fill_mode="forward")    # EnumError: ... did you mean 'forwards'?
    """
    status, name = 12, "ANIMRT_E_ENUM"


class VersionError(AnimrtError):
    """ANIMRT_E_VERSION: a plugin built for another plugin ABI version; the message names both.

    >>> rt.load_plugin("libold.so")    # VersionError: ... built for plugin ABI version 0 ... loads version 1
    """
    status, name = 13, "ANIMRT_E_VERSION"


class CallbackError(AnimrtError):
    """ANIMRT_E_CALLBACK: code outside animrt failed: a plugin's init, a function of a plugin or of
    the host, or a Python callable registered as a timing function or function.

    When a Python callable raised, the exception is the ``__cause__``, and it is raised from the
    call that ran the callable (a tick, a send, :meth:`Runtime.call`) once that call has finished,
    on the thread that made it (a tick's also for what its evaluation threads ran), never from a
    call another thread makes meanwhile::

        rt.register_function("canLike", "bool(f64)", lambda n: 1 / 0 > n)
        m.send("tap")    # CallbackError: function 'canLike' raised ZeroDivisionError: division by zero
    """
    status, name = 14, "ANIMRT_E_CALLBACK"


class ClosedError(AnimrtError):
    """The runtime was closed (:meth:`Runtime.close`, or the end of its ``with`` block); no call
    reached the library. :attr:`Runtime.closed` says so beforehand, and every object's
    ``.runtime.closed`` for the runtime it lives in.

    >>> rt.close(); rt.tick(1)    # ClosedError: the runtime is closed (rt.close() has run, ...); check rt.closed ...
    """
    name = "closed"


# ANIMRT_E_BUFFER is BufferTooSmallError: the library returns it only for too small a buffer.
BY_STATUS: Dict[int, Type[AnimrtError]] = {cls.status: cls for cls in (
    NullPointerError, InvalidArgumentError, RangeError, HandleError, NotFoundError, KindError,
    BufferTooSmallError, StateError, ExistsError, OutOfMemoryError, TimeError, EnumError, VersionError, CallbackError)}

#: The C library's parameter names, as the Python binding spells them.
PYTHON_NAMES = {
    "beginTime": "begin_time", "timeOffset": "time_offset", "repeatCount": "repeat_count",
    "repeatDuration": "repeat_duration", "iterationStart": "iteration_start", "endDelay": "end_delay",
    "fromValue": "from_", "toValue": "to", "byValue": "by", "initialVelocity": "initial_velocity",
    "keyTimes": "key_times", "timingFunctions": "timing_functions", "animationDuration": "animation_duration",
    "settlingDuration": "settling_duration", "+inf repeats forever": "math.inf repeats forever",
    "iterationDuration": "iteration_duration", "decelerationRate": "deceleration_rate",
    "restVelocity": "rest_velocity", "dampingRatio": "damping_ratio", "fromPresentation": "from_presentation",
    "animrt_property_define": "Runtime.define_property", "animrt_keypath_id": "Runtime.keypath_id",
    "animrt_transaction_begin": "Runtime.transaction", "animrt_machine_destroy": "Machine.destroy",
    "animrt_keyframe_set_values": "KeyframeAnimation.values", "animrt_definition_register": "Runtime.register_definition",
    "animrt_layer_remove_animation": "Layer.remove_animation",
}
_PATTERN = re.compile("|".join(re.escape(k) for k in sorted(PYTHON_NAMES, key=len, reverse=True)))


def pythonic(message: str) -> str:
    """The library's message with its C parameter names spelt as in Python."""
    return _PATTERN.sub(lambda m: PYTHON_NAMES[m.group(0)], message)


def error_for(status: int, message: str, json_names: bool = False) -> AnimrtError:
    """The exception for a failed call's status and message. With `json_names` (the calls on machine
    definitions and machines) the message keeps its names: they are a definition's JSON keys
    (``repeatCount``) and the author's own names, which Python spelling would misname."""
    return BY_STATUS.get(status, AnimrtError)(message if json_names else pythonic(message), status)
