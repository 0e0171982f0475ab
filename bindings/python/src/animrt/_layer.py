"""Layers: model values the program sets, presentation values animrt computes."""
from __future__ import annotations

from ctypes import byref, c_double, c_int, c_size_t, c_uint64, create_string_buffer
from typing import TYPE_CHECKING, List, NoReturn, Optional, overload

from . import _arguments as check
from ._errors import ArgumentTypeError, BufferTooSmallError
from ._ffi import lib
from ._object import Object
from ._values import (PairKeyPath, Property, QuadKeyPath, ScalarKeyPath, Transform, TransformKeyPath, V, Value,
                      ValueLike, doubles, python_value)

if TYPE_CHECKING:
    from ._animation import Animation
    from ._barrier import Barrier
    from ._runtime import Runtime


class Layer(Object):
    """A layer (``animrt_layer_create``): a tree node with model and presentation values.

    The program sets *model* values; animations change what is on screen,
    the *presentation* value, which animrt computes at each tick::

        toast = rt.layer()
        toast["position.y"] = 60.0                      # the model: where it rests
        toast.add_animation(rt.spring("position.y", from_=-40, to=60), key="in")
        rt.tick(0.0); rt.tick(0.1)
        toast.presentation("position.y")                # on screen: on its way to 60

    A layer lives until :meth:`destroy` or until the runtime closes, whether or
    not a Python object refers to it. Layers are not containers: ``layer[key_path]``
    reads and sets model values, but a layer cannot be iterated.
    """

    _destroyed = False

    def __init__(self, runtime: Runtime, parent: Optional[Layer] = None) -> None:
        out = c_uint64()
        lib.animrt_layer_create(runtime._ptr, _parent_id(parent), byref(out))
        super().__init__(runtime, out.value, owned=False)

    def destroy(self) -> None:
        """Destroys the layer (``animrt_layer_destroy``); idempotent, like ``close()`` on a file.

        Its animations stop with ``StopReason.LAYER_DESTROYED``; its children
        become roots. Later calls on the layer raise :class:`HandleError`::

            toast.destroy()
        """
        if not self._destroyed:
            lib.animrt_layer_destroy(self._runtime._ptr, self._id)
            self._destroyed = True

    def set_parent(self, parent: Optional[Layer]) -> None:
        """Moves the layer under `parent`, or makes it a root with None (``animrt_layer_set_parent``).

        ``spoke.set_parent(spinner)``. A cycle raises :class:`InvalidArgumentError`.
        """
        lib.animrt_layer_set_parent(self._runtime._ptr, self._id, _parent_id(parent))

    def set_timing(self, *, begin_time: float = 0.0, speed: float = 1.0, time_offset: float = 0.0) -> None:
        """Sets the layer's own time (``animrt_layer_set_timing``), inherited by everything under it.

        local = (parent − begin_time) × speed + time_offset. ``layer.set_timing(speed=0)``
        pauses the subtree; ``set_timing(speed=0.5)`` plays it at half speed.
        """
        lib.animrt_layer_set_timing(self._runtime._ptr, self._id, check.number(begin_time, "begin_time"),
                                    check.number(speed, "speed"), check.number(time_offset, "time_offset"))

    # -- values ------------------------------------------------------------
    def set_value(self, key_path: str, value: ValueLike) -> None:
        """Sets the model value of `key_path` (``animrt_layer_set_value``); ``layer[key_path] = value`` does the same.

        ``toast.set_value("position", (160, 60))``. The presentation value
        follows at the next tick, unless an animation covers it.
        """
        self._set(key_path, value, "value")

    def _set(self, key_path: str, value: object, name: str) -> None:
        rt = self._runtime
        info = rt._keypath(key_path)
        values, n = doubles(value, name, key_path, info)
        lib.animrt_layer_set_value(rt._ptr, self._id, info.id, values, n)

    @overload
    def value(self, key_path: ScalarKeyPath) -> float: ...
    @overload
    def value(self, key_path: PairKeyPath) -> tuple[float, float]: ...
    @overload
    def value(self, key_path: QuadKeyPath) -> tuple[float, float, float, float]: ...
    @overload
    def value(self, key_path: TransformKeyPath) -> Transform: ...
    @overload
    def value(self, key_path: Property[V]) -> V: ...
    @overload
    def value(self, key_path: str) -> Value: ...

    def value(self, key_path: str) -> Value:
        """The model value of `key_path` (``animrt_layer_get_value``): what the program set, or the default.

        ``toast.value("opacity")`` → 1.0; ``x, y = toast.value("position")``.
        """
        rt = self._runtime
        info = rt._keypath(key_path)
        out = (c_double * info.components)()
        lib.animrt_layer_get_value(rt._ptr, self._id, info.id, out, info.components, byref(c_size_t()))
        return python_value(out, info.components)

    @overload
    def presentation(self, key_path: ScalarKeyPath) -> float: ...
    @overload
    def presentation(self, key_path: PairKeyPath) -> tuple[float, float]: ...
    @overload
    def presentation(self, key_path: QuadKeyPath) -> tuple[float, float, float, float]: ...
    @overload
    def presentation(self, key_path: TransformKeyPath) -> Transform: ...
    @overload
    def presentation(self, key_path: Property[V]) -> V: ...
    @overload
    def presentation(self, key_path: str) -> Value: ...

    def presentation(self, key_path: str) -> Value:
        """What is on screen for `key_path` as of the last tick (``animrt_layer_get_presentation``).

        A float for one number, a tuple otherwise, typed by key path::

            alpha = toast.presentation("opacity")        # float
            x, y = toast.presentation("position")        # tuple[float, float]
        """
        rt = self._runtime
        info = rt._keypaths.get(key_path) if type(key_path) is str else None
        if info is None:
            info = rt._keypath(key_path)
        n = info.components
        out = (c_double * n)()
        lib.animrt_layer_get_presentation(rt._ptr, self._id, info.id, out, n, byref(c_size_t()))
        return out[0] if n == 1 else tuple(out)

    @overload
    def __getitem__(self, key_path: ScalarKeyPath) -> float: ...
    @overload
    def __getitem__(self, key_path: PairKeyPath) -> tuple[float, float]: ...
    @overload
    def __getitem__(self, key_path: QuadKeyPath) -> tuple[float, float, float, float]: ...
    @overload
    def __getitem__(self, key_path: TransformKeyPath) -> Transform: ...
    @overload
    def __getitem__(self, key_path: Property[V]) -> V: ...
    @overload
    def __getitem__(self, key_path: str) -> Value: ...

    def __getitem__(self, key_path: str) -> Value:
        """``layer["opacity"]`` is ``layer.value("opacity")``, the model value."""
        if not isinstance(key_path, str):
            raise ArgumentTypeError(f"a layer is indexed by a key path str such as 'opacity', not {check.describe(key_path)}")
        return self.value(key_path)

    def __setitem__(self, key_path: str, value: ValueLike) -> None:
        """``layer["opacity"] = 0.5`` is ``layer.set_value("opacity", 0.5)``."""
        if not isinstance(key_path, str):
            raise ArgumentTypeError(f"a layer is indexed by a key path str such as 'opacity', not {check.describe(key_path)}")
        self._set(key_path, value, f"the value for layer[{key_path!r}]")

    def __iter__(self) -> NoReturn:
        """A layer is not iterable (every key path has a value; there is nothing to list)."""
        raise ArgumentTypeError("a Layer is not iterable or a container: read one key path with "
                                "layer.value('opacity') or layer.presentation('opacity'); "
                                "layer.animation_keys() lists its animations")

    def __contains__(self, key_path: object) -> NoReturn:
        """``"opacity" in layer`` raises: every layer has every key path."""
        self.__iter__()

    # -- animations --------------------------------------------------------
    def add_animation(self, animation: Animation, key: Optional[str] = None, *,
                      barrier: Optional[Barrier] = None) -> AttachedAnimation:
        """Attaches a copy of `animation` under `key` (``animrt_layer_add_animation``).

        An animation already under that key stops (``StopReason.REPLACED``).
        With a `barrier`, the animation enters it now and leaves it when it
        stops, however it stops. Later changes to `animation` affect only
        later adds. Bad key times or values raise here, and nothing is attached::

            fade = rt.basic("opacity", from_=1, to=0, duration=0.3)
            attached = toast.add_animation(fade, key="out")
            attached.key          # 'out'
        """
        from ._animation import Animation
        from ._barrier import Barrier
        if not isinstance(animation, Animation):
            raise ArgumentTypeError(f"animation is {check.describe(animation)}; it must be an animation from "
                                    "rt.basic(), rt.spring(), rt.keyframe() or rt.group()")
        if key is not None:
            check.text(key, "key")
        if barrier is not None and not isinstance(barrier, Barrier):
            raise ArgumentTypeError(f"barrier is {check.describe(barrier)}; it must be a Barrier from rt.barrier()")
        rt = self._runtime
        out = c_uint64()
        lib.animrt_layer_add_animation(rt._ptr, self._id, animation._id, None if key is None else key.encode(),
                                       0 if barrier is None else barrier._id, byref(out))
        attached = AttachedAnimation(rt, out.value, self, animation, key, barrier)
        rt._attached[out.value] = attached
        return attached

    def remove_animation(self, key: str) -> bool:
        """Removes the animation under `key` (``animrt_layer_remove_animation``); True if there was one.

        It stops with ``StopReason.REMOVED``: ``toast.remove_animation("in")``.
        """
        removed = c_int()
        lib.animrt_layer_remove_animation(self._runtime._ptr, self._id, check.text(key, "key").encode(),
                                          byref(removed))
        return bool(removed.value)

    def remove_all_animations(self) -> None:
        """Removes every animation of the layer (``animrt_layer_remove_all_animations``); each stops
        with ``StopReason.REMOVED``: ``toast.remove_all_animations()``."""
        lib.animrt_layer_remove_all_animations(self._runtime._ptr, self._id)

    def animation_keys(self) -> List[str]:
        """The keys of the layer's animations, in the order they apply (Core Animation's ``animationKeys()``).

        ``toast.animation_keys()`` → ``['in']``.
        """
        ptr = self._runtime._ptr
        n = c_size_t()
        lib.animrt_layer_animation_count(ptr, self._id, byref(n))
        keys = []
        for i in range(n.value):
            needed = c_size_t()
            try:  # a size query: an empty buffer reports the bytes needed
                lib.animrt_layer_animation_key(ptr, self._id, i, None, 0, byref(needed))
            except BufferTooSmallError:
                pass
            buffer = create_string_buffer(needed.value)
            lib.animrt_layer_animation_key(ptr, self._id, i, buffer, needed.value, byref(needed))
            keys.append(buffer.value.decode("utf-8"))
        return keys


class AttachedAnimation(Object):
    """An animation attached to a layer: what :meth:`Layer.add_animation` returns.

    Its events (:class:`AnimationStarted`, :class:`AnimationStopped`) carry
    this very object as ``attached``, with the layer and the animation it was
    added from::

        attached = toast.add_animation(fade, key="out")
        ...
        for event in rt.events():
            if isinstance(event, animrt.AnimationStopped) and event.attached is attached:
                print("faded out:", event.finished)
    """

    layer: Layer
    animation: Animation
    key: Optional[str] = None
    barrier: Optional[Barrier] = None

    def __init__(self, runtime: Runtime, handle: int, layer: Layer, animation: Animation, key: Optional[str],
                 barrier: Optional[Barrier]) -> None:
        super().__init__(runtime, handle, owned=False)
        self.layer = layer
        self.animation = animation
        self.key = key
        self.barrier = barrier

    def __repr__(self) -> str:
        key = "" if self.key is None else f" {self.key!r}"
        return f"<AttachedAnimation{key} {self._id:#x}>"


def _parent_id(parent: object) -> int:
    if parent is None:
        return 0
    if isinstance(parent, Layer):
        return parent._id
    raise ArgumentTypeError(f"parent is {check.describe(parent)}; it must be a Layer or None")

