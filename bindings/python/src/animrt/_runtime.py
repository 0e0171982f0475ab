"""The runtime: the host-driven clock, the factories, and the delivery of events.

Everything the runtime reports is delivered at the end of :meth:`Runtime.tick`,
on the ticking thread, in the order it happened: completion callables run
(``barrier.notify(fn)``, ``rt.transaction(on_complete=fn)``,
``rt.start_timer(delay, fn)``, ``layer.add_animation(a, on_finish=fn)``), the ``on_event`` handler is called, or events
are kept for :meth:`Runtime.events`. Events that calls between ticks cause (a
notify on an idle barrier, an empty transaction) wait for the next tick, as
they do in C with an event callback.
"""
from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import re
import struct
import sys
import threading
import warnings
import weakref
from collections import deque
import os
from array import array
from ctypes import POINTER, byref, c_double, c_int, c_int32, c_size_t, c_uint64, c_void_p, cast, sizeof, string_at
from typing import (TYPE_CHECKING, Any, Callable, Container, ContextManager, Deque, Dict, Iterable, Iterator, List, Mapping, Optional,
                    Sequence, Set, Tuple, TypeVar, Union, overload)

from . import _arguments as check
from . import _bulk
from . import _events as ev
from ._animation import AnimationGroup, BasicAnimation, DecayAnimation, KeyframeAnimation, SpringAnimation, _segment_curve
from ._barrier import Barrier
from ._bulk import ColumnLike, LayersLike
from . import _callbacks
from ._callbacks import add_note, first_of
from ._enums import (VALUE_KINDS, CalculationModeLike, Lifecycle, RotationModeLike, StopReason, ValueKind,
                     ValueKindLike)
from ._errors import AnimrtError, ArgumentTypeError, CallbackError, ClosedError, HandleError, StateError
from ._ffi import EVENT_FN, Value, lib
from ._ffi import Event as CEvent
from ._layer import AttachedAnimation, Layer
from ._machine import ConfigValue, Definition, Machine, decode_value, load_definition, name_in, restore_call, to_json
from ._object import CLOSED, Native, Object, Suggests, Uncopied
from . import _plugins
from ._plugins import CValue, Function, PathLike, Plugin
from ._reader import Reader
from ._timer import Timer
from ._transaction import Transaction
from ._values import KeyPathInfo, Point, Property, Rect, ValueLike, components, flatten

if TYPE_CHECKING:
    if sys.version_info >= (3, 11):
        from typing import Unpack
    else:  # typing gained Unpack in 3.11; type checkers ship typing_extensions, and it is never imported at run time
        from typing_extensions import Unpack

    from ._animation import Animation, AnimationOptions, PathElementLike, SpringOptions, TimingOptions

Handler = Callable[[ev.Event], object]
F = TypeVar("F", bound=Callable[..., Any])
#: an event's fields; a machine event's last is its payload's values, read at the poll (`_with_payloads`)
_Fields = Tuple[Any, ...]

#: animrt_event as stored by the library: type, reason, time, layer, object, animation, token,
#: name, from_state, to_state, payload_count, payload (a pointer, valid until the next poll)
_EVENTS = struct.Struct("=iidQQQQiiiIQ")
_EVENT_SIZE = _EVENTS.size
assert _EVENT_SIZE == sizeof(CEvent)
_TYPE_BYTE = 0 if sys.byteorder == "little" else 3  # the type's low byte, which holds all of it
_POLL = 1024


def _has_machine_events(raw: bytes) -> bool:
    """Whether a run of events holds machine events, whose payloads must be read before the next poll."""
    return any(t >= ev.MACHINE_STATE for t in raw[_TYPE_BYTE::_EVENT_SIZE])


def _with_payloads(raw: bytes) -> List[_Fields]:
    """The fields of each event of `raw`, a machine event's payload pointer replaced by the values it
    points to. The library owns them until the next poll, or until the runtime is destroyed: they are
    read at the poll, while it counts as a call that close() on another thread waits for, and not as
    the events are delivered, by when a callable may have had another thread close the runtime."""
    out: List[_Fields] = []
    for fields in _EVENTS.iter_unpack(raw):
        if fields[0] >= ev.MACHINE_STATE:
            count, payload = fields[10], fields[11]
            values = [decode_value(v) for v in cast(payload, POINTER(Value))[:count]] if count else []
            fields = fields[:11] + (values,)
        out.append(fields)
    return out
_FIRST_CALLABLE_TOKEN = 2 ** 63


class _Taken:
    """One poll's events on their way into the binding's hands: copied out of the poll buffer (a
    machine event's payload read while the library still owns it), then handed on to a `_Batch` or
    kept. Ctrl-C lands between two steps of the main thread, so it can land after the library gave
    the events up and before they are handed on: `_deliver_polled` then leaves them in
    `Runtime._unhanded`, and the next delivery hands them on before it polls again."""

    __slots__ = ("raw", "count", "machines", "handed", "queued")

    def __init__(self, buffer: Any, count: int) -> None:
        self.raw = string_at(buffer, count * _EVENT_SIZE) if count else b""
        self.count = count
        self.machines = _with_payloads(self.raw) if count and _has_machine_events(self.raw) else None
        #: set just before the step that hands them on: no check for a signal comes between the two
        self.handed = False
        #: waiting in `Runtime._unhanded`
        self.queued = False


class _Batch:
    """Events polled at once and being delivered: their iterator (shared by a `close()` made from a
    callable, which delivers the rest first), how many, and what an overflow among them lost."""

    __slots__ = ("items", "count", "lost", "ended", "fired")

    def __init__(self, items: Iterator[Tuple[Any, ...]], count: int, lost: List[int], ended: Set[int],
                 fired: List[Timer]) -> None:
        self.items, self.count, self.lost, self.ended, self.fired = items, count, lost, ended, fired


def _destroy_runtime(native: Native, on_destroy: "List[weakref.WeakMethod[Callable[[CEvent], None]]]") -> None:
    """Destroys the C runtime once; `on_destroy` (if set, and its runtime still alive) receives its last events."""
    ptr = native.take_for_destroy()
    if ptr is None:
        return
    _callbacks.forget(_callbacks.key(ptr))
    if native.tracing:
        # Not close(), which stopped the trace and raised what the stop said, but the collector or
        # the interpreter's exit: the library's destroy would close an incomplete trace without a word.
        native.tracing = False
        if lib.animrt_trace_stop.unchecked(ptr) != 0:
            warnings.warn("a Runtime was destroyed without close() while it recorded a trace, which is incomplete: "
                          + lib.animrt_last_error_message().decode("utf-8", "replace"), ResourceWarning)
    receive = on_destroy[0]() if on_destroy else None
    if receive is not None:
        deliver = receive
        trampoline = EVENT_FN(lambda _user, event: deliver(event.contents))
        lib.animrt_event_set_callback(ptr, trampoline, None)
        lib.animrt_runtime_destroy(ptr)
        owner = getattr(receive, "__self__", None)
        if owner is not None and not owner._closing:
            # Not close() (which raises it), but the interpreter's exit closing a runtime still open:
            # what an on_finish or the handler raised is raised here, and printed by the exit as any
            # exception of a finalizer is (sys.excepthook), not lost without a word.
            error, owner._close_error = owner._close_error, None
            if isinstance(error, Exception):
                raise error  # the exit's finalizer loop prints it and goes on to the next
            if error is not None:
                # Ctrl-C or sys.exit() raised out of a finalizer would end the loop, and the
                # finalizers after it (other runtimes, other libraries) would never run: printed.
                sys.excepthook(type(error), error, error.__traceback__)
    else:
        lib.animrt_runtime_destroy(ptr)
        if native.waiting:
            # Collected without close(): the on_finish callables are not called, as the finalizer
            # cannot hold them (they refer to the runtime's objects and would keep it alive) and
            # they would run on whatever thread the collector runs on. Said, as an unclosed file is.
            one = native.waiting == 1
            warnings.warn(f"a Runtime was garbage-collected without close() while "
                          f"{check.counted(native.waiting, 'on_finish callable')} waited for {'its' if one else 'their'} "
                          f"animation's stop: {'it is' if one else 'they are'} never called; close the runtime (or use "
                          f"it in a with block) to have {'it' if one else 'them'} called with False", ResourceWarning)


def _check_snapshot(snapshot: object) -> None:
    """Refuses what rt.restore() is given as a snapshot when it is what a snapshot is made from, or
    comes with: a definition (the arguments the other way round), a machine, or its snapshot method."""
    if isinstance(snapshot, Definition):
        raise ArgumentTypeError("rt.restore() got the definition first: the snapshot comes first, then the "
                                "definition, rt.restore(snapshot, definition)")
    if isinstance(snapshot, Machine):
        raise ArgumentTypeError(f"snapshot is {check.describe(snapshot)}; a snapshot is the JSON text a machine "
                                "writes of itself: rt.restore(machine.snapshot(), machine.definition)")
    if isinstance(getattr(snapshot, "__self__", None), Machine):  # a bound method of a machine
        if getattr(snapshot, "__func__", None) is Machine.snapshot:  # the snapshot method, not called
            raise ArgumentTypeError("snapshot is the method machine.snapshot, not what it returns: call it, "
                                    "rt.restore(machine.snapshot(), definition)")
        raise ArgumentTypeError(f"snapshot is the method machine.{getattr(snapshot, '__name__', '?')}; a snapshot "
                                "is the JSON text machine.snapshot() returns: rt.restore(machine.snapshot(), definition)")


def _definition_required(restore: F) -> F:
    """Has rt.restore(snapshot) without the definition show the call that works, where Python would
    raise a bare "missing 1 required positional argument". The signature help() and type checkers
    see is restore's own: `definition` stays required."""
    @functools.wraps(restore)
    def checked(self: Runtime, *args: Any, **kwargs: Any) -> Any:
        if len(args) + ("snapshot" in kwargs) == 1 and "definition" not in kwargs:
            snapshot = args[0] if args else kwargs["snapshot"]
            _check_snapshot(snapshot)
            if not isinstance(snapshot, str):
                raise ArgumentTypeError(f"rt.restore() got {check.describe(snapshot)} and no definition; it "
                                        "takes the JSON text machine.snapshot() returns and the definition it was "
                                        "taken from: rt.restore(machine.snapshot(), machine.definition)")
            raise ArgumentTypeError("rt.restore() needs the definition the snapshot was taken from, which names its "
                                    f"states, events and fields: {restore_call(self, snapshot)}")
        return restore(self, *args, **kwargs)
    return checked  # type: ignore[return-value]


#: The words C and Core Animation put around the name of what a runtime's method makes
#: (``animrt_barrier_create``, ``CABasicAnimation``), and the methods named after it.
_MAKING = frozenset(("create", "make", "new", "animation", "ca"))
_FACTORIES = frozenset(("basic", "spring", "keyframe", "decay", "group", "barrier", "transaction", "reader",
                        "definition", "machine"))


class Runtime(Suggests, Uncopied):
    """An animrt runtime (``animrt_runtime_create``): layers, animations, barriers, timers, and the clock.

    The program owns the clock: :meth:`tick` advances it, and nothing moves
    between ticks. Use the runtime as a context manager, or call :meth:`close`;
    it is also closed when garbage-collected. Objects made from it keep it
    alive::

        with animrt.Runtime() as rt:
            toast = rt.layer()
            toast.add_animation(rt.basic("opacity", from_=0, to=1, duration=0.3))
            for frame in range(10):
                rt.tick(frame / 30)
                draw(toast.presentation("opacity"))

    `event_capacity` bounds the events kept between ticks (0: 65,536; 1 holds 2;
    the last slot is kept for the overflow notice, so 4 keeps 3 events; past it
    they are counted and reported as one :class:`Overflow`); `threads` lets
    large batches of animations be evaluated on that many threads (0: one per
    processor) with the same results.
    """

    def _copy_hint(self) -> str:
        return "make another with animrt.Runtime(); a machine moves to it with rt.restore(machine.snapshot(), ...)"

    @check.keywords("animrt.Runtime()")
    def __init__(self, *, event_capacity: int = 0, threads: int = 1) -> None:
        capacity = check.integer(event_capacity, "event_capacity", 0, 2 ** 32 - 1)
        threads = check.integer(threads, "threads", 0, 2 ** 32 - 1)
        ptr = c_void_p()
        lib.animrt_runtime_create(capacity, byref(ptr))
        self._native = Native(ptr)
        #: calls ``fn(runtime pointer, *args)``: every call into the library goes through it (`Native.call`)
        self._call = self._native.call
        # weak: the finalizer must not keep the runtime alive
        self._on_destroy: "List[weakref.WeakMethod[Callable[[CEvent], None]]]" = []
        self._finalizer = weakref.finalize(self, _destroy_runtime, self._native, self._on_destroy)
        if threads != 1:
            lib.animrt_runtime_set_threads(ptr, threads)
            self._native.threaded = True
        # as the library's queue: 0 is 65,536 and a capacity below 2 holds 2 (one event and the notice)
        self._capacity = max(capacity or 65536, 2)
        self._keypaths: Dict[str, KeyPathInfo] = {}
        #: handle -> the Python object made for it (weak: identity while the program holds it)
        self._objects: "weakref.WeakValueDictionary[int, Object]" = weakref.WeakValueDictionary()
        #: attached animations until their stop is reported (they hold their layer and description)
        self._attached: Dict[int, AttachedAnimation] = {}
        #: on_finish callables of attached animations, by handle, until their stop is delivered
        self._finishing: Dict[int, Callable[[bool], object]] = {}
        #: futures of the tasks awaiting attached.wait(), by handle, until its stop is delivered
        self._awaiting: "Dict[int, List[asyncio.Future[bool]]]" = {}
        #: taken to record a stop (`_stopped`) and to start waiting for one (`_await_stop`): one
        #: thread's tick may deliver the stop as another's task starts to await it; and likewise for
        #: machines' states (`_state_changed`, `_await_state`)
        self._stop_lock = threading.Lock()
        #: the tasks awaiting Machine.wait_for, by machine handle: the machine, the states awaited
        #: and the future, until a tick delivers one of them, or the machine's end
        self._state_waits: "Dict[int, List[Tuple[Machine, Tuple[str, ...], asyncio.Future[str]]]]" = {}
        #: the first exception a callable raised while close() delivered the last stops
        self._close_error: Optional[BaseException] = None
        #: set by close() as it destroys the runtime; else the interpreter's exit does (see _destroy_runtime)
        self._closing = False
        #: callable notifications by token, with their barrier (kept alive until they fire)
        self._notifications: Dict[int, Tuple[Barrier, Callable[[], object]]] = {}
        #: the tokens of those whose event the library has queued already (destroying the barrier keeps them)
        self._due_notifications: Set[int] = set()
        #: barriers with token notifications pending: (barrier, how many)
        self._waiting: Dict[int, Tuple[Barrier, int]] = {}
        #: timers and transactions with callables, until they fire
        self._timers: Dict[int, Timer] = {}
        self._transactions: Dict[int, Transaction] = {}
        #: machines until destroyed (their events name states and fields through their definition)
        self._machines: Dict[int, Machine] = {}
        #: held while a machine is made and registered, an animation added and tracked, and while events
        #: are polled: made on one thread as another ticks, they are registered before their first
        #: events are polled
        self._making = threading.RLock()
        #: destroyed machines, until the events they reported before are delivered (named through them)
        self._gone_machines: Dict[int, Machine] = {}
        self._next_token = _FIRST_CALLABLE_TOKEN
        self._handler: Optional[Handler] = None
        #: delivered events not read yet: decoded events, or runs of undecoded ones (bytes)
        self._kept: Deque[Union[ev.Event, bytes]] = deque()
        self._kept_count = 0
        self._lost = 0
        self._lost_at = 0.0
        #: taken to keep events (and count those lost) and to take them in events(): a thread may read
        #: them as another's tick keeps more
        self._kept_lock = threading.Lock()
        #: attached animations close() found finished (still attached), for the callables of lost stops
        self._ended_at_close: Set[int] = set()
        self._poll_buffer = (CEvent * _POLL)()
        #: C trampolines of Python timing functions and functions: alive as long as the runtime
        self._extensions: List[Any] = []
        self._result_buffer: Optional[Any] = None
        self._drain_lock = threading.Lock()
        self._drainer: Optional[int] = None
        self._more = False
        #: the batch of events being delivered (see `_deliver_queued`)
        self._batch: Optional[_Batch] = None
        #: events polled that Ctrl-C kept from being handed on, oldest first (see `_Taken`)
        self._unhanded: Deque[_Taken] = deque()
        self._closing_in_drain = False

    # -- lifetime ------------------------------------------------------------
    @property
    def _ptr(self) -> c_void_p:
        ptr = self._native.ptr
        if ptr is None:
            return self._native.get()
        return ptr

    @property
    def closed(self) -> bool:
        """True once :meth:`close` has started (the ``on_finish`` callables it runs see True) or the
        ``with`` block has ended: from then on every call on the runtime or its objects raises
        :class:`ClosedError`. ``if not rt.closed: rt.tick(now)``; for an object,
        ``layer.runtime.closed``."""
        return self._native.ptr is None

    def _hint(self, name: str, reading: bool = False) -> str:
        """The names other animation libraries give the clock, and the names C and Core Animation give
        what the runtime's methods make (``create_barrier``, ``basic_animation``, ``create_layer``):
        spelt close to another method (``create_layers``, ``add_animations``), they would be taken for it."""
        if name in ("now", "clock", "current_time", "elapsed"):
            return "; the runtime's time is rt.time, moved by rt.tick(t)"
        if name in ("update", "step", "advance", "frame", "run"):
            return "; the clock moves with rt.tick(t), t the time in seconds, and nothing moves between ticks"
        if name in ("timer", "after", "delay", "schedule", "set_timeout", "call_later", "add_timer"):
            return "; a timer starts with rt.start_timer(delay, fn): fn runs at the first tick at or past the delay"
        words = [w.lower() for w in re.findall(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])", name)]
        made = [w for w in words if w not in _MAKING]
        if len(made) == len(words):
            return ""
        if not made and "animation" in words:
            return ("; an animation is made by its kind: rt.basic(key_path, …), rt.spring(…), rt.keyframe(…), "
                    "rt.decay(…) or rt.group([…])")
        if made == ["timer"]:
            return self._hint("timer")
        if made == ["layer"]:  # one layer, as C's animrt_layer_create makes: the bulk call returns handles
            return "; did you mean 'layer'? (rt.layer(parent=None) makes one; rt.create_layers(n) n at once, as handles)"
        if len(made) == 1 and made[0] in _FACTORIES:
            return f"; did you mean {made[0]!r}?"
        return ""

    def close(self) -> None:
        """Destroys the runtime and everything in it (``animrt_runtime_destroy``). Idempotent.

        Animations still attached stop with ``StopReason.RUNTIME_DESTROYED``;
        an ``on_event`` handler receives those last events, and the animations'
        ``on_finish`` callables run (with False), before this returns; if one of
        them or the handler raises, the rest still run and this raises the first
        exception (noted with the animation or event it ran for), a note naming each later one, once the
        runtime is gone (leaving a ``with`` block on an
        exception of its own, that one is raised, with a note naming the
        callable's). Other pending completion
        callables (barriers, transactions, timers) never run. A trace still being
        recorded is stopped first (:meth:`stop_trace`); if its file could not
        take every call, the :class:`NotFoundError` saying so is raised once the
        runtime is gone.

        Closed from a handler or callable of a tick's events, the rest of that tick's
        events are delivered first, in their order, then the runtime's last ones
        (its completion callables do not run).

        Calls other threads are making when ``close()`` starts return first (it
        waits for them); their later calls raise :class:`ClosedError`. Closing
        from inside a call (a timing function the tick runs, an argument's
        ``__float__``) raises :class:`StateError`.

        A runtime garbage-collected without ``close()`` calls no ``on_finish``
        callable (the collector may run on any thread, and they usually refer
        to the runtime's own objects); if some were waiting, it warns with
        ``ResourceWarning``, as an unclosed file does. One still open when the
        interpreter exits is closed then, as ``close()`` would close it (its
        ``on_finish`` callables run with False, the handler gets the last
        events); what they raise is printed then (``sys.excepthook``), as
        nothing is left to raise it to.
        """
        ptr = self._native.ptr
        if ptr is not None and _callbacks.running_inside(_callbacks.key(ptr)):
            # The library refuses to be destroyed in the middle of its own call (and says so to no
            # one: destroy returns nothing): closed here, it would be left running, unreachable.
            raise StateError("close() from inside a timing function or function the runtime is running; "
                             "close it once the call that runs the function has returned")
        if self._native.calling():
            # Inside a call into the library on this thread (an argument's __float__, say): that call
            # would go on with the pointer of a runtime already freed.
            raise StateError("close() from inside a call into the runtime (converting one of its arguments); "
                             "close it once that call has returned")
        if self._drainer == threading.get_ident() and not self.closed and not self._closing_in_drain:
            # From a callable of a tick's events: the rest of them come first, in their order (an
            # animation's start before its stop), then the runtime's last events.
            self._closing_in_drain = True
            try:
                self._close_error = first_of(self._close_error, self._deliver_queued())
            finally:
                self._closing_in_drain = False
        elif self._unhanded and not self.closed:
            # Events of a tick that Ctrl-C held back on their way over (see `_Taken`): delivered first,
            # as the next tick would have (their on_finish callables ran; those of the runtime's last
            # events come after them).
            try:
                self._drain()
            except BaseException as e:
                self._close_error = first_of(self._close_error, e)
        if (self._finishing or self._awaiting) and not self.closed:
            # Read while they can be: those still attached whose lifecycle is FINISHED.
            # (A copy: another thread may add an animation as each is asked for.)
            self._ended_at_close = {h for h in list(self._finishing) if self._has_finished(h)}
            self._ended_at_close |= {h for h in list(self._awaiting)
                                     if h not in self._ended_at_close and self._has_finished(h)}
        if not self.closed:
            # A definition's name is read when first asked for; once the runtime is gone it cannot be,
            # and the reprs of the definition and its machines would lose it: read it while it can be.
            # Copied in one step: another thread making an object meanwhile would change the mapping as
            # its values() went through it, and close() raise RuntimeError, the runtime left open.
            for ref in self._objects.valuerefs():
                obj = ref()
                if isinstance(obj, Definition):
                    obj._label()
        if self._native.tracing and not self.closed:
            # The library closes a trace still being recorded as the runtime is destroyed, and cannot
            # say then whether the file holds every call: stopped here, an incomplete one raises.
            try:
                self.stop_trace()
            except AnimrtError as e:
                self._close_error = first_of(self._close_error, e)
        # What a callable left for a call of this thread that was interrupted before taking it (see
        # _callbacks): this thread's last call on the runtime raises it, the others' are dropped with it.
        left = _callbacks.take(ptr) if ptr is not None and _callbacks.pending else None
        self._closing = True  # the destroy's callables' exceptions are this call's to raise (see _destroy_runtime)
        self._finalizer()
        error, self._close_error = first_of(self._close_error, left), None
        self._end_state_waits()  # after the tick's last changes (delivered first when closed from one)
        waiting = self._waiting_for_stops()
        if waiting and self._drainer != threading.get_ident():
            # Every animation has stopped: a callable still waiting lost its stop to a full queue.
            # (Inside a tick's delivery, its last events come first: the tick settles the rest.)
            failed = self._settle_lost(waiting, self._ended_at_close)
            error = first_of(error, failed)
        if error is not None:
            raise error

    def __enter__(self) -> Runtime:
        # As a closed file refuses ``with``: the block would otherwise start and fail at its first call.
        if self.closed:
            raise ClosedError(CLOSED)
        return self

    def __exit__(self, *exc: Any) -> None:
        try:
            self.close()
        except BaseException as e:
            if exc[1] is None or not isinstance(e, Exception):  # Ctrl-C or sys.exit() in a callable: as itself
                raise
            # The exception leaving the block is the one to see; what a callable raised as the block's
            # end closed the runtime is noted on it, not lost without a word.
            source = getattr(e, "_animrt_raised_by", None)
            add_note(exc[1], f"then, as the with block closed the runtime, a callable raised {_callbacks.describe(e)}"
                     + (f", from {source}" if source else ""))

    # -- time and events -----------------------------------------------------
    @check.keywords("rt.tick()", needs={"now": "the host's monotonic time in seconds, e.g. rt.tick(time.monotonic())"})
    def tick(self, now: float) -> None:
        """Advances the runtime to `now` seconds on the program's clock (``animrt_runtime_tick``).

        Due timers fire, every animation is evaluated, then what happened is
        delivered, in order, on this thread: completion callables run, the
        ``on_event`` handler is called, or events are kept for :meth:`events`.
        `now` must be finite and not earlier than the last tick
        (:class:`TimeError`). If a callable or the handler raises, the other
        events are still delivered and the first exception is re-raised, with
        a note naming each later one (``__notes__``); each exception is noted
        with what raised it ("raised by the on_finish of <AttachedAnimation
        'out' …> (finished=True)", "raised by the callback of <Timer …>", …). A timing function or
        function that raises during the tick does not stop it either: its events are delivered,
        then this tick raises :class:`CallbackError` from that exception, on this thread, also for
        a timing function run on an evaluation thread, never a call another thread makes meanwhile
        (on a runtime with evaluation threads, ticks run one at a time). Ctrl-C or ``sys.exit()``
        in one is raised as itself at once, and the events wait for the next tick::

            start = time.monotonic()
            while running:
                rt.tick(time.monotonic() - start)
        """
        try:
            if self._native.threaded:
                self._native.tick(lib.animrt_runtime_tick, check.seconds(now, "now"))
            else:
                self._call(lib.animrt_runtime_tick, check.seconds(now, "now"))
        except CallbackError as e:
            # A timing function or function raised: the library counted it as 0 (or as the function's
            # failure) and the tick went on, so what it reported is delivered all the same, then this
            # is raised; else on_finish, wait() and the events would wait for a tick that succeeds.
            failed: BaseException = e
        else:
            self._drain()
            return
        try:
            self._drain()
        except BaseException as later:
            if not isinstance(later, Exception):
                # Ctrl-C or sys.exit() in a callable of the delivery is raised as itself, as
                # everywhere: noted on a CallbackError, `except Exception` would catch it.
                first_of(later, failed)
                raise
            first_of(failed, later)
        raise failed

    @property
    def time(self) -> float:
        """The time of the last tick (0 before the first): ``rt.time``."""
        out = c_double()
        self._call(lib.animrt_runtime_time, byref(out))
        return out.value

    def events(self) -> List[ev.Event]:
        """The events delivered by ticks since the last call, oldest first (``animrt_event_poll``).

        Events carry the program's own objects::

            for event in rt.events():
                if isinstance(event, animrt.AnimationStopped) and event.layer is toast:
                    print(event.key, "finished" if event.finished else event.reason.name)

        With an ``on_event`` handler set, events go to it and this returns []. Called on one
        thread while another ticks, it returns each event once, in order: those kept by then,
        and the next call those kept since.
        """
        taken: Optional[Tuple[Deque[Union[ev.Event, bytes]], int, int, float]] = None
        fresh: Deque[Union[ev.Event, bytes]] = deque()
        try:
            with self._kept_lock:  # taken whole, as another thread's tick may be keeping more
                taken = self._kept, self._kept_count, self._lost, self._lost_at  # (no call in between:
                self._kept, self._kept_count, self._lost = fresh, 0, 0           # no Ctrl-C either)
            kept, _, lost, lost_at = taken
            out: List[ev.Event] = []
            for item in kept:
                if isinstance(item, bytes):
                    for fields in _EVENTS.iter_unpack(item):
                        event = self._event(fields, run_completions=False)
                        if event is not None:
                            out.append(event)
                else:
                    out.append(item)
            if lost:
                out.append(ev.Overflow(lost_at, lost))
            return out
        except BaseException:
            # Ctrl-C while they were decoded: they are put back, before any kept since, for the next call.
            if taken is not None:
                self._put_back(*taken)
            raise

    def _put_back(self, kept: Deque[Union[ev.Event, bytes]], count: int, lost: int, lost_at: float) -> None:
        """Puts events taken by :meth:`events` back in front of those kept since."""
        with self._kept_lock:
            kept.extend(self._kept)
            self._kept, self._kept_count = kept, count + self._kept_count
            if lost:
                self._lost, self._lost_at = lost + self._lost, lost_at

    def on_event(self, handler: Optional[Handler]) -> None:
        """Calls ``handler(event)`` for every event at the end of each tick instead of keeping them
        (``animrt_event_set_callback``); None goes back to :meth:`events`.

        The handler runs on the ticking thread and may call back into the
        runtime (add animations, start timers)::

            rt.on_event(lambda event: print(event))
        """
        if handler is not None and not callable(handler):
            raise ArgumentTypeError(f"handler is {check.describe(handler)}; it must be a callable taking an "
                                    "event, or None")
        if handler is not None:
            check.arity(handler, 1, "handler", "one argument, the event")
        self._handler = handler
        self._on_destroy.clear()
        if handler is not None or self._finishing or self._awaiting:
            self._on_destroy.append(weakref.WeakMethod(self._deliver_final))

    def _wait_for_stop(self, handle: int, on_finish: Callable[[bool], object]) -> None:
        """Keeps `on_finish` until the stop of the attached animation `handle` is delivered, and
        has close() hand the last stops to `_deliver_final`."""
        self._finishing[handle] = on_finish
        self._native.waiting += 1
        if not self._on_destroy:
            self._on_destroy.append(weakref.WeakMethod(self._deliver_final))

    def _take_finishing(self, handle: int) -> Optional[Callable[[bool], object]]:
        """The on_finish callable waiting for `handle`'s stop, no longer waiting (None if none)."""
        done = self._finishing.pop(handle, None)
        if done is not None:
            self._native.waiting -= 1
        return done

    def _waiting_for_stops(self) -> List[int]:
        """The attached animations whose stop an on_finish callable or an awaiting task waits for
        (a copy: another thread may add one meanwhile). Once the runtime is closed, read under the
        lock `_await_stop` holds from its look at `closed` to putting its future in: a task on
        another thread that saw the runtime open has its future in by now, and one that comes later
        sees it closed and answers itself; read without it, a future put in just after this look
        would never be resolved."""
        with self._stop_lock:
            return list(self._finishing) + [h for h in list(self._awaiting) if h not in self._finishing]

    def _stopped(self, attached: AttachedAnimation, finished: bool) -> None:
        """Records that the stop of `attached` (tracked by the binding) was delivered, and resolves
        the futures of the tasks awaiting :meth:`AttachedAnimation.wait` with `finished`."""
        with self._stop_lock:
            attached._stopped_as = finished
            waiting = self._awaiting.pop(attached._id, None)
        for future in waiting or ():
            _resolve(future, finished)

    def _await_stop(self, attached: AttachedAnimation, future: "asyncio.Future[bool]") -> Optional[bool]:
        """Has `future` resolved when the stop of `attached` is delivered; or, when that has already
        happened (or the runtime is closed: its stop will never be delivered), returns how it ended."""
        with self._stop_lock:
            if attached._stopped_as is not None:
                return attached._stopped_as
            if self.closed:
                # Closed without its stop delivered: nothing was waiting for it (close() settles those
                # that something waits for). A stop between ticks is a removal, a replacement or a
                # layer destroyed, and one at close the runtime's: it stopped before its end.
                attached._stopped_as = False
                return False
            self._awaiting.setdefault(attached._id, []).append(future)
            if not self._on_destroy:  # close() hands the last stops to _deliver_final, which resolves it
                self._on_destroy.append(weakref.WeakMethod(self._deliver_final))
        return None

    def _forget_waiter(self, attached: AttachedAnimation, future: "asyncio.Future[bool]") -> None:
        """Stops resolving `future` (its task no longer awaits it: cancelled, or resolved)."""
        with self._stop_lock:
            waiting = self._awaiting.get(attached._id)
            if waiting is not None and future in waiting:
                waiting.remove(future)
                if not waiting:
                    del self._awaiting[attached._id]

    def _await_state(self, machine: Machine, states: Tuple[str, ...], future: "asyncio.Future[str]") -> None:
        """Has `future` resolved at the tick that delivers `machine`'s change into one of `states`
        (or raised, at its end); raises at once when it can have none: the runtime closed, the
        machine destroyed. Looked at under the lock `_end_state_waits` and `_state_changed` take:
        a close or a tick on another thread finds the future in, or this finds them done."""
        with self._stop_lock:
            if self.closed or machine._gone():
                raise machine._wait_error(states, None)
            self._state_waits.setdefault(machine._id, []).append((machine, states, future))

    def _forget_state_wait(self, machine: Machine, future: "asyncio.Future[str]") -> None:
        """Stops resolving `future` (its task no longer awaits it: cancelled, resolved, or answered
        at once)."""
        with self._stop_lock:
            waits = self._state_waits.get(machine._id)
            if waits is not None:
                waits[:] = [w for w in waits if w[2] is not future]
                if not waits:
                    del self._state_waits[machine._id]

    def _state_changed(self, event: ev.StateChanged) -> None:
        """Resolves the waits that `event` ends: those for its `to_state` or one of its ancestors
        (with the name awaited, the first given), and those it leaves for ever, the machine
        finished in a top-level final state none awaited (with StateError)."""
        machine = event.machine
        ended: List[Tuple["asyncio.Future[str]", Optional[str], Optional[AnimrtError]]] = []
        with self._stop_lock:
            waits = self._state_waits.get(machine._id)
            if not waits:
                return
            finals = machine.definition._finals or frozenset()
            left = []
            for wait in waits:
                states, future = wait[1], wait[2]
                reached = next((s for s in states if event.to_state == s or event.to_state.startswith(s + ".")), None)
                if reached is not None:
                    ended.append((future, reached, None))
                elif event.to_state in finals:
                    ended.append((future, None, machine._wait_error(states, event.to_state)))
                else:
                    left.append(wait)
            if left:
                waits[:] = left
            else:
                del self._state_waits[machine._id]
        for future, reached, error in ended:
            _end(future, reached, error)

    def _end_state_waits(self, handles: Optional[List[int]] = None) -> None:
        """Ends the waits of the machines `handles` (destroyed, their last changes delivered), or
        every wait once the runtime is closed, with the error saying why no state will come."""
        with self._stop_lock:
            if not self._state_waits:
                return
            ended = [w for h in (list(self._state_waits) if handles is None else handles)
                     for w in self._state_waits.pop(h, [])]
        for machine, states, future in ended:
            _end(future, None, machine._wait_error(states, None))

    def _drain(self) -> None:
        """Delivers every queued event, in order, on this thread."""
        me = threading.get_ident()
        if self._drainer == me:
            self._more = True  # a tick from inside a callable: the outer loop delivers its events, in order
            return
        error: Optional[BaseException] = None
        with self._drain_lock:
            self._drainer = me
            try:
                error = self._deliver_queued()
            finally:
                self._drainer = None
                self._batch = None
            waiting = self._waiting_for_stops() if self.closed else []  # closed by a callable of this drain: see close()
            if waiting:
                failed = self._settle_lost(waiting, self._ended_at_close)
                error = first_of(error, failed)
        if error is not None:
            raise error

    def _deliver_queued(self) -> Optional[BaseException]:
        """Delivers the rest of the batch being delivered, then every event still queued, until the
        queue is empty or the runtime closed; returns the first exception a callable raised.

        Run by `_drain`, and again by a `close()` made from one of the callables it runs: the batch's
        iterator is shared, so that the rest of the tick's events come before the runtime's last."""
        # Machines destroyed by now reported all they will before this: delivered once this returns.
        gone = list(self._gone_machines)
        try:
            return self._deliver_polled()
        finally:
            for handle in gone:
                self._gone_machines.pop(handle, None)
            if gone and self._state_waits:  # their last changes delivered: no state comes any more
                self._end_state_waits(gone)

    def _deliver_polled(self) -> Optional[BaseException]:
        """The loop of `_deliver_queued`: delivers batches and polls, until the queue is empty."""
        error: Optional[BaseException] = None
        buffer, n = self._poll_buffer, c_size_t()
        while True:
            batch = self._batch
            if batch is not None:
                error = first_of(error, self._deliver_batch(batch))
                self._batch = None
                if batch.count < _POLL and not self._more and not self._unhanded:
                    break
            self._more = False
            if self.closed:  # by a callable: the runtime handed its last events to close()
                break
            while self._unhanded and self._unhanded[0].handed:
                self._unhanded.popleft()
            taken = self._unhanded[0] if self._unhanded else self._poll(buffer, n)
            try:
                if taken.count:
                    lost, ended = self._lost_stops(taken.raw)
                    fired = self._lost_timers(taken.raw)
                    if self._listening() or taken.machines is not None:
                        items = iter(taken.machines) if taken.machines is not None else _EVENTS.iter_unpack(taken.raw)
                        batch = _Batch(items, taken.count, lost, ended, fired)
                        taken.handed = True
                        self._batch = batch
                        continue
                    self._keep(taken)  # nobody waits on these: keep them as they came, decoded by events()
                taken.handed = True
            except BaseException:
                self._hold(taken)
                raise
            if taken.queued:  # left by Ctrl-C: what comes after it is polled now
                continue
            if taken.count < _POLL and not self._more:
                break
        return error

    def _poll(self, buffer: Any, n: c_size_t) -> _Taken:
        """Takes the library's next events (at most `_POLL`) out of its queue. Ctrl-C landing once
        the library gave them up leaves them in `_unhanded` (copied from `buffer` while they can be)."""
        taken: Optional[_Taken] = None
        n.value = 0
        # A machine being made on another thread is registered first; the payloads are read
        # before a close() on another thread may free them (it waits for this as for a call).
        with self._making, self._native.reading():
            try:
                self._call(lib.animrt_event_poll, buffer, _POLL, byref(n))
                taken = _Taken(buffer, n.value)
            except BaseException:
                if taken is None and n.value:  # given up by the library, not yet copied
                    self._hold(_Taken(buffer, n.value))
                raise
        return taken

    def _hold(self, taken: _Taken) -> None:
        """Leaves `taken`, which an exception kept from being handed on, for the next delivery."""
        if not taken.handed and not taken.queued:
            taken.queued = True
            self._unhanded.append(taken)

    def _deliver_batch(self, batch: _Batch) -> Optional[BaseException]:
        """Delivers the events of `batch` not yet delivered; returns the first exception raised."""
        error: Optional[BaseException] = None
        for fields in batch.items:
            if (batch.lost or batch.fired) and fields[0] == ev.OVERFLOW:  # where the loss happened
                lost, fired = batch.lost, batch.fired
                batch.lost, batch.fired = [], []
                failed = self._settle_lost(lost, batch.ended)
                failed_timer = self._run_lost_timers(fired)
                error = first_of(first_of(error, failed), failed_timer)
            try:
                # A callable of this batch that closed the runtime (or is closing it, and has it
                # deliver the rest first): the rest of its completion callables never run (see
                # close()); their events still reach the handler.
                event = self._event(fields, run_completions=not self.closed and not self._closing_in_drain)
                if event is None:
                    continue
                if self._finishing and isinstance(event, ev.AnimationStopped):
                    try:
                        self._finish(event)
                    except BaseException as e:  # the event is delivered all the same
                        error = first_of(error, e)
                if self._state_waits and isinstance(event, ev.StateChanged):  # machine events always come in a batch
                    self._state_changed(event)
                self._deliver(event)
            except BaseException as e:
                error = first_of(error, e)
        return error

    def _listening(self) -> bool:
        """Whether events must be looked at as they come: a handler, a completion callable, or an
        object of the program's to hand back. Otherwise they are only kept (a program animating
        millions of layers without reading events pays nothing per event)."""
        return bool(self._handler or self._attached or self._notifications or self._waiting or self._timers
                    or self._transactions or self._machines)

    def _event(self, fields: _Fields, run_completions: bool) -> Optional[ev.Event]:
        """The event for an ``animrt_event``'s fields; None when a completion callable ran instead."""
        kind, reason, time, layer, handle, animation, token = fields[:7]
        if kind == ev.ANIMATION_STARTED or kind == ev.ANIMATION_STOPPED:
            attached = self._attached.pop(handle, None) if kind == ev.ANIMATION_STOPPED \
                else self._attached.get(handle)
            tracked = attached is not None
            if attached is None:
                attached = self._stand_in_attached(handle, layer, animation)
            if kind == ev.ANIMATION_STARTED:
                return ev.AnimationStarted(time, attached.layer, attached.animation, attached)
            stopped = ev.AnimationStopped(time, attached.layer, attached.animation, attached, StopReason(reason))
            if tracked:
                self._stopped(attached, stopped.finished)
            return stopped
        if kind == ev.BARRIER_NOTIFIED:
            waiting = self._notifications.pop(token, None) if run_completions else None
            self._due_notifications.discard(token)
            if waiting is not None:
                barrier, completion = waiting
                _callbacks.call(completion, (), lambda: f"the completion given to notify() of {barrier!r}")
                return None
            if token > check.MAX_TOKEN:  # a callable's, not run (runtime closed, or given up by destroy())
                return None
            return ev.BarrierNotified(time, self._release_waiting(handle), token)
        if kind == ev.TRANSACTION_COMPLETED:
            transaction = self._transactions.pop(handle, None) if run_completions else None
            if transaction is not None and transaction.on_complete is not None:
                _callbacks.call(transaction.on_complete, (), lambda: f"the on_complete of {transaction!r}")
                return None
            return ev.TransactionCompleted(time, Transaction._stand_in(self, handle), token)
        if kind == ev.TIMER_FIRED:
            timer = self._timers.pop(handle, None) if run_completions else None
            if timer is not None and timer.callback is not None:
                timer._done = True
                _callbacks.call(timer.callback, (), timer._describe_callback)
                return None
            timer = Timer._stand_in(self, handle)
            timer._done = True
            return ev.TimerFired(time, timer, token)
        if kind >= ev.MACHINE_STATE:
            return self._machine_event(fields)
        return ev.Overflow(time, token)

    def _machine_event(self, fields: _Fields) -> ev.Event:
        """A machine event, its payload's values read at the poll (`_with_payloads`)."""
        kind, _, time, _, handle, _, token, name, from_state, to_state, _, values = fields
        machine = self._machines.get(handle) or self._gone_machines.get(handle)
        if machine is None:
            found = self._objects.get(handle)
            if isinstance(found, Machine) and getattr(found, "_definition", None) is not None:  # not a stand-in
                machine = found
        if machine is None:  # made through raw C calls: numbers stand for names
            stand_in = Machine.__new__(Machine)
            Object.__init__(stand_in, self, handle, owned=False)
            return ev.MachineError(time, stand_in, None, f"event {kind} of a machine this binding did not create")
        d = machine.definition
        if kind == ev.MACHINE_STATE:
            fields_ = d._field_names(0, to_state)
            return ev.StateChanged(time, machine, d.states[from_state] if from_state >= 0 else None, d.states[to_state],
                                   dict(zip(fields_, values)))
        if kind == ev.MACHINE_EMITTED:
            return ev.Emitted(time, machine, d.emits[name], dict(zip(d._field_names(3, name), values)))
        if kind == ev.MACHINE_REQUEST:
            return ev.RequestIssued(time, machine, d.requests[name], token, dict(zip(d._field_names(4, name), values)))
        if kind == ev.MACHINE_STALE:
            return ev.StaleResult(time, machine, d._list(1)[name], token, dict(zip(d._field_names(1, name), values)))
        message = values[0] if values and isinstance(values[0], str) else ""
        # The event being processed may be error.execution itself (its handler failed): named through every
        # event id, not Definition.events, which lists only those the host sends.
        return ev.MachineError(time, machine, d._list(1)[name] if name >= 0 else None, message)

    def _deliver(self, event: ev.Event) -> None:
        handler = self._handler
        if handler is not None:
            _handle(handler, event)
            return
        with self._kept_lock:
            if self._lost or self._kept_count >= self._capacity - 1:
                self._lose(event.time, event.lost if isinstance(event, ev.Overflow) else 1)
            else:
                self._kept.append(event)
                self._kept_count += 1

    def _keep(self, taken: _Taken) -> None:
        """Keeps the undecoded events of `taken`, as many as the bound allows; the rest are counted as
        lost. Marks them handed on just before the step that keeps them (or counts them)."""
        raw, count = taken.raw, taken.count
        with self._kept_lock:
            room = 0 if self._lost else max(0, self._capacity - 1 - self._kept_count)
            if room:
                kept = min(room, count)
                chunk = raw[:kept * _EVENT_SIZE]
                taken.handed = True
                self._kept.append(chunk)
                self._kept_count += kept
        lost = raw[room * _EVENT_SIZE:]
        if not lost:
            return
        # Counted without decoding each event (a flood must stay cheap): an overflow notice among
        # them stands for the events the library itself lost.
        types = lost[_TYPE_BYTE::_EVENT_SIZE]
        count = len(types)
        if types.count(ev.OVERFLOW):
            count = sum(f[6] if f[0] == ev.OVERFLOW else 1 for f in _EVENTS.iter_unpack(lost))
        with self._kept_lock:
            taken.handed = True
            self._lose(_EVENTS.unpack_from(lost)[2], count)

    def _lost_stops(self, raw: bytes) -> Tuple[List[int], Set[int]]:
        """The tracked animations whose AnimationStopped the library's full queue may have lost, when
        `raw` (one poll) ends with the overflow notice, and those of them known to have finished;
        else ([], set()).

        The notice comes last, once the queue is empty: at this poll every animation that has
        stopped is reported in `raw` (delivered, so no longer tracked, by the time the notice is)
        or in an earlier poll, or was lost. So the tracked ones that have stopped are asked for
        now, before the callables of `raw` run and stop others, and those still tracked at the
        notice were lost. Two kinds have stopped: those the library no longer holds (their handles
        are stale: finished and removed on completion, or removed, replaced, their layer
        destroyed; which of these was in the lost event), and those still attached whose
        lifecycle is FINISHED (not removed on completion: nothing else stops an animation and
        leaves it attached), which finished."""
        if not self._attached or not raw[_TYPE_BYTE::_EVENT_SIZE].count(ev.OVERFLOW):
            return [], set()
        lost, ended = [], set()
        for handle in list(self._attached):
            played = self._has_finished(handle)
            if played is None or played:
                lost.append(handle)
            if played:
                ended.add(handle)
        return lost, ended

    def _has_finished(self, handle: int) -> Optional[bool]:
        """Whether the attached animation `handle` has finished as of the last tick: the library
        sent its AnimationStopped and kept it (not removed on completion). Asked of the library's
        lifecycle, not of its phase: a layer whose time turned back within the tick shows it
        mid-way again, and it still finished. None when the library no longer holds it."""
        state = c_int32()
        try:
            self._call(lib.animrt_animation_get_lifecycle, handle, byref(state))
        except HandleError:
            return None
        return state.value == Lifecycle.FINISHED

    def _settle_lost(self, handles: List[int], finished: Container[int] = ()) -> Optional[BaseException]:
        """Stops tracking animations whose stop was lost, calling their on_finish with True for
        those in `finished` (still attached, played to their end) and False for the others (the
        library no longer holds them: whether they reached their end was in the lost event);
        every one runs, and the first exception is returned."""
        first: Optional[BaseException] = None
        for handle in handles:
            attached = self._attached.pop(handle, None)
            if attached is None:  # its stop was delivered after all
                continue
            self._stopped(attached, handle in finished)
            done = self._take_finishing(handle)
            if done is not None:
                try:
                    self._run_on_finish(done, attached, handle in finished)
                except BaseException as e:
                    first = first_of(first, e)
        return first

    def _lost_timers(self, raw: bytes) -> List[Timer]:
        """The timers with callables that have fired although their TimerFired has not been
        delivered, when `raw` (one poll) holds the overflow notice; else []. Asked now, before
        the callables of `raw` run: those whose event is in `raw` are delivered (and no longer
        waiting) by the time the notice is; those still waiting then lost their event."""
        if not self._timers or not raw[_TYPE_BYTE::_EVENT_SIZE].count(ev.OVERFLOW):
            return []
        return [timer for timer in list(self._timers.values()) if not timer.pending]

    def _run_lost_timers(self, timers: List[Timer]) -> Optional[BaseException]:
        """Runs the callables of timers whose TimerFired was lost, in the order they were due (then
        started), once each; every one runs, and the first exception is returned."""
        first: Optional[BaseException] = None
        for timer in sorted(timers, key=lambda t: t._due):  # stable: started first, first
            if self._timers.pop(timer._id, None) is None:  # its event was delivered after all
                continue
            try:
                if timer.callback is not None:
                    _callbacks.call(timer.callback, (), timer._describe_callback)
            except BaseException as e:
                first = first_of(first, e)
        return first

    def _lose(self, time: float, count: int) -> None:
        """Counts `count` events lost at `time` (with `_kept_lock` held)."""
        if not self._lost:
            self._lost_at = time
        self._lost += count

    def _finish(self, event: ev.AnimationStopped) -> None:
        """Runs the on_finish callable of the animation that stopped, if it has one (once: it is
        taken out of the table before it runs)."""
        done = self._take_finishing(event.attached._id)
        if done is not None:
            self._run_on_finish(done, event.attached, event.finished)

    @staticmethod
    def _run_on_finish(done: Callable[[bool], object], attached: AttachedAnimation, finished: bool) -> None:
        """``done(finished)``; what it raises is noted with the animation it ran for (see `_callbacks.call`)."""
        _callbacks.call(done, (finished,), lambda: f"the on_finish of {attached!r} (finished={finished})")

    def _deliver_final(self, raw: CEvent) -> None:
        """The stops of runtime destruction, to on_finish callables and the handler (called from
        inside close()). Nothing can be raised out of the library's callback: the first exception
        is kept for close() to raise once the runtime is gone."""
        if raw.type != ev.ANIMATION_STOPPED:
            return
        try:
            event = self._event((raw.type, raw.reason, raw.time, raw.layer, raw.object, raw.animation,
                                 raw.token, raw.name, raw.from_state, raw.to_state, raw.payload_count, 0),
                                run_completions=False)
        except Exception:  # an event the binding cannot name: nothing waits on it
            return
        if not isinstance(event, ev.AnimationStopped):
            return
        handler = self._handler
        for deliver in (self._finish, None if handler is None else functools.partial(_handle, handler)):
            if deliver is not None:
                try:
                    deliver(event)
                except BaseException as e:
                    self._close_error = first_of(self._close_error, e)

    def _stand_in_attached(self, handle: int, layer: int, animation: int,
                           key: Optional[str] = None) -> AttachedAnimation:
        """An attached animation the binding did not make (added by a machine or through raw C calls);
        its key, unless given, is looked up when it is first read."""
        from ._animation import Animation
        found = self._objects.get(handle)
        if isinstance(found, AttachedAnimation):
            return found
        own = self._objects.get(animation)
        if animation != 0 and isinstance(own, Animation):
            description = own
        else:  # a machine's template (handle 0) or one made through raw C calls: a stand-in of its own
            description = Animation.__new__(Animation)
            Object.__init__(description, self, animation, owned=False)
        attached = AttachedAnimation(self, handle, Layer._stand_in(self, layer), description, key, None,
                                     key_known=False)
        # What it animates and its key are read now, while the library may still hold it: its events
        # are often read after it has gone (a tick later), and would say neither.
        if key is None:
            now = attached._find_key()
            if now is not None:
                attached._key, attached._key_known = now, True
        if description is not own:  # its key path is the library's to say: read now, and kept
            attached._key_path_known = False
            try:
                description._key_path = attached._library_key_path()
                attached._key_path_known = True
            except AnimrtError:  # already gone: nothing is known of it
                pass
        return attached

    def _registering(self) -> ContextManager[object]:
        """What a thread holds while it makes an object and registers it (`_making`), so that another
        thread's tick polls its first events only once it is registered. Not inside a call into the
        library (a timing function), which the library refuses anyway: that thread holds the library's
        lock, which a poll waiting here would wait for in turn."""
        return contextlib.nullcontext() if self._native.calling() else self._making

    def _keep_until_notified(self, barrier: Barrier) -> None:
        _, pending = self._waiting.get(barrier._id, (barrier, 0))
        self._waiting[barrier._id] = (barrier, pending + 1)

    def _release_waiting(self, handle: int) -> Barrier:
        entry = self._waiting.get(handle)
        if entry is None:
            return Barrier._stand_in(self, handle)
        barrier, pending = entry
        if pending <= 1:
            del self._waiting[handle]
        else:
            self._waiting[handle] = (barrier, pending - 1)
        return barrier

    def _callable_token(self) -> int:
        self._next_token += 1
        return self._next_token

    # -- key paths and properties ---------------------------------------------
    def _keypath(self, key_path: object) -> KeyPathInfo:
        """The resolved key path (cached); NotFoundError with a suggestion for an unknown one."""
        if not isinstance(key_path, str):
            raise ArgumentTypeError(f"key_path is {check.describe(key_path)}; it must be a str such as "
                                    "'opacity' or 'position.x'")
        info = self._keypaths.get(key_path)
        if info is None:
            kp, kind, n = c_int32(), c_int(), c_size_t()
            # (another toolkit's name, 'alpha', is answered by the library with the key path it stands for)
            self._call(lib.animrt_keypath_id, check.text(key_path, "key_path").encode("utf-8"), byref(kp))
            self._call(lib.animrt_keypath_info, kp.value, byref(kind), byref(n))
            info = self._keypaths[str(key_path)] = KeyPathInfo(kp.value, ValueKind(kind.value), n.value)
        return info

    def keypath_id(self, key_path: str) -> int:
        """The library's id for a key path (``animrt_keypath_id``), for calls through ``animrt._ffi``.

        ``rt.keypath_id("opacity")``; an unknown key path raises
        :class:`NotFoundError` suggesting the closest known one.
        """
        return self._keypath(key_path).id

    def keypath_info(self, key_path: str) -> Tuple[ValueKind, int]:
        """What a key path holds (``animrt_keypath_info``): ``rt.keypath_info("bounds")`` → ``(ValueKind.RECT, 4)``."""
        info = self._keypath(key_path)
        return info.kind, info.components

    @overload
    def define_property(self, name: str, initial: float, *, kind: Optional[ValueKindLike] = None) -> Property[float]: ...
    @overload
    def define_property(self, name: str, initial: Point, *,
                        kind: Optional[ValueKindLike] = None) -> Property[Tuple[float, float]]: ...
    @overload
    def define_property(self, name: str, initial: Rect, *,
                        kind: Optional[ValueKindLike] = None) -> Property[Tuple[float, float, float, float]]: ...
    @overload
    def define_property(self, name: str, initial: Iterable[float], *,
                        kind: Optional[ValueKindLike] = None) -> Property[Tuple[float, ...]]: ...

    @check.keywords("rt.define_property()")
    def define_property(self, name: str, initial: ValueLike, *,
                        kind: Optional[ValueKindLike] = None) -> Property[Any]:
        """Defines a property of the program's own, animatable like any other (``animrt_property_define``).

        Its kind follows from `initial` (1 number: scalar, 2: point, 4: rect,
        16: transform) unless `kind` says otherwise ("size", "color"). Returns
        its name, typed by its value for type checkers::

            progress = rt.define_property("progress", 0.0)
            bar.add_animation(rt.basic(progress, to=1.0, duration=2.0))
            bar.presentation(progress)      # float
        """
        check.text(name, "name")
        if kind is None:
            flat = _flatten_initial(initial)
            guess = {1: ValueKind.SCALAR, 2: ValueKind.POINT, 4: ValueKind.RECT, 16: ValueKind.TRANSFORM}.get(len(flat))
            if guess is None:
                raise ArgumentTypeError(f"initial has {len(flat)} numbers; a value has 1 (scalar), 2 (point, size), "
                                        "4 (rect, color) or 16 (transform)")
            chosen = guess
        else:
            chosen = check.choice(kind, "kind", ValueKind, VALUE_KINDS)
        count = {ValueKind.SCALAR: 1, ValueKind.POINT: 2, ValueKind.SIZE: 2, ValueKind.RECT: 4,
                 ValueKind.COLOR: 4, ValueKind.TRANSFORM: 16}[chosen]
        values = components(initial, "initial", name, chosen, count)
        self._call(lib.animrt_property_define, check.text(name, "name").encode("utf-8"), int(chosen), (c_double * count)(*values), count)
        return Property(name)

    # -- machines --------------------------------------------------------------
    @check.keywords("rt.definition()")
    def definition(self, source: Union[str, "os.PathLike[str]", Mapping[str, Any], None] = None, *,
                   named: Optional[str] = None) -> Definition:
        """Loads a machine definition (docs/machines.md): JSON text, a dict, a file (a ``pathlib.Path``),
        or ``named=`` a definition of the runtime's library (``animrt_definition_load*``).

        It is checked completely; an error names the JSON path (and the column in an expression)::

            card = rt.definition(pathlib.Path("progress_card.json"))
            toggle = rt.definition({"name": "toggle", "events": {"tap": {}}, "initial": "off",
                                    "states": {"off": {"on": {"tap": "on"}}, "on": {"on": {"tap": "off"}}}})
        """
        return load_definition(self, source, named)

    def register_definition(self, name: Union[str, Mapping[str, Any]],
                            source: Union[str, Mapping[str, Any], None] = None) -> None:
        """Adds a definition to the runtime's library, checked now (``animrt_definition_register``), so
        that ``rt.definition(named=name)`` loads it: ``rt.register_definition("toggle", toggle_json)``.
        Given the definition alone, it is registered under its own ``"name"``:
        ``rt.register_definition(toggle)``."""
        if source is None:
            if isinstance(name, str) and not name.lstrip(" \t\r\n\ufeff").startswith("{"):
                raise ArgumentTypeError(f"rt.register_definition({name[:40]!r}) got a name but no definition: "
                                        f"rt.register_definition({name[:40]!r}, definition)")
            loaded = load_definition(self, name, None)  # checked whole, its errors named; then its own name
            try:
                name, source = loaded.name, name
            finally:
                loaded.destroy()
        if (isinstance(source, str) and not source.lstrip().startswith("{")
                and (isinstance(name, Mapping) or isinstance(name, str) and name.lstrip().startswith("{"))):
            raise ArgumentTypeError(f"rt.register_definition() got the definition first: the name comes first, then "
                                    f"the definition, rt.register_definition({source[:40]!r}, definition)")
        try:
            text = to_json(source, "definition") if isinstance(source, Mapping) else check.text(source, "source")
            self._call(lib.animrt_definition_register, check.text(name, "name").encode("utf-8"), text.encode("utf-8"))
        except AnimrtError as e:  # which definition: the name it is registered under
            raise name_in(e, "definition", name if isinstance(name, str) else None)

    @check.keywords("rt.machine()", needs={
        "definition": "the Definition it runs, from rt.definition(...), e.g. "
                      "rt.machine(rt.definition(named='progressCard'))"})
    def machine(self, definition: Definition, *, parent: Optional[Layer] = None,
                config: Optional[Mapping[str, ConfigValue]] = None, locale: Optional[str] = None,
                strings: Optional[Mapping[str, str]] = None) -> Machine:
        """A new machine running `definition` (``animrt_machine_create``): its parts are made under
        `parent` (None: as roots) and it enters its initial states now.

        `config` overrides parameters (checked against their types and ranges), `locale` picks the
        copy, `strings` replaces texts::

            m = rt.machine(card, parent=screen, config={"jitterThreshold": 0.1}, locale="zh")
        """
        return Machine(self, definition, parent, config, locale, strings)

    @check.keywords("rt.restore()")
    @_definition_required
    def restore(self, snapshot: Union[str, Mapping[str, Any]], definition: Definition, *,
                parent: Optional[Layer] = None) -> Machine:
        """A new machine from :meth:`Machine.snapshot` (``animrt_machine_restore``); `definition`
        is this runtime's copy of the definition the snapshot was taken from (it names states and
        fields): another machine's, or an edited version whose states, events or fields differ, is
        refused with :class:`InvalidArgumentError` saying what differs. The runtime must be at the
        snapshot's time, else :class:`TimeError`::

            other.tick(rt.time)
            copy = other.restore(saved, other.definition(pathlib.Path("card.json")))

        The snapshot is the text :meth:`Machine.snapshot` returned, or that text read by
        ``json.loads`` (kept inside a program's own JSON state, say), as :meth:`definition` takes a
        dict: ``rt.restore(state["card"], rt.definition(named="progressCard"))``.
        """
        if isinstance(snapshot, Mapping):  # Python's floats print as they read back: the same snapshot
            snapshot = to_json(snapshot, "snapshot")
        _check_snapshot(snapshot)
        return Machine(self, definition, parent, None, None, None, snapshot=snapshot)

    # -- traces ----------------------------------------------------------------
    def start_trace(self, path: Union[str, "os.PathLike[str]"]) -> None:
        """Records every call that changes this runtime to `path` (``animrt_trace_start``), for a bug
        report: :meth:`replay` makes them again in a fresh runtime and checks, call by call, that the
        events and values are the same. The runtime must be fresh::

            rt = animrt.Runtime()
            rt.start_trace("session.trace")
        """
        self._call(lib.animrt_trace_start, os.fsencode(path))
        self._native.tracing = True

    def stop_trace(self) -> None:
        """Stops recording and closes the trace file (``animrt_trace_stop``): ``rt.stop_trace()``.

        If a line could not be written (a full disk, a file size limit), nothing after it was, and this
        raises :class:`NotFoundError` naming the first line lost; recording stops either way.
        :meth:`close` stops a trace still being recorded the same way, and raises the same error once
        the runtime is gone.
        """
        try:
            self._call(lib.animrt_trace_stop)
        finally:
            self._native.tracing = False

    def replay(self, path: Union[str, "os.PathLike[str]"]) -> int:
        """Replays a trace into this fresh runtime (``animrt_trace_replay``) and returns how many calls it
        made. If a call fails, or the events or values differ from the recording, :class:`StateError`
        names the trace line::

            calls = animrt.Runtime().replay("session.trace")
        """
        calls = c_size_t()
        self._call(lib.animrt_trace_replay, os.fsencode(path), byref(calls))
        return calls.value

    # -- extending ---------------------------------------------------------------
    @check.keywords("rt.register_timing_function()")
    def register_timing_function(self, name: str, fn: Callable[..., float], *, defaults: Sequence[float] = (),
                                 minimum: Optional[Sequence[float]] = None,
                                 maximum: Optional[Sequence[float]] = None) -> None:
        """Makes `fn(x, *parameters)` the timing function `name` (``animrt_timing_function_register``),
        usable by name anywhere a curve is: ``"name"`` with the `defaults`, ``"name(p1, …)"`` with
        others, checked against `minimum` and `maximum` (up to 8 parameters)::

            rt.register_timing_function("wobble", lambda x, k: x + k * x * (1 - x), defaults=(0.5,),
                                        minimum=(-1,), maximum=(1,))
            rt.basic("opacity", to=1, timing_function="wobble(0.8)")

        It is called for every evaluation, on the ticking thread (or the evaluation threads): keep
        it pure, and do not call the runtime from it (:class:`StateError`). If it raises, its value
        counts as 0 and the tick raises :class:`CallbackError` from the exception once it is done
        (the call that ran it raises it, on its thread: a tick also for the evaluation threads).
        So does a result that is not a finite number (a ``ValueError`` for NaN or an infinity,
        where the library alone would show 0 and say nothing).
        """
        _plugins.register_timing_function(self, name, fn, defaults, minimum, maximum)

    @check.keywords("rt.register_block_timing_function()")
    def register_block_timing_function(self, name: str, fn: Callable[..., None], *, defaults: Sequence[float] = (),
                                       minimum: Optional[Sequence[float]] = None,
                                       maximum: Optional[Sequence[float]] = None) -> None:
        """Makes `fn(x, y, *parameters)` the timing function `name`, evaluated over arrays
        (``animrt_timing_function_register_block``): `x` is a read-only memoryview of progress
        values in [0, 1], `y` a writable memoryview of as many zeros, and `fn` writes the eased
        value of each ``x[i]`` into ``y[i]``. The batch calls it once per run of animations on
        the curve (a few hundred values), so one Python call serves many animations; a single
        value comes as arrays of one. ``y[i]`` must depend on ``x[i]`` and the parameters alone.
        With numpy::

            def wobble(x, y, k):
                x = numpy.frombuffer(x)
                numpy.frombuffer(y)[:] = x + k * x * (1 - x)

            rt.register_block_timing_function("wobble", wobble, defaults=(0.5,), minimum=(-1,), maximum=(1,))

        The same rules as :meth:`register_timing_function` otherwise; if it raises, or writes a
        value that is not a finite number (NaN, an infinity), the values of that call count as 0 and
        the tick raises :class:`CallbackError` once it is done.
        """
        _plugins.register_timing_function(self, name, fn, defaults, minimum, maximum, block=True)

    def register_function(self, name: str, signature: str, fn: Callable[..., object]) -> Function:
        """Makes `fn` the function `name` with a C `signature` (``animrt_function_register``), for
        machines' guards, expressions and ``call`` actions, and for :meth:`call`::

            rt.register_function("canLike", "bool(f64, f64)", lambda likes, limit: likes < limit)

        Arguments arrive as float (f32, f64), int (integers), bool, str or an int address (ptr). If
        `fn` raises, a machine gets ``error.execution`` with the exception's text, and the call that
        ran it raises :class:`CallbackError` from the exception when it returns (that call, on its
        thread; not a call another thread makes meanwhile). So does a result
        its signature does not allow: a number for f32 and f64 (True is not one), an int for the
        integer types, True or False (or 0, 1) for bool — a guard returning ``"no"`` is an error,
        not a yes — and a str of at most 1 MiB of UTF-8 (``ANIMRT_STRING_MAX``) for str.
        """
        return _plugins.register_function(self, name, signature, fn)

    @check.keywords("rt.bind_function()")
    def bind_function(self, symbol: str, signature: str, *, library: Optional[PathLike] = None,
                      name: Optional[str] = None) -> Function:
        """Binds the C function `symbol` of `library` (a path or soname; None: the process) with
        its `signature` (docs/plugins.md) as the function `name` (default: the symbol), through
        libffi (``animrt_function_bind``)::

            power = rt.bind_function("pow", "f64(f64, f64)", library="libm.so.6")
            power(2, 10)      # 1024.0, and "power(2, x) > 3" works in a guard

        The signature is taken on trust: a library records no C types, so one that is not the
        function's (another parameter count, f32 for a double) is undefined behaviour, garbage
        or a crash, never an exception. Copy it from the function's declaration.
        """
        return _plugins.bind_function(self, symbol, signature, library, name)

    @check.keywords("rt.bind_timing_function()")
    def bind_timing_function(self, symbol: str, *, library: Optional[PathLike] = None, name: Optional[str] = None,
                             signature: str = "f64(f64)") -> None:
        """Binds the C function ``double symbol(double)`` as the timing function `name` (default:
        the symbol) (``animrt_timing_function_bind``); any other signature raises :class:`KindError`:
        ``rt.bind_timing_function("example_bounce", library=".build/c/libexamples.so", name="thud")``.
        As with :meth:`bind_function`, the signature is taken on trust: a function that is not
        ``double f(double)`` is undefined behaviour, not an exception."""
        _plugins.bind_timing_function(self, symbol, signature, library, name)

    def call(self, name: str, *args: CValue) -> CValue:
        """Calls function `name` (bound, registered, or a plugin's) with `args` converted to its
        parameter types (``animrt_function_call``): numbers, ints, bools, strs, and None or a
        ``ctypes.c_void_p`` for a pointer. Returns its result as float, int, bool, str, an int
        address, or None for void: ``rt.call("power", 2, 10)`` → 1024.0."""
        return _plugins.call(self, name, args)

    def load_plugin(self, path: PathLike) -> Plugin:
        """Loads the plugin at `path` into this runtime (``animrt_plugin_load``): its timing
        functions, functions and machine definitions become the runtime's. Another plugin ABI
        version raises :class:`VersionError`, a failing init :class:`CallbackError`, a name that
        exists or a library this runtime holds already :class:`ExistsError`, an entry point whose
        name is NULL, too long or not UTF-8 the error saying which; in every case nothing of it stays.
        A relative path is read from the working directory; a name without "/" (``"libx.so"``) is
        looked for where the system's loader looks, never there: write ``"./libx.so"``::

            examples = rt.load_plugin(".build/c/libexamples.so")  # make plugins builds it there
            like = rt.machine(rt.definition(named="likeButton"))
        """
        return _plugins.load_plugin(self, path)

    # -- objects ---------------------------------------------------------------
    @check.keywords("rt.layer()")
    def layer(self, parent: Optional[Layer] = None) -> Layer:
        """A new layer (``animrt_layer_create``), a root or the last child of `parent`.

        ``toast = rt.layer()``; ``spoke = rt.layer(spinner)``.
        """
        return Layer(self, parent)

    def basic(self, key_path: str, *, from_: Optional[ValueLike] = None, to: Optional[ValueLike] = None,
              by: Optional[ValueLike] = None, **options: Unpack[AnimationOptions]) -> BasicAnimation:
        """A basic animation (Core Animation's CABasicAnimation) of `key_path`.

        It runs from ``from_`` to ``to``; with only ``to``, from the current
        value; with only ``by``, that far from it. Timing options are keyword
        arguments (see :class:`TimingOptions`); the default duration is 0.25 s::

            fade = rt.basic("opacity", from_=1.0, to=0.0, duration=0.3, timing_function="easeIn")
            spin = rt.basic("transform.rotation.z", by=2 * math.pi, duration=1.0, repeat_count=math.inf)
        """
        return BasicAnimation(self, key_path, from_=from_, to=to, by=by, **options)

    def spring(self, key_path: str, *, from_: Optional[ValueLike] = None, to: Optional[ValueLike] = None,
               by: Optional[ValueLike] = None, mass: Optional[float] = None, stiffness: Optional[float] = None,
               damping: Optional[float] = None, initial_velocity: float = 0.0, allows_overdamping: bool = False, response: Optional[float] = None,
               damping_ratio: Optional[float] = None, perceptual_duration: Optional[float] = None,
               bounce: Optional[float] = None, **options: Unpack[SpringOptions]) -> SpringAnimation:
        """A spring animation (Core Animation's CASpringAnimation) of `key_path`.

        It runs until the spring comes to rest: ``duration="settling"`` is the
        default here (Core Animation's own default cuts a spring off at 0.25 s).
        Give ``duration=`` seconds to cut it off there instead. The spring is
        mass, stiffness and damping (1, 100 and 10 unless given); or SwiftUI's
        ``response`` and ``damping_ratio``; or Core Animation's
        ``perceptual_duration`` and ``bounce``: one of the three ways, as each
        sets the whole spring (two raise :class:`InvalidArgumentError`). Half a
        pair takes SwiftUI's default for the other half: response 0.5 s and
        damping_ratio 1, perceptual_duration 0.5 s and bounce 0::

            drop = rt.spring("position.y", from_=-40, to=60, damping=12, stiffness=180)
            drop.settling_duration          # 1.21 s: how long it runs
            snap = rt.spring("position.y", to=60, perceptual_duration=0.4, bounce=0.2)

        A drag released at `speed` points per second: ``initial_velocity`` is Core Animation's,
        in from→to distances per second, so divide by the distance; and ``begin_time=rt.time``
        starts the spring at the tick just made, as Core Animation starts an animation when it is
        added (by default it begins at the next tick, which shows ``from_`` a frame longer, a
        hitch as the finger lifts)::

            x = card.presentation("position.x")     # where the finger left it
            card["position.x"] = 0.0                # the model: where it comes to rest
            card.add_animation(rt.spring("position.x", from_=x, to=0.0, initial_velocity=speed / (0.0 - x),
                                         begin_time=rt.time), key="release")
        """
        return SpringAnimation(self, key_path, from_=from_, to=to, by=by, mass=mass, stiffness=stiffness,
                               damping=damping, initial_velocity=initial_velocity,
                               allows_overdamping=allows_overdamping, response=response, damping_ratio=damping_ratio,
                               perceptual_duration=perceptual_duration, bounce=bounce, **options)

    def keyframe(self, key_path: str, values: Iterable[ValueLike] = (), *,
                 key_times: Optional[Iterable[float]] = None,
                 timing_functions: Optional[Iterable[Optional[str]]] = None,
                 calculation_mode: CalculationModeLike = "linear", path: Optional[Iterable[PathElementLike]] = None,
                 rotation_mode: RotationModeLike = "none",
                 **options: Unpack[AnimationOptions]) -> KeyframeAnimation:
        """A keyframe animation (Core Animation's CAKeyframeAnimation) of `key_path` through `values`.

        `key_times` (from 0 to 1, one per value; None: evenly spaced),
        `timing_functions` (one per segment) and `calculation_mode`
        ("linear", "discrete", "paced", "cubic", "cubicPaced") are Core
        Animation's; `values` may be a numpy array of shape ``(n, components)``::

            blink = rt.keyframe("opacity", [1, 0, 1], key_times=[0, 0.5, 1], duration=0.6, repeat_count=3)
            path = rt.keyframe("position", numpy.column_stack([xs, ys]), duration=2.0)

        Along a `path` of ("move", x, y), ("line", x, y), ("quad", …),
        ("cubic", …), ("close",) tuples the keyframes are its points; "paced"
        moves at constant speed by arc length; ``rotation_mode="auto"`` turns
        the layer to the tangent::

            fly = rt.keyframe("position", path=[("M", 0, 0), ("Q", 50, 100, 100, 0)], calculation_mode="paced",
                              rotation_mode="auto", duration=1.0)
        """
        return KeyframeAnimation(self, key_path, values, key_times=key_times, timing_functions=timing_functions,
                                 calculation_mode=calculation_mode, path=path, rotation_mode=rotation_mode,
                                 **options)

    def decay(self, key_path: str, velocity: ValueLike, *, from_: Optional[ValueLike] = None,
              deceleration_rate: float = 0.998, rest_velocity: float = 0.5,
              **options: Unpack[TimingOptions]) -> DecayAnimation:
        """A decay (inertia, as Pop's and a scroll view's): `velocity` units per second keeping
        `deceleration_rate` of itself each millisecond; it lasts until its speed is `rest_velocity`.

        Without ``from_`` it starts from the model value::

            fling = rt.decay("position", (800, -300))
            toast.add_animation(fling)
        """
        return DecayAnimation(self, key_path, velocity, from_=from_, deceleration_rate=deceleration_rate,
                              rest_velocity=rest_velocity, **options)

    def group(self, children: Iterable[Animation] = (), **options: Unpack[AnimationOptions]) -> AnimationGroup:
        """A group (Core Animation's CAAnimationGroup): copies of `children` run in its time, clipped to it.

        ::

            pop = rt.group([rt.basic("opacity", from_=0, to=1), rt.basic("transform.scale", from_=0.8, to=1)],
                           duration=0.3, timing_function="easeOut")

        As in Core Animation, the group's own duration clips its children, and a group given none
        lasts 0.25 s (or the open transaction's duration) whatever its children's: give it one as long
        as its longest child (``duration=1.0``). A child without a duration runs for the group's.
        """
        return AnimationGroup(self, children, **options)

    def barrier(self) -> Barrier:
        """A new barrier (``animrt_barrier_create``) at count 0: ``arrived = rt.barrier()``."""
        return Barrier(self)

    @check.keywords("rt.transaction()")
    def transaction(self, *, animation_duration: Optional[float] = None, token: int = 0,
                    on_complete: Optional[Callable[[], object]] = None) -> Transaction:
        """A transaction (Core Animation's CATransaction) to use in a ``with`` block.

        Animations added inside count toward it; once all have stopped,
        `on_complete` runs on the ticking thread, or a
        :class:`TransactionCompleted` event carrying the transaction (and
        `token`) is reported. `animation_duration` replaces the 0.25 s default
        of animations added inside without a duration (a nested transaction without one,
        or with 0, uses the enclosing one's); a negative or non-finite one is
        refused here, at the call, with nothing begun::

            with rt.transaction(animation_duration=0.5, on_complete=lambda: toast.destroy()):
                toast.add_animation(rt.basic("opacity", to=0))

        The transaction begins when the ``with`` block is entered and is
        committed when it is left: one with `on_complete` or `token` that is
        never entered never completes, and warns with ``RuntimeWarning`` when
        it is garbage-collected.

        There are no implicit animations: setting a model value inside
        (``layer["opacity"] = 0``) changes it at once, as on a layer Core Animation does not
        animate implicitly (a view's backing layer); only the animations added inside count.
        """
        return Transaction(self, animation_duration, token, on_complete)

    @check.keywords("rt.start_timer()")
    def start_timer(self, delay: float, callback: Optional[Callable[[], object]] = None, *,
                    token: int = 0) -> Timer:
        """Starts a one-shot timer `delay` seconds after the last tick (``animrt_timer_start``),
        or after the first tick when none has been made yet.

        At the first tick at or after that time, `callback` runs on the
        ticking thread, or a :class:`TimerFired` event carrying the timer and
        `token` is reported::

            rt.start_timer(1.5, fade_out)
            ping = rt.start_timer(0.5, token=42)

        Before the first tick the runtime has no time yet (the clock is the
        host's, and its first tick may be at 1234.5 s as well as at 0), so
        the delay counts from the first tick: ``rt.start_timer(0.5, f)``
        then ``rt.tick(1)`` does not call ``f`` (it is due at 1.5); a first
        ``rt.tick(0)`` starts the clock, and ``rt.tick(1)`` after it does.
        """
        return Timer(self, delay, callback, token)

    @overload
    def reader(self, targets: Iterable[Tuple[Union[Layer, int], str]]) -> Reader: ...
    @overload
    def reader(self, targets: LayersLike, key_path: str) -> Reader: ...

    def reader(self, targets: Any, key_path: Optional[str] = None) -> Reader:
        """A bulk reader of (layer, key path) targets (``animrt_reader_create``): see :class:`Reader`.

        With `key_path`, `targets` are layers (an array of handles from
        :meth:`create_layers`, or layers) all read at that key path, with no
        Python work per layer::

            reader = rt.reader([(p, "position") for p in particles])
            xy = reader.read()          # shape (len(particles), 2)
            dots = rt.create_layers(100_000)
            alphas = rt.reader(dots, "opacity")
        """
        return Reader(self, targets, key_path)

    # -- whole scenes ---------------------------------------------------------
    @check.keywords("rt.create_layers()")
    def create_layers(self, count: int, parent: Optional[Layer] = None) -> "array[int]":
        """`count` new layers in one call (``animrt_layer_create_many``), as an ``array('Q')`` of handles.

        Pass the array to :meth:`add_animations` and :meth:`reader`; numpy
        sees it without a copy (``numpy.frombuffer(ids, numpy.uint64)``);
        ``Layer`` objects are not made for them::

            dots = rt.create_layers(100_000)
        """
        from ._layer import _parent_id
        n = check.integer(count, "count", 0, 2 ** 28)
        ids, out = _bulk.handles(n)
        self._call(lib.animrt_layer_create_many, _parent_id(parent), n, out)
        return ids

    def set_values(self, layers: LayersLike, key_path: str, values: ColumnLike) -> None:
        """Sets the model value of `key_path` on every layer of `layers` in one call (``animrt_layer_set_values``).

        `values` holds one value per layer, as a column of :meth:`add_animations`
        does: a numpy array (float64 is used in place), an ``array('d')``, a
        sequence of numbers or of tuples, or one value for every layer; for a
        key path of several components, one row per layer (shape
        ``(layers, components)``) or the components one layer after another.
        The same as ``layer.set_value(key_path, value)`` layer after layer,
        with no Python work per layer, and all or none: if one layer or value
        is refused (the message names it, ``layers[7]`` or ``values for
        layers[7]``), no layer is changed. A layer given twice is refused::

            dots = rt.create_layers(10_000)
            rt.set_values(dots, "opacity", numpy.linspace(0, 1, 10_000))
            rt.set_values(dots, "position", numpy.column_stack([xs, ys]))
        """
        info = self._keypath(check.text(key_path, "key_path"))
        pinned = _bulk.Pinned()
        address, n = pinned.layers(layers)
        data = pinned.doubles(values, n * info.components, "values", info.components)
        self._call(lib.animrt_layer_set_values, cast(address, POINTER(c_uint64)), n, info.id,
                   cast(data, POINTER(c_double)), n * info.components)

    def add_animations(self, animation: Animation, layers: LayersLike, *, key: Optional[str] = None,
                       barrier: Optional[Barrier] = None, **columns: ColumnLike) -> "array[int]":
        """Adds a copy of `animation` to every layer of `layers`, with per-layer values (``animrt_layer_add_animations``).

        Each keyword is a column, one value per layer: a timing parameter
        (``begin_time``, ``duration``, ``speed``, ``time_offset``,
        ``repeat_count``, ``repeat_duration``, ``iteration_start``,
        ``end_delay``, ``delay``, ``iterations``, ``iteration_duration``) or a
        value (``from_``, ``to``, ``by``, ``velocity``; as many numbers per
        layer as the key path has components). A column is a numpy array
        (float64 is used in place; other number types and layouts are
        copied), an ``array('d')``, a sequence of numbers, or one number for
        all; a value column may also be a sequence of tuples, one per layer,
        or one tuple for all (``to=(0.0, 40.0)`` on ``position``).
        The result is the same as setting the i-th values on `animation` and
        adding it to the i-th layer, layer after layer, but made in one call
        with no Python work per layer; `animation` itself is not changed.
        Everything is checked first: on error nothing is added. Returns the
        attached animations' handles (``array('Q')``)::

            dots = rt.create_layers(n)
            fade = rt.basic("opacity", timing_function="easeOut", fill_mode="both", removed_on_completion=False)
            rt.add_animations(fade, dots, begin_time=starts, duration=0.5, from_=0.0, to=alphas)
        """
        from ._layer import _check_attachment
        _check_attachment(animation, key, barrier)
        pinned = _bulk.Pinned()
        address, n = pinned.layers(layers)
        components = 1
        if animation.key_path is not None and any(c in _bulk.VALUE_COLUMNS for c in columns):
            components = self._keypath(animation.key_path).components
        table, m = _bulk.columns(pinned, columns, n, components)
        ids, out = _bulk.handles(n)
        self._call(lib.animrt_layer_add_animations, animation._id, cast(address, POINTER(c_uint64)), n,
                                        table, m, None if key is None else check.text(key, "key").encode(),
                                        0 if barrier is None else barrier._id, out)
        return ids

    def evaluate_timing_function(self, name: Union[str, Tuple[float, float, float, float]], x: float) -> float:
        """The value of a timing function at progress `x` (``animrt_timing_function_evaluate``).

        ``rt.evaluate_timing_function("easeInEaseOut", 0.25)`` → 0.129; a
        misspelt name raises :class:`NotFoundError` suggesting Core Animation's. Four numbers
        (x1, y1, x2, y2) are a cubic bezier, as ``timing_function=`` takes them:
        ``rt.evaluate_timing_function((0.42, 0, 0.58, 1), 0.25)`` → 0.129.
        Past [0, 1] a built-in curve follows its end tangents (a plugin's is
        clamped), and raises :class:`RangeError` where they give no finite value (a flat one stays at
        its end at any x: ``rt.evaluate_timing_function("easeInEaseOut", math.inf)`` → 1.0).
        """
        curve = _segment_curve(name, "name") if not isinstance(name, (str, bytes)) and isinstance(name, Iterable) \
            else name
        out = c_double()
        self._call(lib.animrt_timing_function_evaluate, check.text(curve, "name").encode("utf-8"),
                                            check.number(x, "x"), byref(out))
        return out.value

    def __repr__(self) -> str:
        return "<Runtime closed>" if self.closed else f"<Runtime time={self.time}>"


def _on_its_loop(future: "asyncio.Future[Any]", complete: Callable[..., None], *args: Any) -> None:
    """Runs ``complete(future, *args)`` at once on `future`'s event loop's thread (the tick runs in
    one of its tasks), else from that loop's thread; a loop closed meanwhile has nothing awaiting."""
    loop = future.get_loop()
    try:
        running: Optional[asyncio.AbstractEventLoop] = asyncio.get_running_loop()
    except RuntimeError:
        running = None
    if running is loop:
        complete(future, *args)
        return
    try:
        loop.call_soon_threadsafe(complete, future, *args)
    except RuntimeError:  # its loop is closed: nothing awaits it any more
        pass


def _resolve(future: "asyncio.Future[bool]", finished: bool) -> None:
    """Completes `future` with `finished` on its loop (`_on_its_loop`); one whose task gave up
    (cancelled) is left alone."""
    _on_its_loop(future, _set_if_pending, finished)


def _set_if_pending(future: "asyncio.Future[bool]", finished: bool) -> None:
    if not future.done():
        future.set_result(finished)


def _end(future: "asyncio.Future[str]", reached: Optional[str], error: Optional[AnimrtError]) -> None:
    """Completes `future` with the state `reached`, or with `error`, on its loop (`_on_its_loop`);
    one whose task gave up is left alone."""
    _on_its_loop(future, _end_if_pending, reached, error)


def _end_if_pending(future: "asyncio.Future[str]", reached: Optional[str], error: Optional[AnimrtError]) -> None:
    if future.done():
        return
    if error is not None:
        future.set_exception(error)
    elif reached is not None:
        future.set_result(reached)


def _handle(handler: Handler, event: ev.Event) -> None:
    """``handler(event)``; what it raises is noted with the event it was given (see `_callbacks.call`)."""
    _callbacks.call(handler, (event,), lambda: f"the on_event handler, given {event!r}")


def _flatten_initial(initial: object) -> List[float]:
    """The numbers of a property's initial value, whatever its kind."""
    if isinstance(initial, (str, bytes)) or initial is None:
        raise ArgumentTypeError(f"initial is {check.describe(initial)}; it must be a number or numbers")
    out: List[float] = []
    flatten(initial, "initial", out)
    return out

