"""Enumerations and event records of the animrt binding."""
from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import Union


class ValueKind(IntEnum):
    SCALAR = 0
    POINT = 1
    SIZE = 2
    RECT = 3
    COLOR = 4
    TRANSFORM = 5


class FillMode(IntEnum):
    REMOVED = 0
    FORWARDS = 1
    BACKWARDS = 2
    BOTH = 3


class Direction(IntEnum):
    NORMAL = 0
    REVERSE = 1
    ALTERNATE = 2
    ALTERNATE_REVERSE = 3


class CalculationMode(IntEnum):
    LINEAR = 0
    DISCRETE = 1
    PACED = 2
    CUBIC = 3
    CUBIC_PACED = 4


class StopReason(IntEnum):
    FINISHED = 0
    REMOVED = 1
    REPLACED = 2
    LAYER_DESTROYED = 3
    RUNTIME_DESTROYED = 4


@dataclass(frozen=True)
class AnimationStarted:
    """An attached animation entered its active interval."""
    time: float
    layer: int
    instance: int
    animation: int


@dataclass(frozen=True)
class AnimationStopped:
    """An attached animation stopped; `finished` is Core Animation's flag."""
    time: float
    layer: int
    instance: int
    animation: int
    reason: StopReason

    @property
    def finished(self) -> bool:
        return self.reason == StopReason.FINISHED


@dataclass(frozen=True)
class BarrierNotified:
    time: float
    barrier: int
    token: int


@dataclass(frozen=True)
class TransactionCompleted:
    time: float
    transaction: int
    token: int


@dataclass(frozen=True)
class TimerFired:
    time: float
    timer: int
    token: int


@dataclass(frozen=True)
class EventsLost:
    """The event queue was full: `count` events were lost at this point."""
    time: float
    count: int


Event = Union[AnimationStarted, AnimationStopped, BarrierNotified, TransactionCompleted, TimerFired, EventsLost]


def event_from_c(e) -> Event:
    t = e.type
    if t == 1:
        return AnimationStarted(e.time, e.layer, e.object, e.animation)
    if t == 2:
        return AnimationStopped(e.time, e.layer, e.object, e.animation, StopReason(e.reason))
    if t == 3:
        return BarrierNotified(e.time, e.object, e.token)
    if t == 4:
        return TransactionCompleted(e.time, e.object, e.token)
    if t == 5:
        return TimerFired(e.time, e.object, e.token)
    return EventsLost(e.time, e.token)
