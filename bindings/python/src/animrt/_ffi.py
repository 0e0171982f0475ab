"""The C functions of libanimrt, declared once.

Every function in include/animrt.h appears in FUNCTIONS with its argument
and result types; tests/test_header.py checks the table against the header,
so the two cannot drift. Functions returning animrt_status get an errcheck
that raises the matching exception with the library's message.
"""
from __future__ import annotations

import ctypes
import os
from ctypes import (CFUNCTYPE, POINTER, Structure, c_char_p, c_double, c_int, c_int32, c_int64, c_size_t, c_uint32,
                    c_uint64, c_void_p)
from typing import Any, Dict, Iterator, List, Tuple

from . import _callbacks, _object
from ._errors import AnimrtError, InvalidArgumentError, error_for

VERSION_MAJOR, VERSION_MINOR, VERSION_PATCH = 0, 3, 0
VERSION_NUMBER = VERSION_MAJOR * 10000 + VERSION_MINOR * 100 + VERSION_PATCH


class Value(Structure):
    """animrt_value: a tagged value (a machine event's payload field, a context field)."""
    _fields_ = [("type", c_int32), ("boolean", c_int32), ("number", c_double), ("integer", c_int64),
                ("string", c_char_p), ("pointer", c_void_p)]


class Event(Structure):
    """animrt_event, as the C library fills it."""
    _fields_ = [("type", c_int32), ("reason", c_int32), ("time", c_double), ("layer", c_uint64),
                ("object", c_uint64), ("animation", c_uint64), ("token", c_uint64), ("name", c_int32),
                ("from_state", c_int32), ("to_state", c_int32), ("payload_count", c_uint32),
                ("payload", POINTER(Value))]


EVENT_FN = CFUNCTYPE(None, c_void_p, POINTER(Event))
#: animrt_curve_fn: eased progress of x, the parameters, user data
CURVE_FN = CFUNCTYPE(c_double, c_double, POINTER(c_double), c_void_p)
#: animrt_curve_block_fn: x, y, count, the parameters, user data (writes y[i] for each x[i])
CURVE_BLOCK_FN = CFUNCTYPE(None, POINTER(c_double), POINTER(c_double), c_size_t, POINTER(c_double), c_void_p)
#: animrt_function_fn: user data, arguments, their count, the result; returns a status
FUNCTION_FN = CFUNCTYPE(c_int32, c_void_p, POINTER(Value), c_size_t, POINTER(Value))


class ComputedTiming(Structure):
    """animrt_computed_timing."""
    _fields_ = [("phase", c_int32), ("in_effect", c_int32), ("local_time", c_double), ("active_time", c_double),
                ("active_duration", c_double), ("end_time", c_double), ("current_iteration", c_double),
                ("progress", c_double)]

class Column(Structure):
    """animrt_column: one per-animation column of animrt_layer_add_animations."""
    _fields_ = [("field", c_int), ("values", POINTER(c_double))]


status = c_int32
runtime_p = c_void_p
id_t = c_uint64
keypath_t = c_int32
enum_t = c_int

#: name -> (restype, argtypes); `status` results are checked.
FUNCTIONS: Dict[str, Tuple[Any, List[Any]]] = {
    "animrt_version": (c_uint32, []),
    "animrt_version_string": (c_char_p, []),
    "animrt_status_name": (c_char_p, [status]),
    "animrt_last_error_message": (c_char_p, []),
    "animrt_event_type_name": (c_char_p, [c_int32]),
    "animrt_stop_reason_name": (c_char_p, [c_int32]),
    "animrt_runtime_create": (status, [c_uint32, POINTER(runtime_p)]),
    "animrt_runtime_destroy": (None, [runtime_p]),
    "animrt_runtime_tick": (status, [runtime_p, c_double]),
    "animrt_runtime_time": (status, [runtime_p, POINTER(c_double)]),
    "animrt_runtime_set_threads": (status, [runtime_p, c_uint32]),
    "animrt_keypath_id": (status, [runtime_p, c_char_p, POINTER(keypath_t)]),
    "animrt_keypath_info": (status, [runtime_p, keypath_t, POINTER(enum_t), POINTER(c_size_t)]),
    "animrt_property_define": (status, [runtime_p, c_char_p, enum_t, POINTER(c_double), c_size_t]),
    "animrt_layer_create": (status, [runtime_p, id_t, POINTER(id_t)]),
    "animrt_layer_create_many": (status, [runtime_p, id_t, c_size_t, POINTER(id_t)]),
    "animrt_layer_destroy": (status, [runtime_p, id_t]),
    "animrt_layer_set_parent": (status, [runtime_p, id_t, id_t]),
    "animrt_layer_set_timing": (status, [runtime_p, id_t, c_double, c_double, c_double]),
    "animrt_layer_set_timing_param": (status, [runtime_p, id_t, enum_t, c_double]),
    "animrt_layer_get_timing_param": (status, [runtime_p, id_t, enum_t, POINTER(c_double)]),
    "animrt_layer_set_fill_mode": (status, [runtime_p, id_t, enum_t]),
    "animrt_layer_set_direction": (status, [runtime_p, id_t, enum_t]),
    "animrt_layer_set_autoreverses": (status, [runtime_p, id_t, c_int]),
    "animrt_layer_convert_time": (status, [runtime_p, c_double, id_t, id_t, POINTER(c_double)]),
    "animrt_layer_set_value": (status, [runtime_p, id_t, keypath_t, POINTER(c_double), c_size_t]),
    "animrt_layer_set_values": (status, [runtime_p, POINTER(id_t), c_size_t, keypath_t, POINTER(c_double), c_size_t]),
    "animrt_layer_get_value": (status, [runtime_p, id_t, keypath_t, POINTER(c_double), c_size_t, POINTER(c_size_t)]),
    "animrt_layer_get_presentation": (status, [runtime_p, id_t, keypath_t, POINTER(c_double), c_size_t,
                                               POINTER(c_size_t)]),
    "animrt_reader_create": (status, [runtime_p, POINTER(id_t), POINTER(keypath_t), c_size_t, POINTER(id_t)]),
    "animrt_reader_read": (status, [runtime_p, id_t, POINTER(c_double), c_size_t, POINTER(c_size_t)]),
    "animrt_reader_destroy": (status, [runtime_p, id_t]),
    "animrt_animation_create": (status, [runtime_p, enum_t, c_char_p, POINTER(id_t)]),
    "animrt_animation_destroy": (status, [runtime_p, id_t]),
    "animrt_animation_set_timing": (status, [runtime_p, id_t, enum_t, c_double]),
    "animrt_animation_get_timing": (status, [runtime_p, id_t, enum_t, POINTER(c_double)]),
    "animrt_animation_set_flag": (status, [runtime_p, id_t, enum_t, c_int]),
    "animrt_animation_set_fill_mode": (status, [runtime_p, id_t, enum_t]),
    "animrt_animation_set_direction": (status, [runtime_p, id_t, enum_t]),
    "animrt_animation_set_timing_function": (status, [runtime_p, id_t, c_char_p]),
    "animrt_animation_set_cubic_bezier": (status, [runtime_p, id_t, c_double, c_double, c_double, c_double]),
    "animrt_animation_set_value": (status, [runtime_p, id_t, enum_t, POINTER(c_double), c_size_t]),
    "animrt_animation_set_spring": (status, [runtime_p, id_t, c_double, c_double, c_double, c_double]),
    "animrt_animation_get_settling_duration": (status, [runtime_p, id_t, POINTER(c_double)]),
    "animrt_animation_set_spring_response": (status, [runtime_p, id_t, c_double, c_double]),
    "animrt_animation_set_spring_perceptual": (status, [runtime_p, id_t, c_double, c_double]),
    "animrt_animation_get_spring_param": (status, [runtime_p, id_t, enum_t, POINTER(c_double)]),
    "animrt_animation_set_decay": (status, [runtime_p, id_t, c_double, c_double]),
    "animrt_animation_get_decay": (status, [runtime_p, id_t, POINTER(c_double), POINTER(c_double)]),
    "animrt_keyframe_set_values": (status, [runtime_p, id_t, POINTER(c_double), c_size_t, c_size_t]),
    "animrt_keyframe_set_key_times": (status, [runtime_p, id_t, POINTER(c_double), c_size_t]),
    "animrt_keyframe_set_timing_functions": (status, [runtime_p, id_t, POINTER(c_char_p), c_size_t]),
    "animrt_keyframe_set_calculation_mode": (status, [runtime_p, id_t, enum_t]),
    "animrt_keyframe_set_spline": (status, [runtime_p, id_t, POINTER(c_double), POINTER(c_double),
                                            POINTER(c_double), c_size_t]),
    "animrt_keyframe_set_path": (status, [runtime_p, id_t, POINTER(c_int32), c_size_t, POINTER(c_double), c_size_t]),
    "animrt_keyframe_get_path": (status, [runtime_p, id_t, POINTER(c_int32), c_size_t, POINTER(c_size_t),
                                          POINTER(c_double), c_size_t, POINTER(c_size_t)]),
    "animrt_keyframe_set_rotation_mode": (status, [runtime_p, id_t, enum_t]),
    "animrt_keyframe_get_rotation_mode": (status, [runtime_p, id_t, POINTER(enum_t)]),
    "animrt_group_add": (status, [runtime_p, id_t, id_t]),
    "animrt_group_get_count": (status, [runtime_p, id_t, POINTER(c_size_t)]),
    "animrt_group_get_child": (status, [runtime_p, id_t, c_size_t, POINTER(id_t)]),
    "animrt_layer_add_animation": (status, [runtime_p, id_t, id_t, c_char_p, id_t, POINTER(id_t)]),
    "animrt_layer_add_animations": (status, [runtime_p, id_t, POINTER(id_t), c_size_t, POINTER(Column), c_size_t,
                                             c_char_p, id_t, POINTER(id_t)]),
    "animrt_layer_remove_animation": (status, [runtime_p, id_t, c_char_p, POINTER(c_int)]),
    "animrt_layer_remove_all_animations": (status, [runtime_p, id_t]),
    "animrt_layer_animation_count": (status, [runtime_p, id_t, POINTER(c_size_t)]),
    "animrt_layer_animation_key": (status, [runtime_p, id_t, c_size_t, c_char_p, c_size_t, POINTER(c_size_t)]),
    "animrt_layer_animation_for_key": (status, [runtime_p, id_t, c_char_p, POINTER(id_t)]),
    "animrt_animation_get_kind": (status, [runtime_p, id_t, POINTER(enum_t)]),
    "animrt_animation_get_key_path": (status, [runtime_p, id_t, c_char_p, c_size_t, POINTER(c_size_t)]),
    "animrt_animation_get_flag": (status, [runtime_p, id_t, enum_t, POINTER(c_int)]),
    "animrt_animation_get_fill_mode": (status, [runtime_p, id_t, POINTER(enum_t)]),
    "animrt_animation_get_direction": (status, [runtime_p, id_t, POINTER(enum_t)]),
    "animrt_animation_get_timing_function": (status, [runtime_p, id_t, c_char_p, c_size_t, POINTER(c_size_t)]),
    "animrt_animation_get_value": (status, [runtime_p, id_t, enum_t, POINTER(c_double), c_size_t, POINTER(c_size_t)]),
    "animrt_keyframe_get_values": (status, [runtime_p, id_t, POINTER(c_double), c_size_t, POINTER(c_size_t)]),
    "animrt_keyframe_get_key_times": (status, [runtime_p, id_t, POINTER(c_double), c_size_t, POINTER(c_size_t)]),
    "animrt_animation_get_computed_timing": (status, [runtime_p, id_t, POINTER(ComputedTiming)]),
    "animrt_animation_get_lifecycle": (status, [runtime_p, id_t, POINTER(c_int32)]),
    "animrt_animation_get_velocity": (status, [runtime_p, id_t, c_char_p, POINTER(c_double), c_size_t,
                                               POINTER(c_size_t)]),
    "animrt_animation_retarget": (status, [runtime_p, id_t, POINTER(c_double), c_size_t]),
    "animrt_barrier_create": (status, [runtime_p, POINTER(id_t)]),
    "animrt_barrier_destroy": (status, [runtime_p, id_t]),
    "animrt_barrier_enter": (status, [runtime_p, id_t]),
    "animrt_barrier_leave": (status, [runtime_p, id_t]),
    "animrt_barrier_notify": (status, [runtime_p, id_t, c_uint64]),
    "animrt_barrier_count": (status, [runtime_p, id_t, POINTER(c_size_t)]),
    "animrt_transaction_begin": (status, [runtime_p, c_double]),
    "animrt_transaction_commit": (status, [runtime_p, c_uint64]),
    "animrt_transaction_current": (status, [runtime_p, POINTER(id_t)]),
    "animrt_timer_start": (status, [runtime_p, c_double, c_uint64, POINTER(id_t)]),
    "animrt_timer_cancel": (status, [runtime_p, id_t]),
    "animrt_timer_pending": (status, [runtime_p, id_t, POINTER(c_int)]),
    "animrt_event_poll": (status, [runtime_p, POINTER(Event), c_size_t, POINTER(c_size_t)]),
    "animrt_event_set_callback": (status, [runtime_p, EVENT_FN, c_void_p]),
    "animrt_timing_function_evaluate": (status, [runtime_p, c_char_p, c_double, POINTER(c_double)]),
    "animrt_error_set": (status, [status, c_char_p]),
    "animrt_timing_function_register": (status, [runtime_p, c_char_p, CURVE_FN, c_void_p, c_size_t, POINTER(c_double),
                                                 POINTER(c_double), POINTER(c_double)]),
    "animrt_timing_function_register_block": (status, [runtime_p, c_char_p, CURVE_BLOCK_FN, c_void_p, c_size_t,
                                                       POINTER(c_double), POINTER(c_double), POINTER(c_double)]),
    "animrt_function_register": (status, [runtime_p, c_char_p, c_char_p, FUNCTION_FN, c_void_p]),
    "animrt_function_bind": (status, [runtime_p, c_char_p, c_char_p, c_char_p, c_char_p]),
    "animrt_timing_function_bind": (status, [runtime_p, c_char_p, c_char_p, c_char_p, c_char_p]),
    "animrt_function_call": (status, [runtime_p, c_char_p, POINTER(Value), c_size_t, POINTER(Value), c_char_p, c_size_t,
                                      POINTER(c_size_t)]),
    "animrt_plugin_load": (status, [runtime_p, c_char_p, POINTER(id_t)]),
    "animrt_plugin_unload": (status, [runtime_p, id_t]),
    "animrt_plugin_name": (status, [runtime_p, id_t, c_char_p, c_size_t, POINTER(c_size_t)]),
    "animrt_plugin_version": (status, [runtime_p, id_t, c_char_p, c_size_t, POINTER(c_size_t)]),
    "animrt_definition_load": (status, [runtime_p, c_char_p, POINTER(id_t)]),
    "animrt_definition_load_file": (status, [runtime_p, c_char_p, POINTER(id_t)]),
    "animrt_definition_load_named": (status, [runtime_p, c_char_p, POINTER(id_t)]),
    "animrt_definition_register": (status, [runtime_p, c_char_p, c_char_p]),
    "animrt_definition_destroy": (status, [runtime_p, id_t]),
    "animrt_definition_id": (status, [runtime_p, id_t, enum_t, c_char_p, POINTER(c_int32)]),
    "animrt_definition_name": (status, [runtime_p, id_t, enum_t, c_int32, c_char_p, c_size_t, POINTER(c_size_t)]),
    "animrt_definition_count": (status, [runtime_p, id_t, enum_t, POINTER(c_size_t)]),
    "animrt_definition_field_count": (status, [runtime_p, id_t, enum_t, c_int32, POINTER(c_size_t)]),
    "animrt_definition_field_name": (status, [runtime_p, id_t, enum_t, c_int32, c_size_t, c_char_p, c_size_t,
                                              POINTER(c_size_t)]),
    "animrt_definition_export": (status, [runtime_p, id_t, enum_t, c_char_p, c_size_t, POINTER(c_size_t)]),
    "animrt_machine_create": (status, [runtime_p, id_t, id_t, c_char_p, POINTER(id_t)]),
    "animrt_machine_destroy": (status, [runtime_p, id_t]),
    "animrt_machine_send": (status, [runtime_p, id_t, c_int32, POINTER(Value), c_size_t, POINTER(enum_t)]),
    "animrt_machine_send_json": (status, [runtime_p, id_t, c_char_p, c_char_p, POINTER(enum_t)]),
    "animrt_machine_state": (status, [runtime_p, id_t, POINTER(c_int32)]),
    "animrt_machine_in_state": (status, [runtime_p, id_t, c_int32, POINTER(c_int)]),
    "animrt_machine_get": (status, [runtime_p, id_t, c_int32, POINTER(Value), c_char_p, c_size_t, POINTER(c_size_t)]),
    "animrt_machine_part": (status, [runtime_p, id_t, c_char_p, POINTER(id_t)]),
    "animrt_machine_snapshot": (status, [runtime_p, id_t, c_char_p, c_size_t, POINTER(c_size_t)]),
    "animrt_machine_restore": (status, [runtime_p, c_char_p, id_t, POINTER(id_t)]),
    "animrt_machine_part_count": (status, [runtime_p, id_t, c_char_p, POINTER(c_size_t)]),
    "animrt_trace_start": (status, [runtime_p, c_char_p]),
    "animrt_trace_stop": (status, [runtime_p]),
    "animrt_trace_replay": (status, [runtime_p, c_char_p, POINTER(c_size_t)]),
}


class LibraryNotFound(OSError):
    """libanimrt.so could not be located or loaded; the message says where it looked and what to do.

    >>> import animrt    # with ANIMRT_LIBRARY=/nowhere: LibraryNotFound: libanimrt.so not found: run `make lib` ...
    """


def _candidates() -> Iterator[str]:
    env = os.environ.get("ANIMRT_LIBRARY")
    if env:
        yield env
        return
    here = os.path.dirname(os.path.abspath(__file__))
    yield os.path.join(here, "libanimrt.so")
    # The build tree, when the package runs from a source checkout.
    root = here
    for _ in range(5):
        root = os.path.dirname(root)
        yield os.path.join(root, ".build", "release", "libanimrt.so")


def _load() -> ctypes.CDLL:
    tried = []
    for path in _candidates():
        tried.append(path)
        if os.path.exists(path):
            try:
                return ctypes.CDLL(path)
            except OSError as e:
                raise LibraryNotFound(f"cannot load {path}: {e}") from e
    raise LibraryNotFound("libanimrt.so not found: run `make lib` in the animrt checkout (then `pip install "
                          "./bindings/python` bundles it), or set ANIMRT_LIBRARY to its path; looked in: "
                          + ", ".join(tried))


lib: Any = _load()


#: Functions whose status is their caller's to interpret, not an error of the call.
UNCHECKED = {"animrt_error_set"}


#: The calls inside which the library runs the program's callables (timing functions, functions):
#: only these take the exceptions those raised (each call those of its own thread's call: see
#: `_callbacks`), so that a read returning in between does not raise them.
RUNS_CALLABLES = frozenset({
    "animrt_runtime_tick", "animrt_function_call", "animrt_timing_function_evaluate", "animrt_runtime_destroy",
    "animrt_animation_get_velocity", "animrt_animation_get_computed_timing", "animrt_animation_retarget",
    "animrt_trace_replay"})
RUNS_CALLABLES_PREFIXES = ("animrt_machine_", "animrt_definition_")


def _runs_callables(func: Any) -> bool:
    name = getattr(func, "__name__", "")
    return name in RUNS_CALLABLES or name.startswith(RUNS_CALLABLES_PREFIXES)


def _errcheck(result: int, func: Any, args: Any) -> int:
    if _object.deferred:  # finalizers' destroys the library could not take during a call
        _object.flush_deferred()
    # A Python callable that raised inside this call: its exception is the error.
    if _callbacks.pending and args and _runs_callables(func):
        raised = _callbacks.take(args[0])
        if raised is not None:
            if isinstance(raised, AnimrtError) and result not in (0, raised.status):
                message = lib.animrt_last_error_message().decode("utf-8", "replace")
                raised.message += f"; the call then failed: {message}"
                raised.args = (raised.message,)
            raise raised
    if result != 0:
        message = lib.animrt_last_error_message().decode("utf-8", "replace")
        name = getattr(func, "__name__", "")
        raise error_for(result, message, json_names=name.startswith(("animrt_definition_", "animrt_machine_")))
    return result


class _Text(c_char_p):
    """A `const char *` argument. Bytes with a NUL in them are refused: C reads a string up to its
    first NUL, so what followed would be lost without a word."""

    @classmethod
    def from_param(cls, value: Any) -> Any:
        if isinstance(value, bytes) and b"\0" in value:
            shown = value.decode("utf-8", "replace")
            raise InvalidArgumentError(f"the text {shown[:60]!r} has a NUL character (at {value.index(0)}): C strings "
                                       "end there, so what follows it would be lost")
        return c_char_p.from_param(value)


# The version first: a library of another version may lack functions this binding declares.
lib.animrt_version.restype, lib.animrt_version.argtypes = c_uint32, []
lib.animrt_version_string.restype, lib.animrt_version_string.argtypes = c_char_p, []
if lib.animrt_version() != VERSION_NUMBER:
    raise LibraryNotFound(f"libanimrt {lib.animrt_version_string().decode()} at {lib._name} does not match this "
                          f"binding ({VERSION_MAJOR}.{VERSION_MINOR}.{VERSION_PATCH}): rebuild it (`make lib`) or "
                          "point ANIMRT_LIBRARY at a matching one")

#: The same functions without the errcheck, as `fn.unchecked`: `Native.call` checks the status
#: itself, and calls `_errcheck` only when there is something to do (a failure, a callable's error,
#: a deferred destroy), cheaper than ctypes calling back into Python after every call.
_unchecked = ctypes.CDLL(lib._name)

for _name, (_restype, _argtypes) in FUNCTIONS.items():
    _f = getattr(lib, _name)
    _f.restype = _restype
    _f.argtypes = [_Text if a is c_char_p else a for a in _argtypes]
    if _restype is status and _name not in UNCHECKED:
        _f.errcheck = _errcheck
        _u = getattr(_unchecked, _name)
        _u.restype, _u.argtypes = _restype, _f.argtypes
        _f.unchecked = _u
_object.errcheck = _errcheck
