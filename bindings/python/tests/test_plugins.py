"""Plugins, bound C functions and Python callables as timing functions and functions (SPEC §4).

The plugins come from `make plugins` (examples/plugins/examples.c and the faulty variants of
bindings/c/tests/plugins/faulty.c), found in $ANIMRT_PLUGIN_DIR or .build/c.
"""
import asyncio
import ctypes
import fractions
import gc
import json
import math
import os
import pathlib
import re
import struct
import sys
import threading

import pytest

import animrt

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
PLUGINS = os.environ.get("ANIMRT_PLUGIN_DIR") or os.path.join(ROOT, ".build", "c")


def plugin(name):
    path = os.path.join(PLUGINS, name)
    assert os.path.exists(path), f"{path} is missing: run `make plugins` in the animrt checkout"
    return path


EXAMPLES = plugin("libexamples.so")


def curve(rt, name, x):
    """A timing function's value through the library (animrt_timing_function_evaluate)."""
    out = animrt._ffi.c_double()
    animrt._ffi.lib.animrt_timing_function_evaluate(rt._ptr, name.encode(), x, animrt._ffi.ctypes.byref(out))
    return out.value


def nothing_left(rt):
    """After a refused load: the faulty plugin's first registrations are gone; the runtime works."""
    with pytest.raises(animrt.NotFoundError):
        curve(rt, "halfway", 0.5)
    with pytest.raises(animrt.NotFoundError):
        rt.call("halfGuard", 1.0)
    layer = rt.layer()
    layer.add_animation(rt.basic("opacity", from_=0, to=1, duration=1))
    rt.tick(0)
    rt.tick(0.5)
    assert layer.presentation("opacity") == 0.5


# -- plugins -----------------------------------------------------------------------

def test_the_example_plugin_adds_curves_a_guard_and_a_machine():
    with animrt.Runtime() as rt:
        examples = rt.load_plugin(EXAMPLES)
        assert examples.name == "examples" and examples.version == "1.0"
        assert curve(rt, "bounce", 1) == 1 and curve(rt, "elastic(0.3)", 0) == 0
        assert curve(rt, "bounce(4)", 8 / 46) == pytest.approx(0.25, abs=1e-12)
        # R4.1: a plugin curve wherever a curve name goes, batch included.
        layers = [rt.layer() for _ in range(50)]
        for i, layer in enumerate(layers):
            layer.add_animation(rt.basic("opacity", from_=0, to=10, duration=2, timing_function="elastic(0.4)"))
        rt.tick(1)
        rt.tick(2)
        expected = 10 * curve(rt, "elastic(0.4)", 0.5)
        assert all(layer.presentation("opacity") == expected for layer in layers)
        # R4.3: the plugin's machine, with its guard.
        like = rt.machine(rt.definition(named="likeButton"), config={"likes": 9, "maxToggles": 1})
        assert like.send("tap") == animrt.SendOutcome.TAKEN
        assert like.state == "liked" and like.context["likes"] == 10
        like.send("tap")
        assert like.state == "locked"
        assert like.send("tap") == animrt.SendOutcome.IGNORED


class DlInfo(ctypes.Structure):
    _fields_ = [("dli_fname", ctypes.c_char_p), ("dli_fbase", ctypes.c_void_p),
                ("dli_sname", ctypes.c_char_p), ("dli_saddr", ctypes.c_void_p)]


def test_a_relative_path_is_read_once(monkeypatch):
    """R4.1: a relative path is read against the working directory once, as the load starts, and
    the library opened by the absolute path that gives. This plugin's constructor changes the
    directory to / inside the load (as another thread's chdir could), and the load still takes
    the entry point as the library's own. The dynamic loader knows the library by its absolute
    path (dladdr names it so): the name the loader's check opens again (the C library may
    look it up by file, as musl does) reads no moved directory. The plugin keeps the path as
    it was given."""
    directory = os.path.realpath(PLUGINS)
    monkeypatch.chdir(directory)
    with animrt.Runtime() as rt:
        loaded = rt.load_plugin("./libfaulty_chdir.so")
        assert os.getcwd() == "/"
        assert loaded.path == "./libfaulty_chdir.so" and loaded.name == "faulty"
        assert curve(rt, "halfway", 0.5) == 0.25
        library = ctypes.CDLL(os.path.join(directory, "libfaulty_chdir.so"), mode=os.RTLD_NOW | os.RTLD_NOLOAD)
        entry = ctypes.addressof(ctypes.c_uint32.in_dll(library, "animrt_plugin_entry"))
        info = DlInfo()
        assert ctypes.CDLL(None).dladdr(ctypes.c_void_p(entry), ctypes.byref(info)) != 0
        assert info.dli_fname == os.fsencode(os.path.join(directory, "libfaulty_chdir.so"))
        loaded.unload()
        nothing_left(rt)


def test_a_machine_on_plugin_curves_survives_a_snapshot():
    with animrt.Runtime() as rt, animrt.Runtime() as other:
        rt.load_plugin(EXAMPLES)
        other.load_plugin(EXAMPLES)
        assert rt.call("canToggle", 1.0, 2.0) is True and other.call("canToggle", 2, 2) is False
        like = rt.machine(rt.definition(named="likeButton"))
        rt.tick(1)
        like.send("tap")
        rt.tick(1)
        rt.tick(1.2)
        saved = like.snapshot()
        assert "bounce(3)" in saved
        other.tick(rt.time)
        again = other.restore(saved, other.definition(named="likeButton"))
        assert again.state == "liked" and again.context["likes"] == 1
        rt.tick(1.4)
        other.tick(1.4)
        assert again.part("heart").presentation("transform.scale") == like.part("heart").presentation("transform.scale")
        assert 0.5 < like.part("heart").presentation("transform.scale") <= 1


def test_each_runtime_initialises_the_library_and_unloading_waits_for_its_users():
    a, b = animrt.Runtime(), animrt.Runtime()
    live = a.bind_function("example_live_loads", "i32()", library=EXAMPLES, name="liveLoads")
    assert live() == 0
    pa = a.load_plugin(EXAMPLES)
    b.load_plugin(EXAMPLES)
    assert live() == 2
    description = a.basic("opacity", to=1, timing_function="bounce(2)")
    with pytest.raises(animrt.StateError, match="timing function 'bounce' is used by 1 animation description; destroy the animation descriptions first"):
        pa.unload()
    assert curve(a, "bounce", 1) == 1
    description.destroy()
    pa.unload()
    assert live() == 1
    with pytest.raises(animrt.NotFoundError):
        curve(a, "bounce", 1)
    b.close()
    assert live() == 0
    # An animation running on its curve holds it; once it has finished, the plugin unloads.
    pa = a.load_plugin(EXAMPLES)
    fall = a.basic("opacity", to=1, duration=0.5, timing_function="elastic(0.5)")
    a.layer().add_animation(fall)
    fall.destroy()
    a.tick(1)
    a.tick(1.2)
    with pytest.raises(animrt.StateError, match=r"timing function 'elastic' is used by 1 attached animation; remove the attached animations \(or destroy their layers\) first"):
        pa.unload()
    a.tick(2)  # it finishes and is removed
    pa.unload()
    assert live() == 0
    a.close()


def test_an_event_not_yet_read_holds_the_description_until_it_is_read():
    # docs/plugins.md, "Unloading": the garbage collector destroys a description the program dropped,
    # but an unread AnimationStopped keeps its attached animation, and so its description, until
    # rt.events() hands it over.
    with animrt.Runtime() as rt:
        examples = rt.load_plugin(EXAMPLES)
        layer = rt.layer()
        drop = rt.basic("opacity", from_=0, to=1, duration=1, timing_function="bounce(2)")
        layer.add_animation(drop)
        rt.tick(0)
        rt.tick(2)
        del drop
        gc.collect()
        with pytest.raises(animrt.StateError, match="timing function 'bounce' is used by 1 animation description; destroy the animation descriptions first"):
            examples.unload()
        assert curve(rt, "bounce(2)", 1) == 1
        events = rt.events()
        assert [type(e) for e in events] == [animrt.AnimationStarted, animrt.AnimationStopped]
        with pytest.raises(animrt.StateError, match="timing function 'bounce' is used by 1 animation description; destroy the animation descriptions first"):
            examples.unload()  # the list still holds the event
        del events
        examples.unload()
        with pytest.raises(animrt.NotFoundError):
            curve(rt, "bounce", 1)


# -- bound C functions -------------------------------------------------------------

def test_bulk_adds_run_on_plugin_and_python_curves_and_hold_the_plugin():
    with animrt.Runtime() as rt:
        examples = rt.load_plugin(EXAMPLES)
        rt.register_timing_function("wobble", lambda x, k: x + k * x * (1 - x), defaults=(0.5,))
        n = 8
        begins = [1 + 0.125 * i for i in range(n)]
        ends = [10.0 * (i + 1) for i in range(n)]
        layers = {}
        for name in ("bounce(3)", "elastic", "wobble(1)"):
            layers[name] = [rt.layer() for _ in range(n)]
            fade = rt.basic("opacity", timing_function=name, fill_mode="forwards", removed_on_completion=False)
            rt.add_animations(fade, layers[name], begin_time=begins, duration=2, from_=0.0, to=ends)
            fade.destroy()
        rt.tick(2.5)
        for name, group in layers.items():
            for i, layer in enumerate(group):
                assert layer.presentation("opacity") == ends[i] * curve(rt, name, (2.5 - begins[i]) / 2)
        with pytest.raises(animrt.StateError, match="'bounce'"):
            examples.unload()
        rt.tick(10)  # finished and filling forwards: still attached, still on the plugin's curves
        assert [layer.presentation("opacity") for layer in layers["elastic"]] == ends
        with pytest.raises(animrt.StateError, match="'elastic'"):
            examples.unload()
        for name in ("bounce(3)", "elastic"):
            for layer in layers[name]:
                layer.remove_all_animations()
        examples.unload()
        with pytest.raises(animrt.NotFoundError):
            rt.basic("opacity", timing_function="elastic")
        rt.tick(11)
        assert [layer.presentation("opacity") for layer in layers["wobble(1)"]] == ends


def test_a_functions_name_and_signature_are_read_only_and_documented():
    """What the library holds the function under: assigning another name would only change which
    function a call reaches, and a misspelt attribute would be a new one nothing reads."""
    with animrt.Runtime() as rt:
        power = rt.bind_function("pow", "f64(f64, f64)", library="libm.so.6", name="power")
        given = ("; it is given when the function is registered or bound: rt.register_function(name, signature, fn) "
                 "or rt.bind_function(symbol, signature, library=..., name=...)")
        for name, value in (("name", "pow"), ("signature", "f64(f64)"), ("runtime", None)):
            with pytest.raises(AttributeError) as caught:
                setattr(power, name, value)
            assert str(caught.value) == f"Function.{name} is read-only{given}"
        with pytest.raises(AttributeError) as caught:
            power.nmae = "pow"
        assert str(caught.value) == "Function has no attribute 'nmae'; did you mean 'name'?"
        assert "nmae" not in vars(power)
        assert (power.name, power.signature, power.runtime is rt, power(2, 10)) == ("power", "f64(f64, f64)", True,
                                                                                    1024.0)
        for attribute in ("runtime", "name", "signature"):
            assert "``" in getattr(animrt.Function, attribute).__doc__, attribute


def test_bound_functions_are_called_with_python_values():
    with animrt.Runtime() as rt:
        power = rt.bind_function("pow", "f64(f64, f64)", library="libm.so.6", name="power")
        assert power(2, 10) == 1024.0 and rt.call("power", 2.0, 0.5) == pytest.approx(math.sqrt(2))
        length = rt.bind_function("strlen", "u64(str)", name="length")
        assert length("héllo") == 6 and isinstance(length("x"), int)
        assert rt.bind_function("getenv", "str(str)")("PATH") == os.environ["PATH"]
        assert rt.bind_function("srand", "void(u32)", name="seed")(3) is None
        assert repr(power) == "<Function power f64(f64, f64)>"
        with pytest.raises(animrt.KindError, match="argument 1 of 'length' \\(u64\\(str\\)\\) is str"):
            length(3)
        with pytest.raises(animrt.RangeError):
            rt.call("seed", -1)
        # Counted as words count: "1 argument", "2 arguments", "1 was given".
        with pytest.raises(animrt.InvalidArgumentError) as raised:
            power(1)
        assert str(raised.value) == "'power' (f64(f64, f64)) takes 2 arguments; 1 was given"
        rt.register_function("f", "f64(f64)", lambda x: x)
        with pytest.raises(animrt.InvalidArgumentError) as raised:
            rt.call("f", 1, 2)
        assert str(raised.value) == "'f' (f64(f64)) takes 1 argument; 2 were given"
        with pytest.raises(animrt.ArgumentTypeError):
            power([1], 2)


def test_a_bound_function_is_a_guard_and_a_bound_curve_runs_the_batch():
    with animrt.Runtime() as rt:
        rt.bind_function("example_can_toggle", "bool(f64, f64)", library=EXAMPLES, name="allowed")
        rt.bind_timing_function("example_bounce", library=EXAMPLES, name="thud")
        toggle = rt.definition({
            "name": "toggle", "context": {"n": {"type": "number", "initial": 0}}, "events": {"tap": {}},
            "initial": "off", "states": {
                "off": {"on": {"tap": [{"guard": "allowed(context.n, 2)", "target": "on",
                                        "actions": [{"assign": {"n": "context.n + 1"}}]}, {"target": "stuck"}]}},
                "on": {"on": {"tap": "off"}}, "stuck": {"ignore": ["tap"]}}})
        m = rt.machine(toggle)
        for _ in range(4):
            m.send("tap")
        assert m.state == "off"
        m.send("tap")
        assert m.state == "stuck"
        layer = rt.layer()
        layer.add_animation(rt.basic("opacity", from_=0, to=1, duration=1, timing_function="thud"))
        rt.tick(0)
        rt.tick(0.25)
        assert layer.presentation("opacity") == pytest.approx((0.25 * 46 / 16) ** 2, abs=1e-12)


# -- Python callables ----------------------------------------------------------------

def test_a_python_callable_is_a_timing_function_with_parameters():
    with animrt.Runtime() as rt:
        calls = []

        def wobble(x, k):
            calls.append(k)
            return x + k * x * (1 - x)

        rt.register_timing_function("wobble", wobble, defaults=(0.5,), minimum=(-1,), maximum=(1,))
        assert curve(rt, "wobble", 0.5) == 0.625 and curve(rt, "wobble(-1)", 0.5) == 0.25
        with pytest.raises(animrt.RangeError):
            curve(rt, "wobble(2)", 0.5)
        layer = rt.layer()
        layer.add_animation(rt.basic("opacity", from_=0, to=1, duration=2, timing_function="wobble(1)"))
        rt.tick(0)
        rt.tick(1)
        assert layer.presentation("opacity") == 0.75
        assert calls[-1] == 1.0
        rt.register_timing_function("square", lambda x: x * x)
        assert curve(rt, "square", 0.5) == 0.25
        with pytest.raises(animrt.ExistsError):
            rt.register_timing_function("square", lambda x: x)
        with pytest.raises(animrt.ArgumentTypeError):
            rt.register_timing_function("cube", 3)
        with pytest.raises(animrt.ArgumentTypeError, match="^minimum has 2 numbers; the timing function has 1 parameter$"):
            rt.register_timing_function("cube", lambda x, a: x, defaults=(1,), minimum=(0, 1))
        with pytest.raises(animrt.ArgumentTypeError, match="^minimum has 1 number; the timing function has 2 parameters$"):
            rt.register_timing_function("cube", lambda x, a, b: x, defaults=(1, 2), minimum=(0,))


def test_an_exception_in_a_timing_function_is_reported_after_the_tick():
    with animrt.Runtime() as rt:
        rt.register_timing_function("fragile", lambda x: 1 / (x - 0.5))
        layer = rt.layer()
        layer.add_animation(rt.basic("opacity", from_=2, to=4, duration=1, timing_function="fragile"))
        rt.tick(0)
        with pytest.raises(animrt.CallbackError, match="timing function 'fragile' raised ZeroDivisionError") as e:
            rt.tick(0.5)
        assert isinstance(e.value.__cause__, ZeroDivisionError)
        assert e.value.status == 14 and e.value.name == "ANIMRT_E_CALLBACK"
        assert rt.time == 0.5 and layer.presentation("opacity") == 2  # counted as 0: the from value
        rt.tick(0.75)  # the runtime goes on
        assert layer.presentation("opacity") == pytest.approx(2 + 2 * 4)


def test_an_exception_without_a_message_is_named_by_its_type_alone():
    with animrt.Runtime() as rt:
        def bare(x):
            raise ValueError
        rt.register_timing_function("bare", bare)
        with pytest.raises(animrt.CallbackError) as e:
            rt.evaluate_timing_function("bare", 0.5)
        assert str(e.value) == "timing function 'bare' raised ValueError"  # not "ValueError: " and nothing


def test_ctrl_c_or_sys_exit_in_a_callable_stops_the_program_as_itself():
    # Wrapped in CallbackError (an Exception), Ctrl-C in a timing function would be caught by the
    # program's `except Exception` and not stop it.
    with animrt.Runtime() as rt:
        calls = []

        def interrupted(x):
            calls.append(x)
            if x > 0:  # not in the first tick, at x = 0
                raise KeyboardInterrupt
            return x

        rt.register_timing_function("interrupted", interrupted)
        rt.register_timing_function("fragile", lambda x: 1 / (x - 0.5))  # an Exception in the same tick
        layer = rt.layer()
        layer.add_animation(rt.basic("opacity", from_=2, to=4, duration=1, timing_function="fragile"))
        layer.add_animation(rt.basic("position.x", from_=0, to=1, duration=1, timing_function="interrupted"))
        rt.tick(0)
        with pytest.raises(KeyboardInterrupt) as e:
            try:
                rt.tick(0.5)
            except Exception:  # pragma: no cover - the point: it is not an Exception
                pytest.fail("Ctrl-C in a timing function was raised as an Exception")
        assert "raised by timing function 'interrupted', inside a call into the library" in e.value.__notes__
        assert calls and rt.time == 0.5  # the tick ran to its end, the callable's value counted as 0
        assert layer.presentation("position.x") == 0
        rt.register_function("leave", "f64(f64)", lambda x: sys.exit(3))
        with pytest.raises(SystemExit) as gone:
            rt.call("leave", 1.0)
        assert gone.value.code == 3
        rt.register_function("fine", "f64(f64)", lambda x: x + 1)
        assert rt.call("fine", 1.0) == 2.0  # nothing left pending


def test_a_raising_function_fails_its_call_with_the_librarys_status_and_prints_nothing(capfd, monkeypatch):
    # The trampoline records the exception, sets the library's message and returns ANIMRT_E_CALLBACK
    # (animrt_error_set's status is the trampoline's answer, not an error of that call): nothing
    # escapes the ctypes callback, which would go to sys.unraisablehook ("Exception ignored") and
    # answer 0, success.
    escaped = []
    monkeypatch.setattr(sys, "unraisablehook", escaped.append)
    with animrt.Runtime() as rt:
        rt.register_function("broken", "f64(f64)", lambda x: 1 / 0)
        with pytest.raises(animrt.CallbackError, match="function 'broken' raised ZeroDivisionError") as e:
            rt.call("broken", 1.0)
        assert e.value.status == animrt.CallbackError.status
        assert capfd.readouterr().err == "" and escaped == []


def test_close_inside_a_callable_the_runtime_runs_is_refused_not_lost():
    # The library refuses to be destroyed in the middle of its own call, and destroy returns
    # nothing: closed there, the runtime was marked closed and left running, unreachable.
    with animrt.Runtime() as rt:
        rt.register_timing_function("closing", lambda x: (rt.close(), x)[1])
        rt.register_function("closes", "f64(f64)", lambda x: (rt.close(), x)[1])
        for attempt in (lambda: rt.evaluate_timing_function("closing", 0.5), lambda: rt.call("closes", 1.0)):
            with pytest.raises(animrt.CallbackError, match="close\\(\\) from inside a timing function or function") as e:
                attempt()
            assert isinstance(e.value.__cause__, animrt.StateError)
            assert not rt.closed and rt.time == 0.0  # still open, still usable
    assert rt.closed  # closed as usual once the call has returned


def test_a_callable_of_one_runtime_may_close_another():
    # Only the runtime running the callable is busy: another one closes there as anywhere.
    with animrt.Runtime() as rt, animrt.Runtime() as other:
        layer = other.layer()
        rt.register_timing_function("closing_other", lambda x: (other.close(), x)[1])
        assert rt.evaluate_timing_function("closing_other", 0.25) == 0.25
        assert other.closed and not rt.closed
        with pytest.raises(animrt.ClosedError):
            layer["opacity"] = 0.5


def test_objects_collected_inside_a_timing_function_are_destroyed_after_the_call():
    # The collector can run at any allocation; inside a timing function the runtime refuses the
    # finalizers' destroys, which were dropped: the C objects lived on, unreachable.
    with animrt.Runtime() as rt:
        handles = []
        for _ in range(50):
            a = rt.basic("opacity", from_=0, to=1, duration=1)
            cycle = [a]
            cycle.append(cycle)  # freed only by the collector
            handles.append(a.id)
        del a, cycle
        rt.register_timing_function("collecting", lambda x: (gc.collect(), x)[1])
        rt.layer().add_animation(rt.basic("opacity", from_=0, to=1, duration=1, timing_function="collecting"))
        gc.disable()
        try:
            rt.tick(0.5)
        finally:
            gc.enable()

        def alive(h):
            kind = ctypes.c_int()
            try:
                animrt._ffi.lib.animrt_animation_get_kind(rt._ptr, h, ctypes.byref(kind))
                return True
            except animrt.HandleError:
                return False

        assert sum(alive(h) for h in handles) == 0


def test_a_finalizer_never_waits_for_the_runtime_lock():
    # Another thread can hold it while it waits for the library, which a tick holds whose timing
    # function drops an object: the finalizer waiting too was a deadlock. It defers instead.
    with animrt.Runtime() as rt:
        fade = rt.basic("opacity", to=1.0)
        h = fade.id
        with rt._native.lock:  # held, as by a thread inside a destroy
            del fade
            gc.collect()  # the finalizer runs here, on the holder's own thread: it must not wait
        assert h in [d[2] for d in animrt._object.deferred]
        rt.tick(0)  # the next call makes the destroy
        assert not animrt._object.deferred
        with pytest.raises(animrt.HandleError):
            animrt._ffi.lib.animrt_animation_get_kind(rt._ptr, h, ctypes.byref(ctypes.c_int()))


def test_a_callables_error_is_raised_by_a_call_that_runs_callables():
    # Recorded under the runtime, it was taken by whichever call on it returned first: a read on
    # another thread raised the tick's error, and the tick returned as if nothing had happened.
    with animrt.Runtime() as rt:
        from animrt import _callbacks
        _callbacks.record(_callbacks.key(rt._ptr), "timing function 'elsewhere'", ValueError("boom"))
        assert rt.time == 0.0 and rt.layer() is not None  # reads and makes run no callable: not theirs
        with pytest.raises(animrt.CallbackError, match="timing function 'elsewhere' raised ValueError: boom"):
            rt.tick(1.0)
        rt.tick(2.0)  # taken once


def _hold_collection(monkeypatch, thread_ident, *, before=lambda: None):
    """Makes the call `thread_ident` is making wait, once its library call has returned and before it
    collects its callables' errors, for `before()` (another thread's call) to end."""
    from animrt import _callbacks
    real, held = _callbacks.take, []

    def take(*args, **kwargs):
        if not held and threading.get_ident() == thread_ident():
            held.append(True)
            before()
        return real(*args, **kwargs)

    monkeypatch.setattr(_callbacks, "take", take)


def test_a_tick_raises_its_timing_functions_error_not_a_call_another_thread_makes_meanwhile(monkeypatch):
    # Errors were filed under the runtime and taken by whichever call returned first: another
    # thread's call returning between the end of a tick in the library and the tick's collection
    # raised the tick's CallbackError, and the tick returned as if nothing had failed.
    with animrt.Runtime() as rt:
        def boom(x):
            raise ValueError("boom")

        rt.register_timing_function("boom", boom)
        rt.register_function("fine", "f64(f64)", lambda v: v + 1)
        rt.layer().add_animation(rt.basic("opacity", from_=0, to=1, duration=1, timing_function="boom"))
        ticker = {}
        other_done, results = threading.Event(), {}

        def other():
            try:
                results["other"] = rt.call("fine", 1.0)  # a call that collects its callables' errors
            except BaseException as e:
                results["other"] = e
            finally:
                other_done.set()

        def let_the_other_call_return():
            helper = threading.Thread(target=other)
            helper.start()
            assert other_done.wait(10), "the other thread's call did not return"

        _hold_collection(monkeypatch, lambda: ticker.get("ident"), before=let_the_other_call_return)

        def tick():
            ticker["ident"] = threading.get_ident()
            try:
                rt.tick(0.5)
                results["tick"] = None
            except BaseException as e:
                results["tick"] = e
            finally:
                ticker["ident"] = None

        a = threading.Thread(target=tick)
        a.start()
        a.join(20)
        assert not a.is_alive(), "the tick did not return"
        assert results["other"] == 2.0
        assert isinstance(results["tick"], animrt.CallbackError), results["tick"]
        assert str(results["tick"]) == "timing function 'boom' raised ValueError: boom"
        assert rt.call("fine", 2.0) == 3.0  # taken once


def test_a_call_interrupted_before_it_collects_its_errors_says_them_with_the_interruption(monkeypatch):
    # Ctrl-C landing once the tick had returned in the library, before it took its timing function's
    # error, left the error waiting under the runtime, for a later unrelated call to raise.
    with animrt.Runtime() as rt:
        raised = []

        def once(x):
            if not raised:
                raised.append(x)
                raise ValueError("boom")
            return x

        rt.register_timing_function("once", once)
        rt.register_function("fine", "f64(f64)", lambda v: v + 1)
        rt.layer().add_animation(rt.basic("opacity", from_=0, to=1, duration=1, timing_function="once"))

        def interrupt():
            raise KeyboardInterrupt

        _hold_collection(monkeypatch, threading.get_ident, before=interrupt)
        with pytest.raises(KeyboardInterrupt) as caught:
            rt.tick(0.5)
        assert getattr(caught.value, "__notes__", []) == [
            "the call it interrupted had this to raise from a callable it ran: "
            "CallbackError: timing function 'once' raised ValueError: boom"]
        assert rt.call("fine", 1.0) == 2.0  # said once, with the interruption
        rt.tick(0.75)


def test_close_raises_what_was_left_for_its_threads_calls_and_drops_the_others():
    # Left by a call interrupted before it took it: the closing thread's is raised by close(), and
    # nothing stays filed under the address, which a runtime made later may have.
    from animrt import _callbacks
    rt = animrt.Runtime()
    key = _callbacks.key(rt._ptr)
    other = threading.Thread(target=_callbacks.record, args=(key, "timing function 'theirs'", ValueError("no")))
    other.start()
    other.join(10)
    _callbacks.record(key, "timing function 'mine'", ValueError("boom"))
    with pytest.raises(animrt.CallbackError, match="timing function 'mine' raised ValueError: boom"):
        rt.close()
    assert rt.closed and not [k for k in _callbacks.pending if k[0] == key]


def test_a_timing_function_raising_on_an_evaluation_thread_is_the_ticks_error():
    # A tick evaluating a large batch on several threads runs the timing function on threads that
    # make no call of their own: what it raises there is the ticking thread's to raise.
    with animrt.Runtime(threads=2) as rt:
        ticker, on_a_worker = threading.get_ident(), threading.Event()

        def block(x, y):
            if threading.get_ident() == ticker:
                on_a_worker.wait(10)  # until an evaluation thread has run it too
                y[:] = x
            else:
                on_a_worker.set()
                raise ValueError("on an evaluation thread")

        rt.register_block_timing_function("spread", block)
        layers = rt.create_layers(80_000)  # 32,768 animations a thread at least
        rt.add_animations(rt.basic("opacity", from_=0, to=1, duration=1, timing_function="spread"), layers)
        with pytest.raises(animrt.CallbackError, match="timing function 'spread' raised ValueError: on an evaluation thread"):
            rt.tick(0.5)
        assert on_a_worker.is_set()


def test_a_64_bit_result_past_int64_is_refused_not_cut_down():
    with animrt.Runtime() as rt:
        for signature, value in [("i64()", 2 ** 64 + 5), ("i64()", -(2 ** 63) - 1), ("u64()", 2 ** 64 + 1)]:
            f = rt.register_function(f"f{abs(value) % 1000}{signature[0]}", signature, lambda v=value: v)
            with pytest.raises(animrt.CallbackError, match="past the integers a result carries"):
                f()
        assert rt.register_function("edge", "i64()", lambda: 2 ** 63 - 1)() == 2 ** 63 - 1
        assert rt.register_function("low", "i64()", lambda: -(2 ** 63))() == -(2 ** 63)


def test_a_timing_function_returns_a_number_not_what_float_would_take():
    with animrt.Runtime() as rt:
        for name, result in [("text", "0.5"), ("flag", True), ("nothing", None)]:
            rt.register_timing_function(name, lambda x, r=result: r)
            with pytest.raises(animrt.CallbackError, match=f"timing function '{name}' raised TypeError: returned "):
                rt.evaluate_timing_function(name, 0.5)
        rt.register_timing_function("whole", lambda x: 1)
        assert rt.evaluate_timing_function("whole", 0.5) == 1.0  # an int is a number
        rt.register_timing_function("fraction", lambda x: fractions.Fraction(1, 4))
        assert rt.evaluate_timing_function("fraction", 0.5) == 0.25


def test_a_timing_function_that_gives_nan_or_an_infinity_is_an_error_not_a_silent_zero():
    # The library counts a curve's NaN as 0: without a word, the animation would sit at its from value.
    with animrt.Runtime() as rt:
        rt.register_timing_function("slash", lambda x: (x - 0.5) / (x - 0.5) if x != 0.5 else math.nan)
        rt.register_timing_function("steep", lambda x: math.inf if x > 0.9 else x)
        assert rt.evaluate_timing_function("slash", 0.25) == 1.0
        with pytest.raises(animrt.CallbackError, match=r"^timing function 'slash' raised ValueError: returned nan; "
                                                       r"a timing function returns a finite number") as e:
            rt.evaluate_timing_function("slash", 0.5)
        assert isinstance(e.value.__cause__, ValueError)
        with pytest.raises(animrt.CallbackError, match="raised ValueError: returned inf; "):
            rt.evaluate_timing_function("steep", 0.95)
        layer = rt.layer()
        layer.add_animation(rt.basic("opacity", from_=2, to=4, duration=1, timing_function="steep"))
        rt.tick(0)
        rt.tick(0.5)
        assert layer.presentation("opacity") == 3.0
        with pytest.raises(animrt.CallbackError, match="timing function 'steep' raised ValueError: returned inf"):
            rt.tick(0.95)
        assert layer.presentation("opacity") == 2.0  # still counted as 0, but now said

        def halves(x, y):
            for i, v in enumerate(x):
                y[i] = 1 / (v - 0.5) if v != 0.5 else math.nan

        rt.register_block_timing_function("halves", halves)
        assert rt.evaluate_timing_function("halves", 0.25) == -4.0
        with pytest.raises(animrt.CallbackError, match=r"timing function 'halves' raised ValueError: wrote nan to "
                                                       r"y\[0\] \(for x = 0\.5\); a timing function gives finite"):
            rt.evaluate_timing_function("halves", 0.5)


def test_a_python_callable_is_a_block_timing_function():
    with animrt.Runtime() as rt:
        lengths = []

        def wobble(x, y, k):
            assert x.format == "d" and x.readonly and not y.readonly and len(x) == len(y)
            assert all(v == 0 for v in y)  # y starts as zeros
            lengths.append(len(x))
            for i, v in enumerate(x):
                y[i] = v + k * v * (1 - v)

        rt.register_block_timing_function("wobble", wobble, defaults=(0.5,), minimum=(-1,), maximum=(1,))
        assert curve(rt, "wobble", 0.5) == 0.625 and curve(rt, "wobble(-1)", 0.5) == 0.25
        assert lengths == [1, 1]  # a single value comes as arrays of one
        with pytest.raises(animrt.RangeError):
            curve(rt, "wobble(2)", 0.5)
        layers = [rt.layer() for _ in range(300)]
        for i, layer in enumerate(layers):
            layer.add_animation(rt.basic("opacity", from_=i, to=i + 8, duration=2, timing_function="wobble(1)"))
        rt.tick(0)
        del lengths[:]
        rt.tick(1)
        # 300 animations on one curve: a call for the first 256, one for the next 44 (the lane
        # goes in chunks of 256 and in fours), none per animation.
        assert lengths == [256, 44]
        assert [layer.presentation("opacity") for layer in layers] == [i + 8 * 0.75 for i in range(300)]
        with pytest.raises(animrt.ExistsError, match="a timing function named 'wobble' is already registered"):
            rt.register_block_timing_function("wobble", wobble, defaults=(0.5,))
        with pytest.raises(animrt.ExistsError):
            rt.register_timing_function("wobble", lambda x: x)


def test_a_block_timing_function_with_numpy():
    numpy = pytest.importorskip("numpy")  # optional: the binding needs only the standard library

    def wobble(x, y, k):
        x = numpy.frombuffer(x)
        numpy.frombuffer(y)[:] = x + k * x * (1 - x)

    with animrt.Runtime() as rt:
        rt.register_block_timing_function("wobble", wobble, defaults=(0.5,), minimum=(-1,), maximum=(1,))
        assert curve(rt, "wobble", 0.5) == 0.625
        layers = [rt.layer() for _ in range(40)]
        for i, layer in enumerate(layers):
            layer.add_animation(rt.basic("opacity", from_=0, to=1, duration=1 + i / 40, timing_function="wobble"))
        rt.tick(0)
        rt.tick(0.5)
        assert [layer.presentation("opacity") for layer in layers] == [
            curve(rt, "wobble", 0.5 / (1 + i / 40)) for i in range(40)]


def test_an_exception_in_a_block_timing_function_is_reported_after_the_tick():
    with animrt.Runtime() as rt:
        def fragile(x, y):
            for i, v in enumerate(x):
                y[i] = v
            if 0.25 < x[0] < 0.75:  # after writing y: what it wrote is dropped, the whole call counts as 0
                raise ValueError(f"cannot ease {len(x)} values")

        rt.register_block_timing_function("fragile", fragile)
        layers = [rt.layer() for _ in range(8)]
        for layer in layers:
            layer.add_animation(rt.basic("opacity", from_=2, to=4, duration=1, timing_function="fragile"))
        rt.tick(0)
        with pytest.raises(animrt.CallbackError, match="timing function 'fragile' raised ValueError: cannot ease 8 "
                                                       "values") as e:
            rt.tick(0.5)
        assert isinstance(e.value.__cause__, ValueError)
        assert [layer.presentation("opacity") for layer in layers] == [2] * 8
        rt.tick(0.8)  # the runtime goes on
        assert [layer.presentation("opacity") for layer in layers] == [2 + 2 * 0.8] * 8


@pytest.mark.parametrize("call, error, message", [
    (lambda rt: rt.register_block_timing_function("easeIn", lambda x, y: None), animrt.ExistsError,
     "'easeIn' is a built-in timing function; register yours under another name"),
    (lambda rt: rt.register_block_timing_function("ease in", lambda x, y: None), animrt.InvalidArgumentError, "ease in"),
    (lambda rt: rt.register_block_timing_function("b", 3), animrt.ArgumentTypeError, "x, y and the parameters"),
    (lambda rt: rt.register_block_timing_function("b", lambda x, y, *p: None, defaults=(0,) * 9), animrt.RangeError,
     "at most 8 are allowed"),
    (lambda rt: rt.register_block_timing_function("b", lambda x, y, k: None, defaults=(math.nan,)),
     animrt.InvalidArgumentError, "must be a finite number"),
    (lambda rt: rt.register_block_timing_function("b", lambda x, y, k: None, defaults=(3,), minimum=(0,), maximum=(1,)),
     animrt.RangeError, "outside its range"),
    (lambda rt: rt.register_block_timing_function("b", lambda x, y, k: None, defaults=(0,), minimum=(1,), maximum=(-1,)),
     animrt.InvalidArgumentError, "it must be ordered"),
    (lambda rt: rt.register_block_timing_function("b", lambda x, y, k: None, defaults=(0,), minimum=(0, 1)),
     animrt.ArgumentTypeError, "minimum has 2 numbers"),
])
def test_error_registering_a_block_timing_function(call, error, message):
    with animrt.Runtime() as rt:
        with pytest.raises(error, match=message):
            call(rt)
        with pytest.raises(animrt.NotFoundError):
            curve(rt, "b", 0.5)
        assert curve(rt, "easeIn", 1) == 1


def test_python_callables_as_guards_and_actions():
    with animrt.Runtime() as rt:
        log = []
        rt.register_function("canLike", "bool(f64, f64)", lambda likes, limit: likes < limit)
        rt.register_function("note", "void(str, i32)", lambda text, n: log.append((text, n)))
        shout = rt.register_function("shout", "str(str)", lambda s: s.upper() + "!")
        assert shout("hey") == "HEY!"
        counter = rt.definition({
            "name": "counter", "context": {"n": {"type": "number", "initial": 0}}, "events": {"add": {}},
            "initial": "counting", "states": {
                "counting": {"on": {"add": [{"guard": "canLike(context.n, 2)", "actions": [
                    {"assign": {"n": "context.n + 1"}}, {"call": "note", "args": ["shout('added')", "context.n"]}]},
                    {"target": "full"}]}},
                "full": {"ignore": ["add"]}}})
        m = rt.machine(counter)
        m.send("add")
        m.send("add")
        m.send("add")
        assert m.state == "full" and log == [("ADDED!", 1), ("ADDED!", 2)]


def test_an_exception_in_a_guard_is_reported_and_reaches_the_machine():
    with animrt.Runtime() as rt:
        def picky(n):
            raise ValueError(f"cannot judge {n}")

        rt.register_function("picky", "bool(f64)", picky)
        m = rt.machine(rt.definition({
            "name": "m", "events": {"go": {"payload": [{"name": "n", "type": "number"}]}}, "initial": "a",
            "states": {"a": {"on": {"go": {"guard": "picky(event.n)", "target": "b"}}}, "b": {}}}))
        with pytest.raises(animrt.CallbackError, match="function 'picky' raised ValueError: cannot judge 3.0") as e:
            m.send("go", n=3)
        assert isinstance(e.value.__cause__, ValueError)
        assert "the call then failed" in str(e.value)  # the event was not taken
        assert m.state == "a"
        rt.tick(0)
        errors = [ev for ev in rt.events() if isinstance(ev, animrt.MachineError)]
        assert len(errors) == 1 and "function 'picky' raised ValueError: cannot judge 3.0" in errors[0].message
        with pytest.raises(animrt.CallbackError, match="picky"):
            rt.call("picky", 1)


def test_a_function_raising_in_a_call_from_python_says_so_once():
    # the library's own status for it is the callable's failure: nothing is added to the message
    with animrt.Runtime() as rt:
        rt.register_function("half", "f64(f64)", lambda x: x / 0)
        with pytest.raises(animrt.CallbackError) as e:
            rt.call("half", 1.0)
        assert e.value.message == str(e.value) == "function 'half' raised ZeroDivisionError: float division by zero"
        assert isinstance(e.value.__cause__, ZeroDivisionError)


def test_several_exceptions_in_one_call_raise_the_first_and_count_the_others():
    with animrt.Runtime() as rt:
        raised = []

        def wobble(x):
            if x > 0:
                raised.append(x)
                raise ValueError(f"at {x}")
            return x

        rt.register_timing_function("wobble", wobble)
        rt.layer().add_animation(rt.basic("opacity", from_=0, to=1, duration=1, timing_function="wobble"))
        rt.layer().add_animation(rt.basic("opacity", from_=0, to=1, duration=2, timing_function="wobble"))
        rt.tick(0)
        with pytest.raises(animrt.CallbackError) as e:
            rt.tick(0.5)
        assert sorted(raised) == [0.25, 0.5]
        first = raised[0]
        assert e.value.message == (f"timing function 'wobble' raised ValueError: at {first} "
                                   "(and 1 more exception from callables in the same call)")
        assert str(e.value.__cause__) == f"at {first}"


def test_an_integer_argument_outside_int64_goes_as_a_double_only_when_one_holds_it_exactly():
    # ctypes would wrap 2**63 to -2**63 without a word
    with animrt.Runtime() as rt:
        same = rt.register_function("same", "i64(i64)", lambda n: n)
        half = rt.register_function("half", "f64(f64)", lambda x: x / 2)
        assert same(2 ** 63 - 1) == 2 ** 63 - 1 and same(-2 ** 63) == -2 ** 63
        # 2**63 and 2**70 are doubles: an f64 takes them whole, an i64 refuses them by its range
        assert half(2 ** 70) == 2.0 ** 69
        for n in (2 ** 63, 2 ** 70):
            with pytest.raises(animrt.RangeError, match="argument 1 of 'same' .* i64 holds -9223372036854775808 to"):
                same(n)
        # one more than those is no double: refused, not rounded
        for f, n in ((same, -2 ** 63 - 1), (half, 2 ** 70 + 1)):
            with pytest.raises(animrt.RangeError, match=re.escape(f"argument 1 is {n}, outside a signed 64-bit integer (-2**63 to 2**63 - 1), and no "
                                                                  "double holds it exactly; round it with float")):
                f(n)
        with pytest.raises(animrt.RangeError, match=re.escape("outside a signed 64-bit integer (-2**63 to 2**63 - 1) and past the largest double")):
            half(10 ** 400)
        # Past the 4300 digits Python's str() writes: its digits counted, not str()'s ValueError.
        with pytest.raises(animrt.RangeError, match=re.escape("argument 1 is an int of 5001 digits, outside a signed 64-bit integer")):
            half(10 ** 5000)


def test_a_wrong_result_type_is_an_error_not_a_crash():
    with animrt.Runtime() as rt:
        rt.register_function("lies", "f64()", lambda: "not a number")
        with pytest.raises(animrt.CallbackError, match="returned 'not a number' \\(a str\\); its signature says a number"):
            rt.call("lies")
        rt.register_function("nothing", "bool()", lambda: None)
        with pytest.raises(animrt.CallbackError, match="returned None"):
            rt.call("nothing")


def test_a_result_of_another_type_is_not_taken_for_its_truth_or_its_number():
    """A bool is not a number (True is not 1.0), and only True or False (0 and 1 too) is a bool: a
    guard returning a str, a float or a list would otherwise count as its truth value unseen."""
    with animrt.Runtime() as rt:
        rt.register_function("yes", "f64()", lambda: True)
        with pytest.raises(animrt.CallbackError, match=r"returned True \(a bool\); its signature says a number"):
            rt.call("yes")
        for name, value, shown in [("word", "no", "'no'"), ("half", 0.5, "0.5"), ("empty", [], r"\[\]"), ("two", 2, "2")]:
            rt.register_function(name, "bool()", lambda value=value: value)
            with pytest.raises(animrt.CallbackError, match=f"returned {shown} .*; its signature says a bool"):
                rt.call(name)
        rt.register_function("one", "bool()", lambda: 1)
        rt.register_function("zero", "bool()", lambda: 0)
        rt.register_function("no", "bool()", lambda: False)
        assert (rt.call("one"), rt.call("zero"), rt.call("no")) == (True, False, False)
        # In a guard: the word 'no' is an error.execution (the guard counts as false), not a yes.
        rt.register_function("answer", "bool(f64)", lambda x: "no")
        gate = rt.definition(json.dumps({
            "name": "gate", "events": {"go": {}}, "initial": "shut",
            "states": {"shut": {"on": {"go": {"guard": "answer(1)", "target": "open"}}}, "open": {}}}))
        machine = rt.machine(gate)
        with pytest.raises(animrt.CallbackError, match="its signature says a bool"):
            machine.send("go")
        assert machine.state == "shut"


def test_numbers_of_any_numeric_type_are_results_of_their_kind():
    """A result is taken by its kind, as arguments are: any int (numpy's of every width too) for an
    integer, any real number for an f64, a Fraction included; a bool is neither."""
    numpy = pytest.importorskip("numpy")  # optional: the binding needs only the standard library
    with animrt.Runtime() as rt:
        for name, signature, value, expected in [("i", "i64()", numpy.int64(-5), -5), ("u", "u8()", numpy.uint8(200), 200),
                                                 ("i32", "f64()", numpy.int32(3), 3.0),
                                                 ("f16", "f64()", numpy.float16(0.5), 0.5),
                                                 ("q", "f64()", fractions.Fraction(1, 4), 0.25)]:
            rt.register_function(name, signature, lambda value=value: value)
            got = rt.call(name)
            assert got == expected and type(got) is type(expected), name
        for name, signature in [("flag", "i64()"), ("flag64", "f64()")]:
            rt.register_function(name, signature, lambda: numpy.bool_(True))
            with pytest.raises(animrt.CallbackError, match="its signature says"):
                rt.call(name)


def test_a_callable_that_calls_back_into_its_runtime_is_refused():
    with animrt.Runtime() as rt:
        rt.register_function("meddle", "bool()", lambda: rt.tick(10) or True)
        with pytest.raises(animrt.CallbackError) as e:
            rt.call("meddle")
        assert isinstance(e.value.__cause__, animrt.StateError)
        assert "called from inside a function it is running" in str(e.value.__cause__)
        rt.tick(1)
        assert rt.time == 1


def test_callables_stay_alive_as_long_as_the_runtime():
    rt = animrt.Runtime()
    rt.register_timing_function("temporary", lambda x: x / 2)
    rt.register_function("half", "f64(f64)", lambda x: x / 2)
    gc.collect()
    assert curve(rt, "temporary", 0.5) == 0.25 and rt.call("half", 3.0) == 1.5
    rt.close()


# -- the error rows (docs/bad-input.md) ----------------------------------------------

def test_a_callable_that_cannot_take_its_arguments_is_refused_when_registered():
    """Found at registration, not at every call or tick: the wrong number of parameters."""
    with animrt.Runtime() as rt:
        with pytest.raises(animrt.ArgumentTypeError, match=r"function 'two' \(f64\(f64, f64\)\) is called with 2 arguments, "):
            rt.register_function("two", "f64(f64, f64)", lambda x: x)
        with pytest.raises(animrt.ArgumentTypeError, match=r"timing function 'arity' \(x and 1 parameter\)"):
            rt.register_timing_function("arity", lambda x: x, defaults=(0.5,))
        with pytest.raises(animrt.ArgumentTypeError, match=r"timing function 'arity' \(x and 0 parameters\)"):
            rt.register_timing_function("arity", lambda x, k: x)
        with pytest.raises(animrt.ArgumentTypeError, match=r"timing function 'arity' \(x, y and 0 parameters\)"):
            rt.register_block_timing_function("arity", lambda x: None)
        with pytest.raises(animrt.NotFoundError):
            rt.call("two", 1.0, 2.0)
        with pytest.raises(animrt.NotFoundError):
            curve(rt, "arity", 0.5)
        # What can take the arguments is accepted: defaults, *args, a builtin.
        rt.register_function("two", "f64(f64, f64)", lambda x, y=0.0, z=1.0: x + y + z)
        assert rt.call("two", 1.0, 2.0) == 4.0
        rt.register_timing_function("spread", lambda x, *p: x * (1 + sum(p)), defaults=(0.0, 0.0))
        assert curve(rt, "spread(0.5, 0.5)", 0.25) == 0.5
        rt.register_function("sine", "f64(f64)", math.sin)
        assert rt.call("sine", 0.5) == math.sin(0.5)


def test_a_path_object_names_a_file_a_string_may_name_a_soname(monkeypatch):
    """str(Path("./libx.so")) is "libx.so", which dlopen would search for as a soname: a Path
    is made absolute. A str keeps dlopen's meaning."""
    monkeypatch.chdir(PLUGINS)
    with animrt.Runtime() as rt:
        with pytest.raises(animrt.NotFoundError, match=r"cannot load the library 'libexamples.so'.*"
                           r"\(a name without '/' is searched for as a library name, not in the current directory: "
                           r"write './libexamples.so'\)"):
            rt.load_plugin("libexamples.so")
        rt.load_plugin(pathlib.Path("./libexamples.so"))
        assert curve(rt, "bounce", 1) == 1
    with animrt.Runtime() as rt:
        with pytest.raises(animrt.NotFoundError):
            rt.bind_function("example_bounce", "f64(f64)", library="libexamples.so")
        rt.bind_function("example_bounce", "f64(f64)", library=pathlib.Path("libexamples.so"))
        assert rt.call("example_bounce", 1.0) == 1.0


def test_error_missing_library():
    with animrt.Runtime() as rt:
        with pytest.raises(animrt.NotFoundError, match="cannot load the library .*libnowhere.so"):
            rt.load_plugin(os.path.join(PLUGINS, "libnowhere.so"))
        with pytest.raises(animrt.NotFoundError, match="libnowhere.so"):
            rt.bind_function("f", "f64(f64)", library="libnowhere.so")
        # "" is no library (dlopen would open the process); None asks for the process.
        with pytest.raises(animrt.InvalidArgumentError, match="^path is empty; name the plugin's shared library"):
            rt.load_plugin("")
        with pytest.raises(animrt.InvalidArgumentError, match="^library is empty; .* or pass NULL for the process"):
            rt.bind_function("cos", "f64(f64)", library="", name="cosine")
        with pytest.raises(animrt.InvalidArgumentError, match="^library is empty"):
            rt.bind_timing_function("cos", library="", name="cosine")
        # A NUL would end the path early, and dlopen would open what comes before it: refused
        # by name, as an animrt error, like every str the binding hands over.
        # The message shows the path's first 60 characters, however deep the checkout lies.
        nul = re.escape(f"path {(EXAMPLES + chr(0) + '.so')[:60]!r} has a NUL character (at {len(EXAMPLES)})")
        with pytest.raises(animrt.InvalidArgumentError, match="^" + nul):
            rt.load_plugin(EXAMPLES + "\0.so")
        with pytest.raises(animrt.InvalidArgumentError, match="^" + nul):
            rt.load_plugin(pathlib.Path(EXAMPLES + "\0.so"))
        with pytest.raises(animrt.InvalidArgumentError, match=r"^library 'libm.so.6.x00junk' has a NUL character \(at 9\)"):
            rt.bind_function("cos", "f64(f64)", library="libm.so.6\0junk", name="cosine")
        with pytest.raises(animrt.InvalidArgumentError, match=r"^library 'libm.so.6.x00junk' has a NUL character"):
            rt.bind_timing_function("cos", library="libm.so.6\0junk", name="cosine")
        with pytest.raises(animrt.NotFoundError):
            rt.call("cosine", 0.0)
        assert rt.load_plugin(EXAMPLES).name == "examples"
        # A plugin calling a function no library it is linked against has: the loader refuses it
        # (RTLD_NOW), even with the example plugin, which exports it, loaded (RTLD_LOCAL).
        with pytest.raises(animrt.NotFoundError, match="cannot load the library .*libfaulty_undefined.so.*example_bounce"):
            rt.load_plugin(plugin("libfaulty_undefined.so"))
        nothing_left(rt)


def test_error_plugin_calling_animrt_itself():
    # A plugin that calls animrt_error_set (not api->error_set) is not linked against animrt; the
    # binding loads animrt privately, so the loader cannot bind it, and the message says what to call.
    with animrt.Runtime() as rt:
        with pytest.raises(animrt.NotFoundError) as refused:
            rt.load_plugin(plugin("libfaulty_callsanimrt.so"))
        message = str(refused.value)
        assert "libfaulty_callsanimrt.so" in message
        assert "undefined symbol: animrt_error_set" in message
        assert message.endswith("(a plugin calls animrt through the host API table its init is given, such as "
                                "api->error_set for animrt_error_set: this host loaded animrt privately, so "
                                "animrt's own functions are not there for the libraries it loads)"), message
        with pytest.raises(animrt.NotFoundError):
            rt.call("refuses", 1.0)
        nothing_left(rt)
        # Another missing symbol gets the loader's message alone.
        with pytest.raises(animrt.NotFoundError) as other:
            rt.load_plugin(plugin("libfaulty_undefined.so"))
        assert "host API table" not in str(other.value)


def test_error_missing_symbol():
    with animrt.Runtime() as rt:
        with pytest.raises(animrt.NotFoundError, match="does not export animrt_plugin_entry"):
            rt.load_plugin(plugin("libfaulty_noentry.so"))
        # Linked against libexamples.so, whose entry point dlsym finds through it: not its own.
        examples = rt.load_plugin(plugin("libexamples.so"))
        with pytest.raises(animrt.NotFoundError) as refused:
            rt.load_plugin(plugin("libfaulty_dependent.so"))
        assert re.search(r"libfaulty_dependent\.so' is not an animrt plugin: it does not export animrt_plugin_entry "
                         r"itself \(the one found is '[^']*/libexamples\.so''s, a library it depends on: load that "
                         r"plugin by its own path\); define it with ANIMRT_PLUGIN_DEFINE", str(refused.value))
        examples.unload()
        with pytest.raises(animrt.NotFoundError, match="no symbol 'cosine_of' in 'libm.so.6'"):
            rt.bind_function("cosine_of", "f64(f64)", library="libm.so.6")
        nothing_left(rt)


@pytest.mark.parametrize("variant, age, version", [("old", "too old", 0), ("new", "too new", 2)])
def test_error_abi_version(variant, age, version):
    with animrt.Runtime() as rt:
        with pytest.raises(animrt.VersionError, match=f"is {age}: it was built for plugin ABI version {version}, "
                                                      "and this animrt \\(0.3.0\\) loads version 1"):
            rt.load_plugin(plugin(f"libfaulty_{variant}.so"))
        nothing_left(rt)


def test_error_malformed_signature():
    with animrt.Runtime() as rt:
        with pytest.raises(animrt.InvalidArgumentError, match="column 10: unknown type 'f65'"):
            rt.bind_function("pow", "f64(f64, f65)", library="libm.so.6")
        with pytest.raises(animrt.InvalidArgumentError, match="write 'f64' for double"):
            rt.register_function("f", "double(double)", lambda x: x)
        # the signature is explained first, not the callable's arity measured against a malformed one
        with pytest.raises(animrt.InvalidArgumentError, match="column 10: unknown type 'f65'"):
            rt.register_function("f", "f64(f64, f65)", lambda x: x)
        with pytest.raises(animrt.InvalidArgumentError, match="void"):
            rt.register_function("f", "f64(void)", lambda: 1.0)
        with pytest.raises(animrt.InvalidArgumentError, match="more than 16 parameters"):
            rt.register_function("f", "f64(" + ", ".join(["f64"] * 17) + ")", lambda x: x)
        with pytest.raises(animrt.ArgumentTypeError, match="called with 2 argument"):  # well formed: arity checked
            rt.register_function("f", " f64 ( f64 ,u16 ) ", lambda x: x)
        # the library skips spaces and tabs only: other white space is its to explain, not the arity's
        # (shown as its escape, the message on one line)
        with pytest.raises(animrt.InvalidArgumentError, match=r"signature 'f64\(f64\)\\n', column 9: unexpected '\\n' after"):
            rt.register_function("f", "f64(f64)\n", lambda: 1.0)
        with pytest.raises(animrt.ArgumentTypeError, match="called with 1 argument"):
            rt.register_function("f", "\tf64(\tf64\t)\t", lambda: 1.0)
        nothing_left(rt)


def test_error_signature_that_does_not_fit_its_use():
    with animrt.Runtime() as rt:
        with pytest.raises(animrt.KindError, match="a timing function must be f64\\(f64\\)"):
            rt.bind_timing_function("pow", library="libm.so.6", signature="f64(f64, f64)")
        rt.register_function("count", "f64()", lambda: 1.0)
        with pytest.raises(animrt.KindError):
            rt.definition({"name": "g", "events": {"go": {}}, "initial": "a",
                           "states": {"a": {"on": {"go": {"guard": "count()", "target": "b"}}}, "b": {}}})
        nothing_left(rt)


def test_error_definition_naming_an_unbound_function():
    with animrt.Runtime() as rt:
        with pytest.raises(animrt.NotFoundError, match="unknown function 'canToggle'"):
            rt.definition({"name": "g", "events": {"go": {}}, "initial": "a",
                           "states": {"a": {"on": {"go": {"guard": "canToggle(1, 2)", "target": "b"}}}, "b": {}}})
        with pytest.raises(animrt.NotFoundError, match="unknown function 'nowhere'.*nothing of it was loaded"):
            rt.load_plugin(plugin("libfaulty_definition.so"))
        with pytest.raises(animrt.NotFoundError):
            rt.definition(named="faultyMachine")
        nothing_left(rt)


def test_a_name_taken_by_a_plugin_names_the_plugin():
    with animrt.Runtime() as rt:
        examples = rt.load_plugin(EXAMPLES)
        held = r"is already registered, by plugin 'examples' \(.*libexamples\.so\)"
        with pytest.raises(animrt.ExistsError, match=r"^a timing function named 'bounce' " + held + "$"):
            rt.register_timing_function("bounce", lambda x: x)
        with pytest.raises(animrt.ExistsError, match=r"^a function named 'canToggle' " + held + "$"):
            rt.register_function("canToggle", "bool(f64, f64)", lambda a, b: True)
        with pytest.raises(animrt.ExistsError, match=r"^plugin 'faulty' .*: a timing function named 'bounce' " + held
                           + "; nothing of it was loaded$"):
            rt.load_plugin(plugin("libfaulty_clash.so"))
        with pytest.raises(animrt.ExistsError, match=r"'halfway' is already registered, by this plugin; nothing"):
            rt.load_plugin(plugin("libfaulty_again.so"))
        rt.register_timing_function("mine", lambda x: x)
        with pytest.raises(animrt.ExistsError, match=r"^a timing function named 'mine' is already registered$"):
            rt.register_timing_function("mine", lambda x: x)
        examples.unload()
        rt.register_timing_function("bounce", lambda x: x)
        assert curve(rt, "bounce", 0.25) == 0.25


def test_error_plugin_registering_a_name_that_exists():
    with animrt.Runtime() as rt:
        with pytest.raises(animrt.ExistsError, match="plugin 'faulty'.*'easeIn' is a built-in timing function; register yours under another name"):
            rt.load_plugin(plugin("libfaulty_duplicate.so"))
        rt.register_function("halfGuard", "bool(f64)", lambda x: x > 0.5)
        with pytest.raises(animrt.ExistsError, match="a function named 'halfGuard' is already registered"):
            rt.load_plugin(plugin("libfaulty_definition.so"))
        with pytest.raises(animrt.NotFoundError):
            curve(rt, "halfway", 0.5)
        assert rt.call("halfGuard", 0.7) is True  # still the program's own


def test_error_library_loaded_twice_into_one_runtime():
    with animrt.Runtime() as a, animrt.Runtime() as b:
        live = a.bind_function("example_live_loads", "i32()", library=EXAMPLES, name="liveLoads")
        examples = a.load_plugin(EXAMPLES)
        with pytest.raises(animrt.ExistsError, match="plugin 'examples' .* is loaded into this runtime already"):
            a.load_plugin(EXAMPLES)
        assert live() == 1  # its init did not run again
        # A plugin that registers nothing is held to the same rule, by any path to the file.
        empty = a.load_plugin(plugin("libfaulty_empty.so"))
        with pytest.raises(animrt.ExistsError, match="plugin 'faulty' .* is loaded into this runtime already"):
            a.load_plugin(os.path.join(PLUGINS, ".", "libfaulty_empty.so"))
        assert b.load_plugin(plugin("libfaulty_empty.so")).name == "faulty"
        empty.unload()
        examples.unload()
        assert a.load_plugin(plugin("libfaulty_empty.so")).name == "faulty"
        assert a.load_plugin(EXAMPLES).name == "examples"


@pytest.mark.parametrize("library, error, message", [
    ("libfaulty_nameless.so", animrt.NullPointerError, "its entry point's name is NULL"),
    ("libfaulty_longname.so", animrt.RangeError, "its entry point's name is longer than 255 bytes"),
    ("libfaulty_badname.so", animrt.InvalidArgumentError, "its entry point's name is not valid UTF-8"),
    ("libfaulty_emptyname.so", animrt.InvalidArgumentError, "its entry point's name is empty"),
    ("libfaulty_versionless.so", animrt.NullPointerError, "its entry point's version is NULL"),
    ("libfaulty_longversion.so", animrt.RangeError, "its entry point's version is longer than 255 bytes"),
    ("libfaulty_badversion.so", animrt.InvalidArgumentError, "its entry point's version is not valid UTF-8"),
    ("libfaulty_noinit.so", animrt.InvalidArgumentError,
     "its entry point has no init function \\(it is NULL\\); a plugin adds what it has from its init: "
     "give one to ANIMRT_PLUGIN_DEFINE \\(its third argument\\)")])
def test_error_plugin_entry_point_name(library, error, message):
    with animrt.Runtime() as rt:
        with pytest.raises(error, match=message):
            rt.load_plugin(plugin(library))
        nothing_left(rt)


def test_a_plugin_name_and_version_of_255_bytes_load_and_read_back_whole():
    longest = "faultyname" * 25 + "12345"
    assert len(longest.encode()) == 255
    with animrt.Runtime() as rt:
        edge = rt.load_plugin(plugin("libfaulty_longest.so"))
        assert (edge.name, edge.version) == (longest, longest)


def test_a_plugin_without_a_version_reads_back_empty():
    with animrt.Runtime() as rt:
        quiet = rt.load_plugin(plugin("libfaulty_emptyversion.so"))
        assert (quiet.name, quiet.version) == ("faulty", "")
        quiet.unload()
        with pytest.raises(animrt.HandleError, match="stale"):
            quiet.version


def test_f32_is_a_float_bound_or_registered():
    with animrt.Runtime() as rt:
        bound = rt.bind_function("copysignf", "f32(f32, f32)", library="libm.so.6", name="boundFloat")
        registered = rt.register_function("hostFloat", "f32(f32, f32)", lambda x, y: x)
        received = rt.register_function("floatIn", "f64(f32)", lambda x: x)
        for x in (0.1, 1 / 3, -1e-40, 16777217.0):
            as_float = struct.unpack("f", struct.pack("f", x))[0]
            assert bound(x, x) == as_float
            assert struct.pack("d", registered(x, x)) == struct.pack("d", bound(x, x))
            assert struct.pack("d", received(x)) == struct.pack("d", as_float)
        # A finite number no float holds is refused rather than made infinite.
        for f in (bound, registered):
            with pytest.raises(animrt.RangeError, match="is 1e\\+39; f32 \\(float\\) holds"):
                f(1e39, 1.0)


def test_error_plugin_failing_its_init():
    with animrt.Runtime() as rt:
        with pytest.raises(animrt.CallbackError, match="failed to initialise \\(ANIMRT_E_RANGE\\): the faulty plugin "
                                                       "refuses to start"):
            rt.load_plugin(plugin("libfaulty_init.so"))
        nothing_left(rt)
        # Without a message: it says so, rather than repeat the last one.
        with pytest.raises(animrt.CallbackError, match="failed to initialise \\(ANIMRT_E_STATE\\): it gave no message "
                                                       "\\(api->error_set\\); nothing of it was loaded"):
            rt.load_plugin(plugin("libfaulty_silent.so"))
        with pytest.raises(animrt.NotFoundError):
            curve(rt, "halfway", 0.5)
        with pytest.raises(animrt.NotFoundError):
            rt.call("halfGuard", 1.0)
        assert rt.load_plugin(EXAMPLES).name == "examples"


def test_a_string_result_up_to_the_limit_comes_back_whole_and_one_longer_is_the_functions_failure():
    # rt.call reads into a buffer that holds the longest result the library
    # gives (ANIMRT_STRING_MAX): a result is never lost to too small a buffer
    # after its function has run.
    from animrt import _plugins
    calls = []
    with animrt.Runtime() as rt:
        rt.register_function("repeatX", "str(i64)", lambda n: calls.append(n) or "x" * n)
        assert rt.call("repeatX", 100_000) == "x" * 100_000
        assert len(rt.call("repeatX", _plugins.STRING_MAX)) == _plugins.STRING_MAX
        with pytest.raises(animrt.CallbackError, match="returned a string of 1048577 bytes; a string result is at most "
                                                       "1048576"):
            rt.call("repeatX", _plugins.STRING_MAX + 1)
        assert calls == [100_000, _plugins.STRING_MAX, _plugins.STRING_MAX + 1]


def test_a_tick_whose_curve_raises_still_delivers_its_events_before_raising():
    # The tick went on (the curve's value counted as 0), but its events waited for a tick that
    # succeeded: with a broken curve on one animation, no other's on_finish ever ran.
    with animrt.Runtime() as rt:
        def broken(x):
            raise ValueError("broken curve")
        rt.register_timing_function("broken", broken)
        rt.layer().add_animation(rt.basic("opacity", to=0, duration=1, repeat_count=math.inf, timing_function="broken"))
        toast = rt.layer()
        finished = []
        fade = toast.add_animation(rt.basic("opacity", to=0, duration=0.5), on_finish=finished.append)
        with pytest.raises(animrt.CallbackError, match="timing function 'broken' raised ValueError"):
            rt.tick(0)
        assert [type(e).__name__ for e in rt.events()] == ["AnimationStarted", "AnimationStarted"]
        with pytest.raises(animrt.CallbackError):
            rt.tick(1)
        assert finished == [True]
        assert [(type(e).__name__, e.attached is fade) for e in rt.events()] == [("AnimationStopped", True)]
        assert asyncio.run(asyncio.wait_for(fade.wait(), 5)) is True


def test_a_tick_whose_curve_raises_lets_ctrl_c_in_a_delivery_through():
    # Ctrl-C (or sys.exit()) raised by an on_finish the tick delivers is raised as itself, with the
    # curve's error noted on it, not noted on a CallbackError that `except Exception` would catch.
    with animrt.Runtime() as rt:
        def broken(x):
            raise ValueError("broken curve")
        rt.register_timing_function("broken", broken)
        rt.layer().add_animation(rt.basic("opacity", to=0, duration=1, timing_function="broken"))

        def interrupt(finished):
            raise KeyboardInterrupt("pressed during the delivery")
        rt.layer().add_animation(rt.basic("opacity", to=0, duration=0.5), on_finish=interrupt)
        with pytest.raises(animrt.CallbackError):
            rt.tick(0)
        with pytest.raises(KeyboardInterrupt, match="pressed during the delivery") as caught:
            rt.tick(0.75)
        assert any("broken curve" in note for note in getattr(caught.value, "__notes__", []))


def test_a_tick_whose_curve_raises_notes_what_its_deliveries_raised_after():
    with animrt.Runtime() as rt:
        def broken(x):
            raise ValueError("broken curve")
        rt.register_timing_function("broken", broken)
        layer = rt.layer()
        layer.add_animation(rt.basic("opacity", to=0, duration=1, timing_function="broken"))
        rt.start_timer(0, lambda: 1 / 0)
        with pytest.raises(animrt.CallbackError, match="broken curve") as caught:
            rt.tick(0)
        assert any("ZeroDivisionError" in note for note in getattr(caught.value, "__notes__", []))


def test_numpy_scalars_of_every_width_are_arguments():
    """Arguments take numpy's numbers as results and the rest of the binding do: int8 to uint64,
    float16 to longdouble (as the double C takes). Only four widths were taken; an int16 was refused
    as "an argument is a number", which it is."""
    numpy = pytest.importorskip("numpy")  # optional: the binding needs only the standard library
    with animrt.Runtime() as rt:
        rt.register_function("twice", "f64(f64)", lambda n: 2 * n)
        rt.register_function("next", "i64(i64)", lambda n: n + 1)
        for kind in (numpy.int8, numpy.int16, numpy.int32, numpy.int64, numpy.uint8, numpy.uint16, numpy.uint32,
                     numpy.uint64):
            assert rt.call("next", kind(100)) == 101, kind
            assert rt.call("twice", kind(3)) == 6.0, kind
        for kind in (numpy.float16, numpy.float32, numpy.float64, numpy.longdouble):
            assert rt.call("twice", kind(0.25)) == 0.5, kind
        # a u64's top half fits 64 bits but not the int64_t an argument travels in
        with pytest.raises(animrt.RangeError, match=re.escape("is 18446744073709551615, outside a signed 64-bit")):
            rt.call("next", numpy.uint64(2 ** 64 - 1))
        with pytest.raises(animrt.ArgumentTypeError, match="an argument is a number"):
            rt.call("twice", numpy.complex128(1))
