"""Layers: model values the program sets, presentation values animrt computes."""
from __future__ import annotations

from ctypes import byref, c_char_p, c_double, c_int, c_int32, c_size_t, c_uint64, create_string_buffer
import asyncio
import functools
from dataclasses import dataclass
import sys
from typing import TYPE_CHECKING, Any, Callable, Dict, FrozenSet, List, Literal, NoReturn, Optional, Tuple, overload

from . import _arguments as check
from ._enums import (DIRECTIONS, FILL_MODES, Direction, DirectionLike, FillMode, FillModeLike, Lifecycle, Phase,
                     RotationMode)
from ._errors import (AnimrtError, ArgumentTypeError, BufferTooSmallError, ClosedError, NotFoundError, RangeError,
                      StateError)
from ._ffi import ComputedTiming as CComputedTiming
from ._ffi import lib
from ._object import Object, Strict
from ._values import (PairKeyPath, Property, QuadKeyPath, ScalarKeyPath, Transform, TransformKeyPath, V, Value,
                      ValueLike, doubles, python_value)

from ._animation import _EXACT, _REPLACED_BY, Animation, MediaTimingOptions, one_name_each

if TYPE_CHECKING:
    if sys.version_info >= (3, 11):
        from typing import Unpack
    else:  # typing gained Unpack in 3.11; type checkers ship typing_extensions, and it is never imported at run time
        from typing_extensions import Unpack

    from ._barrier import Barrier
    from ._runtime import Runtime


class Layer(Strict, Object):
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

    def _copy_hint(self) -> str:
        return "make another with rt.layer()"

    _destroyed = False
    #: "part 'ring' of 'progressCard'" once Machine.part() has handed the layer out (for its repr)
    _part_label: Optional[str] = None

    def __init__(self, runtime: Runtime, parent: Optional[Layer] = None) -> None:
        out = c_uint64()
        runtime._call(lib.animrt_layer_create, _parent_id(parent), byref(out))
        super().__init__(runtime, out.value, owned=False)

    def __repr__(self) -> str:
        """``<Layer 0x…>``, or ``<Layer (destroyed) 0x…>`` once :meth:`destroy` has run on it and
        ``<Layer (runtime closed) 0x…>`` once its runtime is closed, when calls on it raise. A
        machine's part, once :meth:`Machine.part` has handed it out, says whose it is:
        ``<Layer part 'ring' of 'progressCard' 0x…>``. It asks the library nothing (events print
        their layers): a machine's part destroyed with its machine prints as before."""
        state = "(runtime closed) " if self._runtime.closed else "(destroyed) " if self._destroyed else ""
        part = "" if self._part_label is None else self._part_label + " "
        return f"<Layer {state}{part}{self._id:#x}>"

    def _hint(self, name: str, reading: bool = False) -> str:
        # Core Animation's layer.speed = 0, layer.timeOffset = t; also set_speed(), get_speed()
        option = next((n for n in (name, name[4:]) if n in _LAYER_OPTIONS), None)
        if option is not None and (option == name or name[:4] in ("set_", "get_")):
            read = f" and read with layer.timing({option!r})" if option in _LAYER_TIMING else ""
            return f"; a layer's timing is set with layer.configure_timing({option}=…){read}"
        try:
            self._runtime._keypath(name)
        except AnimrtError:
            return ""
        if reading:
            return (f"; a property's model value is read by its key path, layer[{name!r}], and what is on screen "
                    f"by layer.presentation({name!r})")
        return f"; a property's model value is set by its key path: layer[{name!r}] = value"

    def destroy(self) -> None:
        """Destroys the layer (``animrt_layer_destroy``); idempotent, like ``close()`` on a file.

        Its animations stop with ``StopReason.LAYER_DESTROYED``; its children
        become roots. Later calls on the layer raise :class:`HandleError`::

            toast.destroy()

        A machine's part (``m.part("ring")``) belongs to the machine: destroying it raises
        :class:`StateError` naming the machine and the part, and changes nothing; ``m.destroy()``
        destroys its parts.
        """
        if not self._destroyed:
            self._runtime._call(lib.animrt_layer_destroy, self._id)
            self._destroyed = True

    def set_parent(self, parent: Optional[Layer]) -> None:
        """Moves the layer under `parent`, or makes it a root with None (``animrt_layer_set_parent``).

        ``spoke.set_parent(spinner)``. A cycle raises :class:`InvalidArgumentError`.
        """
        self._runtime._call(lib.animrt_layer_set_parent, self._id, _parent_id(parent))

    @check.keywords("Layer.set_timing()")
    def set_timing(self, *, begin_time: float = 0.0, speed: float = 1.0, time_offset: float = 0.0) -> None:
        """Sets the layer's own time (``animrt_layer_set_timing``), inherited by everything under it.

        local = (parent − begin_time) × speed + time_offset. The three are set together, as the C
        call sets them: one left out takes its default (0, 1, 0), so ``set_timing(speed=1)`` is the
        first step of QA1673's resume (alone, it jumps ahead by the time spent paused; the second step
        is in :meth:`convert_time_from`); :meth:`configure_timing` keeps what it is not given.
        ``layer.set_timing(speed=0, time_offset=layer.convert_time_from(now))`` pauses the subtree
        on the frame it shows; ``set_timing(speed=0.5)`` plays it at half speed.
        """
        self._runtime._call(lib.animrt_layer_set_timing, self._id, check.number(begin_time, "begin_time"),
                                    check.number(speed, "speed"), check.number(time_offset, "time_offset"))

    def configure_timing(self, **options: Unpack[LayerTimingOptions]) -> None:
        """Sets the layer's media timing, as CALayer adopts CAMediaTiming; options not given are kept.

        Without a duration (the default) the layer's time is unbounded; with one
        its animations and sublayers see its iteration time, repeated, reversed
        and filled like an animation's (see :class:`LayerTimingOptions`)::

            ticker.configure_timing(duration=2.0, repeat_count=math.inf, autoreverses=True)

        All or nothing: when one option is refused, those set before it are set back.
        """
        check.options(options, _LAYER_OPTIONS, "Layer.configure_timing()")
        one_name_each(options, "Layer.configure_timing()")
        call = self._runtime._call
        # The library reads back none of the three, and refuses none that the checks here let through:
        # checked first, set once the numbers (which the library checks) are all taken.
        rest = []
        for name, value in options.items():
            if name == "fill_mode":
                rest.append((lib.animrt_layer_set_fill_mode, int(check.choice(value, "fill_mode", FillMode, FILL_MODES))))
            elif name == "direction":
                rest.append((lib.animrt_layer_set_direction, int(check.choice(value, "direction", Direction, DIRECTIONS))))
            elif name == "autoreverses":
                rest.append((lib.animrt_layer_set_autoreverses, 1 if check.boolean(value, name) else 0))
        numbers = [(name, check.number(value, name)) for name, value in options.items() if name in _LAYER_TIMING]
        before = {name: self._timing_param(name) for name in _TIMING_NAMES} if numbers else {}
        try:
            for name, number in numbers:
                call(lib.animrt_layer_set_timing_param, self._id, _LAYER_TIMING[name], number)
        except BaseException:
            self._set_timing_back(before, [name for name, _ in numbers])
            raise
        for fn, arg in rest:
            call(fn, self._id, arg)

    def _set_timing_back(self, before: Dict[str, float], given: List[str]) -> None:
        """Sets the numeric timing back to `before` (every parameter, as read before `given` were set).
        Core Animation's names first: one replaces Web Animations' exact count or duration (an
        unbounded layer reads inf, which cannot be set), so it is set again when one of those was
        given; then the exact ones that differ."""
        set_param = self._runtime._call
        for name, value in before.items():
            if name not in _EXACT and (self._timing_param(name) != value or _REPLACED_BY.get(name) in given):
                set_param(lib.animrt_layer_set_timing_param, self._id, _LAYER_TIMING[name], value)
        for name in _EXACT:
            if self._timing_param(name) != before[name]:
                set_param(lib.animrt_layer_set_timing_param, self._id, _LAYER_TIMING[name], before[name])

    def timing(self, name: LayerTimingName) -> float:
        """A numeric media timing parameter of the layer (``animrt_layer_get_timing_param``).

        ``ticker.timing("speed")`` → 1.0; an unbounded layer reads ``iteration_duration`` as ``math.inf``.
        """
        if name not in _LAYER_TIMING:
            raise ArgumentTypeError(f"name is {name!r}; it must be one of {', '.join(_LAYER_TIMING)}"
                                    + check.did_you_mean(str(name), _LAYER_TIMING))
        return self._timing_param(name)

    def _timing_param(self, name: str) -> float:
        """`timing(name)` for a name known to be one."""
        out = c_double()
        self._runtime._call(lib.animrt_layer_get_timing_param, self._id, _LAYER_TIMING[name], byref(out))
        return out.value

    def convert_time_from(self, time: float, layer: Optional[Layer] = None) -> float:
        """Core Animation's ``convertTime(_:from:)``: `time` in `layer`'s local time (None: the runtime's)
        as this layer's (``animrt_layer_convert_time``). The pause idiom (QA1673), and its resume,
        which goes on from the frame it paused on::

            paused = card.convert_time_from(now)
            card.set_timing(speed=0, time_offset=paused)
            ...
            card.set_timing(speed=1)
            card.configure_timing(begin_time=card.convert_time_from(now) - paused)
        """
        out = c_double()
        self._runtime._call(lib.animrt_layer_convert_time, check.number(time, "time"), _parent_id(layer), self._id,
                                      byref(out))
        return out.value

    def convert_time_to(self, time: float, layer: Optional[Layer] = None) -> float:
        """Core Animation's ``convertTime(_:to:)``: `time` in this layer's local time as `layer`'s
        (None: the runtime's): ``card.convert_time_to(2.0)``."""
        out = c_double()
        self._runtime._call(lib.animrt_layer_convert_time, check.number(time, "time"), self._id, _parent_id(layer),
                                      byref(out))
        return out.value

    # -- values ------------------------------------------------------------
    @check.keywords("Layer.set_value()", needs={
        "key_path": "the property to set, e.g. layer.set_value('opacity', 0.5)",
        "value": "the new model value of the key path, e.g. layer.set_value('opacity', 0.5)"})
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
        rt._call(lib.animrt_layer_set_value, self._id, info.id, values, n)

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
        rt._call(lib.animrt_layer_get_value, self._id, info.id, out, info.components, byref(c_size_t()))
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
        """What is on screen for `key_path` as of the last tick (``animrt_layer_get_presentation``); a layer
        created since the last tick shows its model.

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
        rt._call(lib.animrt_layer_get_presentation, self._id, info.id, out, n, byref(c_size_t()))
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
    @check.keywords("Layer.add_animation()", needs={
        "animation": "an animation made by the runtime, e.g. layer.add_animation(rt.basic('opacity', to=0))"})
    def add_animation(self, animation: Animation, key: Optional[str] = None, *,
                      barrier: Optional[Barrier] = None,
                      on_finish: Optional[Callable[[bool], object]] = None) -> AttachedAnimation:
        """Attaches a copy of `animation` under `key` (``animrt_layer_add_animation``).

        An animation already under that key stops (``StopReason.REPLACED``).
        With a `barrier`, the animation enters it now and leaves it when it
        stops, however it stops. Later changes to `animation` affect only
        later adds. Bad key times or values raise here, and nothing is attached::

            fade = rt.basic("opacity", from_=1, to=0, duration=0.3)
            attached = toast.add_animation(fade, key="out")
            attached.key          # 'out'

        `on_finish` is Core Animation's ``animationDidStop(_:finished:)``: it is called once, with
        True when the animation reached its end and False when it stopped early (removed, replaced,
        its layer destroyed, the runtime closed). It runs where completions run: at the end of the
        tick that reports the stop, on the ticking thread, just before the :class:`AnimationStopped`
        event (still reported); for a stop :meth:`Runtime.close` causes, inside ``close()``. If it
        raises, the other events are still delivered and the tick (or ``close()``) raises the
        first exception, with a note naming this animation ("raised by the on_finish of
        <AttachedAnimation 'out' of opacity on layer 0x… stopped 0x…> (finished=True)"). If the library's event queue was full and lost the stop (see
        ``event_capacity``), it is still called once, at the end of the tick that reports the
        :class:`Overflow`, just before that event: with True when the animation is still attached
        and finished (``removed_on_completion=False``, its :meth:`AttachedAnimation.lifecycle` is
        FINISHED: nothing else stops an animation and leaves it attached), with False when the
        library no longer holds it (it may have finished and been removed, or been removed,
        replaced or its layer destroyed: which, was in the lost event). A runtime garbage-collected without ``close()`` does not call it
        (see :meth:`Runtime.close`)::

            toast.add_animation(fade, key="out", on_finish=lambda finished: finished and toast.destroy())
        """
        _check_attachment(animation, key, barrier)
        if on_finish is not None and not callable(on_finish):
            raise ArgumentTypeError(f"on_finish is {check.describe(on_finish)}; it must be a callable taking "
                                    "one argument, finished (a bool), or None")
        if on_finish is not None:
            check.arity(on_finish, 1, "on_finish", "one argument, finished (a bool)")
        rt = self._runtime
        name = None if key is None else check.text(key, "key").encode()
        out = c_uint64()
        # Added and tracked before another thread's tick polls its events: its start, or its stop when
        # that thread removes it first, is delivered naming this object and runs on_finish, not a
        # stand-in's.
        with rt._registering():
            rt._call(lib.animrt_layer_add_animation, self._id, animation._id, name,
                     0 if barrier is None else barrier._id, byref(out))
            attached = AttachedAnimation(rt, out.value, self, animation, key, barrier)
            attached._tracked = True
            rt._attached[out.value] = attached
            if on_finish is not None:
                attached._on_finish = on_finish
                rt._wait_for_stop(out.value, on_finish)
        return attached

    def animation(self, key: str) -> Optional[AttachedAnimation]:
        """The animation attached under `key`, or None: Core Animation's ``animation(forKey:)``.

        ``toast.animation("in").computed_timing().progress`` says how far it is.
        """
        rt = self._runtime
        out = c_uint64()
        try:
            rt._call(lib.animrt_layer_animation_for_key, self._id, check.text(key, "key").encode(), byref(out))
        except NotFoundError:
            return None
        return rt._attached.get(out.value) or rt._stand_in_attached(out.value, self._id, 0, key)

    def remove_animation(self, key: str) -> bool:
        """Removes the animation under `key` (``animrt_layer_remove_animation``); True if there was one.

        It stops with ``StopReason.REMOVED``: ``toast.remove_animation("in")``. As in Core Animation,
        an animation added without a key is removed only by :meth:`remove_all_animations`.
        """
        if isinstance(key, AttachedAnimation):  # the handle add_animation returned: removed by its key
            raise ArgumentTypeError(f"key is {check.describe(key)}; it must be a str: " + (
                f"layer.remove_animation({key.key!r}) removes it" if key.key is not None else
                "it was added without a key, and such an animation is removed only with the layer's others, by "
                "remove_all_animations(), as in Core Animation (add it with key='…' to remove it alone)"))
        removed = c_int()
        self._runtime._call(lib.animrt_layer_remove_animation, self._id, check.text(key, "key").encode(),
                                          byref(removed))
        return bool(removed.value)

    def remove_all_animations(self) -> None:
        """Removes every animation of the layer (``animrt_layer_remove_all_animations``); each stops
        with ``StopReason.REMOVED``: ``toast.remove_all_animations()``."""
        self._runtime._call(lib.animrt_layer_remove_all_animations, self._id)

    def animation_keys(self) -> List[str]:
        """The keys of the layer's animations, in the order they apply (Core Animation's ``animationKeys()``).

        ``toast.animation_keys()`` → ``['in']``.
        """
        call = self._runtime._call
        n = c_size_t()
        while True:
            call(lib.animrt_layer_animation_count, self._id, byref(n))
            try:
                return [_string_out(call, lib.animrt_layer_animation_key, self._id, i) for i in range(n.value)]
            except RangeError:  # another thread removed some since they were counted: counted again
                continue


class ReadBack(Strict, Object):
    """The getters of an animation as the library holds it: an attached copy
    (:class:`AttachedAnimation`) or a group's child (:class:`AnimationCopy`)::

        for child in layer.animation("pop").children:
            print(child.key_path, child.timing("duration"), child.value("to"))
    """

    def _hint(self, name: str, reading: bool = False) -> str:
        if reading:
            # A flag and the keyframes, read under names of their own (not the closest name, "value" for
            # "values", "rotation_mode" for "calculation_mode").
            if name == "settling_duration":  # the description's seconds, and the flag of the same name
                return ("; .flag('settling_duration') says whether it runs until it settles, and then "
                        ".timing('duration') is how long that takes")
            if name in _FLAG_NAMES:
                return f"; read it with .flag({name!r})"
            if name == "values":
                return "; read them with .keyframe_values (each value's numbers in turn, flattened)"
            # What only the description reads back (a spring's damping, a keyframe's calculation mode):
            # the attached copy's description has it; a group's child has none to ask.
            if name in _description_only():
                return self._description_hint(name)
            # A timing option (or a misspelt one: "duraton" is not the attribute 'direction'), a field of
            # computed_timing() (its repr shows progress=), and a value slot, each read by a method.
            timing = name if name in _TIMING_NAMES else check.closest(name, _TIMING_NAMES)
            if timing is not None:
                return f"; read it with .timing({timing!r})" if timing == name else f"; did you mean .timing({timing!r})?"
            if name in _COMPUTED_FIELDS:
                return f"; read it with .computed_timing().{name}"
            slot = _VALUE_SLOTS.get(name)
            return f"; read it with .value({slot!r})" if slot is not None else ""
        read = f" (read it with .timing({name!r}))" if name in _TIMING_NAMES else ""
        return f"; an animation as the library holds it is read-only{read}: change the description and add it again"

    def _description_hint(self, name: str) -> str:
        return f"; the copy as the group holds it does not read {name} back"

    @property
    def key_path(self) -> Optional[str]:
        """The animated key path, None for a group: ``attached.key_path`` → ``'opacity'``."""
        return self._library_key_path()

    def _library_key_path(self) -> Optional[str]:
        return _string_out(self._runtime._call, lib.animrt_animation_get_key_path, self._id) or None

    def timing(self, name: TimingName) -> float:
        """A timing parameter of the copy as attached: ``begin_time`` as stamped at the next tick,
        ``duration`` as defaulted (``animrt_animation_get_timing``): ``attached.timing("begin_time")``."""
        if name not in _TIMING_NAMES:
            raise ArgumentTypeError(f"name is {name!r}; it must be one of {', '.join(_TIMING_NAMES)}"
                                    + check.did_you_mean(str(name), _TIMING_NAMES))
        out = c_double()
        self._runtime._call(lib.animrt_animation_get_timing, self._id, _TIMING_NAMES.index(name), byref(out))
        return out.value

    def _get_int(self, fn: Callable[..., Any], *args: Any) -> int:
        out = c_int()
        self._runtime._call(fn, self._id, *args, byref(out))
        return out.value

    @property
    def timing_function(self) -> str:
        """The timing function as attached, by a name the setters accept ("linear" if none):
        ``attached.timing_function`` → ``'cubic-bezier(0.2, 0, 0, 1)'``."""
        return _string_out(self._runtime._call, lib.animrt_animation_get_timing_function, self._id)

    @property
    def fill_mode(self) -> FillMode:
        """The fill mode as attached: ``attached.fill_mode is FillMode.FORWARDS``."""
        return FillMode(self._get_int(lib.animrt_animation_get_fill_mode))

    @property
    def direction(self) -> Direction:
        """The direction as attached: ``attached.direction is Direction.ALTERNATE``."""
        return Direction(self._get_int(lib.animrt_animation_get_direction))

    def flag(self, name: FlagName) -> bool:
        """A flag of the copy: ``attached.flag("removed_on_completion")`` (``animrt_animation_get_flag``)."""
        if name not in _FLAG_NAMES:
            raise ArgumentTypeError(f"name is {name!r}; it must be one of {', '.join(_FLAG_NAMES)}"
                                    + check.did_you_mean(str(name), _FLAG_NAMES))
        return bool(self._get_int(lib.animrt_animation_get_flag, _FLAG_NAMES.index(name)))

    def value(self, slot: SlotName) -> Optional[Value]:
        """"from", "to", "by" or "velocity" as attached (``animrt_animation_get_value``), None if not set.

        With ``from_presentation`` the from value is what was on screen: ``attached.value("from")``.
        """
        if slot not in _SLOT_NUMBERS:
            raise ArgumentTypeError(f"slot is {slot!r}; it must be one of {', '.join(_SLOT_NUMBERS)}"
                                    + check.did_you_mean(str(slot), _SLOT_NUMBERS))
        v = _doubles_out(self._runtime._call, lib.animrt_animation_get_value, self._id, _SLOT_NUMBERS[slot])
        return None if not v else v[0] if len(v) == 1 else tuple(v)

    @property
    def keyframe_values(self) -> List[float]:
        """A keyframe animation's values as set, flattened (``animrt_keyframe_get_values``):
        ``attached.keyframe_values`` → ``[0.0, 1.0, 0.5]``."""
        return _doubles_out(self._runtime._call, lib.animrt_keyframe_get_values, self._id)

    @property
    def key_times(self) -> Optional[List[float]]:
        """A keyframe animation's key times as set, or None: ``attached.key_times`` → ``[0.0, 0.2, 1.0]``."""
        return _doubles_out(self._runtime._call, lib.animrt_keyframe_get_key_times, self._id) or None

    @property
    def rotation_mode(self) -> RotationMode:
        """A keyframe animation's rotation mode: ``attached.rotation_mode is RotationMode.AUTO``."""
        return RotationMode(self._get_int(lib.animrt_keyframe_get_rotation_mode))

    @property
    def children(self) -> List[AnimationCopy]:
        """A group's children as it holds them (Core Animation's ``animations``), in the order added,
        each a copy to read (``animrt_group_get_child``): ``[c.key_path for c in attached.children]``
        → ``['opacity', 'cornerRadius']``. An attached group's children read as attached."""
        rt = self._runtime
        n = c_size_t()
        rt._call(lib.animrt_group_get_count, self._id, byref(n))
        copies = []
        for i in range(n.value):
            out = c_uint64()
            rt._call(lib.animrt_group_get_child, self._id, i, byref(out))
            copies.append(AnimationCopy(rt, out.value))
        return copies


class AnimationCopy(ReadBack):
    """A copy of a group's child, read from the group (:attr:`ReadBack.children`): its getters
    say what the group holds. The copy is the program's own and goes with this object:
    ``fade, grow = attached.children``; ``fade.value("to")`` → ``1.0``."""

    _destroy_fn = lib.animrt_animation_destroy

    def __repr__(self) -> str:
        return f"<AnimationCopy {self.key_path or 'group'} {self._id:#x}>"


class AttachedAnimation(ReadBack):
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

    #: True once the binding tracks it until its stop is delivered (added by Layer.add_animation)
    _tracked = False
    #: True when the key path is known without asking the library: its description's, fixed when
    #: the description was made, or read from the library while it held the animation
    _key_path_known = True
    _on_finish: Optional[Callable[[bool], object]] = None
    #: how it ended (its ``finished``) once the binding has delivered its stop; None before
    _stopped_as: Optional[bool] = None

    def __init__(self, runtime: Runtime, handle: int, layer: Layer, animation: Animation, key: Optional[str],
                 barrier: Optional[Barrier], key_known: bool = True) -> None:
        super().__init__(runtime, handle, owned=False)
        self._layer = layer
        self._animation = animation
        self._key = key
        #: False for an animation the program did not add itself (a machine's): its key is asked
        #: of the library the first time it is read
        self._key_known = key_known or key is not None
        self._barrier = barrier

    def _description_hint(self, name: str) -> str:
        return (f"; the copy as attached does not read {name} back: its description does, "
                f"attached.animation.{name} (as the description is now)")

    # Read-only: the library attached the animation to this layer, from this description, in this
    # barrier; assigning another would change only what the object (and its events) claim.
    @property
    def layer(self) -> Layer:
        """The layer it is attached to: ``attached.layer is toast``."""
        return self._layer

    @property
    def animation(self) -> Animation:
        """The description it was added from (a copy runs; later changes to this one do not reach
        it): ``attached.animation is fade``."""
        return self._animation

    @property
    def key_path(self) -> Optional[str]:
        """The animated key path, None for a group: ``attached.key_path`` → ``'opacity'``.

        Like :attr:`key`, :attr:`layer` and :attr:`animation`, it is fixed when the animation is
        added, so it is kept once the animation has gone (finished and removed, replaced, or its
        runtime closed); what the library holds of it now (:meth:`timing`, :meth:`computed_timing`,
        :meth:`velocity`, …) raises ``HandleError`` then. For an animation the program did not add
        (a machine's) it is read while the library holds it, when its event is delivered; one gone
        before that raises ``HandleError``, as nothing was known of it."""
        if self._key_path_known:
            return self._animation._key_path
        return self._library_key_path()

    @property
    def barrier(self) -> Optional[Barrier]:
        """The barrier it was added in, or None: ``toast.add_animation(drop, barrier=arrived).barrier is arrived``."""
        return self._barrier

    @property
    def on_finish(self) -> Optional[Callable[[bool], object]]:
        """The callable given to :meth:`Layer.add_animation` as ``on_finish``, or None; it is kept
        after it has run: ``attached.on_finish is done``."""
        return self._on_finish

    @property
    def key(self) -> Optional[str]:
        """The key it was added under, None for an anonymous one: ``attached.key`` → ``'out'``.

        For an animation the program did not add (a machine's ``animate`` action) the key is read
        from its layer while it is attached: when a tick delivers its event, or when first asked for
        (``m.part("button").animation("shape").key`` → ``'shape'``); None if neither happened
        before the animation had gone."""
        if not self._key_known:
            self._key = self._find_key()
            self._key_known = True
        return self._key

    async def wait(self) -> bool:
        """Waits, from an asyncio task, for the animation to stop: True when it reached its end, False
        when it stopped before it (removed, replaced, its layer destroyed, the runtime closed), as
        ``on_finish`` is told::

            async def dismiss(rt: animrt.Runtime, toast: animrt.Layer) -> None:
                fade = toast.add_animation(rt.basic("opacity", to=0, duration=0.3), key="out")
                if await fade.wait():
                    toast.destroy()

        The clock is the program's: another task must go on ticking (``rt.tick(loop.time())`` then
        ``await asyncio.sleep(1 / 60)``), and the wait ends at the tick that delivers the stop, after
        that tick has returned (from a tick on another thread, through the task's event loop). Once
        the stop has been delivered it returns at once, with the same answer, as often as it is
        awaited, from any number of tasks; so it does after ``rt.close()``, which stops every
        animation. Cancelling the awaiting task (``asyncio.wait_for`` timing out) cancels only its
        own wait. For animations the binding added (:meth:`Layer.add_animation`); a machine's
        raises :class:`StateError`: wait for its state instead, ``await m.wait_for("finished")``
        (:meth:`Machine.wait_for`)."""
        if not self._tracked:
            raise StateError(f"{self!r} was added by a machine or through raw C calls, and the binding does "
                             "not follow its stop: wait for the machine's state instead, await "
                             "machine.wait_for('state'); wait() is for animations added with layer.add_animation()")
        known = self._stopped_as
        if known is not None:
            return known
        future: "asyncio.Future[bool]" = asyncio.get_running_loop().create_future()
        rt = self._runtime
        ended = rt._await_stop(self, future)
        if ended is not None:
            return ended
        try:
            return await future
        finally:
            rt._forget_waiter(self, future)

    def _find_key(self) -> Optional[str]:
        """The key under which this animation is attached to its layer now, or None."""
        layer = self.layer
        try:
            for key in layer.animation_keys():
                out = c_uint64()
                self._runtime._call(lib.animrt_layer_animation_for_key, layer._id, key.encode(), byref(out))
                if out.value == self._id:
                    return key
        except AnimrtError:  # its layer is gone, or the runtime
            pass
        return None

    def __repr__(self) -> str:
        """``<AttachedAnimation 'out' of opacity on layer 0x… active progress=0.5 0x…>``: its key,
        key path and layer, and how far it is as of the last tick, or ``stopped`` once its stop was
        delivered. It never raises and changes nothing the program sees (a key looked up and found
        is kept, as :attr:`key` keeps it; one not found is not, so a later read may still find it)."""
        parts = ["AttachedAnimation"]
        try:
            key = self._key
            if not self._key_known:
                key = self._find_key()
                if key is not None:  # a fact, kept as .key keeps it; "not found" is not kept
                    self._key, self._key_known = key, True
            if key is not None:
                parts.append(repr(key))
            key_path = self._animation._key_path
            if key_path is None and not self._tracked:  # a machine's: its description is a stand-in
                key_path = self._read_key_path()
            if key_path is not None:
                parts.append(f"of {key_path}")
            parts.append(f"on layer {self._layer._id:#x}")
            parts += self._repr_state()
        except Exception:  # a repr must print whatever state the object is in
            pass
        parts.append(f"{self._id:#x}")
        return "<" + " ".join(parts) + ">"

    def _read_key_path(self) -> Optional[str]:
        """The key path, or None when it cannot be read (for the repr)."""
        try:
            return self.key_path
        except AnimrtError:
            return None

    def _repr_state(self) -> List[str]:
        """Where it is, for the repr: ``stopped`` once the binding has delivered its stop, else its
        phase and progress as the library has them (nothing when they cannot be read)."""
        rt = self._runtime
        if rt.closed or (self._tracked and rt._attached.get(self._id) is not self):
            return ["stopped"]
        try:
            timing = self.computed_timing()
        except AnimrtError:  # a machine's animation since gone, or one the library no longer holds
            return []
        state = [timing.phase.name.lower()]
        if timing.progress is not None:
            state.append(f"progress={round(timing.progress, 4)!r}")
        return state

    def computed_timing(self) -> ComputedTiming:
        """Web Animations' ``getComputedTiming()`` as of the last tick (``animrt_animation_get_computed_timing``).

        ``attached.computed_timing().progress`` → 0.5 half-way through a linear animation.
        """
        out = CComputedTiming()
        self._runtime._call(lib.animrt_animation_get_computed_timing, self._id, byref(out))

        def resolved(v: float) -> Optional[float]:
            return None if v != v else v  # NaN stands for Web Animations' null
        return ComputedTiming(Phase(out.phase), resolved(out.local_time), resolved(out.active_time),
                              out.active_duration, out.end_time, resolved(out.current_iteration),
                              resolved(out.progress))

    def lifecycle(self) -> Lifecycle:
        """Which of its events the library has sent as of the last tick (``animrt_animation_get_lifecycle``):
        ``attached.lifecycle() is Lifecycle.FINISHED`` once it played to its end and stayed attached."""
        out = c_int32()
        self._runtime._call(lib.animrt_animation_get_lifecycle, self._id, byref(out))
        return Lifecycle(out.value)

    def velocity(self, key_path: Optional[str] = None) -> Value:
        """Units per second at which the value it gives `key_path` (default: its own) changes, as of
        the last tick (``animrt_animation_get_velocity``): ``vx, vy = attached.velocity()``."""
        rt = self._runtime
        out, n = (c_double * 16)(), c_size_t()
        rt._call(lib.animrt_animation_get_velocity, self._id, None if key_path is None else
                                          check.text(key_path, "key_path").encode(), out, 16, byref(n))
        return python_value(out, n.value)

    def retarget(self, target: ValueLike) -> None:
        """Sends a running spring to `target` keeping its value and velocity (``animrt_animation_retarget``),
        as SwiftUI and Pop do: ``drag.retarget((finger_x, finger_y))``."""
        rt = self._runtime
        key_path = _string_out(rt._call, lib.animrt_animation_get_key_path, self._id)
        values, n = doubles(target, "target", key_path, rt._keypath(key_path))
        rt._call(lib.animrt_animation_retarget, self._id, values, n)


@dataclass(frozen=True)
class ComputedTiming:
    """Web Animations' ``getComputedTiming()`` of an attached animation, in seconds of its layer's time.

    None is Web Animations' null (unresolved)::

        timing = attached.computed_timing()
        if timing.phase is Phase.ACTIVE:
            print(timing.current_iteration, timing.progress)
    """
    phase: Phase
    local_time: Optional[float]
    active_time: Optional[float]
    active_duration: float
    end_time: float
    current_iteration: Optional[float]
    progress: Optional[float]

    @property
    def in_effect(self) -> bool:
        """Whether the animation contributes a value: ``timing.in_effect``."""
        return self.progress is not None


class LayerTimingOptions(MediaTimingOptions, total=False):
    """A layer's media timing (:meth:`Layer.configure_timing`), as CALayer adopts CAMediaTiming.

    ``duration`` 0 (the default) means unbounded; the other options are those of
    :class:`TimingOptions` and take effect once there is a duration::

        ticker.configure_timing(duration=2.0, repeat_count=math.inf, fill_mode="both")
    """
    duration: float


TimingName = Literal["begin_time", "duration", "speed", "time_offset", "repeat_count", "repeat_duration",
                     "iteration_start", "end_delay", "delay", "iterations", "iteration_duration"]
LayerTimingName = TimingName
FlagName = Literal["autoreverses", "removed_on_completion", "additive", "cumulative", "from_presentation",
                   "allows_overdamping", "settling_duration"]
SlotName = Literal["from", "to", "by", "velocity"]
#: What ComputedTiming holds, which an attached animation's repr shows some of (``progress=0.5``).
_COMPUTED_FIELDS = ("phase", "local_time", "active_time", "active_duration", "end_time", "current_iteration",
                    "progress", "in_effect")
#: The value slots .value() reads, by the description's attribute names ("to_value") and the names they
#: stand for (Animation._ATTRIBUTE_NAMES: "to", "toValue"), and the spring's initial_velocity.
_VALUE_SLOTS = {name: attribute[:-len("_value")] for name, attribute in
                [*Animation._ATTRIBUTE_NAMES.items(), *((a, a) for a in Animation._ATTRIBUTE_NAMES.values())]}
_VALUE_SLOTS["initial_velocity"] = "velocity"
_TIMING_NAMES: Tuple[str, ...] = ("begin_time", "duration", "speed", "time_offset", "repeat_count",
                                  "repeat_duration", "iteration_start", "end_delay", "delay", "iterations",
                                  "iteration_duration")
_LAYER_TIMING = {name: i for i, name in enumerate(_TIMING_NAMES)}
_LAYER_OPTIONS: Tuple[str, ...] = _TIMING_NAMES + ("autoreverses", "fill_mode", "direction")
_FLAG_NAMES: Tuple[str, ...] = ("autoreverses", "removed_on_completion", "additive", "cumulative",
                                "from_presentation", "allows_overdamping", "settling_duration")
_SLOT_NUMBERS = {"from": 0, "to": 1, "by": 2, "velocity": 3}
@functools.lru_cache(maxsize=None)
def _description_only() -> FrozenSet[str]:
    """The properties of the animation descriptions that an animation as the library holds it has no
    getter of, nor a method that reads it (.timing(), .flag(), .value(), .keyframe_values)."""
    from ._animation import AnimationGroup, BasicAnimation, DecayAnimation, KeyframeAnimation, SpringAnimation
    read = ({a for k in AttachedAnimation.__mro__ for a in vars(k)} | set(_TIMING_NAMES) | set(_FLAG_NAMES)
            | set(_VALUE_SLOTS) | {"values"})
    return frozenset(a for k in (BasicAnimation, KeyframeAnimation, SpringAnimation, DecayAnimation, AnimationGroup)
                     for c in k.__mro__ for a, m in vars(c).items()
                     if isinstance(m, property) and not a.startswith("_") and a not in read)


# By C function's name: the size its last string result needed (up to _SIZE_HINT_MAX), the buffer its
# next call starts with. A result that has not grown is then built once, not once to learn its size
# and again to fill: a machine's snapshot (a progress card's is 23 kB) took two builds a call.
_string_sizes: Dict[str, int] = {}
_SIZE_HINT_FIRST = 256
_SIZE_HINT_MAX = 1 << 20


def _string_out(fn: Callable[..., Any], *args: Any) -> str:
    """A string from a (buf, cap, needed) C function, ``args[0]``: called with a buffer the size its
    last result needed; again, at the size it says, when the result is larger (longer than the last,
    or grown in between: another thread removed a layer's animation and a longer key took its
    index, or sent a machine an event between the two calls)."""
    function: str = args[0].__name__  # ctypes functions cannot be hashed; their names can
    needed = c_size_t(_string_sizes.get(function, _SIZE_HINT_FIRST))
    while True:
        buffer = create_string_buffer(needed.value)
        try:
            fn(*args, buffer, needed.value, byref(needed))
        except BufferTooSmallError:
            if needed.value <= len(buffer):
                raise
            continue
        if needed.value <= _SIZE_HINT_MAX:
            _string_sizes[function] = needed.value
        return buffer.value.decode("utf-8")


def _doubles_out(fn: Callable[..., Any], *args: Any) -> List[float]:
    """Calls an (out, cap, needed) C function, asking for the size first."""
    needed = c_size_t()
    try:
        fn(*args, None, 0, byref(needed))
    except BufferTooSmallError:
        pass
    out = (c_double * max(needed.value, 1))()
    fn(*args, out, needed.value, byref(needed))
    return list(out[:needed.value])


def _check_attachment(animation: object, key: object, barrier: object) -> None:
    """The arguments every add shares: an animation description, an optional key and an optional barrier."""
    from ._barrier import Barrier
    if not isinstance(animation, Animation):
        raise ArgumentTypeError(f"animation is {check.describe(animation)}; it must be an animation from "
                                "rt.basic(), rt.spring(), rt.keyframe() or rt.group()")
    if animation.runtime.closed:  # not "another runtime": that one is gone, and the animation with it
        raise ClosedError("the animation's runtime is closed (animation.runtime.closed); make the animation "
                          "with this layer's runtime")
    if key is not None:
        check.text(key, "key")
    if barrier is not None and not isinstance(barrier, Barrier):
        raise ArgumentTypeError(f"barrier is {check.describe(barrier)}; it must be a Barrier from rt.barrier()")


def _parent_id(parent: object) -> int:
    if parent is None:
        return 0
    if isinstance(parent, Layer):
        return parent._id
    raise ArgumentTypeError(f"parent is {check.describe(parent)}; it must be a Layer or None")

