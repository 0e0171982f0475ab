"""What the program gives comes back as it gave it, and what the library holds reads back as it holds
it: answers of calls, read-back copies, the numbers a description keeps (R5.2)."""
import math

import pytest

import animrt


@pytest.fixture
def rt():
    with animrt.Runtime() as runtime:
        yield runtime


def test_remove_animation_says_whether_there_was_one(rt):
    layer = rt.layer()
    layer.add_animation(rt.basic("opacity", to=0.0), key="out")
    assert layer.remove_animation("in") is False and layer.animation_keys() == ["out"]
    assert layer.remove_animation("out") is True and layer.animation_keys() == []
    assert layer.remove_animation("out") is False


def test_destroying_a_layer_twice_is_harmless(rt):
    layer = rt.layer()
    layer.destroy()
    layer.destroy()
    with pytest.raises(animrt.HandleError):
        layer.value("opacity")


def test_an_unresolved_computed_timing_is_none_not_nan(rt):
    # Web Animations' null: before its begin time the animation has no active time, iteration or
    # progress, and is not in effect; NaN would compare unequal to everything and print as nan.
    layer = rt.layer()
    later = layer.add_animation(rt.basic("opacity", to=0.0, duration=1.0, begin_time=5.0))
    rt.tick(1.0)
    timing = later.computed_timing()
    assert timing.phase is animrt.Phase.BEFORE
    assert timing.active_time is None and timing.current_iteration is None and timing.progress is None
    assert timing.in_effect is False
    assert timing.local_time == -4.0 and timing.active_duration == 1.0 and timing.end_time == 1.0  # its own time
    rt.tick(5.25)
    assert later.computed_timing().progress == 0.25 and later.computed_timing().in_effect is True


def test_key_times_read_back_none_when_none_were_set(rt):
    blink = rt.keyframe("opacity", [1.0, 0.0, 1.0], key_times=[0.0, 0.2, 1.0])
    assert blink.key_times == [0.0, 0.2, 1.0]
    blink.key_times = None
    assert blink.key_times is None
    attached = rt.layer().add_animation(blink)
    assert attached.key_times is None and attached.keyframe_values == [1.0, 0.0, 1.0]
    spaced = rt.layer().add_animation(rt.keyframe("opacity", [1.0, 0.0], key_times=[0.0, 1.0]))
    assert spaced.key_times == [0.0, 1.0]


def test_each_flag_reads_back_as_itself_from_the_attached_copy(rt):
    # One flag turned on at a time (additive and from_presentation exclude each other): the copy the
    # library holds says that one is on, removed_on_completion at its default, and no other.
    names = ("autoreverses", "removed_on_completion", "additive", "cumulative", "from_presentation")
    for name in ("autoreverses", "additive", "cumulative", "from_presentation"):
        attached = rt.layer().add_animation(rt.basic("position.x", from_=0.0, to=1.0, **{name: True}))
        assert {n for n in names if attached.flag(n)} == {name, "removed_on_completion"}, name
    kept = rt.layer().add_animation(rt.basic("position.x", to=1.0, removed_on_completion=False))
    assert not any(kept.flag(n) for n in names)


def test_set_value_sets_the_slot_it_names(rt):
    fade = rt.basic("opacity")
    fade.set_value("from", 0.75)
    fade.set_value("to", 0.25)
    attached = rt.layer().add_animation(fade)
    assert (attached.value("from"), attached.value("to"), attached.value("by")) == (0.75, 0.25, None)
    spin = rt.basic("transform.rotation.z")
    spin.set_value("by", 2.0)
    attached = rt.layer().add_animation(spin)
    assert (attached.value("from"), attached.value("to"), attached.value("by")) == (None, None, 2.0)


def test_a_layers_timing_arguments_reach_their_parameters(rt):
    layer = rt.layer()
    layer.set_timing(begin_time=1.0, speed=0.0, time_offset=2.0)
    assert (layer.timing("begin_time"), layer.timing("speed"), layer.timing("time_offset")) == (1.0, 0.0, 2.0)
    layer.set_timing(speed=3.0)
    assert (layer.timing("begin_time"), layer.timing("speed"), layer.timing("time_offset")) == (0.0, 3.0, 0.0)
    layer.set_timing(begin_time=0.5, time_offset=2.0)  # the speed left out is 1, as documented: (0, 1, 0)
    assert (layer.timing("begin_time"), layer.timing("speed"), layer.timing("time_offset")) == (0.5, 1.0, 2.0)


def test_a_descriptions_delay_and_end_delay_are_its_own(rt):
    a = rt.basic("opacity", to=0.0, duration=1.0, delay=0.5, end_delay=0.25)
    assert a.delay == 0.5 and a.end_delay == 0.25
    attached = rt.layer().add_animation(a)
    assert attached.timing("delay") == 0.5 and attached.timing("end_delay") == 0.25


def test_a_decays_velocity_and_rate_read_back_as_set(rt):
    fling = rt.decay("position.x", 800.0)
    fling.velocity = 1000.0
    fling.set_rate(0.99, 2.0)
    assert fling.velocity == 1000.0 and fling.from_value is None
    assert fling.deceleration_rate == 0.99 and fling.rest_velocity == 2.0
    attached = rt.layer().add_animation(fling)
    assert attached.value("velocity") == 1000.0 and attached.value("from") is None


def test_a_segments_bezier_reaches_the_library_unrounded(rt):
    curve = (0.123456789, 0.0, 0.5, 1.0)
    k = rt.keyframe("opacity", [0.0, 1.0], timing_functions=[curve])
    assert k.timing_functions == ["cubic-bezier(0.123456789, 0.0, 0.5, 1.0)"]
    whole = rt.keyframe("opacity", [0.0, 1.0], timing_function=curve)
    # The one curve of the segment and the animation's own: the same at every point.
    for x in (0.1, 0.37, 0.8):
        assert rt.evaluate_timing_function(k.timing_functions[0], x) == rt.evaluate_timing_function(
            "cubic-bezier(0.123456789, 0, 0.5, 1)", x)
    assert whole.timing_function == curve


def test_a_timing_function_that_raises_raises_from_the_evaluation(rt):
    def broken(x):
        raise ZeroDivisionError("no curve here")

    rt.register_timing_function("broken", broken)
    with pytest.raises(animrt.CallbackError, match="ZeroDivisionError: no curve here") as caught:
        rt.evaluate_timing_function("broken", 0.5)
    assert isinstance(caught.value.__cause__, ZeroDivisionError)
    rt.tick(0.0)  # nothing is left over to raise from a later call
    assert rt.evaluate_timing_function("linear", 0.25) == 0.25
