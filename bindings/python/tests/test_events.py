"""Events hand back the program's objects; completion callables run on the ticking thread, in event order (R5.2)."""
import collections
import asyncio
import ctypes
import gc
import threading
import warnings
import weakref
from typing import List

import pytest

import animrt
from animrt import (AnimationStarted, AnimationStopped, BarrierNotified, Overflow, StopReason, TimerFired,
                    TransactionCompleted)
from animrt import _ffi

lib = _ffi.lib


@pytest.fixture
def rt():
    with animrt.Runtime() as runtime:
        yield runtime


def test_events_carry_the_objects_the_program_created(rt):
    toast = rt.layer()
    drop = rt.spring("position.y", from_=-40, to=60, damping=12, stiffness=180)
    arrived = rt.barrier()
    attached = toast.add_animation(drop, key="in", barrier=arrived)
    arrived.notify(5)
    ping = rt.start_timer(0.1, token=6)
    with rt.transaction(token=7) as transaction:
        toast.add_animation(rt.basic("opacity", from_=0, to=1, duration=0.2), key="show")
    for t in (0.0, 0.1, 0.2, 1.5):
        rt.tick(t)
    events = rt.events()
    (started,) = [e for e in events if isinstance(e, AnimationStarted) and e.key == "in"]
    assert started.layer is toast and started.animation is drop and started.attached is attached
    assert started.key == "in" and attached.key == "in" and attached.layer is toast and attached.barrier is arrived
    assert started.layer == toast and hash(started.layer) == hash(toast)
    by_type = {type(e): e for e in events}
    assert by_type[TimerFired].timer is ping and by_type[TimerFired].token == 6
    assert by_type[TransactionCompleted].transaction is transaction and by_type[TransactionCompleted].token == 7
    assert by_type[BarrierNotified].barrier is arrived and by_type[BarrierNotified].token == 5
    stops = [e for e in events if isinstance(e, AnimationStopped)]
    assert [(s.key, s.finished, s.reason) for s in stops] == [("show", True, StopReason.FINISHED),
                                                            ("in", True, StopReason.FINISHED)]
    assert stops[1].attached is attached and stops[1].time == pytest.approx(drop.settling_duration, abs=0.3)


def test_events_print_like_the_objects_reprs(rt):
    toast = rt.layer()
    fade = rt.basic("opacity", to=0, duration=0.1)
    attached = toast.add_animation(fade, key="out")
    rt.tick(0)
    (started,) = rt.events()
    text = repr(started)
    assert repr(toast) == f"<Layer {toast.id:#x}>" and repr(toast) in text
    assert repr(started.animation) == repr(fade) == f"<BasicAnimation 'opacity' to=0.0 duration=0.1 {fade.id:#x}>"
    assert repr(attached) == (f"<AttachedAnimation 'out' of opacity on layer {toast.id:#x} active progress=0.0 "
                              f"{attached.id:#x}>") and repr(attached) in text
    assert str(toast.id) not in text  # no decimal handles
    # The library's messages print handles the same way.
    printed = repr(toast)[len("<Layer "):-1]
    toast.destroy()
    with pytest.raises(animrt.HandleError, match=f"layer handle {printed} is stale"):
        toast.value("opacity")


def test_objects_no_longer_held_come_back_as_equal_stand_ins(rt):
    layer = rt.layer()
    layer_id = layer.id
    layer.add_animation(rt.basic("opacity", to=0, duration=0.1))  # the description is dropped at once
    del layer
    gc.collect()
    rt.tick(0)
    (started,) = rt.events()
    assert started.layer.id == layer_id and repr(started.layer) == f"<Layer {layer_id:#x}>"
    assert started.animation.key_path == "opacity"  # the attachment kept the description alive
    # An animation added through the C API directly gets stand-ins of the right classes.
    raw = ctypes.c_uint64()
    lib.animrt_layer_add_animation(rt._ptr, started.layer.id, started.animation.id, b"raw", 0, ctypes.byref(raw))
    rt.tick(0.05)
    (again,) = rt.events()
    assert isinstance(again.layer, animrt.Layer) and again.layer is started.layer
    assert isinstance(again.attached, animrt.AttachedAnimation) and again.attached.id == raw.value
    assert again.key == "raw"  # read from its layer, as it is still attached


def test_callables_run_on_the_ticking_thread_in_event_order(rt):
    layer = rt.layer()
    log = []
    me = []

    def record(name):
        def run():
            log.append((name, round(rt.time, 6)))
            me.append(threading.get_ident())
        return run

    done = rt.barrier()
    layer.add_animation(rt.basic("opacity", to=0, duration=0.3), key="a", barrier=done)
    done.notify(record("barrier"))
    done.notify(11)  # a token between two callables keeps its place
    done.notify(record("barrier again"))
    rt.start_timer(0.1, record("timer 0.1"))
    rt.start_timer(0.3, record("timer 0.3"))
    with rt.transaction(on_complete=record("transaction")):
        layer.add_animation(rt.basic("cornerRadius", to=4, duration=0.2))
    rt.on_event(lambda event: log.append((type(event).__name__, round(event.time, 6))))
    ticker = threading.Thread(target=lambda: [rt.tick(t) for t in (0.0, 0.1, 0.2, 0.3)])
    ticker.start()
    ticker.join()
    assert log == [
        ("AnimationStarted", 0.0), ("AnimationStarted", 0.0),
        ("timer 0.1", 0.1),
        ("AnimationStopped", 0.2), ("transaction", 0.2),
        ("timer 0.3", 0.3),  # timers fire before the tick evaluates animations
        ("AnimationStopped", 0.3), ("barrier", 0.3), ("BarrierNotified", 0.3), ("barrier again", 0.3),
    ]
    assert set(me) == {ticker.ident}


def test_completions_between_ticks_wait_for_the_next_tick(rt):
    ran = []
    idle = rt.barrier()
    idle.notify(lambda: ran.append("idle"))  # count 0: fires at once, runs at the next tick
    with rt.transaction(on_complete=lambda: ran.append("empty")):
        pass
    assert ran == [] and rt.events() == []
    rt.tick(0)
    assert ran == ["idle", "empty"]


def test_a_tick_with_more_events_than_one_poll_keeps_them_all_for_events(rt):
    # nothing listens: the events are kept for rt.events(), polled 1,024 at a time until none wait
    rt.add_animations(rt.basic("opacity", to=0, duration=0.1), rt.create_layers(1100))
    rt.tick(0)
    assert sum(isinstance(e, AnimationStarted) for e in rt.events()) == 1100
    rt.tick(0.2)
    assert sum(isinstance(e, AnimationStopped) for e in rt.events()) == 1100


def test_transactions_never_pick_the_programs_tokens(rt):
    layer = rt.layer()
    seen = []
    with rt.transaction(token=2) as mine:  # the token the old binding picked for itself
        layer.add_animation(rt.basic("opacity", to=0, duration=0.1))
    with rt.transaction(on_complete=lambda: seen.append("callable")) as other:
        layer.add_animation(rt.basic("cornerRadius", to=1, duration=0.2))
    with rt.transaction() as plain:
        pass
    rt.tick(0)
    rt.tick(0.2)
    completed = [e for e in rt.events() if isinstance(e, TransactionCompleted)]
    assert [(e.transaction, e.token) for e in completed] == [(plain, 0), (mine, 2)]
    assert seen == ["callable"] and other.id not in (mine.id, plain.id)
    with pytest.raises(animrt.ArgumentTypeError, match="on_complete or a token, not both"):
        rt.transaction(token=3, on_complete=lambda: None)
    with pytest.raises(animrt.StateError, match="already used"):
        with mine:
            pass


def test_a_with_block_that_raises_after_another_thread_closed_the_runtime_raises_its_own_error():
    # the commit at the block's end is refused (the runtime is closed), but the block's own exception
    # is what the program sees; without one, the refusal itself is raised
    for raised in (ValueError("the block's own"), None):
        rt = animrt.Runtime()
        layer = rt.layer()
        with pytest.raises(ValueError if raised else animrt.ClosedError) as seen:
            with rt.transaction():
                layer.add_animation(rt.basic("opacity", to=0, duration=1))
                closer = threading.Thread(target=rt.close)
                closer.start()
                closer.join(5)
                assert rt.closed
                if raised:
                    raise raised
        if raised:
            assert seen.value is raised


def test_a_transaction_belongs_to_the_thread_that_opened_it(rt):
    # as Core Animation's: another thread's transaction, open at the same time, neither takes this
    # one's animations nor is committed by this one's with block
    first, second = rt.layer(), rt.layer()
    done, b_open, a_committed = [], threading.Event(), threading.Event()

    waited = []

    def other():
        with rt.transaction(on_complete=lambda: done.append("b")):
            second.add_animation(rt.basic("opacity", to=0, duration=2))
            b_open.set()
            waited.append(a_committed.wait(5))

    with rt.transaction(on_complete=lambda: done.append("a")):
        first.add_animation(rt.basic("opacity", to=0, duration=1))
        thread = threading.Thread(target=other)
        thread.start()
        assert b_open.wait(5)
    a_committed.set()
    thread.join(5)
    assert waited == [True]  # the other block was open all along this one's commit
    rt.tick(0)
    rt.tick(1.5)
    assert done == ["a"]  # its own animation, 1 s, has stopped; the other thread's has not
    rt.tick(2.5)
    assert done == ["a", "b"]


def test_a_with_block_left_on_another_thread_commits_nothing_there(rt):
    # a generator suspended inside a with block and resumed on another thread: the commit there would
    # close that thread's own transaction (its on_complete then never ran, nor this one's); it is
    # refused instead, and the other thread's transaction completes as its own
    first, second = rt.layer(), rt.layer()
    done, seen = [], []

    left = rt.transaction(on_complete=lambda: done.append("a"))

    def steps():
        with left:
            first.add_animation(rt.basic("opacity", to=0, duration=1))
            yield

    suspended = steps()
    next(suspended)

    def other():
        with rt.transaction(on_complete=lambda: done.append("b")):
            second.add_animation(rt.basic("opacity", to=0, duration=2))
            try:
                next(suspended)
            except animrt.StateError as e:
                seen.append(str(e))

    thread = threading.Thread(target=other)
    thread.start()
    thread.join(5)
    assert len(seen) == 1 and "was begun on another thread" in seen[0] and "nothing was committed" in seen[0]
    rt.tick(0)
    rt.tick(2.5)
    assert done == ["b"]  # the other thread's, at the end of its own animation; this one stays open
    with pytest.warns(RuntimeWarning, match="was begun but never committed .its with block was left on another thread"):
        del suspended, left
        gc.collect()


def _block_to_suspend_in(rt):
    """A transaction with an on_complete, and a generator (not started) whose first step enters its
    with block, adds a 1 s animation and suspends there."""
    layer = rt.layer()
    left = rt.transaction(on_complete=lambda: None)

    def steps():
        with left:
            layer.add_animation(rt.basic("opacity", to=0, duration=1))
            yield

    return left, steps()


def test_a_with_block_left_on_a_thread_given_the_ended_threads_ident_commits_nothing(rt):
    # the system gives a thread made after one that ended that thread's ident (threading.get_ident):
    # a block begun on the ended thread and left on the new one is still left on another thread.
    # Told apart by ident, it passed for its own: the library refused the commit, and the binding
    # took the transaction for committed, so that nothing ever said its on_complete was lost
    left, suspended = _block_to_suspend_in(rt)
    begun = []

    def begin():
        begun.append(threading.get_ident())
        next(suspended)

    def leave():
        if threading.get_ident() != begun[0]:
            return
        try:
            next(suspended)
        except animrt.StateError as e:
            seen.append(str(e))

    seen = []
    thread = threading.Thread(target=begin)
    thread.start()
    thread.join(5)
    for _ in range(200):  # until a thread gets the ended one's ident
        thread = threading.Thread(target=leave)
        thread.start()
        thread.join(5)
        if seen:
            break
    if not seen:  # no thread was given the ended one's ident: leaving it on any other thread is refused too
        begun[0] = threading.get_ident() + 1
        thread = threading.Thread(target=lambda: (begun.__setitem__(0, threading.get_ident()), leave()))
        thread.start()
        thread.join(5)
    assert "was begun on another thread" in seen[0] and "nothing was committed" in seen[0]
    with pytest.warns(RuntimeWarning, match="was begun but never committed .its with block was left on another thread"):
        del suspended, left
        gc.collect()


def test_a_with_block_left_before_one_entered_after_it_is_committed_when_that_one_is_left(rt):
    # two asyncio tasks (or generators) whose blocks interleave on one thread share its transactions,
    # which the thread commits innermost first: the outer block, left first, warns and waits for the
    # inner one. Committed at once, it would have closed the inner transaction in its place, whose
    # on_complete would then have waited for what the thread added later
    first, second, third = rt.layer(), rt.layer(), rt.layer()
    done = []
    outer = rt.transaction(on_complete=lambda: done.append(("outer", rt.time)))
    inner = rt.transaction(on_complete=lambda: done.append(("inner", rt.time)))
    outer.__enter__()
    first.add_animation(rt.basic("opacity", to=0, duration=3))  # the outer one's only
    inner.__enter__()
    second.add_animation(rt.basic("opacity", to=0, duration=1))  # in both
    with pytest.warns(RuntimeWarning, match="was left while <Transaction open 0x[0-9a-f]+>, begun after it on this "
                                            "thread, is still open: it is committed when that one is left"):
        assert outer.__exit__(None, None, None) is None
    third.add_animation(rt.basic("opacity", to=0, duration=2))  # still in both
    inner.__exit__(None, None, None)  # commits the inner one, then the outer one
    assert "open" not in repr(outer) and "open" not in repr(inner)
    with pytest.raises(animrt.StateError):
        rt._call(animrt._ffi.lib.animrt_transaction_commit, 0)  # none is left open on this thread
    for now in (0, 1.5, 2.5, 3.5):
        rt.tick(now)
    assert done == [("inner", 2.5), ("outer", 3.5)]


def _left_before_the_inner_one_then_closed(cancelled: bool):
    """An outer block left (deferred) while an inner one is open, then the runtime closed (by another
    asyncio task, say) before the inner block is left, normally or by the cancellation of its task;
    returns the outer transaction and a weak reference to the runtime."""
    runtime = animrt.Runtime()
    done = []
    outer = runtime.transaction(on_complete=lambda: done.append("outer"))
    inner = runtime.transaction(on_complete=lambda: done.append("inner"))
    outer.__enter__()
    runtime.layer().add_animation(runtime.basic("opacity", to=0, duration=1))
    inner.__enter__()
    with pytest.warns(RuntimeWarning, match="is committed when that one is left"):
        outer.__exit__(None, None, None)
    runtime.close()
    if cancelled:  # the block's own exception goes on
        assert inner.__exit__(asyncio.CancelledError, asyncio.CancelledError(), None) is None
    else:
        with pytest.raises(animrt.ClosedError):
            inner.__exit__(None, None, None)  # the inner block is left after all
    assert done == []
    return outer, weakref.ref(runtime)


@pytest.mark.parametrize("cancelled", [True, False])
def test_a_with_block_waiting_for_an_inner_one_says_nothing_once_close_ended_it(cancelled):
    # close() says that pending completion callables never run; the block was left, and so was the
    # inner one: no warning that the inner one "was never left" nor to use a with block
    outer, _ = _left_before_the_inner_one_then_closed(cancelled)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        del outer
        gc.collect()
    assert [str(w.message) for w in caught if issubclass(w.category, RuntimeWarning)] == []


def test_a_closed_runtime_is_not_kept_by_a_with_block_that_waited_for_an_inner_one():
    # the thread's list of blocks waiting for an inner one drops those of a closed runtime when the
    # inner block is left, its commit refused: else the thread kept the runtime until its next commit
    outer, runtime = _left_before_the_inner_one_then_closed(cancelled=False)
    assert animrt._transaction._waiting_blocks() == []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        del outer
        gc.collect()
    assert runtime() is None


def test_a_with_block_left_by_an_exception_on_another_thread_lets_the_exception_through(rt):
    # a generator suspended inside a block and closed, or cancelled, on another thread: its own
    # exception is what the program sees (the refusal to commit there would hide it); the
    # transaction stays open on its thread, and says so when collected
    left, suspended = _block_to_suspend_in(rt)
    next(suspended)
    seen = []

    def other():
        try:
            suspended.throw(ValueError("the block's own"))
        except BaseException as e:  # kept without its traceback, whose frames would keep the transaction
            seen.append((type(e), str(e)))

    thread = threading.Thread(target=other)
    thread.start()
    thread.join(5)
    assert seen == [(ValueError, "the block's own")]
    with pytest.warns(RuntimeWarning, match="was begun but never committed .its with block was left on another thread"):
        del suspended, left
        gc.collect()


# -- a transaction never used in a with block ---------------------------------------------------
# rt.transaction(...) on its own begins nothing: its on_complete (or token) would wait for ever,
# silently. It says so when it is collected, as a coroutine never awaited does.

def test_a_transaction_never_entered_warns_that_its_on_complete_never_runs(rt):
    layer = rt.layer()
    ran = []

    def cleanup():
        ran.append("cleanup")

    forgotten = rt.transaction(on_complete=cleanup)
    layer.add_animation(rt.basic("opacity", to=0, duration=0.1))  # not in the transaction: none was begun
    with pytest.warns(RuntimeWarning, match=r"rt\.transaction\(\) was never entered with `with`: its on_complete "
                                            r".*cleanup \(.*test_events\.py:\d+\) is never called"):
        del forgotten
        gc.collect()
    rt.tick(0)
    rt.tick(0.2)
    assert ran == [] and not [e for e in rt.events() if isinstance(e, TransactionCompleted)]


def test_a_transaction_with_a_token_never_entered_warns_that_its_event_never_comes(rt):
    forgotten = rt.transaction(token=7)
    with pytest.warns(RuntimeWarning, match="never entered with `with`: no TransactionCompleted event with token 7"):
        del forgotten
        gc.collect()


def test_a_transaction_begun_by_hand_and_never_committed_warns(rt):
    ran = []
    t = rt.transaction(on_complete=lambda: ran.append(1))
    t.__enter__()
    rt.layer().add_animation(rt.basic("opacity", to=0, duration=0.1))
    with pytest.warns(RuntimeWarning, match=r"was begun but never committed .*on_complete .*<lambda>"):
        del t
        gc.collect()
    rt.tick(0)
    rt.tick(0.2)
    assert ran == []


def test_transactions_used_or_refused_or_with_nothing_to_tell_do_not_warn(rt):
    ran = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with rt.transaction(on_complete=lambda: ran.append("used")):
            rt.layer().add_animation(rt.basic("opacity", to=0, duration=0.1))
        with rt.transaction(token=3):
            pass
        rt.transaction()  # nothing to complete, nothing lost
        with pytest.raises(animrt.ArgumentTypeError):
            rt.transaction(token=3, on_complete=lambda: None)
        with pytest.raises(animrt.RangeError):
            rt.transaction(token=-1)
        rt.tick(0)
        rt.tick(0.2)
        completed = [e for e in rt.events() if isinstance(e, TransactionCompleted)]
        del completed  # the events' stand-ins are collected too
        gc.collect()
    assert ran == ["used"]
    assert [w for w in caught if issubclass(w.category, RuntimeWarning)] == []


def test_barrier_tokens_are_the_programs_and_callables_have_their_own(rt):
    barrier = rt.barrier()
    barrier.enter()
    ran = []
    barrier.notify(2 ** 63 - 1)
    barrier.notify(lambda: ran.append(1))
    with pytest.raises(animrt.RangeError, match="tokens go from 0 to 2\\*\\*63 - 1"):
        barrier.notify(2 ** 63)
    with pytest.raises(animrt.ArgumentTypeError, match="completion is 'done'"):
        barrier.notify("done")
    barrier.leave()
    rt.tick(0)
    assert ran == [1] and [e.token for e in rt.events()] == [2 ** 63 - 1]


def test_a_barrier_takes_its_token_by_keyword_as_timers_and_transactions_do(rt):
    layer = rt.layer()
    barrier = rt.barrier()
    layer.add_animation(rt.basic("opacity", to=0, duration=0.1), barrier=barrier)
    barrier.notify(token=8)
    barrier.notify(9)
    ran = []
    with pytest.raises(animrt.ArgumentTypeError, match="pass a callable or a token, not both"):
        barrier.notify(lambda: ran.append("both"), token=10)
    with pytest.raises(animrt.ArgumentTypeError, match=r"barrier.notify\(\) needs what to do when the count is zero"):
        barrier.notify()
    with pytest.raises(animrt.ArgumentTypeError, match="a callable is passed in its place, barrier.notify"):
        barrier.notify(token=lambda: None)  # type: ignore[arg-type]
    with pytest.raises(animrt.RangeError, match="token is -1; tokens go from 0 to 2\\*\\*63 - 1"):
        barrier.notify(token=-1)
    with pytest.raises(animrt.ArgumentTypeError, match="unknown option 'tokn'; did you mean 'token'"):
        barrier.notify(tokn=11)  # type: ignore[call-arg]
    rt.tick(0)
    rt.tick(0.1)
    notified = [e for e in rt.events() if isinstance(e, BarrierNotified)]
    assert [(e.barrier, e.token) for e in notified] == [(barrier, 8), (barrier, 9)]  # none of the refused ones
    assert ran == []


def test_a_barrier_waited_on_stays_alive(rt):
    layer = rt.layer()
    ran = []
    barrier = rt.barrier()
    layer.add_animation(rt.basic("opacity", to=0, duration=0.1), barrier=barrier)
    barrier.notify(lambda: ran.append("done"))
    barrier.notify(4)
    del barrier
    gc.collect()
    rt.tick(0)
    rt.tick(0.1)
    assert ran == ["done"]
    (notified,) = [e for e in rt.events() if isinstance(e, BarrierNotified)]
    assert notified.token == 4 and rt._waiting == {} and rt._notifications == {}
    gc.collect()
    assert notified.barrier.count == 0  # the event holds it; it was never destroyed early


def test_a_failing_callable_does_not_lose_the_other_events(rt):
    ran = []

    def boom():
        raise KeyError("from a callable")

    rt.start_timer(0, boom)
    rt.start_timer(0, lambda: ran.append("second"))
    rt.start_timer(0, token=3)
    with pytest.raises(KeyError, match="from a callable"):
        rt.tick(0)
    assert ran == ["second"] and [type(e) for e in rt.events()] == [TimerFired]


def test_a_callable_may_call_back_and_tick(rt):
    layer = rt.layer()
    log = []

    def chained():
        log.append(("first", rt.time))
        layer.add_animation(rt.basic("opacity", to=0, duration=0.1), key="next")
        rt.start_timer(0, lambda: log.append(("nested timer", rt.time)))
        rt.tick(rt.time + 0.05)  # ticking from a callable: its events come after this one's, in order

    rt.start_timer(0, chained)
    rt.tick(0)
    assert log == [("first", 0.0), ("nested timer", 0.05)]
    assert [type(e) for e in rt.events()] == [AnimationStarted]


def test_timers_with_callbacks(rt):
    fired = []
    rt.tick(0)  # timers count from the first tick: make it 0
    timer = rt.start_timer(0.5, lambda: fired.append(rt.time))
    assert timer.pending and timer.callback is not None
    cancelled = rt.start_timer(0.2, lambda: fired.append("never"))
    assert cancelled.cancel() is True
    rt.tick(0.4)
    rt.tick(0.6)
    assert fired == [0.6] and not timer.pending and timer.cancel() is False
    assert rt.events() == [] and rt._timers == {}
    with pytest.raises(animrt.ArgumentTypeError, match="a callback or a token, not both"):
        rt.start_timer(1, lambda: None, token=4)
    with pytest.raises(animrt.ArgumentTypeError, match="callback is 5 \\(an int\\)"):
        rt.start_timer(1, 5)  # type: ignore[arg-type]


def test_kept_events_are_bounded_and_the_loss_reported():
    with animrt.Runtime(event_capacity=8) as rt:
        for round_ in range(3):  # each tick stays under the C bound; the Python side keeps at most 8
            for i in range(5):
                rt.start_timer(0, token=round_ * 10 + i)
            rt.tick(round_)
        events = rt.events()
        assert [e.token for e in events[:7]] == [0, 1, 2, 3, 4, 10, 11]
        assert events[7] == Overflow(1.0, 8) and len(events) == 8
        assert rt.events() == []


def test_a_capacity_below_two_holds_two_as_in_the_library():
    # the header: "below 2 holds 2": one event and the overflow notice, the same as capacity 2
    def run(capacity):
        with animrt.Runtime(event_capacity=capacity) as rt:
            for i in range(4):
                rt.start_timer(0, token=i)
            rt.tick(0)
            return [(type(e).__name__, getattr(e, "token", None), getattr(e, "lost", None)) for e in rt.events()]

    assert run(1) == run(2) == [("TimerFired", 0, None), ("Overflow", None, 3)]


def test_events_of_calls_between_ticks_come_with_the_next_tick():
    # docs/names.md: rt.events() returns what ticks delivered, as a C callback receives it
    with animrt.Runtime() as rt:
        barrier = rt.barrier()
        barrier.notify(9)  # at zero: notified at once, reported with the next tick
        assert rt.events() == []
        rt.tick(0.0)
        assert [(type(e).__name__, e.token) for e in rt.events()] == [("BarrierNotified", 9)]


def test_close_reports_the_last_stops_to_the_handler():
    rt = animrt.Runtime()
    layer = rt.layer()
    attached = layer.add_animation(rt.basic("opacity", to=0, duration=10))
    rt.tick(0)
    seen = []
    rt.on_event(seen.append)
    rt.close()
    assert len(seen) == 1 and isinstance(seen[0], AnimationStopped)
    assert seen[0].attached is attached and seen[0].reason is StopReason.RUNTIME_DESTROYED


def test_an_on_finish_runs_before_the_handler_sees_its_stop_at_a_tick_and_at_close():
    # The same order for the stops close() reports as for those a tick delivers.
    log = []
    rt = animrt.Runtime()
    layer = rt.layer()
    rt.on_event(lambda event: log.append(("handler", type(event).__name__, event.key)))
    for key, duration in (("short", 0.1), ("long", 10)):
        layer.add_animation(rt.basic("opacity", to=0, duration=duration), key=key,
                            on_finish=lambda done, key=key: log.append(("on_finish", done, key)))
    rt.tick(0)
    rt.tick(0.1)
    assert log[2:] == [("on_finish", True, "short"), ("handler", "AnimationStopped", "short")]
    del log[:]
    rt.close()
    assert log == [("on_finish", False, "long"), ("handler", "AnimationStopped", "long")]


def test_events_read_later_are_the_same_whether_or_not_something_listens():
    def run(listen):
        with animrt.Runtime(event_capacity=64) as rt:
            layers = [rt.layer() for _ in range(40)]
            fades = [rt.basic("opacity", to=0, duration=0.1 * (i + 1)) for i in range(4)]
            for i, layer in enumerate(layers):  # through C: nothing of the binding's to hand back
                lib.animrt_layer_add_animation(rt._ptr, layer.id, fades[i % 4].id, None, 0, None)
            if listen:
                rt.start_timer(10, lambda: None)  # a pending callable: events are looked at as they come
            for t in (0.0, 0.1, 0.2, 0.3, 0.4):
                rt.tick(t)
            return [(type(e).__name__, e.time, layers.index(e.layer) if hasattr(e, "layer") else None)
                    for e in rt.events()]

    quiet, listening = run(False), run(True)
    assert quiet == listening
    assert [name for name, _, _ in quiet].count("AnimationStarted") == 40
    assert quiet[-1][0] == "Overflow" and len(quiet) == 64


def test_a_runtime_with_a_handler_and_pending_callables_is_still_collected():
    rt = animrt.Runtime()
    rt.on_event(lambda event: None)
    layer = rt.layer()
    layer.add_animation(rt.basic("opacity", to=0, duration=5))
    rt.start_timer(10, lambda: rt.time)  # a callable that refers back to the runtime
    native = rt._native
    del rt, layer
    gc.collect()
    assert native.ptr is None


def test_a_barrier_waited_on_by_a_token_alone_stays_alive(rt):
    # the bulk add keeps no Python object of the barrier: the token notification must
    dots = rt.create_layers(3)
    barrier = rt.barrier()
    rt.add_animations(rt.basic("opacity", to=0, duration=0.1), dots, barrier=barrier)
    barrier.notify(7)
    barrier_id = barrier.id
    del barrier
    gc.collect()
    rt.tick(0)
    rt.tick(0.1)
    notified = [e for e in rt.events() if isinstance(e, BarrierNotified)]
    assert [(e.barrier.id, e.token) for e in notified] == [(barrier_id, 7)] and rt._waiting == {}


def test_a_barrier_stays_alive_until_its_last_token_notification_is_delivered(rt):
    # Kept alive while a notification waits, counted: the first delivered must not let it go (and
    # its destroy drop the second) while the second still waits for the bulk animations to stop.
    dots = rt.create_layers(3)
    barrier = rt.barrier()
    barrier.notify(1)  # at zero: notified at the next tick
    rt.add_animations(rt.basic("opacity", to=0, duration=0.5), dots, barrier=barrier)
    barrier.notify(2)  # once the three have stopped
    barrier_id = barrier.id
    del barrier
    gc.collect()
    rt.tick(0)
    assert [(type(e).__name__, e.token) for e in rt.events() if isinstance(e, BarrierNotified)] == \
        [("BarrierNotified", 1)]
    gc.collect()  # the event read is gone: only the waiting notification holds the barrier
    rt.tick(0.5)
    notified = [e for e in rt.events() if isinstance(e, BarrierNotified)]
    assert [(e.barrier.id, e.token) for e in notified] == [(barrier_id, 2)] and rt._waiting == {}


def test_a_stand_in_owns_nothing():
    # a barrier made through animrt._ffi is the program's: the stand-in its event brings must not
    # destroy it when the event is dropped
    with animrt.Runtime() as rt:
        raw = ctypes.c_uint64()
        lib.animrt_barrier_create(rt._ptr, ctypes.byref(raw))
        lib.animrt_barrier_notify(rt._ptr, raw.value, 5)
        rt.tick(0)
        (notified,) = rt.events()
        assert notified.barrier.id == raw.value and notified.token == 5
        del notified
        gc.collect()
        lib.animrt_barrier_enter(rt._ptr, raw.value)
        count = ctypes.c_size_t()
        lib.animrt_barrier_count(rt._ptr, raw.value, ctypes.byref(count))
        assert count.value == 1


def test_a_tick_delivers_all_its_events_however_many(rt):
    # more than one poll's worth (1,024): every callable runs at this tick, in order
    fired = []
    for i in range(2500):
        rt.start_timer(0, lambda i=i: fired.append(i))
    rt.tick(0)
    assert fired == list(range(2500))


def test_a_token_timer_that_fired_is_no_longer_pending_before_its_event_is_read(rt):
    ping = rt.start_timer(0.5, token=42)
    rt.tick(0)
    assert ping.pending
    rt.tick(0.5)
    assert not ping.pending and ping.cancel() is False
    (fired,) = rt.events()
    assert fired.timer is ping and fired.token == 42


def test_a_timer_whose_event_was_lost_is_not_pending():
    # pending is the library's (animrt_timer_pending), not whether the binding saw a TimerFired
    with animrt.Runtime(event_capacity=2) as rt:
        for i in range(3):
            rt.start_timer(0, token=i)
        late = rt.start_timer(0, token=9)
        later = rt.start_timer(1, token=10)
        never = rt.start_timer(100, token=11)
        assert late.pending and later.pending
        rt.tick(0)
        assert not late.pending and later.pending
        events = rt.events()
        assert [type(e) for e in events] == [TimerFired, Overflow] and events[1].lost == 3
        assert not late.pending and late.cancel() is False
        rt.tick(1)
        assert not later.pending and [e.token for e in rt.events()] == [10] and never.pending
    assert not never.pending  # closed: it can no longer fire


def test_the_callable_of_a_timer_whose_event_was_lost_runs_once_in_due_order():
    with animrt.Runtime(event_capacity=2) as rt:
        ran = []
        rt.tick(0)
        for i in range(3):
            rt.start_timer(0.1, token=i)
        b = rt.start_timer(0.5, lambda: ran.append(("b", rt.time)))
        a = rt.start_timer(0.25, lambda: ran.append(("a", rt.time)))
        c = rt.start_timer(5, lambda: ran.append(("c", rt.time)))
        rt.tick(1)  # the queue holds the first TimerFired: a's and b's are lost
        assert ran == [("a", 1.0), ("b", 1.0)]
        assert not a.pending and not b.pending and c.pending and list(rt._timers.values()) == [c]
        events = rt.events()
        assert [type(e) for e in events] == [TimerFired, Overflow] and events[1].lost == 4
        rt.tick(5)
        assert ran[2:] == [("c", 5.0)] and rt._timers == {}


def test_cancel_of_a_timer_whose_event_was_lost_says_false():
    # the queue overflowed and lost the TimerFired: the library still knows it fired
    with animrt.Runtime(event_capacity=2) as rt:
        for i in range(3):
            rt.start_timer(0, token=i)
        late = rt.start_timer(0, token=9)
        rt.tick(0)
        assert late.cancel() is False
        events = rt.events()
        assert [type(e) for e in events] == [TimerFired, Overflow] and events[1].lost == 3



def test_a_timer_cancelled_by_a_callable_of_the_tick_that_fired_it_says_false_and_still_runs(rt):
    # Both fire at 1.0, in the order started; the first's callable cancels the second, whose
    # TimerFired is not delivered yet. Too late, as cancel() says (False): its callback still runs,
    # and no TimerFired without a callback is reported in its place.
    ran, told = [], []
    rt.tick(0)
    late: List[animrt.Timer] = []
    rt.start_timer(1.0, lambda: told.append(late[0].cancel()))
    late.append(rt.start_timer(1.0, lambda: ran.append(rt.time)))
    rt.tick(1.0)
    assert told == [False] and ran == [1.0]
    assert rt.events() == [] and rt._timers == {} and not late[0].pending
    assert repr(late[0]) == f"<Timer fired {late[0].id:#x}>"


@pytest.mark.parametrize("count", [3, 1500])  # 1500: more than one poll of the tick's events
def test_close_from_a_handler_delivers_the_rest_of_the_tick_first(count):
    # As the library does when a callback destroys the runtime: the tick's other events, each
    # animation's start among them, come before the stops the runtime's end makes.
    rt = animrt.Runtime()
    seen = []

    def handler(e):
        seen.append((type(e).__name__, e.attached.id))
        if len(seen) == 1:
            rt.close()

    rt.on_event(handler)
    for _ in range(count):
        rt.layer().add_animation(rt.basic("opacity", from_=0.0, to=1.0, duration=5))
    rt.tick(0)
    assert [kind for kind, _ in seen] == ["AnimationStarted"] * count + ["AnimationStopped"] * count
    assert {o for _, o in seen[:count]} == {o for _, o in seen[count:]} and len({o for _, o in seen}) == count
    assert rt.closed


def test_a_timer_started_while_another_thread_ticks_runs_its_callback(rt):
    # Started on one thread as another ticked, a timer was registered only after the library had
    # started it: a tick in between fired it (a delay of 0 fires at the next tick) and delivered a
    # TimerFired event, its callback never run. Here the other thread ticks just after the library
    # started it.
    ticked = threading.Event()
    real = rt._call

    def call(fn, *args):
        result = real(fn, *args)
        if fn is _ffi.lib.animrt_timer_start:
            rt._call = real
            threading.Thread(target=lambda: (rt.tick(0.1), ticked.set())).start()
            ticked.wait(0.3)  # it waits for the timer to be registered (or, unfixed, delivers at once)
        return result

    rt._call = call
    ran = []
    timer = rt.start_timer(0.0, lambda: ran.append(rt.time))
    assert ticked.wait(10)
    assert ran == [0.1]
    assert rt.events() == [] and not rt._timers and not timer.pending


class _TickingWhileRead(collections.deque):
    """Kept events that, as events() goes through them, have another thread's tick keep more."""

    def __init__(self, items, tick):
        super().__init__(items)
        self.tick = tick

    def __iter__(self):
        for i, item in enumerate(collections.deque.__iter__(self)):
            if i == 0:
                ticker = threading.Thread(target=self.tick)
                ticker.start()
                ticker.join()
            yield item


def test_events_read_on_one_thread_as_another_ticks_are_each_read_once():
    # events() went through the kept events as another thread's tick added to them: it raised
    # RuntimeError (deque mutated during iteration), and what a tick kept between the reading
    # and the clearing was dropped without being counted.
    with animrt.Runtime() as rt:
        layers = rt.create_layers(3)
        rt.add_animations(rt.basic("opacity", to=0, duration=0.5), layers)
        rt.tick(0)
        rt._kept = _TickingWhileRead(rt._kept, lambda: rt.tick(1))
        first = rt.events()
        assert [type(e).__name__ for e in first] == ["AnimationStarted"] * 3
        second = rt.events()
        assert [type(e).__name__ for e in second] == ["AnimationStopped"] * 3
        assert rt.events() == []


def _two_fades(rt, finished):
    layers = [rt.layer(), rt.layer()]
    for name, layer in zip("ab", layers):
        layer.add_animation(rt.basic("opacity", to=0, duration=0.5), key=name,
                            on_finish=lambda done, name=name: finished.append((name, done)))
    return layers


def _names(events):
    return [(type(e).__name__, e.key) for e in events if isinstance(e, (AnimationStarted, AnimationStopped))]


def test_ctrl_c_right_after_a_poll_loses_no_event(rt, interrupt_after):
    # The library gave the tick's events up; Ctrl-C landed before the binding handed them on. The
    # next delivery hands them on first: each on_finish runs once, in order, and events() has all.
    finished: List[tuple] = []
    _two_fades(rt, finished)
    rt.tick(0)
    interrupt_after("animrt_event_poll")
    with pytest.raises(KeyboardInterrupt):
        rt.tick(1)
    assert finished == []
    rt.tick(2)
    assert finished == [("a", True), ("b", True)]
    assert _names(rt.events()) == [("AnimationStarted", "a"), ("AnimationStarted", "b"),
                                   ("AnimationStopped", "a"), ("AnimationStopped", "b")]


def test_ctrl_c_right_after_a_poll_nobody_listens_to_loses_no_event(rt, interrupt_after):
    # Added in bulk: nothing of the program's waits on them, so the events are only kept.
    layers = rt.create_layers(2)
    rt.add_animations(rt.basic("opacity", to=0, duration=0.5), layers[:1])
    rt.tick(0)
    interrupt_after("animrt_event_poll")
    with pytest.raises(KeyboardInterrupt):
        rt.tick(1)
    rt.add_animations(rt.basic("opacity", to=1, duration=0.5), layers[1:])
    rt.tick(2)
    assert [(type(e).__name__, e.time) for e in rt.events()] == [
        ("AnimationStarted", 0.0), ("AnimationStopped", 1.0), ("AnimationStarted", 2.0)]


def test_ctrl_c_as_polled_events_are_handed_on_loses_none(rt, monkeypatch):
    finished: List[tuple] = []
    _two_fades(rt, finished)
    rt.tick(0)
    real, left = animrt.Runtime._listening, [1]

    def listening(self):
        if left[0]:
            left[0] -= 1
            raise KeyboardInterrupt
        return real(self)
    monkeypatch.setattr(animrt.Runtime, "_listening", listening)
    with pytest.raises(KeyboardInterrupt):
        rt.tick(1)
    rt.tick(2)
    assert finished == [("a", True), ("b", True)]


def test_ctrl_c_while_events_decodes_puts_them_back(rt, monkeypatch):
    # Added in bulk: no object of the program's to hand back, so the events are kept as they came
    # and decoded by events().
    layer = rt.layer()
    rt.add_animations(rt.basic("opacity", to=0, duration=0.5), rt.create_layers(1), key="a")
    rt.tick(0)
    rt.tick(1)
    assert any(isinstance(item, bytes) for item in rt._kept)
    real, left = animrt.Runtime._event, [1]

    def event(self, *args, **kwargs):
        decoded = real(self, *args, **kwargs)
        if left[0]:
            left[0] -= 1
            raise KeyboardInterrupt
        return decoded
    monkeypatch.setattr(animrt.Runtime, "_event", event)
    with pytest.raises(KeyboardInterrupt):
        rt.events()
    layer.add_animation(rt.basic("opacity", to=1, duration=0.5), key="b")
    rt.tick(2)
    assert [(type(e).__name__, e.time) for e in rt.events()] == [
        ("AnimationStarted", 0.0), ("AnimationStopped", 1.0), ("AnimationStarted", 2.0)]
    assert rt.events() == []
    assert left == [0]


def test_close_delivers_the_events_ctrl_c_held_back_first(interrupt_after):
    finished: List[tuple] = []
    with animrt.Runtime() as rt:
        _two_fades(rt, finished)
        rt.tick(0)
        interrupt_after("animrt_event_poll")
        with pytest.raises(KeyboardInterrupt):
            rt.tick(1)
        rt.layer().add_animation(rt.basic("opacity", to=0, duration=5), key="c",
                                 on_finish=lambda done: finished.append(("c", done)))
    # a and b played to their end (their stops came over before Ctrl-C); c was cut short by close()
    assert finished == [("a", True), ("b", True), ("c", False)]
