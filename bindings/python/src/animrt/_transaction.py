"""Transactions: animations added inside one complete together."""
from __future__ import annotations

import math
import threading
import warnings
from ctypes import byref, c_uint64
from typing import TYPE_CHECKING, Any, Callable, List, Optional

from . import _arguments as check
from ._errors import AnimrtError, ArgumentTypeError, InvalidArgumentError, RangeError, StateError
from ._ffi import lib
from ._object import Object

if TYPE_CHECKING:
    from ._runtime import Runtime

# Each thread's own object (`_this_thread`): a transaction holds its thread's, so no thread made
# later is given the same one, as one is given the ident of a thread that ended.
_threads = threading.local()


def _waiting_blocks() -> List[Transaction]:
    """The calling thread's transactions whose blocks were left before a block entered after them:
    each is committed once it is the thread's innermost again."""
    try:
        return _threads.deferred  # type: ignore[no-any-return]
    except AttributeError:
        pending: List[Transaction] = []
        _threads.deferred = pending
        return pending


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
    must be left on that thread: left on another one (a generator resumed
    there), it raises :class:`StateError` and commits nothing, and the
    transaction stays open on its own thread (it warns when collected).
    A thread commits its transactions innermost first: asyncio tasks, or
    generators, whose blocks interleave on one thread share its stack. A
    block left while one entered after it is still open warns
    (``RuntimeWarning``) and is committed when that one is left; what the
    thread adds until then joins it too.

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
    _deferred = False
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
        if not rt.closed:  # else the commit says so
            if _this_thread() is not self._thread:
                self._refused = True
                if exc[0] is not None:
                    return  # the block's own exception (a cancellation, say) goes on; the collector warns
                raise StateError(f"{self!r} was begun on another thread, and only the thread that began a "
                                 "transaction commits it: leave its with block on that thread (a generator it was "
                                 "suspended in was resumed here); nothing was committed, and it stays open there")
            inner = self._inner()
            if inner is not None:
                # Left before a block entered after it on this thread (asyncio tasks or generators whose
                # blocks interleave share the thread's transactions): committed once that one is left,
                # as the thread commits its transactions innermost first.
                self._deferred = True
                _waiting_blocks().append(self)
                warnings.warn(f"{self!r} was left while {inner}, begun after it on this thread, is still open: "
                              "it is committed when that one is left, and what the thread adds until then joins it "
                              "(asyncio tasks or generators whose with blocks interleave on one thread share its "
                              "transactions)", RuntimeWarning, stacklevel=2)
                return
        try:
            self._commit(exc[0] is not None)
        finally:
            # Those of closed runtimes are dropped even when this commit is refused (its runtime closed
            # meanwhile): the thread would keep them, and their runtimes, alive until its next commit.
            pending = _waiting_blocks()
            pending[:] = [t for t in pending if not t._runtime.closed]
        # Blocks left before this one, now innermost in turn.
        while pending and not rt.closed:
            inner_id = self._current()
            ready = next((t for t in pending if t._runtime is rt and t._id == inner_id), None)
            if ready is None:
                break
            pending.remove(ready)
            ready._commit(False)

    def _commit(self, raising: bool) -> None:
        """Commits this transaction, the calling thread's innermost; `raising`: the block is left by an
        exception, which says more than that the runtime was closed meanwhile."""
        rt = self._runtime
        self._open = False
        if self.on_complete is not None:  # before the commit: a transaction with nothing in it completes at once
            rt._transactions[self._id] = self
        try:
            rt._call(lib.animrt_transaction_commit, self.token)
        except BaseException:
            rt._transactions.pop(self._id, None)
            if raising and rt.closed:
                return
            raise

    def _current(self) -> int:
        """The handle of the calling thread's innermost open transaction, or 0 for none."""
        out = c_uint64()
        try:
            self._runtime._call(lib.animrt_transaction_current, byref(out))
        except AnimrtError:
            return 0
        return out.value

    def _inner(self) -> Optional[str]:
        """What is open on this thread inside this transaction, if anything is: the commit would close
        that one instead of this one."""
        inner = self._current()
        if inner in (0, self._id):
            return None  # none open (the commit says why it is refused), or this one: innermost
        found = self._runtime._objects.get(inner)
        return repr(found) if isinstance(found, Transaction) else f"transaction {inner:#x}"

    def __del__(self) -> None:
        # Only a transaction made with something to report: `token` and `on_complete` are set last in
        # __init__, so one whose arguments were refused says nothing, nor does a stand-in from an event.
        if self.on_complete is None and not self.token:
            return
        if not self._used:
            what = "was never entered with `with`"
        elif self._open and not (self._deferred and self._runtime.closed):
            # (A block left, and waiting for one entered after it, that close() ended: close() says that
            # pending completion callables never run.)
            what = ("was begun but never committed (its with block was left on another thread)" if self._refused
                    else "was begun but never committed (its with block was left before one entered after it, "
                         "which was never left)" if self._deferred
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
