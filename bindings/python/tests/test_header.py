"""The ctypes declarations and enums cannot drift from include/animrt.h."""
import ctypes
import os
import re
from ctypes import POINTER, c_char_p, c_double, c_int, c_int32, c_size_t, c_uint32, c_uint64, c_void_p

import pytest

import animrt
from animrt import _ffi

HEADER = os.path.join(os.path.dirname(__file__), "..", "..", "..", "include", "animrt.h")
with open(HEADER, encoding="utf-8") as header:
    TEXT = header.read()

ENUM_TYPES = {"animrt_value_kind", "animrt_animation_kind", "animrt_timing_param", "animrt_flag",
              "animrt_calculation_mode", "animrt_direction", "animrt_export_format", "animrt_fill_mode",
              "animrt_name_kind", "animrt_phase", "animrt_lifecycle", "animrt_rotation_mode", "animrt_send_outcome",
              "animrt_spring_param", "animrt_value_slot", "animrt_column_field"}
SCALARS = {"animrt_status": c_int32, "uint32_t": c_uint32, "uint64_t": c_uint64, "animrt_id": c_uint64,
           "animrt_keypath": c_int32, "double": c_double, "size_t": c_size_t, "int": c_int, "int32_t": c_int32,
           "animrt_runtime *": c_void_p, "void *": c_void_p, "const char *": c_char_p, "char *": c_char_p,
           "const char *const *": POINTER(c_char_p), "animrt_event_fn": _ffi.EVENT_FN,
           "animrt_event *": POINTER(_ffi.Event), "animrt_value *": POINTER(_ffi.Value),
           "const animrt_value *": POINTER(_ffi.Value),
           "animrt_computed_timing *": POINTER(_ffi.ComputedTiming), "animrt_column": _ffi.Column, "void": None,
           "animrt_curve_fn": _ffi.CURVE_FN, "animrt_curve_block_fn": _ffi.CURVE_BLOCK_FN,
           "animrt_function_fn": _ffi.FUNCTION_FN}


def ctype(c: str):
    c = re.sub(r"\s+", " ", c.strip()).replace(" *", " *").replace("* ", "*")
    c = re.sub(r"\s*\*", " *", c).replace("* *", "**").strip()
    if c in SCALARS:
        return SCALARS[c]
    if c in ENUM_TYPES:
        return c_int
    if c.endswith("*"):
        inner = c[:-1].strip()
        if inner.startswith("const "):
            inner = inner[len("const "):]
        return POINTER(ctype(inner))
    raise AssertionError(f"no ctypes mapping for C type {c!r}")


def prototypes():
    body = re.sub(r"/\*.*?\*/", "", TEXT, flags=re.S)
    body = re.sub(r"typedef\s+void\s*\(\*animrt_event_fn\)\([^)]*\);", "", body)
    for m in re.finditer(r"([A-Za-z_][\w \*]*?)\s*\b(animrt_\w+)\s*\(([^)]*)\)\s*;", body):
        ret, name, params = m.group(1), m.group(2), m.group(3).strip()
        args = []
        if params != "void":
            for p in params.split(","):
                p = p.strip()
                pm = re.match(r"(.*?)(\w+)$", p)
                args.append(pm.group(1))
        yield name, ret, args


def test_every_header_function_is_declared_with_the_same_types():
    seen = set()
    for name, ret, args in prototypes():
        seen.add(name)
        assert name in _ffi.FUNCTIONS, f"{name} is in the header but not in _ffi.FUNCTIONS"
        restype, argtypes = _ffi.FUNCTIONS[name]
        assert restype is ctype(ret), f"{name}: result {ret!r}"
        assert len(argtypes) == len(args), f"{name}: {len(args)} parameters in the header"
        for i, (mine, theirs) in enumerate(zip(argtypes, args)):
            assert mine is ctype(theirs), f"{name} parameter {i}: header {theirs!r}, binding {mine}"
    assert seen == set(_ffi.FUNCTIONS), f"only in the binding: {set(_ffi.FUNCTIONS) - seen}"
    assert len(seen) == 132


def header_enums():
    """Every enumeration of the header: type name -> {constant: value}. The
    anonymous enum of status codes is named after its typedef."""
    body = re.sub(r"/\*.*?\*/", "", TEXT, flags=re.S)
    enums = {}
    for m in re.finditer(r"(typedef\s+)?enum\s*(\w*)\s*\{([^}]*)\}\s*(\w*)\s*;", body):
        name = m.group(2) or m.group(4) or "animrt_status"
        members = {}
        for item in m.group(3).split(","):
            constant, _, value = item.partition("=")
            assert value.strip(), f"{name}: {item.strip()!r} has no explicit value"
            members[constant.strip()] = int(value)
        enums[name] = members
    return enums


def _animation_classes():
    pending, seen = [animrt.Animation], []
    while pending:
        cls = pending.pop()
        pending.extend(cls.__subclasses__())
        if not cls.__name__.startswith("_") and cls is not animrt.Animation:
            seen.append(cls)
    return seen


def binding_tables():
    """Every table of the binding that numbers a header enumeration, as {constant: value}."""
    from animrt import _animation, _bulk, _errors, _events, _machine
    enum = lambda prefix, e: {prefix + m.name: int(m) for m in e}  # noqa: E731
    # _machine's module constants: _STATE → ANIMRT_NAME_STATE, _DOT → ANIMRT_EXPORT_DOT, …
    private = lambda prefix, names: {prefix + n: getattr(_machine, "_" + n) for n in names}  # noqa: E731
    return {
        "animrt_status": {"ANIMRT_OK": 0, **{cls.name: status for status, cls in _errors.BY_STATUS.items()}},
        "animrt_value_kind": enum("ANIMRT_VALUE_", animrt.ValueKind),
        "animrt_fill_mode": enum("ANIMRT_FILL_", animrt.FillMode),
        "animrt_direction": enum("ANIMRT_DIRECTION_", animrt.Direction),
        "animrt_calculation_mode": enum("ANIMRT_CALC_", animrt.CalculationMode),
        "animrt_stop_reason": enum("ANIMRT_STOP_", animrt.StopReason),
        "animrt_timing_param": {"ANIMRT_TIMING_" + k.upper(): v for k, v in _animation._TIMING.items()},
        "animrt_flag": {"ANIMRT_FLAG_" + k.upper(): v for k, v in _animation._FLAGS.items()},
        "animrt_value_slot": {**{"ANIMRT_" + k.rstrip("_").upper(): v for k, v in _animation._SLOTS.items()},
                              "ANIMRT_VELOCITY": _animation._VELOCITY},
        "animrt_spring_param": {"ANIMRT_SPRING_" + k.upper(): v for k, v in _animation._SPRING_PARAMS.items()},
        # path commands by their long names; the one-letter aliases must agree with them
        "animrt_path_command": {"ANIMRT_PATH_" + k.upper(): v[0]
                                for k, v in animrt.KeyframeAnimation._COMMANDS.items() if len(k) > 1},
        "animrt_rotation_mode": enum("ANIMRT_ROTATE_", animrt.RotationMode),
        "animrt_phase": enum("ANIMRT_PHASE_", animrt.Phase),
        "animrt_lifecycle": enum("ANIMRT_LIFECYCLE_", animrt.Lifecycle),
        # BasicAnimation -> ANIMRT_ANIMATION_BASIC, AnimationGroup -> ANIMRT_ANIMATION_GROUP
        "animrt_animation_kind": {"ANIMRT_ANIMATION_" + c.__name__.replace("Animation", "").upper(): c._kind
                                  for c in _animation_classes()},
        "animrt_event_type": {"ANIMRT_EVENT_" + k: v for k, v in vars(_events).items()
                              if k.isupper() and type(v) is int},
        "animrt_send_outcome": enum("ANIMRT_SEND_", animrt.SendOutcome),
        "animrt_name_kind": private("ANIMRT_NAME_", ["STATE", "EVENT", "CONTEXT", "EMIT", "REQUEST", "PART", "CONFIG"]),
        "animrt_export_format": private("ANIMRT_EXPORT_", ["DOT", "MARKDOWN"]),
        "animrt_value_type": private("ANIMRT_TYPE_", ["NUMBER", "BOOL", "STRING", "INTEGER", "POINTER"]),
        # add_animations(columns=…): "from_" -> ANIMRT_COLUMN_FROM, "begin_time" -> ANIMRT_COLUMN_BEGIN_TIME
        "animrt_column_field": {"ANIMRT_COLUMN_" + k.rstrip("_").upper(): v for k, v in _bulk.COLUMNS.items()},
    }


# Header enumerations (or single constants) the binding does not use, and
# why. A new enumeration in the header fails
# test_every_header_enum_is_in_the_binding until it is added to
# binding_tables() or here.
NOT_IN_THE_BINDING: dict = {}
CONSTANTS_NOT_IN_THE_BINDING: set = set()


def test_every_header_enum_is_in_the_binding():
    header, tables = header_enums(), binding_tables()
    assert len(header) >= 15
    missing = set(header) - set(tables) - set(NOT_IN_THE_BINDING)
    assert not missing, f"header enumerations the binding neither maps nor lists in NOT_IN_THE_BINDING: {missing}"
    assert set(tables) <= set(header), f"binding tables without a header enumeration: {set(tables) - set(header)}"
    assert not set(NOT_IN_THE_BINDING) & set(tables), "an enumeration is both mapped and listed as not mapped"


@pytest.mark.parametrize("name", sorted(binding_tables()))
def test_binding_tables_match_the_header_both_ways(name):
    header = {k: v for k, v in header_enums()[name].items() if k not in CONSTANTS_NOT_IN_THE_BINDING}
    assert binding_tables()[name] == header


def test_path_command_letters_agree_with_the_names():
    commands = animrt.KeyframeAnimation._COMMANDS
    for letter, name in {"M": "move", "L": "line", "Q": "quad", "C": "cubic", "Z": "close"}.items():
        assert commands[letter] == commands[name]


def test_statuses_have_their_names_and_classes():
    from animrt import _errors
    for constant, value in header_enums()["animrt_status"].items():
        assert ctypes.string_at(_ffi.lib.animrt_status_name(value)).decode() == constant
        if value:
            assert _errors.BY_STATUS[value].status == value


def test_event_struct_layout_matches():
    fields = re.search(r"typedef struct animrt_event \{(.*?)\} animrt_event;", TEXT, re.S).group(1)
    names = re.findall(r"\b(\w+);", fields)
    assert [f[0] for f in _ffi.Event._fields_] == names
    assert ctypes.sizeof(_ffi.Event) == 72


def test_computed_timing_struct_layout_matches():
    fields = re.search(r"typedef struct animrt_computed_timing \{(.*?)\} animrt_computed_timing;", TEXT, re.S).group(1)
    names = re.findall(r"\b(\w+);", fields)
    assert [f[0] for f in _ffi.ComputedTiming._fields_] == names
    assert ctypes.sizeof(_ffi.ComputedTiming) == 56


def test_the_string_result_limit_matches():
    from animrt import _plugins
    assert re.findall(r"#define ANIMRT_STRING_MAX (\d+)", TEXT) == [str(_plugins.STRING_MAX)]


def test_versions_match():
    v = {k: int(x) for k, x in re.findall(r"#define ANIMRT_VERSION_(MAJOR|MINOR|PATCH) (\d+)", TEXT)}
    assert (v["MAJOR"], v["MINOR"], v["PATCH"]) == (animrt.VERSION_MAJOR, animrt.VERSION_MINOR, animrt.VERSION_PATCH)
    assert animrt.library_version() == animrt.__version__
    # the package installed by pip says the same
    with open(os.path.join(os.path.dirname(HEADER), "..", "bindings", "python", "pyproject.toml"), encoding="utf-8") as f:
        assert re.findall(r'^version = "(.*)"$', f.read(), re.M) == [animrt.__version__]


def header_members(enum_type: str) -> dict:
    """The constants of `enum_type` in the header: name → value."""
    body = re.sub(r"/\*.*?\*/", "", TEXT, flags=re.S)
    m = re.search(r"typedef\s+enum\s*\w*\s*\{([^}]*)\}\s*" + enum_type + r"\s*;", body)
    assert m, f"{enum_type} is not in the header"
    return {k.strip(): int(v) for k, v in (item.split("=") for item in m.group(1).split(",") if item.strip())}


def listed_members(message: str) -> dict:
    """The constants an ANIMRT_E_ENUM message lists: name → value."""
    return {name: int(value) for name, value in re.findall(r"\b(ANIMRT_[A-Z0-9_]+) \((\d+)\)", message)}


def enum_calls():
    """One call per enumeration a C function takes by value, with 99 as its value."""
    rt = animrt.Runtime()
    layer = rt.layer()
    basic = rt.basic("opacity", from_=0, to=1, duration=1)
    spring = rt.spring("opacity", from_=0, to=1)
    keyframe = rt.keyframe("opacity", [0, 1], duration=1)
    definition = rt.definition(named="networkButton")
    ptr, out_d, out_i, size = rt._ptr, c_double(), c_int32(), c_size_t()
    one = (c_double * 1)(0.5)
    buf = ctypes.create_string_buffer(8)
    return rt, [
        ("animrt_animation_kind", lambda: _ffi.lib.animrt_animation_create(ptr, 99, b"opacity", ctypes.byref(c_uint64()))),
        ("animrt_timing_param", lambda: _ffi.lib.animrt_animation_set_timing(ptr, basic._id, 99, 1.0)),
        ("animrt_flag", lambda: _ffi.lib.animrt_animation_set_flag(ptr, basic._id, 99, 1)),
        ("animrt_fill_mode", lambda: _ffi.lib.animrt_animation_set_fill_mode(ptr, basic._id, 99)),
        ("animrt_direction", lambda: _ffi.lib.animrt_layer_set_direction(ptr, layer._id, 99)),
        ("animrt_value_slot", lambda: _ffi.lib.animrt_animation_set_value(ptr, basic._id, 99, one, 1)),
        ("animrt_spring_param", lambda: _ffi.lib.animrt_animation_get_spring_param(ptr, spring._id, 99, ctypes.byref(out_d))),
        ("animrt_calculation_mode", lambda: _ffi.lib.animrt_keyframe_set_calculation_mode(ptr, keyframe._id, 99)),
        ("animrt_rotation_mode", lambda: _ffi.lib.animrt_keyframe_set_rotation_mode(ptr, keyframe._id, 99)),
        ("animrt_value_kind", lambda: _ffi.lib.animrt_property_define(ptr, b"custom.thing", 99, one, 1)),
        ("animrt_name_kind", lambda: _ffi.lib.animrt_definition_id(ptr, definition._id, 99, b"x", ctypes.byref(out_i))),
        ("animrt_export_format", lambda: _ffi.lib.animrt_definition_export(ptr, definition._id, 99, buf, 8, ctypes.byref(size))),
        ("animrt_column_field", lambda: _ffi.lib.animrt_layer_add_animations(ptr, basic._id, (c_uint64 * 1)(layer._id), 1,
                                                                             (_ffi.Column * 1)(_ffi.Column(99, one)), 1,
                                                                             None, 0, None)),
    ]


def test_an_unknown_enum_value_from_c_is_answered_with_the_header_constants():
    """A C caller learns the valid values from the message: every constant of
    the enumeration, spelt and numbered as the header declares it."""
    rt, calls = enum_calls()
    assert {t for t, _ in calls} == ENUM_TYPES - {"animrt_phase", "animrt_lifecycle", "animrt_send_outcome"}  # only outputs
    for enum_type, call in calls:
        with pytest.raises(animrt.EnumError) as caught:
            call()
        message = str(caught.value)
        assert f"99 is not a valid {enum_type}" in message, message
        assert listed_members(message) == header_members(enum_type), (enum_type, message)
