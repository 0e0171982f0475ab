"""layer.add_animation(..., on_finish=fn): Core Animation's animationDidStop(_:finished:), per animation.

It is called exactly once, with True when the animation reached its end and False when it stopped
early, on the thread that ticks, at the tick that reports the stop, before the AnimationStopped event
(which is still reported); a stop that close() causes calls it inside close()."""
import gc
import signal
import threading
import warnings

import pytest

import animrt
from animrt import AnimationStopped, Overflow, StopReason


@pytest.fixture
def rt():
    with animrt.Runtime() as runtime:
        yield runtime


def test_it_runs_once_with_true_at_the_tick_the_animation_ends(rt):
    toast = rt.layer()
    calls = []
    out = toast.add_animation(rt.basic("opacity", to=0, duration=0.3), key="out",
                              on_finish=lambda finished: calls.append((finished, rt.time)))
    assert out.on_finish is not None
    rt.tick(0)
    rt.tick(0.2)
    assert calls == []
    rt.tick(0.4)
    assert calls == [(True, 0.4)]
    stops = [e for e in rt.events() if isinstance(e, AnimationStopped)]
    assert [(e.attached, e.finished) for e in stops] == [(out, True)]  # the event is still reported
    rt.tick(1.0)
    rt.tick(2.0)
    assert calls == [(True, 0.4)]  # once
    assert rt._finishing == {}  # nothing kept for it


@pytest.mark.parametrize("stop, reason", [
    (lambda layer, rt: layer.remove_animation("k"), StopReason.REMOVED),
    (lambda layer, rt: layer.remove_all_animations(), StopReason.REMOVED),
    (lambda layer, rt: layer.add_animation(rt.basic("opacity", to=1), key="k"), StopReason.REPLACED),
    (lambda layer, rt: layer.destroy(), StopReason.LAYER_DESTROYED),
])
def test_a_stop_before_the_end_gives_false_at_the_next_tick(rt, stop, reason):
    layer = rt.layer()
    calls = []
    layer.add_animation(rt.basic("opacity", to=0, duration=5), key="k", on_finish=calls.append)
    rt.tick(0)
    stop(layer, rt)
    assert calls == []  # completions run where the ticking thread delivers them, not inside the call
    rt.tick(0.1)
    assert calls == [False]
    (stopped,) = [e for e in rt.events() if isinstance(e, AnimationStopped) and e.key == "k" and e.reason == reason]
    assert not stopped.finished


def test_it_runs_before_the_stop_event_reaches_the_handler_and_may_add_more(rt):
    layer = rt.layer()
    seen = []
    rt.on_event(lambda e: seen.append(("event", type(e).__name__, e.key)))

    def second(finished):
        seen.append(("second", finished))

    def first(finished):
        seen.append(("first", finished))
        layer.add_animation(rt.basic("opacity", to=1, duration=0.1), key="b", on_finish=second)

    layer.add_animation(rt.basic("opacity", to=0, duration=0.1), key="a", on_finish=first)
    for t in (0.0, 0.2, 0.25, 0.4):
        rt.tick(t)
    assert seen == [("event", "AnimationStarted", "a"), ("first", True), ("event", "AnimationStopped", "a"),
                    ("event", "AnimationStarted", "b"), ("second", True), ("event", "AnimationStopped", "b")]


def test_it_runs_on_the_thread_that_ticks():
    rt = animrt.Runtime()
    threads = []
    rt.layer().add_animation(rt.basic("opacity", to=0, duration=0.1),
                             on_finish=lambda finished: threads.append(threading.get_ident()))
    ticker = threading.Thread(target=lambda: [rt.tick(t) for t in (0.0, 0.5)])
    ticker.start()
    ticker.join()
    assert threads == [ticker.ident]
    rt.close()


def test_close_calls_it_with_false_inside_close():
    rt = animrt.Runtime()
    layer = rt.layer()
    calls = []
    layer.add_animation(rt.basic("opacity", to=0, duration=5), on_finish=lambda f: calls.append(("running", f)))
    removed = layer.add_animation(rt.basic("position.x", to=9, duration=5), key="x",
                                  on_finish=lambda f: calls.append(("removed", f)))
    rt.tick(0)
    layer.remove_animation("x")  # stopped, its event not delivered yet: close() delivers it
    rt.close()
    assert sorted(calls) == [("removed", False), ("running", False)]
    assert removed.on_finish is not None


def test_an_exception_is_raised_by_the_tick_once_everything_is_delivered(rt):
    layer = rt.layer()
    calls = []

    def broken(finished):
        raise ValueError("boom")

    layer.add_animation(rt.basic("opacity", to=0, duration=0.1), key="broken", on_finish=broken)
    layer.add_animation(rt.basic("position.x", to=1, duration=0.1), key="fine", on_finish=calls.append)
    rt.tick(0)
    with pytest.raises(ValueError, match="boom"):
        rt.tick(0.5)
    assert calls == [True]  # the other callable still ran
    stops = [e.key for e in rt.events() if isinstance(e, AnimationStopped)]
    assert stops == ["broken", "fine"]  # and both events were delivered
    rt.tick(1.0)  # and it is not run again
    assert calls == [True]


def test_later_exceptions_of_a_tick_are_named_in_notes_on_the_first(rt):
    layer = rt.layer()
    arrived = rt.barrier()

    def broken(finished):
        raise ValueError("boom")

    attached = layer.add_animation(rt.basic("opacity", to=0, duration=0.1), key="broken", on_finish=broken,
                                   barrier=arrived)
    arrived.notify(lambda: 1 / 0)
    with rt.transaction(on_complete=lambda: {}["gone"]) as transaction:
        layer.add_animation(rt.basic("position.x", to=1, duration=0.1), key="moved")
    rt.tick(0)
    with pytest.raises(ValueError, match="boom") as e:
        rt.tick(0.5)
    # each names what raised it: the traceback shows the code, the note which animation it ran for
    assert e.value.__notes__ == [
        f"raised by the on_finish of <AttachedAnimation 'broken' of opacity on layer {layer.id:#x} stopped "
        f"{attached.id:#x}> (finished=True)",
        "then a callable of the same call raised ZeroDivisionError: division by zero, "
        f"from the completion given to notify() of <Barrier count=0 {arrived.id:#x}>",
        "then a callable of the same call raised KeyError: 'gone', "
        f"from the on_complete of <Transaction committed {transaction.id:#x}>"]


def test_later_exceptions_at_close_are_named_in_notes_on_the_first():
    rt = animrt.Runtime()
    layer = rt.layer()
    fade = layer.add_animation(rt.basic("opacity", to=0, duration=5), on_finish=lambda f: 1 / 0)
    slide = layer.add_animation(rt.basic("position.x", to=1, duration=5), on_finish=lambda f: [][1])
    rt.tick(0)
    with pytest.raises(ZeroDivisionError) as e:
        rt.close()
    # anonymous: named by their key paths, layer and handles
    assert e.value.__notes__ == [
        f"raised by the on_finish of <AttachedAnimation of opacity on layer {layer.id:#x} stopped {fade.id:#x}> "
        "(finished=False)",
        "then a callable of the same call raised IndexError: list index out of range, from the on_finish of "
        f"<AttachedAnimation of position.x on layer {layer.id:#x} stopped {slide.id:#x}> (finished=False)"]


def test_an_exception_at_close_is_raised_by_close_after_every_stop_is_delivered():
    rt = animrt.Runtime()
    layer = rt.layer()
    calls = []
    layer.add_animation(rt.basic("opacity", to=0, duration=5), on_finish=lambda f: 1 / 0)
    layer.add_animation(rt.basic("position.x", to=1, duration=5), on_finish=calls.append)
    rt.tick(0)
    with pytest.raises(ZeroDivisionError):
        rt.close()
    assert calls == [False] and rt.closed
    rt.close()  # idempotent: the exception was raised once


def test_an_exception_at_a_with_blocks_close_is_noted_on_the_one_leaving_the_block():
    # The block's own exception is the one raised; what an on_finish raised as the block's end closed
    # the runtime is named on it, not dropped without a word.
    with pytest.raises(KeyError) as e:
        with animrt.Runtime() as rt:
            layer = rt.layer()
            fade = layer.add_animation(rt.basic("opacity", to=0, duration=5), on_finish=lambda f: 1 / 0)
            rt.tick(0)
            raise KeyError("no view for it")
    assert e.value.__notes__ == [
        "then, as the with block closed the runtime, a callable raised ZeroDivisionError: division by zero, from "
        f"the on_finish of <AttachedAnimation of opacity on layer {layer.id:#x} stopped {fade.id:#x}> (finished=False)"]
    assert rt.closed
    # Ctrl-C in one is raised as itself, the block's exception as its context
    with pytest.raises(KeyboardInterrupt) as interrupted:
        with animrt.Runtime() as rt:
            rt.layer().add_animation(rt.basic("opacity", to=0, duration=5), on_finish=lambda f: signal.raise_signal(
                signal.SIGINT))
            rt.tick(0)
            raise KeyError("no view for it")
    assert isinstance(interrupted.value.__context__, KeyError) and rt.closed


def test_an_exception_names_the_animation_whose_on_finish_raised(rt):
    # one callable shared by many animations: the traceback shows its code, the note which animation
    toast, badge = rt.layer(), rt.layer()
    calls = []

    def done(finished):
        calls.append(finished)
        if len(calls) == 2:
            raise RuntimeError("no view for it")

    toast.add_animation(rt.basic("opacity", to=0, duration=0.1), key="fade", on_finish=done)
    slide = badge.add_animation(rt.basic("position.x", to=9, duration=0.2), key="slide", on_finish=done)
    toast.add_animation(rt.basic("position.y", to=9, duration=0.3), key="drop", on_finish=done)
    rt.tick(0)
    rt.tick(0.1)
    with pytest.raises(RuntimeError) as e:
        rt.tick(0.2)
    assert e.value.__notes__ == [f"raised by the on_finish of <AttachedAnimation 'slide' of position.x on layer "
                                 f"{badge.id:#x} stopped {slide.id:#x}> (finished=True)"]
    rt.tick(0.3)  # the others are not affected
    assert calls == [True, True, True]


def test_an_on_finish_of_a_stop_lost_to_an_overflow_is_named_too():
    with animrt.Runtime(event_capacity=16) as rt:
        _flood(rt, 40, 0.1)
        layer = rt.layer()
        late = layer.add_animation(rt.basic("opacity", to=0, duration=0.1), key="late", on_finish=lambda f: 1 / 0)
        rt.tick(0)
        with pytest.raises(ZeroDivisionError) as e:
            rt.tick(0.1)
        assert e.value.__notes__ == [f"raised by the on_finish of <AttachedAnimation 'late' of opacity on layer "
                                     f"{layer.id:#x} stopped {late.id:#x}> (finished=False)"]


def test_a_timers_callback_that_raises_is_named_with_its_delay(rt):
    rt.tick(0)
    fine, broken = [], rt.start_timer(0.5, lambda: [][0])
    rt.start_timer(0.25, lambda: fine.append(1))
    with pytest.raises(IndexError) as e:
        rt.tick(1)
    assert e.value.__notes__ == [f"raised by the callback of <Timer fired {broken.id:#x}>, started with a delay of 0.5 s"]
    assert fine == [1]


def test_a_timers_callback_whose_event_was_lost_is_named_too():
    with animrt.Runtime(event_capacity=16) as rt:
        _flood(rt, 40, 0.1)
        broken = rt.start_timer(0.1, lambda: [][0])
        rt.tick(0)
        with pytest.raises(IndexError) as e:
            rt.tick(0.1)
        assert isinstance(rt.events()[-1], Overflow)
        assert e.value.__notes__ == [f"raised by the callback of <Timer fired {broken.id:#x}>, "
                                     "started with a delay of 0.1 s"]


def test_an_on_event_handler_that_raises_is_named_with_the_event(rt):
    layer = rt.layer()
    fade = rt.basic("opacity", to=0, duration=0.1)
    attached = layer.add_animation(fade, key="fade")

    def handler(event):
        if isinstance(event, AnimationStopped):
            raise LookupError("no such view")

    rt.on_event(handler)
    rt.tick(0)
    with pytest.raises(LookupError) as e:
        rt.tick(0.1)
    stop = AnimationStopped(0.1, layer, fade, attached, StopReason.FINISHED)
    assert e.value.__notes__ == [f"raised by the on_event handler, given {stop!r}"]
    assert "'fade' of opacity" in e.value.__notes__[0]


def test_an_on_event_handler_that_raises_at_close_is_named_with_the_event():
    rt = animrt.Runtime()
    layer = rt.layer()
    fade = rt.basic("opacity", to=0, duration=5)
    attached = layer.add_animation(fade, key="fade", on_finish=lambda f: None)
    rt.tick(0)
    rt.events()
    rt.on_event(lambda event: 1 / 0)
    with pytest.raises(ZeroDivisionError) as e:
        rt.close()
    stop = AnimationStopped(0.0, layer, fade, attached, StopReason.RUNTIME_DESTROYED)
    assert e.value.__notes__ == [f"raised by the on_event handler, given {stop!r}"]


def test_an_exception_leaving_the_with_block_is_the_one_seen():
    calls = []
    with pytest.raises(KeyError, match="the block's own"):
        with animrt.Runtime() as rt:
            layer = rt.layer()
            layer.add_animation(rt.basic("opacity", to=0, duration=5), on_finish=lambda f: 1 / 0)
            layer.add_animation(rt.basic("position.x", to=1, duration=5), on_finish=calls.append)
            raise KeyError("the block's own")
    assert calls == [False]


def test_a_bad_on_finish_is_refused_and_nothing_is_attached(rt):
    layer = rt.layer()
    with pytest.raises(animrt.ArgumentTypeError, match="on_finish is 'done' .a str.; it must be a callable taking "
                                                       "one argument, finished"):
        layer.add_animation(rt.basic("opacity", to=0), key="k", on_finish="done")
    assert layer.animation_keys() == [] and rt._finishing == {}


def test_without_on_finish_nothing_waits_at_close():
    """A runtime closed with no on_finish pending and no handler does not call back into Python."""
    rt = animrt.Runtime()
    layer = rt.layer()
    layer.add_animation(rt.basic("opacity", to=0, duration=5))
    assert rt._on_destroy == []
    rt.close()


# -- when the library's event queue overflows -------------------------------------------------
# A full queue counts the events it cannot hold and reports them as one Overflow: a lost
# AnimationStopped must not lose its on_finish. It is still called once, at the tick whose events
# overflowed, just before the Overflow event. With True when the binding can tell that the
# animation finished: it is still attached (not removed on completion) and has played to its end,
# and nothing else stops an animation and leaves it attached. With False when the library no longer
# holds it: it finished and was removed on completion, or it was removed, replaced or its layer
# destroyed, and which of these it was is in the event that was lost.

def _flood(rt, n, duration):
    """n animations on layers of their own (bulk-added: no Python object each), all stopping together."""
    rt.add_animations(rt.basic("opacity", to=0, duration=duration), rt.create_layers(n))


def test_a_stop_lost_to_an_overflowing_queue_still_calls_on_finish_once():
    with animrt.Runtime(event_capacity=16) as rt:
        seen = []
        rt.on_event(lambda e: seen.append(type(e).__name__))
        _flood(rt, 40, 0.1)
        late = rt.layer().add_animation(rt.basic("opacity", to=0, duration=0.1),
                                        on_finish=lambda finished: seen.append(("on_finish", finished)))
        rt.tick(0)  # its start is lost in the flood: nothing to call yet
        assert ("on_finish", False) not in seen
        seen.clear()
        rt.tick(0.1)  # its stop is lost too
        assert seen.count(("on_finish", False)) == 1 and seen[-2:] == [("on_finish", False), "Overflow"]
        assert rt._finishing == {} and rt._attached == {} and late.on_finish is not None
        rt.tick(1.0)
        assert seen.count(("on_finish", False)) == 1


def test_an_overflow_leaves_the_callables_of_animations_still_running_alone():
    with animrt.Runtime(event_capacity=16) as rt:
        calls = []
        rt.layer().add_animation(rt.basic("opacity", to=0, duration=5), on_finish=calls.append)
        _flood(rt, 40, 0.1)
        rt.tick(0)
        rt.tick(0.1)
        assert calls == [] and len(rt._finishing) == 1  # it still runs: its stop will come
        assert isinstance(rt.events()[-1], Overflow)
        rt.tick(5)
        assert calls == [True] and [e.finished for e in rt.events()] == [True]


def test_a_lost_stop_of_an_animation_left_attached_at_its_end_says_finished():
    with animrt.Runtime(event_capacity=16) as rt:
        calls = []
        _flood(rt, 40, 0.1)
        # played backwards (speed -1), from its end: it reaches its start at 0.1. Its stops come
        # before the batch's: more of them, so that the one watched below is lost too.
        backwards = rt.basic("opacity", from_=1, to=0, duration=0.1, speed=-1, fill_mode="both",
                             removed_on_completion=False)
        for _ in range(20):
            rt.layer().add_animation(backwards)
        ahead = rt.layer()
        kept = ahead.add_animation(rt.basic("opacity", to=0, duration=0.1, fill_mode="forwards",
                                            removed_on_completion=False), key="kept",
                                   on_finish=lambda f: calls.append(("kept", f)))
        rt.layer().add_animation(rt.basic("opacity", to=0, duration=0.1),
                                 on_finish=lambda f: calls.append(("gone", f)))
        back = rt.layer().add_animation(backwards, on_finish=lambda f: calls.append(("back", f)))
        rt.layer().add_animation(rt.basic("opacity", to=0, duration=5, removed_on_completion=False),
                                 on_finish=lambda f: calls.append(("running", f)))
        rt.tick(0)
        assert calls == []
        rt.tick(0.1)
        assert calls == [("kept", True), ("gone", False), ("back", True)]
        assert isinstance(rt.events()[-1], Overflow)
        # the binding read them, it did not guess: still attached, where they ended
        assert ahead.animation("kept") is kept and ahead.presentation("opacity") == 0.0
        assert back.computed_timing().phase is animrt.Phase.BEFORE
        assert len(rt._finishing) == 1  # the one still running
        rt.tick(5)
        assert calls[3:] == [("running", True)]


def test_a_lost_stop_under_a_layer_whose_time_turned_back_within_the_tick_says_finished():
    # The layer plays 0 → 2 → 0 every 4 s. Ticks at 0.5 and 1.5 show the fade (layer time 0.25 to 1.75)
    # mid-way; the tick at 2.5 shows layer time 1.5, mid-way again, but the layer passed 1.75 (at 1.75)
    # and turned at 2: the fade finished in that tick and stays attached. Its stop is lost in the flood.
    with animrt.Runtime(event_capacity=16) as rt:
        calls = []
        # 20 starts at 2.5 (autoreversing: not the batch's, so their events come first), on layers
        # made before the fade's, so that the fade's stop is lost too
        early = rt.basic("opacity", to=0, begin_time=2.4, duration=1, autoreverses=True)
        for _ in range(20):
            rt.layer().add_animation(early)
        turning = rt.layer()
        turning.configure_timing(duration=2.0, autoreverses=True, repeat_count=float("inf"))
        fade = turning.add_animation(rt.basic("opacity", from_=0, to=1, begin_time=0.25, duration=1.5,
                                              fill_mode="forwards", removed_on_completion=False),
                                     key="fade", on_finish=lambda f: calls.append(("fade", f)))
        rt.tick(0.5)
        rt.tick(1.5)
        assert calls == [] and fade.lifecycle() is animrt.Lifecycle.STARTED
        rt.tick(2.5)
        assert calls == [("fade", True)]
        assert isinstance(rt.events()[-1], Overflow) and rt._finishing == {}
        # mid-way by its phase, finished by its lifecycle
        assert fade.computed_timing().phase is animrt.Phase.ACTIVE
        assert fade.lifecycle() is animrt.Lifecycle.FINISHED and turning.animation("fade") is fade
        rt.tick(4.5)  # the early ones stop (at 4.4)
        assert calls == [("fade", True)] and isinstance(rt.events()[-1], Overflow)  # 20 stops overflow
        rt.tick(5.75)  # the layer passes 1.75 again: no second stop, no second call
        assert calls == [("fade", True)] and rt.events() == []
        assert fade.lifecycle() is animrt.Lifecycle.FINISHED


def test_lifecycle_follows_the_started_and_stopped_events():
    with animrt.Runtime() as rt:
        layer = rt.layer()
        kept = layer.add_animation(rt.basic("opacity", to=0, begin_time=1, duration=1, fill_mode="forwards",
                                            removed_on_completion=False))
        gone = layer.add_animation(rt.basic("position.x", to=5, begin_time=1, duration=1))
        rt.tick(0)
        assert [kept.lifecycle(), gone.lifecycle()] == [animrt.Lifecycle.WAITING] * 2
        rt.tick(1.5)
        assert [type(e).__name__ for e in rt.events()] == ["AnimationStarted", "AnimationStarted"]
        assert [kept.lifecycle(), gone.lifecycle()] == [animrt.Lifecycle.STARTED] * 2
        rt.tick(2)
        assert [e.finished for e in rt.events()] == [True, True]
        assert kept.lifecycle() is animrt.Lifecycle.FINISHED
        with pytest.raises(animrt.HandleError):
            gone.lifecycle()  # removed on completion: the library no longer holds it


def test_stops_delivered_before_the_overflow_keep_their_finished_flag():
    with animrt.Runtime(event_capacity=16) as rt:
        calls = []
        rt.layer().add_animation(rt.basic("opacity", to=0, duration=0.1), on_finish=lambda f: calls.append(("first", f)))
        _flood(rt, 40, 0.1)
        rt.layer().add_animation(rt.basic("opacity", to=0, duration=0.1), on_finish=lambda f: calls.append(("last", f)))
        rt.tick(0)
        rt.tick(0.1)
        assert calls == [("first", True), ("last", False)]


def test_a_close_from_a_callable_before_the_overflow_is_read_still_tells_the_finished():
    # more stops than one poll holds (1,024): the overflow notice is in a later poll, which the
    # close, run by a callable of the first, takes away (the runtime is gone before it is read)
    with animrt.Runtime(event_capacity=1100) as rt:
        calls = []
        rt.layer().add_animation(rt.basic("opacity", to=0, duration=0.1), on_finish=lambda f: (calls.append(("first", f)),
                                                                                                rt.close()))
        _flood(rt, 1200, 0.1)
        rt.layer().add_animation(rt.basic("opacity", to=0, duration=0.1, fill_mode="forwards",
                                          removed_on_completion=False), on_finish=lambda f: calls.append(("kept", f)))
        rt.layer().add_animation(rt.basic("opacity", to=0, duration=0.1), on_finish=lambda f: calls.append(("gone", f)))
        rt.tick(0)
        rt.tick(0.1)
        assert sorted(calls) == [("first", True), ("gone", False), ("kept", True)]
        assert rt.closed and rt._finishing == {}


def test_a_close_from_another_thread_before_the_overflow_is_read_still_tells_the_finished():
    # the ticking thread is inside a callable of its first poll when another thread closes: the
    # close reads, while the runtime is still there, which animations waiting for their stop finished
    rt = animrt.Runtime(event_capacity=1100)
    calls, entered, release, raised = [], threading.Event(), threading.Event(), []

    def first(finished):
        calls.append(("first", finished))
        entered.set()
        release.wait(5)

    rt.layer().add_animation(rt.basic("opacity", to=0, duration=0.1), on_finish=first)
    _flood(rt, 1200, 0.1)
    rt.layer().add_animation(rt.basic("opacity", to=0, duration=0.1, fill_mode="forwards",
                                      removed_on_completion=False), on_finish=lambda f: calls.append(("kept", f)))
    rt.layer().add_animation(rt.basic("opacity", to=0, duration=0.1), on_finish=lambda f: calls.append(("gone", f)))
    rt.tick(0)

    def tick():
        try:
            rt.tick(0.1)
        except animrt.ClosedError as e:  # its next poll finds the runtime closed
            raised.append(e)

    ticking = threading.Thread(target=tick)
    ticking.start()
    assert entered.wait(5)
    rt.close()
    # called by the close, before it returns, though the ticking thread is still inside a callable
    assert sorted(calls) == [("first", True), ("gone", False), ("kept", True)] and rt._finishing == {}
    release.set()
    ticking.join(5)
    assert not ticking.is_alive()
    assert sorted(calls) == [("first", True), ("gone", False), ("kept", True)]
    assert rt.closed and rt._finishing == {}


def test_stops_lost_to_an_overflow_at_close_still_call_on_finish():
    rt = animrt.Runtime(event_capacity=16)
    calls = []
    _flood(rt, 40, 5)
    rt.layer().add_animation(rt.basic("opacity", to=0, duration=5), on_finish=calls.append)
    rt.tick(0)
    rt.close()
    assert calls == [False] and rt._finishing == {}


def test_stops_a_full_queue_lost_between_ticks_still_call_on_finish_at_close():
    # Stops that calls between ticks cause wait in the queue for the next tick. Here the queue
    # fills before it comes: the last stops are lost, and no tick reads the overflow. The close
    # delivers those queued (with their own flag), and calls the callables of the lost ones itself.
    rt = animrt.Runtime(event_capacity=16)
    calls = []
    early = rt.layer()
    early.add_animation(rt.basic("opacity", to=0, duration=5), on_finish=lambda f: calls.append(("early", f)))
    crowd = rt.layer()
    for _ in range(20):
        crowd.add_animation(rt.basic("opacity", to=0, duration=5))
    removed, destroyed = rt.layer(), rt.layer()
    removed.add_animation(rt.basic("opacity", to=0, duration=5), key="out",
                          on_finish=lambda f: calls.append(("removed", f)))
    destroyed.add_animation(rt.basic("opacity", to=0, duration=5), on_finish=lambda f: calls.append(("destroyed", f)))
    running = rt.layer()
    running.add_animation(rt.basic("opacity", to=0, duration=5), on_finish=lambda f: calls.append(("running", f)))
    rt.tick(0)
    rt.events()  # the starts (and their own overflow), read: the queue is empty
    early.remove_all_animations()  # queued
    crowd.remove_all_animations()  # fills the queue
    assert removed.remove_animation("out")  # lost
    destroyed.destroy()  # lost
    assert calls == [] and len(rt._finishing) == 4
    rt.close()
    assert sorted(calls) == [("destroyed", False), ("early", False), ("removed", False), ("running", False)]
    assert rt._finishing == {} and rt._native.waiting == 0


# -- a runtime garbage-collected without close() --------------------------------------------------
# The finalizer cannot call the callables: it must not hold them (they usually refer to the
# runtime's objects, and would keep it alive for ever), and the collector runs on any thread. It
# says so instead, as an unclosed file does.

def test_a_runtime_collected_without_close_warns_of_the_callables_never_called():
    rt = animrt.Runtime()
    calls = []
    layer = rt.layer()
    layer.add_animation(rt.basic("opacity", to=0, duration=5), on_finish=lambda f: calls.append((layer, f)))
    layer.add_animation(rt.basic("position.x", to=1, duration=0.1), on_finish=lambda f: calls.append(("x", f)))
    rt.tick(0)
    rt.tick(0.1)
    assert calls == [("x", True)]
    native = rt._native
    with pytest.warns(ResourceWarning, match=r"garbage-collected without close\(\) while 1 on_finish callable"):
        del rt, layer
        gc.collect()
    assert native.ptr is None and calls == [("x", True)]


def test_a_runtime_collected_with_no_callable_waiting_does_not_warn():
    rt = animrt.Runtime()
    calls = []
    rt.layer().add_animation(rt.basic("opacity", to=0, duration=0.1), on_finish=calls.append)
    rt.tick(0)
    rt.tick(0.1)
    native = rt._native
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        del rt
        gc.collect()
    assert native.ptr is None and calls == [True]
    assert [w for w in caught if issubclass(w.category, ResourceWarning)] == []


def test_what_an_on_finish_raises_at_interpreter_exit_is_printed_not_lost(run_to_exit):
    # A runtime still open at exit is closed then, its on_finish callables run with False; what one
    # raised was kept for a close() that never came, and the program exited as if nothing happened.
    import sys
    result = run_to_exit("import animrt\n"
                         "rt = animrt.Runtime()\n"
                         "toast = rt.layer()\n"
                         "def done(finished):\n"
                         "    print('on_finish', finished, flush=True)\n"
                         "    raise ValueError('cleanup failed')\n"
                         "toast.add_animation(rt.basic('opacity', to=0, duration=5), key='out', on_finish=done)\n")
    assert result.stdout == "on_finish False\n"
    assert "ValueError: cleanup failed" in result.stderr
    if sys.version_info >= (3, 11):  # tracebacks show notes from 3.11
        assert "raised by the on_finish of <AttachedAnimation 'out'" in result.stderr


def test_sys_exit_in_an_on_finish_at_interpreter_exit_leaves_the_other_finalizers_running(run_to_exit):
    # Raised out of the exit's finalizer, SystemExit would end the loop of finalizers: the runtime
    # made before it and a temporary directory would never be closed. It is printed instead.
    import os
    result = run_to_exit("import animrt, tempfile\n"
                         "scratch = tempfile.TemporaryDirectory()\n"
                         "print(scratch.name, flush=True)\n"
                         "first = animrt.Runtime()\n"
                         "first.layer().add_animation(first.basic('opacity', to=0, duration=5),\n"
                         "                            on_finish=lambda f: print('first on_finish', f, flush=True))\n"
                         "second = animrt.Runtime()\n"
                         "def leave(finished):\n"
                         "    print('second on_finish', finished, flush=True)\n"
                         "    raise SystemExit(3)\n"
                         "second.layer().add_animation(second.basic('opacity', to=0, duration=5), on_finish=leave)\n")
    scratch, *lines = result.stdout.splitlines()
    assert sorted(lines) == ["first on_finish False", "second on_finish False"], result.stdout
    assert not os.path.exists(scratch)
    assert "SystemExit: 3" in result.stderr


def test_close_from_an_on_finish_leaves_the_other_stops_of_its_tick_their_own_flag():
    rt = animrt.Runtime()
    layer = rt.layer()
    calls = []

    def first(finished):
        calls.append(("a", finished))
        rt.close()  # b's stop, reported by this tick, comes first; then c stops with the runtime

    layer.add_animation(rt.basic("opacity", to=0, duration=0.1), on_finish=first)
    layer.add_animation(rt.basic("position.x", to=1, duration=0.1), on_finish=lambda f: calls.append(("b", f)))
    layer.add_animation(rt.basic("position.y", to=1, duration=5), on_finish=lambda f: calls.append(("c", f)))
    rt.tick(0)
    rt.tick(0.1)
    assert calls == [("a", True), ("b", True), ("c", False)] and rt._finishing == {}


def test_a_close_inside_a_close_from_an_on_finish_leaves_the_later_stops_their_own_flag():
    # the first close delivers the rest of the tick; a callable it runs closes again, and the stops
    # still to come in that delivery keep their flag: they finished, and are not settled as lost
    rt = animrt.Runtime()
    calls = []

    def closing(name):
        return lambda finished: (calls.append((name, finished)), rt.close())

    for name, done in (("a", closing("a")), ("b", closing("b")), ("c", lambda f: calls.append(("c", f)))):
        rt.layer().add_animation(rt.basic("opacity", to=0, duration=0.1), on_finish=done)
    rt.tick(0)
    rt.tick(0.1)
    assert calls == [("a", True), ("b", True), ("c", True)]
    assert rt.closed and rt._finishing == {}


def test_completion_callables_after_one_that_closed_the_runtime_never_run():
    # close() says the pending completion callables never run; those polled in the same batch as
    # the callable that closed the runtime ran all the same.
    ran = []
    rt = animrt.Runtime()
    b = rt.barrier()
    rt.layer().add_animation(rt.basic("opacity", from_=0, to=1, duration=0.1), barrier=b)
    b.notify(lambda: (ran.append("first"), rt.close()))
    b.notify(lambda: ran.append("second"))
    rt.tick(0)
    rt.tick(1)
    assert ran == ["first"] and rt.closed
    ran.clear()
    rt = animrt.Runtime()
    with rt.transaction(on_complete=lambda: (ran.append("first"), rt.close())):
        rt.layer().add_animation(rt.basic("opacity", from_=0, to=1, duration=0.1))
    with rt.transaction(on_complete=lambda: ran.append("second")):
        rt.layer().add_animation(rt.basic("opacity", from_=0, to=1, duration=0.1))
    rt.tick(0)
    rt.tick(1)
    assert ran == ["first"] and rt.closed


def test_an_animation_added_while_another_thread_ticks_runs_its_on_finish_at_its_stop(rt):
    # Added on one thread as another removes it and ticks, an animation was tracked only after the
    # library had attached it: the tick in between delivered its stop naming a stand-in, and its
    # on_finish waited, never called, until close() (with False, whatever the stop was). Here the
    # other thread removes it and ticks just after the library attached it.
    toast = rt.layer()
    fade = rt.basic("opacity", from_=0.0, to=1.0, duration=1.0)
    seen = []
    rt.on_event(seen.append)
    ticked = threading.Event()
    real = rt._call

    def call(fn, *args):
        result = real(fn, *args)
        if fn is animrt._ffi.lib.animrt_layer_add_animation:
            rt._call = real
            threading.Thread(target=lambda: (toast.remove_animation("in"), rt.tick(0.1), ticked.set())).start()
            ticked.wait(0.3)  # it waits for the animation to be tracked (or, unfixed, delivers at once)
        return result

    rt._call = call
    done = []
    attached = toast.add_animation(fade, key="in", on_finish=done.append)
    assert ticked.wait(10)
    assert done == [False]
    assert [(type(e), e.attached is attached, e.reason) for e in seen] == [(AnimationStopped, True, StopReason.REMOVED)]
    assert not rt._attached and not rt._finishing
