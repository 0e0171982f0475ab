"""Bulk reads come back as (targets, components) arrays (R5.2, R6)."""
import re
from array import array

import numpy
import pytest

import animrt


def test_a_thousand_keyframed_particles_read_into_numpy():
    with animrt.Runtime() as rt:
        particles = [rt.layer() for _ in range(1000)]
        for i, p in enumerate(particles):
            path = numpy.array([[0.0, 0.0], [i, 2.0 * i], [2.0 * i, 0.0]])
            p.add_animation(rt.keyframe("position", path, key_times=numpy.array([0.0, 0.5, 1.0]), duration=1.0))
        reader = rt.reader([(p, "position") for p in particles])
        assert len(reader) == 1000 and reader.shape == (1000, 2) and reader.components == 2
        rt.tick(0.0)
        rt.tick(0.25)
        xy = reader.read()
        assert xy.shape == (1000, 2) and xy.dtype == numpy.float64
        i = numpy.arange(1000)
        assert numpy.array_equal(xy[:, 0], i / 2) and numpy.array_equal(xy[:, 1], i * 1.0)
        x, y = particles[10].presentation("position")
        assert (x, y) == tuple(xy[10])
        frame = numpy.empty(reader.shape)
        rt.tick(0.75)
        assert reader.read(frame) is frame and numpy.array_equal(frame[:, 0], i * 1.5)
        flat = numpy.empty(2000)  # a flat buffer of the same size is filled target after target
        reader.read(flat)
        assert numpy.array_equal(flat.reshape(1000, 2), frame)
        plain = array("d", bytes(16000))
        assert reader.read(plain) is plain and plain[20] == frame[10, 0]


def test_scalars_are_one_column():
    with animrt.Runtime() as rt:
        layers = [rt.layer() for _ in range(3)]
        reader = rt.reader([(layer, "opacity") for layer in layers])
        assert reader.shape == (3, 1) and reader.read().tolist() == [[1.0], [1.0], [1.0]]
        with pytest.raises(animrt.KindError) as mixed:
            rt.reader([(layers[0], "opacity"), (layers[1], "cornerRadius"), (layers[2], "position")])
        assert str(mixed.value) == (  # what to do instead, with the key paths the program gave
            "targets[2] reads 'position', a point (2 numbers), and targets[0] reads 'opacity', a scalar (1 number): "
            "a reader's rows all have one size, one row per target. Make one reader per key path, such as "
            "rt.reader(layers, 'opacity') and rt.reader(layers, 'position'), or one per size")
        empty = rt.reader([])
        assert empty.shape == (0, 1) and empty.read().shape == (0, 1)
        assert repr(reader) == f"<Reader {reader.id:#x} shape=(3, 1)>"


def test_a_reader_says_when_reading_it_would_raise():
    # As a layer's and a barrier's reprs do: it once printed as a live reader whose read() raises.
    rt = animrt.Runtime()
    layers = [rt.layer() for _ in range(3)]
    reader, kept = rt.reader(layers, "opacity"), rt.reader(layers, "opacity")
    reader.destroy()
    assert repr(reader) == f"<Reader (destroyed) {reader.id:#x} shape=(3, 1)>"
    with pytest.raises(animrt.HandleError, match=r"^reader handle 0x[0-9a-f]+ is stale \(the reader was destroyed\)$"):
        reader.read()
    assert repr(kept) == f"<Reader {kept.id:#x} shape=(3, 1)>" and kept.read().tolist() == [[1.0]] * 3
    rt.close()
    assert repr(kept) == f"<Reader (runtime closed) {kept.id:#x} shape=(3, 1)>"
    assert repr(reader) == f"<Reader (runtime closed) {reader.id:#x} shape=(3, 1)>"
    with pytest.raises(animrt.ClosedError):
        kept.read()


def test_an_out_array_whose_rows_are_not_targets_is_refused():
    # A (2, 4) array holds a (4, 2) reader's 8 numbers, but out[i] would not be target i.
    with animrt.Runtime() as rt:
        reader = rt.reader(rt.create_layers(4), "position")
        with pytest.raises(animrt.InvalidArgumentError, match=r"^out has shape \(2, 4\); this reader writes \(4, 2\), "
                           r"one row per target, or flat \(8 numbers\)$"):
            reader.read(numpy.zeros((2, 4)))
        assert reader.read(numpy.ones((4, 2))).tolist() == [[0.0, 0.0]] * 4
        assert reader.read(numpy.ones(8)).tolist() == [0.0] * 8
        scalars = rt.reader(rt.create_layers(3), "opacity")
        assert scalars.read(numpy.zeros((3, 1))).tolist() == [[1.0]] * 3
        assert scalars.read(numpy.zeros(3)).tolist() == [1.0] * 3
        with pytest.raises(animrt.InvalidArgumentError, match=r"^out has shape \(1, 3\); this reader writes \(3, 1\)"):
            scalars.read(numpy.zeros((1, 3)))


def test_an_out_array_read_only_or_strided_is_refused_by_name():
    # Every other column of a (4, 4) array has the (4, 2) shape and the 8 numbers of a (4, 2)
    # reader, but not in one run of memory: refused by what is wrong, not by ctypes' ValueError.
    with animrt.Runtime() as rt:
        reader = rt.reader(rt.create_layers(4), "position")
        wide = numpy.full((4, 4), 7.0)
        with pytest.raises(animrt.ArgumentTypeError, match=r"^out is not contiguous; pass a C-contiguous buffer"):
            reader.read(wide[:, ::2])
        assert wide.tolist() == [[7.0] * 4] * 4  # nothing written
        frozen = numpy.full((4, 2), 7.0)
        frozen.flags.writeable = False
        with pytest.raises(animrt.ArgumentTypeError, match=r"^out is read-only; pass a writable buffer$"):
            reader.read(frozen)
        assert frozen.tolist() == [[7.0, 7.0]] * 4



def _half_made(call):
    """The reader object whose __init__ raised in `call`, taken from the traceback (as a debugger or
    pytest's --showlocals shows it), and the exception."""
    with pytest.raises(animrt.AnimrtError) as raised:
        call()
    tb = raised.value.__traceback__
    found = None
    while tb is not None:
        candidate = tb.tb_frame.f_locals.get("self")
        if isinstance(candidate, animrt.Reader):
            found = candidate
        tb = tb.tb_next
    assert found is not None
    return found, raised.value


@pytest.mark.parametrize("targets, error, message", [
    (lambda rt: rt.reader([(rt.layer(), "opacity"), (rt.layer(), "position")]), animrt.KindError,
     r"^targets\[1\] reads 'position', a point \(2 numbers\), and targets\[0\] reads 'opacity'"),
    (lambda rt: rt.reader([(rt.layer(), "opacity"), rt.layer()]), animrt.ArgumentTypeError,
     r"^targets\[1\] is <Layer 0x[0-9a-f]+> \(a Layer\); it must be a \(layer, key_path\) pair, or pass the key path once"),
    (lambda rt: rt.reader([(rt.layer(), "opacty")]), animrt.NotFoundError, r"did you mean 'opacity'"),
    (lambda rt: rt.reader([(1, "opacity")]), animrt.HandleError,  # refused by the library itself
     r"^target 0: handle 0x1 is not one animrt gave out"),
    (lambda rt: rt.reader(5, "opacity"), animrt.ArgumentTypeError, r"^targets is 5"),
])
def test_a_reader_whose_targets_are_refused_prints_and_goes_without_raising(targets, error, message):
    # Its __init__ raised before it had a handle: the class has no count (0) or components (1) to
    # show it as a reader of nothing, and its repr (a traceback's frame, a debugger) and its
    # collection raise nothing.
    import gc
    import sys
    unraisable = []
    hook, sys.unraisablehook = sys.unraisablehook, unraisable.append
    try:
        with animrt.Runtime() as rt:
            half, raised = _half_made(lambda: targets(rt))
            assert type(raised) is error and re.search(message, str(raised))
            assert repr(half) == "<Reader (not made)>"
            assert "count" not in vars(half) and "components" not in vars(half) and "_id" not in vars(half)
            assert len(rt._objects) == len([o for o in rt._objects.values() if not isinstance(o, animrt.Reader)])
            del half, raised
            gc.collect()
            made = rt.reader(rt.create_layers(2), "position")  # the runtime goes on: a reader after it is whole
            assert vars(made)["count"] == 2 and vars(made)["components"] == 2 and made.shape == (2, 2)
    finally:
        sys.unraisablehook = hook
    assert unraisable == []


def test_help_shows_no_class_count_or_components():
    # help(animrt.Reader) listed "count = 0" and "components = 1" as class data, constants of every
    # reader; they are each reader's own, set when the library has made it
    import pydoc
    assert "count" not in vars(animrt.Reader) and "components" not in vars(animrt.Reader)
    page = pydoc.render_doc(animrt.Reader, renderer=pydoc.plaintext)
    assert "count = " not in page and "components = " not in page
    assert "``reader.components`` the numbers each has" in page  # where they are told now
    with animrt.Runtime() as rt:
        reader = rt.reader([(layer, "position") for layer in rt.create_layers(3)])
        assert (reader.count, reader.components, len(reader)) == (3, 2, 3)
        assert rt.reader([]).shape == (0, 1)
