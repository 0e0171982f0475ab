"""The events a runtime reports, as immutable records holding the program's own objects.

Each class is named after its C event type (``ANIMRT_EVENT_TIMER_FIRED`` →
:class:`TimerFired`). Where the C ``animrt_event`` has one generic ``object``
field, each record names it by what it is: ``attached``, ``barrier``,
``transaction`` or ``timer``. Match on the class::

    for event in rt.events():
        if isinstance(event, animrt.AnimationStopped) and event.layer is toast and event.finished:
            print(f"{event.key} finished at {event.time:.2f}")
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Dict, Optional, Union

from ._enums import StopReason

if TYPE_CHECKING:
    from ._animation import Animation
    from ._barrier import Barrier
    from ._layer import AttachedAnimation, Layer
    from ._machine import Machine
    from ._timer import Timer
    from ._transaction import Transaction

# The C event types (animrt_event_type).
ANIMATION_STARTED, ANIMATION_STOPPED, BARRIER_NOTIFIED, TRANSACTION_COMPLETED, TIMER_FIRED, OVERFLOW = 1, 2, 3, 4, 5, 6
MACHINE_STATE, MACHINE_EMITTED, MACHINE_REQUEST, MACHINE_STALE, MACHINE_ERROR = 7, 8, 9, 10, 11

#: The values a machine reports, by field name: a number, a boolean or a string. A number field
#: declared whole (``"integer": true``) is an int, any other a float.
Payload = Dict[str, Union[int, float, bool, str]]


@dataclass(frozen=True)
class AnimationStarted:
    """An attached animation entered its active interval (``ANIMRT_EVENT_ANIMATION_STARTED``).

    ``layer`` and ``animation`` are the objects the program created;
    ``attached`` is what :meth:`Layer.add_animation` returned.
    """
    time: float
    layer: Layer
    animation: Animation = field(repr=False)  # the attached animation's repr names it by key
    attached: AttachedAnimation

    @property
    def key(self) -> Optional[str]:
        """The key the animation was added under (None: anonymous): ``if event.key == "in": ...``."""
        return self.attached.key


@dataclass(frozen=True)
class AnimationStopped:
    """An attached animation stopped (``ANIMRT_EVENT_ANIMATION_STOPPED``); it reports this once.

    ``finished`` is Core Animation's flag: True when it reached its end,
    False when it was removed, replaced or its layer destroyed (``reason``).
    """
    time: float
    layer: Layer
    animation: Animation = field(repr=False)  # the attached animation's repr names it by key
    attached: AttachedAnimation
    reason: StopReason

    @property
    def finished(self) -> bool:
        """True when the animation reached its end (``reason is StopReason.FINISHED``)."""
        return self.reason == StopReason.FINISHED

    @property
    def key(self) -> Optional[str]:
        """The key the animation was added under (None: anonymous): ``if event.key == "out": ...``."""
        return self.attached.key


@dataclass(frozen=True)
class BarrierNotified:
    """A barrier's count returned to zero and ``barrier.notify(token)`` fired (``ANIMRT_EVENT_BARRIER_NOTIFIED``).

    A notification given as a callable runs instead of being reported.
    """
    time: float
    barrier: Barrier
    token: int


@dataclass(frozen=True)
class TransactionCompleted:
    """Every animation added in the transaction has stopped (``ANIMRT_EVENT_TRANSACTION_COMPLETED``).

    ``transaction`` is the object ``rt.transaction()`` returned; a
    transaction with ``on_complete`` runs it instead of being reported.
    """
    time: float
    transaction: Transaction
    token: int


@dataclass(frozen=True)
class TimerFired:
    """A timer's time came (``ANIMRT_EVENT_TIMER_FIRED``).

    A timer started with a callback runs it instead of being reported:
    ``rt.start_timer(0.5, token=42)`` reports ``TimerFired(time=0.5, timer=<Timer token=42 fired 0x…>, token=42)``.
    """
    time: float
    timer: Timer
    token: int


@dataclass(frozen=True)
class Overflow:
    """The event queue was full (``ANIMRT_EVENT_OVERFLOW``): ``lost`` events after ``time`` were dropped.

    Raise ``Runtime(event_capacity=…)``, or drain events every tick.
    """
    time: float
    lost: int


class _MachineEvent:
    """What the events of machines share: a repr that shows the machine without its live state.

    The event is printed (or logged) later than it happened, when the machine
    may have moved on: ``StateChanged(to_state='ready')`` beside
    ``machine=<… state='loading.preparing'>`` would contradict itself.
    ``from_state`` and ``to_state`` carry the states the event is about.
    """

    machine: Machine

    def __repr__(self) -> str:
        shown = ", ".join(f"{f.name}={self.machine._repr(live=False) if f.name == 'machine' else repr(getattr(self, f.name))}"
                          for f in fields(self) if f.repr)  # type: ignore[arg-type]
        return f"{type(self).__name__}({shown})"


@dataclass(frozen=True, repr=False)
class StateChanged(_MachineEvent):
    """A machine changed state (``ANIMRT_EVENT_MACHINE_STATE``): ``from_state`` (None at creation) →
    ``to_state``, full names, with the new state's associated values::

        StateChanged(time=0.4, machine=<Machine 0x… progressCard>, from_state='loading', to_state='ready',
                     values={'progress': 0.35})
    """
    time: float
    machine: Machine
    from_state: Optional[str]
    to_state: str
    values: Payload


@dataclass(frozen=True, repr=False)
class Emitted(_MachineEvent):
    """A machine emitted an event to the host (``ANIMRT_EVENT_MACHINE_EMITTED``):
    ``if event.name == "celebrate": confetti(event.payload["progress"])``."""
    time: float
    machine: Machine
    name: str
    payload: Payload


@dataclass(frozen=True, repr=False)
class RequestIssued(_MachineEvent):
    """A machine asks the host to perform request ``name`` (``ANIMRT_EVENT_MACHINE_REQUEST``); its
    result must carry ``id``: ``m.send("fetched", request=event.id, progress=0.5)``."""
    time: float
    machine: Machine
    name: str
    id: int
    payload: Payload


@dataclass(frozen=True, repr=False)
class StaleResult(_MachineEvent):
    """A result carried request ``id``, not the latest: it was not processed
    (``ANIMRT_EVENT_MACHINE_STALE``); ``payload`` is what was sent, its ``request`` the int ``id``
    (as :attr:`RequestIssued.id` is; other numbers are floats, or ints for fields declared ``"integer": true``): ``log.info("late %s", event.id)``."""
    time: float
    machine: Machine
    event: str
    id: int
    payload: Payload


@dataclass(frozen=True, repr=False)
class MachineError(_MachineEvent):
    """An action or guard of a machine failed, or an event it sent itself was dropped
    (``ANIMRT_EVENT_MACHINE_ERROR``); ``event`` is the event being processed (None: none):
    ``print(event.message)``."""
    time: float
    machine: Machine
    event: Optional[str]
    message: str


Event = Union[AnimationStarted, AnimationStopped, BarrierNotified, TransactionCompleted, TimerFired, Overflow,
              StateChanged, Emitted, RequestIssued, StaleResult, MachineError]
"""Any event; narrow it with ``isinstance`` (or ``match``)."""
