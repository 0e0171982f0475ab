"""Exceptions raised by Python callables that the library called.

A Python timing function or function runs inside a library call (a tick, a
send, :meth:`Runtime.call`). An exception it raises cannot cross the
library's frames: the callable's wrapper catches it, records it here under
its runtime, and tells the library it failed (a timing function's result
counts as 0; a function returns ``ANIMRT_E_CALLBACK`` with the exception's
text, which a machine reports as its ``error.execution``). When the library
call returns, the binding raises :class:`CallbackError` from the first
recorded exception, so nothing a callable raised is lost; Ctrl-C
(KeyboardInterrupt) or ``sys.exit()`` in a callable is raised as itself.

An exception belongs to the call that ran the callable, not to the runtime: it is
filed under the runtime and the thread making that call, and only that thread's
call takes it, so that another thread's call returning meanwhile neither raises
it nor loses it. A callable runs on the thread whose call runs it, except the
timing functions a tick evaluates on the runtime's evaluation threads
(``Runtime(threads=…)``): those are filed under the ticking thread
(`Native.ticking`, which such a runtime's ticks set one at a time). A call
interrupted once the library has returned and before it took its errors (Ctrl-C
lands there) has them noted on the exception that interrupted it (`Native.call`);
were that missed too, the same thread's next call that runs callables raises them.
"""
from __future__ import annotations

import sys
import threading
from threading import get_ident
from types import CodeType, FrameType
from typing import Any, Callable, Dict, List, Optional, Set, Tuple

from ._arguments import counted
from ._errors import AnimrtError, CallbackError

_lock = threading.Lock()
#: (runtime pointer, the thread whose call ran the callable) -> (what raised, the exception), oldest first
pending: Dict[Tuple[int, int], List[Tuple[str, BaseException]]] = {}


def key(ptr: Any) -> int:
    """The dictionary key of a runtime pointer (a c_void_p or an int)."""
    return int(getattr(ptr, "value", ptr) or 0)


def record(runtime_key: int, what: str, exc: BaseException, native: Any = None) -> None:
    """Records that `what` ("timing function 'wobble'") raised `exc` inside a call on the runtime,
    for the call that ran it to raise (see `owner`)."""
    thread = owner(native)
    with _lock:
        pending.setdefault((runtime_key, thread), []).append((what, exc))


def owner(native: Any) -> int:
    """The thread whose call into the runtime (`native`, its `_object.Native`) is running the callable
    on the calling thread: the calling thread when it is making a call into that runtime (or
    `native` is not known); else it is one of the runtime's evaluation threads, and the thread
    whose tick it evaluates for is the owner."""
    me = get_ident()
    if native is None or me in native.calls:
        return me
    ticking: Optional[int] = native.ticking
    return me if ticking is None else ticking


def describe(exc: BaseException) -> str:
    """``ValueError: boom`` for an exception."""
    text = str(exc)
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def take(ptr: Any) -> Optional[BaseException]:
    """The error to raise for the call on runtime `ptr` that the calling thread made and that just
    returned, if a callable raised in it: a :class:`CallbackError` from the first exception, or a
    KeyboardInterrupt or SystemExit itself
    (wrapped in an Exception, Ctrl-C or ``sys.exit()`` in a timing function would be caught by the
    program's ``except Exception`` and not stop it)."""
    with _lock:
        found = pending.pop((key(ptr), get_ident()), None)
    if not found:
        return None
    for what, exc in found:
        if not isinstance(exc, Exception):
            add_note(exc, f"raised by {what}, inside a call into the library")
            return exc
    what, exc = found[0]
    more = f" (and {counted(len(found) - 1, 'more exception')} from callables in the same call)" if len(found) > 1 else ""
    error = CallbackError(f"{what} raised {describe(exc)}{more}")
    error.__cause__ = exc
    return error


def note_interrupted(ptr: Any, interrupting: BaseException) -> None:
    """Notes on `interrupting` (Ctrl-C, say) the error a callable of the call it interrupted had
    left for that call to raise (taken, so that no later call raises it)."""
    left = take(ptr)
    if left is not None and left is not interrupting:
        add_note(interrupting, f"the call it interrupted had this to raise from a callable it ran: {describe(left)}")


def forget(runtime_key: int) -> None:
    """Drops what is left filed under a runtime being destroyed: a runtime made later at the same
    address must not raise it."""
    with _lock:
        for k in [k for k in pending if k[0] == runtime_key]:
            del pending[k]


def first_of(first: Optional[BaseException], later: Optional[BaseException]) -> Optional[BaseException]:
    """The exception to raise when callables of one call raised `first` and then `later` (either
    may be None): the first, with a note naming the later one (``first.__notes__``, which
    tracebacks show from Python 3.11), and the callable that raised it when it is known
    (`raised_by`), so that no exception is lost without a word."""
    if first is None or later is None or later is first:
        return first if first is not None else later
    source = getattr(later, "_animrt_raised_by", None)
    add_note(first, f"then a callable of the same call raised {describe(later)}"
                    + (f", from {source}" if source else ""))
    return first


def call(fn: Callable[..., object], args: Tuple[Any, ...], what: Callable[[], str]) -> None:
    """``fn(*args)`` for a callable of the program's that a tick or close() runs (an on_finish, a
    barrier's or transaction's completion, a timer's callback, the on_event handler); what it
    raises goes on, noted with `what()`, which is only worked out then (see `raised_by`)."""
    try:
        fn(*args)
    except BaseException as e:
        raised_by(e, what())
        raise


def raised_by(exc: BaseException, what: str) -> None:
    """Notes on `exc` which of the program's callables raised it, `what` ("the on_finish of
    <AttachedAnimation 'out' …>"): the traceback shows the callable's code, and this which of the
    animations, timers or barriers sharing that code it ran for. Kept for the note `first_of` adds
    when another exception of the same call is raised instead."""
    add_note(exc, f"raised by {what}")
    try:
        setattr(exc, "_animrt_raised_by", what)
    except Exception:  # an exception type that takes no attributes: the note says it all the same
        pass


def add_note(exc: BaseException, note: str) -> None:
    """``exc.add_note(note)``, which tracebacks show from Python 3.11; before it, the same attribute."""
    if hasattr(exc, "add_note"):
        exc.add_note(note)
    else:
        setattr(exc, "__notes__", [*getattr(exc, "__notes__", []), note])


#: The code of the wrappers the library calls a Python callable through (their `key` is the
#: runtime's); see `running_inside`.
wrappers: Set[CodeType] = set()


def running_inside(runtime_key: int) -> bool:
    """Whether the calling thread is inside a callable that runtime `runtime_key` is running (a
    timing function or a function, on the calling thread or one of its workers): the library is
    busy with it and refuses to be destroyed. Read from the stack, so that calling a callable
    costs nothing more."""
    frame: Optional[FrameType] = sys._getframe(1)
    while frame is not None:
        if frame.f_code in wrappers and frame.f_locals.get("key") == runtime_key:
            return True
        frame = frame.f_back
    return False
