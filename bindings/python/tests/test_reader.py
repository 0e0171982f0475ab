"""Bulk reads come back as (targets, components) arrays (R5.2, R6)."""
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

