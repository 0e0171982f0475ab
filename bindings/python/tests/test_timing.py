"""Timing semantics through the binding (docs/timing.md): Web Animations' vocabulary, reading attached
animations back, layer time, springs by other names, decay, velocity, retargeting and paths. Expected
values are derived in the comments from Web Animations, CSS Easing and Apple's documentation (R1.1–R1.7)."""
import ctypes
import gc
import math

import pytest

import animrt


@pytest.fixture
def rt():
    with animrt.Runtime() as runtime:
        yield runtime


def test_web_animations_delay_and_zero_iterations(rt):
    layer = rt.layer()
    # WA1: begins at the first tick (2), delay 0.5, 1 s iterations: progress (3 - 2 - 0.5) / 1 = 0.5 at 3.
    layer.add_animation(rt.basic("opacity", from_=0.0, to=10.0, iteration_duration=1.0, delay=0.5))
    # Zero iterations with a forwards fill: after at once, progress 0, the from value.
    zero = rt.basic("cornerRadius", from_=4.0, to=8.0, duration=1.0, iterations=0, fill_mode="forwards",
                    removed_on_completion=False)
    assert zero.iterations == 0 and zero.iteration_duration == 1.0
    layer.add_animation(zero)
    rt.tick(2.0)
    assert layer.presentation("opacity") == 1.0
    assert layer.presentation("cornerRadius") == 4.0
    rt.tick(3.0)
    assert layer.presentation("opacity") == 5.0
    zero.repeat_count = 0            # Core Animation's name replaces it: once
    assert zero.iterations == 1
    with pytest.raises(animrt.RangeError):
        zero.iterations = -1


def test_css_easing_keywords_and_linear(rt):
    assert rt.evaluate_timing_function("step-start", 0.1) == 1.0
    assert rt.evaluate_timing_function("step-end", 0.9) == 0.0
    # linear(0, 0.25 75%, 1): points (0, 0), (0.75, 0.25), (1, 1).
    assert rt.evaluate_timing_function("linear(0, 0.25 75%, 1)", 0.5) == pytest.approx(0.5 / 0.75 * 0.25, abs=1e-15)
    with pytest.raises(animrt.InvalidArgumentError, match="at least two stops"):
        rt.evaluate_timing_function("linear(1)", 0.5)


def test_attached_animation_reads_back_as_attached(rt):
    layer = rt.layer()
    rt.tick(3.0)
    attached = layer.add_animation(rt.basic("position.x", from_=1.0, by=2.0,
                                            timing_function="cubic-bezier(0.1, 0.2, 0.3, 1)", fill_mode="both",
                                            removed_on_completion=False), key="x")
    assert layer.animation("x") is attached and layer.animation("nothing") is None
    # Core Animation: duration 0 becomes 0.25 s when added; beginTime 0 is stamped at the next tick.
    assert (attached.timing("begin_time"), attached.timing("duration")) == (0.0, 0.25)
    rt.tick(5.0)
    assert attached.timing("begin_time") == 5.0
    assert attached.value("from") == 1.0 and attached.value("to") == 3.0 and attached.value("by") is None
    assert attached.timing_function == "cubic-bezier(0.1, 0.2, 0.3, 1)"
    assert attached.fill_mode is animrt.FillMode.BOTH and not attached.flag("removed_on_completion")
    keyframes = rt.keyframe("opacity", [0.0, 1.0, 0.5], key_times=[0, 0.2, 1], duration=1.0)
    k = layer.add_animation(keyframes, key="k")
    assert k.keyframe_values == [0.0, 1.0, 0.5] and k.key_times == [0.0, 0.2, 1.0] and k.timing_function == "linear"
    layer.remove_animation("x")
    with pytest.raises(animrt.HandleError):
        attached.timing("begin_time")


def test_group_children_read_back(rt):
    layer = rt.layer()
    fade = rt.basic("opacity", from_=0.0, to=1.0, begin_time=0.5, duration=4.0)
    grow = rt.basic("cornerRadius", to=8.0)  # duration 0: the group's when attached
    group = rt.group([fade, grow], duration=2.0)
    attached = layer.add_animation(group, key="g")
    children = attached.children
    assert [type(c) for c in children] == [animrt.AnimationCopy, animrt.AnimationCopy]
    assert [c.key_path for c in children] == ["opacity", "cornerRadius"] and attached.key_path is None
    assert children[0].value("from") == 0.0 and children[0].value("to") == 1.0
    assert children[0].timing("begin_time") == 0.5 and children[0].timing("duration") == 4.0
    # As attached, the group's duration (Core Animation's rule); the description itself keeps 0.
    assert children[1].timing("duration") == 2.0 and grow.duration == 0.0
    assert children[0] != attached.children[0]  # each read makes a new copy
    # Nested groups read down; a child that is not a group has none; a leaf cannot be asked as a group.
    outer = layer.add_animation(rt.group([group]), key="outer")
    (inner,) = outer.children
    assert inner.key_path is None and [c.key_path for c in inner.children] == ["opacity", "cornerRadius"]
    with pytest.raises(animrt.KindError, match="needs a group animation"):
        children[0].children
    # A copy is the program's: it goes with its Python object.
    handle = children[1].id
    del children
    gc.collect()
    with pytest.raises(animrt.HandleError):
        animrt._ffi.lib.animrt_animation_get_kind(rt._ptr, handle, ctypes.byref(ctypes.c_int()))


def test_computed_timing(rt):
    # WA1: iteration duration 1, 3 iterations, delay 0.5, alternate, begin 10.
    # At 11.75: local 1.75, active 1.25, iteration 1 (reversed): progress 0.75.
    layer = rt.layer()
    rt.tick(9.0)
    attached = layer.add_animation(rt.basic("opacity", from_=0.0, to=1.0, iteration_duration=1.0, iterations=3,
                                            delay=0.5, direction="alternate"))
    c = attached.computed_timing()
    assert c.phase is animrt.Phase.IDLE and c.local_time is None and not c.in_effect
    assert (c.active_duration, c.end_time) == (3.0, 3.5)
    rt.tick(10.0)
    rt.tick(11.75)
    c = attached.computed_timing()
    assert (c.phase, c.local_time, c.active_time, c.current_iteration, c.progress) == \
        (animrt.Phase.ACTIVE, 1.75, 1.25, 1.0, 0.75)


def test_pause_and_resume_a_timed_layer(rt):
    # QA1673 on a layer with duration 2, repeating forever, autoreversing: at 3.5 it is in iteration 1
    # (reversed) at time (1 - 0.75) × 2 = 0.5, so a 2 s fade shows 0.25; paused it holds, resumed it goes on.
    layer = rt.layer()
    layer.configure_timing(duration=2.0, repeat_count=math.inf, autoreverses=True)
    assert layer.timing("iteration_duration") == 2.0
    layer.add_animation(rt.basic("opacity", from_=0.0, to=1.0, duration=2.0, fill_mode="both",
                                 removed_on_completion=False))
    rt.tick(0.0)
    rt.tick(3.5)
    assert layer.presentation("opacity") == pytest.approx(0.25, abs=1e-15)
    paused_time = layer.convert_time_from(3.5)
    layer.set_timing(speed=0.0, time_offset=paused_time)
    rt.tick(10.0)
    assert layer.presentation("opacity") == pytest.approx(0.25, abs=1e-15)
    layer.set_timing(speed=1.0)
    layer.configure_timing(begin_time=layer.convert_time_from(10.0) - paused_time)
    rt.tick(10.25)
    assert layer.presentation("opacity") == pytest.approx(0.125, abs=1e-15)
    assert layer.convert_time_to(layer.convert_time_from(10.25)) == pytest.approx(10.25, abs=1e-12)
    assert rt.layer().timing("iteration_duration") == math.inf
    with pytest.raises(animrt.RangeError):
        layer.configure_timing(duration=-1.0)


def test_spring_parameterisations(rt):
    # SwiftUI Spring(response: 0.5, dampingRatio: 0.825): k = (2π / 0.5)², c = 4π × 0.825 / 0.5.
    s = rt.spring("opacity", to=0.0, response=0.5, damping_ratio=0.825)
    assert s.stiffness == pytest.approx((2 * math.pi / 0.5) ** 2, rel=1e-12)
    assert s.damping == pytest.approx(4 * math.pi * 0.825 / 0.5, rel=1e-12)
    assert (s.response, s.damping_ratio) == (pytest.approx(0.5, rel=1e-12), pytest.approx(0.825, rel=1e-12))
    # Perceptual duration 0.35, bounce -0.2: ratio 1 / (1 - 0.2) = 1.25; the bounce reads back as 1 / ratio - 1.
    p = rt.spring("opacity", to=0.0, perceptual_duration=0.35, bounce=-0.2)
    assert p.damping_ratio == pytest.approx(1.25, rel=1e-12) and p.bounce == pytest.approx(-0.2, rel=1e-12)
    assert p.perceptual_duration == pytest.approx(0.35, rel=1e-12) and p.allows_overdamping is True
    with pytest.raises(animrt.RangeError, match="bounce"):
        rt.spring("opacity", perceptual_duration=0.5, bounce=-1.0)
    with pytest.raises(animrt.RangeError, match="response"):
        rt.spring("opacity", response=0.0, damping_ratio=1.0)


def test_decay(rt):
    # v(t) = v0 · r^(1000 t), so x(t) = x0 + v0 (r^(1000 t) - 1) / (1000 ln r); it rests when the speed
    # is 0.5: D = ln(0.5 / v0) / (1000 ln r).
    layer = rt.layer()
    fling = rt.decay("position.x", 1000.0, from_=20.0)
    duration = math.log(0.5 / 1000) / (1000 * math.log(0.998))
    assert fling.settling_duration == pytest.approx(duration, rel=1e-12) and fling.deceleration_rate == 0.998
    attached = layer.add_animation(fling)
    rt.tick(0.0)
    assert attached.timing("iteration_duration") == pytest.approx(duration, rel=1e-12)
    # the derived duration replaces any set, in Core Animation's name too (not the 0.25 s default)
    assert attached.timing("duration") == attached.timing("iteration_duration")
    assert attached.computed_timing().active_duration == attached.timing("duration")
    assert attached.value("velocity") == 1000.0
    rt.tick(1.0)
    expected = 20 + 1000 * (0.998 ** 1000 - 1) / (1000 * math.log(0.998))
    assert layer.presentation("position.x") == pytest.approx(expected, abs=1e-9)
    # the library's messages name parameters as Python spells them
    with pytest.raises(animrt.RangeError, match="^decay deceleration_rate is 1;"):
        rt.decay("opacity", 1.0, deceleration_rate=1.0)
    with pytest.raises(animrt.RangeError, match="^decay rest_velocity is 0;"):
        rt.decay("opacity", 1.0, rest_velocity=0.0)
    with pytest.raises(animrt.InvalidArgumentError, match="^iteration_duration is inf"):
        rt.basic("opacity", iteration_duration=math.inf)
    with pytest.raises(animrt.RangeError, match="^spring damping_ratio is -1;"):
        rt.spring("opacity", response=0.5, damping_ratio=-1.0)


def test_velocity_and_retarget(rt):
    # A 0 -> 10 fade over 2 s moves at 5 per second.
    layer = rt.layer()
    fade = layer.add_animation(rt.basic("opacity", from_=0.0, to=10.0, duration=2.0))
    spring = layer.add_animation(rt.spring("position", from_=(0.0, 0.0), to=(100.0, 0.0), duration=5.0))
    rt.tick(0.0)
    rt.tick(0.2)
    assert fade.velocity() == 5.0
    before = layer.presentation("position"), spring.velocity()
    spring.retarget((40.0, 30.0))
    assert spring.velocity() == before[1]               # the velocity carries over
    rt.tick(0.2)
    assert layer.presentation("position") == before[0]  # and so does the value
    assert spring.value("to") == (40.0, 30.0)
    with pytest.raises(animrt.KindError):
        fade.retarget(1.0)
    with pytest.raises(animrt.NotFoundError):
        fade.velocity("position")


def test_keyframes_along_a_path(rt):
    # M(0,0) L(30,0) L(30,40) paced over 7 s: 70 long, 10 per second, at the corner after 3 s; the
    # rotation follows the tangent (90° on the second leg).
    layer = rt.layer()
    fly = rt.keyframe("position", path=[("M", 0, 0), ("L", 30, 0), ("line", 30, 40)], calculation_mode="paced",
                      rotation_mode="auto", duration=7.0)
    assert fly.path == [("M", 0, 0), ("L", 30, 0), ("line", 30, 40)] and fly.rotation_mode is animrt.RotationMode.AUTO
    attached = layer.add_animation(fly)
    rt.tick(0.0)
    rt.tick(3.0)
    assert layer.presentation("position") == pytest.approx((30.0, 0.0), abs=1e-9)
    rt.tick(5.0)
    assert layer.presentation("position") == pytest.approx((30.0, 20.0), abs=1e-9)
    assert attached.velocity() == pytest.approx((0.0, 10.0), abs=1e-12)
    assert attached.rotation_mode is animrt.RotationMode.AUTO
    assert layer.presentation("transform.rotation.z") == pytest.approx(math.pi / 2, abs=1e-12)
    with pytest.raises(animrt.InvalidArgumentError):
        rt.keyframe("position", path=[("line", 1, 1)])
    with pytest.raises(animrt.ArgumentTypeError, match="takes 2"):
        rt.keyframe("position", path=[("move", 1)])


def test_keyframe_segments_take_four_numbers_as_timing_function_does(rt):
    # Core Animation's easeIn is cubic-bezier(0.42, 0, 1, 1): written as numbers, the same curve.
    named, numbered = rt.layer(), rt.layer()
    named.add_animation(rt.keyframe("opacity", [0, 1, 0], duration=2, timing_functions=["easeIn", "easeOut"]))
    by_numbers = rt.keyframe("opacity", [0, 1, 0], duration=2, timing_functions=[(0.42, 0, 1, 1), "easeOut"])
    numbered.add_animation(by_numbers)
    assert by_numbers.timing_functions == ["cubic-bezier(0.42, 0.0, 1.0, 1.0)", "easeOut"]
    rt.tick(0)
    for t in (0.3, 0.7, 1.4):
        rt.tick(t)
        assert numbered.presentation("opacity") == named.presentation("opacity") != 0


def test_a_layer_no_tick_has_shown_presents_its_model(rt):
    # A layer created since the last tick has never been on screen, so it has no on-screen value to start
    # from: its presentation is its model until the next tick (Core Animation has no presentation layer
    # for it yet; UIKit's beginFromCurrentState then starts from the model). An animation added from the
    # presentation therefore starts from the model set, not from the property's default (opacity 1).
    rt.tick(1.0)
    toast = rt.layer()
    toast["opacity"] = 0.0
    toast["position.y"] = 60.0
    assert toast.presentation("opacity") == 0.0 and toast.presentation("position") == (0.0, 60.0)
    fade_in = toast.add_animation(rt.basic("opacity", to=1.0, duration=1.0, from_presentation=True))
    assert fade_in.value("from") == 0.0
    rt.tick(2.0)
    assert toast.presentation("opacity") == 0.0      # its first frame is the model it was given
    rt.tick(2.5)
    assert toast.presentation("opacity") == 0.5
    # Once a tick has shown it, setting the model changes the presentation only at the next tick again.
    toast["position.y"] = 80.0
    assert toast.presentation("position.y") == 60.0
    rt.tick(2.6)
    assert toast.presentation("position.y") == 80.0


def test_a_timer_started_before_the_first_tick_counts_from_it_as_a_newcomer_is_told():
    """The first test a newcomer writes, rt.start_timer(0.5, f); rt.tick(1), does not call f: the
    runtime has no time before its first tick. Said where timers are met first, with the reason:
    the start_timer docstring and the tutorial's toast."""
    import pathlib
    fired = []
    with animrt.Runtime() as rt:
        rt.start_timer(0.5, lambda: fired.append(rt.time))
        rt.tick(1)
        assert fired == []  # due at 1.5: half a second after the first tick
        rt.tick(1.5)
        assert fired == [1.5]
    with animrt.Runtime() as rt:
        rt.start_timer(0.5, lambda: fired.append(rt.time))
        rt.tick(0)  # starts the clock
        rt.tick(1)
        assert fired == [1.5, 1.0]
    words = " ".join(animrt.Runtime.start_timer.__doc__.split())
    assert ("the delay counts from the first tick: ``rt.start_timer(0.5, f)`` then ``rt.tick(1)`` does not call "
            "``f`` (it is due at 1.5); a first ``rt.tick(0)`` starts the clock") in words
    assert "Before the first tick the runtime has no time yet" in words
    tutorial = " ".join((pathlib.Path(__file__).resolve().parents[3] / "docs" / "tutorial.md").read_text().split())
    assert ("So `rt.start_timer(0.5, f)` then `rt.tick(1)` does not call `f` yet (it is due at 1.5); tick once "
            "first, `rt.tick(0)`, to start the clock.") in tutorial
    assert "before its first tick the runtime has no time yet" in tutorial


def test_evaluate_timing_function_takes_four_numbers_as_timing_function_does():
    with animrt.Runtime() as rt:
        for x in (0.0, 0.25, 0.5, 0.9, 1.0):
            assert rt.evaluate_timing_function((0.42, 0, 0.58, 1), x) == rt.evaluate_timing_function("easeInEaseOut", x)
        assert rt.evaluate_timing_function([0.0, 0.0, 1.0, 1.0], 0.3) == pytest.approx(0.3, abs=1e-12)
        with pytest.raises(animrt.ArgumentTypeError, match=r"^name has 3 numbers; a cubic bezier takes four"):
            rt.evaluate_timing_function((0.42, 0, 0.58), 0.5)  # type: ignore[arg-type]
        with pytest.raises(animrt.ArgumentTypeError, match=r"^name is 3 \(an int\); it must be a str"):
            rt.evaluate_timing_function(3, 0.5)  # type: ignore[arg-type]
