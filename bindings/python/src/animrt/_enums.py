"""The enumerations, each member named as its C constant without the prefix.

Options that take one of these accept the member, its int value, or its name
as a string (Core Animation's spelling, which an IDE completes)::

    rt.basic("opacity", to=1, fill_mode="forwards")          # or FillMode.FORWARDS
    rt.keyframe("position.x", [0, 10, 5], calculation_mode="cubicPaced")
"""
from __future__ import annotations

from enum import IntEnum
from typing import Dict, Literal, Union


class _Named(IntEnum):
    """An IntEnum that prints as its name: ``f"{outcome}"`` → ``'SendOutcome.IGNORED'``, not ``'1'``
    (what Python 3.11 made of IntEnum); a format spec formats the number: ``f"{outcome:d}"`` → ``'1'``."""

    def __str__(self) -> str:
        return f"{type(self).__name__}.{self.name}"

    def __format__(self, spec: str) -> str:
        return str(self) if not spec else int.__format__(int(self), spec)


class ValueKind(_Named):
    """What a key path holds (``animrt_value_kind``): ``rt.keypath_info("bounds")`` → ``(ValueKind.RECT, 4)``."""
    SCALAR = 0
    POINT = 1
    SIZE = 2
    RECT = 3
    COLOR = 4
    TRANSFORM = 5


class FillMode(_Named):
    """What an animation shows outside its active interval (``animrt_fill_mode``, Core Animation's fillMode).

    ``rt.basic("opacity", to=0, fill_mode="forwards", removed_on_completion=False)`` holds the last frame.
    """
    REMOVED = 0
    FORWARDS = 1
    BACKWARDS = 2
    BOTH = 3


class Direction(_Named):
    """Web Animations' playback direction (``animrt_direction``): ``direction="alternate"``."""
    NORMAL = 0
    REVERSE = 1
    ALTERNATE = 2
    ALTERNATE_REVERSE = 3


class CalculationMode(_Named):
    """How keyframe values are spread over time (``animrt_calculation_mode``): ``calculation_mode="paced"``."""
    LINEAR = 0
    DISCRETE = 1
    PACED = 2
    CUBIC = 3
    CUBIC_PACED = 4


class SendOutcome(_Named):
    """What happened to an event sent to a machine (``animrt_send_outcome``): ``m.send("tap")`` → ``SendOutcome.TAKEN``.

    A refused event raises :class:`StateError` instead.
    """
    TAKEN = 0
    IGNORED = 1
    STALE = 2
    #: sent from inside the machine's own macrostep (a callback or function): processed after it, with the
    #: same checks; what would have raised then is reported as a ``MachineError`` event
    QUEUED = 3
    #: the event is throttled and its interval runs: the latest one sent is processed when it ends
    THROTTLED = 4


class StopReason(_Named):
    """Why an animation stopped (``animrt_stop_reason``); ``AnimationStopped.finished`` is ``reason is FINISHED``."""
    FINISHED = 0
    REMOVED = 1
    REPLACED = 2
    LAYER_DESTROYED = 3
    RUNTIME_DESTROYED = 4


class Phase(_Named):
    """Web Animations' phases (``animrt_phase``); IDLE while the local time is unresolved.

    ``attached.computed_timing().phase is Phase.ACTIVE`` while it plays.
    """
    BEFORE = 0
    ACTIVE = 1
    AFTER = 2
    IDLE = 3


class Lifecycle(_Named):
    """Which of an attached animation's events were sent (``animrt_lifecycle``): none yet
    (WAITING), its AnimationStarted (STARTED), its AnimationStopped as finished (FINISHED).

    It only moves forwards: ``attached.lifecycle() is Lifecycle.FINISHED`` stays true for an animation
    kept after its end (``removed_on_completion=False``) even when its layer's time turns back.
    """
    WAITING = 0
    STARTED = 1
    FINISHED = 2


class RotationMode(_Named):
    """Core Animation's rotationMode for keyframes along a path (``animrt_rotation_mode``).

    ``rt.keyframe("position", path=[("M", 0, 0), ("L", 100, 50)], rotation_mode="auto")`` turns the layer
    to the path's tangent; AUTO_REVERSE to the tangent plus 180°.
    """
    NONE = 0
    AUTO = 1
    AUTO_REVERSE = 2


FillModeName = Literal["removed", "forwards", "backwards", "both"]
RotationModeName = Literal["none", "auto", "autoReverse"]
RotationModeLike = Union[RotationMode, RotationModeName]
ROTATION_MODES: Dict[str, RotationMode] = {"none": RotationMode.NONE, "auto": RotationMode.AUTO,
                                           "autoReverse": RotationMode.AUTO_REVERSE}
DirectionName = Literal["normal", "reverse", "alternate", "alternate-reverse"]
CalculationModeName = Literal["linear", "discrete", "paced", "cubic", "cubicPaced"]
ValueKindName = Literal["scalar", "point", "size", "rect", "color", "transform"]

FillModeLike = Union[FillMode, FillModeName]
DirectionLike = Union[Direction, DirectionName]
CalculationModeLike = Union[CalculationMode, CalculationModeName]
ValueKindLike = Union[ValueKind, ValueKindName]

FILL_MODES: Dict[str, FillMode] = {"removed": FillMode.REMOVED, "forwards": FillMode.FORWARDS,
                                   "backwards": FillMode.BACKWARDS, "both": FillMode.BOTH}
DIRECTIONS: Dict[str, Direction] = {"normal": Direction.NORMAL, "reverse": Direction.REVERSE,
                                    "alternate": Direction.ALTERNATE,
                                    "alternate-reverse": Direction.ALTERNATE_REVERSE}
CALCULATION_MODES: Dict[str, CalculationMode] = {
    "linear": CalculationMode.LINEAR, "discrete": CalculationMode.DISCRETE, "paced": CalculationMode.PACED,
    "cubic": CalculationMode.CUBIC, "cubicPaced": CalculationMode.CUBIC_PACED}
VALUE_KINDS: Dict[str, ValueKind] = {"scalar": ValueKind.SCALAR, "point": ValueKind.POINT, "size": ValueKind.SIZE,
                                     "rect": ValueKind.RECT, "color": ValueKind.COLOR,
                                     "transform": ValueKind.TRANSFORM}
