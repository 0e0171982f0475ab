"""Transactions: animations added inside one complete together."""
from __future__ import annotations

import math
import threading
import warnings
from ctypes import byref, c_uint64
from typing import TYPE_CHECKING, Any, Callable, Optional

from . import _arguments as check
from ._errors import AnimrtError, ArgumentTypeError, InvalidArgumentError, RangeError, StateError
from ._ffi import lib
from ._object import Object

if TYPE_CHECKING:
    from ._runtime import Runtime

# Each thread's own object (`_this_thread`): a transaction holds its thread's, so no thread made
# later is given the same one, as one is given the ident of a thread that ended.
_threads = threading.local()


def _this_thread() -> object:
    """An object of the calling thread's, never another thread's while a transaction holds it."""
    try:
        return _threads.me
    except AttributeError:
        me = _threads.me = object()
        return me


class Transaction(Object):
    """A transaction (``animrt_transaction_begin`` … ``commit``), used as a context manager;
    made by :meth:`Runtime.transaction`.

    Animations added inside count toward it; once all have stopped, its
    ``on_complete`` runs on the ticking thread (Core Animation's completion
    block), or a :class:`TransactionCompleted` event carrying this object is
    reported. Transactions nest::

        with rt.transaction(on_complete=lambda: print("both done")):
            toast.add_animation(fade)
            badge.add_animation(shrink)

    The transaction is told apart by its own handle, never by a token the
    binding picks; ``token`` is only the program's, reported in the event.

    A transaction belongs to the thread whose ``with`` block opened it, as
    Core Animation's do: animations another thread adds meanwhile are not
    in it, and that thread's own transactions nest apart from it. Its block
    must be left on that thread, and the blocks open on one thread left
    innermost first: asyncio tasks, or generators, whose blocks interleave on
    one thread share its stack. Leaving one out of turn raises
    :class:`StateError` and commits nothing: it stays open on its thread for
    good, so that animations the thread adds later join it, and its
    ``on_complete`` is never called (it warns when collected).

    Nothing happens until the ``with`` block: a transaction made with an
    ``on_complete`` or a ``token`` that is never entered (or entered by hand
    and never exited) never completes, and when it is garbage-collected it
    warns with ``RuntimeWarning``, as a coroutine never awaited does.
    """

    _id = 0
    _thread: object = None
    _open = False
    _used = False
    _refused = False
    token = 0
    on_complete: Optional[Callable[[], object]] = None

    def __init__(self, runtime: Runtime, animation_duration: Optional[float], token: int,
                 on_complete: Optional[Callable[[], object]]) -> None:
        self._runtime = runtime
        self.animation_duration = None if animation_duration is None else _duration(animation_duration)
        if on_complete is not None:
            check.callback(on_complete, "on_complete")
            if token != 0:
                raise ArgumentTypeError("pass on_complete or a token, not both: on_complete runs instead of a "
                                        "TransactionCompleted event")
        self.token = check.token(token)
        self.on_complete = on_complete

    def __enter__(self) -> Transaction:
        rt = self._runtime
        if self._used:
            raise StateError(f"{self!r} was already used; make a new one with rt.transaction()")
        rt._call(lib.animrt_transaction_begin, self.animation_duration or 0.0)
        out = c_uint64()
        rt._call(lib.animrt_transaction_current, byref(out))
        Object.__init__(self, rt, out.value, owned=False)
        self._thread = _this_thread()
        self._open = self._used = True
        return self

    def __exit__(self, *exc: Any) -> None:
        if not self._open:
            return
        rt = self._runtime
        self._check_innermost()
        self._open = False
        if self.on_complete is not None:  # before the commit: a transaction with nothing in it completes at once
            rt._transactions[self._id] = self
        try:
            rt._call(lib.animrt_transaction_commit, self.token)
        except BaseException:
            rt._transactions.pop(self._id, None)
            if exc[0] is not None and rt.closed:
                return  # the block's own exception says more than that the runtime closed meanwhile
            raise

    def _check_innermost(self) -> None:
        """Refuses to leave the block unless this is the calling thread's innermost open transaction:
        the commit would close that one instead (or none), and this one would stay open."""
        rt = self._runtime
        if rt.closed:
            return  # the commit says so
        if _this_thread() is not self._thread:
            self._refused = True
            raise StateError(f"{self!r} was begun on another thread, and only the thread that began a transaction "
                             "commits it: leave its with block on that thread (a generator it was suspended in "
                             "was resumed here); nothing was committed, and it stays open there")
        out = c_uint64()
        try:
            rt._call(lib.animrt_transaction_current, byref(out))
        except AnimrtError:  # the commit says why it is refused
            return
        if out.value == self._id:
            return
        self._refused = True
        found = rt._objects.get(out.value)
        inner = repr(found) if isinstance(found, Transaction) else f"transaction {out.value:#x}"
        raise StateError(f"{self!r} is not the innermost transaction open on this thread: {inner}, begun after it, is "
                         "still open. A thread commits its transactions innermost first, so their with blocks must be "
                         "left in the reverse order they were entered (asyncio tasks or generators whose blocks "
                         "interleave on one thread share its transactions); nothing was committed")

    def __del__(self) -> None:
        # Only a transaction made with something to report: `token` and `on_complete` are set last in
        # __init__, so one whose arguments were refused says nothing, nor does a stand-in from an event.
        if self.on_complete is None and not self.token:
            return
        if not self._used:
            what = "was never entered with `with`"
        elif self._open:
            what = ("was begun but never committed (its with block was left out of turn)" if self._refused
                    else "was begun but never committed (its __exit__ never ran)")
        else:
            return
        told = (f"its on_complete {_name(self.on_complete)} is never called" if self.on_complete is not None
                else f"no TransactionCompleted event with token {self.token} is ever reported")
        warnings.warn(f"a transaction made by rt.transaction() {what}: {told}; use it as "
                      "`with rt.transaction(...):`", RuntimeWarning)

    def __repr__(self) -> str:
        """``<Transaction open animation_duration=0.5 0x…>``: whether it is open or committed, and its
        duration when it sets one."""
        duration = "" if self.animation_duration is None else f" animation_duration={self.animation_duration!r}"
        if not self._id:
            return f"<Transaction (not begun){duration}>"
        return f"<Transaction {'open' if self._open else 'committed'}{duration} {self._id:#x}>"


def _name(fn: Callable[[], object]) -> str:
    """A callable as a warning names it: its qualified name and where it is defined, when known."""
    name = getattr(fn, "__qualname__", None) or repr(fn)
    code = getattr(fn, "__code__", None)
    return f"{name} ({code.co_filename}:{code.co_firstlineno})" if code is not None else name


def _duration(value: object) -> float:
    """`animation_duration` as the library takes it, refused here rather than when the ``with`` block
    begins the transaction, far from the call: finite, and more than 0 (0 is the same as None)."""
    seconds = check.seconds(value, "animation_duration")
    if not math.isfinite(seconds):
        raise InvalidArgumentError(f"animation_duration is {seconds}; it must be a finite number of seconds")
    if seconds < 0:
        raise RangeError(f"animation_duration is {seconds}; it must be more than 0 seconds (or None, for the "
                         "enclosing transaction's or the 0.25 s default)")
    return seconds
