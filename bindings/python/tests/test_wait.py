"""await attached.wait(): an attached animation's end from asyncio, told as on_finish is told.

The wait ends at the tick that delivers the stop (the program's clock: a task ticks), with True
when the animation reached its end and False when it stopped before it; once that is known it is
answered at once, as often as asked and to any number of tasks. Cancelling one awaiting task
cancels its own wait and nothing else."""
import asyncio
import inspect
import re
import textwrap
import threading

import pytest

import animrt
from animrt import AnimationStopped, Overflow

LITERAL_BLOCK = re.compile(r"::\n\n((?:    .*\n?|\n)+)")


def run(main):
    """Runs the test's coroutine; a wait that is never resolved fails it instead of hanging."""
    async def bounded():
        return await asyncio.wait_for(main(), 10)
    return asyncio.run(bounded())


async def settle():
    """Lets every task that can run do so (the ticks below are made by the test itself)."""
    for _ in range(5):
        await asyncio.sleep(0)


def test_it_ends_with_true_at_the_tick_that_delivers_the_finish():
    async def main():
        with animrt.Runtime() as rt:
            fade = rt.layer().add_animation(rt.basic("opacity", to=0, duration=0.3), key="out")
            waiting = asyncio.ensure_future(fade.wait())
            rt.tick(0)
            await settle()
            rt.tick(0.2)
            await settle()
            assert not waiting.done() and rt._awaiting != {}
            rt.tick(0.3)
            assert not waiting.done()  # resolved by the tick, seen once the task runs again
            await settle()
            assert waiting.result() is True
            assert rt._awaiting == {}
            assert [e.finished for e in rt.events() if isinstance(e, AnimationStopped)] == [True]  # still reported
    run(main)


@pytest.mark.parametrize("stop", [
    lambda layer, rt: layer.remove_animation("k"),
    lambda layer, rt: layer.add_animation(rt.basic("opacity", to=1), key="k"),
    lambda layer, rt: layer.destroy(),
])
def test_it_ends_with_false_when_the_animation_stops_early(stop):
    async def main():
        with animrt.Runtime() as rt:
            layer = rt.layer()
            attached = layer.add_animation(rt.basic("opacity", to=0, duration=5), key="k")
            waiting = asyncio.ensure_future(attached.wait())
            rt.tick(0)
            await settle()
            stop(layer, rt)
            await settle()
            assert not waiting.done()  # stops are delivered by the next tick
            rt.tick(0.1)
            await settle()
            assert waiting.result() is False
    run(main)


def test_once_the_stop_is_delivered_it_answers_at_once_as_often_as_asked():
    async def main():
        with animrt.Runtime() as rt:
            layer = rt.layer()
            fade = layer.add_animation(rt.basic("opacity", to=0, duration=0.1))
            cut = layer.add_animation(rt.basic("position.x", to=9, duration=5), key="cut")
            rt.tick(0)
            layer.remove_animation("cut")
            rt.tick(0.1)  # both stops delivered, nothing was waiting
            assert await fade.wait() is True and await fade.wait() is True
            assert await cut.wait() is False and await cut.wait() is False
            rt.close()
            assert await fade.wait() is True and await cut.wait() is False  # what it was, after close too
            assert rt._awaiting == {}
    run(main)


def test_two_tasks_awaiting_the_same_animation_both_get_the_answer():
    async def main():
        with animrt.Runtime() as rt:
            fade = rt.layer().add_animation(rt.basic("opacity", to=0, duration=0.1))
            first, second = asyncio.ensure_future(fade.wait()), asyncio.ensure_future(fade.wait())
            rt.tick(0)
            await settle()
            assert len(rt._awaiting[fade.id]) == 2
            rt.tick(0.1)
            assert await asyncio.gather(first, second) == [True, True]
    run(main)


def test_a_cancelled_awaiter_does_not_break_the_tick_or_the_other_awaiters():
    async def main():
        with animrt.Runtime() as rt:
            calls = []
            fade = rt.layer().add_animation(rt.basic("opacity", to=0, duration=0.1), on_finish=calls.append)
            impatient, patient = asyncio.ensure_future(fade.wait()), asyncio.ensure_future(fade.wait())
            with pytest.raises(asyncio.TimeoutError):
                await asyncio.wait_for(fade.wait(), 0.001)  # a third, given up by wait_for
            impatient.cancel()
            await settle()
            assert impatient.cancelled() and len(rt._awaiting[fade.id]) == 1  # only its own wait went
            rt.tick(0)
            rt.tick(0.1)  # does not raise InvalidStateError on the cancelled ones
            assert calls == [True]
            assert await patient is True
            assert rt._awaiting == {}
    run(main)


def test_a_cancelled_awaiter_whose_stop_comes_in_the_same_tick_is_left_alone():
    # cancelled after the tick resolved nothing yet, but before it: the future is done, and skipped
    async def main():
        with animrt.Runtime() as rt:
            fade = rt.layer().add_animation(rt.basic("opacity", to=0, duration=0.1))
            waiting = asyncio.ensure_future(fade.wait())
            await settle()
            (future,) = rt._awaiting[fade.id]
            future.cancel()  # the task's cancellation reaches the future before its task runs again
            rt.tick(0)
            rt.tick(0.1)
            with pytest.raises(asyncio.CancelledError):
                await waiting
            assert rt._awaiting == {} and await fade.wait() is True
    run(main)


def test_closing_the_runtime_ends_the_wait_with_false():
    async def main():
        rt = animrt.Runtime()
        layer = rt.layer()
        running = layer.add_animation(rt.basic("opacity", to=0, duration=5))
        removed = layer.add_animation(rt.basic("position.x", to=9, duration=5), key="x")
        finished = layer.add_animation(rt.basic("position.y", to=9, duration=0.1, fill_mode="forwards",
                                                removed_on_completion=False))
        waits = [asyncio.ensure_future(a.wait()) for a in (running, removed)]
        rt.tick(0)
        rt.tick(0.1)
        await settle()
        layer.remove_animation("x")  # its stop is queued: close() delivers it
        rt.close()
        assert await asyncio.gather(*waits) == [False, False]
        assert rt._awaiting == {} and not rt._attached
        assert await finished.wait() is True  # delivered at the tick that ended it
    run(main)


def test_waiting_after_close_for_an_animation_whose_stop_was_never_delivered_says_false():
    async def main():
        rt = animrt.Runtime()
        attached = rt.layer().add_animation(rt.basic("opacity", to=0, duration=5))
        rt.tick(0)
        rt.close()  # nothing waited for it: its stop went with the runtime
        assert await attached.wait() is False
    run(main)


def test_a_wait_closed_from_another_task_ends_and_the_closing_task_sees_no_error():
    async def main():
        rt = animrt.Runtime()
        attached = rt.layer().add_animation(rt.basic("opacity", to=0, duration=5))
        rt.tick(0)

        async def closer():
            await asyncio.sleep(0)
            rt.close()
        results = await asyncio.gather(attached.wait(), closer())
        assert results == [False, None]
    run(main)


def test_a_stop_lost_to_an_overflow_still_ends_the_wait():
    async def main():
        with animrt.Runtime(event_capacity=16) as rt:
            rt.add_animations(rt.basic("opacity", to=0, duration=0.1), rt.create_layers(40))
            kept = rt.layer().add_animation(rt.basic("opacity", to=0, duration=0.1, fill_mode="forwards",
                                                     removed_on_completion=False))
            gone = rt.layer().add_animation(rt.basic("opacity", to=0, duration=0.1))
            waits = asyncio.gather(kept.wait(), gone.wait())
            rt.tick(0)
            await settle()
            rt.tick(0.1)
            assert isinstance(rt.events()[-1], Overflow)
            assert await waits == [True, False]  # as on_finish is told
    run(main)


def test_a_tick_on_another_thread_ends_the_wait_through_the_event_loop():
    # the loop sleeps in its selector while another thread ticks: it is woken, not left to its timeout
    async def main():
        with animrt.Runtime() as rt:
            loop = asyncio.get_running_loop()
            fade = rt.layer().add_animation(rt.basic("opacity", to=0, duration=0.1))
            waiting = asyncio.ensure_future(fade.wait())
            await settle()
            ticker = threading.Timer(0.05, lambda: (rt.tick(0), rt.tick(0.1)))
            start = loop.time()
            ticker.start()
            assert await asyncio.wait_for(waiting, 5) is True
            assert loop.time() - start < 2
            ticker.join(5)
    run(main)


def test_a_close_from_another_thread_while_the_tick_runs_a_callable_tells_the_finished():
    # More stops than one poll holds: the ticking thread is in a callable of its first poll when the
    # loop's thread closes the runtime, which hands the rest of the tick's stops to the binding then.
    async def main():
        rt = animrt.Runtime()  # room for every event: none is lost, they take two polls
        entered, release = threading.Event(), threading.Event()
        rt.add_animations(rt.basic("opacity", to=0, duration=0.1), rt.create_layers(1200))
        last = rt.layer().add_animation(rt.basic("opacity", to=0, duration=0.1))  # in the second poll
        waiting = asyncio.ensure_future(last.wait())
        rt.tick(0)
        rt.start_timer(0.1, lambda: (entered.set(), release.wait(5)))  # fires first in the tick's first poll
        await settle()
        rt.on_event(print)  # a handler set and taken away meanwhile: the close still hands the stops over
        rt.on_event(None)
        ticker = threading.Thread(target=lambda: rt.tick(0.1) if not rt.closed else None)
        ticker.start()
        assert entered.wait(5)
        try:
            rt.close()
        finally:
            release.set()
            ticker.join(5)
        assert await waiting is True  # it finished: its stop was handed over at close, with its flag
    run(main)


def test_a_machines_animation_cannot_be_awaited():
    async def main():
        with animrt.Runtime() as rt:
            m = rt.machine(rt.definition(named="networkButton"))
            m.send("tap")
            rt.tick(0)
            started = [e for e in rt.events() if isinstance(e, animrt.AnimationStarted)]
            assert started
            with pytest.raises(animrt.StateError, match=r"was added by a machine or through raw C calls.*"
                                                        r"wait\(\) is for animations added with "
                                                        r"layer.add_animation\(\)"):
                await started[0].attached.wait()
    run(main)


def test_a_close_from_another_thread_after_an_overflow_tells_the_finished_that_stayed_attached():
    # as above, but the queue overflows: the stop of the animation kept at its end is lost, and the
    # close reads, while the runtime is still there, that it finished
    async def main():
        rt = animrt.Runtime(event_capacity=1100)
        entered, release = threading.Event(), threading.Event()
        rt.add_animations(rt.basic("opacity", to=0, duration=0.1), rt.create_layers(1200))
        kept = rt.layer().add_animation(rt.basic("opacity", to=0, duration=0.1, fill_mode="forwards",
                                                 removed_on_completion=False))
        gone = rt.layer().add_animation(rt.basic("opacity", to=0, duration=0.1))
        waiting = asyncio.gather(kept.wait(), gone.wait())
        rt.tick(0)
        rt.start_timer(0.1, lambda: (entered.set(), release.wait(5)))
        await settle()
        ticker = threading.Thread(target=lambda: rt.tick(0.1) if not rt.closed else None)
        ticker.start()
        assert entered.wait(5)
        try:
            rt.close()
        finally:
            release.set()
            ticker.join(5)
        assert await waiting == [True, False]  # the removed one may have finished: which was in the lost event
    run(main)


def test_a_stop_a_full_queue_lost_between_ticks_ends_the_wait_at_close():
    # removals between ticks fill the queue; the last stop is lost, and no tick comes to read the overflow
    async def main():
        rt = animrt.Runtime(event_capacity=16)
        crowd = rt.layer()
        for _ in range(20):
            crowd.add_animation(rt.basic("opacity", to=0, duration=5))
        layer = rt.layer()
        out = layer.add_animation(rt.basic("opacity", to=0, duration=5), key="out")
        waiting = asyncio.ensure_future(out.wait())
        rt.tick(0)
        rt.events()
        await settle()
        crowd.remove_all_animations()  # fills the queue
        assert layer.remove_animation("out")  # lost
        rt.close()
        assert await waiting is False and rt._awaiting == {}
    run(main)


def test_a_close_from_a_callable_before_the_overflow_is_read_still_ends_the_wait():
    # the overflow notice is in a later poll than the callable that closes the runtime: the close
    # delivers the rest of the tick first, the notice with it, and the wait whose stop was lost ends
    async def main():
        rt = animrt.Runtime(event_capacity=1100)
        rt.add_animations(rt.basic("opacity", to=0, duration=0.1), rt.create_layers(1200))
        gone = rt.layer().add_animation(rt.basic("opacity", to=0, duration=0.1))
        waiting = asyncio.ensure_future(gone.wait())
        rt.tick(0)
        rt.start_timer(0.1, rt.close)
        await settle()
        rt.tick(0.1)
        assert rt.closed and await waiting is False and rt._awaiting == {}
    run(main)


class _PausingAwaiting(dict):
    """`rt._awaiting` that holds a task's wait() between its look at `rt.closed` and putting its future
    in, until another thread's close() has returned (or a second has passed: a close that waits for
    the wait to finish first never returns meanwhile)."""

    def __init__(self) -> None:
        super().__init__()
        self.entered, self.closed = threading.Event(), threading.Event()

    def setdefault(self, key, default=None):
        self.entered.set()
        self.closed.wait(1)
        return super().setdefault(key, default)


def test_a_wait_that_saw_the_runtime_open_as_another_thread_closed_it_still_ends():
    # The task has found the runtime open and is about to put its future in when another thread's
    # close() destroys the runtime (nothing else waited: no stop is handed to the binding) and looks
    # for futures to settle; the one put in just after that look must still be settled.
    async def main():
        rt = animrt.Runtime()
        fade = rt.layer().add_animation(rt.basic("opacity", to=0, duration=5))
        rt.tick(0)
        rt._awaiting = pausing = _PausingAwaiting()

        def close() -> None:
            assert pausing.entered.wait(5)
            rt.close()
            pausing.closed.set()
        closer = threading.Thread(target=close)
        closer.start()
        try:
            assert await asyncio.wait_for(fade.wait(), 3) is False
        finally:
            closer.join(5)
        assert rt.closed and rt._awaiting == {}
    run(main)


# -- await machine.wait_for(*states) ------------------------------------------------------------
# The network button (R3.1): ready -> loading.preparing -> loading.spinning at startAnimate, then,
# at stopAnimate or stopByError, finishing.rewinding, .dotting, .marking.check or .cross, .bouncing
# and finished.succeeded or finished.failed, each step at the end of its animations.

OUTCOMES = ("finished.succeeded", "finished.failed")
# A machine that finishes: "done" when its work ends, "broken" when it fails (top-level final states).
JOB = {"name": "job", "events": {"go": {}, "fail": {}}, "initial": "idle",
       "states": {"idle": {"on": {"go": "work"}},
                  "work": {"initial": "a", "states": {"a": {"on": {"go": "work.b"}}, "b": {"type": "final"}},
                           "onFinal": "done", "on": {"fail": "broken"}},
                  "done": {"type": "final"}, "broken": {"type": "final"}}}


def button(rt):
    m = rt.machine(rt.definition(named="networkButton"))
    rt.tick(rt.time)
    return m


async def tick_until(rt, waiting, times, step=0.1):
    """Ticks from rt.time on, letting the tasks run after each tick, until `waiting` is done; the
    time of the tick after which it was (None if it never was, `times` ticks later)."""
    for _ in range(times):
        rt.tick(round(rt.time + step, 6))
        await settle()
        if waiting.done():
            return rt.time
    return None


def changes(rt, m):
    return [(e.time, e.to_state) for e in rt.events() if isinstance(e, animrt.StateChanged) and e.machine is m]


def test_a_state_already_active_is_returned_at_once_and_an_ancestor_counts():
    async def main():
        with animrt.Runtime() as rt:
            m = button(rt)
            assert await m.wait_for("ready") == "ready"
            m.send("startAnimate")  # active at once, though no tick has delivered it yet
            assert m.state == "loading.preparing"
            assert await m.wait_for("ready", "loading") == "loading"  # the parent of the leaf
            assert await m.wait_for("loading.preparing", "loading") == "loading.preparing"  # the first given
            assert rt._state_waits == {}
    run(main)


def test_it_returns_at_the_tick_that_delivers_the_change_with_the_name_awaited():
    async def main():
        with animrt.Runtime() as rt:
            m = button(rt)
            rt.events()
            m.send("startAnimate")
            spinning = asyncio.ensure_future(m.wait_for("loading.spinning"))
            finishing = asyncio.ensure_future(m.wait_for("finishing"))  # a compound state: any child of it
            await settle()
            assert not spinning.done() and len(rt._state_waits[m.id]) == 2
            ended = await tick_until(rt, spinning, 20)
            assert spinning.result() == "loading.spinning"
            assert (ended, "loading.spinning") in changes(rt, m)  # the tick that delivered the change
            assert not finishing.done()
            m.send("stopAnimate")
            assert not finishing.done()  # the change is delivered by the next tick
            rt.tick(rt.time)
            await settle()
            assert finishing.result() == "finishing"
            assert changes(rt, m)[-1] == (rt.time, "finishing.rewinding")
            outcome = asyncio.ensure_future(m.wait_for(*OUTCOMES))
            await tick_until(rt, outcome, 40)
            assert outcome.result() == "finished.succeeded" and m.state == "finished.succeeded"
            assert rt._state_waits == {}
    run(main)


def test_a_state_whose_name_begins_anothers_is_not_its_ancestor():
    async def main():
        with animrt.Runtime() as rt:
            m = rt.machine(rt.definition({"name": "link", "events": {"connect": {}, "settle": {}}, "initial": "idle",
                                          "states": {"idle": {"on": {"connect": "online"}},
                                                     "online": {"on": {"settle": "on"}}, "on": {}}}))
            rt.tick(0)
            on = asyncio.ensure_future(m.wait_for("on"))
            await settle()
            m.send("connect")  # into "online", which "on" begins and is no ancestor of
            rt.tick(0)
            await settle()
            assert not on.done() and m.in_state("online") and not m.in_state("on")
            m.send("settle")
            rt.tick(0)
            await settle()
            assert on.result() == "on"
    run(main)


def test_a_state_entered_and_left_before_the_tick_still_ends_the_wait():
    async def main():
        with animrt.Runtime() as rt:
            m = button(rt)
            waiting = asyncio.ensure_future(m.wait_for("loading"))
            await settle()
            m.send("startAnimate")
            m.send("resetToReady")  # back in ready before any tick
            assert m.state == "ready" and not waiting.done()
            rt.tick(0)
            await settle()
            assert waiting.result() == "loading"
    run(main)


def test_several_tasks_wait_at_once_each_for_its_own_states():
    async def main():
        with animrt.Runtime() as rt:
            m = button(rt)
            m.send("startAnimate")
            waits = [asyncio.ensure_future(m.wait_for(*states))
                     for states in (OUTCOMES, ("finished",), ("finished.succeeded",), ("finishing.marking",))]
            await settle()
            assert len(rt._state_waits[m.id]) == 4
            rt.tick(0.1)
            m.send("stopByError")
            done = await tick_until(rt, waits[1], 60)
            assert done is not None
            assert [w.result() for w in waits[:2]] == ["finished.failed", "finished"]
            assert waits[3].result() == "finishing.marking"  # on the way: marking.cross
            assert not waits[2].done() and list(rt._state_waits) == [m.id]
            m.send("resetToReady")
            m.send("startAnimate")
            rt.tick(rt.time)
            m.send("stopAnimate")
            assert await tick_until(rt, waits[2], 60) is not None and waits[2].result() == "finished.succeeded"
            assert rt._state_waits == {}
    run(main)


def test_a_cancelled_wait_leaves_the_others_waiting():
    async def main():
        with animrt.Runtime() as rt:
            m = button(rt)
            patient = asyncio.ensure_future(m.wait_for("loading.spinning"))
            impatient = asyncio.ensure_future(m.wait_for("loading.spinning"))
            with pytest.raises(asyncio.TimeoutError):
                await asyncio.wait_for(m.wait_for("loading.spinning"), 0.001)  # a third, given up by wait_for
            impatient.cancel()
            await settle()
            assert impatient.cancelled() and len(rt._state_waits[m.id]) == 1  # only its own wait went
            m.send("startAnimate")
            assert await tick_until(rt, patient, 20) is not None
            assert patient.result() == "loading.spinning" and rt._state_waits == {}
    run(main)


def test_an_unknown_state_is_refused_before_anything_is_awaited():
    async def main():
        with animrt.Runtime() as rt:
            m = button(rt)
            with pytest.raises(animrt.NotFoundError, match=r"^'networkButton' has no state named 'redy'; "
                                                           r"did you mean 'ready'\?"):
                await m.wait_for("finished", "redy")
            with pytest.raises(animrt.NotFoundError, match=r"^'networkButton' has no state named 'succeeded'; states "
                                                           r"are named in full from the top: did you mean "
                                                           r"'finished.succeeded'\?"):
                await m.wait_for("succeeded")  # a state is named in full, as in_state names it
            with pytest.raises(animrt.ArgumentTypeError, match=r"^machine 'networkButton': m.wait_for\(\) needs "
                                                               r"the states to wait for, by their full names: "
                                                               r"m.wait_for\('ready'\) \(its states: finished, "
                                                               r"finished.failed, .*, loading.spinning, ready\)$"):
                await m.wait_for()  # the example is its last state: a leaf, as a parent comes before its children
            with pytest.raises(animrt.ArgumentTypeError, match=r"a state is \['ready'\] \(a list\); pass each "
                                                               r"state as an argument: m.wait_for\(\*states\)"):
                await m.wait_for(["ready"])
            assert rt._state_waits == {}
            with pytest.raises(AttributeError, match=r"^Machine has no attribute 'wait_until'; from asyncio, "
                                                     r"await m.wait_for\('ready'\) waits until"):
                m.wait_until("ready")
    run(main)


def test_destroying_the_machine_ends_the_wait_at_the_next_tick_with_handle_error():
    async def main():
        with animrt.Runtime() as rt:
            m = button(rt)
            waiting = asyncio.ensure_future(m.wait_for(*OUTCOMES))
            reached = asyncio.ensure_future(m.wait_for("loading"))
            await settle()
            m.send("startAnimate")  # reported before the destroy: delivered by the next tick
            m.destroy()
            await settle()
            assert not waiting.done() and not reached.done()
            rt.tick(0.1)
            await settle()
            assert reached.result() == "loading"
            with pytest.raises(animrt.HandleError, match=r"^machine 'networkButton' was destroyed \(m.destroy\(\) "
                                                         r"has run, or its with block has ended\) before reaching "
                                                         r"'finished.succeeded' or 'finished.failed'$"):
                waiting.result()
            assert rt._state_waits == {}
            with pytest.raises(animrt.HandleError, match="was destroyed"):  # and at once afterwards
                await m.wait_for("ready")
    run(main)


def test_closing_the_runtime_ends_the_wait_with_closed_error():
    async def main():
        rt = animrt.Runtime()
        m = button(rt)
        gone = button(rt)
        waits = [asyncio.ensure_future(machine.wait_for("loading")) for machine in (m, gone)]
        await settle()
        gone.destroy()  # no tick delivers it before the close: it says it was destroyed

        async def closer():
            await asyncio.sleep(0)
            rt.close()
        await closer()
        with pytest.raises(animrt.ClosedError, match=r"^the runtime was closed before machine 'networkButton' "
                                                     r"reached 'loading'; check rt.closed"):
            await waits[0]
        with pytest.raises(animrt.HandleError, match="was destroyed"):
            await waits[1]
        assert rt._state_waits == {}
        with pytest.raises(animrt.ClosedError):
            await m.wait_for("ready")  # at once afterwards, even for the state it is in
    run(main)


def test_a_change_delivered_by_a_tick_closing_the_runtime_comes_first():
    async def main():
        rt = animrt.Runtime()
        m = button(rt)
        waiting = asyncio.ensure_future(m.wait_for("loading"))
        await settle()
        m.send("startAnimate")
        rt.start_timer(0.0, rt.close)  # fires first in the tick; the rest of its events come before the close
        rt.tick(0.1)
        assert rt.closed and await waiting == "loading"
    run(main)


def test_finishing_in_a_final_state_not_awaited_raises_state_error():
    async def main():
        with animrt.Runtime() as rt:
            m = rt.machine(rt.definition(JOB))
            rt.tick(0)
            done, broken, idle = (asyncio.ensure_future(m.wait_for(s)) for s in ("done", "broken", "idle"))
            await settle()
            assert idle.result() == "idle"
            m.send("go")
            m.send("go")  # work.b, a final child: the machine goes on, its parent's onFinal to done
            assert m.state == "done"
            rt.tick(0)
            await settle()
            assert done.result() == "done"
            with pytest.raises(animrt.StateError, match=r"^machine 'job' finished in its final state 'done' "
                                                        r"before reaching 'broken': a finished machine changes "
                                                        r"state no more$"):
                broken.result()
            assert rt._state_waits == {}
            # a wait begun once it has finished: at once, either way
            assert await m.wait_for("broken", "done") == "done"
            with pytest.raises(animrt.StateError, match=r"finished in its final state 'done' before reaching "
                                                        r"'idle' or 'work'"):
                await m.wait_for("idle", "work")
            assert rt._state_waits == {}
            other = rt.machine(rt.definition(JOB))
            waiting = asyncio.ensure_future(other.wait_for("work.b"))
            await settle()
            other.send("go")
            other.send("fail")
            rt.tick(0)
            await settle()
            with pytest.raises(animrt.StateError, match=r"in its final state 'broken' before reaching 'work.b'"):
                waiting.result()
    run(main)


def test_a_machine_tick_on_another_thread_ends_the_wait_through_the_event_loop():
    async def main():
        with animrt.Runtime() as rt:
            loop = asyncio.get_running_loop()
            m = button(rt)
            waiting = asyncio.ensure_future(m.wait_for("loading"))
            await settle()
            ticker = threading.Timer(0.05, lambda: (m.send("startAnimate"), rt.tick(0.1)))
            start = loop.time()
            ticker.start()
            assert await asyncio.wait_for(waiting, 5) == "loading"
            assert loop.time() - start < 2
            ticker.join(5)
    run(main)


def test_the_wait_for_help_runs():
    block = textwrap.dedent(LITERAL_BLOCK.findall(inspect.getdoc(animrt.Machine.wait_for))[0])

    async def main():
        with animrt.Runtime() as rt:
            names = {"animrt": animrt}
            exec(block, names)
            results = []
            for ok in (True, False):
                m = button(rt)
                m.send("startAnimate")
                rt.tick(rt.time + 0.5)
                shown = asyncio.ensure_future(names["show_result"](m, ok))
                await tick_until(rt, shown, 60)
                results.append(shown.result())
            assert results == ["finished.succeeded", "finished.failed"]
    run(main)
