"""Transactions: animations added inside one complete together."""
from __future__ import annotations

from ctypes import byref, c_uint64
from typing import TYPE_CHECKING, Any, Callable, Optional

from . import _arguments as check
from ._errors import ArgumentTypeError, StateError
from ._ffi import lib
from ._object import Object

if TYPE_CHECKING:
    from ._runtime import Runtime


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
    """

    _id = 0
    _open = False
    _used = False

    def __init__(self, runtime: Runtime, animation_duration: Optional[float], token: int,
                 on_complete: Optional[Callable[[], object]]) -> None:
        self._runtime = runtime
        self.animation_duration = None if animation_duration is None else check.seconds(animation_duration,
                                                                                           "animation_duration")
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
        lib.animrt_transaction_begin(rt._ptr, self.animation_duration or 0.0)
        out = c_uint64()
        lib.animrt_transaction_current(rt._ptr, byref(out))
        Object.__init__(self, rt, out.value, owned=False)
        self._open = self._used = True
        return self

    def __exit__(self, *exc: Any) -> None:
        if not self._open:
            return
        self._open = False
        rt = self._runtime
        if self.on_complete is not None:  # before the commit: a transaction with nothing in it completes at once
            rt._transactions[self._id] = self
        try:
            lib.animrt_transaction_commit(rt._ptr, self.token)
        except BaseException:
            rt._transactions.pop(self._id, None)
            raise

    def __repr__(self) -> str:
        return f"<Transaction {self._id:#x}>" if self._id else "<Transaction (not begun)>"
