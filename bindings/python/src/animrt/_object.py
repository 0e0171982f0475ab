"""What every object inside a runtime shares: its handle, its runtime, identity.

An object is named in C by an ``animrt_id`` handle. The runtime keeps a weak
map from handles to the Python objects created for them, so events hand back
the very object the program holds (``event.layer is toast``). An event about
a handle no Python object is held for gets a stand-in of the right class: it
compares equal to, and prints like, any other object for the same handle.
"""
from __future__ import annotations

import contextlib
import functools
import threading
import weakref
from threading import get_ident
from ctypes import c_void_p
from typing import TYPE_CHECKING, Any, Callable, ClassVar, Dict, Iterator, List, Optional, Set, Tuple, Type, TypeVar

from . import _callbacks
from ._arguments import suggest_name
from ._errors import ClosedError, HandleError, StateError

if TYPE_CHECKING:
    from ._runtime import Runtime

O = TypeVar("O", bound="Object")
S = TypeVar("S", bound="Scoped")

#: The message of every call on a closed runtime or one of its objects: what happened, and how to
#: tell beforehand (both `Native.ptr is None`, the same test as `Runtime.closed`).
CLOSED = ("the runtime is closed (rt.close() has run, or its with block has ended); "
          "check rt.closed before using it, or obj.runtime.closed for one of its objects")


class Native:
    """The runtime pointer, shared with the finalizers of the objects inside it.

    Every call into the library goes through `call`, which counts it while it runs: the runtime is
    destroyed only once the calls other threads are making have returned, so that none of them can
    reach the library with the pointer of a runtime already freed (or of another one made since at
    the same address)."""

    def __init__(self, ptr: c_void_p) -> None:
        self.ptr: Optional[c_void_p] = ptr
        self.lock = threading.Lock()
        #: on_finish callables waiting for a stop (a count: the finalizer must not hold them)
        self.waiting = 0
        #: thread id -> calls that thread is making now (more than one through callables); each
        #: thread writes only its own entry
        self.calls: Dict[int, int] = {}
        #: set once the pointer is taken for destroying: returning calls then say so to `returned`
        self.closing = False
        #: whether ticks evaluate on several threads (``Runtime(threads=…)``): see `tick`
        self.threaded = False
        #: a trace is being recorded (start_trace): close() stops it first, to say if it is incomplete,
        #: and a runtime destroyed otherwise warns if it was
        self.tracing = False
        #: the thread whose tick is running, while it runs (on a threaded runtime): what a timing
        #: function raises on an evaluation thread is that tick's to raise (`_callbacks.owner`)
        self.ticking: Optional[int] = None
        self.tick_lock = threading.Lock()
        self.returned = threading.Condition(threading.Lock())

    def call(self, fn: Any, *args: Any) -> Any:
        """``fn(ptr, *args)`` for a library function `fn` (its status checked as its errcheck would),
        counted while it runs; ClosedError once the runtime is closed."""
        calls = self.calls
        me = get_ident()
        depth = calls.get(me, 0)
        calls[me] = depth + 1  # before the pointer is read: a close from now on waits for this call
        ptr = None
        try:
            ptr = self.ptr
            if ptr is None:
                raise ClosedError(CLOSED)
            result = fn.unchecked(ptr, *args)
            if result or deferred or _callbacks.pending:
                return errcheck(result, fn, (ptr, *args))
            return result
        except BaseException as e:
            if not depth and ptr is not None and _callbacks.pending:
                # Interrupted (Ctrl-C) once the library returned, before the errors of the callables
                # this call ran were taken: said with the interruption, not left for a later call.
                _callbacks.note_interrupted(ptr, e)
            raise
        finally:
            if depth:
                calls[me] = depth
            else:
                del calls[me]
            if self.closing:
                with self.returned:
                    self.returned.notify_all()

    def tick(self, fn: Any, *args: Any) -> Any:
        """`call` for the tick `fn` of a threaded runtime: the tick's thread is `ticking` while it
        runs, for what a timing function raises on an evaluation thread to be its error. Such ticks
        run one at a time (the library makes them so all the same); a tick from inside a callable
        of one does not wait for it (the library refuses it)."""
        lock = self.tick_lock
        if not lock.acquire(blocking=False):
            ptr = self.ptr
            if ptr is not None and _callbacks.running_inside(_callbacks.key(ptr)):
                return self.call(fn, *args)
            lock.acquire()
        try:
            self.ticking = get_ident()
            return self.call(fn, *args)
        finally:
            self.ticking = None
            lock.release()

    @contextlib.contextmanager
    def reading(self) -> Iterator[None]:
        """Counts this thread as making a call while it reads memory the library owns (a poll's
        payloads), with calls made inside: the runtime is not destroyed under it."""
        calls = self.calls
        me = get_ident()
        depth = calls.get(me, 0)
        calls[me] = depth + 1
        try:
            yield
        finally:
            if depth:
                calls[me] = depth
            else:
                del calls[me]
            if self.closing:
                with self.returned:
                    self.returned.notify_all()

    def calling(self) -> bool:
        """Whether this thread is inside a call into the library (running a callable, or converting
        an argument, from inside it)."""
        return get_ident() in self.calls

    def take_for_destroy(self) -> Optional[c_void_p]:
        """Takes the pointer (None if already taken), after which calls raise ClosedError, and waits
        for the calls other threads are making to return. The caller destroys the runtime."""
        with self.lock:
            ptr, self.ptr = self.ptr, None
        if ptr is None:
            return None
        self.closing = True
        me = get_ident()
        with self.returned:
            while any(thread != me for thread in list(self.calls)):
                self.returned.wait(0.05)
        return ptr

    def get(self) -> c_void_p:
        """The pointer, or ClosedError once the runtime is closed."""
        ptr = self.ptr
        if ptr is None:
            raise ClosedError(CLOSED)
        return ptr

    def destroy_child(self, fn: Callable[[c_void_p, int], Any], handle: int) -> None:
        """Destroys an object unless the runtime (and so the object) is gone.

        A finalizer runs wherever the collector does: inside a timing function the runtime is
        running (which refuses the destroy), or while another thread holds this lock waiting for
        the library, which the tick it would wait on holds. Then the destroy is deferred to the
        end of the next call into the library (`flush_deferred`), not waited for or dropped."""
        if not self.lock.acquire(blocking=False):
            _defer(self, fn, handle)
            return
        try:
            if self.ptr is not None:
                try:
                    fn(self.ptr, handle)
                except StateError:  # refused from inside a call the runtime is making: later
                    _defer(self, fn, handle)
                except Exception:  # already destroyed: nothing to do
                    pass
        finally:
            self.lock.release()


#: Destroys a finalizer could not make at once (see `Native.destroy_child`), oldest first.
deferred: List[Tuple[Native, Callable[[c_void_p, int], Any], int]] = []
#: `_ffi._errcheck`, set when the library is loaded: what a call's status means (`Native.call`).
errcheck: Callable[[int, Any, Tuple[Any, ...]], int]
_deferred_lock = threading.Lock()
_flushing = threading.local()


def _defer(native: Native, fn: Callable[[c_void_p, int], Any], handle: int) -> None:
    with _deferred_lock:
        deferred.append((native, fn, handle))


def flush_deferred() -> None:
    """Makes the deferred destroys (after a call into the library returned); one refused again
    stays deferred. Not re-entered by the destroys' own calls."""
    if getattr(_flushing, "on", False):
        return
    _flushing.on = True
    try:
        with _deferred_lock:
            items = deferred[:]
            deferred.clear()
        for native, fn, handle in items:
            native.destroy_child(fn, handle)
    finally:
        _flushing.on = False


#: the ``__repr__`` functions `Suggests.__init_subclass__` made (a subclass inherits them as they are)
_guarded: Set[Callable[..., str]] = set()


class Suggests:
    """Reading a name the class does not have raises AttributeError with what was most likely meant:
    ``layer.remove()`` → "did you mean 'remove_animation' or 'remove_all_animations'?"."""

    __slots__ = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Every ``__repr__`` a subclass defines prints ``<Layer (not made)>`` for an object whose
        constructor raised before it was whole (a debugger, a traceback's locals or a test report
        shows it), instead of raising AttributeError for what the constructor never set."""
        super().__init_subclass__(**kwargs)
        own = vars(cls).get("__repr__")
        if own is None or own in _guarded:
            return

        @functools.wraps(own)
        def guarded(self: Any) -> str:
            try:
                text: str = own(self)
                return text
            except AttributeError:  # a made object has every attribute its repr reads
                return f"<{type(self).__name__} (not made)>"

        _guarded.add(guarded)
        setattr(cls, "__repr__", guarded)

    if not TYPE_CHECKING:
        def __getattr__(self, name: str) -> Any:  # only for a name the object does not have
            if name[:1] == "_":  # private and special names: looked up by Python and libraries, quietly
                raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
            if _declared(type(self), name):  # a property that raised AttributeError inside
                raise AttributeError(f"{type(self).__name__}.{name} cannot be read: the object is not whole "
                                     "(its constructor raised before it set what this reads)")
            raise AttributeError(self._unknown_attribute(name, reading=True))

    def _unknown_attribute(self, name: str, reading: bool = False) -> str:
        """The message for setting (or `reading`) `name`, which the class does not have: what was
        most likely meant (`_hint`), else the closest name it has, else those sharing its words."""
        public = {a for k in type(self).__mro__ for a in vars(k) if not a.startswith("_")}
        try:
            hint = self._hint(name, reading)
        except Exception:  # an object not fully made: the closest name still helps
            hint = ""
        return f"{type(self).__name__} has no attribute {name!r}" + (hint or suggest_name(name, sorted(public)))

    def _hint(self, name: str, reading: bool = False) -> str:
        """What setting (or `reading`) `name` most likely meant, as "; …", or "" (a subclass knows its
        mistakes)."""
        return ""


class Uncopied:
    """`copy.copy`, `copy.deepcopy` and `pickle` raise TypeError saying what to do instead: the object
    names something inside the library, which a copy of the Python object would share (and destroy
    twice, or not at all) without copying it."""

    __slots__ = ()

    def _copy_hint(self) -> str:
        """What to do instead of copying, as a sentence (a subclass knows better)."""
        return "make another one the way this one was made"

    def _refuse_copy(self, what: str) -> TypeError:
        return TypeError(f"a {type(self).__name__} cannot be {what}: it names an object inside the animrt library, "
                         f"which a copy would share, not copy; {self._copy_hint()}")

    def __copy__(self) -> Any:
        raise self._refuse_copy("copied")

    def __deepcopy__(self, memo: Any) -> Any:
        raise self._refuse_copy("copied")

    def __reduce_ex__(self, protocol: Any) -> Any:
        raise self._refuse_copy("pickled")


class Object(Suggests, Uncopied):
    """Base class of everything a runtime holds: compares and hashes by handle."""

    #: The C function that destroys this kind of object, called when the
    #: Python object is garbage-collected (None: the object is not owned by
    #: its Python object, as layers and timers are not).
    _destroy_fn: ClassVar[Optional[Callable[[c_void_p, int], Any]]] = None
    _finalizer: "Optional[weakref.finalize[Any, Any]]" = None

    def __init__(self, runtime: "Runtime", handle: int, *, owned: bool = True) -> None:
        self._runtime = runtime
        self._id = handle
        destroy = type(self)._destroy_fn
        if owned and destroy is not None:
            self._finalizer = weakref.finalize(self, runtime._native.destroy_child, destroy, handle)
        runtime._objects[handle] = self

    @classmethod
    def _stand_in(cls: Type[O], runtime: "Runtime", handle: int) -> O:
        """The registered object for `handle`, or a new stand-in that owns nothing."""
        found = runtime._objects.get(handle)
        if isinstance(found, cls):
            return found
        obj = cls.__new__(cls)
        Object.__init__(obj, runtime, handle, owned=False)
        return obj

    @property
    def runtime(self) -> "Runtime":
        """The runtime this object lives in: ``toast.runtime.tick(1.0)``."""
        return self._runtime

    @property
    def id(self) -> int:
        """The C handle (``animrt_id``), for calls through ``animrt._ffi``: ``hex(layer.id)``."""
        return self._id

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Object) and other._id == self._id

    def __hash__(self) -> int:
        return hash(self._id)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self._id:#x}>"


@functools.lru_cache(maxsize=None)
def _declared(cls: type, name: str) -> bool:
    """Whether `cls` has `name`: a property, method or class attribute, or an annotated field."""
    return any(name in vars(k) or name in vars(k).get("__annotations__", {}) for k in cls.__mro__)


@functools.lru_cache(maxsize=None)
def _read_only(cls: type, name: str) -> bool:
    """Whether `name` is a property of `cls` without a setter."""
    found = next((vars(k)[name] for k in cls.__mro__ if name in vars(k)), None)
    return isinstance(found, property) and found.fset is None


class Strict(Suggests):
    """Setting a name the class does not have raises AttributeError, and so does reading one, with
    what was most likely meant; setting a read-only property says where its value is given.

    Without it, ``layer.opacity = 0.3`` or ``fade.to = 0.5`` would make a new
    Python attribute and change nothing in the library, silently; reading
    ``layer.opacity`` or ``attached.duration`` says where the value is read.
    (Type checkers see no ``__setattr__`` or ``__getattr__``, so they go on
    flagging such lines.)
    """

    __slots__ = ()

    if not TYPE_CHECKING:
        def __setattr__(self, name: str, value: Any) -> None:
            if name[:1] == "_":
                object.__setattr__(self, name, value)
            elif _read_only(type(self), name):
                raise AttributeError(f"{type(self).__name__}.{name} is read-only" + self._read_only_hint(name))
            elif _declared(type(self), name):
                object.__setattr__(self, name, value)
            else:
                raise AttributeError(self._unknown_attribute(name))

    def _read_only_hint(self, name: str) -> str:
        """Where the value of read-only property `name` is given, as "; …", or "" (a subclass knows)."""
        return ""


class Scoped(Object):
    """An object the program destroys when it is done with it (a reader, a barrier, a machine), used
    as a context manager, as the runtime is: the end of the ``with`` block destroys it, also when the
    block raises (what it raised goes on). Destroying is idempotent (``destroy()`` inside the block
    is fine), and a call on it afterwards raises :class:`HandleError` ("… is stale (the reader was
    destroyed)"). When the runtime is closed first, the object went with it, and the block's end
    does nothing::

        with rt.reader(layers, "position") as reader:
            xy = reader.read()
    """

    def destroy(self) -> None:
        """Destroys the object in the library (each kind says how): ``obj.destroy()``."""
        raise NotImplementedError

    def _gone(self) -> bool:
        """Whether :meth:`destroy` has run (a kind that keeps its own mark says so itself)."""
        return self._finalizer is not None and not self._finalizer.alive

    def __enter__(self: S) -> S:
        # As the runtime refuses ``with`` once closed: the block would otherwise start and fail at its first call.
        if self._runtime.closed:
            raise ClosedError(CLOSED)
        if self._gone():
            kind = type(self).__name__.lower()
            raise HandleError(f"{kind} handle {self._id:#x} is stale (the {kind} was destroyed: {kind}.destroy() "
                              "has run, or its with block has ended); make another for the with block")
        return self

    def __exit__(self, *exc: Any) -> None:
        if not self._runtime.closed:  # else it went with the runtime
            self.destroy()
