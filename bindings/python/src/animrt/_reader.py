"""Readers: many presentation values in one call, into a numpy array or any buffer of doubles."""
from __future__ import annotations

from array import array
from ctypes import POINTER, byref, c_double, c_int32, c_size_t, c_uint64, cast
from typing import TYPE_CHECKING, Iterable, Optional, Tuple, TypeVar, Union, overload

from . import _arguments as check
from ._errors import ArgumentTypeError, BufferSizeError, BufferTooSmallError, InvalidArgumentError, KindError
from ._ffi import lib
from ._values import KeyPathInfo
from ._object import Scoped

if TYPE_CHECKING:
    import numpy
    import numpy.typing

    from ._layer import Layer
    from ._runtime import Runtime

B = TypeVar("B")
_DOUBLE_FORMATS = ("d", "<d", "=d", "@d")


class Reader(Scoped):
    """(layer, key path) targets resolved once, read in one call (``animrt_reader_create``);
    made by :meth:`Runtime.reader`.

    :meth:`read` gives an array of shape ``(len(reader), components)``, one
    row per target, row ``i`` for target ``i``::

        reader = rt.reader([(p, "position") for p in particles])   # 1,000 points
        rt.tick(0.5)
        xy = reader.read()            # numpy array, shape (1000, 2)
        xs, ys = xy[:, 0], xy[:, 1]

    ``len(reader)`` (also ``reader.count``) is the number of targets and
    ``reader.components`` the numbers each has; ``reader.shape`` is both.

    Every target's key path must have the same number of components (a
    point and a scalar are refused): make one reader per key path, such as
    ``rt.reader(layers, "position")`` and ``rt.reader(layers, "opacity")``.

    As a context manager, the end of the ``with`` block destroys it, also
    when the block raises; a read afterwards raises :class:`HandleError`::

        with rt.reader(particles, "position") as reader:
            for t in frames:
                rt.tick(t)
                draw(reader.read())
    """

    _destroy_fn = lib.animrt_reader_destroy

    def __init__(self, runtime: Runtime, targets: object, key_path: Optional[str] = None) -> None:
        from ._layer import Layer
        if key_path is not None:
            # Many layers at one key path: no Python work per layer.
            from ._bulk import Pinned
            path = runtime._keypath(check.text(key_path, "key_path"))
            pinned = Pinned()
            address, n = pinned.layers(targets, "targets")
            key_paths = array("i", [path.id]) * n
            out = c_uint64()
            runtime._call(lib.animrt_reader_create, cast(address, POINTER(c_uint64)),
                                     (c_int32 * n).from_buffer(key_paths) if n else None, n, byref(out))
            self._made(runtime, out.value, n, path.components)
            return
        if isinstance(targets, (str, bytes)) or not isinstance(targets, Iterable):
            raise ArgumentTypeError(f"targets is {check.describe(targets)}; it must be a list of "
                                    "(layer, key_path) pairs")
        layers, paths, names = [], [], []
        for i, target in enumerate(targets):
            if not isinstance(target, tuple) or len(target) != 2:
                hint = (", or pass the key path once for every layer: rt.reader(layers, 'opacity')"
                        if isinstance(target, (Layer, int)) else "")
                raise ArgumentTypeError(f"targets[{i}] is {check.describe(target)}; it must be a "
                                        f"(layer, key_path) pair{hint}")
            layer, path = target
            if isinstance(layer, Layer):
                layers.append(layer._id)
            else:
                layers.append(check.integer(layer, f"targets[{i}][0]", 1, 2 ** 64 - 1))
            paths.append(runtime._keypath(check.text(path, f"targets[{i}][1]")))
            names.append(path)
        for i, path in enumerate(paths):
            if path.components != paths[0].components:
                raise KindError(_mixed_sizes(names[0], paths[0], i, names[i], path))
        n = len(layers)
        out = c_uint64()
        runtime._call(lib.animrt_reader_create, (c_uint64 * n)(*layers), (c_int32 * n)(*[p.id for p in paths]), n,
                                 byref(out))
        self._made(runtime, out.value, n, paths[0].components if paths else 1)

    def _made(self, runtime: Runtime, handle: int, count: int, components: int) -> None:
        """Becomes the reader `handle` the library made, of `count` targets of `components` numbers
        each. Instance attributes, set only here: a reader whose targets were refused has neither
        (nor a handle), and the class has no defaults that would show it as one of 0 targets."""
        #: The number of targets, rows of :meth:`read`: ``len(reader)``.
        self.count: int = count
        #: The numbers each target's key path has, columns of :meth:`read`: 2 for ``position``.
        self.components: int = components
        super().__init__(runtime, handle)  # registered last: another thread finds it whole

    def __len__(self) -> int:
        """The number of targets (rows of :meth:`read`): ``len(reader)`` → 1000."""
        return self.count

    @property
    def shape(self) -> Tuple[int, int]:
        """``(len(reader), components)``: the shape :meth:`read` returns."""
        return (self.count, self.components)

    @overload
    def read(self) -> numpy.typing.NDArray[numpy.float64]: ...
    @overload
    def read(self, out: B) -> B: ...

    def read(self, out: object = None) -> object:
        """Every target's presentation value as of the last tick (``animrt_reader_read``).

        Without `out`, a new numpy float64 array of shape ``(len(reader),
        components)``. With `out`, fills it in place and returns it: any
        writable, contiguous buffer of ``len(reader) * components`` float64
        (a numpy array of that shape or flat, ``array('d', …)``; another
        shape, whose rows would not be the targets, is refused)::

            frame = numpy.empty(reader.shape)
            reader.read(frame)
        """
        total = self.count * self.components
        if out is None:
            try:
                import numpy as np
            except ImportError:
                raise ImportError("Reader.read() without out= returns a numpy array, and numpy is not installed: "
                                  "pip install numpy, or pass out=array('d', bytes(8 * len(reader) * "
                                  "reader.components))") from None
            out = np.empty(self.shape, dtype=np.float64)
        target = self._view(out, total)
        self._runtime._call(lib.animrt_reader_read, self._id, target, total, byref(c_size_t()))
        return out

    def _view(self, out: object, total: int) -> object:
        """`out` as a ctypes array of `total` doubles, or an exception saying what is wrong with it."""
        try:
            view = memoryview(out)  # type: ignore[arg-type]
        except TypeError:
            raise ArgumentTypeError(f"out is {check.describe(out)}; it must be a buffer of float64, such as "
                                    f"numpy.empty({self.shape}) or array('d', bytes({8 * total}))") from None
        with view:
            if view.format not in _DOUBLE_FORMATS or view.itemsize != 8:
                dtype = getattr(out, "dtype", None)
                what = f"dtype {dtype}" if dtype is not None else f"items of format {view.format!r}"
                raise KindError(f"out has {what}; a reader writes float64 (format 'd'): use "
                                f"numpy.empty({self.shape}) or array('d', ...)")
            if view.readonly:
                raise ArgumentTypeError("out is read-only; pass a writable buffer")
            if not view.c_contiguous:
                raise ArgumentTypeError("out is not contiguous; pass a C-contiguous buffer (numpy.ascontiguousarray)")
            if view.nbytes != 8 * total:
                wrong = BufferTooSmallError if view.nbytes < 8 * total else BufferSizeError
                raise wrong(f"out holds {check.counted(view.nbytes // 8, 'number')}; this reader writes {total} (shape {self.shape})")
            shape = tuple(view.shape or ())
            if len(shape) > 1 and shape != self.shape:  # out[i] would not be target i
                raise InvalidArgumentError(f"out has shape {shape}; this reader writes {self.shape}, "
                                           f"one row per target, or flat ({total} numbers)")
        return (c_double * total).from_buffer(out)  # type: ignore[arg-type]

    def destroy(self) -> None:
        """Destroys the reader (``animrt_reader_destroy``). Idempotent; the garbage collector does it too:
        ``reader.destroy()``."""
        if self._finalizer is not None:
            self._finalizer()

    def __repr__(self) -> str:
        """``<Reader 0x… shape=(1000, 2)>``, or ``<Reader (destroyed) 0x… shape=(1000, 2)>`` once
        :meth:`destroy` has run on it and ``<Reader (runtime closed) 0x… shape=(1000, 2)>`` once its
        runtime is closed, when :meth:`read` raises. It asks the library nothing, and never raises:
        ``<Reader (not made)>`` for one whose targets were refused (a traceback's frame or a debugger
        shows it)."""
        if self._runtime.closed:
            state = "(runtime closed) "
        elif self._finalizer is not None and not self._finalizer.alive:
            state = "(destroyed) "
        else:
            state = ""
        return f"<Reader {state}{self._id:#x} shape={self.shape}>"


def _mixed_sizes(first: str, first_info: KeyPathInfo, i: int, name: str, info: KeyPathInfo) -> str:
    """Why a reader cannot mix key paths of different sizes, and what to make instead."""
    def size(kp: KeyPathInfo) -> str:
        return f"a {kp.kind.name.lower()} ({kp.components} number{'s' if kp.components != 1 else ''})"
    return (f"targets[{i}] reads {name!r}, {size(info)}, and targets[0] reads {first!r}, {size(first_info)}: a "
            "reader's rows all have one size, one row per target. Make one reader per key path, such as "
            f"rt.reader(layers, {first!r}) and rt.reader(layers, {name!r}), or one per size")
