"""docs/bad-input.md, row by row: the exception, its message, and nothing changed (R0.3)."""
import ctypes
import math

import pytest

import animrt
from animrt import _ffi

lib = _ffi.lib
# ANIMRT_BARRIER_NOTIFIES_MAX (include/animrt.h).
NOTIFIES_MAX = 1 << 20


def snapshot(rt, layer, anim):
    """What a refused call could have changed, read back from the library
    (never from the binding's own copies of what it set)."""
    return {"model": layer["opacity"], "presentation": layer.presentation("opacity"), "position": layer["position"],
            "duration": anim.duration, "speed": anim.speed, "time": rt.time, "keys": layer.animation_keys()}


@pytest.fixture
def world():
    with animrt.Runtime() as rt:
        layer = rt.layer()
        layer["opacity"] = 0.5
        layer["position"] = (3, 4)
        anim = rt.basic("opacity", from_=0, to=1, duration=1)
        rt.tick(1)
        before = snapshot(rt, layer, anim)
        yield rt, layer, anim
        # After every bad call: the state is what it was, no event is waiting,
        # and the runtime still works.
        assert snapshot(rt, layer, anim) == before
        assert rt.events() == []
        rt.tick(rt.time + 1)
        assert layer.presentation("opacity") == 0.5 and rt.time == before["time"] + 1


def test_row1_null_runtime(world):
    rt, layer, anim = world
    out = ctypes.c_uint64(77)
    with pytest.raises(animrt.NullPointerError, match="runtime pointer is NULL"):
        lib.animrt_layer_create(None, 0, ctypes.byref(out))
    with pytest.raises(animrt.NullPointerError):
        lib.animrt_runtime_tick(None, 5.0)
    with pytest.raises(animrt.NullPointerError):
        lib.animrt_animation_set_timing(None, anim.id, 1, 2.0)
    assert out.value == 77
    # The binding never passes NULL: a closed runtime raises ClosedError
    # before any call reaches the library.
    with animrt.Runtime() as closed:
        gone = closed.layer()
    with pytest.raises(animrt.ClosedError):
        closed.tick(1)
    with pytest.raises(animrt.ClosedError):
        gone.presentation("opacity")


def test_row2_null_pointers(world):
    rt, layer, _ = world
    with pytest.raises(animrt.NullPointerError, match="out is NULL"):
        lib.animrt_layer_create(rt._ptr, 0, None)
    with pytest.raises(animrt.NullPointerError):
        lib.animrt_layer_set_value(rt._ptr, layer.id, rt.keypath_id("opacity"), None, 1)


def test_row3_non_finite_numbers(world):
    rt, layer, anim = world
    with pytest.raises(animrt.InvalidArgumentError, match="finite"):
        layer["opacity"] = math.nan
    with pytest.raises(animrt.InvalidArgumentError, match="speed"):
        anim.speed = math.nan
    with pytest.raises(animrt.InvalidArgumentError):
        layer.set_timing(speed=math.inf)


def test_row4_tick_not_finite(world):
    rt, _, _ = world
    with pytest.raises(animrt.TimeError):
        rt.tick(math.inf)


def test_row5_ranges(world):
    rt, _, anim = world
    with pytest.raises(animrt.RangeError, match="duration is -1"):
        anim.duration = -1
    with pytest.raises(animrt.RangeError):
        anim.repeat_count = -2
    with pytest.raises(animrt.RangeError, match="x coordinates"):
        anim.timing_function = (1.5, 0, 0.5, 1)
    with pytest.raises(animrt.RangeError, match="timer delay is -1"):
        rt.start_timer(-1)


def test_row6_unknown_enums(world):
    rt, _, anim = world
    with pytest.raises(animrt.EnumError):
        lib.animrt_animation_set_timing(rt._ptr, anim.id, 99, 1.0)
    with pytest.raises(animrt.EnumError):
        lib.animrt_animation_set_fill_mode(rt._ptr, anim.id, 7)
    with pytest.raises(animrt.EnumError):
        lib.animrt_animation_create(rt._ptr, 9, b"opacity", ctypes.byref(ctypes.c_uint64()))
    with pytest.raises(animrt.EnumError):
        lib.animrt_animation_set_flag(rt._ptr, anim.id, 42, 1)


def test_row7_unknown_key_paths(world):
    rt, layer, _ = world
    with pytest.raises(animrt.NotFoundError, match="did you mean 'opacity'"):
        layer.presentation("opacty")
    with pytest.raises(animrt.NotFoundError, match="bounds.size.width"):
        rt.basic("bounds.size.widht", to=1)
    out, n = (ctypes.c_double * 1)(), ctypes.c_size_t()
    with pytest.raises(animrt.NotFoundError):
        lib.animrt_layer_get_value(rt._ptr, layer.id, 12345, out, 1, ctypes.byref(n))


def test_row8_wrong_kinds(world):
    rt, layer, anim = world
    with pytest.raises(animrt.KindError, match="point"):
        layer["position"] = 1.0
    with pytest.raises(animrt.KindError, match="to has 2 numbers; 'opacity' takes a scalar"):
        anim.set_value("to", (1, 2))
    with pytest.raises(animrt.KindError, match="spring"):
        lib.animrt_animation_set_spring(rt._ptr, anim.id, 1.0, 100.0, 10.0, 0.0)


def test_row9_invalid_utf8(world):
    rt, layer, anim = world
    with pytest.raises(animrt.InvalidArgumentError, match="UTF-8"):
        lib.animrt_keypath_id(rt._ptr, b"opac\xffity", ctypes.byref(ctypes.c_int32()))
    with pytest.raises(animrt.InvalidArgumentError, match="UTF-8"):
        lib.animrt_layer_add_animation(rt._ptr, layer.id, anim.id, b"\xc3\x28", 0, None)
    assert layer.animation_keys() == []


def test_row9_text_c_cannot_carry(world):
    """A NUL would end the C string early (what follows silently lost), and a lone surrogate is not
    UTF-8: both are refused wherever a str goes to the library, naming the argument."""
    rt, layer, anim = world
    with pytest.raises(animrt.InvalidArgumentError) as e:
        layer["opacity\x00junk"]
    assert e.value.message == ("key_path 'opacity\\x00junk' has a NUL character (at 7): C strings end there, so what "
                               "follows it would be lost")
    with pytest.raises(animrt.InvalidArgumentError, match="^key 'fade.x00x' has a NUL character"):
        layer.add_animation(anim, key="fade\x00x")
    with pytest.raises(animrt.InvalidArgumentError, match="^timing_function '.ud800' is not text UTF-8 can carry"):
        anim.timing_function = "\ud800"
    with pytest.raises(animrt.InvalidArgumentError, match="^name 'half.x00way' has a NUL character"):
        rt.register_timing_function("half\x00way", lambda x: x / 2)
    # The last guard, for text that reaches a C call without a name to give it.
    with pytest.raises(ctypes.ArgumentError, match=r"'opacity\\x00junk' has a NUL character \(at 7\)"):
        lib.animrt_keypath_id(rt._ptr, b"opacity\x00junk", ctypes.byref(ctypes.c_int32()))
    assert anim.timing_function is None and layer.animation_keys() == []


def test_row10_small_buffers(world):
    rt, layer, anim = world
    out, n = (ctypes.c_double * 1)(7.0), ctypes.c_size_t()
    with pytest.raises(animrt.BufferTooSmallError) as caught:  # the library's status is for too small a buffer
        lib.animrt_layer_get_presentation(rt._ptr, layer.id, rt.keypath_id("position"), out, 1, ctypes.byref(n))
    assert isinstance(caught.value, animrt.BufferSizeError) and caught.value.status == 7
    assert n.value == 2 and out[0] == 7.0
    layer.add_animation(anim, key="longer")
    buf, needed = ctypes.create_string_buffer(2), ctypes.c_size_t()
    with pytest.raises(animrt.BufferTooSmallError):
        lib.animrt_layer_animation_key(rt._ptr, layer.id, 0, buf, 2, ctypes.byref(needed))
    assert needed.value == 7
    layer.remove_all_animations()
    rt.events()  # its "removed" stop


def test_row11_leave_without_enter(world):
    rt, _, _ = world
    barrier = rt.barrier()
    with pytest.raises(animrt.StateError):
        barrier.leave()
    assert barrier.count == 0
    with pytest.raises(animrt.StateError, match="commit without"):
        lib.animrt_transaction_commit(rt._ptr, 1)


def test_barrier_notifies_bounded():
    """ANIMRT_BARRIER_NOTIFIES_MAX wait on a held barrier; the next is a RangeError, and a refused
    callable is not kept (it would otherwise wait forever in the runtime's table)."""
    with animrt.Runtime(event_capacity=2 ** 21) as rt:
        barrier = rt.barrier()
        barrier.enter()
        for token in range(NOTIFIES_MAX - 1):
            barrier.notify(token)
        ran = []
        barrier.notify(lambda: ran.append("last held"))
        kept = dict(rt._notifications)
        with pytest.raises(animrt.RangeError, match="1048576 notifications waiting for its count to reach zero"):
            barrier.notify(lambda: ran.append("refused"))
        with pytest.raises(animrt.RangeError):
            barrier.notify(7)
        assert rt._notifications == kept and len(kept) == 1
        barrier.leave()
        rt.tick(0)
        assert ran == ["last held"]
        tokens = [e.token for e in rt.events() if isinstance(e, animrt.BarrierNotified)]
        assert tokens == list(range(NOTIFIES_MAX - 1))


def test_row12_destroy_twice(world):
    rt, _, _ = world
    doomed = rt.layer()
    doomed.destroy()
    doomed.destroy()  # Python's destroy() is idempotent, like close() on a file
    with pytest.raises(animrt.HandleError, match=f"layer handle {doomed.id:#x} is stale"):
        doomed.value("opacity")
    with pytest.raises(animrt.HandleError, match="stale"):
        lib.animrt_layer_destroy(rt._ptr, doomed.id)
    barrier = rt.barrier()
    lib.animrt_barrier_destroy(rt._ptr, barrier.id)
    with pytest.raises(animrt.HandleError):
        lib.animrt_barrier_destroy(rt._ptr, barrier.id)


def test_row13_foreign_zero_and_wrong_kind_handles(world):
    rt, layer, anim = world
    with animrt.Runtime() as other:
        foreign = other.layer()
        with pytest.raises(animrt.HandleError, match="another runtime"):
            lib.animrt_layer_destroy(rt._ptr, foreign.id)
    with pytest.raises(animrt.HandleError):
        lib.animrt_layer_destroy(rt._ptr, 0)
    with pytest.raises(animrt.HandleError, match="not a layer"):
        lib.animrt_layer_add_animation(rt._ptr, anim.id, layer.id, None, 0, None)


def test_row14_invalid_key_times(world):
    rt, layer, _ = world
    kf = rt.keyframe("opacity", [0, 1, 2], key_times=[0, 0.7, 0.5])
    with pytest.raises(animrt.InvalidArgumentError, match="must not decrease"):
        layer.add_animation(kf, key="kf")
    assert layer.animation_keys() == []


def test_row15_time_backwards(world):
    rt, _, _ = world
    now = rt.time
    with pytest.raises(animrt.TimeError, match="earlier than the previous tick"):
        rt.tick(now - 0.5)
    assert rt.time == now


def test_row16_names_taken(world):
    rt, _, _ = world
    with pytest.raises(animrt.ExistsError):
        rt.define_property("opacity", 1.0)


def test_row17_counts_no_buffer_can_have(world):
    rt, layer, _ = world
    kf = rt.keyframe("opacity", [0, 1])
    values = (ctypes.c_double * 2)(0, 1)
    with pytest.raises(animrt.RangeError, match="at most"):
        lib.animrt_keyframe_set_values(rt._ptr, kf.id, values, 2 ** 64 - 1, 1)
    with pytest.raises(animrt.RangeError):
        lib.animrt_layer_set_value(rt._ptr, layer.id, rt.keypath_id("opacity"), values, 2 ** 63)
    with pytest.raises(animrt.RangeError, match="count is 268435457"):
        rt.create_layers(2 ** 28 + 1)
    with pytest.raises(animrt.RangeError, match="at most"):
        lib.animrt_layer_create_many(rt._ptr, 0, 2 ** 64 - 1, None)
    # The keyframes are still 0 → 1, as the library evaluates them: half way
    # through at a tick at the same time (the clock does not move).
    other = rt.layer()
    kf.duration, kf.begin_time = 1, rt.time - 0.5
    other.add_animation(kf, key="kf")
    rt.tick(rt.time)
    assert other.presentation("opacity") == 0.5
    other.destroy()
    rt.events()
