"""What the binding maps both ways: each enum member by its name, each status to its exception
class, each event's fields, each callable's result, and what a barrier keeps and lets go (R0.3)."""
import gc
import math
import weakref
from typing import List

import pytest

import animrt
from animrt import _ffi
from animrt._errors import BY_STATUS, error_for


def names_of(mapping):
    """{'alternate-reverse': 'ALTERNATE_REVERSE', 'cubicPaced': 'CUBIC_PACED', ...}: each option
    name spelt as its member's."""
    def spelt(name):
        out = "".join("_" + c if c.isupper() else c for c in name)
        return out.replace("-", "_").upper()
    return {name: spelt(name) for name in mapping}


@pytest.mark.parametrize("mapping, enum", [
    ("FILL_MODES", animrt.FillMode), ("DIRECTIONS", animrt.Direction),
    ("CALCULATION_MODES", animrt.CalculationMode), ("ROTATION_MODES", animrt.RotationMode),
    ("VALUE_KINDS", animrt.ValueKind)])
def test_every_member_has_the_option_name_spelt_as_its_own(mapping, enum):
    table = getattr(animrt._enums, mapping)
    assert {table[k].name for k in table} == {m.name for m in enum}
    for name, member_name in names_of(table).items():
        assert table[name] is enum[member_name], name


def test_each_name_reaches_the_library_and_reads_back_as_its_member():
    with animrt.Runtime() as rt:
        for name, member in animrt._enums.FILL_MODES.items():
            a = rt.basic("opacity", to=1, fill_mode=name)
            assert a.fill_mode is member
            copy = rt.layer().add_animation(a)
            assert copy.fill_mode is member
        for name, member in animrt._enums.DIRECTIONS.items():
            a = rt.basic("opacity", to=1, direction=name)
            assert a.direction is member
            assert rt.layer().add_animation(a).direction is member
        for name, member in animrt._enums.ROTATION_MODES.items():
            k = rt.keyframe("position", path=[("M", 0, 0), ("L", 100, 50)], rotation_mode=name)
            assert k.rotation_mode is member
            assert rt.layer().add_animation(k).rotation_mode is member
        for name, member in animrt._enums.CALCULATION_MODES.items():
            k = rt.keyframe("opacity", [0, 1, 0.5], calculation_mode=name)
            assert k.calculation_mode is member
        rt.define_property("tint", (0.1, 0.2, 0.3, 1.0), kind="color")
        assert rt.keypath_info("tint") == (animrt.ValueKind.COLOR, 4)


def test_alternate_reverse_plays_its_first_iteration_backwards():
    with animrt.Runtime() as rt:
        layer = rt.layer()
        layer.add_animation(rt.basic("opacity", from_=0, to=1, duration=1, repeat_count=2,
                                     direction="alternate-reverse"))
        rt.tick(0)
        rt.tick(0.25)
        assert layer.presentation("opacity") == 0.75
        rt.tick(1.25)
        assert layer.presentation("opacity") == 0.25


def test_an_enum_formats_as_its_name_and_with_a_spec_as_its_number():
    outcome = animrt.SendOutcome.IGNORED
    assert f"{outcome}" == "SendOutcome.IGNORED" == str(outcome)
    assert f"{outcome:d}" == "1"
    assert f"{animrt.FillMode.BOTH:>3}" == "  3"


# -- statuses ----------------------------------------------------------------------

def test_every_status_maps_to_the_class_named_for_it():
    for status in range(1, 15):
        c_name = _ffi.lib.animrt_status_name(status).decode()
        error = error_for(status, "what went wrong")
        assert type(error) is BY_STATUS[status]
        assert (error.status, error.name, error.message) == (status, c_name, "what went wrong"), c_name
    assert BY_STATUS[7] is animrt.BufferTooSmallError


def test_a_status_without_a_class_keeps_its_number():
    error = error_for(99, "a newer library's status")
    assert type(error) is animrt.AnimrtError
    assert error.status == 99 and str(error) == "a newer library's status"


def test_statuses_raised_by_the_library_are_their_classes():
    with animrt.Runtime() as rt:
        rt.define_property("glow", 0.0)
        with pytest.raises(animrt.ExistsError) as taken:
            rt.define_property("glow", 1.0)
        assert taken.value.status == 9
        with pytest.raises(animrt.NotFoundError) as unknown:
            rt.layer().presentation("opacty")
        assert unknown.value.status == 5 and "did you mean 'opacity'" in unknown.value.message
        with pytest.raises(animrt.KindError) as kind:
            rt.layer()["position"] = 1.0
        assert kind.value.status == 6 and isinstance(kind.value, TypeError)


def test_a_wrong_python_type_is_also_a_type_error():
    with animrt.Runtime() as rt:
        with pytest.raises(TypeError) as e:
            rt.tick("2")
        assert isinstance(e.value, animrt.ArgumentTypeError) and isinstance(e.value, ValueError)


def test_a_bad_iteration_start_is_named_as_python_spells_it():
    with animrt.Runtime() as rt:
        with pytest.raises(animrt.RangeError) as e:
            rt.basic("opacity", to=1, iteration_start=-1)
        assert "iteration_start" in str(e.value) and "iterationStart" not in str(e.value)


# -- barriers ----------------------------------------------------------------------

class Completion:
    """A callable a weak reference can follow: gone once nothing keeps it."""
    def __init__(self):
        self.runs = 0

    def __call__(self):
        self.runs += 1


def test_a_refused_notify_keeps_no_callable():
    with animrt.Runtime() as rt:
        b = rt.barrier()
        b.destroy()
        done = Completion()
        kept = weakref.ref(done)
        with pytest.raises(animrt.HandleError):
            b.notify(done)
        del done
        gc.collect()
        assert kept() is None


def test_destroying_a_barrier_lets_its_pending_notifications_go():
    with animrt.Runtime() as rt:
        b = rt.barrier()
        b.enter()
        done = Completion()
        callable_kept = weakref.ref(done)
        b.notify(done)
        b.notify(7)
        b.destroy()
        barrier_kept = weakref.ref(b)
        del done, b
        gc.collect()
        assert callable_kept() is None and barrier_kept() is None
        rt.tick(0)
        assert rt.events() == []


def test_a_notification_due_before_the_barrier_is_destroyed_still_runs():
    """Given at a count of zero, a notification is due at once (its C event is queued): destroying the
    barrier before the tick keeps it, for a callable as for a token; one still waiting is dropped, and
    no event ever carries the binding's own token."""
    with animrt.Runtime() as rt:
        b = rt.barrier()
        ran: List[str] = []
        b.notify(lambda: ran.append("due"))
        b.notify(7)
        b.enter()
        b.notify(lambda: ran.append("waiting"))
        b.notify(8)
        b.destroy()
        rt.tick(0)
        assert ran == ["due"]
        events = rt.events()
        assert [type(e).__name__ for e in events] == ["BarrierNotified"]
        assert events[0].token == 7


def test_a_notification_drained_by_a_leave_before_the_barrier_is_destroyed_still_runs():
    """The with block's pattern: work entered, a notify, the work's leave, and the block's end destroying
    the barrier before the next tick. The leave drained it, so the callable runs at that tick. A leave
    made through animrt._ffi, which the binding does not see, followed by an enter: the callable is
    dropped with the barrier, and its event never reaches the program with the binding's token."""
    with animrt.Runtime() as rt:
        ran: List[str] = []
        with rt.barrier() as loaded:
            loaded.enter()
            loaded.notify(lambda: ran.append("loaded"))
            loaded.leave()
        rt.tick(0)
        assert ran == ["loaded"] and rt.events() == []
        b = rt.barrier()
        b.enter()
        b.notify(lambda: ran.append("unseen"))
        _ffi.lib.animrt_barrier_leave(rt._ptr, b.id)  # fires, unseen by the binding
        _ffi.lib.animrt_barrier_enter(rt._ptr, b.id)
        b.destroy()
        rt.tick(1)
        assert ran == ["loaded"] and rt.events() == []


def test_a_barrier_of_a_closed_runtime_says_so():
    rt = animrt.Runtime()
    b = rt.barrier()
    rt.close()
    assert repr(b) == f"<Barrier (runtime closed) {b._id:#x}>"


# -- events ------------------------------------------------------------------------

def test_started_and_stopped_events_carry_the_key_and_the_transactions_token():
    with animrt.Runtime() as rt:
        layer = rt.layer()
        with rt.transaction(token=5) as t:
            attached = layer.add_animation(rt.basic("opacity", to=0, duration=1), key="in")
        rt.tick(0)
        rt.tick(2)
        started, stopped, completed = rt.events()
        assert isinstance(started, animrt.AnimationStarted) and started.key == "in"
        assert started.attached is attached and started.layer is layer
        assert isinstance(stopped, animrt.AnimationStopped) and stopped.key == "in" and stopped.finished
        assert isinstance(completed, animrt.TransactionCompleted)
        assert completed.transaction == t and completed.token == 5 and completed.time == 2


def test_computed_timing_before_the_start_is_unresolved_not_nan():
    with animrt.Runtime() as rt:
        layer = rt.layer()
        rt.tick(0)
        attached = layer.add_animation(rt.basic("opacity", to=0, duration=1, begin_time=5))
        rt.tick(1)
        timing = attached.computed_timing()
        assert timing.phase is animrt.Phase.BEFORE
        assert timing.current_iteration is None and timing.progress is None and timing.active_time is None
        rt.tick(5.5)
        timing = attached.computed_timing()
        assert (timing.phase, timing.current_iteration, timing.progress) == (animrt.Phase.ACTIVE, 0.0, 0.5)


# -- callables' results and plugins ------------------------------------------------

def test_a_bool_function_returning_two_is_refused():
    with animrt.Runtime() as rt:
        rt.register_function("two", "bool(f64)", lambda n: 2)
        rt.register_function("one", "bool(f64)", lambda n: 1)
        assert rt.call("one", 0.0) is True
        with pytest.raises(animrt.CallbackError) as e:
            rt.call("two", 0.0)
        assert isinstance(e.value.__cause__, TypeError) and "returned 2" in str(e.value.__cause__)


def test_an_integer_result_is_an_int_within_64_bits():
    with animrt.Runtime() as rt:
        rt.register_function("largest", "i64()", lambda: 2 ** 63 - 1)
        rt.register_function("past", "i64()", lambda: 2 ** 63)
        result = rt.call("largest")
        assert result == 2 ** 63 - 1 and type(result) is int
        with pytest.raises(animrt.CallbackError) as e:
            rt.call("past")
        assert "past the integers a result carries" in str(e.value.__cause__)


@pytest.mark.parametrize("result, said", [(True, "returned True"), (math.inf, "returned inf"),
                                          (-math.inf, "returned -inf")])
def test_a_timing_function_returning_a_bool_or_an_infinity_is_refused(result, said):
    with animrt.Runtime() as rt:
        rt.register_timing_function("odd", lambda x: result)
        with pytest.raises(animrt.CallbackError) as e:
            rt.evaluate_timing_function("odd", 0.5)
        assert said in str(e.value.__cause__)


def test_a_timing_function_raising_while_velocity_is_read_raises_there():
    armed = []

    def curve(x):
        if armed:
            raise ZeroDivisionError("armed")
        return x

    with animrt.Runtime() as rt:
        rt.register_timing_function("trap", curve)
        attached = rt.layer().add_animation(rt.basic("opacity", from_=0, to=1, duration=1, timing_function="trap"))
        rt.tick(0)
        rt.tick(0.5)
        assert attached.velocity() == pytest.approx(1.0)
        armed.append(True)
        with pytest.raises(animrt.CallbackError) as e:
            attached.velocity()
        assert isinstance(e.value.__cause__, ZeroDivisionError)
        armed.clear()
        rt.tick(0.6)  # nothing left over


def test_limits_of_another_length_than_the_defaults_are_refused():
    with animrt.Runtime() as rt:
        with pytest.raises(animrt.ArgumentTypeError, match=r"minimum has 2 numbers; the timing function has 1 parameter"):
            rt.register_timing_function("lean", lambda x, k: x * k, defaults=(0.5,), minimum=(0.0, 1.0))
        with pytest.raises(animrt.NotFoundError):
            rt.evaluate_timing_function("lean", 0.5)


def test_a_bound_function_is_named_as_asked():
    with animrt.Runtime() as rt:
        power = rt.bind_function("pow", "f64(f64, f64)", library="libm.so.6", name="power")
        assert (power.name, power.signature) == ("power", "f64(f64, f64)")
        assert power(2, 10) == 1024.0 and rt.call("power", 2.0, 3.0) == 8.0
        with pytest.raises(animrt.NotFoundError):
            rt.call("pow", 2.0, 3.0)

