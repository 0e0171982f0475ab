"""animrt: Core Animation's timing model and completion barriers for any host.

    import animrt
    with animrt.Runtime() as rt:
        layer = rt.layer()
        layer.add(rt.basic("opacity", from_=0.0, to=1.0, duration=2.0))
        rt.tick(0.0); rt.tick(1.0)
        layer.presentation("opacity")   # 0.5
"""
from ._errors import (AnimrtError, BufferTooSmallError, ClosedError, EnumError, ExistsError, HandleError,
                      InvalidArgumentError, KindError, NotFoundError, NullPointerError, OutOfMemoryError,
                      RangeError, StateError, TimeError)
from ._ffi import VERSION_MAJOR, VERSION_MINOR, VERSION_PATCH, LibraryNotFound, lib as _lib
from ._runtime import (Animation, AnimationGroup, Barrier, BasicAnimation, KeyframeAnimation, Layer, Reader,
                       Runtime, SpringAnimation, Timer, Transaction)
from ._types import (AnimationStarted, AnimationStopped, BarrierNotified, CalculationMode, Direction, Event,
                     EventsLost, FillMode, StopReason, TimerFired, TransactionCompleted, ValueKind)

__version__ = f"{VERSION_MAJOR}.{VERSION_MINOR}.{VERSION_PATCH}"


def library_version() -> str:
    """The loaded libanimrt's version string."""
    return _lib.animrt_version_string().decode()


__all__ = [
    "AnimrtError", "BufferTooSmallError", "ClosedError", "EnumError", "ExistsError", "HandleError",
    "InvalidArgumentError", "KindError", "NotFoundError", "NullPointerError", "OutOfMemoryError", "RangeError",
    "StateError", "TimeError", "LibraryNotFound", "Animation", "AnimationGroup", "Barrier", "BasicAnimation",
    "KeyframeAnimation", "Layer", "Reader", "Runtime", "SpringAnimation", "Timer", "Transaction",
    "AnimationStarted", "AnimationStopped", "BarrierNotified", "CalculationMode", "Direction", "Event",
    "EventsLost", "FillMode", "StopReason", "TimerFired", "TransactionCompleted", "ValueKind", "library_version",
]
