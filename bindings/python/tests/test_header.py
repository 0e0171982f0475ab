"""The ctypes declarations and enums cannot drift from include/animrt.h."""
import ctypes
import os
import re
from ctypes import POINTER, c_char_p, c_double, c_int, c_int32, c_size_t, c_uint32, c_uint64, c_void_p

import animrt
from animrt import _ffi

HEADER = os.path.join(os.path.dirname(__file__), "..", "..", "..", "include", "animrt.h")
TEXT = open(HEADER, encoding="utf-8").read()

ENUM_TYPES = {"animrt_value_kind", "animrt_animation_kind", "animrt_timing_param", "animrt_flag",
              "animrt_calculation_mode", "animrt_direction", "animrt_export_format", "animrt_fill_mode",
              "animrt_name_kind", "animrt_phase", "animrt_rotation_mode", "animrt_send_outcome",
              "animrt_spring_param", "animrt_value_slot"}
SCALARS = {"animrt_status": c_int32, "uint32_t": c_uint32, "uint64_t": c_uint64, "animrt_id": c_uint64,
           "animrt_keypath": c_int32, "double": c_double, "size_t": c_size_t, "int": c_int, "int32_t": c_int32,
           "animrt_runtime *": c_void_p, "void *": c_void_p, "const char *": c_char_p, "char *": c_char_p,
           "const char *const *": POINTER(c_char_p), "animrt_event_fn": _ffi.EVENT_FN,
           "animrt_event *": POINTER(_ffi.Event), "animrt_value *": POINTER(_ffi.Value),
           "const animrt_value *": POINTER(_ffi.Value),
           "animrt_computed_timing *": POINTER(_ffi.ComputedTiming), "void": None, "animrt_curve_fn": _ffi.CURVE_FN,
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
    assert len(seen) == 121


def enum_values(prefix):
    return {m.group(1): int(m.group(2)) for m in re.finditer(r"\b(" + prefix + r"\w+)\s*=\s*(\d+)", TEXT)}


def test_enums_and_statuses_match_the_header():
    for prefix, enum in [("ANIMRT_VALUE_", animrt.ValueKind), ("ANIMRT_FILL_", animrt.FillMode),
                         ("ANIMRT_DIRECTION_", animrt.Direction), ("ANIMRT_CALC_", animrt.CalculationMode),
                         ("ANIMRT_STOP_", animrt.StopReason), ("ANIMRT_PHASE_", animrt.Phase)]:
        header = enum_values(prefix)
        names = {m.name for m in enum}
        for cname, value in header.items():
            short = cname[len(prefix):]
            if short in names:
                assert enum[short] == value, cname
        assert len(header) == len(enum), prefix
    statuses = enum_values("ANIMRT_E_")
    from animrt import _errors
    for cname, value in statuses.items():
        assert _errors.BY_STATUS[value].name == cname
        assert ctypes.string_at(_ffi.lib.animrt_status_name(value)).decode() == cname
    assert enum_values("ANIMRT_EVENT_") == {"ANIMRT_EVENT_ANIMATION_STARTED": 1, "ANIMRT_EVENT_ANIMATION_STOPPED": 2,
                                            "ANIMRT_EVENT_BARRIER_NOTIFIED": 3, "ANIMRT_EVENT_TRANSACTION_COMPLETED": 4,
                                            "ANIMRT_EVENT_TIMER_FIRED": 5, "ANIMRT_EVENT_OVERFLOW": 6,
                                            "ANIMRT_EVENT_MACHINE_STATE": 7, "ANIMRT_EVENT_MACHINE_EMITTED": 8,
                                            "ANIMRT_EVENT_MACHINE_REQUEST": 9, "ANIMRT_EVENT_MACHINE_STALE": 10,
                                            "ANIMRT_EVENT_MACHINE_ERROR": 11}


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


def test_versions_match():
    v = {k: int(x) for k, x in re.findall(r"#define ANIMRT_VERSION_(MAJOR|MINOR|PATCH) (\d+)", TEXT)}
    assert (v["MAJOR"], v["MINOR"], v["PATCH"]) == (animrt.VERSION_MAJOR, animrt.VERSION_MINOR, animrt.VERSION_PATCH)
    assert animrt.library_version() == animrt.__version__
