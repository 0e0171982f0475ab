"""What the objects print as: what they were made with and where they are now, read without changing
anything, and never an exception, whatever became of the object or its runtime."""
import math

import pytest

import animrt

TOGGLE = {"name": "toggle", "events": {"tap": {}}, "initial": "off",
          "states": {"off": {"on": {"tap": "on"}}, "on": {"on": {"tap": "off"}}}}
# A compound state: the active leaf's full name names its ancestors, the whole configuration.
PANEL = {"name": "panel", "events": {"open": {}}, "initial": "shown",
         "states": {"shown": {"initial": "closed", "states": {"closed": {"on": {"open": "open"}}, "open": {}}}}}


def test_a_description_shows_its_key_path_and_what_was_set(rt):
    fade = rt.basic("opacity", from_=1, to=0, duration=0.3, timing_function="easeIn")
    assert repr(fade) == f"<BasicAnimation 'opacity' from_=1.0 to=0.0 duration=0.3 timing_function='easeIn' {fade.id:#x}>"
    # What was not set is left out: no duration (0 is the 0.25 s default), no from_.
    slide = rt.basic("position", to=(160, 60))
    assert repr(slide) == f"<BasicAnimation 'position' to=(160.0, 60.0) {slide.id:#x}>"
    spin = rt.basic("transform.rotation.z", by=math.pi, repeat_count=math.inf)
    assert repr(spin) == f"<BasicAnimation 'transform.rotation.z' by={math.pi!r} repeat_count=inf {spin.id:#x}>"
    # A change after creation shows too: the repr reads the description as it is now.
    fade.duration = 0.5
    fade.to_value = None
    assert repr(fade) == f"<BasicAnimation 'opacity' from_=1.0 duration=0.5 timing_function='easeIn' {fade.id:#x}>"


def test_a_description_shows_the_options_that_differ_from_their_defaults(rt):
    """An option left out of the repr read as its default: a fill mode set to hold the last frame
    looked the same as one that removes it."""
    hold = rt.basic("opacity", to=0, fill_mode="both", removed_on_completion=False)
    assert repr(hold) == f"<BasicAnimation 'opacity' to=0.0 removed_on_completion=False fill_mode='both' {hold.id:#x}>"
    pulse = rt.basic("transform.scale", to=1.2, duration=0.4, begin_time=2, speed=0.5, delay=0.1, autoreverses=True,
                     direction="alternate", timing_function="easeInEaseOut")
    assert repr(pulse) == (f"<BasicAnimation 'transform.scale' to=1.2 duration=0.4 begin_time=2.0 speed=0.5 delay=0.1 "
                           f"autoreverses=True direction='alternate' timing_function='easeInEaseOut' {pulse.id:#x}>")
    # Web Animations' zero counts, which repeat_count and duration cannot say.
    none = rt.basic("opacity", to=0, iterations=0, iteration_duration=0)
    assert repr(none) == f"<BasicAnimation 'opacity' to=0.0 iterations=0.0 iteration_duration=0.0 {none.id:#x}>"
    # Web Animations' count and duration, set last, replace Core Animation's: the repr shows what plays.
    twice = rt.basic("opacity", to=0, iterations=2)
    assert repr(twice) == f"<BasicAnimation 'opacity' to=0.0 iterations=2.0 {twice.id:#x}>"
    snap = rt.basic("opacity", to=0, duration=2, repeat_count=3)
    snap.configure(iteration_duration=0.5, iterations=2)
    assert repr(snap) == f"<BasicAnimation 'opacity' to=0.0 iterations=2.0 iteration_duration=0.5 {snap.id:#x}>"
    assert snap.duration == 0.0 and snap.iteration_duration == 0.5 and snap.repeat_count == 0.0  # replaced: unset
    played = rt.layer().add_animation(snap)
    rt.tick(0)
    assert played.computed_timing().active_duration == 1.0  # two iterations of 0.5 s, not three of 2 s
    snap.configure(duration=0.75, repeat_count=4)  # Core Animation's names, set last, replace them again
    assert repr(snap) == f"<BasicAnimation 'opacity' to=0.0 duration=0.75 repeat_count=4.0 {snap.id:#x}>"
    assert snap.iterations == 4.0 and snap.iteration_duration == 0.75
    # Set back to its default, an option is left out again; a group shows its own.
    hold.configure(fill_mode="removed", removed_on_completion=True)
    assert repr(hold) == f"<BasicAnimation 'opacity' to=0.0 {hold.id:#x}>"
    pop = rt.group([hold], duration=0.3, fill_mode="forwards", removed_on_completion=False)
    assert repr(pop) == f"<AnimationGroup children=1 duration=0.3 removed_on_completion=False fill_mode='forwards' {pop.id:#x}>"


def test_springs_keyframes_decays_and_groups_show_their_own_settings(rt):
    drop = rt.spring("position.y", from_=-40, to=60, damping=12, stiffness=180)
    assert repr(drop) == (f"<SpringAnimation 'position.y' from_=-40.0 to=60.0 stiffness=180.0 damping=12.0 "
                          f"duration='settling' {drop.id:#x}>")
    drop.duration = 0.5  # now cut off there
    assert "duration=0.5 " in repr(drop) and "settling" not in repr(drop)
    blink = rt.keyframe("opacity", [1, 0, 1, 0.5, 0.25, 0], key_times=[0, 0.1, 0.2, 0.3, 0.4, 1],
                        calculation_mode="cubicPaced", duration=2)
    assert repr(blink) == (f"<KeyframeAnimation 'opacity' values=[1.0, 0.0, 1.0, 0.5, ...] "
                           f"key_times=[0.0, 0.1, 0.2, 0.3, ...] calculation_mode='cubicPaced' duration=2.0 "
                           f"{blink.id:#x}>")
    bounce = rt.keyframe("position.y", [0, 40, 0], timing_functions=["easeOut", (0.2, 0, 0, 1)])
    assert repr(bounce) == (f"<KeyframeAnimation 'position.y' values=[0.0, 40.0, 0.0] "
                            f"timing_functions=['easeOut', 'cubic-bezier(0.2, 0.0, 0.0, 1.0)'] {bounce.id:#x}>")
    # A negative bounce lets the spring overdamp, and says so.
    sink = rt.spring("opacity", to=0, duration=0.5, bounce=-0.3)
    assert "allows_overdamping=True duration=0.5" in repr(sink)
    assert "allows_overdamping" not in repr(rt.spring("opacity", to=0, duration=0.5, bounce=0.3))
    fly = rt.keyframe("position", path=[("M", 0, 0), ("L", 100, 0)])
    assert repr(fly) == f"<KeyframeAnimation 'position' path=[('M', 0, 0), ('L', 100, 0)] {fly.id:#x}>"
    fling = rt.decay("position", (800, -300), deceleration_rate=0.99)
    assert repr(fling) == f"<DecayAnimation 'position' velocity=(800.0, -300.0) deceleration_rate=0.99 {fling.id:#x}>"
    pop = rt.group([rt.basic("opacity", to=1), drop], duration=0.3)
    assert repr(pop) == f"<AnimationGroup children=2 duration=0.3 {pop.id:#x}>"


def test_a_description_destroyed_or_in_a_closed_runtime_prints_what_is_still_known():
    rt = animrt.Runtime()
    fade = rt.basic("opacity", from_=1, to=0, duration=0.3)
    gone = rt.basic("opacity", to=1, duration=2)
    gone.destroy()
    assert repr(gone) == f"<BasicAnimation 'opacity' to=1.0 (destroyed) {gone.id:#x}>"
    rt.close()
    # The duration lives in the library, gone with the runtime: left out, and said why.
    assert repr(fade) == f"<BasicAnimation 'opacity' from_=1.0 to=0.0 (runtime closed) {fade.id:#x}>"


def test_an_attached_animation_shows_its_layer_and_how_far_it_is(rt):
    toast = rt.layer()
    fade = rt.basic("opacity", from_=1, to=0, duration=1)
    out = toast.add_animation(fade, key="out")
    head = f"<AttachedAnimation 'out' of opacity on layer {toast.id:#x}"
    assert repr(out) == f"{head} idle {out.id:#x}>"  # not begun: its begin time is stamped at the next tick
    rt.tick(0)
    rt.tick(0.25)
    assert repr(out) == f"{head} active progress=0.25 {out.id:#x}>"
    assert out.computed_timing().progress == 0.25  # the repr read nothing it keeps: the object works as before
    anonymous = toast.add_animation(rt.basic("position.x", to=5, duration=1))
    assert repr(anonymous).startswith(f"<AttachedAnimation of position.x on layer {toast.id:#x} ")
    rt.tick(1.5)
    assert repr(out) == f"{head} stopped {out.id:#x}>"
    assert out.key == "out" and out.layer is toast


def test_reprs_never_raise_once_the_runtime_is_closed():
    rt = animrt.Runtime()
    layer = rt.layer()
    attached = layer.add_animation(rt.basic("opacity", to=0, duration=1), key="k")
    m = rt.machine(rt.definition(TOGGLE))
    rt.tick(0)
    assert repr(m) == f"<Machine {m.id:#x} toggle state='off'>"  # the name is read once, and kept
    rt.close()
    assert repr(attached) == f"<AttachedAnimation 'k' of opacity on layer {layer.id:#x} stopped {attached.id:#x}>"
    assert repr(m) == f"<Machine {m.id:#x} toggle>"  # no state: it went with the runtime


def test_a_definition_and_its_machine_never_printed_keep_their_name_once_the_runtime_is_closed():
    """The name is read from the library when first asked for: closing the runtime reads it first,
    so a repr printed afterwards (a log line, a traceback) still names the machine."""
    with animrt.Runtime() as rt:
        toggle = rt.definition(TOGGLE)
        m = rt.machine(rt.definition(PANEL))  # its definition is held only by the machine
    assert repr(toggle) == f"<Definition 'toggle' {toggle.id:#x}>"
    assert repr(m) == f"<Machine {m.id:#x} panel>"
    assert toggle.name == "toggle" and m.definition.name == "panel"


def test_a_machine_shows_its_state_configuration(rt):
    toggle = rt.machine(rt.definition(TOGGLE))
    assert repr(toggle) == f"<Machine {toggle.id:#x} toggle state='off'>"
    toggle.send("tap")
    assert repr(toggle) == f"<Machine {toggle.id:#x} toggle state='on'>"
    panel = rt.machine(rt.definition(PANEL))
    assert repr(panel) == f"<Machine {panel.id:#x} panel state='shown.closed'>"
    panel.send("open")
    assert repr(panel) == f"<Machine {panel.id:#x} panel state='shown.open'>"
    toggle.destroy()
    assert repr(toggle) == f"<Machine {toggle.id:#x} toggle (destroyed)>"


def test_a_machines_events_print_the_machine_without_its_live_state(rt):
    """An event is printed after it happened, when the machine may be elsewhere: its states are
    from_state and to_state, and the machine is shown by name only."""
    toggle = rt.machine(rt.definition(TOGGLE))
    rt.tick(0)
    rt.events()
    rt.tick(0.5)
    toggle.send("tap")
    rt.tick(1)
    toggle.send("tap")  # back in 'off' before the events are printed
    rt.tick(1.5)
    first, second = rt.events()
    assert repr(first) == (f"StateChanged(time=0.5, machine=<Machine {toggle.id:#x} toggle>, from_state='off', "
                           "to_state='on', values={})")
    assert repr(second) == (f"StateChanged(time=1.0, machine=<Machine {toggle.id:#x} toggle>, from_state='on', "
                            "to_state='off', values={})")
    assert repr(toggle) == f"<Machine {toggle.id:#x} toggle state='off'>"  # the machine's own repr still shows it


def test_an_animation_event_prints_the_attached_animation_once(rt):
    """The attached animation's repr names its key, key path and layer: the description it was added
    from (``event.animation``) is not printed beside it."""
    layer = rt.layer()
    attached = layer.add_animation(rt.basic("opacity", to=0.0, duration=1.0), key="out")
    rt.tick(0.0)
    rt.tick(2.0)
    started, stopped = rt.events()
    assert repr(started) == f"AnimationStarted(time=0.0, layer=<Layer {layer.id:#x}>, attached={attached!r})"
    assert repr(stopped) == (f"AnimationStopped(time=2.0, layer=<Layer {layer.id:#x}>, attached={attached!r}, "
                             "reason=<StopReason.FINISHED: 0>)")
    assert repr(attached) == f"<AttachedAnimation 'out' of opacity on layer {layer.id:#x} stopped {attached.id:#x}>"


def test_an_attached_animations_progress_is_shown_to_four_places(rt):
    third = rt.layer().add_animation(rt.basic("opacity", to=0.0, duration=3.0))
    rt.tick(0.0)
    rt.tick(1.0)
    assert repr(third).endswith(f" active progress=0.3333 {third.id:#x}>")


def test_a_critically_damped_spring_does_not_show_allows_overdamping(rt):
    # At a damping ratio of exactly 1 the flag changes nothing (critical damping either way); above it, it does.
    critical = rt.spring("opacity", to=0.0, stiffness=100, damping=20, allows_overdamping=True, duration=0.5)
    assert repr(critical) == f"<SpringAnimation 'opacity' to=0.0 damping=20.0 duration=0.5 {critical.id:#x}>"
    over = rt.spring("opacity", to=0.0, stiffness=100, damping=20.5, allows_overdamping=True, duration=0.5)
    assert "damping=20.5 allows_overdamping=True duration=0.5" in repr(over)
    # Set by the factory or the property, not only by a negative bounce, it is shown where it changes the curve.
    later = rt.spring("opacity", to=0.0, damping=25, duration=0.5)
    assert "allows_overdamping" not in repr(later)
    later.allows_overdamping = True
    assert "damping=25.0 allows_overdamping=True duration=0.5" in repr(later)


def test_a_machine_repr_changes_nothing(rt):
    """Reading the state for the repr sends nothing and queues no event."""
    toggle = rt.machine(rt.definition(TOGGLE))
    rt.tick(0)
    rt.events()
    for _ in range(3):
        repr(toggle)
    rt.tick(0.1)
    assert rt.events() == [] and toggle.state == "off"


@pytest.fixture
def rt():
    with animrt.Runtime() as runtime:
        yield runtime


def test_a_machines_animations_print_what_the_library_holds():
    """A machine adds animations the program never described: their stand-ins print what can be read."""
    with animrt.Runtime() as rt:
        m = rt.machine(rt.definition(named="networkButton"))
        m.send("tap")
        rt.tick(0)
        rt.tick(0.1)
        started = [e for e in rt.events() if isinstance(e, animrt.AnimationStarted)]
        first = started[0]
        # No description: nothing read, nothing claimed, and no handle 0 printed as if it were one.
        assert repr(first.animation) == "<Animation (added by a machine: no description handle)>"
        assert repr(first.attached).startswith(f"<AttachedAnimation 'shape' on layer {first.layer.id:#x} active ")
        m.destroy()
        assert repr(first.attached) == f"<AttachedAnimation 'shape' on layer {first.layer.id:#x} {first.attached.id:#x}>"


def test_a_barrier_shows_its_count(rt):
    toast = rt.layer()
    arrived = rt.barrier()
    assert repr(arrived) == f"<Barrier count=0 {arrived.id:#x}>"
    toast.add_animation(rt.basic("opacity", to=0, duration=1), key="out", barrier=arrived)
    toast.add_animation(rt.basic("position.x", to=9, duration=2), key="slide", barrier=arrived)
    assert repr(arrived) == f"<Barrier count=2 {arrived.id:#x}>"
    rt.tick(0)
    rt.tick(1.5)
    assert repr(arrived) == f"<Barrier count=1 {arrived.id:#x}>"
    arrived.destroy()
    assert repr(arrived) == f"<Barrier (destroyed) {arrived.id:#x}>"


def test_a_barrier_of_a_closed_runtime_prints_without_asking_the_library():
    rt = animrt.Runtime()
    arrived = rt.barrier()
    arrived.enter()
    rt.close()
    assert repr(arrived) == f"<Barrier (runtime closed) {arrived.id:#x}>"


def test_a_timer_shows_its_token_and_whether_it_is_pending_fired_or_cancelled():
    rt = animrt.Runtime()
    ping = rt.start_timer(0.5, token=42)
    hide = rt.start_timer(0.5, lambda: None)
    late = rt.start_timer(5, token=7)
    never = rt.start_timer(5)
    assert repr(ping) == f"<Timer token=42 pending {ping.id:#x}>"
    assert repr(hide) == f"<Timer pending {hide.id:#x}>"  # a callback: no token to show
    rt.tick(0)
    rt.tick(1)
    assert repr(ping) == f"<Timer token=42 fired {ping.id:#x}>"  # before its event is read, too
    assert repr(hide) == f"<Timer fired {hide.id:#x}>"
    assert late.cancel()
    assert repr(late) == f"<Timer token=7 cancelled {late.id:#x}>"
    assert not ping.cancel()  # it fired: cancelling now is too late, and says so
    assert repr(ping) == f"<Timer token=42 fired {ping.id:#x}>"
    rt.close()
    assert repr(never) == f"<Timer (runtime closed) {never.id:#x}>"  # pending no more: it will never fire
    assert repr(late) == f"<Timer token=7 cancelled {late.id:#x}>"


def test_a_layer_says_when_calls_on_it_would_raise():
    rt = animrt.Runtime()
    toast, badge = rt.layer(), rt.layer()
    assert repr(toast) == f"<Layer {toast.id:#x}>"
    toast.destroy()
    assert repr(toast) == f"<Layer (destroyed) {toast.id:#x}>"
    assert repr(badge) == f"<Layer {badge.id:#x}>"
    rt.close()
    assert repr(badge) == f"<Layer (runtime closed) {badge.id:#x}>"


def test_a_transaction_shows_whether_it_is_open_and_its_duration(rt):
    slow = rt.transaction(animation_duration=0.5)
    assert repr(slow) == "<Transaction (not begun) animation_duration=0.5>"
    with slow:
        assert repr(slow) == f"<Transaction open animation_duration=0.5 {slow.id:#x}>"
    assert repr(slow) == f"<Transaction committed animation_duration=0.5 {slow.id:#x}>"
    with rt.transaction() as plain:
        assert repr(plain) == f"<Transaction open {plain.id:#x}>"


def _half_made(error: BaseException, kind: type) -> object:
    """The `self` of the constructor frame that raised `error`: what a debugger or a traceback's
    locals show."""
    tb = error.__traceback__
    while tb is not None:
        candidate = tb.tb_frame.f_locals.get("self")
        if isinstance(candidate, kind):
            return candidate
        tb = tb.tb_next
    raise AssertionError(f"no {kind.__name__} in the traceback")


def test_an_object_whose_constructor_raised_prints_as_not_made(rt):
    # Each one's constructor refused its arguments before the object was whole.
    with pytest.raises(animrt.RangeError) as runtime:
        animrt.Runtime(threads=-1)
    half = _half_made(runtime.value, animrt.Runtime)
    assert repr(half) == "<Runtime (not made)>"
    with pytest.raises(AttributeError) as closed:
        half.closed  # a property whose attributes were never set: said, not "did you mean 'closed'"
    assert str(closed.value) == ("Runtime.closed cannot be read: the object is not whole "
                                 "(its constructor raised before it set what this reads)")
    with pytest.raises(animrt.AnimrtError) as machine:
        rt.machine(rt.definition(TOGGLE), config={"width": 1})
    assert repr(_half_made(machine.value, animrt.Machine)) == "<Machine (not made)>"
    # Every class of objects a runtime makes says so, whatever its constructor set.
    for kind in (animrt.Layer, animrt.BasicAnimation, animrt.SpringAnimation, animrt.KeyframeAnimation,
                 animrt.DecayAnimation, animrt.AnimationGroup, animrt.AttachedAnimation, animrt.AnimationCopy,
                 animrt.Barrier, animrt.Timer, animrt.Machine, animrt.Definition, animrt.Plugin, animrt.Function,
                 animrt.Reader, animrt.Runtime):
        assert repr(kind.__new__(kind)) == f"<{kind.__name__} (not made)>"
    # Made, they print as before.
    layer = rt.layer()
    assert repr(layer).startswith("<Layer ") and "not made" not in repr(layer)
