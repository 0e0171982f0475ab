"""Whole scenes in one call: Runtime.create_layers, Runtime.add_animations and
reader(layers, key_path), from numpy arrays, array('d') and plain sequences."""
import gc
import sys
from array import array

import pytest

import animrt

np = pytest.importorskip("numpy")

MASK = (1 << 48) - 1  # a handle without its runtime's tag


def scene(rt, n):
    """n layers; a few already animate opacity under the key "k" (replaced by the adds)."""
    layers = rt.create_layers(n)
    old = rt.basic("opacity", from_=0.5, to=0.25, duration=1)
    for i in range(0, n, 10):
        animrt.Layer._stand_in(rt, layers[i]).add_animation(old, key="k")
    return layers


def columns(n):
    rng = np.random.default_rng(4)
    begin = 0.01 + rng.random(n)
    begin[::4] = 0.0  # begins at the next tick
    return begin, 0.05 + rng.random(n), 100 * rng.random(n), 100 * rng.random(n)


def record(rt, layers, frames=40):
    reader = rt.reader(layers, "opacity")
    values, events = [], []
    for f in range(frames):
        rt.tick(f / 30)
        values.append(reader.read().copy())
        events += [(type(e).__name__, e.time, e.attached._id & MASK, getattr(e, "reason", None)) for e in rt.events()]
    return np.concatenate(values), events


def template(rt):
    return rt.basic("opacity", timing_function="easeInEaseOut", fill_mode="both", removed_on_completion=False)


@pytest.mark.parametrize("kind", ["numpy", "array", "list"])
def test_add_animations_equals_adding_one_by_one(kind):
    n = 300
    begin, duration, start, end = columns(n)
    convert = {"numpy": lambda a: a, "array": lambda a: array("d", a.tobytes()), "list": lambda a: a.tolist()}[kind]
    with animrt.Runtime() as one, animrt.Runtime() as many:
        l1, l2 = scene(one, n), scene(many, n)
        fade1, fade2 = template(one), template(many)
        h1 = []
        for i in range(n):
            fade1.configure(begin_time=float(begin[i]), duration=float(duration[i]))
            fade1.from_value, fade1.to_value = float(start[i]), float(end[i])
            h1.append(animrt.Layer._stand_in(one, l1[i]).add_animation(fade1, key="k")._id)
        h2 = many.add_animations(fade2, l2, key="k", begin_time=convert(begin), duration=convert(duration),
                                 from_=convert(start), to=convert(end))
        assert [h & MASK for h in h1] == [h & MASK for h in h2]
        assert fade2.duration == 0 and fade2.begin_time == 0  # the description is unchanged
        v1, e1 = record(one, l1)
        v2, e2 = record(many, l2)
    assert len(e1) > n
    assert e1 == e2
    assert np.array_equal(v1, v2)


def test_one_number_is_every_layers_value_and_points_take_two_per_layer():
    with animrt.Runtime() as rt:
        dots = rt.create_layers(5)
        move = rt.basic("position", fill_mode="forwards", removed_on_completion=False)
        targets = np.arange(10, dtype=float).reshape(5, 2)
        rt.add_animations(move, dots, begin_time=0.5, duration=1.0, from_=np.zeros((5, 2)), to=targets)
        rt.tick(0.0)
        rt.tick(2.0)
        assert np.array_equal(rt.reader(dots, "position").read(), targets)


def test_an_integer_array_is_a_column_of_the_numbers_it_holds():
    # np.arange(n) and friends are int64: converted to float64, not refused as a column of another kind.
    for column in (np.arange(3), np.arange(3, dtype=np.uint32), np.array([0, 1, 2], dtype=np.int8)):
        with animrt.Runtime() as rt:
            dots = rt.create_layers(3)
            move = rt.basic("position.x", fill_mode="forwards", removed_on_completion=False)
            rt.add_animations(move, dots, begin_time=0.0, duration=1.0, from_=0.0, to=column * 10)
            rt.tick(0.0)
            rt.tick(2.0)
            assert rt.reader(dots, "position.x").read().ravel().tolist() == [0.0, 10.0, 20.0], column.dtype
    with animrt.Runtime() as rt:
        with pytest.raises(animrt.KindError, match="to has dtype <U1; columns are numbers"):
            rt.add_animations(rt.basic("position.x"), rt.create_layers(3), to=np.array(["a", "b", "c"]))


def test_a_numpy_scalar_is_one_number_for_every_layer():
    # What numpy hands out for one number (dots.mean(), a float32 array's item, a 0-d array) is one
    # number, as a Python float is: every layer takes it, not a column of one refused as too short.
    for one, shown in ((np.float64(0.5), 0.5), (np.float32(0.5), 0.5), (np.array(0.5), 0.5), (np.int64(1), 0.25),
                       (np.int32(1), 0.25)):
        with animrt.Runtime() as rt:
            dots = rt.create_layers(3)
            fade = rt.basic("opacity", fill_mode="both", removed_on_completion=False)
            rt.add_animations(fade, dots, begin_time=0.0, duration=one, from_=np.float64(0.0), to=1.0)
            rt.tick(0.0)
            rt.tick(0.25)
            assert rt.reader(dots, "opacity").read().ravel().tolist() == [shown] * 3, repr(one)
    with animrt.Runtime() as rt:
        dots = rt.create_layers(2)
        move = rt.basic("position", fill_mode="forwards", removed_on_completion=False)
        rt.add_animations(move, dots, duration=1.0, from_=np.float64(0.0), to=np.float64(3.0))
        rt.tick(0.0)
        rt.tick(1.0)
        assert rt.reader(dots, "position").read().tolist() == [[3.0, 3.0], [3.0, 3.0]]
        with pytest.raises(animrt.KindError, match="to has dtype bool"):
            rt.add_animations(move, dots, to=np.bool_(True))


def test_columns_take_what_python_programs_hold():
    # Integer and float32 arrays, a transposed (non-contiguous) array, a list of tuples and one
    # tuple for every layer all give the same points as a float64 array of them.
    targets = np.arange(10, dtype=float).reshape(5, 2)
    forms = {"int64": targets.astype(np.int64), "float32": targets.astype(np.float32),
             "transposed": np.asfortranarray(targets), "tuples": [tuple(p) for p in targets.tolist()]}
    for name, to in forms.items():
        with animrt.Runtime() as rt:
            dots = rt.create_layers(5)
            move = rt.basic("position", fill_mode="forwards", removed_on_completion=False)
            rt.add_animations(move, dots, begin_time=0.5, duration=1.0, from_=(3.0, 4.0), to=to)
            reader = rt.reader(dots, "position")
            rt.tick(0.0)
            rt.tick(0.5)  # begun: the from value
            assert np.array_equal(reader.read(), np.tile([3.0, 4.0], (5, 1))), name  # one tuple, every layer
            rt.tick(2.0)
            assert np.array_equal(reader.read(), targets), name
    with animrt.Runtime() as rt:
        move = rt.basic("position")
        dots = rt.create_layers(2)
        with pytest.raises(animrt.BufferTooSmallError, match="to holds a tuple of 1 number, fewer than 2, "):
            rt.add_animations(move, dots, to=[(1.0, 2.0), (3.0,)])
        # A tuple too long is of the wrong size, not too small; one too short beside it is too small.
        with pytest.raises(animrt.BufferSizeError, match="to holds a tuple of 3 numbers, more than 2, ") as caught:
            rt.add_animations(move, dots, to=[(1.0, 2.0), (3.0, 4.0, 5.0)])
        assert not isinstance(caught.value, animrt.BufferTooSmallError)
        with pytest.raises(animrt.BufferTooSmallError, match="a tuple of 1 number, fewer than 2"):
            rt.add_animations(move, dots, to=[(1.0, 2.0, 3.0), (4.0,)])
        assert all(not animrt.Layer._stand_in(rt, d).animation_keys() for d in dots)


def test_read_only_buffers_are_read_and_strided_ones_refused():
    # A read-only array (a frozen numpy array, array('d') behind a read-only view) is copied for the
    # call, never written; a strided view is refused by name before anything is added.
    with animrt.Runtime() as rt:
        dots = rt.create_layers(4)
        fade = template(rt)
        frozen = np.array([0.5, 0.25, 0.125, 1.0])
        frozen.setflags(write=False)
        starts = memoryview(array("d", [0.0, 0.0, 0.0, 0.0])).toreadonly()
        rt.add_animations(fade, dots, begin_time=starts, duration=1.0, from_=0.0, to=frozen)
        rt.tick(0.0)
        rt.tick(2.0)
        assert np.array_equal(rt.reader(dots, "opacity").read().ravel(), frozen)
        assert list(frozen) == [0.5, 0.25, 0.125, 1.0]
        strided = memoryview(array("d", range(8)))[::2]
        others = rt.create_layers(4)
        with pytest.raises(animrt.ArgumentTypeError, match="the array to is not contiguous"):
            rt.add_animations(fade, others, to=strided)
        assert all(not animrt.Layer._stand_in(rt, d).animation_keys() for d in others)


def test_a_column_longer_than_the_layers_is_refused():
    # One number too many is as much a mistake as one too few: nothing is dropped silently.
    with animrt.Runtime() as rt:
        dots = rt.create_layers(3)
        fade = template(rt)
        # Of the wrong size, not too small: `except animrt.BufferTooSmallError` lets it through.
        for to in (np.ones(4), [1.0] * 4):
            with pytest.raises(animrt.BufferSizeError, match="to holds 4 numbers; 3 are needed") as caught:
                rt.add_animations(fade, dots, to=to)
            assert not isinstance(caught.value, animrt.BufferTooSmallError)
        assert all(not animrt.Layer._stand_in(rt, d).animation_keys() for d in dots)
        # Counted as the library counts: one number, one is needed.
        with pytest.raises(animrt.BufferTooSmallError) as short:
            rt.add_animations(fade, dots, to=[1.0])
        assert str(short.value).startswith("to holds 1 number; 3 are needed")
        with pytest.raises(animrt.BufferSizeError) as long:
            rt.add_animations(fade, dots[:1], to=[1.0, 2.0])
        assert str(long.value).startswith("to holds 2 numbers; 1 is needed")


def test_a_column_whose_rows_are_not_layers_is_refused():
    # A (components, layers) array, numpy.array([xs, ys]), holds as many numbers as one row per layer:
    # read as rows, each layer got numbers of two layers, silently.
    with animrt.Runtime() as rt:
        dots = rt.create_layers(3)
        move = rt.basic("position", fill_mode="forwards", removed_on_completion=False)
        xs, ys = [1.0, 2.0, 3.0], [10.0, 20.0, 30.0]
        with pytest.raises(animrt.InvalidArgumentError, match=r"^to has shape \(2, 3\); for 3 layers of 2 "
                           r"components it must be \(3, 2\), one row per layer, or flat; "
                           r"numpy.column_stack\(\[xs, ys\]\) makes rows of columns$"):
            rt.add_animations(move, dots, to=np.array([xs, ys]))
        with pytest.raises(animrt.InvalidArgumentError, match=r"^begin_time has shape \(1, 3\); for 3 layers of 1 "):
            rt.add_animations(template(rt), dots, begin_time=np.zeros((1, 3)))
        assert all(not animrt.Layer._stand_in(rt, d).animation_keys() for d in dots)
        # One row per layer, flat, and a column for one component are taken.
        rt.add_animations(move, dots, key="rows", to=np.column_stack([xs, ys]))
        rt.add_animations(move, dots, key="flat", to=np.column_stack([xs, ys]).ravel())
        rt.add_animations(template(rt), dots, begin_time=np.zeros((3, 1)))
        rt.tick(0.0)
        rt.tick(1.0)
        assert rt.reader(dots, "position").read().tolist() == [[1.0, 10.0], [2.0, 20.0], [3.0, 30.0]]


def test_layers_of_several_dimensions_are_refused():
    # A (2, 3) array of handles has 6 layers; its len() is 2: read by len(), 2 layers took the animation
    # and 4 nothing, silently (and a reader read 2 targets of 6).
    with animrt.Runtime() as rt:
        grid = np.frombuffer(rt.create_layers(6), np.uint64).reshape(2, 3)
        fade = template(rt)
        with pytest.raises(animrt.InvalidArgumentError, match=r"^layers has shape \(2, 3\); layer handles are one "
                           r"flat array, one per layer: pass layers.ravel\(\)$"):
            rt.add_animations(fade, grid, to=0.5)
        with pytest.raises(animrt.InvalidArgumentError, match=r"^targets has shape \(2, 3\); "):
            rt.reader(grid, "opacity")
        assert all(not animrt.Layer._stand_in(rt, int(d)).animation_keys() for d in grid.ravel())
        assert len(rt.add_animations(fade, grid.ravel(), key="flat", to=0.5)) == 6
        assert len(rt.reader(grid.ravel(), "opacity")) == 6
        assert all(animrt.Layer._stand_in(rt, int(d)).animation_keys() == ["flat"] for d in grid.ravel())


def test_a_layer_that_is_no_handle_is_named_by_its_index():
    # As the library names layers[5] when it refuses a destroyed layer, the binding names the
    # place of what is not a handle at all: among thousands of layers, "layers[…]" says nothing.
    with animrt.Runtime() as rt:
        dots = list(rt.create_layers(4))
        fade = template(rt)
        with pytest.raises(animrt.RangeError, match=r"^layers\[2\] is 0; it must be from 1 to "):
            rt.add_animations(fade, dots[:2] + [0] + dots[2:], to=0.5)
        with pytest.raises(animrt.ArgumentTypeError, match=r"^layers\[4\] is 'x' \(a str\)"):
            rt.add_animations(fade, dots + ["x"], to=0.5)
        with pytest.raises(animrt.RangeError, match=r"^targets\[1\] is -1; "):
            rt.reader(np.array([dots[0], -1], dtype=np.int64), "opacity")
        assert all(not animrt.Layer._stand_in(rt, d).animation_keys() for d in dots)


def test_bad_input_adds_nothing_and_says_what_is_wrong():
    with animrt.Runtime() as rt:
        dots = rt.create_layers(50)
        fade = template(rt)
        duration = np.ones(50)
        duration[7] = -1
        with pytest.raises(animrt.RangeError, match="item 7 of the duration column"):
            rt.add_animations(fade, dots, duration=duration, to=1.0)
        with pytest.raises(animrt.BufferTooSmallError, match="49 numbers; 50 are needed") as caught:
            rt.add_animations(fade, dots, to=np.ones(49))
        assert isinstance(caught.value, animrt.BufferSizeError)  # too small is one of the wrong sizes
        with pytest.raises(animrt.KindError, match="to has dtype bool"):
            rt.add_animations(fade, dots, to=np.ones(50, dtype=bool))
        with pytest.raises(animrt.BufferTooSmallError, match="to holds 49 numbers"):
            rt.add_animations(fade, dots, to=[1.0] * 49)
        with pytest.raises(animrt.ArgumentTypeError, match="did you mean 'duration'"):
            rt.add_animations(fade, dots, durations=1.0)
        with pytest.raises(animrt.KindError, match="velocity"):
            rt.add_animations(fade, dots, velocity=1.0)
        gone = rt.create_layers(1)
        animrt.Layer._stand_in(rt, gone[0]).destroy()
        with pytest.raises(animrt.HandleError, match=r"layers\[50\]"):
            rt.add_animations(fade, array("Q", bytes(dots)) + gone, to=1.0)
        assert all(not animrt.Layer._stand_in(rt, d).animation_keys() for d in dots)
        rt.add_animations(fade, dots, key="x", to=1.0)
        assert all(animrt.Layer._stand_in(rt, d).animation_keys() == ["x"] for d in dots)


def test_no_python_work_per_layer():
    """The number of Python calls made by a bulk add and a bulk reader does not grow with the layers."""
    def calls(n):
        with animrt.Runtime() as rt:
            dots = rt.create_layers(n)
            starts, ends = np.linspace(0, 1, n), np.linspace(1, 0, n)
            fade = template(rt)
            count = 0

            def profile(frame, event, arg):
                nonlocal count
                if event in ("call", "c_call"):
                    count += 1
            # Objects an earlier test left in reference cycles are collected first, and no collection
            # runs while counting: their finalizers would be counted as the bulk add's calls.
            gc.collect()
            gc.disable()
            sys.setprofile(profile)
            try:
                rt.add_animations(fade, dots, begin_time=starts, duration=1.0, from_=starts, to=ends)
                rt.reader(dots, "opacity")
            finally:
                sys.setprofile(None)
                gc.enable()
            return count
    assert calls(10) == calls(20_000)


def test_create_layers_under_a_parent():
    with animrt.Runtime() as rt:
        parent = rt.layer()
        kids = rt.create_layers(3, parent=parent)
        assert len(kids) == 3 and len(set(kids)) == 3
        with pytest.raises(animrt.InvalidArgumentError):
            parent.set_parent(animrt.Layer._stand_in(rt, kids[1]))  # a layer cannot go under its own child
        assert len(rt.create_layers(0)) == 0
        with pytest.raises(animrt.RangeError):
            rt.create_layers(-1)


def test_set_values_equals_setting_one_by_one():
    """rt.set_values sets each layer's model value as layer.set_value would, points and sub-paths included."""
    n = 200
    xy = np.arange(2 * n, dtype=float).reshape(n, 2) * 0.5
    alphas = np.linspace(0, 1, n)
    with animrt.Runtime() as bulk, animrt.Runtime() as single:
        a, b = bulk.create_layers(n), single.create_layers(n)
        bulk.set_values(a, "position", xy)
        bulk.set_values(a, "opacity", alphas)
        bulk.set_values(a[::2], "position.y", -1.0)  # one number for every layer; a strided view of the handles
        for i in range(n):
            layer = animrt.Layer._stand_in(single, b[i])
            layer.set_value("position", tuple(xy[i]))
            layer.set_value("opacity", float(alphas[i]))
            if i % 2 == 0:
                layer.set_value("position.y", -1.0)
        for rt in (bulk, single):
            rt.tick(0)
        for path in ("position", "opacity"):
            assert np.array_equal(bulk.reader(a, path).read(), single.reader(b, path).read())
        assert tuple(bulk.reader(a, "position").read()[3]) == (3.0, 3.5)
        assert tuple(bulk.reader(a, "position").read()[4]) == (4.0, -1.0)


def test_set_values_takes_what_python_programs_hold():
    with animrt.Runtime() as rt:
        dots = rt.create_layers(3)
        rt.set_values(dots, "position", [(1, 2), (3, 4), (5, 6)])
        assert animrt.Layer._stand_in(rt, dots[1]).value("position") == (3.0, 4.0)
        rt.set_values(dots, "position", array("d", [7, 8, 9, 10, 11, 12]))
        assert animrt.Layer._stand_in(rt, dots[2]).value("position") == (11.0, 12.0)
        rt.set_values([animrt.Layer._stand_in(rt, d) for d in dots], "opacity", np.array([1, 0, 1]))  # integers
        assert animrt.Layer._stand_in(rt, dots[1]).value("opacity") == 0.0
        rt.set_values(dots, "position", (0.5, 0.25))  # one tuple for every layer
        assert animrt.Layer._stand_in(rt, dots[0]).value("position") == (0.5, 0.25)
        rt.set_values([], "opacity", [])  # nothing to set


def test_set_values_is_all_or_none_and_names_the_item():
    with animrt.Runtime() as rt:
        dots = rt.create_layers(100)
        rt.set_values(dots, "opacity", 0.5)
        bad = np.full(100, 0.25)
        bad[99] = np.nan
        with pytest.raises(animrt.InvalidArgumentError, match=r"values for layers\[99\]: component 0"):
            rt.set_values(dots, "opacity", bad)
        twice = array("Q", dots)
        twice[70] = twice[3]
        with pytest.raises(animrt.InvalidArgumentError, match=r"layers\[70\] is layers\[3\] again"):
            rt.set_values(twice, "opacity", 0.25)
        gone = rt.layer()
        gone.destroy()
        with pytest.raises(animrt.HandleError, match=r"layers\[1\]"):
            rt.set_values([dots[0], gone], "opacity", 0.25)
        with pytest.raises(animrt.BufferTooSmallError):
            rt.set_values(dots, "position", np.zeros(100))  # one number a layer; a point takes two
        with pytest.raises(animrt.NotFoundError):
            rt.set_values(dots, "opacty", 0.25)
        assert np.all(rt.reader(dots, "opacity").read() == 0.5)


def test_set_values_of_no_layers_takes_an_empty_array_of_any_shape():
    """No layers, no values: an empty numpy array of rows (shape (0, 2)) sets nothing, as an empty
    flat one or list does, where its byte view could not be counted (a bare TypeError)."""
    with animrt.Runtime() as rt:
        none = np.zeros(0, np.uint64)
        rt.set_values(none, "position", np.zeros((0, 2)))
        rt.set_values(none, "opacity", np.zeros((0, 1)))
        rt.set_values(none, "opacity", np.zeros(0))
        kept = rt.create_layers(2)
        rt.set_values(kept, "position", [(1, 2), (3, 4)])
        assert len(rt.add_animations(rt.basic("position", duration=1), none, to=np.zeros((0, 2)))) == 0
        with pytest.raises(animrt.BufferTooSmallError, match=r"^values holds 0 numbers; 4 are needed"):
            rt.set_values(kept, "position", np.zeros((0, 2)))
        assert tuple(rt.reader(kept, "position").read()[1]) == (3.0, 4.0)


def test_an_int_no_double_holds_is_refused_naming_the_value():
    """10 ** 400 in a column or a value is a RangeError naming where it is, as a machine's config
    says it, not Python's bare OverflowError; nothing is set."""
    big = 10 ** 400
    with animrt.Runtime() as rt:
        dots = rt.create_layers(3)
        rt.set_values(dots, "opacity", 0.5)
        rt.set_values(dots, "position", [(1, 2), (3, 4), (5, 6)])
        digits = r"is an int of 401 digits; a number must be a double \(at most about 1.8e308\)$"
        with pytest.raises(animrt.RangeError, match=r"^values\[2\] " + digits):
            rt.set_values(dots, "opacity", [0.25, 0.25, big])
        with pytest.raises(animrt.RangeError, match=r"^values " + digits):
            rt.set_values(dots, "opacity", -big)
        with pytest.raises(animrt.RangeError, match=r"^values\[1\]\[0\] " + digits):
            rt.set_values(dots, "position", [(1, 2), (big, 4), (5, 6)])
        with pytest.raises(animrt.RangeError, match=r"^values\[1\] " + digits):
            rt.set_values(dots, "position", (1, big))  # one tuple for every layer
        with pytest.raises(animrt.RangeError, match=r"^to\[0\] " + digits):
            rt.add_animations(rt.basic("opacity", duration=1), dots, to=[big, 1, 1])
        layer = animrt.Layer._stand_in(rt, dots[0])
        with pytest.raises(animrt.RangeError, match=r"^value " + digits):
            layer.set_value("opacity", big)
        with pytest.raises(animrt.RangeError, match=r"^value\[1\] " + digits):
            layer.set_value("position", (0, -big))
        assert np.all(rt.reader(dots, "opacity").read() == 0.5)
        assert tuple(rt.reader(dots, "position").read()[1]) == (3.0, 4.0)
        assert layer.value("position") == (1.0, 2.0)
        assert layer.animation_keys() == []
        with pytest.raises(animrt.RangeError, match=r"^now " + digits):
            rt.tick(big)



def test_an_int_past_the_digits_str_writes_is_counted_in_the_message():
    """An int out of range is shown as it is, but one past the 4300 digits Python's str() writes
    (10 ** 5000) by its count of digits, where formatting it raised str()'s bare ValueError."""
    huge = 10 ** 5000
    with animrt.Runtime() as rt:
        with pytest.raises(animrt.RangeError, match=r"^layers\[0\] is an int of 5001 digits; it must be from 1 to 18446744073709551615$"):
            rt.set_values([huge], "opacity", 0.5)
        with pytest.raises(animrt.RangeError, match=r"^count is an int of 5001 digits; it must be from 0 to 268435456$"):
            rt.create_layers(-huge)
        with pytest.raises(animrt.RangeError, match=r"^count is 268435457; it must be from 0 to 268435456$"):
            rt.create_layers(2 ** 28 + 1)  # one str() writes: shown as it is
        with pytest.raises(animrt.RangeError, match=r"^token is an int of 5001 digits; tokens go from 0 to 2\*\*63 - 1"):
            rt.start_timer(1.0, token=huge)
        with pytest.raises(animrt.EnumError, match=r"^fill_mode is an int of 5001 digits; valid: "):
            rt.basic("opacity", fill_mode=huge)


def test_a_bool_among_values_is_refused_as_one_alone_is():
    """array('d') reads True as 1.0: a bool in a sequence of values (or of tuples) is refused
    naming it, as one given alone and a numpy array of bools are; nothing is set."""
    with animrt.Runtime() as rt:
        dots = rt.create_layers(3)
        rt.set_values(dots, "opacity", 0.5)
        rt.set_values(dots, "position", [(1, 2), (3, 4), (5, 6)])
        with pytest.raises(animrt.ArgumentTypeError, match=r"^values\[1\] is True \(a bool\); values are numbers \(write 1.0"):
            rt.set_values(dots, "opacity", [0.25, True, 0.25])
        with pytest.raises(animrt.ArgumentTypeError, match=r"^values\[2\]\[1\] is False \(a bool\); .* \(write 0.0"):
            rt.set_values(dots, "position", [(1, 2), (3, 4), (5, False)])
        with pytest.raises(animrt.ArgumentTypeError, match=r"^to\[0\] is True"):
            rt.add_animations(rt.basic("opacity", duration=1), dots, to=[True, 1, 1])
        with pytest.raises(animrt.ArgumentTypeError):
            rt.set_values(dots, "opacity", True)
        with pytest.raises(animrt.KindError):
            rt.set_values(dots, "opacity", np.array([True, False, True]))
        assert np.all(rt.reader(dots, "opacity").read() == 0.5)
        assert tuple(rt.reader(dots, "position").read()[2]) == (5.0, 6.0)
        rt.set_values(dots, "opacity", [1, 0.5, 0])  # ints and floats are numbers
        assert tuple(rt.reader(dots, "opacity").read()) == (1.0, 0.5, 0.0)


def test_a_masked_array_is_refused_unless_nothing_is_masked():
    """A numpy masked array's buffer holds a number under each mask: with a value masked it is
    refused (say which number stands for it), with none masked its data is set."""
    with animrt.Runtime() as rt:
        dots = rt.create_layers(4)
        rt.set_values(dots, "opacity", 0.5)
        holes = np.ma.masked_array([0.1, 0.2, 0.3, 0.4], mask=[False, True, False, True])
        with pytest.raises(animrt.InvalidArgumentError,
                           match=r"^values is a masked array with 2 masked values, .* pass values.filled\(x\)"):
            rt.set_values(dots, "opacity", holes)
        with pytest.raises(animrt.InvalidArgumentError, match=r"^duration is a masked array with 1 masked value,"):
            rt.add_animations(rt.basic("opacity", to=1), dots, duration=np.ma.masked_greater([1, 2, 3, 9], 5))
        with pytest.raises(animrt.InvalidArgumentError, match=r"^layers is a masked array with 1 masked value,"):
            rt.set_values(np.ma.masked_equal(np.asarray(dots, np.uint64), dots[0]), "opacity", 0.25)
        assert np.all(rt.reader(dots, "opacity").read() == 0.5)
        assert all(animrt.Layer._stand_in(rt, d).animation_keys() == [] for d in dots)
        rt.set_values(dots, "opacity", holes.filled(0.0))
        assert tuple(rt.reader(dots, "opacity").read()) == (0.1, 0.0, 0.3, 0.0)
        rt.set_values(np.ma.masked_array(np.asarray(dots, np.uint64)), "opacity",
                      np.ma.masked_array([0.9, 0.8, 0.7, 0.6], mask=False))  # nothing masked: its data
        assert tuple(rt.reader(dots, "opacity").read()) == (0.9, 0.8, 0.7, 0.6)
