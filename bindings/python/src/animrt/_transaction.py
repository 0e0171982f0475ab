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
from ._object import Object, Strict

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


class Transaction(Strict, Object):
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
    ``token``, ``on_complete`` and ``animation_duration`` are read-only: they
    are given to :meth:`Runtime.transaction`, which checks them, and a name
    the class does not have is refused (``t.on_complet = f`` raises
    ``AttributeError``: did you mean 'on_complete'?).

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
    _token = 0
    _on_complete: Optional[Callable[[], object]] = None
    _animation_duration: Optional[float] = None

    def __init__(self, runtime: Runtime, animation_duration: Optional[float], token: int,
                 on_complete: Optional[Callable[[], object]]) -> None:
        self._runtime = runtime
        self._animation_duration = None if animation_duration is None else _duration(animation_duration)
        if on_complete is not None:
            check.callback(on_complete, "on_complete")
            if token != 0:
                raise ArgumentTypeError("pass on_complete or a token, not both: on_complete runs instead of a "
                                        "TransactionCompleted event")
        self._token = check.token(token, callable_goes="a callable goes to on_complete=fn, and runs instead of a "
                                                       "TransactionCompleted event")
        self._on_complete = on_complete

    # Read-only: each was checked by rt.transaction() and is what the with block begins and commits;
    # one assigned afterwards would go unchecked, and a misspelt one would be a new attribute never read.
    @property
    def token(self) -> int:
        """The program's token, reported in its :class:`TransactionCompleted` event (0 with
        ``on_complete``): ``rt.transaction(token=7).token`` → 7."""
        return self._token

    @property
    def on_complete(self) -> Optional[Callable[[], object]]:
        """The callable run once everything added inside has stopped, or None when a
        :class:`TransactionCompleted` event is reported instead:
        ``rt.transaction(on_complete=toast.destroy).on_complete``."""
        return self._on_complete

    @property
    def animation_duration(self) -> Optional[float]:
        """The duration of the animations added inside without one, or None for the enclosing
        transaction's (or the 0.25 s default): ``rt.transaction(animation_duration=0.5).animation_duration``
        → 0.5."""
        return self._animation_duration

    #: What the ways of giving a completion elsewhere are answered with (UIKit's completion block,
    #: JavaScript's onfinish, a callback).
    _COMPLETION_HABITS = ("completion", "completion_block", "completion_handler", "on_completion", "on_done",
                          "on_finish", "onfinish", "callback", "done", "then")

    def _hint(self, name: str, reading: bool = False) -> str:
        """A misspelt option, or another library's completion, answered with where it is given."""
        given = ("token", "on_complete", "animation_duration")
        near = check.closest(name, given)
        if near is None and name.lower() in self._COMPLETION_HABITS:
            near = "on_complete"
        if near is None:
            return ""
        return f"; did you mean {near!r}?" + ("" if reading else f" It is {_given(near)}")

    def _read_only_hint(self, name: str) -> str:
        return f"; it is {_given(name)}"

    def __enter__(self) -> Transaction:
        rt = self._runtime
        if self._used:
            raise StateError(f"{self!r} was already used; make a new one with rt.transaction()")
        rt._call(lib.animrt_transaction_begin, self._animation_duration or 0.0)
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
        if self._on_complete is not None:  # before the commit: a transaction with nothing in it completes at once
            rt._transactions[self._id] = self
        try:
            rt._call(lib.animrt_transaction_commit, self._token)
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
        # Only a transaction made with something to report: `_token` and `_on_complete` are set last in
        # __init__, so one whose arguments were refused says nothing, nor does a stand-in from an event.
        if self._on_complete is None and not self._token:
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
        told = (f"its on_complete {_name(self._on_complete)} is never called" if self._on_complete is not None
                else f"no TransactionCompleted event with token {self._token} is ever reported")
        warnings.warn(f"a transaction made by rt.transaction() {what}: {told}; use it as "
                      "`with rt.transaction(...):`", RuntimeWarning)

    def __repr__(self) -> str:
        """``<Transaction open animation_duration=0.5 0x…>``: whether it is open or committed, and its
        duration when it sets one."""
        duration = "" if self._animation_duration is None else f" animation_duration={self._animation_duration!r}"
        if not self._id:
            return f"<Transaction (not begun){duration}>"
        return f"<Transaction {'open' if self._open else 'committed'}{duration} {self._id:#x}>"


def _given(option: str) -> str:
    """Where `option` of a transaction is given: ``given when the transaction is made: rt.transaction(token=...)``."""
    return f"given when the transaction is made: rt.transaction({option}=...)"


def _name(fn: Callable[[], object]) -> str:
    """A callable as a warning names it: its qualified name and where it is defined, when known."""
    name = getattr(fn, "__qualname__", None) or repr(fn)
    code = getattr(fn, "__code__", None)
    return f"{name} ({code.co_filename}:{code.co_firstlineno})" if code is not None else name


def _duration(value: object) -> float:
    """`animation_duration` as the library takes it, refused here rather than when the ``with`` block
    begins the transaction, far from the call: finite, and 0 or more (0 is the same as None). The
    message names the value as it was given (-1, not -1.0), as the library's own refusals do."""
    seconds = check.seconds(value, "animation_duration")
    if not math.isfinite(seconds):
        raise InvalidArgumentError(f"animation_duration is {value}; it must be a finite number of seconds")
    if seconds < 0:
        raise RangeError(f"animation_duration is {value}; it must be 0 or more seconds (0 or None: the "
                         "enclosing transaction's, else the 0.25 s default)")
    return seconds
