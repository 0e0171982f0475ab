"""Barriers: DispatchGroup-style completion counting (enter, leave, notify)."""
from __future__ import annotations

from ctypes import byref, c_size_t, c_uint64
from typing import TYPE_CHECKING, Callable, Optional, Union

from . import _arguments as check
from ._errors import ArgumentTypeError
from ._ffi import lib
from ._object import Scoped

if TYPE_CHECKING:
    from ._runtime import Runtime


class Barrier(Scoped):
    """A barrier (``animrt_barrier_create``) counts outstanding work, as a DispatchGroup does.

    :meth:`enter` adds one, :meth:`leave` removes one; animations added with
    ``barrier=`` enter when added and leave when they stop, however they
    stop. When the count returns to zero every pending :meth:`notify` fires
    once::

        arrived = rt.barrier()
        toast.add_animation(drop, key="in", barrier=arrived)
        arrived.notify(lambda: print("the toast has arrived"))   # runs at the tick it settles

    A barrier stays alive while an animation counts toward it or a
    notification waits on it, even if the program drops its last reference.
    As a context manager, the end of the ``with`` block destroys it, also when
    the block raises (notifications still waiting for the count never run; one
    already due, given while the count was zero or drained by a leave since,
    still runs at the next tick); a call on it afterwards raises
    :class:`HandleError`::

        with rt.barrier() as loaded:
            loaded.enter()
    """

    _destroy_fn = lib.animrt_barrier_destroy

    def _hint(self, name: str, reading: bool = False) -> str:
        """DispatchGroup's and threading's ways to wait, which a barrier answers with notify."""
        if name in ("wait", "join", "wait_all", "on_complete", "then", "done"):
            return ("; a barrier never blocks (nothing moves between ticks): barrier.notify(fn) runs fn at the tick "
                    "its count returns to zero")
        return ""

    def __init__(self, runtime: Runtime) -> None:
        out = c_uint64()
        runtime._call(lib.animrt_barrier_create, byref(out))
        super().__init__(runtime, out.value)

    def enter(self) -> None:
        """Adds one to the count (``animrt_barrier_enter``): work the barrier waits for has begun.

        ``loaded.enter()`` before a download starts; ``loaded.leave()`` when it ends.
        """
        self._runtime._call(lib.animrt_barrier_enter, self._id)

    def leave(self) -> None:
        """Removes one from the count (``animrt_barrier_leave``); at zero, pending notifications fire.

        A leave without a matching enter raises :class:`StateError` and changes nothing:
        ``loaded.leave()``.
        """
        rt = self._runtime
        rt._call(lib.animrt_barrier_leave, self._id)
        if rt._notifications and self.count == 0:  # drained: its callables are due, whatever destroy() does next
            rt._due_notifications.update(t for t, (b, _) in rt._notifications.items() if b is self)

    @check.keywords("barrier.notify()")
    def notify(self, completion: Union[int, Callable[[], object], None] = None, *,
               token: Optional[int] = None) -> None:
        """Runs `completion` when the count is next zero, at once (at the next tick) if it is zero now
        (``animrt_barrier_notify``).

        A callable runs on the ticking thread, inside :meth:`Runtime.tick`, in
        event order; an int token, given in its place or as ``token=`` (as
        :meth:`Runtime.start_timer` and :meth:`Runtime.transaction` take one),
        is reported as a :class:`BarrierNotified` event carrying it instead::

            arrived.notify(lambda: rt.start_timer(1.5, fade_out))
            arrived.notify(7)          # BarrierNotified(..., barrier=arrived, token=7)
            arrived.notify(token=7)    # the same

        At most 1,048,576 notifications wait on one barrier (``ANIMRT_BARRIER_NOTIFIES_MAX``): one
        more raises :class:`RangeError`, and the callable is not kept.
        """
        rt = self._runtime
        name = "completion"
        if token is not None:
            if completion is not None:
                raise ArgumentTypeError("pass a callable or a token, not both: the callable runs instead of a "
                                        "BarrierNotified event (barrier.notify(fn) or barrier.notify(token=7))")
            completion, name = check.token(token, "token", callable_goes="a callable is passed in its place, "
                                           "barrier.notify(fn), and runs instead of a BarrierNotified event"), "token"
        elif completion is None:
            raise ArgumentTypeError("barrier.notify() needs what to do when the count is zero: a callable to run "
                                    "(barrier.notify(fn)) or a token to report in a BarrierNotified event "
                                    "(barrier.notify(token=7))")
        if callable(completion):
            check.arity(completion, 0, "completion", "no arguments")
            token = rt._callable_token()
            rt._notifications[token] = (self, completion)
            try:
                rt._call(lib.animrt_barrier_notify, self._id, token)
            except BaseException:
                del rt._notifications[token]
                raise
            if self.count == 0:  # due already (given at zero, or drained since): destroy() no longer stops it
                rt._due_notifications.add(token)
            return
        value = check.token(completion, name)
        rt._call(lib.animrt_barrier_notify, self._id, value)
        rt._keep_until_notified(self)

    @property
    def count(self) -> int:
        """The current count (``animrt_barrier_count``): 0 when nothing is outstanding.
        ``arrived.count`` → 1 while the spring runs."""
        out = c_size_t()
        self._runtime._call(lib.animrt_barrier_count, self._id, byref(out))
        return out.value

    def __repr__(self) -> str:
        """``<Barrier count=2 0x…>``: how much work it waits for as of now. It never raises: a destroyed
        barrier, or one whose runtime is closed, says so instead of a count."""
        if self._runtime.closed:
            state = "(runtime closed)"
        elif self._finalizer is not None and not self._finalizer.alive:
            state = "(destroyed)"
        else:
            try:
                state = f"count={self.count}"
            except Exception:  # a stand-in for a barrier the library no longer has
                state = "(destroyed)"
        return f"<Barrier {state} {self._id:#x}>"

    def destroy(self) -> None:
        """Destroys the barrier (``animrt_barrier_destroy``); notifications still waiting for the count
        never run, while one already due (given at a count of zero, or drained since) runs at the next
        tick, as its event does in C. Idempotent; the garbage collector does it once nothing refers to
        the barrier: ``arrived.destroy()``."""
        rt = self._runtime
        for token in [t for t, (b, _) in rt._notifications.items() if b is self and t not in rt._due_notifications]:
            del rt._notifications[token]
        rt._waiting.pop(self._id, None)
        if self._finalizer is not None:
            self._finalizer()
