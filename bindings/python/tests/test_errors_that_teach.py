"""Every bad Python argument raises an animrt exception that names the parameter as written,
says what is valid and, for a misspelt name, what was meant; nothing is changed (R0.3, R5.2)."""
import inspect
import json
import math
import operator
import pathlib
from array import array

import numpy
import pytest

import animrt


BUTTON = pathlib.Path(__file__).resolve().parents[3] / "examples" / "machines" / "download_button.json"


@pytest.fixture
def world():
    with animrt.Runtime() as rt:
        layer = rt.layer()
        layer["opacity"] = 0.5
        spring = rt.spring("position.y", from_=-40, to=60)
        reader = rt.reader([(rt.layer(), "position") for _ in range(3)])
        yield rt, layer, spring, reader
        assert layer["opacity"] == 0.5 and layer.animation_keys() == []  # nothing changed


def frozen(array):
    """A read-only numpy array (as numpy hands out for a view of bytes, or after setflags)."""
    array.setflags(write=False)
    return array


def done():
    """A completion written without the `finished` argument on_finish passes."""


def on_done(finished):
    """An on_finish callable handed where a completion taking nothing goes."""


# (what the program does, the exception, the exact message)
CASES = [
    ("fill_mode misspelt", lambda rt, L, s, r: rt.basic("opacity", to=1, fill_mode="forward"), animrt.EnumError,
     "fill_mode is 'forward'; valid: 'removed', 'forwards', 'backwards', 'both'; did you mean 'forwards'?"),
    ("direction misspelt", lambda rt, L, s, r: rt.basic("opacity", direction="alternate_reverse"), animrt.EnumError,
     "direction is 'alternate_reverse'; valid: 'normal', 'reverse', 'alternate', 'alternate-reverse'; "
     "did you mean 'alternate-reverse'?"),
    ("calculation_mode misspelt", lambda rt, L, s, r: rt.keyframe("opacity", [0, 1], calculation_mode="cubic_paced"),
     animrt.EnumError, "calculation_mode is 'cubic_paced'; valid: 'linear', 'discrete', 'paced', 'cubic', "
     "'cubicPaced'; did you mean 'cubicPaced'?"),
    ("fill_mode out of range", lambda rt, L, s, r: rt.basic("opacity", fill_mode=7), animrt.EnumError,
     "fill_mode is 7; valid: 'removed', 'forwards', 'backwards', 'both', or animrt.FillMode members"),
    ("set_value slot", lambda rt, L, s, r: s.set_value("fro", 1), animrt.EnumError,
     "slot is 'fro'; valid: 'from', 'to', 'by'; did you mean 'from'?"),
    # Other toolkits' key path names: spelling alone finds nothing like them (or 'borderWidth' for
    # 'bounds.width'); the library answers each with the key path it stands for.
    ("UIKit's alpha", lambda rt, L, s, r: rt.basic("alpha", to=0), animrt.NotFoundError,
     "key path 'alpha' is not animatable; did you mean 'opacity'? (UIKit's alpha)"),
    ("UIKit's center", lambda rt, L, s, r: L.__setitem__("center", (10, 20)), animrt.NotFoundError,
     "key path 'center' is not animatable; did you mean 'position'? (UIKit's center: where the layer's "
     "anchorPoint is)"),
    ("a frame", lambda rt, L, s, r: L.presentation("frame"), animrt.NotFoundError,
     "key path 'frame' is not animatable; a layer has no frame: animate 'position' and 'bounds.size' (or 'bounds')"),
    ("bounds.width", lambda rt, L, s, r: rt.spring("bounds.width", to=44), animrt.NotFoundError,
     "key path 'bounds.width' is not animatable; did you mean 'bounds.size.width'?"),
    ("CSS's rotate", lambda rt, L, s, r: rt.keyframe("rotate", [0, 1]), animrt.NotFoundError,
     "key path 'rotate' is not animatable; did you mean 'transform.rotation.z'? (in radians)"),
    ("a reader of scaleX", lambda rt, L, s, r: rt.reader([L], "scaleX"), animrt.NotFoundError,
     "key path 'scaleX' is not animatable; did you mean 'transform.scale.x'?"),
    ("a key path nothing is close to", lambda rt, L, s, r: L["colour"], animrt.NotFoundError,
     "key path 'colour' is not animatable (built-in properties: anchorPoint, backgroundColor, borderColor, "
     "borderWidth, bounds, cornerRadius, lineWidth, opacity, position, strokeColor, strokeEnd, strokeStart, "
     "transform, zPosition; define host properties with Runtime.define_property)"),
    ("a part of a colour by its letter", lambda rt, L, s, r: L["backgroundColor.r"], animrt.NotFoundError,
     "key path 'backgroundColor.r' is not animatable; did you mean 'backgroundColor.red'?"),
    # Other animation libraries' option names: spelling alone found nothing, or 'direction' for friction.
    ("CSS's easing", lambda rt, L, s, r: rt.basic("opacity", to=0, easing="ease-in"), animrt.ArgumentTypeError,
     "rt.basic() got an unknown option 'easing'; did you mean 'timing_function'? (Web Animations' and CSS's "
     "easing) (options: begin_time,"),
    ("react-spring's tension", lambda rt, L, s, r: rt.spring("opacity", to=0, tension=170, friction=26),
     animrt.ArgumentTypeError, "rt.spring() got an unknown option 'tension'; did you mean 'stiffness'? "
     "(react-spring's tension) (options: "),
    ("react-spring's friction alone", lambda rt, L, s, r: rt.spring("opacity", to=0, friction=26),
     animrt.ArgumentTypeError, "rt.spring() got an unknown option 'friction'; did you mean 'damping'? "
     "(react-spring's friction) (options: "),
    ("UIKit's completion", lambda rt, L, s, r: L.add_animation(s, completion=on_done), animrt.ArgumentTypeError,
     "Layer.add_animation() got an unknown option 'completion'; did you mean 'on_finish'? (UIKit's completion) "
     "(options: animation, key, barrier, on_finish)"),
    ("a transaction's completion", lambda rt, L, s, r: rt.transaction(completion=done), animrt.ArgumentTypeError,
     "rt.transaction() got an unknown option 'completion'; did you mean 'on_complete'? (UIKit's completion)"),
    # A segment's curve as four numbers, as timing_function takes: four, not three
    ("a segment's bezier of three numbers", lambda rt, L, s, r: rt.keyframe("opacity", [0, 1, 0],
                                                                         timing_functions=[(0.2, 0, 1), None]),
     animrt.ArgumentTypeError, "timing_functions[0] has 3 numbers; a cubic bezier takes four: (x1, y1, x2, y2)"),
    ("a segment's curve of another type", lambda rt, L, s, r: rt.keyframe("opacity", [0, 1, 0],
                                                                       timing_functions=["easeIn", 5]),
     animrt.ArgumentTypeError, "timing_functions[1] is 5 (an int); it must be a name such as 'easeOut', four "
     "numbers (x1, y1, x2, y2) or None (linear)"),
    # Core Animation's keyframe timingFunctions, one per segment, given as the one timing_function
    ("names as timing_function", lambda rt, L, s, r: rt.keyframe("opacity", [0, 1, 0],
                                                                  timing_function=["easeIn", "easeOut"]),
     animrt.ArgumentTypeError, "timing_function is ['easeIn', 'easeOut'] (a list); it is one curve for the whole "
     "animation: a name such as 'easeInEaseOut' or four numbers (x1, y1, x2, y2); one per segment is "
     "timing_functions=['easeIn', 'easeOut']"),
    ("names as a basic's timing_function", lambda rt, L, s, r: rt.basic("opacity", timing_function=("easeIn",)),
     animrt.ArgumentTypeError, "timing_function is ('easeIn',) (a tuple); it is one curve for the whole "
     "animation: a name such as 'easeInEaseOut' or four numbers (x1, y1, x2, y2)"),
    ("a hex colour", lambda rt, L, s, r: L.__setitem__("backgroundColor", "#ff0000"), animrt.ArgumentTypeError,
     "the value for layer['backgroundColor'] is '#ff0000' (a str); 'backgroundColor' takes a color: 4 numbers "
     "(r, g, b, a) from 0 to 1, e.g. (1.0, 0.0, 0.0, 1.0); '#ff0000' is (1.0, 0.0, 0.0, 1.0)"),
    ("a short hex colour", lambda rt, L, s, r: L.__setitem__("borderColor", "#f80"), animrt.ArgumentTypeError,
     "'borderColor' takes a color: 4 numbers (r, g, b, a) from 0 to 1, e.g. (1.0, 0.0, 0.0, 1.0); '#f80' is "
     "(1.0, 0.5333, 0.0, 1.0)"),
    ("None as a value", lambda rt, L, s, r: L.__setitem__("opacity", None), animrt.ArgumentTypeError,
     "the value for layer['opacity'] is None; 'opacity' takes a scalar: one number, e.g. 0.5"),
    ("True as a number", lambda rt, L, s, r: L.__setitem__("opacity", True), animrt.ArgumentTypeError,
     "the value for layer['opacity'] is True (a bool); 'opacity' takes a scalar: one number, e.g. 0.5"),
    ("a number for a point", lambda rt, L, s, r: L.set_value("position", 3), animrt.KindError,
     "value has 1 number; 'position' takes a point: 2 numbers (x, y), e.g. (10.0, 20.0)"),
    ("a dict for a point", lambda rt, L, s, r: L.__setitem__("position", {"x": 1, "y": 2}), animrt.ArgumentTypeError,
     "the value for layer['position'] is {'x': 1, 'y': 2} (a dict); 'position' takes a point: 2 numbers (x, y), "
     "e.g. (10.0, 20.0)"),
    ("a string component", lambda rt, L, s, r: rt.basic("position", to=(1, "2")), animrt.ArgumentTypeError,
     "to[1] is '2' (a str); it must be a number"),
    ("tick with a string", lambda rt, L, s, r: rt.tick("2"), animrt.ArgumentTypeError,
     "now is '2' (a str); it must be a number of seconds, e.g. 2.0"),
    ("list(layer)", lambda rt, L, s, r: list(L), animrt.ArgumentTypeError,
     "a Layer is not iterable or a container: read one key path with layer.value('opacity') or "
     "layer.presentation('opacity'); layer.animation_keys() lists its animations"),
    ("'opacity' in layer", lambda rt, L, s, r: "opacity" in L, animrt.ArgumentTypeError,
     "a Layer is not iterable or a container"),
    ("layer[0]", lambda rt, L, s, r: L[0], animrt.ArgumentTypeError,
     "a layer is indexed by a key path str such as 'opacity', not 0 (an int)"),
    ("a float32 buffer", lambda rt, L, s, r: r.read(numpy.zeros((3, 2), dtype=numpy.float32)), animrt.KindError,
     "out has dtype float32; a reader writes float64 (format 'd'): use numpy.empty((3, 2)) or array('d', ...)"),
    ("an array('f')", lambda rt, L, s, r: r.read(array("f", bytes(24))), animrt.KindError,
     "out has items of format 'f'; a reader writes float64"),
    ("a buffer too small", lambda rt, L, s, r: r.read(numpy.zeros(4)), animrt.BufferTooSmallError,
     "out holds 4 numbers; this reader writes 6 (shape (3, 2))"),
    ("an int64 buffer", lambda rt, L, s, r: r.read(numpy.zeros((3, 2), dtype=numpy.int64)), animrt.KindError,
     "out has dtype int64; a reader writes float64 (format 'd'): use numpy.empty((3, 2)) or array('d', ...)"),
    ("a read-only float64 buffer", lambda rt, L, s, r: r.read(frozen(numpy.zeros((3, 2)))), animrt.ArgumentTypeError,
     "out is read-only; pass a writable buffer"),
    ("a buffer too long", lambda rt, L, s, r: r.read(numpy.zeros(7)), animrt.BufferSizeError,
     "out holds 7 numbers; this reader writes 6 (shape (3, 2))"),
    ("a buffer of another shape", lambda rt, L, s, r: r.read(numpy.zeros((2, 3))), animrt.InvalidArgumentError,
     "out has shape (2, 3); this reader writes (3, 2), one row per target, or flat (6 numbers)"),
    ("a column per component", lambda rt, L, s, r: rt.add_animations(rt.basic("position"), rt.create_layers(3),
                                                                     to=numpy.zeros((2, 3))),
     animrt.InvalidArgumentError, "to has shape (2, 3); for 3 layers of 2 components it must be (3, 2), one row "
     "per layer, or flat; numpy.column_stack([xs, ys]) makes rows of columns"),
    ("a list as out", lambda rt, L, s, r: r.read([0.0] * 6), animrt.ArgumentTypeError,
     "out is [0.0, 0.0, 0.0, 0.0, 0.0, 0.0] (a list); it must be a buffer of float64, such as numpy.empty((3, 2))"),
    ("a read-only buffer", lambda rt, L, s, r: r.read(bytes(48)), animrt.KindError, "out has items of format 'B'"),
    ("an option misspelt", lambda rt, L, s, r: rt.basic("opacity", durration=1), animrt.ArgumentTypeError,
     "rt.basic() got an unknown option 'durration'; did you mean 'duration'? (options: begin_time, duration,"),
    # A factory's own keywords are suggested as its options are: key_time is not begin_time.
    ("a factory keyword misspelt", lambda rt, L, s, r: rt.basic("opacity", too=1), animrt.ArgumentTypeError,
     "rt.basic() got an unknown option 'too'; did you mean 'to'? (options: begin_time, "),
    ("key_times misspelt", lambda rt, L, s, r: rt.keyframe("opacity", [0, 1], key_time=[0, 1]),
     animrt.ArgumentTypeError, "rt.keyframe() got an unknown option 'key_time'; did you mean 'key_times'?"),
    ("deceleration_rate shortened", lambda rt, L, s, r: rt.decay("position.x", 1, deceleration=0.9),
     animrt.ArgumentTypeError, "rt.decay() got an unknown option 'deceleration'; did you mean 'deceleration_rate'?"),
    ("a camelCase option", lambda rt, L, s, r: rt.basic("opacity", repeatCount=2), animrt.ArgumentTypeError,
     "rt.basic() got an unknown option 'repeatCount'; did you mean 'repeat_count'?"),
    ("a spring option on a basic", lambda rt, L, s, r: rt.basic("opacity", damping=3), animrt.ArgumentTypeError,
     "rt.basic() got an unknown option 'damping'"),
    ("keyframes as a {time: value} dict", lambda rt, L, s, r: rt.keyframe("opacity", {0: 1.0, 0.4: 0.0, 1: 1.0}),
     animrt.ArgumentTypeError, "values is {0: 1.0, 0.4: 0.0, 1: 1.0} (a dict); a dict would give its keys: pass a list "
     "of values, one per keyframe; keyframes given as {time: value} are rt.keyframe(key_path, list(frames.values()), "
     "key_times=list(frames))"),
    ("keyframes as a set", lambda rt, L, s, r: rt.keyframe("opacity", {0.0, 1.0}), animrt.ArgumentTypeError,
     "values is {0.0, 1.0} (a set); a set has no order and values is taken in order: pass a list of values"),
    ("key times as a set", lambda rt, L, s, r: rt.keyframe("opacity", [0, 1], key_times={0.0, 1.0}),
     animrt.ArgumentTypeError, "key_times is {0.0, 1.0} (a set); a set has no order and key_times is taken in order"),
    ("segment curves as a dict", lambda rt, L, s, r: rt.keyframe("opacity", [0, 1], timing_functions={"easeIn": 0}),
     animrt.ArgumentTypeError, "timing_functions is {'easeIn': 0} (a dict); a dict would give its keys: pass a list "
     "of names, one per segment"),
    ("a path as a set", lambda rt, L, s, r: rt.keyframe("position", path={("move", 0, 0), ("line", 1, 1)}),
     animrt.ArgumentTypeError, "(a set); a set has no order and path is taken in order: pass a list of tuples"),
    ("spline tensions as a set", lambda rt, L, s, r: rt.keyframe("opacity", [0, 1, 0], calculation_mode="cubic")
     .set_spline(tension={0.0, 0.5}), animrt.ArgumentTypeError,
     "tension is {0.0, 0.5} (a set); a set has no order and tension is taken in order: pass a list of numbers"),
    ("a value column for a keyframe animation", lambda rt, L, s, r: rt.add_animations(rt.keyframe("opacity", [0, 1]),
                                                                                      [L], to=1.0),
     animrt.KindError, "a keyframe animation has no to: it has keyframe values (KeyframeAnimation.values)"),
    ("configure misspelt", lambda rt, L, s, r: s.configure(timingfunction="easeIn"), animrt.ArgumentTypeError,
     "SpringAnimation.configure() got an unknown option 'timingfunction'; did you mean 'timing_function'?"),
    ("a timing function misspelt", lambda rt, L, s, r: rt.basic("opacity", timing_function="easeInOut"),
     animrt.NotFoundError, "no timing function named 'easeInOut'; did you mean 'easeInEaseOut'? Known: linear, "
     "easeIn, easeOut, easeInEaseOut, default (CSS: ease, ease-in, ease-in-out, ease-out, step-start, step-end), "
     "cubic-bezier"),
    ("Core Animation's Objective-C constant", lambda rt, L, s, r: rt.basic(
        "opacity", timing_function="kCAMediaTimingFunctionEaseInEaseOut"), animrt.NotFoundError,
     "no timing function named 'kCAMediaTimingFunctionEaseInEaseOut'; did you mean 'easeInEaseOut'? Known: linear, "),
    ("Core Animation's Swift constant", lambda rt, L, s, r: rt.basic("opacity", timing_function=".easeOut"),
     animrt.NotFoundError, "no timing function named '.easeOut'; did you mean 'easeOut'? Known: linear, "),
    ("Core Animation's Swift constant in full", lambda rt, L, s, r: rt.basic(
        "opacity", timing_function="CAMediaTimingFunctionName.default"), animrt.NotFoundError,
     "no timing function named 'CAMediaTimingFunctionName.default'; did you mean 'default'? Known: linear, "),
    ("Core Animation's fromValue", lambda rt, L, s, r: rt.basic("opacity", fromValue=0, toValue=1),
     animrt.ArgumentTypeError, "rt.basic() got an unknown option 'fromValue'; Core Animation's fromValue is from_= "
     "here (options: begin_time"),
    ("from spelt without its underscore", lambda rt, L, s, r: rt.basic("opacity", **{"from": 0.0, "to": 1.0}),
     animrt.ArgumentTypeError, "rt.basic() got an unknown option 'from'; from is a Python keyword: the argument is "
     "from_= (options: begin_time"),
    ("a reader given layers alone", lambda rt, L, s, r: rt.reader([L]), animrt.ArgumentTypeError,
     "it must be a (layer, key_path) pair, or pass the key path once for every layer: rt.reader(layers, 'opacity')"),
    ("a timing function of 3 numbers", lambda rt, L, s, r: rt.basic("opacity", timing_function=(0.1, 0.2, 0.3)),
     animrt.ArgumentTypeError, "timing_function has 3 numbers; a cubic bezier takes four: (x1, y1, x2, y2)"),
    ("a key path misspelt", lambda rt, L, s, r: rt.basic("opacty", to=1), animrt.NotFoundError,
     "key path 'opacty' is not animatable; did you mean 'opacity'?"),
    ("a key path that is not a str", lambda rt, L, s, r: L.presentation(["opacity"]), animrt.ArgumentTypeError,
     "key_path is ['opacity'] (a list); it must be a str such as 'opacity' or 'position.x'"),
    ("repeat_count in C's words", lambda rt, L, s, r: rt.basic("opacity", repeat_count=-2), animrt.RangeError,
     "repeat_count is -2; it must be 0 or more (math.inf repeats forever)"),
    ("begin_time NaN", lambda rt, L, s, r: rt.basic("opacity", begin_time=math.nan), animrt.InvalidArgumentError,
     "begin_time is nan; it must be a finite number"),
    ("a number as a string", lambda rt, L, s, r: rt.basic("opacity", duration="2"), animrt.ArgumentTypeError,
     "duration is '2' (a str); it must be a number"),
    ("a flag as a string", lambda rt, L, s, r: rt.basic("opacity", autoreverses="yes"), animrt.ArgumentTypeError,
     "autoreverses is 'yes' (a str); it must be True or False"),
    ("a flag as a number other than 0 and 1", lambda rt, L, s, r: rt.basic("opacity", autoreverses=2),
     animrt.ArgumentTypeError, "autoreverses is 2 (an int); it must be True or False"),
    ("spring duration misspelt", lambda rt, L, s, r: rt.spring("opacity", duration="setling"), animrt.EnumError,
     "duration is 'setling'; it must be a number of seconds or 'settling'; did you mean 'settling'?"),
    ("negative damping", lambda rt, L, s, r: rt.spring("opacity", damping=-1), animrt.RangeError,
     "spring damping is -1; it must be 0 or more"),
    ("a spring given two ways", lambda rt, L, s, r: rt.spring("opacity", response=0.3, stiffness=180),
     animrt.InvalidArgumentError, "rt.spring() got stiffness= and response=, two ways to give one spring: give mass, "
     "stiffness and damping; or response and damping_ratio; or perceptual_duration and bounce"),
    ("numpy key times, checked when added",
     lambda rt, L, s, r: L.add_animation(rt.keyframe("opacity", [0, 1, 0], key_times=numpy.array([0, 0.7, 0.5]))),
     animrt.InvalidArgumentError, "must not decrease"),
    ("a keyframe of the wrong size", lambda rt, L, s, r: rt.keyframe("opacity", [0, (1, 2)]), animrt.KindError,
     "values[1] has 2 numbers; 'opacity' takes a scalar: one number, e.g. 0.5"),
    ("values not a list", lambda rt, L, s, r: rt.keyframe("opacity", 3), animrt.ArgumentTypeError,
     "values is 3 (an int); it must be a list of values, one per keyframe"),
    ("add_animation of a layer", lambda rt, L, s, r: L.add_animation(L), animrt.ArgumentTypeError,
     "animation is <Layer 0x"),
    ("barrier not a barrier", lambda rt, L, s, r: L.add_animation(s, barrier=3), animrt.ArgumentTypeError,
     "barrier is 3 (an int); it must be a Barrier from rt.barrier()"),
    ("a parent that is not a layer", lambda rt, L, s, r: rt.layer("root"), animrt.ArgumentTypeError,
     "parent is 'root' (a str); it must be a Layer or None"),
    ("a barrier as a parent", lambda rt, L, s, r: L.set_parent(rt.barrier()), animrt.ArgumentTypeError,
     "parent is <Barrier count=0 0x"),
    ("on_finish not callable", lambda rt, L, s, r: L.add_animation(s, on_finish=5), animrt.ArgumentTypeError,
     "on_finish is 5 (an int); it must be a callable taking one argument, finished (a bool), or None"),
    ("a timing function of 5 numbers", lambda rt, L, s, r: rt.basic("opacity", timing_function=(0.1, 0.2, 0.3, 0.4, 0.5)),
     animrt.ArgumentTypeError, "timing_function has 5 numbers; a cubic bezier takes four: (x1, y1, x2, y2)"),
    ("a path element with a number too many",
     lambda rt, L, s, r: rt.keyframe("position", path=[("move", 0, 0), ("line", 1, 2, 3)]), animrt.ArgumentTypeError,
     "path[1] ('line') has 3 numbers; it takes 2"),
    ("a layer's timing misspelt", lambda rt, L, s, r: L.timing("sped"), animrt.ArgumentTypeError,
     "name is 'sped'; it must be one of begin_time, duration, speed, time_offset, repeat_count, repeat_duration, "
     "iteration_start, end_delay, delay, iterations, iteration_duration; did you mean 'speed'?"),
    ("a negative token", lambda rt, L, s, r: rt.start_timer(1, token=-1), animrt.RangeError,
     "token is -1; tokens go from 0 to 2**63 - 1"),
    ("a token past 2**63 - 1", lambda rt, L, s, r: rt.barrier().notify(2 ** 63), animrt.RangeError,
     "completion is 9223372036854775808; tokens go from 0 to 2**63 - 1 (larger ones carry the binding's callables)"),
    ("a delay as a string", lambda rt, L, s, r: rt.start_timer("soon"), animrt.ArgumentTypeError,
     "delay is 'soon' (a str); it must be a number of seconds"),
    ("reader targets", lambda rt, L, s, r: rt.reader([L]), animrt.ArgumentTypeError,
     "targets[0] is <Layer 0x"),
    ("event_capacity", lambda rt, L, s, r: animrt.Runtime(event_capacity=-1), animrt.RangeError,
     "event_capacity is -1; it must be from 0 to 4294967295"),
    ("event_capacity past 32 bits", lambda rt, L, s, r: animrt.Runtime(event_capacity=2 ** 32), animrt.RangeError,
     "event_capacity is 4294967296; it must be from 0 to 4294967295"),
    ("a kind misspelt", lambda rt, L, s, r: rt.define_property("tint", (1, 0, 0, 1), kind="colour"),
     animrt.EnumError, "kind is 'colour'; valid: 'scalar', 'point', 'size', 'rect', 'color', 'transform'; "
     "did you mean 'color'?"),
    ("an on_event handler that is not callable", lambda rt, L, s, r: rt.on_event("print"), animrt.ArgumentTypeError,
     "handler is 'print' (a str); it must be a callable taking an event, or None"),
    # A callable that could never be called as it will be is refused where it is handed over, not at a later tick.
    ("on_finish taking no argument", lambda rt, L, s, r: L.add_animation(s, key="in", on_finish=done),
     animrt.ArgumentTypeError, "on_finish is called with one argument, finished (a bool); done() cannot be called so "
     "(too many positional arguments)"),
    ("an on_event handler taking no argument", lambda rt, L, s, r: rt.on_event(done), animrt.ArgumentTypeError,
     "handler is called with one argument, the event; done() cannot be called so (too many positional arguments)"),
    ("a notify completion taking an argument", lambda rt, L, s, r: rt.barrier().notify(on_done),
     animrt.ArgumentTypeError, "completion is called with no arguments; on_done(finished) cannot be called so "
     "(missing a required argument: 'finished')"),
    ("a timer callback taking an argument", lambda rt, L, s, r: rt.start_timer(0.5, on_done), animrt.ArgumentTypeError,
     "callback is called with no arguments; on_done(finished) cannot be called so "
     "(missing a required argument: 'finished')"),
    ("on_complete taking an argument", lambda rt, L, s, r: rt.transaction(on_complete=on_done),
     animrt.ArgumentTypeError, "on_complete is called with no arguments; on_done(finished) cannot be called so "
     "(missing a required argument: 'finished')"),
    ("a timing function's parameter given no default",
     lambda rt, L, s, r: rt.register_timing_function("pw", lambda x, k: x ** k), animrt.ArgumentTypeError,
     "timing function 'pw' (x and 0 parameters) is called with 1 argument, but fn(x, k) cannot take them: missing a "
     "required argument: 'k'; the parameters after x take their values from defaults=(…), one number each for k"),
    ("a timing function's two parameters given one default",
     lambda rt, L, s, r: rt.register_timing_function("pw", lambda x, a, b: x, defaults=(1,)), animrt.ArgumentTypeError,
     "timing function 'pw' (x and 1 parameter) is called with 2 arguments, but fn(x, a, b) cannot take them: missing a "
     "required argument: 'b'; the parameters after x take their values from defaults=(…), one number each for a, b"),
    ("a block timing function's parameter given no default",
     lambda rt, L, s, r: rt.register_block_timing_function("pw", lambda x, y, k: None), animrt.ArgumentTypeError,
     "timing function 'pw' (x, y and 0 parameters) is called with 2 arguments, but fn(x, y, k) cannot take them: "
     "missing a required argument: 'k'; the parameters after x, y take their values from defaults=(…), one number "
     "each for k"),
    # A misspelt keyword is answered as rt.basic answers a misspelt option, not with Python's bare TypeError.
    ("a transaction keyword misspelt", lambda rt, L, s, r: rt.transaction(animation_durration=0.5),
     animrt.ArgumentTypeError, "rt.transaction() got an unknown option 'animation_durration'; did you mean "
     "'animation_duration'? (options: animation_duration, token, on_complete)"),
    ("a machine keyword misspelt", lambda rt, L, s, r: rt.machine(rt.definition(BUTTON), parnet=L),
     animrt.ArgumentTypeError, "rt.machine() got an unknown option 'parnet'; did you mean 'parent'? (options: "
     "definition, parent, config, locale, strings)"),
    ("a timer keyword misspelt", lambda rt, L, s, r: rt.start_timer(1, tokn=3), animrt.ArgumentTypeError,
     "rt.start_timer() got an unknown option 'tokn'; did you mean 'token'?"),
    ("an add_animation keyword misspelt", lambda rt, L, s, r: L.add_animation(s, on_finished=on_done),
     animrt.ArgumentTypeError, "Layer.add_animation() got an unknown option 'on_finished'; did you mean 'on_finish'?"),
    ("a set_timing keyword misspelt", lambda rt, L, s, r: L.set_timing(sped=2), animrt.ArgumentTypeError,
     "Layer.set_timing() got an unknown option 'sped'; did you mean 'speed'?"),
    ("a Runtime keyword misspelt", lambda rt, L, s, r: animrt.Runtime(thread=2), animrt.ArgumentTypeError,
     "animrt.Runtime() got an unknown option 'thread'; did you mean 'threads'? (options: event_capacity, threads)"),
    ("a layer keyword misspelt", lambda rt, L, s, r: rt.layer(parnet=L), animrt.ArgumentTypeError,
     "rt.layer() got an unknown option 'parnet'; did you mean 'parent'? (options: parent)"),
    ("a definition keyword misspelt", lambda rt, L, s, r: rt.definition(name="streakCard"), animrt.ArgumentTypeError,
     "rt.definition() got an unknown option 'name'; did you mean 'named'?"),
    ("a spline keyword misspelt", lambda rt, L, s, r: rt.keyframe("opacity", [0, 1]).set_spline(tenson=[0, 0]),
     animrt.ArgumentTypeError, "KeyframeAnimation.set_spline() got an unknown option 'tenson'; did you mean "
     "'tension'?"),
    ("a keyword unlike any", lambda rt, L, s, r: rt.transaction(**{"from": 1}), animrt.ArgumentTypeError,
     "rt.transaction() got an unknown option 'from' (options: animation_duration, token, on_complete)"),
    # Refused at the call, not when the with block begins it, far from the mistake.
    ("a negative transaction duration", lambda rt, L, s, r: rt.transaction(animation_duration=-1),
     animrt.RangeError, "animation_duration is -1; it must be 0 or more seconds (0 or None: the enclosing "
     "transaction's, else the 0.25 s default)"),
    ("an infinite transaction duration", lambda rt, L, s, r: rt.transaction(animation_duration=math.inf),
     animrt.InvalidArgumentError, "animation_duration is inf; it must be a finite number of seconds"),
    ("a NaN transaction duration", lambda rt, L, s, r: rt.transaction(animation_duration=math.nan),
     animrt.InvalidArgumentError, "animation_duration is nan; it must be a finite number of seconds"),
    ("a fractional negative transaction duration", lambda rt, L, s, r: rt.transaction(animation_duration=-0.5),
     animrt.RangeError, "animation_duration is -0.5; it must be 0 or more seconds"),
]


@pytest.mark.parametrize("what, call, exception, message", CASES, ids=[c[0] for c in CASES])
def test_bad_input_raises_an_animrt_exception_that_teaches(world, what, call, exception, message):
    rt, layer, spring, reader = world
    with pytest.raises(exception) as caught:
        call(rt, layer, spring, reader)
    assert isinstance(caught.value, animrt.AnimrtError)
    assert message in str(caught.value), f"{what}: {caught.value}"


def test_a_hex_string_is_read_as_a_colour_only_where_a_colour_goes(world):
    # '#ff0000' for a position is no colour: the message says what a point is, and no tuple of a colour.
    rt, layer, spring, reader = world
    with pytest.raises(animrt.ArgumentTypeError) as caught:
        layer["position"] = "#ff0000"
    assert str(caught.value) == ("the value for layer['position'] is '#ff0000' (a str); 'position' takes a point: "
                                 "2 numbers (x, y), e.g. (10.0, 20.0)")


def test_a_buffer_too_long_is_of_the_wrong_size_but_not_too_small(world):
    # A larger buffer is what `except animrt.BufferTooSmallError` would try next: wrong for one too long.
    reader = world[3]
    with pytest.raises(animrt.BufferSizeError, match="out holds 7 numbers") as caught:
        reader.read(numpy.zeros(7))
    assert not isinstance(caught.value, animrt.BufferTooSmallError)
    assert isinstance(caught.value, ValueError) and caught.value.name == "ANIMRT_E_BUFFER"


def test_a_buffer_too_small_is_also_of_the_wrong_size_and_a_value_error(world):
    reader = world[3]
    for out in (numpy.zeros(4), array("d", bytes(8 * 5)), numpy.zeros(0)):
        with pytest.raises(animrt.BufferTooSmallError, match="this reader writes 6") as caught:
            reader.read(out)
        assert isinstance(caught.value, animrt.BufferSizeError) and isinstance(caught.value, ValueError)
    assert issubclass(animrt.BufferTooSmallError, animrt.BufferSizeError)
    caught_as = []
    for out in (numpy.zeros(5), numpy.zeros(7)):
        try:
            reader.read(out)
        except animrt.BufferSizeError as e:  # both sizes, with one except
            caught_as.append(type(e).__name__)
    assert caught_as == ["BufferTooSmallError", "BufferSizeError"]


def test_exceptions_are_also_the_builtin_ones_python_code_expects(world):
    rt, layer, _, _ = world
    with pytest.raises(TypeError):
        rt.tick("2")
    with pytest.raises(ValueError):
        rt.basic("opacity", fill_mode="forward")
    with pytest.raises(LookupError):
        rt.basic("opacty")
    with pytest.raises(TypeError):
        list(layer)
    gone = rt.layer()
    gone.destroy()
    with pytest.raises(LookupError, match="stale"):  # a destroyed object is looked up, not a bad value
        gone.value("opacity")


# Setting a name the object does not have would otherwise make a Python attribute and change
# nothing in the library. (what, target, name, the exact message)
ATTRIBUTES = [
    ("a factory keyword as an attribute", "spring", "to", "SpringAnimation has no attribute 'to'; "
     "did you mean 'to_value'?"),
    ("Core Animation's name", "spring", "fromValue", "SpringAnimation has no attribute 'fromValue'; "
     "did you mean 'from_value'?"),
    ("a misspelt option", "spring", "durration", "SpringAnimation has no attribute 'durration'; "
     "did you mean 'duration'?"),
    ("a key path as a layer attribute", "layer", "opacity", "Layer has no attribute 'opacity'; a property's model "
     "value is set by its key path: layer['opacity'] = value"),
    ("a misspelt layer method", "layer", "parnet", "Layer has no attribute 'parnet'; did you mean 'set_parent'?"),
    ("an attached animation's timing", "attached", "duration", "AttachedAnimation has no attribute 'duration'; an "
     "animation as the library holds it is read-only (read it with .timing('duration')): change the description "
     "and add it again"),
    ("Core Animation's layer.speed = 0", "layer", "speed", "Layer has no attribute 'speed'; a layer's timing is set "
     "with layer.configure_timing(speed=…) and read with layer.timing('speed')"),
    ("a layer's fill mode", "layer", "fill_mode", "Layer has no attribute 'fill_mode'; a layer's timing is set "
     "with layer.configure_timing(fill_mode=…)"),
]


@pytest.mark.parametrize("what, target, name, message", ATTRIBUTES, ids=[c[0] for c in ATTRIBUTES])
def test_setting_an_unknown_attribute_raises(world, what, target, name, message):
    rt, layer, spring, _ = world
    obj = {"spring": spring, "layer": layer, "attached": rt.layer().add_animation(spring)}[target]
    with pytest.raises(AttributeError) as caught:
        setattr(obj, name, 0.25)
    assert str(caught.value) == message, what
    assert name not in vars(obj)  # nothing was stored
    spring.to_value = 80.0  # the attributes it has still set
    assert spring.to_value == 80.0


# Reading a name the object does not have says where the value is read. (what, target, name, the exact message)
READ_ATTRIBUTES = [
    ("a key path read as a layer attribute", "layer", "opacity", "Layer has no attribute 'opacity'; a property's model "
     "value is read by its key path, layer['opacity'], and what is on screen by layer.presentation('opacity')"),
    ("an attached animation's timing read", "attached", "duration", "AttachedAnimation has no attribute 'duration'; "
     "read it with .timing('duration')"),
    ("an attached animation's timing misspelt", "attached", "duraton", "AttachedAnimation has no attribute "
     "'duraton'; did you mean .timing('duration')?"),
    ("the progress its repr shows", "attached", "progress", "AttachedAnimation has no attribute 'progress'; read it "
     "with .computed_timing().progress"),
    ("a description's value attribute on the attached copy", "attached", "to_value", "AttachedAnimation has no "
     "attribute 'to_value'; read it with .value('to')"),
    ("a factory keyword read", "spring", "to", "SpringAnimation has no attribute 'to'; did you mean 'to_value'?"),
    ("a misspelt layer method called", "layer", "presentaton", "Layer has no attribute 'presentaton'; did you mean "
     "'presentation'?"),
    ("a layer's timing read", "layer", "time_offset", "Layer has no attribute 'time_offset'; a layer's timing is set "
     "with layer.configure_timing(time_offset=…) and read with layer.timing('time_offset')"),
    ("a layer timing setter of another library", "layer", "set_speed", "Layer has no attribute 'set_speed'; a layer's "
     "timing is set with layer.configure_timing(speed=…) and read with layer.timing('speed')"),
    ("the first word of a method", "layer", "add", "Layer has no attribute 'add'; did you mean 'add_animation'?"),
    ("the first word of two methods", "layer", "remove", "Layer has no attribute 'remove'; did you mean "
     "'remove_animation' or 'remove_all_animations'?"),
    ("the last word of a method", "layer", "keys", "Layer has no attribute 'keys'; did you mean 'animation_keys'?"),
    ("a layer method with no word in common", "layer", "blink", "Layer has no attribute 'blink'"),
    ("a runtime method misspelt", "runtime", "create_layr", "Runtime has no attribute 'create_layr'; did you mean "
     "'create_layers'?"),
    ("C's create of one layer, spelt close to the bulk call", "runtime", "create_layer", "Runtime has no attribute "
     "'create_layer'; did you mean 'layer'? (rt.layer(parent=None) makes one; rt.create_layers(n) n at once, as "
     "handles)"),
    ("Core Animation's layer class", "runtime", "CALayer", "Runtime has no attribute 'CALayer'; did you mean "
     "'layer'? (rt.layer(parent=None) makes one; rt.create_layers(n) n at once, as handles)"),
    ("a runtime method of another library", "runtime", "add_layer", "Runtime has no attribute 'add_layer'; did you "
     "mean 'layer'?"),
    # C's and Core Animation's names of what a method makes, spelt closer to another method
    ("Core Animation's class, in Python's spelling", "runtime", "basic_animation", "Runtime has no attribute "
     "'basic_animation'; did you mean 'basic'?"),
    ("Core Animation's class", "runtime", "CAAnimationGroup", "Runtime has no attribute 'CAAnimationGroup'; did "
     "you mean 'group'?"),
    ("C's create, put first", "runtime", "create_barrier", "Runtime has no attribute 'create_barrier'; did you "
     "mean 'barrier'?"),
    ("an animation made without its kind", "runtime", "create_animation", "Runtime has no attribute "
     "'create_animation'; an animation is made by its kind: rt.basic(key_path, …), rt.spring(…), rt.keyframe(…), "
     "rt.decay(…) or rt.group([…])"),
    ("a timer made as C makes objects", "runtime", "create_timer", "Runtime has no attribute 'create_timer'; a "
     "timer starts with rt.start_timer(delay, fn): fn runs at the first tick at or past the delay"),
    ("another library's clock", "runtime", "update", "Runtime has no attribute 'update'; the clock moves with "
     "rt.tick(t), t the time in seconds, and nothing moves between ticks"),
    ("another library's time", "runtime", "now", "Runtime has no attribute 'now'; the runtime's time is rt.time, "
     "moved by rt.tick(t)"),
    ("a machine's state misspelt", "machine", "stat", "Machine has no attribute 'stat'; did you mean 'state'?"),
    ("a machine's events", "machine", "events", "Machine has no attribute 'events'; what it does comes with the "
     "runtime's events, rt.events() after rt.tick(t), each naming its .machine; the events it accepts are "
     "m.definition.events"),
    ("a machine's name", "machine", "name", "Machine has no attribute 'name'; its definition's is m.definition.name"),
    ("a machine's states", "machine", "states", "Machine has no attribute 'states'; its definition's is "
     "m.definition.states"),
    ("a machine's parts", "machine", "parts", "Machine has no attribute 'parts'; its definition's is "
     "m.definition.parts"),
    ("a machine listened to", "machine", "on_event", "Machine has no attribute 'on_event'; its events come with "
     "the runtime's: rt.on_event(handler), each naming its .machine"),
    ("XState's state.value", "machine", "value", "Machine has no attribute 'value'; its active state is m.state, "
     "and m.in_state('loading') tests an ancestor"),
    ("another library's timer", "runtime", "after", "Runtime has no attribute 'after'; a timer starts with "
     "rt.start_timer(delay, fn): fn runs at the first tick at or past the delay"),
    ("a context field read as an attribute", "context", "label", "Context has no attribute 'label'; a context field "
     "is read by its name: m.context['label']"),
    ("a context field misspelt as an attribute", "context", "lable", "Context has no attribute 'lable'; a context "
     "field is read by its name: did you mean m.context['label']?"),
    ("an attribute of the context that no field is", "context", "colour", "Context has no attribute 'colour'; a "
     "context field is read by its name, m.context['name'] (its fields: failures, label, progress)"),
    ("a mapping method misspelt on the context", "context", "iterms", "Context has no attribute 'iterms'; did you "
     "mean 'items'?"),
    ("a barrier waited on", "barrier", "wait", "Barrier has no attribute 'wait'; a barrier never blocks (nothing "
     "moves between ticks): barrier.notify(fn) runs fn at the tick its count returns to zero"),
]


@pytest.mark.parametrize("what, target, name, message", READ_ATTRIBUTES, ids=[c[0] for c in READ_ATTRIBUTES])
def test_reading_an_unknown_attribute_says_where_it_is_read(world, what, target, name, message):
    rt, layer, spring, _ = world
    targets = {"spring": spring, "layer": layer, "runtime": rt, "barrier": rt.barrier()}
    if target in ("machine", "context"):
        targets["machine"] = rt.machine(rt.definition(BUTTON))
        targets["context"] = targets["machine"].context
    elif target == "attached":
        targets["attached"] = rt.layer().add_animation(spring)
    obj = targets[target]
    with pytest.raises(AttributeError) as caught:
        getattr(obj, name)
    assert str(caught.value) == message, what
    assert not hasattr(obj, name)
    with pytest.raises(AttributeError, match=r"^'Layer' object has no attribute '_nothing'$"):
        layer._nothing  # private and special names are not explained
    with pytest.raises(AttributeError, match=r"^'Runtime' object has no attribute '__array__'$"):
        rt.__array__  # looked up by numpy, quietly


def test_a_description_attribute_read_on_the_attached_copy_names_the_read_that_works():
    """Read on an attached animation, a description's `values` was answered "did you mean 'value'?", its
    `calculation_mode` "did you mean 'rotation_mode'?", its `autoreverses` not at all. Each names what reads
    it, and that read gives what the description was made with."""
    with animrt.Runtime() as rt:
        layer = rt.layer()
        path = rt.keyframe("position", [(0, 0), (100, 50)], calculation_mode="discrete", autoreverses=True)
        bounce = rt.spring("opacity", to=1, damping=12, stiffness=180)
        attached = layer.add_animation(path, key="path")
        spring = layer.add_animation(bounce, key="bounce")
        group = layer.add_animation(rt.group([rt.spring("bounds.size.width", to=10, damping=12)], duration=1),
                                    key="group")
        (child,) = group.children
        cases = [
            (attached, "values", "read them with .keyframe_values (each value's numbers in turn, flattened)",
             lambda: attached.keyframe_values, [0.0, 0.0, 100.0, 50.0]),
            (attached, "autoreverses", "read it with .flag('autoreverses')", lambda: attached.flag("autoreverses"),
             True),
            (attached, "calculation_mode", "the copy as attached does not read calculation_mode back: its "
             "description does, attached.animation.calculation_mode (as the description is now)",
             lambda: attached.animation.calculation_mode, animrt.CalculationMode.DISCRETE),
            (spring, "damping", "the copy as attached does not read damping back: its description does, "
             "attached.animation.damping (as the description is now)", lambda: spring.animation.damping, 12.0),
            (spring, "settling_duration", ".flag('settling_duration') says whether it runs until it settles, and "
             "then .timing('duration') is how long that takes",
             lambda: (spring.flag("settling_duration"), spring.timing("duration")), (True, bounce.settling_duration)),
            (child, "damping", "the copy as the group holds it does not read damping back", None, None),
            (child, "removed_on_completion", "read it with .flag('removed_on_completion')",
             lambda: child.flag("removed_on_completion"), True),
        ]
        for obj, name, hint, read, expected in cases:
            with pytest.raises(AttributeError) as caught:
                getattr(obj, name)
            assert str(caught.value) == f"{type(obj).__name__} has no attribute {name!r}; {hint}", name
            if read is not None:
                assert read() == expected, name


def test_a_token_that_is_no_int_says_where_a_callable_goes_only_where_one_goes_elsewhere():
    """A callable given as a timer's or a transaction's token was told that a token "must be an int …, or a
    callable", which it was: where a callable goes instead of the token, the message says where; where none
    could go, it does not offer one. notify(), which takes either in one place, still offers it."""
    def fn() -> None:
        pass

    with animrt.Runtime() as rt:
        barrier = rt.barrier()
        cases = [
            (lambda: rt.start_timer(1, token=fn), "token is <function .+ \\(a function\\); it must be "
             "an int from 0 to 2\\*\\*63 - 1; a callable is the callback, rt.start_timer\\(delay, fn\\), and runs instead "
             "of a TimerFired event$"),
            (lambda: rt.transaction(token=fn), "token is <function .+ \\(a function\\); it must be an "
             "int from 0 to 2\\*\\*63 - 1; a callable goes to on_complete=fn, and runs instead of a TransactionCompleted "
             "event$"),
            (lambda: barrier.notify(token=fn), "token is <function .+ \\(a function\\); it must be an "
             "int from 0 to 2\\*\\*63 - 1; a callable is passed in its place, barrier.notify\\(fn\\), and runs instead "
             "of a BarrierNotified event$"),
            (lambda: rt.start_timer(1, token="soon"), "token is 'soon' \\(a str\\); it must be an int from 0 to "
             "2\\*\\*63 - 1$"),
            (lambda: rt.transaction(token=1.5), "token is 1.5 \\(a float\\); it must be an int from 0 to 2\\*\\*63 - 1$"),
            (lambda: barrier.notify("done"), "completion is 'done' \\(a str\\); it must be an int from 0 to "
             "2\\*\\*63 - 1, or a callable$"),
        ]
        for call, message in cases:
            with pytest.raises(animrt.ArgumentTypeError, match=message):
                call()
        rt.tick(0)
        assert rt.events() == [] and barrier.count == 0  # no timer started, no notification kept


def test_what_the_library_was_given_at_creation_cannot_be_reassigned():
    # Assigning these once changed only the Python object: the events then named a layer the
    # animation was never on, and a timer reported its old token under a new one.
    with animrt.Runtime() as rt:
        toast, other, arrived = rt.layer(), rt.layer(), rt.barrier()
        fade = rt.basic("opacity", to=0.0)
        attached = toast.add_animation(fade, key="out", barrier=arrived)
        ping = rt.start_timer(0.5, token=42)
        hide = rt.start_timer(0.5, lambda: None)
        machine = rt.machine(rt.definition(BUTTON))
        for obj, name, value in [(attached, "layer", other), (attached, "animation", rt.basic("opacity")),
                                 (attached, "barrier", rt.barrier()), (ping, "token", 7),
                                 (hide, "callback", print), (machine, "definition", rt.definition(named="streakCard"))]:
            before = getattr(obj, name)
            with pytest.raises(AttributeError):
                setattr(obj, name, value)
            assert getattr(obj, name) is before, name
        assert (attached.layer, attached.animation, attached.barrier) == (toast, fade, arrived)
        assert (ping.token, hide.callback is not None, machine.definition.name) == (42, True, "downloadButton")
        rt.tick(0)
        rt.tick(1)
        events = rt.events()
        assert [e.layer for e in events if isinstance(e, animrt.AnimationStarted)] == [toast]
        assert [e.token for e in events if isinstance(e, animrt.TimerFired)] == [42]


def test_numpy_values_are_values(world):
    rt, layer, _, _ = world
    other = rt.layer()
    other["position"] = numpy.array([3.0, 4.0])
    other["opacity"] = numpy.float32(0.25)
    path = rt.keyframe("position", numpy.array([[0, 0], [10, 20], [30, 0]]), key_times=numpy.array([0, 0.5, 1]),
                       duration=1)
    assert path.values == [(0.0, 0.0), (10.0, 20.0), (30.0, 0.0)] and path.key_times == [0.0, 0.5, 1.0]
    other.add_animation(path)
    rt.tick(0)
    rt.tick(0.25)
    assert other.presentation("position") == (5.0, 10.0) and other["opacity"] == 0.25
    identity = numpy.eye(4)
    other["transform"] = identity  # a 4x4 array is 16 numbers, row-major
    assert other["transform"] == tuple(identity.ravel())


def test_zero_dimensional_arrays_are_the_numbers_they_hold(world):
    # numpy.array(0.5) says it is iterable, and iterating it raised a bare TypeError,
    # "iteration over a 0-d array", from layer["opacity"] = numpy.array(0.5).
    rt = world[0]
    other = rt.layer()
    other["opacity"] = numpy.array(0.25)
    other["position"] = (numpy.array(3.0), numpy.array(4))
    fade = rt.basic("opacity", from_=numpy.array(1.0), to=numpy.array(0.0))
    assert other["opacity"] == 0.25 and other["position"] == (3.0, 4.0) and fade.from_value == 1.0
    with pytest.raises(animrt.KindError, match=r"^the value for layer\['position'\] has 1 number; 'position' takes a "
                       r"point: 2 numbers"):
        other["position"] = numpy.array(5.0)
    with pytest.raises(animrt.ArgumentTypeError, match=r"^the value for layer\['opacity'\] is 'x' \(a str\); "
                       "'opacity' takes a scalar: one number, e.g. 0.5"):
        other["opacity"] = numpy.array("x")


def test_numpy_booleans_are_booleans(world):
    # numpy 2 names the class of numpy.True_ `bool` (numpy.bool), no longer `bool_`: a flag computed
    # with numpy was refused, "autoreverses is np.True_ (a bool); it must be True or False".
    rt = world[0]
    flags = numpy.array([0.2, 0.8]) > 0.5
    pulse = rt.basic("opacity", to=0, autoreverses=flags[1], removed_on_completion=flags[0])
    assert pulse.autoreverses is True and pulse.removed_on_completion is False
    rt.register_function("negate", "bool(bool)", lambda b: not b)
    assert rt.call("negate", numpy.True_) is False and rt.call("negate", flags[0]) is True
    with pytest.raises(animrt.ArgumentTypeError, match=r"additive is np.int64\(2\) \(an int64\); it must be True or False"):
        rt.basic("opacity", additive=numpy.int64(2))


# ---- which machine, which definition -----------------------------------------------------------
TOGGLE = {"name": "toggle", "events": {"tap": {}}, "initial": "off",
          "states": {"off": {"on": {"tap": "on"}}, "on": {"on": {"tap": "off"}}}}
NO_STATES = {"name": "toggle", "events": {"tap": {}}, "initial": "off", "states": {}}


def test_a_failing_machine_call_names_the_definition():
    """With several machines about, a message says which one failed; where the library's message
    names it already, it is left as it was."""
    with animrt.Runtime() as rt:
        button = rt.machine(rt.definition(named="networkButton"))
        toggle = rt.machine(rt.definition(TOGGLE))
        with pytest.raises(animrt.NotFoundError) as e:
            toggle.send("tap", bogus=1)
        assert e.value.message == "machine 'toggle': 'tap' has no payload field 'bogus': it takes no payload"
        assert str(e.value) == e.value.message
        with pytest.raises(animrt.StateError, match=r"^machine 'networkButton': 'stopAnimate' is not accepted in "
                                                    r"state 'ready' \(it accepts "):
            button.send("stopAnimate")
        with pytest.raises(animrt.ArgumentTypeError, match=r"^machine 'toggle': the payload is \[1\] \(a list\)"):
            toggle.send("tap", [1])
        with pytest.raises(animrt.RangeError) as e:
            button.part("arc", 99)
        assert e.value.message == "machine 'networkButton': 'arc[99]': part 'arc' has 2 copies (0 to 1)"
        with pytest.raises(animrt.RangeError) as e:  # not the last copy, as a list's -1 would be
            button.part("arc", -1)
        assert e.value.message == ("machine 'networkButton': 'arc[-1]': part 'arc' has 2 copies (0 to 1); "
                                   "an index counts from 0, not back from the end")
        with pytest.raises(animrt.InvalidArgumentError) as e:
            button.part("ring", -1)
        assert e.value.message == "machine 'networkButton': 'ring' is not a repeated part; name it without an index"
        with pytest.raises(animrt.NotFoundError) as e:  # named by the library already: not twice
            button.part("nope")
        assert e.value.message == ("'networkButton' has no part 'nope' "
                                   "(parts: button, border, title, ring, arc, dot, checkMark, cross)")
        with pytest.raises(animrt.RangeError) as e:
            rt.machine(button.definition, config={"width": -5})
        assert e.value.message == "machine 'networkButton': config 'width' is -5; the minimum is 1"
        with pytest.raises(animrt.RangeError) as e:  # -0 named as the caller gave it, not as 0
            rt.machine(button.definition, config={"width": -0.0})
        assert e.value.message == "machine 'networkButton': config 'width' is -0; the minimum is 1"
        with pytest.raises(animrt.InvalidArgumentError, match=r"^machine 'toggle': config\['width'\] is inf"):
            rt.machine(toggle.definition, config={"width": math.inf})
        toggle.destroy()
        with pytest.raises(animrt.HandleError, match=r"^machine 'toggle': machine handle 0x[0-9a-f]+ is stale"):
            toggle.send("tap")
        assert button.state == "ready" and len(rt._machines) == 1  # nothing was made or changed


def test_an_error_keeps_its_class_and_cause_when_named():
    with animrt.Runtime() as rt:
        rt.register_function("broken", "bool()", lambda: 1 / 0)
        guarded = rt.machine(rt.definition({
            "name": "guarded", "events": {"go": {}}, "initial": "a",
            "states": {"a": {"on": {"go": {"target": "b", "guard": "broken()"}}}, "b": {}}}))
        with pytest.raises(animrt.CallbackError) as e:
            guarded.send("go")
        assert e.value.message.startswith("machine 'guarded': function 'broken' raised ZeroDivisionError")
        assert isinstance(e.value.__cause__, ZeroDivisionError)


def test_a_failing_definition_load_names_it(tmp_path):
    with animrt.Runtime() as rt:
        with pytest.raises(animrt.InvalidArgumentError) as e:
            rt.definition(NO_STATES)
        assert e.value.message == "definition 'toggle': states: a \"states\" object needs at least one state"
        with pytest.raises(animrt.InvalidArgumentError, match="^definition 'toggle': states: "):
            rt.definition(json.dumps(NO_STATES))
        path = tmp_path / "toggle.json"
        path.write_text(json.dumps(NO_STATES))
        with pytest.raises(animrt.InvalidArgumentError) as e:
            rt.definition(path)
        assert e.value.message == f"definition 'toggle': {path}: states: a \"states\" object needs at least one state"
        with pytest.raises(animrt.InvalidArgumentError) as e:  # the name it is registered under
            rt.register_definition("switch", {**NO_STATES, "name": "switch"})
        assert e.value.message == "definition 'switch': states: a \"states\" object needs at least one state"
        with pytest.raises(animrt.InvalidArgumentError) as e:  # no name to give: the message as it was
            rt.definition({"initial": "off"})
        assert not e.value.message.startswith("definition ")


def test_a_snapshot_restored_with_another_definition_is_refused_by_name():
    """Its states and events would be named through the wrong lists (an IndexError on m.state)."""
    with animrt.Runtime() as rt:
        button = rt.definition(named="networkButton")
        saved = rt.machine(button).snapshot()
        card = rt.definition(named="progressCard")
        with pytest.raises(animrt.InvalidArgumentError) as e:
            rt.restore(saved, card)
        assert e.value.message == ("the snapshot is of a 'networkButton' machine, and definition "
                                   "is 'progressCard': restore it with the definition it was taken from: "
                                   "rt.restore(snapshot, rt.definition(named='networkButton'))")
        assert len(rt._machines) == 1  # nothing restored
        assert rt.restore(saved, button).state == "ready"


def test_a_snapshot_of_a_definition_registered_under_another_name_suggests_a_call_that_works():
    """The library knows a definition by the name it was registered under, not by its own: the
    suggestion must not be rt.definition(named=<its own name>), which the library does not have."""
    toggle = {"name": "toggle", "events": {"flip": {}}, "initial": "off",
              "states": {"off": {"on": {"flip": "on"}}, "on": {"on": {"flip": "off"}}}}
    with animrt.Runtime() as rt:
        rt.register_definition("myToggle", toggle)
        mine = rt.definition(named="myToggle")
        assert repr(mine).startswith("<Definition 'toggle' registered as 'myToggle' 0x")
        assert repr(rt.definition(toggle)).startswith("<Definition 'toggle' 0x")  # not loaded by a name
        saved = rt.machine(mine).snapshot()
        with pytest.raises(animrt.InvalidArgumentError) as e:
            rt.restore(saved, rt.definition(named="progressCard"))
        suggested = "rt.restore(snapshot, rt.definition(json.loads(snapshot)['definition']))"
        assert e.value.message == ("the snapshot is of a 'toggle' machine, and definition is 'progressCard': "
                                   f"restore it with the definition it was taken from: {suggested}")
        restored = eval(suggested.replace("snapshot", "saved"), {"rt": rt, "saved": saved, "json": json})
        assert restored.state == "off"


def test_a_snapshot_restored_with_an_edited_version_of_its_definition_is_refused():
    """The library restores a snapshot with the definition it holds; the binding names what it reports
    through the definition it is given. With a state renamed, or a context field added, in an edited
    copy of the same name, m.state and m.context read the wrong names (or past the lists) without a
    word. An edit that keeps every name (a description, a guard) restores."""
    toast = {"name": "toast", "events": {"show": {"payload": [{"name": "message", "type": "string"}]}, "hide": {}},
             "context": {"message": {"type": "string", "initial": "''"}},
             "initial": "hidden",
             "states": {"hidden": {"on": {"show": {"target": "visible", "actions": [{"assign": {"message": "event.message"}}]}}},
                        "visible": {"on": {"hide": "hidden"}, "ignore": ["show"]}}}
    with animrt.Runtime() as rt:
        m = rt.machine(rt.definition(toast))
        m.send("show", message="Saved")
        rt.tick(0.0)
        rt.events()
        saved = m.snapshot()
        renamed = json.loads(json.dumps(toast))
        renamed["states"]["shown"] = renamed["states"].pop("visible")
        renamed["states"]["hidden"]["on"]["show"]["target"] = "shown"
        with pytest.raises(animrt.InvalidArgumentError) as e:
            rt.restore(saved, rt.definition(renamed))
        assert e.value.message == ("the snapshot was taken from another version of 'toast': its state 'visible' is not "
                                   "in this definition, and this definition's state 'shown' is not in it; restore it with "
                                   "the definition it was taken from: rt.definition(json.loads(snapshot)['definition'])")
        counted = json.loads(json.dumps(toast))
        counted["context"]["shows"] = {"type": "number", "initial": 0}
        with pytest.raises(animrt.InvalidArgumentError, match="this definition's context field 'shows' is not in it"):
            rt.restore(saved, rt.definition(counted))
        longer = json.loads(json.dumps(toast))
        longer["events"]["show"]["payload"].append({"name": "seconds", "type": "number", "default": 3})
        with pytest.raises(animrt.InvalidArgumentError,
                           match=r"the fields of its event 'show' are \('message',\); this definition's are "
                                 r"\('message', 'seconds'\)"):
            rt.restore(saved, rt.definition(longer))
        assert len(rt._machines) == 1 and rt.events() == []  # nothing restored, nothing reported
        described = json.loads(json.dumps(toast))
        described["description"] = "a toast that says what was saved"
        copy = rt.restore(saved, rt.definition(described))
        assert copy.state == "visible" and copy.context["message"] == "Saved"
        again = rt.restore(saved, rt.definition(json.loads(saved)["definition"]))  # the way the message shows
        assert again.state == "visible"


def test_a_definitions_messages_keep_its_json_names():
    """Messages of C calls spell the C parameter names as Python does (repeatCount → repeat_count);
    a definition's are about its JSON, whose keys are camelCase: rewritten, they named a path that
    does not exist and suggested the very key that was refused ("unknown key 'repeat_count'; did
    you mean 'repeat_count'?"). Config parameters and fields are the author's names, kept too."""
    def toggle(animate: dict) -> dict:
        return {"name": "toggle", "events": {"tap": {}}, "parts": [{"name": "knob"}],
                "config": {"beginTime": {"type": "number", "default": 0, "min": 0}},
                "animations": {"slide": {"type": "basic", "keyPath": "position.x", "to": 20, "duration": 0.2}},
                "initial": "off", "states": {"off": {"entry": [{"animate": "slide", "part": "knob", "key": "k", **animate}]}}}
    with animrt.Runtime() as rt:
        with pytest.raises(animrt.InvalidArgumentError) as e:
            rt.definition(toggle({"repeat_count": 2}))
        assert e.value.message == ("definition 'toggle': states.off.entry[0]: unknown key 'repeat_count'; "
                                   "did you mean 'repeatCount'?")
        with pytest.raises(animrt.InvalidArgumentError) as e:
            rt.definition(toggle({"keyTimes": [0, 1]}))
        assert e.value.message == ("definition 'toggle': states.off.entry[0].keyTimes: 'keyTimes' applies to "
                                   "keyframe animations, not basic")
        with pytest.raises(animrt.RangeError) as e:
            rt.machine(rt.definition(toggle({})), config={"beginTime": -1})
        assert e.value.message == "machine 'toggle': config 'beginTime' is -1; the minimum is 0"
        with pytest.raises(animrt.RangeError, match=r"repeat_count is -2; it must be 0 or more \(math\.inf"):
            rt.basic("opacity", repeat_count=-2)  # the binding's own calls still speak Python


def test_a_snapshot_restored_with_another_runtimes_definition_is_refused():
    """rt.machine refuses a definition of another runtime, and so must restore: the machine would name its
    events through a definition it does not own, and once that runtime closed, every tick delivering one of
    them raised ClosedError from inside the binding."""
    with animrt.Runtime() as rt, animrt.Runtime() as other:
        card = rt.definition(named="progressCard")
        m = rt.machine(card)
        m.send("fetch")
        rt.tick(0.0)
        saved = m.snapshot()
        other.tick(rt.time)
        with pytest.raises(animrt.HandleError) as e:
            other.restore(saved, card)
        assert e.value.message == ("definition 'progressCard' belongs to another runtime: load it into this one "
                                   "with rt.definition(...) and restore with that copy")
        assert other._machines == {}  # nothing restored
        copy = other.restore(saved, other.definition(named="progressCard"))
        rt.close()
        assert copy.send("fetched", request=1, progress=0.35) is animrt.SendOutcome.TAKEN
        other.tick(0.1)
        assert copy.state == "ready" and copy.context["progress"] == 0.35
        assert [type(event).__name__ for event in other.events()] == ["StateChanged"]


def test_a_refused_callable_leaves_nothing_behind():
    """Refused where it is handed over, a callable of the wrong shape registers nothing: the ticks that
    follow run nothing and report nothing of it, and callables of any shape that can be called so pass."""
    with animrt.Runtime() as rt:
        toast = rt.layer()
        arrived = rt.barrier()
        for refused in (lambda: toast.add_animation(rt.basic("opacity", to=0, duration=0.1), key="out", on_finish=done),
                        lambda: arrived.notify(on_done), lambda: rt.start_timer(0.1, on_done),
                        lambda: rt.on_event(done)):
            with pytest.raises(animrt.ArgumentTypeError):
                refused()
        assert toast.animation_keys() == [] and arrived.count == 0
        rt.tick(0)
        rt.tick(1)
        assert rt.events() == []  # no animation, no notification, no timer; events still come back here
        ran = []
        toast.add_animation(rt.basic("opacity", to=0, duration=0.1), on_finish=lambda *flags: ran.append(flags))
        arrived.notify(lambda extra=1: ran.append(extra))
        rt.start_timer(0.1, lambda: ran.append("timer"))
        rt.tick(1.05)
        rt.tick(1.5)
        assert sorted(map(str, ran)) == ["(True,)", "1", "timer"]


def test_every_entry_point_with_keywords_of_its_own_answers_a_misspelt_one():
    """A method with keyword-only parameters and no **options of its own (which check their names) is
    wrapped to answer a misspelt keyword with the closest; help() and inspect still show its own signature."""
    import inspect
    unwrapped = []
    for cls in (animrt.Runtime, animrt.Layer, animrt.KeyframeAnimation, animrt.Machine, animrt.Definition,
                animrt.Reader, animrt.Barrier, animrt.AttachedAnimation):
        for name, fn in vars(cls).items():
            if not callable(fn) or (name.startswith("_") and name != "__init__"):
                continue
            parameters = inspect.signature(fn).parameters.values()
            if any(p.kind is p.VAR_KEYWORD for p in parameters):
                continue
            if any(p.kind is p.KEYWORD_ONLY for p in parameters) and not hasattr(fn, "__wrapped__"):
                unwrapped.append(f"{cls.__name__}.{name}")
    assert unwrapped == []
    assert list(inspect.signature(animrt.Runtime.transaction).parameters) == ["self", "animation_duration", "token",
                                                                             "on_complete"]


def test_a_refused_transaction_duration_begins_nothing_and_warns_of_nothing(recwarn):
    import gc
    from ctypes import byref, c_uint64
    with animrt.Runtime() as rt:
        with pytest.raises(animrt.RangeError):
            rt.transaction(animation_duration=-1, on_complete=lambda: None)
        gc.collect()
        with pytest.raises(animrt.StateError):  # no transaction is open
            animrt._ffi.lib.animrt_transaction_current(rt._ptr, byref(c_uint64()))
        with rt.transaction(animation_duration=0.5) as t:  # a valid one still begins, when entered
            assert t.animation_duration == 0.5
        with rt.transaction(animation_duration=0) as t:  # 0 is the same as None, as in C
            assert t.animation_duration == 0
    assert [str(w.message) for w in recwarn if issubclass(w.category, RuntimeWarning)] == []


# A transaction's options are checked once, by rt.transaction(): assigning one afterwards went
# unchecked (a token of -1 reported as 18446744073709551615, a str on_complete raised from tick()),
# and a misspelt one made an attribute nothing read. (what, name, value, the exact message)
TRANSACTION_ATTRIBUTES = [
    ("a negative token", "token", -1, "Transaction.token is read-only; it is given when the transaction is made: "
     "rt.transaction(token=...)"),
    ("a str as on_complete", "on_complete", "done", "Transaction.on_complete is read-only; it is given when the "
     "transaction is made: rt.transaction(on_complete=...)"),
    ("a duration set late", "animation_duration", 2.0, "Transaction.animation_duration is read-only; it is given "
     "when the transaction is made: rt.transaction(animation_duration=...)"),
    ("a misspelt on_complete", "on_complet", print, "Transaction has no attribute 'on_complet'; did you mean "
     "'on_complete'? It is given when the transaction is made: rt.transaction(on_complete=...)"),
    ("UIKit's completion", "completion", print, "Transaction has no attribute 'completion'; did you mean "
     "'on_complete'? It is given when the transaction is made: rt.transaction(on_complete=...)"),
    ("a name with nothing near", "colour", 1, "Transaction has no attribute 'colour'"),
]


@pytest.mark.parametrize("what, name, value, message", TRANSACTION_ATTRIBUTES,
                         ids=[c[0] for c in TRANSACTION_ATTRIBUTES])
def test_a_transaction_refuses_attributes_set_after_it_is_made(what, name, value, message):
    with animrt.Runtime() as rt:
        done = []
        t = rt.transaction(animation_duration=0.5, on_complete=lambda: done.append(True))
        with pytest.raises(AttributeError) as caught:
            setattr(t, name, value)
        assert str(caught.value) == message, what
        assert name not in vars(t)  # nothing was stored
        with t:
            rt.layer().add_animation(rt.basic("opacity", to=0))
        rt.tick(0)
        rt.tick(1)
        # What rt.transaction() was given is what ran: the duration, the completion, no event.
        stops = [e for e in rt.events() if isinstance(e, (animrt.AnimationStopped, animrt.TransactionCompleted))]
        assert (t.animation_duration, t.token, done) == (0.5, 0, [True])
        assert [type(e).__name__ for e in stops] == ["AnimationStopped"]  # stopped at 0.5 s; no event for t


def test_a_transactions_misspelt_attribute_read_is_answered_with_the_name():
    with animrt.Runtime() as rt:
        with pytest.raises(AttributeError) as caught:
            rt.transaction().on_complet  # noqa: B018
        assert str(caught.value) == "Transaction has no attribute 'on_complet'; did you mean 'on_complete'?"
        with rt.transaction(token=7) as t:
            assert t.token == 7 and t.on_complete is None and t.animation_duration is None


def test_copying_a_library_object_says_what_to_do_instead():
    # A copy of the Python object would share the library's object (and its destroy), not copy it.
    import copy
    import pickle
    with animrt.Runtime() as rt:
        machine = rt.machine(rt.definition(named="progressCard"))
        cases = [(rt, "Runtime", "make another with animrt.Runtime()"),
                 (rt.layer(), "Layer", "make another with rt.layer()"),
                 (rt.basic("opacity", to=1), "BasicAnimation", "one description can be added to any number of layers"),
                 (machine, "Machine", "rt.restore(machine.snapshot(), machine.definition)"),
                 (rt.barrier(), "Barrier", "make another one the way this one was made")]
        for obj, name, advice in cases:
            for attempt, what in ((copy.copy, "copied"), (copy.deepcopy, "copied"), (pickle.dumps, "pickled")):
                with pytest.raises(TypeError) as raised:
                    attempt(obj)
                message = str(raised.value)
                assert message.startswith(f"a {name} cannot be {what}: it names an object inside the animrt library")
                assert advice in message
        assert machine.state == "hidden" and not rt.closed  # nothing was shared or destroyed


def test_a_property_the_program_defines_under_another_toolkits_name_is_its_own():
    with animrt.Runtime() as rt:
        rt.define_property("alpha", 0.25)
        layer = rt.layer()
        assert layer["alpha"] == 0.25 and layer["opacity"] == 1.0
        with pytest.raises(animrt.NotFoundError) as caught:
            layer["opacty"]
        assert caught.value.message == "key path 'opacty' is not animatable; did you mean 'opacity'?"


# ---- a first hour with machines ------------------------------------------------------------------
# What a newcomer writes first, and what the message shows them to write instead: the exact call,
# with the names of their own machine. (what, the call given the runtime and a networkButton
# machine, the exception, how the message begins, MACHINE standing for the machine's repr)
FIRST_MACHINE_CASES = [
    ("a shipped definition's name as the source", lambda rt, m: rt.definition("networkButton"),
     animrt.ArgumentTypeError, "source is the string 'networkButton', which is not JSON: it names a definition of "
     "the runtime's library, loaded with rt.definition(named='networkButton')"),
    ("a registered definition's name as the source", lambda rt, m: rt.definition("toggle"),
     animrt.ArgumentTypeError, "source is the string 'toggle', which is not JSON: it names a definition of the "
     "runtime's library, loaded with rt.definition(named='toggle')"),
    ("a library name misspelt as the source", lambda rt, m: rt.definition("progresscard"),
     animrt.ArgumentTypeError, "source is the string 'progresscard', which is not JSON; did you mean "
     "rt.definition(named='progressCard')?"),
    ("a file's path as a str", lambda rt, m: rt.definition("examples/machines/download_button.json"),
     animrt.ArgumentTypeError, "source is the string 'examples/machines/download_button.json', which is not JSON: "
     "a file is passed as a pathlib.Path, rt.definition(pathlib.Path('examples/machines/download_button.json'))"),
    ("a file's name alone as a str", lambda rt, m: rt.definition("my_card.json"),
     animrt.ArgumentTypeError, "source is the string 'my_card.json', which is not JSON: a file is passed as a "
     "pathlib.Path, rt.definition(pathlib.Path('my_card.json'))"),
    ("a str that is none of these", lambda rt, m: rt.definition("hello"), animrt.ArgumentTypeError,
     "source is the string 'hello', which is not JSON: pass JSON text, a dict, a pathlib.Path for a file, or "
     "named=... for a definition of the runtime's library"),
    ("a shipped definition's name for a machine", lambda rt, m: rt.machine("networkButton"), animrt.ArgumentTypeError,
     "definition is 'networkButton' (a str); it must be a Definition; 'networkButton' names a definition of the "
     "runtime's library: rt.machine(rt.definition(named='networkButton'))"),
    ("a library name misspelt for a machine", lambda rt, m: rt.machine("network_button"), animrt.ArgumentTypeError,
     "definition is 'network_button' (a str); it must be a Definition; did you mean "
     "rt.machine(rt.definition(named='networkButton'))?"),
    ("a definition's JSON for a machine", lambda rt, m: rt.machine({"name": "toggle"}), animrt.ArgumentTypeError,
     "definition is {'name': 'toggle'} (a dict); it must be a Definition; load it first: "
     "rt.machine(rt.definition(source))"),
    ("a name to restore with", lambda rt, m: rt.restore(m.snapshot(), "networkButton"), animrt.ArgumentTypeError,
     "definition is 'networkButton' (a str); it must be a Definition; 'networkButton' names a definition of the "
     "runtime's library: rt.restore(snapshot, rt.definition(named='networkButton'))"),
    ("a snapshot restored without its definition", lambda rt, m: rt.restore(m.snapshot()), animrt.ArgumentTypeError,
     "rt.restore() needs the definition the snapshot was taken from, which names its states, events and fields: "
     "rt.restore(snapshot, rt.definition(named='networkButton'))"),
    ("a machine restored without its definition", lambda rt, m: rt.restore(m), animrt.ArgumentTypeError,
     "snapshot is MACHINE (a Machine); a snapshot is the JSON text a machine writes of itself: "
     "rt.restore(machine.snapshot(), machine.definition)"),
    ("something else for a machine", lambda rt, m: rt.machine(3), animrt.ArgumentTypeError,
     "definition is 3 (an int); it must be a Definition from rt.definition(...)"),
    ("restore's arguments swapped", lambda rt, m: rt.restore(m.definition, m.snapshot()), animrt.ArgumentTypeError,
     "rt.restore() got the definition first: the snapshot comes first, then the definition, "
     "rt.restore(snapshot, definition)"),
    ("a machine to restore", lambda rt, m: rt.restore(m, m.definition), animrt.ArgumentTypeError,
     "snapshot is MACHINE (a Machine); a snapshot is the JSON text a machine writes of itself: "
     "rt.restore(machine.snapshot(), machine.definition)"),
    ("the snapshot method not called", lambda rt, m: rt.restore(m.snapshot, m.definition), animrt.ArgumentTypeError,
     "snapshot is the method machine.snapshot, not what it returns: call it, rt.restore(machine.snapshot(), "
     "definition)"),
    ("register_definition's arguments swapped", lambda rt, m: rt.register_definition(TOGGLE, "toggle"),
     animrt.ArgumentTypeError, "rt.register_definition() got the definition first: the name comes first, then the "
     "definition, rt.register_definition('toggle', definition)"),
    ("register_definition's arguments swapped, as JSON text", lambda rt, m: rt.register_definition(json.dumps(TOGGLE),
                                                                                                  "toggle"),
     animrt.ArgumentTypeError, "rt.register_definition() got the definition first: the name comes first"),
    ("a payload as a tuple of values", lambda rt, m: m.send("updateProgress", (0.5,)), animrt.ArgumentTypeError,
     "machine 'networkButton': the payload is (0.5,) (a tuple); pass its fields by name, in the order its "
     "definition gives them: m.send('updateProgress', progress=0.5)"),
    ("a payload of one value", lambda rt, m: m.send("updateProgress", 0.5), animrt.ArgumentTypeError,
     "machine 'networkButton': the payload is 0.5 (a float); pass its fields by name, in the order its definition "
     "gives them: m.send('updateProgress', progress=0.5)"),
    ("a payload's values as arguments, more than its fields", lambda rt, m: m.send("updateProgress", 0.5, 1),
     animrt.ArgumentTypeError, "machine 'networkButton': m.send() got the payload's values as arguments, 0.5, 1; "
     "pass its fields by name, m.send('updateProgress', field=value), or as a dict of them (its fields: progress)"),
    ("a payload for an event that takes none", lambda rt, m: m.send("tap", [True]), animrt.ArgumentTypeError,
     "machine 'networkButton': the payload is [True] (a list); 'tap' takes no payload: m.send('tap')"),
    ("a payload of more values than fields", lambda rt, m: m.send("updateProgress", (0.5, 1)),
     animrt.ArgumentTypeError, "machine 'networkButton': the payload is (0.5, 1) (a tuple); pass its fields by "
     "name, m.send('updateProgress', field=value), or as a dict of them (its fields: progress)"),
    ("a context field set", lambda rt, m: operator.setitem(m.context, "progress", 0.5), animrt.ArgumentTypeError,
     "m.context is read-only: a machine's context changes only by its own actions (assign), on the events it is "
     "sent; send the one that sets 'progress' (events: resetToReady, startAnimate, stopAnimate, stopByError, tap, "
     "updateProgress)"),
]


@pytest.fixture
def first_machine():
    with animrt.Runtime() as rt:
        rt.register_definition("toggle", TOGGLE)
        m = rt.machine(rt.definition(named="networkButton"))
        yield rt, m
        assert m.state == "ready" and list(rt._machines.values()) == [m]  # nothing made or changed
        assert sorted(type(o).__name__ for o in rt._objects.values()) == ["Definition", "Machine"]  # nothing loaded


@pytest.mark.parametrize("what, call, exception, message", FIRST_MACHINE_CASES,
                         ids=[c[0] for c in FIRST_MACHINE_CASES])
def test_a_first_machine_mistake_shows_the_call_that_works(first_machine, what, call, exception, message):
    rt, m = first_machine
    with pytest.raises(exception) as caught:
        call(rt, m)
    assert isinstance(caught.value, animrt.AnimrtError)
    assert str(caught.value).startswith(message.replace("MACHINE", repr(m))), f"{what}: {caught.value}"


def test_an_event_whose_guards_all_fail_says_how_to_take_it():
    """A counter that stops at its limit: the refusal said only that no guard passed, and left the program to
    find out that a last transition without a guard takes the event ("ignore" beside a transition of the same
    state is refused by the loader). It says so, and that transition takes it: without a target, changing no
    state and running its actions."""
    def counter(flip: list) -> dict:
        return {"name": "counter", "initial": "off", "events": {"flip": {}},
                "context": {"count": {"type": "number", "initial": 0}, "extra": {"type": "number", "initial": 0}},
                "states": {"off": {"on": {"flip": flip}}, "on": {"on": {"flip": "off"}}}}
    limited = [{"guard": "context.count < 1", "target": "on", "actions": [{"assign": {"count": "context.count + 1"}}]}]
    with animrt.Runtime() as rt:
        m = rt.machine(rt.definition(counter(limited)))
        assert m.send("flip") is animrt.SendOutcome.TAKEN and m.send("flip") is animrt.SendOutcome.TAKEN
        with pytest.raises(animrt.StateError) as caught:
            m.send("flip")
        assert str(caught.value) == (
            "machine 'counter': 'flip' is not taken in state 'off': no guard of its transitions passed; to take it "
            "whatever they say, end them with one without a guard (without a target, it changes no state)")
        assert (m.state, m.context["count"]) == ("off", 1.0)
        kept = rt.machine(rt.definition(counter(limited + [{"actions": [{"assign": {"extra": "context.extra + 1"}}]}])))
        kept.send("flip")
        kept.send("flip")
        assert kept.send("flip") is animrt.SendOutcome.TAKEN
        assert (kept.state, kept.context["count"], kept.context["extra"]) == ("off", 1.0, 1.0)


def test_a_snapshot_restored_without_its_definition_shows_the_call_that_restores_it():
    """rt.restore(snapshot) was Python's bare "missing 1 required positional argument: 'definition'". The
    snapshot holds its definition: the message shows the call that works, by name when the runtime's library
    has that definition (and the same version of it), else with the definition the snapshot holds; and each
    call shown restores it."""
    with animrt.Runtime() as rt:
        rt.register_definition("toggle", TOGGLE)
        edited = dict(TOGGLE, states={**TOGGLE["states"], "broken": {}})
        for source, call in [(BUTTON, "rt.restore(snapshot, rt.definition(json.loads(snapshot)['definition']))"),
                             (TOGGLE, "rt.restore(snapshot, rt.definition(named='toggle'))"),
                             (edited, "rt.restore(snapshot, rt.definition(json.loads(snapshot)['definition']))")]:
            m = rt.machine(rt.definition(source))
            snapshot = m.snapshot()
            with pytest.raises(animrt.ArgumentTypeError) as caught:
                rt.restore(snapshot=snapshot)
            assert str(caught.value) == ("rt.restore() needs the definition the snapshot was taken from, which names "
                                         f"its states, events and fields: {call}")
            before = len(rt._machines)
            assert eval(call, {"rt": rt, "json": json, "snapshot": snapshot}).state == m.state
            assert len(rt._machines) == before + 1
        with pytest.raises(animrt.ArgumentTypeError, match=r"^rt.restore\(\) got 3 \(an int\) and no definition"):
            rt.restore(3)


def test_a_payloads_values_given_as_arguments_show_the_send_with_its_field_names():
    """m.send('fetched', 1, 0.35) was Python's bare "takes from 2 to 3 positional arguments but 4 were given":
    the message shows the send with the event's field names, in order, and nothing is sent. help() and type
    checkers still see send's own signature."""
    with animrt.Runtime() as rt:
        card = rt.machine(rt.definition(named="progressCard"))
        card.send("fetch")
        with pytest.raises(animrt.ArgumentTypeError) as caught:
            card.send("fetched", 1, 0.35)
        assert str(caught.value) == ("machine 'progressCard': m.send() got the payload's values as arguments, 1, 0.35; "
                                     "pass its fields by name, in the order its definition gives them: "
                                     "m.send('fetched', request=1, progress=0.35)")
        assert card.state == "loading"  # nothing was sent
        assert str(inspect.signature(card.send)).startswith("(event: 'str', fields: ")
        assert card.send("fetched", request=1, progress=0.35) is animrt.SendOutcome.TAKEN


def test_a_request_answered_with_its_event_says_to_send_its_id():
    """The RequestIssued event handed over whole as the result's request field: it is its id that is carried."""
    with animrt.Runtime() as rt:
        card = rt.machine(rt.definition(named="progressCard"))
        card.send("fetch")
        rt.tick(0.0)
        request = next(e for e in rt.events() if isinstance(e, animrt.RequestIssued))
        with pytest.raises(animrt.ArgumentTypeError) as caught:
            card.send("fetched", request=request, progress=0.35)
        assert str(caught.value) == ("machine 'progressCard': request is the RequestIssued event of 'fetchProgress'; "
                                     "a result carries the request's id: request=event.id (request=1)")
        assert card.state == "loading"  # nothing was sent
        assert card.send("fetched", request=request.id, progress=0.35) is animrt.SendOutcome.TAKEN


CLOSED = ("the runtime is closed (rt.close() has run, or its with block has ended); check rt.closed before using "
          "it, or obj.runtime.closed for one of its objects")


def test_a_closed_runtime_says_how_to_tell_beforehand():
    """ClosedError said only "the runtime is closed": it now names the property that says so before
    the call, and that property is True wherever the error is raised (after close(), after the with
    block, and inside close() itself, where on_finish callables run)."""
    inside = []

    def finish(finished):
        inside.append(rt.closed)
        try:
            rt.layer()
        except animrt.ClosedError as e:
            inside.append(e.message)

    with animrt.Runtime() as rt:
        layer = rt.layer()
        fade = rt.basic("opacity", to=0, duration=5)
        attached = layer.add_animation(fade, on_finish=finish)
        rt.tick(0)
    assert inside == [True, CLOSED]
    for call in (lambda: rt.tick(1), lambda: rt.layer(), lambda: layer.presentation("opacity"),
                 lambda: attached.computed_timing(), lambda: fade.duration, lambda: rt.time):
        with pytest.raises(animrt.ClosedError) as e:
            call()
        assert e.value.message == CLOSED and str(e.value) == CLOSED
    assert rt.closed and layer.runtime.closed and fade.runtime.closed
    with animrt.Runtime() as other:
        with pytest.raises(animrt.ClosedError) as e:
            other.layer().add_animation(fade)
        assert e.value.message == ("the animation's runtime is closed (animation.runtime.closed); make the "
                                   "animation with this layer's runtime")


def test_options_given_in_order_say_which_go_by_name():
    """rt.machine(card, {"width": 200}) was Python's bare "takes 2 positional arguments but 3 were given",
    which counts self and names no option: the message names what goes in order and what goes by name,
    and nothing is made."""
    with animrt.Runtime() as rt:
        card = rt.definition(named="progressCard")
        before = len(rt._machines)
        with pytest.raises(animrt.ArgumentTypeError) as caught:
            rt.machine(card, {"width": 200})
        assert str(caught.value) == ("rt.machine() takes 1 positional argument (definition) but 2 were given; the "
                                     "others are passed by name: parent=…, config=…, locale=…, strings=…")
        assert len(rt._machines) == before
        assert rt.machine(card, config={"width": 200}).state == "hidden"
        with pytest.raises(animrt.ArgumentTypeError) as caught:
            rt.layer(None, None)
        assert str(caught.value) == "rt.layer() takes 1 positional argument (parent) but 2 were given"
    with pytest.raises(animrt.ArgumentTypeError) as caught:
        animrt.Runtime(64)
    assert str(caught.value) == ("animrt.Runtime() takes no positional arguments but 1 was given; they are passed "
                                 "by name: event_capacity=…, threads=…")


def test_a_request_or_an_emitted_event_sent_back_says_what_it_is():
    """A host new to a machine sees 'fetchProgress' in a RequestIssued event and sends it back, or sends
    an event the machine emits: the refusal says what the name is and, for a request, which events answer
    it, where it listed the events alone; the machine is where it was."""
    with animrt.Runtime() as rt:
        card = rt.machine(rt.definition(named="progressCard"))
        card.send("fetch")
        with pytest.raises(animrt.NotFoundError) as caught:
            card.send("fetchProgress", request=1, progress=0.5)
        assert str(caught.value) == ("'progressCard' has no event 'fetchProgress': it is a request the machine makes "
                                     "of the host; answer it by sending 'fetchFailed' or 'fetched' with "
                                     "the request's id in the field 'request'")
        assert card.state == "loading"
        streak = rt.machine(rt.definition(named="streakCard"))
        with pytest.raises(animrt.NotFoundError) as caught:
            streak.send("unlock")
        assert str(caught.value) == ("'streakCard' has no event 'unlock': it is an event the machine emits for "
                                     "the host to read, not one it takes")
        asker = rt.machine(rt.definition({"name": "asker", "initial": "a", "requests": {"ping": {}, "poll": {}},
                                          "events": {"pong": {"resultOf": "ping"}, "got": {"resultOf": "poll"},
                                                     "lost": {"resultOf": "poll"},
                                                     "part": {"resultOf": "poll", "partial": True}},
                                          "states": {"a": {}}}))
        with pytest.raises(animrt.NotFoundError) as caught:
            asker.send("ping")
        assert str(caught.value) == ("'asker' has no event 'ping': it is a request the machine makes of the host; "
                                     "answer it by sending 'pong' with the request's id in the field 'request'")
        with pytest.raises(animrt.NotFoundError) as caught:
            asker.send("poll")
        assert str(caught.value) == ("'asker' has no event 'poll': it is a request the machine makes of the host; "
                                     "answer it by sending 'got', 'lost' or 'part' with the request's id in the "
                                     "field 'request'")
        with pytest.raises(animrt.NotFoundError) as caught:
            card.send("fecth")
        assert str(caught.value) == "'progressCard' has no event 'fecth'; did you mean 'fetch'?"


def test_a_call_without_its_required_argument_says_what_goes_there():
    """rt.tick() was Python's bare "missing 1 required positional argument: 'now'", which says neither
    what the time is nor where it comes from: the most used calls made without what they need say what
    it is and show a call that gives it; each is still a TypeError, and nothing changes (R0.3, R5.2)."""
    with animrt.Runtime() as rt:
        layer = rt.layer()
        cases = [
            (lambda: rt.tick(), "rt.tick() needs now, the host's monotonic time in seconds, e.g. "
             "rt.tick(time.monotonic())"),
            (lambda: layer.set_value("opacity"), "Layer.set_value() needs value, the new model value of the key "
             "path, e.g. layer.set_value('opacity', 0.5)"),
            (lambda: layer.set_value(value=0.5), "Layer.set_value() needs key_path, the property to set, e.g. "
             "layer.set_value('opacity', 0.5)"),
            (lambda: layer.add_animation(key="out"), "Layer.add_animation() needs animation, an animation made by "
             "the runtime, e.g. layer.add_animation(rt.basic('opacity', to=0))"),
            (lambda: rt.machine(parent=layer), "rt.machine() needs definition, the Definition it runs, from "
             "rt.definition(...), e.g. rt.machine(rt.definition(named='progressCard'))"),
        ]
        for call, message in cases:
            with pytest.raises(TypeError) as caught:
                call()
            assert isinstance(caught.value, animrt.ArgumentTypeError)
            assert str(caught.value) == message
        assert rt.time == 0 and layer["opacity"] == 1 and layer.animation_keys() == [] and len(rt._machines) == 0
        # Given by name, or in order, each is taken as before; help() still shows the signature.
        rt.tick(now=0.5)
        layer.set_value("opacity", value=0.25)
        layer.set_value(key_path="opacity", value=0.5)
        assert rt.time == 0.5 and layer["opacity"] == 0.5
        assert str(inspect.signature(rt.tick)) == "(now: 'float') -> 'None'"


def test_a_config_value_the_definition_refuses_names_the_parameter_once():
    """rt.machine(card, config={"width": -5}) said "config.width: 'width' is -5": the parameter named
    twice, as a path and again. Each refusal of a value (below the minimum, above the maximum, not one
    of the choices, of another type) names it once, and no machine is made (R0.3, R3.1)."""
    definition = {"name": "panel", "events": {"tap": {}}, "initial": "a", "states": {"a": {}},
                  "config": {"width": {"type": "number", "default": 100, "min": 1, "max": 4096},
                             "lang": {"type": "string", "default": "en", "oneOf": ["en", "zh"]}}}
    with animrt.Runtime() as rt:
        panel = rt.definition(definition)
        for config, error, message in [
                ({"width": 0.5}, animrt.RangeError, "config 'width' is 0.5; the minimum is 1"),
                ({"width": 5000}, animrt.RangeError, "config 'width' is 5000; the maximum is 4096"),
                ({"lang": "fr"}, animrt.RangeError, "config 'lang' is 'fr'; it must be one of 'en', 'zh'"),
                ({"width": "wide"}, animrt.KindError, "config 'width' is a number; a string was given")]:
            with pytest.raises(error) as caught:
                rt.machine(panel, config=config)
            assert caught.value.message == "machine 'panel': " + message
        assert len(rt._machines) == 0
        assert rt.machine(panel, config={"width": 4096, "lang": "zh"}).state == "a"


def test_the_payload_fields_of_a_name_the_machine_sends_say_what_it_is_and_where_its_payload_is():
    """definition.payload_fields('fetchProgress'), a request the machine makes, listed the events alone, as
    for a misspelling: the refusal says what the name is (a request, or an event the machine emits), its
    payload's fields and where the host reads them, and for a request how the host answers it (R5.2)."""
    loader = {"name": "loader", "initial": "idle",
              "requests": {"load": {"payload": [{"name": "page", "type": "number"}]}, "ping": {}},
              "events": {"loaded": {"resultOf": "load", "payload": [{"name": "rows", "type": "number"}]}},
              "emits": {"shown": {"payload": [{"name": "rows", "type": "number"}, {"name": "title", "type": "string"}]},
                        "bare": {}},
              "states": {"idle": {"entry": [{"request": "load", "payload": {"page": 1}}, {"request": "ping"}],
                                  "on": {"loaded": "idle"}}}}
    with animrt.Runtime() as rt:
        d = rt.definition(loader)
        answer = "and the host answers it by sending an event that carries the request's id, request=event.id"
        for name, said in [
                ("load", "it is a request the machine makes of the host; its payload (fields: page) is read from the "
                         "RequestIssued event, event.payload, " + answer),
                ("ping", "it is a request the machine makes of the host; its payload (no fields) is read from the "
                         "RequestIssued event, event.payload, " + answer),
                ("shown", "it is an event the machine emits for the host to read, not one it takes; its payload "
                          "(fields: rows, title) is read from the Emitted event, event.payload"),
                ("bare", "it is an event the machine emits for the host to read, not one it takes; its payload "
                         "(no fields) is read from the Emitted event, event.payload")]:
            with pytest.raises(animrt.NotFoundError) as caught:
                d.payload_fields(name)
            assert str(caught.value) == f"'loader' has no event named {name!r}: {said}"
        assert d.payload_fields("loaded") == ("request", "rows")
        with pytest.raises(animrt.NotFoundError) as caught:  # any other name: the closest event, as before
            d.payload_fields("loade")
        assert str(caught.value) == "'loader' has no event named 'loade'; did you mean 'loaded'?"
        m = rt.machine(d)
        rt.tick(0)
        issued = [e for e in rt.events() if isinstance(e, animrt.RequestIssued)]
        assert [(e.name, e.payload) for e in issued] == [("load", {"page": 1.0}), ("ping", {})]  # where the message says
        assert m.send("loaded", request=issued[0].id, rows=3) is animrt.SendOutcome.TAKEN


def test_remove_animation_given_the_attached_handle_says_how_it_is_removed():
    with animrt.Runtime() as rt:
        layer = rt.layer()
        keyed = layer.add_animation(rt.basic("opacity", to=0.0, duration=1.0), key="fade")
        anonymous = layer.add_animation(rt.basic("position.x", to=5.0, duration=1.0))
        with pytest.raises(animrt.ArgumentTypeError, match=r"; it must be a str: layer\.remove_animation\('fade'\) "
                           r"removes it$"):
            layer.remove_animation(keyed)  # type: ignore[arg-type]
        with pytest.raises(animrt.ArgumentTypeError, match=r"added without a key, and such an animation is removed "
                           r"only with the layer's others, by remove_all_animations\(\)"):
            layer.remove_animation(anonymous)  # type: ignore[arg-type]
        rt.tick(0)
        assert layer.animation_keys() == ["fade"]  # nothing was removed
        assert [type(e).__name__ for e in rt.events()] == ["AnimationStarted", "AnimationStarted"]
