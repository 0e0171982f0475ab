"""Timers: one-shot, on the runtime's clock."""
from __future__ import annotations

from ctypes import byref, c_int, c_uint64
from typing import TYPE_CHECKING, Callable, Optional

from . import _arguments as check
from ._errors import ArgumentTypeError, ClosedError, HandleError
from ._ffi import lib
from ._object import Object

if TYPE_CHECKING:
    from ._runtime import Runtime


class Timer(Object):
    """A one-shot timer (``animrt_timer_start``), made by :meth:`Runtime.start_timer`.

    It fires at the first tick at or after its time: its callback runs on
    the ticking thread, in event order, or a :class:`TimerFired` event
    carrying this object and its token is reported::

        hide = rt.start_timer(1.5, fade_out)
        ...
        hide.cancel()          # True: it had not fired, and never will
    """

    _token = 0
    _callback: Optional[Callable[[], object]] = None
    _done = False
    _cancelled = False
    #: when it is due on the runtime's clock (the order in which callables of lost events run)
    _due = 0.0
    #: the delay it was started with (named when its callback raises)
    _delay = 0.0

    def __init__(self, runtime: Runtime, delay: float, callback: Optional[Callable[[], object]], token: int) -> None:
        delay = check.seconds(delay, "delay")
        if callback is not None:
            check.callback(callback, "callback")
            if token != 0:
                raise ArgumentTypeError("pass a callback or a token, not both: the callback runs instead "
                                              "of a TimerFired event")
        token = check.token(token, callable_goes="a callable is the callback, rt.start_timer(delay, fn), and runs "
                                                 "instead of a TimerFired event")
        out = c_uint64()
        # Started and registered before another thread's tick polls its TimerFired (a delay of 0 fires
        # at the next tick): its callback runs, not a TimerFired event of a stand-in.
        with runtime._registering():
            runtime._call(lib.animrt_timer_start, delay, token, byref(out))
            self._due = runtime.time + delay
            self._delay = delay
            self._token = token
            self._callback = callback
            super().__init__(runtime, out.value, owned=False)
            if callback is not None:
                runtime._timers[out.value] = self

    # Read-only: both were handed to the library (or to the runtime's table of callbacks) when the
    # timer started; assigning another would change only what the object claims.
    @property
    def token(self) -> int:
        """The program's token, reported in its :class:`TimerFired` event (0 with a callback):
        ``rt.start_timer(0.5, token=42).token`` → 42."""
        return self._token

    @property
    def callback(self) -> Optional[Callable[[], object]]:
        """The callable run when it fires, or None when it reports a :class:`TimerFired` event
        instead: ``rt.start_timer(1.5, fade_out).callback is fade_out``."""
        return self._callback

    def cancel(self) -> bool:
        """Cancels the timer (``animrt_timer_cancel``): True if it was pending, False if it had already
        fired or been cancelled. A cancelled timer never fires: ``hide.cancel()``. One that fired at
        the tick whose callables are running (cancelled from one of them) has fired: False, and its
        callback still runs, in its turn."""
        if self._done:
            return False
        self._done = True
        try:
            self._runtime._call(lib.animrt_timer_cancel, self._id)
        except HandleError:  # it fired at a tick whose events are not all delivered yet (cancelled by a
            # callable of that tick, or from another thread): its callback still runs, where they are
            return False
        self._runtime._timers.pop(self._id, None)
        self._cancelled = True
        return True

    @property
    def pending(self) -> bool:
        """True until the timer fires or is cancelled: ``if hide.pending: hide.cancel()``.

        Asked of the library (``animrt_timer_pending``), not of what the binding has seen: a timer
        reads not pending from the tick that fires it, even when a full event queue lost its
        :class:`TimerFired` (an :class:`Overflow` says so); and once the runtime is closed, when it
        can no longer fire."""
        if self._done:
            return False
        out = c_int()
        try:
            self._runtime._call(lib.animrt_timer_pending, self._id, byref(out))
        except ClosedError:  # the runtime, and the timer, are gone
            return False
        if not out.value:
            self._done = True
        return bool(out.value)

    def _describe_callback(self) -> str:
        """Which timer's callback raised, for the note on its exception."""
        return f"the callback of {self!r}, started with a delay of {self._delay!r} s"

    def __repr__(self) -> str:
        """``<Timer token=42 pending 0x…>``: its token (when it reports one) and whether it is pending,
        fired or cancelled. It never raises."""
        parts = ["Timer"]
        if self._token:
            parts.append(f"token={self._token}")
        if self._cancelled:
            parts.append("cancelled")
        elif self._done:
            parts.append("fired")
        elif self._runtime.closed:
            parts.append("(runtime closed)")  # it never fires now
        else:
            try:
                parts.append("pending" if self.pending else "fired")
            except Exception:  # a repr never raises; the library could not be asked
                parts.append("pending?")
        parts.append(f"{self._id:#x}")
        return "<" + " ".join(parts) + ">"
