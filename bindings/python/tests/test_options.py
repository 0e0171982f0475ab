"""Every option the binding maps to a C constant does what the constant does.

Each test sets an option through the binding and reads the effect back from
the library — presentation values, timing read with animrt_animation_get_timing,
events, attached keys — never from the binding's own record of what was set.
So a binding that sent the wrong flag, direction, fill mode or parameter
number fails here even if it remembers the option it was given.
"""
import math

import pytest

import animrt


def value_at(t, model=-1.0, **options):
    """The opacity at `t` of a 0 → 1 animation begun at 1 for 1 s, on a layer
    whose model value is `model` (so `model` means "not in effect")."""
    with animrt.Runtime() as rt:
        layer = rt.layer()
        layer["opacity"] = model
        options = {"duration": 1.0, "begin_time": 1.0, **options}
        layer.add_animation(rt.basic("opacity", from_=0.0, to=1.0, **options), key="a")
        rt.tick(t)
        return layer.presentation("opacity")


# ---- flags (animrt_flag) -------------------------------------------------

def test_autoreverses_plays_back():
    assert value_at(1.25, autoreverses=True) == 0.25
    assert value_at(2.25, autoreverses=True) == 0.75   # on the way back
    assert value_at(2.25) == -1                          # without it: over, removed


def test_cumulative_builds_on_each_repeat():
    assert value_at(2.5, cumulative=True, repeat_count=2) == 1.5
    assert value_at(2.5, repeat_count=2) == 0.5
    # autoreverses and cumulative are different flags
    assert value_at(2.5, autoreverses=True) == 0.5


def test_removed_on_completion():
    with animrt.Runtime() as rt:
        kept, gone = rt.layer(), rt.layer()
        for layer in (kept, gone):
            layer["opacity"] = -1.0
        kept.add_animation(rt.basic("opacity", from_=0.0, to=1.0, duration=1.0, begin_time=1.0,
                                    fill_mode="forwards", removed_on_completion=False), key="a")
        gone.add_animation(rt.basic("opacity", from_=0.0, to=1.0, duration=1.0, begin_time=1.0,
                                    fill_mode="forwards"), key="a")
        rt.tick(5)
        assert kept.presentation("opacity") == 1.0 and kept.animation_keys() == ["a"]
        assert gone.presentation("opacity") == -1.0 and gone.animation_keys() == []


def test_additive_adds_to_the_model():
    assert value_at(1.5, model=0.5, additive=True) == 1.0
    assert value_at(1.5, model=0.5) == 0.5


def test_from_presentation_starts_where_the_screen_is():
    with animrt.Runtime() as rt:
        layer = rt.layer()
        layer.add_animation(rt.basic("opacity", from_=0.0, to=1.0, duration=1.0, begin_time=1.0), key="a")
        rt.tick(1.5)
        layer.add_animation(rt.basic("opacity", to=2.0, duration=1.0, begin_time=1.5, from_presentation=True),
                            key="a")
        rt.tick(2.0)
        assert layer.presentation("opacity") == 1.25   # from 0.5 to 2, half way


def spring_at(t, **options):
    with animrt.Runtime() as rt:
        layer = rt.layer()
        layer.add_animation(rt.spring("opacity", from_=0.0, to=1.0, mass=1, stiffness=100, damping=40,
                                      begin_time=1.0, duration=5.0, **options), key="s")
        rt.tick(1 + t)
        return layer.presentation("opacity")


def test_allows_overdamping():
    critical = 1 - 2 * math.exp(-1)   # ζ = 2 without the flag runs as ζ = 1: 1 − (1 + 10t)e^(−10t)
    assert spring_at(0.1) == pytest.approx(critical, abs=1e-12)
    assert spring_at(0.1, allows_overdamping=True) < critical - 0.05


# ---- fill modes and directions ---------------------------------------------

@pytest.mark.parametrize("mode, before, after", [
    ("removed", -1.0, -1.0), ("forwards", -1.0, 1.0), ("backwards", 0.0, -1.0), ("both", 0.0, 1.0),
    (animrt.FillMode.FORWARDS, -1.0, 1.0), (animrt.FillMode.BACKWARDS, 0.0, -1.0),
])
def test_fill_modes(mode, before, after):
    assert value_at(0.5, fill_mode=mode, removed_on_completion=False) == before
    assert value_at(5.0, fill_mode=mode, removed_on_completion=False) == after


@pytest.mark.parametrize("direction, first, second", [
    ("normal", 0.25, 0.25), ("reverse", 0.75, 0.75), ("alternate", 0.25, 0.75), ("alternate-reverse", 0.75, 0.25),
    (animrt.Direction.REVERSE, 0.75, 0.75), (animrt.Direction.ALTERNATE_REVERSE, 0.75, 0.25),
])
def test_directions(direction, first, second):
    # Two iterations of 1 s from 1: a quarter into each.
    assert value_at(1.25, direction=direction, repeat_count=2) == first
    assert value_at(2.25, direction=direction, repeat_count=2) == second


# ---- timing parameters (animrt_timing_param) -------------------------------

def test_each_timing_parameter_reaches_its_own_field():
    names = ["begin_time", "duration", "speed", "time_offset", "repeat_count", "repeat_duration",
             "iteration_start", "end_delay"]
    with animrt.Runtime() as rt:
        a = rt.basic("opacity", to=1.0)
        for i, name in enumerate(names):
            setattr(a, name, 10.0 + i)
        # Read back through animrt_animation_get_timing: each kept its own value.
        assert [getattr(a, name) for name in names] == [10.0 + i for i in range(len(names))]


@pytest.mark.parametrize("options, t, expected", [
    ({"begin_time": 2.0}, 2.25, 0.25),
    ({"duration": 4.0}, 2.0, 0.25),
    ({"speed": 2.0}, 1.25, 0.5),
    ({"time_offset": 0.5}, 1.25, 0.75),
    ({"repeat_count": 2}, 2.25, 0.25),
    ({"duration": 0.5, "repeat_duration": 1.25}, 2.125, 0.25),   # seconds: 2.5 iterations of 0.5 s
    ({"iteration_start": 0.5}, 1.0, 0.5),
    ({"end_delay": -0.5}, 1.6, -1.0),                            # cut short at 1.5
])
def test_what_each_timing_parameter_does(options, t, expected):
    assert value_at(t, **options) == expected


@pytest.mark.parametrize("points, name", [
    ((0.42, 0.0, 1.0, 1.0), "easeIn"), ((0.0, 0.0, 0.58, 1.0), "easeOut"), ((0.25, 0.1, 0.25, 1.0), "ease")])
def test_four_numbers_are_the_bezier_x1_y1_x2_y2(points, name):
    # Each pair is a control point: the four numbers pace the animation as the named curve they are.
    for t in (1.2, 1.5, 1.8):
        assert value_at(t, timing_function=points) == pytest.approx(value_at(t, timing_function=name), abs=1e-6)
        assert value_at(t, timing_function=points) != pytest.approx(t - 1, abs=0.01)  # not linear


# ---- keyframes, value kinds, stop reasons -----------------------------------

@pytest.mark.parametrize("mode, progress, expected", [
    ("linear", 0.25, 5.0), ("discrete", 0.5, 10.0), ("discrete", 0.25, 0.0), ("paced", 0.5, 15.0),
    ("cubic", 0.25, 3.75), (animrt.CalculationMode.PACED, 0.5, 15.0),
])
def test_calculation_modes(mode, progress, expected):
    with animrt.Runtime() as rt:
        layer = rt.layer()
        layer.add_animation(rt.keyframe("position.x", [0, 10, 30], calculation_mode=mode, duration=1.0,
                                        begin_time=1.0), key="k")
        rt.tick(1 + progress)
        assert layer.presentation("position.x") == pytest.approx(expected, abs=1e-12)


def test_spline_tension_continuity_and_bias_are_each_their_own():
    """set_spline's three lists reach the library as Kochanek–Bartels' three parameters. At the middle
    keyframe of 0 → 1 → 3 (steps of 1 and 2), tension t makes both tangents (1 − t) × 1.5; bias 1
    makes both 1, the step before, as tension 1/3 does; continuity 1 makes the incoming tangent 2,
    the step after (tension −1/3), and the outgoing one 1 (tension 1/3). So each curve below is
    another's, segment by segment, only if each list went where it was named."""
    def curve(**spline):
        with animrt.Runtime() as rt:
            layer = rt.layer()
            frames = rt.keyframe("position.x", [0, 1, 3], calculation_mode="cubic", duration=1.0, begin_time=1.0)
            frames.set_spline(**spline)
            layer.add_animation(frames)
            seen = []
            for t in (0.125, 0.25, 0.375, 0.625, 0.75, 0.875):  # three points in each segment
                rt.tick(1 + t)
                seen.append(layer.presentation("position.x"))
            return seen

    flatter, steeper = curve(tension=[0, 1 / 3, 0]), curve(tension=[0, -1 / 3, 0])
    assert flatter != pytest.approx(curve(), abs=1e-3) and steeper != pytest.approx(curve(), abs=1e-3)
    assert curve(bias=[0, 1, 0]) == pytest.approx(flatter, abs=1e-12)
    assert curve(continuity=[0, 1, 0]) == pytest.approx(steeper[:3] + flatter[3:], abs=1e-12)
    # the lists are as long as the longest; a shorter one is padded with 0s
    assert curve(tension=[0, 1 / 3, 0], bias=[0]) == pytest.approx(flatter, abs=1e-12)
    assert curve(tension=[0, 1 / 3]) == pytest.approx(flatter, abs=1e-12)


@pytest.mark.parametrize("initial, kind", [
    (1.5, animrt.ValueKind.SCALAR), ((1, 2), animrt.ValueKind.POINT), ((1, 2, 3, 4), animrt.ValueKind.RECT),
])
def test_value_kinds(initial, kind):
    with animrt.Runtime() as rt:
        rt.define_property("p", initial)
        n = 1 if isinstance(initial, float) else len(initial)
        assert rt.keypath_info("p") == (kind, n)
    with animrt.Runtime() as rt:
        rt.define_property("c", (0.1, 0.2, 0.3, 0.4), kind="color")
        rt.define_property("s", (5, 6), kind=animrt.ValueKind.SIZE)
        assert rt.keypath_info("c") == (animrt.ValueKind.COLOR, 4)
        assert rt.keypath_info("s") == (animrt.ValueKind.SIZE, 2)
        assert rt.keypath_info("c.alpha") == (animrt.ValueKind.SCALAR, 1)


def test_stop_reasons_come_from_the_library():
    with animrt.Runtime() as rt:
        layer, doomed = rt.layer(), rt.layer()
        layer.add_animation(rt.basic("opacity", to=0.0, duration=10.0), key="removed")
        layer.add_animation(rt.basic("position.x", to=1.0, duration=10.0), key="replaced")
        layer.add_animation(rt.basic("cornerRadius", to=1.0, duration=0.5), key="finished")
        doomed.add_animation(rt.basic("opacity", to=0.0, duration=10.0), key="x")
        rt.tick(0)
        layer.remove_animation("removed")
        layer.add_animation(rt.basic("position.x", to=2.0, duration=10.0), key="replaced")
        doomed.destroy()
        rt.tick(1)
        stops = [e for e in rt.events() if isinstance(e, animrt.AnimationStopped)]
        assert sorted(e.reason for e in stops) == [animrt.StopReason.FINISHED, animrt.StopReason.REMOVED,
                                                   animrt.StopReason.REPLACED, animrt.StopReason.LAYER_DESTROYED]
        assert [e.finished for e in stops].count(True) == 1


def test_spring_parameters_read_back_by_their_definitions():
    # Each derived parameter is read from the library by its animrt_spring_param number.
    with animrt.Runtime() as rt:
        s = rt.spring("opacity", mass=2, stiffness=50, damping=5, to=1.0)
        ratio = 5 / (2 * math.sqrt(50 * 2))                  # ζ = c / (2 √(k m)) = 0.25
        assert s.damping_ratio == pytest.approx(ratio, rel=1e-12)
        assert s.response == pytest.approx(2 * math.pi * math.sqrt(2 / 50), rel=1e-12)
        assert s.perceptual_duration == pytest.approx(s.response, rel=1e-12)
        assert s.bounce == pytest.approx(1 - ratio, rel=1e-12)  # 1 − ζ below critical damping
        assert (s.mass, s.stiffness, s.damping) == (2, 50, 5)


def test_flags_fill_mode_and_direction_are_read_from_the_library():
    # Set behind the binding's back: the properties still show them, so they
    # are read from the library, not from a copy the binding keeps.
    from animrt import _ffi
    with animrt.Runtime() as rt:
        a = rt.basic("opacity", to=1.0)
        assert not a.autoreverses and a.removed_on_completion and a.fill_mode is animrt.FillMode.REMOVED
        _ffi.lib.animrt_animation_set_flag(rt._ptr, a.id, 0, 1)       # ANIMRT_FLAG_AUTOREVERSES
        _ffi.lib.animrt_animation_set_flag(rt._ptr, a.id, 1, 0)       # ANIMRT_FLAG_REMOVED_ON_COMPLETION
        _ffi.lib.animrt_animation_set_fill_mode(rt._ptr, a.id, 3)     # ANIMRT_FILL_BOTH
        _ffi.lib.animrt_animation_set_direction(rt._ptr, a.id, 3)     # ANIMRT_DIRECTION_ALTERNATE_REVERSE
        assert a.autoreverses and not a.removed_on_completion
        assert a.fill_mode is animrt.FillMode.BOTH and a.direction is animrt.Direction.ALTERNATE_REVERSE


def test_a_flag_that_would_do_nothing_or_contradict_another_is_refused_and_left_off():
    with animrt.Runtime() as rt:
        with pytest.raises(animrt.InvalidArgumentError, match="additive and from_presentation do not combine"):
            rt.basic("opacity", to=1.0, additive=True, from_presentation=True)
        with pytest.raises(animrt.KindError, match="a group has no value of its own to make cumulative"):
            rt.group([rt.basic("opacity", to=1.0)], cumulative=True)
        with pytest.raises(animrt.KindError, match="from_presentation applies to basic and spring animations"):
            rt.keyframe("opacity", [0.0, 1.0], from_presentation=True)
        shake = rt.basic("opacity", by=0.1, additive=True)
        with pytest.raises(animrt.InvalidArgumentError, match="give the difference to start from as from_"):
            shake.from_presentation = True
        assert shake.from_presentation is False and shake.additive is True


def played(rt, description):
    """A fresh layer (its model opacity -1: not in effect) playing `description`."""
    layer = rt.layer()
    layer["opacity"] = -1.0
    layer.add_animation(description)
    return layer


@pytest.mark.parametrize("made, options", [
    (dict(from_=0.0, to=1.0, iteration_duration=0.0), dict(duration=0.5, fill_mode="both", speed=math.nan)),
    (dict(from_=0.0, to=1.0, duration=0.5, iterations=0.0), dict(repeat_count=3.0, autoreverses=True, speed=math.inf)),
    (dict(from_=0.0, to=1.0, duration=0.5, repeat_count=2.0), dict(iterations=1.0, direction="reverse",
                                                                  timing_function="easeIn", begin_time=math.nan)),
    (dict(by=0.5, additive=True, duration=0.5), dict(additive=False, from_presentation=True, duration=-1.0)),
    (dict(from_=0.0, to=1.0, timing_function=(0.5, 0.0, 1.0, 1.0)), dict(timing_function="easeOut", fill_mode="bth")),
])
def test_configure_refused_leaves_the_description_as_it_was(made, options):
    # R0.3: the options set before the refused one are set back; the library reads back the
    # description it had, and an add plays exactly what an untouched twin plays.
    with animrt.Runtime() as rt:
        fade, twin = rt.basic("opacity", **made), rt.basic("opacity", **made)
        with pytest.raises(animrt.AnimrtError):
            fade.configure(**options)
        names = ("begin_time", "duration", "speed", "repeat_count", "repeat_duration", "iterations",
                 "iteration_duration", "autoreverses", "additive", "from_presentation", "fill_mode", "direction",
                 "timing_function")
        assert {n: getattr(fade, n) for n in names} == {n: getattr(twin, n) for n in names}
        assert repr(fade).rsplit(" ", 1)[0] == repr(twin).rsplit(" ", 1)[0]
        layers = [played(rt, fade), played(rt, twin)]
        for t in (0.0, 0.1, 0.3, 0.6, 1.2, 2.5):
            rt.tick(t)
            assert layers[0].presentation("opacity") == layers[1].presentation("opacity"), t


def test_configure_sets_a_spring_every_way_the_factory_takes_and_refused_sets_nothing():
    with animrt.Runtime() as rt:
        drop = rt.spring("position.y", damping=3.0, initial_velocity=2.0)
        drop.configure(response=0.4)  # the damping ratio kept
        assert drop.response == pytest.approx(0.4) and drop.damping_ratio == pytest.approx(0.15)
        assert drop.initial_velocity == 2.0
        drop.configure(perceptual_duration=0.3, bounce=-0.5)  # over-damped: allows_overdamping turns on
        made = rt.spring("position.y", perceptual_duration=0.3, bounce=-0.5, initial_velocity=2.0)
        assert (drop.stiffness, drop.damping, drop.allows_overdamping) == (made.stiffness, made.damping, True)
        assert drop.settling_duration == made.settling_duration
        with pytest.raises(animrt.InvalidArgumentError, match=r"SpringAnimation.configure\(\) got mass= and response="):
            drop.configure(mass=2.0, response=0.5)
        with pytest.raises(AttributeError, match=r"drop.configure\(bounce=…\)"):
            drop.bounce = 0.2
        kept, twin = (rt.spring("position.y", from_=0.0, to=100.0, damping=3.0) for _ in range(2))
        for options in (dict(mass=2.0, stiffness=-1.0), dict(mass=2.0, speed=math.nan),
                        dict(initial_velocity=5.0, speed=math.nan),
                        dict(speed=2.0, bounce=-0.5, begin_time=math.inf),
                        dict(response=0.3, duration=2.0, speed=math.nan), dict(damping_ratio=0.9, speed=math.inf)):
            with pytest.raises(animrt.AnimrtError):
                kept.configure(**options)
            assert (kept.mass, kept.stiffness, kept.damping, kept.speed, kept.begin_time) == (1.0, 100.0, 3.0, 1.0, 0.0)
            assert kept.allows_overdamping is False and kept.duration == kept.settling_duration  # still "settling"
            # read from the library: the spring it computes with
            assert (kept.damping_ratio, kept.settling_duration) == (twin.damping_ratio, twin.settling_duration)
        layers = [rt.layer(), rt.layer()]
        for layer, spring in zip(layers, (kept, twin)):
            layer.add_animation(spring)
        for t in (0.0, 0.2, 0.5):
            rt.tick(t)
            assert layers[0].presentation("position.y") == layers[1].presentation("position.y")


def test_a_layers_direction_fill_mode_and_autoreverses_do_what_they_say():
    """The three options of configure_timing the library cannot read back, seen on screen: the layer's
    animation, begun at its time -10 and running from 0 to 20 in 20 s, shows 10 + the layer's time;
    the model value -1 shows where the layer's time is unresolved (outside its active interval)."""
    def shown(**options):
        with animrt.Runtime() as rt:
            layer = rt.layer()
            layer["position.x"] = -1.0
            layer.configure_timing(duration=1.0, **options)
            layer.add_animation(rt.basic("position.x", from_=0.0, to=20.0, duration=20.0, begin_time=-10.0))
            seen = []
            for t in (0.25, 1.25, 2.5):
                rt.tick(t)
                seen.append(layer.presentation("position.x"))
            return seen

    assert shown() == pytest.approx([10.25, -1.0, -1.0], abs=1e-12)
    assert shown(direction="reverse") == pytest.approx([10.75, -1.0, -1.0], abs=1e-12)
    assert shown(autoreverses=True) == pytest.approx([10.25, 10.75, -1.0], abs=1e-12)  # back from 1 at 1.25
    assert shown(autoreverses=False) == shown()
    assert shown(fill_mode="forwards") == pytest.approx([10.25, 11.0, 11.0], abs=1e-12)
    assert shown(autoreverses=True, fill_mode="forwards") == pytest.approx([10.25, 10.75, 10.0], abs=1e-12)


def test_configure_timing_refused_leaves_the_layer_timed_as_it_was():
    # R0.3: a layer's fill mode, direction and autoreverses cannot be read back, so they are checked
    # first and set last; the numbers set before a refused one are set back.
    names = ("begin_time", "duration", "speed", "time_offset", "repeat_count", "repeat_duration", "iterations",
             "iteration_duration")
    with animrt.Runtime() as rt:
        for setup, options in ((dict(), dict(iteration_duration=0.0, time_offset=0.5, speed=math.nan)),
                               (dict(iteration_duration=0.0), dict(duration=1.0, speed=math.nan)),
                               (dict(duration=1.0, iterations=0.0), dict(repeat_count=3.0, speed=math.nan)),
                               (dict(duration=1.0), dict(direction="reverse", autoreverses=True, speed=math.nan)),
                               (dict(duration=1.0), dict(speed=2.0, fill_mode="bth")),
                               (dict(duration=1.0), dict(time_offset=0.5, autoreverses="yes"))):
            layer, twin = rt.layer(), rt.layer()
            for each in (layer, twin):
                each.configure_timing(**setup)
                each.add_animation(rt.basic("opacity", from_=0.0, to=1.0, duration=1.0))
            with pytest.raises(animrt.AnimrtError):
                layer.configure_timing(**options)
            assert [layer.timing(n) for n in names] == [twin.timing(n) for n in names], options
            start = rt.time
            for t in (0.0, 0.25, 0.5):
                rt.tick(start + t)
                assert layer.presentation("opacity") == twin.presentation("opacity"), (options, t)


@pytest.mark.parametrize("options, named", [
    (dict(repeat_count=2.0, iterations=3.0), "repeat_count= and iterations="),
    (dict(iterations=3.0, repeat_count=2.0), "repeat_count= and iterations="),
    (dict(repeat_duration=2.0, iterations=3.0), "repeat_duration= and iterations="),
    (dict(duration=1.0, iteration_duration=2.0), "duration= and iteration_duration="),
    (dict(repeat_count=2.0, repeat_duration=3.0), "repeat_count=2.0 and repeat_duration=3.0"),
])
def test_one_call_giving_two_names_of_one_quantity_is_refused(options, named):
    # Keyword order would decide which wins: refused at the call, whichever comes first, by the
    # factories, configure() and a layer's configure_timing() alike, and nothing is set.
    with animrt.Runtime() as rt:
        with pytest.raises(animrt.InvalidArgumentError, match=named):
            rt.basic("opacity", to=1.0, **options)
        fade = rt.basic("opacity", to=1.0)
        with pytest.raises(animrt.InvalidArgumentError, match=named):
            fade.configure(**options)
        assert (fade.duration, fade.repeat_count, fade.repeat_duration) == (0.0, 0.0, 0.0)
        layer = rt.layer()
        with pytest.raises(animrt.InvalidArgumentError, match=named):
            layer.configure_timing(**options)
        assert layer.timing("duration") == 0.0 and layer.timing("repeat_count") == 0.0
    # One of the pair at 0 says nothing undefined: accepted.
    assert value_at(2.5, repeat_count=0.0, repeat_duration=2.0) == 0.5


def test_a_replaced_name_reads_unset():
    # The library reads back 0 for Core Animation's name once Web Animations' replaced it, and what
    # plays is what was set last: 5 iterations, not 2.
    with animrt.Runtime() as rt:
        blink = rt.basic("opacity", from_=0.0, to=1.0, duration=1.0, repeat_count=2.0)
        blink.iterations = 5.0
        assert (blink.repeat_count, blink.iterations) == (0.0, 5.0)
        snap = rt.basic("opacity", from_=0.0, to=1.0, duration=1.0)
        snap.iteration_duration = 2.0
        assert (snap.duration, snap.iteration_duration) == (0.0, 2.0)
    assert value_at(1 + 4.5, repeat_count=2.0, fill_mode="forwards", removed_on_completion=False) == 1.0
    with animrt.Runtime() as rt:
        layer = rt.layer()
        layer["opacity"] = -1.0
        blink = rt.basic("opacity", from_=0.0, to=1.0, duration=1.0, repeat_count=2.0, begin_time=1.0)
        blink.iterations = 5.0
        layer.add_animation(blink)
        rt.tick(1 + 4.5)
        assert layer.presentation("opacity") == 0.5
