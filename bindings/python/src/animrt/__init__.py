"""animrt: Core Animation's timing model, completion barriers and timers for any program.

The program owns the clock and draws; animrt says what is on screen at each
tick and tells the program when things finish::

    import animrt

    with animrt.Runtime() as rt:
        toast = rt.layer()
        toast["position.y"] = 60.0
        toast.add_animation(rt.spring("position.y", from_=-40, to=60, damping=12, stiffness=180), key="in")
        for frame in range(40):
            rt.tick(frame / 30)
            y = toast.presentation("position.y")        # draw the toast at y

Start from :class:`Runtime`; its methods make everything else. The names
follow the C API (``animrt_layer_add_animation`` → ``layer.add_animation``)
and Core Animation (``repeatCount`` → ``repeat_count``); docs/names.md lists
them side by side.

What happened comes back as events, ``rt.events()`` after a tick
(:class:`AnimationStopped` with its ``finished``), or to callables the program
hands over (``add_animation(…, on_finish=fn)``, ``barrier.notify(fn)``).
State machines, the shipped ones by name and the program's own from JSON,
run on the same clock (docs/machines.md)::

    button = rt.machine(rt.definition(named="networkButton"))   # the loading button
    button.send("tap")                                          # SendOutcome.TAKEN
"""
from ._animation import (Animation, AnimationGroup, AnimationOptions, BasicAnimation, DecayAnimation,
                         KeyframeAnimation, MediaTimingOptions, PathElementLike, SpringAnimation, SpringOptions,
                         TimingFunctionLike, TimingOptions)
from ._barrier import Barrier
from ._enums import (CalculationMode, CalculationModeLike, CalculationModeName, Direction, DirectionLike,
                     DirectionName, FillMode, FillModeLike, FillModeName, Lifecycle, Phase, RotationMode, RotationModeLike,
                     RotationModeName, SendOutcome, StopReason, ValueKind, ValueKindLike, ValueKindName)
from ._errors import (AnimrtError, ArgumentTypeError, BufferSizeError, BufferTooSmallError, CallbackError, ClosedError,
                      EnumError, ExistsError, HandleError, InvalidArgumentError, KindError, NotFoundError,
                      NullPointerError, OutOfMemoryError, RangeError, StateError, TimeError, VersionError)
from ._events import (AnimationStarted, AnimationStopped, BarrierNotified, Emitted, Event, MachineError, Overflow,
                      Payload, RequestIssued, StaleResult, StateChanged, TimerFired, TransactionCompleted)
from ._ffi import VERSION_MAJOR, VERSION_MINOR, VERSION_PATCH, LibraryNotFound
from ._ffi import lib as _lib
from ._layer import AnimationCopy, AttachedAnimation, ComputedTiming, Layer, LayerTimingOptions, ReadBack
from ._machine import ConfigValue, Context, Definition, Machine, MachineValue, UnknownFieldError
from ._plugins import CValue, Function, Plugin
from ._reader import Reader
from ._runtime import Runtime
from ._timer import Timer
from ._transaction import Transaction
from ._values import (Color, PairKeyPath, Point, Property, QuadKeyPath, Rect, ScalarKeyPath, Size, Transform,
                      TransformKeyPath, Value, ValueLike)

__version__ = f"{VERSION_MAJOR}.{VERSION_MINOR}.{VERSION_PATCH}"


def library_version() -> str:
    """The loaded libanimrt's version string (``animrt_version_string``): ``animrt.library_version()`` → '0.3.0'."""
    version: bytes = _lib.animrt_version_string()
    return version.decode()


__all__ = [
    # the runtime and what it makes
    "Runtime", "Layer", "AttachedAnimation", "AnimationCopy", "ReadBack", "Animation", "BasicAnimation", "SpringAnimation", "KeyframeAnimation",
    "DecayAnimation", "AnimationGroup", "Barrier", "Transaction", "Timer", "Reader", "Property", "ComputedTiming",
    # machines
    "Definition", "Machine", "Context", "MachineValue", "ConfigValue", "SendOutcome", "Payload",
    # extending: plugins, bound and registered functions
    "Plugin", "Function", "CValue",
    # events
    "Event", "AnimationStarted", "AnimationStopped", "BarrierNotified", "TransactionCompleted", "TimerFired",
    "Overflow", "StateChanged", "Emitted", "RequestIssued", "StaleResult", "MachineError",
    # enumerations and option types
    "ValueKind", "FillMode", "Direction", "CalculationMode", "StopReason", "Phase", "Lifecycle", "RotationMode", "TimingOptions",
    "AnimationOptions", "SpringOptions", "MediaTimingOptions", "LayerTimingOptions", "TimingFunctionLike", "PathElementLike",
    "FillModeLike", "FillModeName", "DirectionLike", "DirectionName", "CalculationModeLike", "CalculationModeName",
    "RotationModeLike", "RotationModeName", "ValueKindLike", "ValueKindName",
    # values
    "Value", "ValueLike", "Point", "Size", "Rect", "Color", "Transform", "ScalarKeyPath", "PairKeyPath",
    "QuadKeyPath", "TransformKeyPath",
    # errors
    "AnimrtError", "ArgumentTypeError", "BufferSizeError", "BufferTooSmallError", "ClosedError", "EnumError", "ExistsError",
    "HandleError", "InvalidArgumentError", "KindError", "NotFoundError", "NullPointerError", "OutOfMemoryError",
    "RangeError", "StateError", "TimeError", "VersionError", "CallbackError", "LibraryNotFound", "UnknownFieldError",
    # versions
    "library_version", "VERSION_MAJOR", "VERSION_MINOR", "VERSION_PATCH",
]
