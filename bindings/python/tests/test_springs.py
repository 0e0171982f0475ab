"""Springs run until they settle by default in Python; Core Animation's cut-off is one word away (R1.5)."""
import inspect
import math
import re
import textwrap

import pytest

import animrt


@pytest.fixture
def rt():
    with animrt.Runtime() as runtime:
        yield runtime


def test_a_spring_runs_until_it_settles(rt):
    toast = rt.layer()
    toast["position.y"] = 60.0
    drop = rt.spring("position.y", from_=-40, to=60, damping=12, stiffness=180)
    settling = drop.settling_duration
    assert 1.1 < settling < 1.3 and drop.duration == settling
    toast.add_animation(drop, key="in")
    rt.tick(0)
    rt.tick(0.25)  # where Core Animation's default duration would cut it off
    at_quarter = toast.presentation("position.y")
    assert 60 < at_quarter < 90  # overshooting, not cut off
    rt.tick(settling - 0.05)
    assert toast.animation_keys() == ["in"] and abs(toast.presentation("position.y") - 60) < 0.2
    rt.tick(settling)
    stopped = [e for e in rt.events() if isinstance(e, animrt.AnimationStopped)]
    assert [(e.key, e.time, e.finished) for e in stopped] == [("in", settling, True)]


def test_a_number_cuts_the_spring_off_as_core_animation_does(rt):
    layer = rt.layer()
    drop = rt.spring("position.y", from_=-40, to=60, damping=12, stiffness=180, duration=0.25)
    assert drop.duration == 0.25
    layer.add_animation(drop)
    rt.tick(0)
    rt.tick(0.25)
    assert layer.presentation("position.y") == 0.0  # ended: the model value shows (the Core Animation trap)
    drop.duration = "settling"
    assert drop.duration == drop.settling_duration
    drop.duration = 0  # 0 is Core Animation's "default duration", 0.25 s
    assert drop.duration == 0


def test_springs_in_groups_and_transactions_settle_too(rt):
    layer = rt.layer()
    settle = rt.spring("strokeStart", from_=0, to=1, damping=15)
    with rt.transaction(animation_duration=0.1):
        layer.add_animation(rt.group([settle], duration=5), key="group")
        layer.add_animation(rt.spring("cornerRadius", from_=0, to=10, damping=15), key="corner")
    rt.tick(0)
    rt.tick(0.5)
    # Cut off at the transaction's 0.1 s, both would show their model value, 0.
    assert layer.presentation("strokeStart") > 0.9 and layer.presentation("cornerRadius") > 9
    rt.tick(settle.settling_duration)
    assert layer.animation_keys() == ["group"]


def test_a_spring_that_never_settles_is_refused_when_added(rt):
    layer = rt.layer()
    ring = rt.spring("opacity", from_=0, to=1, damping=0)
    with pytest.raises(animrt.RangeError, match="the spring never settles .*give it some damping, or a duration"):
        layer.add_animation(ring)
    assert layer.animation_keys() == []
    ring.duration = 2.0
    layer.add_animation(ring)


def test_spring_parameters_are_properties(rt):
    drop = rt.spring("position.y", to=1, mass=2, stiffness=50, damping=4, initial_velocity=1, allows_overdamping=True)
    assert (drop.mass, drop.stiffness, drop.damping, drop.initial_velocity) == (2.0, 50.0, 4.0, 1.0)
    assert drop.allows_overdamping and drop.to_value == 1.0 and drop.from_value is None
    before = drop.settling_duration
    drop.damping = 20
    assert drop.damping == 20 and drop.settling_duration < before
    with pytest.raises(animrt.RangeError, match="spring mass is 0;"):
        drop.mass = 0
    assert drop.mass == 2.0


def test_a_spring_given_two_ways_is_refused_rather_than_one_way_dropped(rt):
    # Each way sets the whole spring: with two, the later one replaced the earlier without a word
    # (stiffness=180 beside response=0.3 gave a stiffness of 438.6).
    ways = "give mass, stiffness and damping; or response and damping_ratio; or perceptual_duration and bounce"
    with pytest.raises(animrt.InvalidArgumentError, match=rf"^rt.spring\(\) got stiffness= and response=, two ways "
                       rf"to give one spring: {ways}$"):
        rt.spring("position.y", to=1, response=0.3, stiffness=180)
    with pytest.raises(animrt.InvalidArgumentError, match=r"got damping_ratio= and bounce=, two ways"):
        rt.spring("position.y", to=1, damping_ratio=0.5, bounce=0.2)
    with pytest.raises(animrt.InvalidArgumentError, match=r"got mass= and perceptual_duration=, two ways"):
        rt.spring("position.y", to=1, mass=2, perceptual_duration=0.4)
    # One way at a time, with the initial velocity, which all three keep.
    assert rt.spring("opacity", stiffness=180, damping=12).stiffness == 180
    assert (rt.spring("opacity").mass, rt.spring("opacity").stiffness, rt.spring("opacity").damping) == (1, 100, 10)
    snap = rt.spring("opacity", response=0.5, damping_ratio=0.8, initial_velocity=2)
    assert snap.response == pytest.approx(0.5) and snap.damping_ratio == pytest.approx(0.8)
    assert snap.initial_velocity == 2
    assert rt.spring("opacity", perceptual_duration=0.4, bounce=0.3).bounce == pytest.approx(0.3)



def test_half_a_pair_takes_swiftuis_default_for_the_other_half(rt):
    """SwiftUI's Spring(response: 0.5, dampingRatio: 1) and Spring(duration: 0.5, bounce: 0): one of a
    pair given alone keeps the other's default, a critically damped spring or one of period 0.5 s.
    Read back from the library's mass, stiffness and damping: stiffness (2π / response)², damping
    4π × ratio / response (mass 1)."""
    alone = rt.spring("opacity", response=0.4)
    assert alone.damping_ratio == pytest.approx(1.0, rel=1e-12)
    assert alone.stiffness == pytest.approx((2 * math.pi / 0.4) ** 2, rel=1e-12)
    assert alone.damping == pytest.approx(4 * math.pi / 0.4, rel=1e-12)
    ratio = rt.spring("opacity", damping_ratio=0.8)
    assert ratio.response == pytest.approx(0.5, rel=1e-12)
    assert ratio.stiffness == pytest.approx((2 * math.pi / 0.5) ** 2, rel=1e-12)
    assert ratio.damping == pytest.approx(4 * math.pi * 0.8 / 0.5, rel=1e-12)
    perceptual = rt.spring("opacity", perceptual_duration=0.4)
    assert perceptual.bounce == pytest.approx(0.0, abs=1e-12) and perceptual.damping_ratio == pytest.approx(1.0)
    bouncy = rt.spring("opacity", bounce=0.3)
    assert bouncy.perceptual_duration == pytest.approx(0.5, rel=1e-12)
    assert bouncy.damping_ratio == pytest.approx(0.7, rel=1e-12)  # bounce 1 − ζ below critical damping


def test_a_drag_release_as_help_shows_it_leaves_at_the_fingers_speed_from_the_tick_it_was_added_at():
    """help(rt.spring)'s drag release: initial_velocity is in from→to distances per second, and
    begin_time=rt.time starts the spring at once; the default (the next tick) shows the from value
    for one more frame."""
    blocks = re.findall(r"::\n\n((?:    .*\n?|\n)+)", inspect.getdoc(animrt.Runtime.spring))
    release = textwrap.dedent(next(b for b in blocks if "release" in b))
    with animrt.Runtime() as rt:
        card = rt.layer()
        rt.tick(0.0)
        card["position.x"] = 120.0  # dragged there
        rt.tick(0.5)
        exec(release, {"rt": rt, "card": card, "speed": -900.0})
        attached = card.animation("release")
        rt.tick(0.5)  # the same time: the spring's first frame
        assert card.presentation("position.x") == 120.0 and attached.velocity() == -900.0
        rt.tick(0.5 + 1 / 60)
        assert card.presentation("position.x") == pytest.approx(104.673, abs=1e-3)  # moving at once
        late = rt.layer()
        late.add_animation(rt.spring("position.x", from_=120.0, to=0.0, initial_velocity=7.5))
        rt.tick(0.5 + 2 / 60)
        assert late.presentation("position.x") == 120.0  # begun only now: a frame behind
