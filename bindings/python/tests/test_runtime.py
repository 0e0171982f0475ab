"""The binding's classes, end to end against libanimrt (R5.2)."""
import collections
import gc
import math
import sys
import threading
import time
import weakref
from array import array

import pytest

import animrt
from animrt import (AnimationStarted, AnimationStopped, BarrierNotified, Overflow, StopReason, TimerFired,
                    TransactionCompleted)


@pytest.fixture
def rt():
    with animrt.Runtime() as runtime:
        yield runtime


def test_basic_animation_presentation_and_model(rt):
    layer = rt.layer()
    layer["opacity"] = 1.0
    layer.add_animation(rt.basic("opacity", from_=0.0, to=0.5, duration=2.0, timing_function="easeInEaseOut"), key="fade")
    rt.tick(10.0)
    assert layer.presentation("opacity") == 0.0
    rt.tick(11.0)
    assert layer.presentation("opacity") == pytest.approx(0.25, abs=1e-12)
    assert layer["opacity"] == 1.0
    assert layer.animation_keys() == ["fade"]
    rt.tick(12.5)
    assert layer.presentation("opacity") == 1.0
    started, stopped = rt.events()
    assert isinstance(started, AnimationStarted) and started.layer is layer and started.time == 10.0
    assert isinstance(stopped, AnimationStopped) and stopped.finished and stopped.reason is StopReason.FINISHED
    assert rt.time == 12.5


def test_values_of_every_kind(rt):
    layer = rt.layer()
    layer["position"] = (10, 20)
    layer["bounds"] = (0, 0, 100, 50)
    layer["backgroundColor"] = (1, 0, 0, 1)
    assert layer["position"] == (10.0, 20.0)
    assert layer["position.y"] == 20.0
    assert layer["bounds.size"] == (100.0, 50.0)
    assert len(layer["transform"]) == 16
    assert rt.keypath_info("bounds") == (animrt.ValueKind.RECT, 4)
    layer.add_animation(rt.basic("transform.rotation.z", from_=0, to=math.pi, duration=1))
    rt.tick(0)
    rt.tick(0.5)
    m = layer.presentation("transform")
    assert m[0] == pytest.approx(0, abs=1e-12) and m[1] == pytest.approx(1)
    assert layer.presentation("backgroundColor") == (1.0, 0.0, 0.0, 1.0)


def test_discrete_key_times_one_per_value_hold_the_last_value_to_the_end(rt):
    # docs/timing.md: one key time per value, the last value holds from its key time on (it may be
    # below 1); with one more than the values, or in any other mode, the last key time must be 1
    layer = rt.layer()
    layer.add_animation(rt.keyframe("position.x", [0, 1, 2], key_times=[0, 0.2, 0.5], calculation_mode="discrete",
                                    duration=1))
    rt.tick(0)
    shown = []
    for t in (0.1, 0.3, 0.6, 0.99):
        rt.tick(t)
        shown.append(layer.presentation("position.x"))
    assert shown == [0, 1, 2, 2]
    with pytest.raises(animrt.InvalidArgumentError, match="the last key time must be 1"):
        layer.add_animation(rt.keyframe("position.y", [0, 1, 2], key_times=[0, 0.2, 0.5, 0.9],
                                        calculation_mode="discrete"))
    with pytest.raises(animrt.InvalidArgumentError, match="the last key time must be 1"):
        layer.add_animation(rt.keyframe("opacity", [0, 1, 0], key_times=[0, 0.2, 0.5]))


def test_keyframes_springs_groups(rt):
    layer = rt.layer()
    kf = rt.keyframe("position.x", [310, 60, 120, 60], key_times=[0, 0.25, 0.5, 0.75, 1],
                     calculation_mode="discrete", duration=1)
    layer.add_animation(kf, key="kf")
    spring = rt.spring("opacity", damping=5, from_=0, to=1)
    assert spring.settling_duration == pytest.approx(2.85, abs=0.1)
    assert spring.duration == spring.settling_duration  # springs run until settled by default
    layer.add_animation(spring, key="spring")
    child = rt.basic("cornerRadius", from_=0, to=10, duration=5, begin_time=0.5)
    group = rt.group([child], begin_time=1, duration=3)
    layer.add_animation(group, key="group")
    rt.tick(0)
    rt.tick(0.3)
    assert layer.presentation("position.x") == 60
    rt.tick(3.9)
    assert layer.presentation("cornerRadius") == pytest.approx(4.8)
    assert layer.animation_keys() == ["group"]  # the keyframes (1 s) and the spring (2.87 s) finished and were removed


def test_animation_options_round_trip(rt):
    a = rt.basic("opacity", to=1, duration=2, repeat_count=float("inf"), autoreverses=True, fill_mode="both",
                 speed=-1, time_offset=0.5, direction="alternate")
    assert a.duration == 2 and a.repeat_count == math.inf and a.speed == -1 and a.time_offset == 0.5
    assert a.autoreverses and a.fill_mode is animrt.FillMode.BOTH and a.direction is animrt.Direction.ALTERNATE
    a.timing_function = (0.1, 0.2, 0.3, 0.4)
    assert a.timing_function == (0.1, 0.2, 0.3, 0.4)
    with pytest.raises(TypeError, match="did you mean 'duration'"):
        rt.basic("opacity", durration=1)  # type: ignore[call-arg]


def test_barrier_transaction_timer(rt):
    layer = rt.layer()
    barrier = rt.barrier()
    layer.add_animation(rt.basic("opacity", from_=0, to=1, duration=1), key="a", barrier=barrier)
    layer.add_animation(rt.basic("position.x", from_=0, to=1, duration=2), key="b", barrier=barrier)
    assert barrier.count == 2
    barrier.notify(7)
    with rt.transaction(animation_duration=0.5, token=8) as transaction:
        layer.add_animation(rt.basic("cornerRadius", to=4), key="t")
    timer = rt.start_timer(1.5, token=9)
    cancelled = rt.start_timer(0.1, token=10)
    assert cancelled.cancel() and not cancelled.cancel()
    seen = []
    for t in (0, 0.5, 1, 1.5, 2):
        rt.tick(t)
        seen += [e for e in rt.events() if not isinstance(e, (AnimationStarted, AnimationStopped))]
    assert seen == [TransactionCompleted(0.5, transaction, 8), TimerFired(1.5, timer, 9),
                    BarrierNotified(2.0, barrier, 7)]
    assert seen[0].transaction is transaction and seen[1].timer is timer and seen[2].barrier is barrier
    assert not timer.pending and not timer.cancel()
    with pytest.raises(animrt.StateError, match="without a matching enter"):
        barrier.leave()


def test_callbacks_run_after_the_tick_and_may_call_back(rt):
    layer = rt.layer()
    seen = []

    def on_event(event):
        seen.append(event)
        if isinstance(event, AnimationStopped):
            seen.append(layer.presentation("opacity"))  # re-entering animrt from the callback

    rt.on_event(on_event)
    layer.add_animation(rt.basic("opacity", from_=0, to=0.5, duration=1))
    rt.tick(0)
    rt.tick(1)
    assert [type(e) for e in seen] == [AnimationStarted, AnimationStopped, float]
    assert rt.events() == []

    def boom(event):
        raise RuntimeError("from the callback")

    rt.on_event(boom)
    layer.add_animation(rt.basic("opacity", to=1, duration=1))
    with pytest.raises(RuntimeError, match="from the callback"):
        rt.tick(2)
    rt.on_event(None)
    rt.tick(3)
    assert [type(e) for e in rt.events()] == [AnimationStopped]


def test_a_timer_started_before_the_first_tick_counts_from_it():
    # A host's monotonic clock is far from 0 when it starts ticking: the
    # timer fires 2 s after that first tick, not at it.
    with animrt.Runtime() as rt:
        timer = rt.start_timer(2, token=5)
        rt.tick(7200.0)
        assert rt.events() == [] and timer.pending
        rt.tick(7201.9)
        assert rt.events() == []
        rt.tick(7202.0)
        assert rt.events() == [TimerFired(7202.0, timer, 5)]


def test_overflow_is_reported():
    with animrt.Runtime(event_capacity=4) as rt:
        for i in range(10):
            rt.start_timer(0, token=i)
        rt.tick(0)
        events = rt.events()
        assert [e.token for e in events[:3]] == [0, 1, 2]
        assert events[3] == Overflow(0.0, 7)


def test_reader_fills_arrays_in_place(rt):
    layers = [rt.layer() for _ in range(100)]
    for i, layer in enumerate(layers):
        layer.add_animation(rt.basic("position.x", from_=0, to=i, duration=1))
    reader = rt.reader([(layer, "position.x") for layer in layers])
    rt.tick(0)
    rt.tick(0.5)
    out = array("d", bytes(800))
    assert reader.read(out) is out
    assert list(out) == [i / 2 for i in range(100)]
    import numpy
    fresh = reader.read()
    assert isinstance(fresh, numpy.ndarray) and fresh.shape == (100, 1) == reader.shape and len(reader) == 100
    assert list(fresh[:, 0]) == list(out)
    target = numpy.zeros(100)
    assert reader.read(target) is target and target[99] == 49.5
    with pytest.raises(ValueError):
        reader.read(array("d", bytes(80)))  # too small a buffer is refused before the call
    points = rt.reader([(layers[3], "position")])
    assert list(points.read(array("d", bytes(16)))) == [1.5, 0.0]


def test_close_is_idempotent_and_final():
    rt = animrt.Runtime()
    layer = rt.layer()
    rt.close()
    rt.close()
    assert rt.closed
    with pytest.raises(animrt.ClosedError):
        layer.presentation("opacity")
    with pytest.raises(animrt.ClosedError):
        rt.tick(1)
    # A with block refuses a closed runtime, as it refuses a closed file: nothing in it runs.
    ran = []
    with pytest.raises(animrt.ClosedError, match="the runtime is closed"):
        with rt:
            ran.append(1)
    assert ran == []


def test_an_animation_of_a_closed_runtime_says_so():
    gone = animrt.Runtime()
    fade = gone.basic("opacity", to=0.0)
    gone.close()
    with animrt.Runtime() as rt:
        layer = rt.layer()
        for add in (lambda: layer.add_animation(fade), lambda: rt.add_animations(fade, rt.create_layers(2))):
            with pytest.raises(animrt.ClosedError, match="the animation's runtime is closed"):
                add()
        assert layer.animation_keys() == []


def test_objects_are_freed_with_the_garbage_collector():
    rt = animrt.Runtime()
    for _ in range(1000):
        rt.basic("opacity", to=1)
    gc.collect()
    a = rt.basic("opacity", to=1)
    assert (a.id & 0xFFFFFF) < 1000  # slots were reused: the descriptions were destroyed
    native = rt._native
    del rt, a
    gc.collect()
    assert native.ptr is None  # the runtime itself was destroyed


def test_threads_share_a_runtime(rt):
    layer = rt.layer()
    layer.add_animation(rt.basic("position.x", from_=0, to=100, duration=1, repeat_count=float("inf")))
    errors = []

    def read():
        try:
            for _ in range(2000):
                assert 0 <= layer.presentation("position.x") <= 100
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)

    threads = [threading.Thread(target=read) for _ in range(2)]
    for t in threads:
        t.start()
    for i in range(2000):
        rt.tick(i * 0.001)
    for t in threads:
        t.join()
    assert errors == []


def test_close_waits_for_the_calls_other_threads_are_making():
    # A call inside the library when close() starts returns as usual; close() frees the runtime
    # only then, and the thread's next call is a ClosedError.
    rt = animrt.Runtime()
    inside, proceed, results = threading.Event(), threading.Event(), []

    def held(x):
        inside.set()
        proceed.wait(10)
        return x

    rt.register_timing_function("held", held)
    rt.layer().add_animation(rt.basic("opacity", from_=0, to=1, duration=1, timing_function="held"))

    def tick():
        rt.tick(0.5)
        results.append("ticked")
        try:
            rt.tick(0.6)
        except animrt.ClosedError:
            results.append("closed")

    ticker = threading.Thread(target=tick)
    ticker.start()
    assert inside.wait(10)
    closer = threading.Thread(target=rt.close)
    closer.start()
    closer.join(0.2)
    assert closer.is_alive() and rt.closed  # closed to new calls, waiting for the tick to return
    proceed.set()
    closer.join(10)
    ticker.join(10)
    assert not closer.is_alive() and results == ["ticked", "closed"]


def test_calls_racing_close_are_closed_errors():
    # Each call another thread makes while close() runs either finishes before the runtime is freed
    # or is refused with ClosedError: none reaches the library with a freed runtime.
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    outcomes = collections.Counter()
    try:
        for _ in range(200):
            rt = animrt.Runtime()
            layer = rt.layer()

            def work():
                t = 0.0
                try:
                    while True:
                        t += 0.01
                        rt.tick(t)
                        layer.presentation("opacity")
                except Exception as e:
                    outcomes[type(e).__name__] += 1

            worker = threading.Thread(target=work)
            worker.start()
            time.sleep(0.0005)
            rt.close()
            worker.join(10)
    finally:
        sys.setswitchinterval(interval)
    assert outcomes == {"ClosedError": 200}


def test_a_machine_made_while_another_thread_ticks_is_named_in_its_first_events():
    # Made (or restored) on one thread as another ticks, a machine was registered only after the library
    # had made it: a tick polling in between delivered its first event (its initial state) as a
    # MachineError of "a machine this binding did not create", or found it half made and raised
    # AttributeError from the tick. Here the tick runs just after the library made it.
    with animrt.Runtime() as rt:
        button = rt.definition(named="networkButton")
        ticked = threading.Event()
        real = rt._call

        def call(fn, *args):
            result = real(fn, *args)
            if fn is animrt._ffi.lib.animrt_machine_create:
                threading.Thread(target=lambda: (rt.tick(rt.time), ticked.set())).start()
                ticked.wait(0.3)  # it waits for the machine to be registered (or, unfixed, delivers at once)
            return result

        rt._call = call
        made = rt.machine(button)
        assert ticked.wait(10)
        events = rt.events()
        assert [type(e).__name__ for e in events] == ["StateChanged"]
        assert events[0].machine is made and events[0].to_state == "ready"
        rt._call = real


def test_payloads_delivered_after_another_thread_closed_the_runtime_are_read_whole():
    # A machine event's payload is the library's until the next poll, or until the runtime is freed: it
    # was read as each event was delivered, so once a handler had another thread close the runtime, the
    # later events of the tick read freed memory (garbage, UnicodeDecodeError from rt.tick(), or worse).
    # The payloads are read at the poll, which a close() waits for.
    rt = animrt.Runtime()
    card = rt.definition(named="progressCard")
    cards = [rt.machine(card) for _ in range(20)]
    card.destroy()  # every name read now: the events are named once the runtime is gone
    rt.tick(0.0)
    for n, m in enumerate(cards):
        m.send("fetch")
        m.send("fetch")
        m.send("fetched", request=1, progress=0.5, hint=f"a hint long enough to be allocated {n}")  # stale
    seen = []

    def handler(event):
        if not seen:
            closer = threading.Thread(target=rt.close)
            closer.start()
            closer.join(10)
        seen.append(event)

    rt.on_event(handler)
    rt.tick(0.1)
    assert rt.closed
    hints = [e.payload["hint"] for e in seen if isinstance(e, animrt.StaleResult)]
    assert hints == [f"a hint long enough to be allocated {n}" for n in range(20)]


def test_close_is_not_undone_by_objects_another_thread_makes_meanwhile():
    # close() went through the runtime's objects (to read its definitions' names) and its animations
    # waiting with on_finish callables as another thread made more: the mapping changed as it was gone
    # through, and close() raised RuntimeError, leaving the runtime open. Here the other thread makes
    # them at those very moments.
    rt = animrt.Runtime()
    rt.definition(named="progressCard")
    layer = rt.layer()
    layer.add_animation(rt.basic("opacity", to=0.0, duration=1.0), on_finish=lambda finished: None)
    rt.tick(0.0)

    def meanwhile():
        thread = threading.Thread(target=lambda: (rt.layer(), layer.add_animation(
            rt.basic("opacity", to=0.5, duration=1.0), on_finish=lambda finished: None)))
        thread.start()
        thread.join(10)

    class Busy(weakref.WeakValueDictionary):
        def values(self):
            for value in super().values():
                meanwhile()
                yield value

    asked = rt._has_finished

    def has_finished(handle):
        meanwhile()
        return asked(handle)

    rt._objects = Busy(rt._objects)
    rt._has_finished = has_finished
    rt.close()
    assert rt.closed


def test_a_call_is_counted_before_it_reads_the_runtime():
    # A close() starting just as a call reads the runtime's pointer waits for that call: the pointer
    # it read stays valid until it returns.
    rt = animrt.Runtime()
    native = rt._native
    closed, seen = threading.Event(), []
    closer = threading.Thread(target=lambda: (rt.close(), closed.set()))
    me = threading.get_ident()

    class Watched(type(native)):
        @property
        def ptr(self):
            value = self.__dict__["_watched"]
            if threading.get_ident() == me and value is not None and not seen:
                closer.start()  # the close begins as this thread holds the pointer
                seen.append(closed.wait(0.3))  # and cannot end before the call has returned
            return value

        @ptr.setter
        def ptr(self, value):
            self.__dict__["_watched"] = value

    native.__dict__["_watched"] = native.__dict__.pop("ptr")
    native.__class__ = Watched
    rt.tick(1.0)
    assert seen == [False] and closed.wait(10) and rt.closed


def _on_another_thread_after(rt, matches, action):
    """Runs `action` on another thread, once, right after the first call into the library that
    `matches(fn, args)`, whether it succeeded or raised: another thread's change between two calls."""
    real = rt._call

    def call(fn, *args):
        try:
            return real(fn, *args)
        finally:
            if matches(fn, args):
                rt._call = real
                other = threading.Thread(target=action)
                other.start()
                other.join(10)

    rt._call = call


def test_animation_keys_read_whole_when_a_longer_key_takes_an_index_meanwhile(rt, monkeypatch):
    # A key too long for the buffer a read starts with is read again at the size the library said.
    # Another thread removing the animation at that index in between moved a longer key there, and
    # animation_keys() raised BufferTooSmallError, an error about buffers the caller never gave. Here
    # the other thread removes "a" (and adds "z") just after the size of the key at index 0 was learnt.
    monkeypatch.setitem(animrt._layer._string_sizes, "animrt_layer_animation_key", 1)  # the first call learns the size
    toast = rt.layer()
    fade = rt.basic("opacity", to=0.0, duration=1.0)
    toast.add_animation(fade, key="a")
    toast.add_animation(fade, key="a-longer-key")
    # (the call with a 1-byte buffer raises BufferTooSmallError, having set the size)
    _on_another_thread_after(rt, lambda fn, args: fn is animrt._ffi.lib.animrt_layer_animation_key and args[3] == 1,
                             lambda: (toast.remove_animation("a"), toast.add_animation(fade, key="z")))
    assert toast.animation_keys() == ["a-longer-key", "z"]


def test_animation_keys_counted_again_when_another_thread_removes_some_meanwhile(rt):
    # The keys are counted, then read one by one. Another thread removing an animation in between left
    # an index past the end, and animation_keys() raised RangeError about an index the caller never
    # gave. Here the other thread removes "b" just after the keys were counted.
    toast = rt.layer()
    fade = rt.basic("opacity", to=0.0, duration=1.0)
    toast.add_animation(fade, key="a")
    toast.add_animation(fade, key="b")
    _on_another_thread_after(rt, lambda fn, args: fn is animrt._ffi.lib.animrt_layer_animation_count,
                             lambda: toast.remove_animation("b"))
    assert toast.animation_keys() == ["a"]


def test_close_from_inside_an_argument_is_a_closed_error():
    # The runtime closed while an argument is read: the call it was for is refused, not made.
    rt = animrt.Runtime()

    class ClosingTime(float):
        def __float__(self):
            rt.close()
            return 1.0

    with pytest.raises(animrt.ClosedError, match="the runtime is closed"):
        rt.tick(ClosingTime(1.0))
    assert rt.closed


def test_close_from_inside_a_call_is_refused():
    # ctypes converts an argument inside the call, after the pointer is read: closing there is
    # refused, and the call goes on with a live runtime.
    rt = animrt.Runtime()
    refused = []

    class Closing:
        def __float__(self):
            try:
                rt.close()
            except animrt.StateError as e:
                refused.append(str(e))
            return 1.0

    rt._call(animrt._ffi.lib.animrt_runtime_tick, Closing())
    assert not rt.closed and rt.time == 1.0
    assert refused == ["close() from inside a call into the runtime (converting one of its arguments); close it once "
                       "that call has returned"]
    rt.close()


def test_a_missing_library_is_a_clear_error(tmp_path):
    import os
    import subprocess
    import sys
    src = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "src")
    env = dict(os.environ, ANIMRT_LIBRARY=str(tmp_path / "nowhere" / "libanimrt.so"), PYTHONPATH=src)
    result = subprocess.run([sys.executable, "-c", "import animrt"], env=env, capture_output=True, text=True)
    assert result.returncode != 0
    assert "LibraryNotFound" in result.stderr and "ANIMRT_LIBRARY" in result.stderr
    assert str(tmp_path / "nowhere") in result.stderr


def test_a_file_that_is_not_a_library_is_named_with_the_loaders_reason(tmp_path):
    # ANIMRT_LIBRARY names a file that exists but does not load: the error says so and why, rather
    # than "not found", which would send the user looking for a file that is there.
    import os
    import subprocess
    import sys
    broken = tmp_path / "libanimrt.so"
    broken.write_text("not a shared object\n")
    src = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "src")
    env = dict(os.environ, ANIMRT_LIBRARY=str(broken), PYTHONPATH=src)
    result = subprocess.run([sys.executable, "-c", "import animrt"], env=env, capture_output=True, text=True)
    assert result.returncode != 0
    last = result.stderr.strip().splitlines()[-1]
    assert last.startswith(f"animrt._ffi.LibraryNotFound: cannot load {broken}: ") and "not found" not in last


def test_a_library_of_another_version_is_a_clear_error(tmp_path):
    # An older library lacks functions this binding declares: the version is checked before them.
    import os
    import shutil
    import subprocess
    import sys
    cc = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    assert cc, "the Python tests need a C compiler (they build stand-in libraries)"
    source = tmp_path / "old.c"
    source.write_text('unsigned animrt_version(void) { return 100; }\n'
                      'const char *animrt_version_string(void) { return "0.1.0"; }\n')
    old = tmp_path / "libanimrt.so"
    subprocess.run([cc, "-shared", "-fPIC", "-o", str(old), str(source)], check=True)
    src = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "src")
    env = dict(os.environ, ANIMRT_LIBRARY=str(old), PYTHONPATH=src)
    result = subprocess.run([sys.executable, "-c", "import animrt"], env=env, capture_output=True, text=True)
    assert result.returncode != 0
    last = result.stderr.strip().splitlines()[-1]
    assert last == (f"animrt._ffi.LibraryNotFound: libanimrt 0.1.0 at {old} does not match this binding "
                    f"({animrt.__version__}): rebuild it (`make lib`) or point ANIMRT_LIBRARY at a matching one")


def test_enumerations_print_as_their_names():
    # Python 3.11 prints an IntEnum as its number; a log line "send tap -> 1" says nothing.
    outcome = animrt.SendOutcome.IGNORED
    assert str(outcome) == f"{outcome}" == "SendOutcome.IGNORED" and "%s" % outcome == "SendOutcome.IGNORED"
    assert f"{animrt.StopReason.REPLACED}" == "StopReason.REPLACED"
    assert f"{outcome:d}" == "1" and "%d" % outcome == "1" and outcome == 1  # still numbers


def test_readers_barriers_and_machines_are_context_managers_as_the_runtime_is():
    """A reader, a barrier and a machine own something in the library that destroy() frees, and were
    not context managers while the runtime was: the end of a with block destroys each, also when the
    block raises (what it raised goes on); a call afterwards raises HandleError naming the destroy;
    destroy() inside the block is fine; a with on one already destroyed is refused before the block
    runs, and one whose runtime closed inside the block went with it (R5.2)."""
    with animrt.Runtime() as rt:
        layer = rt.layer()
        layer["opacity"] = 0.25
        rt.tick(0)
        with rt.reader([layer], "opacity") as reader:
            assert isinstance(reader, animrt.Reader) and reader.read().tolist() == [[0.25]]
        with pytest.raises(animrt.HandleError, match=r"^reader handle 0x[0-9a-f]+ is stale \(the reader was "
                                                     r"destroyed\)"):
            reader.read()
        assert repr(reader).startswith("<Reader (destroyed) ")
        barrier = rt.barrier()
        with pytest.raises(ZeroDivisionError):
            with barrier as entered:
                assert entered is barrier
                barrier.enter()
                1 / 0
        with pytest.raises(animrt.HandleError, match=r"the barrier was destroyed"):
            barrier.count
        card = rt.definition(named="progressCard")
        with rt.machine(card) as m:
            m.send("fetch")
            assert m.state == "loading" and len(rt._machines) == 1
        assert len(rt._machines) == 0
        with pytest.raises(animrt.HandleError, match=r"^machine 'progressCard': machine handle 0x[0-9a-f]+ is stale "
                                                     r"\(the machine was destroyed\)"):
            m.send("hide")
        with rt.machine(card) as early:
            early.destroy()  # destroyed in the block: the end of it does nothing more
        for gone in (reader, barrier, m):
            kind = type(gone).__name__.lower()
            with pytest.raises(animrt.HandleError) as caught:
                with gone:
                    raise AssertionError("the block ran")
            assert str(caught.value) == (f"{kind} handle {gone.id:#x} is stale (the {kind} was destroyed: "
                                         f"{kind}.destroy() has run, or its with block has ended); make another "
                                         "for the with block")
    with animrt.Runtime() as other:
        with other.machine(other.definition(named="progressCard")) as kept, other.reader([other.layer()], "opacity"):
            other.close()  # the block's end finds them gone with the runtime, and says nothing
        with pytest.raises(animrt.ClosedError):
            kept.state
        with pytest.raises(animrt.ClosedError):
            with kept:
                pass
