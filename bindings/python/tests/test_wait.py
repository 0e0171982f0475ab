"""await attached.wait(): an attached animation's end from asyncio, told as on_finish is told.

The wait ends at the tick that delivers the stop (the program's clock: a task ticks), with True
when the animation reached its end and False when it stopped before it; once that is known it is
answered at once, as often as asked and to any number of tasks. Cancelling one awaiting task
cancels its own wait and nothing else."""
import asyncio
import threading

import pytest

import animrt
from animrt import AnimationStopped, Overflow


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
