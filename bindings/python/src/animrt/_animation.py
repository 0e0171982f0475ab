"""Animation descriptions: basic, spring, keyframe and group, with Core Animation's timing.

A description is configured, then added to layers; each add attaches a copy
(:meth:`Layer.add_animation`), so later changes affect only later adds.
Create them with :meth:`Runtime.basic`, :meth:`Runtime.spring`,
:meth:`Runtime.keyframe` and :meth:`Runtime.group`; every timing option is a
keyword argument and a property of the same name (Core Animation's
``repeatCount`` is ``repeat_count``)::

    pulse = rt.basic("transform.scale", from_=1.0, to=1.2, duration=0.4,
                     autoreverses=True, repeat_count=math.inf, timing_function="easeInEaseOut")
    pulse.speed = 2.0
"""
from __future__ import annotations

from ctypes import byref, c_char_p, c_double, c_int, c_int32, c_uint64
import inspect
import math
import reprlib
import sys
from typing import (TYPE_CHECKING, Any, Callable, ClassVar, Dict, Iterable, List, Literal, Mapping, Optional, Sequence,
                    Tuple, TypedDict, Union)

from . import _arguments as check
from ._enums import (CALCULATION_MODES, DIRECTIONS, FILL_MODES, ROTATION_MODES, CalculationMode, CalculationModeLike,
                     Direction, DirectionLike, FillMode, FillModeLike, RotationMode, RotationModeLike)
from ._errors import ArgumentTypeError, EnumError, InvalidArgumentError
from ._ffi import lib
from ._object import Object, Strict
from ._values import Value, ValueLike, components, doubles, python_value

if TYPE_CHECKING:
    if sys.version_info >= (3, 11):
        from typing import Unpack
    else:  # typing gained Unpack in 3.11; type checkers ship typing_extensions, and it is never imported at run time
        from typing_extensions import Unpack

    from ._runtime import Runtime

TimingFunctionLike = Union[str, Tuple[float, float, float, float]]
"""A timing function: a name ("linear", "easeIn", "easeOut", "easeInEaseOut",
"default", a CSS name such as "ease-in-out" or "step-end", "steps(4)",
"cubic-bezier(0.2, 0, 0, 1)", CSS Easing 2's "linear(0, 0.25 75%, 1)") or the
four control points of a cubic bezier, ``(x1, y1, x2, y2)``."""

PathElementLike = Tuple[Any, ...]
"""One element of a keyframe path: ``("move", x, y)``, ``("line", x, y)``,
``("quad", cx, cy, x, y)``, ``("cubic", c1x, c1y, c2x, c2y, x, y)`` or
``("close",)``; SVG's letters M, L, Q, C and Z name them too."""


class MediaTimingOptions(TypedDict, total=False):
    """The media timing animations and layers share (CAMediaTiming, and Web Animations' additions);
    see :class:`TimingOptions` for their meaning: ``rt.basic("opacity", to=0, delay=0.2, fill_mode="both")``."""
    begin_time: float
    speed: float
    time_offset: float
    repeat_count: float
    repeat_duration: float
    iteration_start: float
    end_delay: float
    delay: float
    iterations: float
    iteration_duration: float
    autoreverses: bool
    fill_mode: FillModeLike
    direction: DirectionLike


class TimingOptions(MediaTimingOptions, total=False):
    """Options every animation takes, as keyword arguments (Core Animation's names in snake_case).

    ===================== =========================================================
    begin_time            parent time to begin at; 0 (default) means "at the next tick"
    speed                 1 by default; 0 pauses, negative plays backwards
    time_offset           seconds into the animation to start from (wraps around)
    repeat_count          0 or 1: once; fractional counts stop part-way; ``math.inf``: forever
    repeat_duration       seconds to repeat for (0: unused)
    iteration_start       Web Animations' iterationStart (≥ 0)
    end_delay             Web Animations' endDelay, seconds
    delay                 Web Animations' start delay: seconds of local time after begin_time
    iterations            Web Animations' iteration count, exactly: 0 is none, ``math.inf`` forever
                          (replaces repeat_count and repeat_duration: give one of them)
    iteration_duration    Web Animations' duration, exactly: 0 is a zero-length iteration
                          (replaces duration: give one of them)
    autoreverses          play backwards after each forward pass
    removed_on_completion True (default): removed from the layer once finished
    additive              add to the value below instead of replacing it (not a group's)
    cumulative            each repeat builds on the last (not a group's)
    from_presentation     start from what is on screen when added (basic, spring; not additive)
    fill_mode             "removed" (default), "forwards", "backwards", "both"
    direction             "normal" (default), "reverse", "alternate", "alternate-reverse"
    timing_function       a name or ``(x1, y1, x2, y2)``; linear by default
    ===================== =========================================================
    """
    removed_on_completion: bool
    additive: bool
    cumulative: bool
    from_presentation: bool
    timing_function: Optional[TimingFunctionLike]


class AnimationOptions(TimingOptions, total=False):
    """:class:`TimingOptions` and ``duration``: seconds per iteration, 0 (default) meaning 0.25 s
    (or the open transaction's ``animation_duration``; in a group, the group's duration)."""
    duration: float


class SpringOptions(TimingOptions, total=False):
    """:class:`TimingOptions` and ``duration``: ``"settling"`` (default) runs the spring until it
    comes to rest (its ``settling_duration``); a number of seconds cuts it off there, as Core
    Animation does."""
    duration: Union[float, Literal["settling"]]


_TIMING = {"begin_time": 0, "duration": 1, "speed": 2, "time_offset": 3, "repeat_count": 4,
           "repeat_duration": 5, "iteration_start": 6, "end_delay": 7, "delay": 8, "iterations": 9,
           "iteration_duration": 10}
_FLAGS = {"autoreverses": 0, "removed_on_completion": 1, "additive": 2, "cumulative": 3,
          "from_presentation": 4, "allows_overdamping": 5, "settling_duration": 6}
OPTIONS: Tuple[str, ...] = ("begin_time", "duration", "speed", "time_offset", "repeat_count", "repeat_duration",
                            "iteration_start", "end_delay", "delay", "iterations", "iteration_duration",
                            "autoreverses", "removed_on_completion", "additive", "cumulative", "from_presentation",
                            "fill_mode", "direction", "timing_function")
_SLOTS = {"from": 0, "from_": 0, "to": 1, "by": 2}
_VELOCITY = 3  # ANIMRT_VELOCITY: a decay's initial velocity
# animrt_spring_param
_SPRING_PARAMS = {"mass": 0, "stiffness": 1, "damping": 2, "initial_velocity": 3, "damping_ratio": 4, "response": 5,
                  "perceptual_duration": 6, "bounce": 7, "settling_duration": 8}
_SLOT_NAMES = ("from_", "to", "by")

#: Long lists (a thousand keyframes) shortened in reprs: ``[0.0, 1.0, 0.5, 0.25, ...]``.
_short = reprlib.Repr()
_short.maxlist = 4
_short.maxtuple = 4
_short.maxstring = 60  # a curve's whole name: "cubic-bezier(0.2, 0.0, 0.0, 1.0)"


#: Web Animations' exact count and duration, and for Core Animation's names of the same quantities, the
#: exact one each drops when it is set (an animation's and a layer's timing alike).
_EXACT = ("iterations", "iteration_duration")
_REPLACED_BY = {"duration": "iteration_duration", "repeat_count": "iterations", "repeat_duration": "iterations"}


def one_name_each(options: Mapping[str, object], where: str) -> None:
    """Refuses, in one call, both names of one quantity (the later would silently replace the earlier,
    as keyword order decides) and repeat_count with repeat_duration (Core Animation leaves the pair
    undefined; the library would refuse it only when the animation is added)."""
    for ca, exact in _REPLACED_BY.items():
        if ca in options and exact in options:
            raise InvalidArgumentError(
                f"{where} got {ca}= and {exact}=, Core Animation's and Web Animations' names for one quantity "
                f"(the later would replace the earlier): give one")
    count, duration = options.get("repeat_count"), options.get("repeat_duration")
    if count is not None and duration is not None and check.number(count, "repeat_count") > 0 \
            and check.number(duration, "repeat_duration") > 0:
        raise InvalidArgumentError(
            f"{where} got repeat_count={count!r} and repeat_duration={duration!r}; Core Animation leaves the pair "
            "undefined: give one of them")


class Animation(Strict, Object):
    """Base class of the animation descriptions (``animrt_animation_create``).

    Every timing option of :class:`TimingOptions` is a property::

        fade = rt.basic("opacity", to=0)
        fade.duration = 0.3
        fade.timing_function = "easeIn"
        fade.fill_mode = "forwards"
    """

    def _copy_hint(self) -> str:
        return ("one description can be added to any number of layers as it is (each add copies it into the layer); "
                "for a variant, make another with rt.basic(...), rt.spring(...) and the like")

    _destroy_fn = lib.animrt_animation_destroy
    _kind: ClassVar[int] = 0
    _factory: ClassVar[str] = "animation"
    _key_path: Optional[str] = None

    def __init__(self, runtime: Runtime, key_path: Optional[str], options: Mapping[str, Any]) -> None:
        names = self._option_names()
        if any(key not in names for key in options):  # refused: the factory's own keywords are suggested too
            names = [*names, *(k for k in self._own_keywords() if k not in names)]
        check.options(options, names, f"rt.{self._factory}()")
        one_name_each(options, f"rt.{self._factory}()")
        if key_path is not None:
            runtime._keypath(key_path)  # an unknown key path fails now, with a suggestion
        out = c_uint64()
        runtime._call(lib.animrt_animation_create, self._kind, None if key_path is None else check.text(key_path, "key_path").encode(),
                                    byref(out))
        super().__init__(runtime, out.value)
        self._key_path = key_path
        try:
            self._apply(options)  # (refused, the description is destroyed: nothing to set back)
        except BaseException:
            self.destroy()
            raise

    @classmethod
    def _option_names(cls) -> Sequence[str]:
        return OPTIONS

    @classmethod
    def _own_keywords(cls) -> Tuple[str, ...]:
        """The keywords the factory takes besides the options (``from_``, ``to``, ``key_times``, …):
        a misspelt one is one of these as often as an option (read only when a name is refused)."""
        return tuple(p.name for p in inspect.signature(cls).parameters.values() if p.kind is p.KEYWORD_ONLY)

    #: Names from the factories' keywords and Core Animation that the
    #: attributes spell differently.
    _ATTRIBUTE_NAMES: ClassVar[Dict[str, str]] = {
        "to": "to_value", "from_": "from_value", "from": "from_value", "by": "by_value",
        "toValue": "to_value", "fromValue": "from_value", "byValue": "by_value"}

    def _hint(self, name: str, reading: bool = False) -> str:
        meant = self._ATTRIBUTE_NAMES.get(name)
        return f"; did you mean {meant!r}?" if meant is not None and hasattr(type(self), meant) else ""

    def _state(self) -> Dict[str, Any]:
        """What the library cannot be asked for (flags, names), as last set."""
        state: Optional[Dict[str, Any]] = self.__dict__.get("_saved")
        if state is None:
            state = self.__dict__["_saved"] = {}
        return state

    def configure(self, **options: Any) -> Animation:
        """Sets several options at once (see :class:`TimingOptions`) and returns the animation.

        ``fade.configure(duration=0.3, timing_function="easeIn", fill_mode="forwards")``. All or
        nothing: when one option is refused, those set before it are set back, and the description
        is left as it was.
        """
        check.options(options, self._option_names(), f"{type(self).__name__}.configure()")
        one_name_each(options, f"{type(self).__name__}.configure()")
        undo = self._undo(options)
        try:
            self._apply(options)
        except BaseException:
            undo()
            raise
        return self

    def _apply(self, options: Mapping[str, Any]) -> None:
        """Sets `options` one after another (checked names): what the factories and configure() do."""
        for name, value in options.items():
            setattr(self, name, value)

    def _flags_set_by(self, names: Iterable[str]) -> List[str]:
        """The flags that setting the options `names` may change."""
        return [name for name in names if name in _FLAGS]

    def _undo(self, names: Iterable[str]) -> Callable[[], None]:
        """A function that sets back what setting the options `names` may change, as it is now:
        configure() calls it when one of them is refused, after some were set."""
        names = list(names)
        state = self._state()
        saved: Dict[str, Any] = {k: set(v) if isinstance(v, set) else v for k, v in state.items()}
        timing = {n: self._get_timing(n) for n in _TIMING} if any(n in _TIMING for n in names) else None
        exact = set(state.get("exact", ()))
        flags = {f: self._get_flag(f) for f in self._flags_set_by(names)}
        fill = self.fill_mode if "fill_mode" in names else None
        direction = self.direction if "direction" in names else None

        def undo() -> None:
            if timing is not None:
                now = self._state().get("exact", set())
                # Core Animation's names first (each drops the exact count or duration it replaces),
                # then the exact ones that were set
                for n, value in timing.items():
                    replaced = _REPLACED_BY.get(n)
                    if n not in _EXACT and (
                            self._get_timing(n) != value or (replaced in now and replaced not in exact)):
                        self._set_timing(n, value)
                for n in _EXACT:
                    if n in exact and (n not in now or self._get_timing(n) != timing[n]):
                        self._set_timing(n, timing[n])
            # off before on: each pair that excludes the other (additive, from_presentation) was valid as it was
            for value in (False, True):
                for f, was in flags.items():
                    if was is value and self._get_flag(f) is not value:
                        self._set_flag(f, value)
            if fill is not None and self.fill_mode != fill:
                self.fill_mode = fill
            if direction is not None and self.direction != direction:
                self.direction = direction
            if "timing_function" in names and self._state().get("timing_function") != saved.get("timing_function"):
                self.timing_function = saved.get("timing_function")
            self._undo_more(names, saved)
            state.clear()
            state.update(saved)
        return undo

    def _undo_more(self, names: Sequence[str], saved: Mapping[str, Any]) -> None:
        """What a kind's own options set (a spring's), set back from `saved`, its state before."""

    def destroy(self) -> None:
        """Destroys the description (``animrt_animation_destroy``); copies already added keep running.

        Idempotent; the garbage collector does it when the object is no longer referenced:
        ``fade.destroy()``.
        """
        if self._finalizer is not None:
            self._finalizer()

    @property
    def key_path(self) -> Optional[str]:
        """The animated key path; None for a group: ``rt.basic("opacity").key_path`` → ``'opacity'``."""
        return self._key_path

    def __repr__(self) -> str:
        """``<BasicAnimation 'opacity' from_=1.0 to=0.0 duration=0.3 0x…>``: what it was made with,
        and each option that differs from its default (``removed_on_completion=False fill_mode='both'``).

        A repr is what a traceback, a log line or a debugger shows, so it never raises and changes
        nothing: what the library must be asked for (the duration) is left out once the description
        or its runtime is gone, and said so. The stand-in for what a machine's animation was made
        from, which no description handle names, says so in place of a handle."""
        parts = [type(self).__name__]
        if self._key_path is not None:
            parts.append(repr(self._key_path))
        # A stand-in (the description of an animation a machine added) owns nothing: it is read
        # while the library holds it.
        destroyed = self._finalizer is not None and not self._finalizer.alive
        live = not destroyed and not self._runtime.closed
        if self._id == 0:  # no description at all (a machine's animation names none): nothing to read,
            # and no handle to print: 0 would read as a handle the library gave
            return "<" + " ".join(parts) + " (added by a machine: no description handle)>"
        try:
            parts += self._repr_fields(live)
        except Exception:  # a repr must print whatever state the object is in
            pass
        if not live:
            parts.append("(runtime closed)" if self._runtime.closed else "(destroyed)")
        parts.append(f"{self._id:#x}")
        return "<" + " ".join(parts) + ">"

    def _repr_fields(self, live: bool) -> List[str]:
        """``name=value`` for what was set, as the repr shows it; `live`: the library may be asked."""
        fields = []
        if live:
            exact = self._state().get("exact", ())
            duration = self._get_timing("duration")
            if duration and "iteration_duration" not in exact:
                fields.append(f"duration={duration!r}")
            repeat = self._get_timing("repeat_count")
            if repeat and "iterations" not in exact:
                fields.append(f"repeat_count={repeat!r}")
            fields += self._changed_options()
        if self._state().get("timing_function") is not None:
            fields.append(f"timing_function={self._state()['timing_function']!r}")
        return fields

    #: The options a repr shows when they differ from these defaults, in the order of OPTIONS. Left
    #: out: duration and repeat_count (shown above), and Web Animations' iterations and
    #: iteration_duration, which read what those two set: shown when set last, as they then replace
    #: them (and repeat_duration), and at 0, which those two cannot say.
    _REPR_TIMING: ClassVar[Tuple[Tuple[str, float], ...]] = (
        ("begin_time", 0.0), ("speed", 1.0), ("time_offset", 0.0), ("repeat_duration", 0.0),
        ("iteration_start", 0.0), ("end_delay", 0.0), ("delay", 0.0))
    _REPR_FLAGS: ClassVar[Tuple[Tuple[str, bool], ...]] = (
        ("autoreverses", False), ("removed_on_completion", True), ("additive", False), ("cumulative", False),
        ("from_presentation", False))

    def _changed_options(self) -> List[str]:
        """``name=value`` for each timing option that differs from its default, as the library has it:
        ``fill_mode='both' removed_on_completion=False``, nothing for a description left as made."""
        exact = self._state().get("exact", ())
        fields = [f"{name}={value!r}" for name, default in self._REPR_TIMING
                  for value in (self._get_timing(name),)
                  if value != default and not (name == "repeat_duration" and "iterations" in exact)]
        fields += [f"{name}={value!r}" for name in _EXACT
                   for value in (self._get_timing(name),) if name in exact or value == 0]
        fields += [f"{name}={value!r}" for name, default in self._REPR_FLAGS
                   for value in (self._get_flag(name),) if value != default]
        fill, direction = self.fill_mode, self.direction
        if fill != FillMode.REMOVED:
            fields.append("fill_mode=" + repr(next(k for k, v in FILL_MODES.items() if v == fill)))
        if direction != Direction.NORMAL:
            fields.append("direction=" + repr(next(k for k, v in DIRECTIONS.items() if v == direction)))
        return fields

    # -- numeric timing (animrt_animation_set_timing / get_timing) ----------
    def _get_timing(self, name: str) -> float:
        out = c_double()
        self._runtime._call(lib.animrt_animation_get_timing, self._id, _TIMING[name], byref(out))
        return out.value

    def _set_timing(self, name: str, value: object) -> None:
        self._runtime._call(lib.animrt_animation_set_timing, self._id, _TIMING[name], check.number(value, name))
        # Which of the two names of one quantity the library now follows, for the repr: the last set.
        exact = self._state().setdefault("exact", set())
        if name in _EXACT:
            exact.add(name)
        else:
            exact.discard(_REPLACED_BY.get(name))

    @property
    def begin_time(self) -> float:
        """Parent time at which the animation begins; 0 (default) means "at the next tick".

        ``fade.begin_time = rt.time + 1.0`` starts it a second from now.
        """
        return self._get_timing("begin_time")

    @begin_time.setter
    def begin_time(self, value: float) -> None:
        self._set_timing("begin_time", value)

    @property
    def duration(self) -> float:
        """Seconds per iteration; 0 (default) means 0.25 s, the open transaction's duration, or in a group the group's.

        ``fade.duration = 0.3``.
        """
        return self._get_timing("duration")

    @duration.setter
    def duration(self, value: float) -> None:
        self._set_timing("duration", value)

    @property
    def speed(self) -> float:
        """Time scale: 1 (default), 2 twice as fast, 0 paused, negative backwards. ``fade.speed = 0.5``."""
        return self._get_timing("speed")

    @speed.setter
    def speed(self, value: float) -> None:
        self._set_timing("speed", value)

    @property
    def time_offset(self) -> float:
        """Seconds into the animation to start from; wraps around its active duration.

        ``spoke_fade.time_offset = i / 12`` phase-shifts twelve copies of one animation.
        """
        return self._get_timing("time_offset")

    @time_offset.setter
    def time_offset(self, value: float) -> None:
        self._set_timing("time_offset", value)

    @property
    def repeat_count(self) -> float:
        """Iterations: 0 (default) or 1 plays once, 2.5 stops half-way through the third, ``math.inf`` repeats forever."""
        return self._get_timing("repeat_count")

    @repeat_count.setter
    def repeat_count(self, value: float) -> None:
        self._set_timing("repeat_count", value)

    @property
    def repeat_duration(self) -> float:
        """Seconds to repeat for (0, the default: unused). ``blink.repeat_duration = 3.0``."""
        return self._get_timing("repeat_duration")

    @repeat_duration.setter
    def repeat_duration(self, value: float) -> None:
        self._set_timing("repeat_duration", value)

    @property
    def iteration_start(self) -> float:
        """Web Animations' iterationStart: iterations to skip at the start (≥ 0). ``a.iteration_start = 0.5``."""
        return self._get_timing("iteration_start")

    @iteration_start.setter
    def iteration_start(self, value: float) -> None:
        self._set_timing("iteration_start", value)

    @property
    def end_delay(self) -> float:
        """Web Animations' endDelay: seconds added after the active interval. ``a.end_delay = 0.2``."""
        return self._get_timing("end_delay")

    @end_delay.setter
    def end_delay(self, value: float) -> None:
        self._set_timing("end_delay", value)

    @property
    def delay(self) -> float:
        """Web Animations' start delay: local seconds from ``begin_time`` to the active interval (may be negative).

        ``fade.delay = 0.5`` starts it half a second after it begins; a speed scales it.
        """
        return self._get_timing("delay")

    @delay.setter
    def delay(self, value: float) -> None:
        self._set_timing("delay", value)

    @property
    def iterations(self) -> float:
        """Web Animations' iteration count, exactly: 0 plays none (Core Animation's repeat_count 0 plays once).

        Reads the count the timing model uses, whichever name set it; setting ``repeat_count``
        replaces it, and setting it sets ``repeat_count`` and ``repeat_duration`` back to 0:
        ``blink.iterations = 0``.
        """
        return self._get_timing("iterations")

    @iterations.setter
    def iterations(self, value: float) -> None:
        self._set_timing("iterations", value)

    @property
    def iteration_duration(self) -> float:
        """Web Animations' duration, exactly: 0 is a zero-length iteration (Core Animation's 0 means 0.25 s).

        Reads the duration the timing model uses; setting ``duration`` replaces it, and setting it
        sets ``duration`` back to 0: ``snap.iteration_duration = 0``.
        """
        return self._get_timing("iteration_duration")

    @iteration_duration.setter
    def iteration_duration(self, value: float) -> None:
        self._set_timing("iteration_duration", value)

    # -- flags (animrt_animation_set_flag) -----------------------------------
    def _get_flag(self, name: str) -> bool:
        """The flag as the library has it (``animrt_animation_get_flag``)."""
        out = c_int()
        self._runtime._call(lib.animrt_animation_get_flag, self._id, _FLAGS[name], byref(out))
        return bool(out.value)

    def _set_flag(self, name: str, value: object) -> None:
        on = check.boolean(value, name)
        self._runtime._call(lib.animrt_animation_set_flag, self._id, _FLAGS[name], 1 if on else 0)

    @property
    def autoreverses(self) -> bool:
        """Play backwards after each forward pass (doubles the active duration). ``pulse.autoreverses = True``."""
        return self._get_flag("autoreverses")

    @autoreverses.setter
    def autoreverses(self, value: bool) -> None:
        self._set_flag("autoreverses", value)

    @property
    def removed_on_completion(self) -> bool:
        """True (default): removed from its layer once finished. With False and ``fill_mode="forwards"``
        the last frame stays on screen."""
        return self._get_flag("removed_on_completion")

    @removed_on_completion.setter
    def removed_on_completion(self, value: bool) -> None:
        self._set_flag("removed_on_completion", value)

    @property
    def additive(self) -> bool:
        """Add the animated value to the value below instead of replacing it. ``shake.additive = True``.
        A group has no value of its own (:class:`KindError`: set it on its animations), and it is
        refused beside ``from_presentation`` (:class:`InvalidArgumentError`)."""
        return self._get_flag("additive")

    @additive.setter
    def additive(self, value: bool) -> None:
        self._set_flag("additive", value)

    @property
    def cumulative(self) -> bool:
        """Each repeat starts where the last one ended. ``step.cumulative = True``. A group has no
        value of its own (:class:`KindError`: set it on its animations)."""
        return self._get_flag("cumulative")

    @cumulative.setter
    def cumulative(self, value: bool) -> None:
        self._set_flag("cumulative", value)

    @property
    def from_presentation(self) -> bool:
        """Basic and spring animations: start from what is on screen when added, so an
        interrupted animation continues without a jump (UIKit's beginFromCurrentState):
        ``rt.basic("position.x", to=200, from_presentation=True)``. Refused with ``additive``
        (:class:`InvalidArgumentError`): an additive animation's ends are differences added to
        the value below, and the on-screen value is not one."""
        return self._get_flag("from_presentation")

    @from_presentation.setter
    def from_presentation(self, value: bool) -> None:
        self._set_flag("from_presentation", value)

    # -- fill mode, direction, timing function --------------------------------
    @property
    def fill_mode(self) -> FillMode:
        """What shows outside the active interval: "removed" (default), "forwards", "backwards", "both".

        ``fade.fill_mode = "forwards"`` (with ``removed_on_completion = False``) holds the last frame.
        """
        out = c_int()
        self._runtime._call(lib.animrt_animation_get_fill_mode, self._id, byref(out))
        return FillMode(out.value)

    @fill_mode.setter
    def fill_mode(self, value: FillModeLike) -> None:
        mode = check.choice(value, "fill_mode", FillMode, FILL_MODES)
        self._runtime._call(lib.animrt_animation_set_fill_mode, self._id, int(mode))

    @property
    def direction(self) -> Direction:
        """Web Animations' direction: "normal" (default), "reverse", "alternate", "alternate-reverse":
        ``pulse.direction = "alternate"``."""
        out = c_int()
        self._runtime._call(lib.animrt_animation_get_direction, self._id, byref(out))
        return Direction(out.value)

    @direction.setter
    def direction(self, value: DirectionLike) -> None:
        d = check.choice(value, "direction", Direction, DIRECTIONS)
        self._runtime._call(lib.animrt_animation_set_direction, self._id, int(d))

    @property
    def timing_function(self) -> Optional[TimingFunctionLike]:
        """The pacing curve, as set: a name or ``(x1, y1, x2, y2)``; None is linear.

        Core Animation's names: "linear", "easeIn", "easeOut", "easeInEaseOut",
        "default"; CSS's: "ease", "ease-in", "ease-out", "ease-in-out",
        "step-start", "step-end"; "steps(12)", "steps(4, jump-start)",
        "cubic-bezier(0.2, 0, 0, 1)", "linear(0, 0.25 75%, 1)"::

            fade.timing_function = "easeInEaseOut"
            fade.timing_function = (0.2, 0.0, 0.0, 1.0)
        """
        f: Optional[TimingFunctionLike] = self._state().get("timing_function")
        return f

    @timing_function.setter
    def timing_function(self, value: Optional[TimingFunctionLike]) -> None:
        call = self._runtime._call
        if value is None or isinstance(value, str):
            call(lib.animrt_animation_set_timing_function, self._id, None if value is None else check.text(value, "timing_function").encode())
            self._state()["timing_function"] = value
            return
        if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
            raise ArgumentTypeError(f"timing_function is {check.describe(value)}; it must be a name such as "
                                    "'easeInEaseOut' or four numbers (x1, y1, x2, y2)")
        items = list(value)
        if any(isinstance(v, str) or v is None for v in items):  # names: the keyframes' one per segment
            per_segment = (f"; one per segment is timing_functions={items!r}" if isinstance(self, KeyframeAnimation)
                           else "")
            raise ArgumentTypeError(f"timing_function is {check.describe(value)}; it is one curve for the whole "
                                    "animation: a name such as 'easeInEaseOut' or four numbers (x1, y1, x2, y2)"
                                    + per_segment)
        x1, y1, x2, y2 = _bezier(items, "timing_function")
        call(lib.animrt_animation_set_cubic_bezier, self._id, x1, y1, x2, y2)
        self._state()["timing_function"] = (x1, y1, x2, y2)


def _segment_curve(curve: object, i: Union[int, str]) -> Optional[str]:
    """A keyframe segment's timing function as the library takes it: a name, None (linear), or four
    numbers written as "cubic-bezier(x1, y1, x2, y2)" (each number's repr, so none is rounded).
    `i` is the segment's index, or the name of the argument that gave the curve."""
    where = f"timing_functions[{i}]" if isinstance(i, int) else i
    if curve is None or isinstance(curve, str):
        return None if curve is None else check.text(curve, where)
    if isinstance(curve, bytes) or not isinstance(curve, Iterable):
        raise ArgumentTypeError(f"{where} is {check.describe(curve)}; it must be a name such as 'easeOut', four "
                                "numbers (x1, y1, x2, y2) or None (linear)")
    return "cubic-bezier(" + ", ".join(repr(p) for p in _bezier(curve, where)) + ")"


def _bezier(items: Iterable[object], where: str) -> Tuple[float, float, float, float]:
    """Four numbers (x1, y1, x2, y2) of a cubic bezier given as `where`, each checked."""
    points = [check.number(v, f"{where}[{k}]") for k, v in enumerate(items)]
    if len(points) != 4:
        raise ArgumentTypeError(f"{where} has {len(points)} numbers; a cubic bezier takes four: (x1, y1, x2, y2)")
    x1, y1, x2, y2 = points
    return x1, y1, x2, y2


class _FromToBy(Animation):
    """fromValue / toValue / byValue, shared by basic and spring animations."""

    _key_path: str

    def _set_ends(self, from_: Optional[ValueLike], to: Optional[ValueLike], by: Optional[ValueLike]) -> None:
        for slot, value in enumerate((from_, to, by)):
            if value is not None:
                self._set_slot(slot, value)

    def _set_slot(self, slot: int, value: Optional[ValueLike]) -> None:
        rt = self._runtime
        name = _SLOT_NAMES[slot]
        if value is None:
            rt._call(lib.animrt_animation_set_value, self._id, slot, None, 0)
            self._state().pop(name, None)
            return
        values, n = doubles(value, name, self._key_path, rt._keypath(self._key_path))
        rt._call(lib.animrt_animation_set_value, self._id, slot, values, n)
        self._state()[name] = python_value(values, n)

    def _repr_fields(self, live: bool) -> List[str]:
        state = self._state()
        ends = [f"{name}={state[name]!r}" for name in _SLOT_NAMES if name in state]
        return ends + super()._repr_fields(live)

    def set_value(self, slot: Literal["from", "to", "by"], value: Optional[ValueLike]) -> None:
        """Sets fromValue, toValue or byValue (``animrt_animation_set_value``); None clears it.

        ``fade.set_value("from", 1.0)`` is ``fade.from_value = 1.0``.
        """
        if not isinstance(slot, str) or slot not in _SLOTS:
            raise (EnumError if isinstance(slot, str) else ArgumentTypeError)(
                f"slot is {slot!r}; valid: 'from', 'to', 'by'"
                + (check.did_you_mean(slot, ["from", "to", "by"]) if isinstance(slot, str) else ""))
        self._set_slot(_SLOTS[slot], value)

    @property
    def from_value(self) -> Optional[Value]:
        """Core Animation's fromValue (the ``from_`` argument): where the animation starts, or None.
        ``fade.from_value = 1.0``."""
        v: Optional[Value] = self._state().get("from_")
        return v

    @from_value.setter
    def from_value(self, value: Optional[ValueLike]) -> None:
        self._set_slot(0, value)

    @property
    def to_value(self) -> Optional[Value]:
        """Core Animation's toValue (the ``to`` argument): where the animation ends, or None.
        ``slide.to_value = (160.0, 60.0)``."""
        v: Optional[Value] = self._state().get("to")
        return v

    @to_value.setter
    def to_value(self, value: Optional[ValueLike]) -> None:
        self._set_slot(1, value)

    @property
    def by_value(self) -> Optional[Value]:
        """Core Animation's byValue (the ``by`` argument): how far the animation moves, or None.
        ``spin.by_value = 2 * math.pi``."""
        v: Optional[Value] = self._state().get("by")
        return v

    @by_value.setter
    def by_value(self, value: Optional[ValueLike]) -> None:
        self._set_slot(2, value)


class BasicAnimation(_FromToBy):
    """Core Animation's CABasicAnimation: from ``from_`` to ``to`` (or by ``by``); made by :meth:`Runtime.basic`.

    With only ``to``, it starts from the current model value; with only ``by``,
    it moves that far from it::

        spin = rt.basic("transform.rotation.z", by=2 * math.pi, duration=1.0, repeat_count=math.inf)
    """

    _kind = 0
    _factory = "basic"

    def __init__(self, runtime: Runtime, key_path: str, *, from_: Optional[ValueLike] = None,
                 to: Optional[ValueLike] = None, by: Optional[ValueLike] = None,
                 **options: Unpack[AnimationOptions]) -> None:
        super().__init__(runtime, check.text(key_path, "key_path"), options)
        try:
            self._set_ends(from_, to, by)
        except BaseException:
            self.destroy()
            raise


def _one_way(given: Mapping[str, object], where: str) -> None:
    """Refuses two of the three ways to give a spring: each sets the whole spring, so of two, the later
    would replace the earlier."""
    ways = [[n for n in way if given.get(n) is not None] for way in (
        ("mass", "stiffness", "damping"), ("response", "damping_ratio"), ("perceptual_duration", "bounce"))]
    named = [way[0] for way in ways if way]
    if len(named) > 1:
        raise InvalidArgumentError(f"{where} got {named[0]}= and {named[1]}=, two ways to give one spring: "
                                   "give mass, stiffness and damping; or response and damping_ratio; or "
                                   "perceptual_duration and bounce")


class SpringAnimation(_FromToBy):
    """Core Animation's CASpringAnimation: a basic animation paced by a damped spring; made by :meth:`Runtime.spring`.

    By default it runs until the spring comes to rest (``duration="settling"``);
    give a number of seconds to cut it off there instead, as Core Animation does::

        drop = rt.spring("position.y", from_=-40, to=60, damping=12, stiffness=180)
        drop.duration              # 1.21: its settling_duration
        drop.duration = 0.5        # now cut off at 0.5 s
    """

    _kind = 2
    _factory = "spring"
    _SPRING = ("mass", "stiffness", "damping", "initial_velocity")

    def __init__(self, runtime: Runtime, key_path: str, *, from_: Optional[ValueLike] = None,
                 to: Optional[ValueLike] = None, by: Optional[ValueLike] = None, mass: Optional[float] = None,
                 stiffness: Optional[float] = None, damping: Optional[float] = None, initial_velocity: float = 0.0,
                 allows_overdamping: bool = False, response: Optional[float] = None,
                 damping_ratio: Optional[float] = None, perceptual_duration: Optional[float] = None,
                 bounce: Optional[float] = None, **options: Unpack[SpringOptions]) -> None:
        _one_way({"mass": mass, "stiffness": stiffness, "damping": damping, "response": response,
                  "damping_ratio": damping_ratio, "perceptual_duration": perceptual_duration, "bounce": bounce},
                 "rt.spring()")
        duration = options.pop("duration", "settling")
        super().__init__(runtime, check.text(key_path, "key_path"), options)
        try:
            self._set_spring(mass=1.0 if mass is None else mass, stiffness=100.0 if stiffness is None else stiffness,
                             damping=10.0 if damping is None else damping, initial_velocity=initial_velocity)
            if allows_overdamping:
                self.allows_overdamping = allows_overdamping
            if response is not None or damping_ratio is not None:
                self.set_response(0.5 if response is None else response, 1.0 if damping_ratio is None else damping_ratio)
            if perceptual_duration is not None or bounce is not None:
                self.set_perceptual(0.5 if perceptual_duration is None else perceptual_duration,
                                    0.0 if bounce is None else bounce)
            self.duration = duration
            self._set_ends(from_, to, by)
        except BaseException:
            self.destroy()
            raise

    @classmethod
    def _option_names(cls) -> Sequence[str]:
        return OPTIONS + ("mass", "stiffness", "damping", "initial_velocity", "allows_overdamping", "response",
                          "damping_ratio", "perceptual_duration", "bounce")

    def _apply(self, options: Mapping[str, Any]) -> None:
        """configure()'s options: SwiftUI's and Core Animation's ways to give the spring, which are read
        back but not set one at a time, go as the factory takes them (the other of a pair is kept)."""
        rest = dict(options)
        response, ratio = rest.pop("response", None), rest.pop("damping_ratio", None)
        perceptual, bounce = rest.pop("perceptual_duration", None), rest.pop("bounce", None)
        _one_way({**{n: rest.get(n) for n in ("mass", "stiffness", "damping")}, "response": response,
                  "damping_ratio": ratio, "perceptual_duration": perceptual, "bounce": bounce},
                 "SpringAnimation.configure()")
        super()._apply(rest)
        if response is not None or ratio is not None:
            self.set_response(self.response if response is None else response,
                              self.damping_ratio if ratio is None else ratio)
        if perceptual is not None or bounce is not None:
            self.set_perceptual(self.perceptual_duration if perceptual is None else perceptual,
                                self.bounce if bounce is None else bounce)

    def _read_only_hint(self, name: str) -> str:
        if name in ("response", "damping_ratio", "perceptual_duration", "bounce"):
            return (f"; it is set with the other of its pair: drop.configure({name}=…), "
                    "drop.set_response(response, damping_ratio) or drop.set_perceptual(perceptual_duration, bounce)")
        return ""

    def _flags_set_by(self, names: Iterable[str]) -> List[str]:
        names = list(names)
        flags = super()._flags_set_by(names)
        if "duration" in names:  # a number turns settling off, "settling" on
            flags.append("settling_duration")
        if ("bounce" in names or "perceptual_duration" in names) and "allows_overdamping" not in flags:
            flags.append("allows_overdamping")  # a bounce below 0 turns it on
        return flags

    def _undo_more(self, names: Sequence[str], saved: Mapping[str, Any]) -> None:
        if any(n in names for n in self._option_names()[len(OPTIONS):]):
            self._set_spring(**{n: saved.get(n, d) for n, d in zip(self._SPRING, (1.0, 100.0, 10.0, 0.0))})

    def _repr_fields(self, live: bool) -> List[str]:
        state = self._state()
        ends = [f"{name}={state[name]!r}" for name in _SLOT_NAMES if name in state]
        spring = [f"{name}={state[name]!r}" for name, default in zip(self._SPRING, (1.0, 100.0, 10.0, 0.0))
                  if name in state and state[name] != default]
        mass, stiffness, damping = (state.get(n, d) for n, d in (("mass", 1.0), ("stiffness", 100.0), ("damping", 10.0)))
        # The flag as the library has it (set by the factory, the property or a negative bounce), once it can be asked.
        over = self._get_flag("allows_overdamping") if live else state.get("allows_overdamping")
        if over and damping > 2 * math.sqrt(stiffness * mass):  # where it changes the curve
            spring.append("allows_overdamping=True")
        rest = Animation._repr_fields(self, live)
        if live and self._get_flag("settling_duration"):  # the number would be the default 0
            rest = ["duration='settling'"] + [f for f in rest if not f.startswith("duration=")]
        return ends + spring + rest

    def _spring_param(self, name: str) -> float:
        out = c_double()
        self._runtime._call(lib.animrt_animation_get_spring_param, self._id, _SPRING_PARAMS[name], byref(out))
        return out.value

    def _reread_spring(self) -> None:
        """Refreshes what the properties show after the library computed the spring."""
        state = self._state()
        for name in self._SPRING:
            state[name] = self._spring_param(name)
        over = c_int()
        self._runtime._call(lib.animrt_animation_get_flag, self._id, _FLAGS["allows_overdamping"], byref(over))
        state["allows_overdamping"] = bool(over.value)

    def set_response(self, response: float, damping_ratio: float) -> None:
        """SwiftUI's ``Spring(response:dampingRatio:)`` (``animrt_animation_set_spring_response``): mass 1,
        stiffness (2π / response)², damping 4π × ratio / response; the initial velocity is kept.

        ``drop.set_response(0.5, 0.8)``.
        """
        self._runtime._call(lib.animrt_animation_set_spring_response, self._id, check.number(response, "response"),
                                                 check.number(damping_ratio, "damping_ratio"))
        self._reread_spring()

    def set_perceptual(self, perceptual_duration: float, bounce: float) -> None:
        """Core Animation's ``init(perceptualDuration:bounce:)``, SwiftUI's ``Spring(duration:bounce:)``
        (``animrt_animation_set_spring_perceptual``): bounce in (−1, 1], 0 critically damped, below 0
        over-damped (allows_overdamping becomes True).

        ``drop.set_perceptual(0.5, 0.3)``.
        """
        self._runtime._call(lib.animrt_animation_set_spring_perceptual, self._id,
                                                   check.number(perceptual_duration, "perceptual_duration"),
                                                   check.number(bounce, "bounce"))
        self._reread_spring()

    @property
    def damping_ratio(self) -> float:
        """ζ = damping / (2 √(stiffness × mass)): below 1 it bounces. ``rt.spring("opacity").damping_ratio`` → 0.5."""
        return self._spring_param("damping_ratio")

    @property
    def response(self) -> float:
        """SwiftUI's response, 2π √(mass / stiffness): the undamped period. ``drop.response`` → 0.468."""
        return self._spring_param("response")

    @property
    def perceptual_duration(self) -> float:
        """Core Animation's perceptualDuration: the same period as ``response``.

        ``rt.spring("opacity", perceptual_duration=0.4).perceptual_duration`` → 0.4.
        """
        return self._spring_param("perceptual_duration")

    @property
    def bounce(self) -> float:
        """The bounce: 1 − ζ up to critical damping, 1 / ζ − 1 above (so −0.2 for ζ = 1.25).

        ``rt.spring("opacity", perceptual_duration=0.4, bounce=0.3).bounce`` → 0.3.
        """
        return self._spring_param("bounce")

    def _set_spring(self, **changes: object) -> None:
        state = self._state()
        values = {name: check.number(changes[name], name) if name in changes else state.get(name, default)
                  for name, default in zip(self._SPRING, (1.0, 100.0, 10.0, 0.0))}
        self._runtime._call(lib.animrt_animation_set_spring, self._id, values["mass"], values["stiffness"],
                                        values["damping"], values["initial_velocity"])
        state.update(values)

    @property
    def duration(self) -> float:
        """Seconds the spring runs for: its ``settling_duration`` when set to ``"settling"`` (the default),
        else the number given (0: 0.25 s), where it is cut off wherever the spring is."""
        if self._get_flag("settling_duration"):
            return self.settling_duration
        return self._get_timing("duration")

    @duration.setter
    def duration(self, value: Union[float, Literal["settling"]]) -> None:
        if value == "settling":
            self._set_flag("settling_duration", True)
            return
        if isinstance(value, str):
            raise EnumError(f"duration is {value!r}; it must be a number of seconds or 'settling'"
                                  + check.did_you_mean(value, ["settling"]))
        self._set_timing("duration", value)
        self._set_flag("settling_duration", False)

    @property
    def settling_duration(self) -> float:
        """Core Animation's settlingDuration: the seconds the spring takes to come to rest, estimated.

        ``rt.spring("opacity", damping=5).settling_duration`` → 2.87.
        """
        out = c_double()
        self._runtime._call(lib.animrt_animation_get_settling_duration, self._id, byref(out))
        return out.value

    @property
    def mass(self) -> float:
        """The mass on the spring, > 0 (default 1): heavier is slower. ``drop.mass = 2.0``."""
        return float(self._state().get("mass", 1.0))

    @mass.setter
    def mass(self, value: float) -> None:
        self._set_spring(mass=value)

    @property
    def stiffness(self) -> float:
        """The spring's stiffness, > 0 (default 100): stiffer is faster. ``drop.stiffness = 180``."""
        return float(self._state().get("stiffness", 100.0))

    @stiffness.setter
    def stiffness(self, value: float) -> None:
        self._set_spring(stiffness=value)

    @property
    def damping(self) -> float:
        """Friction, ≥ 0 (default 10): less bounces more; 0 never settles. ``drop.damping = 12``."""
        return float(self._state().get("damping", 10.0))

    @damping.setter
    def damping(self, value: float) -> None:
        self._set_spring(damping=value)

    @property
    def initial_velocity(self) -> float:
        """Starting speed in from→to distances per second (default 0); positive heads for ``to``:
        ``flick.initial_velocity = 3.0``."""
        return float(self._state().get("initial_velocity", 0.0))

    @initial_velocity.setter
    def initial_velocity(self, value: float) -> None:
        self._set_spring(initial_velocity=value)

    @property
    def allows_overdamping(self) -> bool:
        """Core Animation's allowsOverdamping: above a damping ratio of 1 the spring is truly
        over-damped instead of critically damped (default False): ``drop.allows_overdamping = True``."""
        return self._get_flag("allows_overdamping")

    @allows_overdamping.setter
    def allows_overdamping(self, value: bool) -> None:
        self._set_flag("allows_overdamping", value)


class KeyframeAnimation(Animation):
    """Core Animation's CAKeyframeAnimation: values, key times, per-segment timing functions;
    made by :meth:`Runtime.keyframe`.

    ``values`` may be any iterable of values, a numpy array of shape
    ``(n, components)`` included::

        bounce = rt.keyframe("position.y", [0, -30, 0, -10, 0], key_times=[0, 0.3, 0.6, 0.8, 1],
                             timing_functions=["easeOut", "easeIn", "easeOut", "easeIn"], duration=0.8)
    """

    _kind = 1
    _factory = "keyframe"
    _key_path: str

    def __init__(self, runtime: Runtime, key_path: str, values: Iterable[ValueLike] = (), *,
                 key_times: Optional[Iterable[float]] = None,
                 timing_functions: Optional[Iterable[Optional[str]]] = None,
                 calculation_mode: CalculationModeLike = "linear", path: Optional[Iterable[PathElementLike]] = None,
                 rotation_mode: RotationModeLike = "none", **options: Unpack[AnimationOptions]) -> None:
        super().__init__(runtime, check.text(key_path, "key_path"), options)
        try:
            if path is None:
                self.values = values
            else:
                self.path = path
            if key_times is not None:
                self.key_times = key_times
            if timing_functions is not None:
                self.timing_functions = timing_functions
            self.calculation_mode = calculation_mode
            if rotation_mode != "none":
                self.rotation_mode = rotation_mode
        except BaseException:
            self.destroy()
            raise

    def _repr_fields(self, live: bool) -> List[str]:
        state = self._state()
        fields = []
        if state.get("path"):
            fields.append(f"path={_short.repr(state['path'])}")
        elif "values" in state:
            fields.append(f"values={_short.repr(state['values'])}")
        if state.get("key_times") is not None:
            fields.append(f"key_times={_short.repr(state['key_times'])}")
        if state.get("timing_functions"):
            fields.append(f"timing_functions={_short.repr(state['timing_functions'])}")
        mode = state.get("calculation_mode", CalculationMode.LINEAR)
        if mode != CalculationMode.LINEAR:
            fields.append("calculation_mode=" + repr(next(k for k, v in CALCULATION_MODES.items() if v == mode)))
        return fields + super()._repr_fields(live)

    _COMMANDS: ClassVar[Dict[str, Tuple[int, int]]] = {
        "move": (0, 2), "M": (0, 2), "line": (1, 2), "L": (1, 2), "quad": (2, 4), "Q": (2, 4),
        "cubic": (3, 6), "C": (3, 6), "close": (4, 0), "Z": (4, 0)}

    @property
    def path(self) -> Optional[List[PathElementLike]]:
        """Core Animation's path, as set: the keyframes are its points and the motion follows its
        lines and curves (``animrt_keyframe_set_path``); None when the values are used.

        ::

            fly.path = [("move", 0, 0), ("line", 100, 0), ("quad", 150, 0, 150, 50), ("close",)]
        """
        v: Optional[List[PathElementLike]] = self._state().get("path")
        return v

    @path.setter
    def path(self, elements: Optional[Iterable[PathElementLike]]) -> None:
        if elements is not None and (isinstance(elements, (str, bytes)) or not isinstance(elements, Iterable)):
            raise ArgumentTypeError(f"path is {check.describe(elements)}; it must be a list of tuples such as "
                                    "('move', 0, 0), ('line', 10, 0) — or None")
        check.in_order(elements, "path", "of tuples such as ('move', 0, 0), ('line', 10, 0)")
        items = list(elements or [])
        commands: List[int] = []
        points: List[float] = []
        for i, element in enumerate(items):
            if not isinstance(element, tuple) or not element or element[0] not in self._COMMANDS:
                raise ArgumentTypeError(f"path[{i}] is {check.describe(element)}; it must be a tuple starting with "
                                        "'move', 'line', 'quad', 'cubic' or 'close' (or M, L, Q, C, Z)")
            command, arity = self._COMMANDS[element[0]]
            if len(element) != arity + 1:
                raise ArgumentTypeError(f"path[{i}] ({element[0]!r}) has {len(element) - 1} numbers; it takes {arity}")
            commands.append(command)
            points += [check.number(v, f"path[{i}][{j + 1}]") for j, v in enumerate(element[1:])]
        self._runtime._call(lib.animrt_keyframe_set_path, self._id, (c_int32 * len(commands))(*commands),
                                     len(commands), (c_double * len(points))(*points), len(points))
        self._state()["path"] = items or None

    @property
    def rotation_mode(self) -> RotationMode:
        """Core Animation's rotationMode (with a path): "none" (default), "auto" turns the layer to the
        tangent, "autoReverse" to the tangent plus 180°: ``fly.rotation_mode = "auto"``."""
        mode: RotationMode = self._state().get("rotation_mode", RotationMode.NONE)
        return mode

    @rotation_mode.setter
    def rotation_mode(self, value: RotationModeLike) -> None:
        mode = check.choice(value, "rotation_mode", RotationMode, ROTATION_MODES)
        self._runtime._call(lib.animrt_keyframe_set_rotation_mode, self._id, int(mode))
        self._state()["rotation_mode"] = mode

    @property
    def values(self) -> List[Value]:
        """The keyframe values (Core Animation's values), as set: floats, or tuples for wider kinds.

        ``blink.values = [1.0, 0.0, 1.0]``; ``path.values = [(0, 0), (10, 20)]``.
        """
        v: List[Value] = self._state().get("values", [])
        return v

    @values.setter
    def values(self, values: Iterable[ValueLike]) -> None:
        rt = self._runtime
        info = rt._keypath(self._key_path)
        if isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
            raise ArgumentTypeError(f"values is {check.describe(values)}; it must be a list of values, one per "
                                    f"keyframe, e.g. [0.0, 1.0, 0.5]")
        check.in_order(values, "values", "of values, one per keyframe", "; keyframes given as {time: value} are "
                       "rt.keyframe(key_path, list(frames.values()), key_times=list(frames))")
        flat: List[float] = []
        kept: List[Value] = []
        for i, value in enumerate(values):
            items = components(value, f"values[{i}]", self._key_path, info.kind, info.components)
            flat += items
            kept.append(items[0] if len(items) == 1 else tuple(items))
        array = (c_double * len(flat))(*flat)
        rt._call(lib.animrt_keyframe_set_values, self._id, array, len(kept), info.components)
        self._state()["values"] = kept

    @property
    def key_times(self) -> Optional[List[float]]:
        """Times in [0, 1] of each value (Core Animation's keyTimes); None spreads them evenly.

        Checked when the animation is added: from 0 to 1, not decreasing, one per value:
        ``blink.key_times = [0.0, 0.2, 1.0]``.
        """
        v: Optional[List[float]] = self._state().get("key_times")
        return v

    @key_times.setter
    def key_times(self, times: Optional[Iterable[float]]) -> None:
        if times is None:
            items: List[float] = []
        elif isinstance(times, (str, bytes)) or not isinstance(times, Iterable):
            raise ArgumentTypeError(f"key_times is {check.describe(times)}; it must be a list of numbers "
                                    "from 0 to 1, one per value, or None")
        else:
            check.in_order(times, "key_times", "of numbers from 0 to 1, one per value")
            items = [check.number(t, f"key_times[{i}]") for i, t in enumerate(times)]
        self._runtime._call(lib.animrt_keyframe_set_key_times, self._id, (c_double * len(items))(*items), len(items))
        self._state()["key_times"] = items if times is not None else None

    @property
    def timing_functions(self) -> List[Optional[TimingFunctionLike]]:
        """One timing function per segment (Core Animation's timingFunctions), each a name or, as
        `timing_function` takes, four numbers (read back as "cubic-bezier(x1, y1, x2, y2)"); None
        entries are linear: ``bounce.timing_functions = ["easeOut", (0.2, 0, 0, 1)]``."""
        v: List[Optional[TimingFunctionLike]] = self._state().get("timing_functions", [])
        return v

    @timing_functions.setter
    def timing_functions(self, names: Iterable[Optional[TimingFunctionLike]]) -> None:
        if isinstance(names, (str, bytes)) or not isinstance(names, Iterable):
            raise ArgumentTypeError(f"timing_functions is {check.describe(names)}; it must be a list of names, "
                                    "one per segment, e.g. ['easeOut', 'easeIn']")
        check.in_order(names, "timing_functions", "of names, one per segment")
        items = [_segment_curve(n, i) for i, n in enumerate(names)]
        encoded = (c_char_p * len(items))(*[None if n is None else n.encode() for n in items])
        self._runtime._call(lib.animrt_keyframe_set_timing_functions, self._id, encoded, len(items))
        self._state()["timing_functions"] = items

    @property
    def calculation_mode(self) -> CalculationMode:
        """How values are spread over time: "linear" (default), "discrete", "paced", "cubic", "cubicPaced":
        ``path.calculation_mode = "cubicPaced"``. The paced modes move at constant speed: they ignore
        `key_times`, `timing_functions` and the animation's own `timing_function`."""
        mode: CalculationMode = self._state().get("calculation_mode", CalculationMode.LINEAR)
        return mode

    @calculation_mode.setter
    def calculation_mode(self, value: CalculationModeLike) -> None:
        mode = check.choice(value, "calculation_mode", CalculationMode, CALCULATION_MODES)
        self._runtime._call(lib.animrt_keyframe_set_calculation_mode, self._id, int(mode))
        self._state()["calculation_mode"] = mode

    @check.keywords("KeyframeAnimation.set_spline()")
    def set_spline(self, *, tension: Optional[Iterable[float]] = None, continuity: Optional[Iterable[float]] = None,
                   bias: Optional[Iterable[float]] = None) -> None:
        """Kochanek–Bartels tension, continuity and bias per keyframe for the cubic modes
        (``animrt_keyframe_set_spline``); missing entries are 0.

        ``path.set_spline(tension=[0, 0.5, 0.5, 0])``.
        """
        arrays: List[Optional[List[float]]] = []
        for name, given in (("tension", tension), ("continuity", continuity), ("bias", bias)):
            if given is None:
                arrays.append(None)
            elif isinstance(given, (str, bytes)) or not isinstance(given, Iterable):
                raise ArgumentTypeError(f"{name} is {check.describe(given)}; it must be a list of numbers")
            else:
                check.in_order(given, name, "of numbers, one per keyframe")
                arrays.append([check.number(v, f"{name}[{i}]") for i, v in enumerate(given)])
        n = max([len(a) for a in arrays if a is not None] or [0])
        pointers = [None if a is None else (c_double * n)(*(a + [0.0] * (n - len(a)))) for a in arrays]
        self._runtime._call(lib.animrt_keyframe_set_spline, self._id, pointers[0], pointers[1], pointers[2], n)


class DecayAnimation(Animation):
    """Inertia, as Pop's decay and a scroll view's deceleration: a velocity that keeps
    `deceleration_rate` of itself each millisecond; made by :meth:`Runtime.decay`.

    The duration is derived: until the speed falls to `rest_velocity`. Without
    ``from_`` it starts from the model value::

        fling = rt.decay("position", (800, -300), deceleration_rate=0.998)
        fling.settling_duration       # 3.72: seconds until it rests
    """

    _kind = 4
    _factory = "decay"

    def __init__(self, runtime: Runtime, key_path: str, velocity: ValueLike, *, from_: Optional[ValueLike] = None,
                 deceleration_rate: float = 0.998, rest_velocity: float = 0.5,
                 **options: Unpack[TimingOptions]) -> None:
        super().__init__(runtime, check.text(key_path, "key_path"), options)
        try:
            self.set_rate(deceleration_rate, rest_velocity)
            self._set_value(_VELOCITY, velocity, "velocity")
            if from_ is not None:
                self._set_value(0, from_, "from_")
        except BaseException:
            self.destroy()
            raise

    def _set_value(self, slot: int, value: Optional[ValueLike], name: str) -> None:
        rt = self._runtime
        if value is None:
            rt._call(lib.animrt_animation_set_value, self._id, slot, None, 0)
            self._state().pop(name, None)
            return
        array, n = doubles(value, name, self._key_path or "", rt._keypath(self._key_path))
        rt._call(lib.animrt_animation_set_value, self._id, slot, array, n)
        self._state()[name] = python_value(array, n)

    def _repr_fields(self, live: bool) -> List[str]:
        state = self._state()
        fields = [f"{name}={state[name]!r}" for name in ("from_", "velocity") if name in state]
        fields += [f"{name}={state[name]!r}" for name, default in (("deceleration_rate", 0.998), ("rest_velocity", 0.5))
                   if state.get(name, default) != default]
        return fields + super()._repr_fields(live)

    def set_rate(self, deceleration_rate: float, rest_velocity: float = 0.5) -> None:
        """The fraction of its velocity kept each millisecond, in (0, 1) (0.998 UIScrollView's normal,
        0.99 its fast), and the speed at which it counts as at rest (``animrt_animation_set_decay``).

        ``fling.set_rate(0.99)``.
        """
        self._runtime._call(lib.animrt_animation_set_decay, self._id,
                                       check.number(deceleration_rate, "deceleration_rate"),
                                       check.number(rest_velocity, "rest_velocity"))
        self._state().update(deceleration_rate=float(deceleration_rate), rest_velocity=float(rest_velocity))

    @property
    def velocity(self) -> Value:
        """The initial velocity, units per second per component: ``fling.velocity = (800, -300)``."""
        v: Value = self._state()["velocity"]
        return v

    @velocity.setter
    def velocity(self, value: ValueLike) -> None:
        self._set_value(3, value, "velocity")

    @property
    def from_value(self) -> Optional[Value]:
        """Where it starts; None (default) starts from the model value: ``fling.from_value = (0, 0)``."""
        v: Optional[Value] = self._state().get("from_")
        return v

    @from_value.setter
    def from_value(self, value: Optional[ValueLike]) -> None:
        self._set_value(0, value, "from_")

    @property
    def deceleration_rate(self) -> float:
        """The fraction of the velocity kept each millisecond (default 0.998): ``fling.deceleration_rate`` → 0.998."""
        return float(self._state().get("deceleration_rate", 0.998))

    @property
    def rest_velocity(self) -> float:
        """The speed below which it counts as at rest (default 0.5 per second): ``fling.rest_velocity`` → 0.5."""
        return float(self._state().get("rest_velocity", 0.5))

    @property
    def settling_duration(self) -> float:
        """The derived duration: seconds until the speed falls to the rest velocity.

        ``rt.decay("position.x", 1000).settling_duration`` → 3.80.
        """
        out = c_double()
        self._runtime._call(lib.animrt_animation_get_settling_duration, self._id, byref(out))
        return out.value


class AnimationGroup(Animation):
    """Core Animation's CAAnimationGroup: children run in the group's time, clipped to its duration;
    made by :meth:`Runtime.group`.

    ::

        pop = rt.group([rt.basic("opacity", from_=0, to=1), rt.basic("transform.scale", from_=0.8, to=1)],
                       duration=0.3, timing_function="easeOut")

    A group given no duration lasts 0.25 s (or the open transaction's duration), whatever its
    children's, and cuts them off there: give it one as long as its longest child.
    """

    _kind = 3
    _factory = "group"

    def __init__(self, runtime: Runtime, children: Iterable[Animation] = (),
                 **options: Unpack[AnimationOptions]) -> None:
        super().__init__(runtime, None, options)
        try:
            if isinstance(children, Animation) or not isinstance(children, Iterable):
                raise ArgumentTypeError(f"children is {check.describe(children)}; it must be a list of animations")
            for child in children:
                self.add(child)
        except BaseException:
            self.destroy()
            raise

    def _repr_fields(self, live: bool) -> List[str]:
        children = self._state().get("children", [])
        return [f"children={len(children)}"] + super()._repr_fields(live)

    def add(self, child: Animation) -> None:
        """Adds a copy of `child` as it is now (``animrt_group_add``). ``pop.add(rt.basic("cornerRadius", to=8))``."""
        if not isinstance(child, Animation):
            raise ArgumentTypeError(f"child is {check.describe(child)}; it must be an animation")
        self._runtime._call(lib.animrt_group_add, self._id, child._id)
        self.children.append(child)

    @property
    def children(self) -> List[Animation]:
        """The animations added so far (the group holds copies of them as they were when added):
        ``len(pop.children)`` → 2."""
        v: List[Animation] = self._state().setdefault("children", [])
        return v

