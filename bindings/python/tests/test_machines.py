"""State machines from Python (SPEC §3, R5.2): Definition and Machine over the C calls."""
import ctypes
import gc
import json
import math
import os
import pathlib
import re
import threading
import weakref

import numpy
import pytest

import animrt
from animrt import _layer
from animrt._ffi import lib

ROOT = pathlib.Path(__file__).resolve().parents[3]
BUTTON = ROOT / "examples" / "machines" / "download_button.json"
HEADER = ROOT / "include" / "animrt.h"

CARD = {
    "name": "card",
    "context": {"progress": {"type": "number", "initial": 0}, "title": {"type": "string", "initial": "'—'"}},
    "requests": {"fetch": {}},
    "events": {"appear": {}, "hide": {},
               "fetched": {"resultOf": "fetch", "payload": [{"name": "progress", "type": "number", "min": 0, "max": 1,
                                                             "clamp": True}]}},
    "emits": {"shown": {"payload": [{"name": "title", "type": "string"}]}},
    "parts": [{"name": "ring", "properties": {"strokeEnd": 0}}],
    "initial": "hidden",
    "states": {
        "hidden": {"on": {"appear": "loading"}, "ignore": ["hide"]},
        "loading": {"entry": [{"request": "fetch"}],
                    "on": {"fetched": {"target": "ready", "actions": [
                        {"assign": {"progress": "event.progress", "title": "fixed(event.progress * 100, 0) + '%'"}},
                        {"set": "strokeEnd", "part": "ring", "value": "event.progress"}]}}},
        "ready": {"values": ["progress", "title"], "entry": [{"emit": "shown", "payload": {"title": "context.title"}}],
                  "on": {"hide": "hidden", "appear": "loading"}},
    },
}


def test_a_definition_loads_from_a_dict_text_a_file_and_by_name():
    with animrt.Runtime() as rt:
        from_dict = rt.definition(CARD)
        from_text = rt.definition(json.dumps(CARD))
        from_file = rt.definition(BUTTON)
        assert from_dict.name == from_text.name == "card"
        assert from_file.name == "downloadButton"
        assert from_dict.states == ("hidden", "loading", "ready")
        assert from_dict.events == ("appear", "fetched", "hide")
        assert from_dict.payload_fields("fetched") == ("request", "progress")
        assert from_dict.context_fields == ("progress", "title")
        assert from_dict.parts == ("ring",) and from_dict.requests == ("fetch",) and from_dict.emits == ("shown",)
        rt.register_definition("card", CARD)
        assert rt.definition(named="card").states == from_dict.states
        # The definition alone: registered under its own name, checked whole first.
        rt.register_definition(dict(CARD, name="ownName"))
        rt.register_definition(json.dumps(dict(CARD, name="ownText")))
        assert rt.definition(named="ownName").states == rt.definition(named="ownText").states == from_dict.states
        with pytest.raises(animrt.ArgumentTypeError, match=r"^rt\.register_definition\('card'\) got a name but no "
                                                           r"definition: rt\.register_definition\('card', definition\)$"):
            rt.register_definition("card")
        with pytest.raises(animrt.InvalidArgumentError, match="^definition 'half': the key 'initial' is required$"):
            rt.register_definition({"name": "half"})
        with pytest.raises(animrt.NotFoundError):
            rt.definition(named="half")  # nothing was registered
        assert '"hidden" -> "loading" [label="appear"]' in from_dict.dot()
        assert "| `hidden` | → `loading` | *refused* | *ignored* |" in from_dict.markdown()


def test_loading_errors_name_the_json_path_and_column():
    with animrt.Runtime() as rt:
        bad = dict(CARD, states={"hidden": {"on": {"appear": {"target": "ready", "guard": "context.progres > 0"}}},
                                 "ready": {}})
        with pytest.raises(animrt.NotFoundError, match=r"states\.hidden\.on\.appear\.guard: column 9: no context field "
                                                       r"named 'progres'; did you mean 'progress'\?"):
            rt.definition(bad)
        with pytest.raises(animrt.NotFoundError, match="did you mean 'card'"):
            rt.register_definition("card", CARD)
            rt.definition(named="crd")
        with pytest.raises(animrt.InvalidArgumentError, match="'my card' is not one"):
            rt.register_definition("my card", CARD)
        with pytest.raises(animrt.NotFoundError):
            rt.definition(named="my card")
        with pytest.raises(animrt.ArgumentTypeError, match="not JSON"):
            rt.definition("card.json")
        with pytest.raises(animrt.ArgumentTypeError, match="must be JSON text"):
            rt.definition(42)  # type: ignore[arg-type]
        with pytest.raises(animrt.NotFoundError, match="cannot read"):
            rt.definition(pathlib.Path("/nonexistent/card.json"))


def test_a_directory_given_as_a_definition_file_leaves_no_file_open(tmp_path):
    # the binding opens the refused file to find its name for the message: a directory opens, and
    # was never closed
    with animrt.Runtime() as rt:
        before = len(os.listdir("/proc/self/fd"))
        for _ in range(20):
            with pytest.raises(animrt.AnimrtError, match="directory"):
                rt.definition(tmp_path)
        assert len(os.listdir("/proc/self/fd")) == before


def test_a_machines_context_refuses_every_write_saying_how_it_changes():
    with animrt.Runtime() as rt:
        m = rt.machine(rt.definition(CARD))
        before = dict(m.context)
        with pytest.raises(TypeError, match=r"m.context is read-only: .*send the one that sets 'progress'"):
            del m.context["progress"]
        with pytest.raises(TypeError, match=r"m.context is read-only: .*send the one that sets 'progress'"):
            m.context.progress = 0.5
        with pytest.raises(TypeError, match=r"m.context is read-only, and 'nowhere' is not one of its fields "
                                            r"\(progress"):
            m.context["nowhere"] = 1
        assert dict(m.context) == before and not hasattr(m.context, "progress")
        with pytest.raises(TypeError, match=r"snapshot is the method machine.send; a snapshot is the JSON text"):
            rt.restore(m.send, m.definition)


def test_a_file_that_is_not_regular_is_refused_without_being_read(tmp_path):
    # docs/bad-input.md M5: a device or a pipe is refused before a read that might never end. The binding
    # looks for the definition's name in a file the library refused; it must not open a pipe (which waits
    # for a writer) or read a device (/dev/zero has no end) to find one.
    pipe = tmp_path / "card.json"
    os.mkfifo(pipe)
    errors = []

    def load():
        with animrt.Runtime() as rt:
            try:
                rt.definition(pipe)
            except animrt.AnimrtError as e:
                errors.append(e)

    loader = threading.Thread(target=load)
    loader.start()
    loader.join(10)
    if loader.is_alive():
        with open(pipe, "w"):  # a writer lets the waiting open return and the read end
            pass
        loader.join()
        pytest.fail("the binding opened the pipe the library refused, and waited for a writer")
    assert len(errors) == 1 and isinstance(errors[0], animrt.NotFoundError)
    assert str(errors[0]) == f"cannot read the definition file '{pipe}': it is not a regular file (a device, a pipe " \
                             "or a socket)"


def test_a_machine_runs_sends_reads_and_reports_with_the_programs_objects():
    with animrt.Runtime() as rt:
        card = rt.definition(CARD)
        m = rt.machine(card)
        ring = m.part("ring")
        assert m.part("ring") is ring and isinstance(ring, animrt.Layer)
        assert m.state == "hidden" and not m.in_state("ready")
        assert m.send("appear") is animrt.SendOutcome.TAKEN
        assert m.send("fetched", request=7, progress=0.5) is animrt.SendOutcome.STALE
        with pytest.raises(animrt.InvalidArgumentError, match=r"'fetched' needs its field 'request'.*its id in Python"):
            m.send("fetched", progress=0.5)  # the request's id is what a newcomer forgets
        assert m.send("fetched", {"request": 1}, progress=0.724) is animrt.SendOutcome.TAKEN  # a dict, or by name
        assert m.state == "ready" and m.in_state("ready")
        assert dict(m.context) == {"progress": 0.724, "title": "72%"}
        assert m.context["title"] == "72%"
        assert ring.value("strokeEnd") == 0.724
        rt.tick(0.0)
        events = [e for e in rt.events() if not isinstance(e, (animrt.AnimationStarted, animrt.AnimationStopped))]
        assert events == [
            animrt.StateChanged(0.0, m, None, "hidden", {}),
            animrt.StateChanged(0.0, m, "hidden", "loading", {}),
            animrt.RequestIssued(0.0, m, "fetch", 1, {}),
            animrt.StaleResult(0.0, m, "fetched", 7, {"request": 7, "progress": 0.5}),
            animrt.StateChanged(0.0, m, "loading", "ready", {"progress": 0.724, "title": "72%"}),
            animrt.Emitted(0.0, m, "shown", {"title": "72%"}),
        ]
        assert events[0].machine is m
        assert m.send("hide") is animrt.SendOutcome.TAKEN
        assert m.send("hide") is animrt.SendOutcome.IGNORED


def test_a_stale_results_request_is_the_int_id_of_the_request_it_answers():
    # R5.2: the payload's request is compared with RequestIssued.id, and used as one: the same value
    # of the same type (the library gives it as a double, as every number field)
    with animrt.Runtime() as rt:
        m = rt.machine(rt.definition(CARD))
        m.send("appear")
        rt.tick(0.0)
        (first,) = [e for e in rt.events() if isinstance(e, animrt.RequestIssued)]
        assert m.send("fetched", request=first.id, progress=0.25) is animrt.SendOutcome.TAKEN
        m.send("appear")  # ready -> loading: a second request, and the first one's id is no longer the latest
        assert m.send("fetched", request=first.id, progress=0.5) is animrt.SendOutcome.STALE
        rt.tick(0.0)
        events = rt.events()
        (second,) = [e for e in events if isinstance(e, animrt.RequestIssued)]
        (stale,) = [e for e in events if isinstance(e, animrt.StaleResult)]
        assert (first.id, second.id) == (1, 2)
        assert stale.payload == {"request": first.id, "progress": 0.5} and stale.id == first.id
        assert type(stale.payload["request"]) is type(first.id) is int and type(stale.id) is int
        assert type(stale.payload["progress"]) is float  # the other numbers stay floats
        assert repr(stale).endswith("event='fetched', id=1, payload={'request': 1, 'progress': 0.5})")


def test_refusals_and_bad_payloads_raise_and_change_nothing():
    with animrt.Runtime() as rt:
        m = rt.machine(rt.definition(CARD))
        # No request was issued yet: any request number is not the latest, so the result is stale (reported, not
        # refused: a late answer, say to the instance this one replaced, looks the same).
        assert m.send("fetched", request=1, progress=1) is animrt.SendOutcome.STALE
        rt.tick(0.0)
        assert [e for e in rt.events() if isinstance(e, animrt.StaleResult)] == [
            animrt.StaleResult(0.0, m, "fetched", 1, {"request": 1, "progress": 1.0})]
        m.send("appear")
        with pytest.raises(animrt.StateError, match=r"'hide' is not accepted in state 'loading' \(it accepts 'fetched'"):
            m.send("hide")
        with pytest.raises(animrt.KindError, match="field 'progress' of 'fetched' is a number; a string was given"):
            m.send("fetched", request=1, progress="0.5")
        with pytest.raises(animrt.NotFoundError, match="no payload field 'progres'; did you mean 'progress'"):
            m.send("fetched", request=1, progres=0.5)
        with pytest.raises(animrt.NotFoundError, match="did you mean 'appear'"):
            m.send("apear")
        with pytest.raises(animrt.ArgumentTypeError, match="a payload field is a number, a bool or a str"):
            m.send("fetched", request=1, progress=[0.5])  # type: ignore[arg-type]
        with pytest.raises(animrt.ArgumentTypeError, match=r"the payload is 0.5 \(a float\); pass its fields by "
                           r"name, m.send\('fetched', field=value\), or as a dict of them"):
            m.send("fetched", 0.5)  # type: ignore[arg-type]
        with pytest.raises(animrt.ArgumentTypeError, match="payload field 'request' is given twice"):
            m.send("fetched", {"request": 1}, request=1, progress=0.5)
        for bad in (math.nan, math.inf, -math.inf):
            with pytest.raises(animrt.InvalidArgumentError, match=f"field 'progress' of 'fetched' is {bad}; it must be a "
                               "finite number"):
                m.send("fetched", request=1, progress=bad)
        with pytest.raises(animrt.RangeError, match="field 'request' of 'fetched' is 1.5; it must be a request number"):
            m.send("fetched", request=1.5, progress=0.5)
        assert m.state == "loading"
        assert m.send("fetched", request=1, progress=1.7) is animrt.SendOutcome.TAKEN
        assert m.context["progress"] == 1.0  # clamped by the field's declaration
        with pytest.raises(animrt.NotFoundError, match="did you mean 'progress'"):
            m.context["progres"]
        # The class it raises is the package's, to catch by name.
        with pytest.raises(animrt.UnknownFieldError, match="did you mean 'progress'"):
            m.context["progres"]
        assert "UnknownFieldError" in animrt.__all__


KINDS = {"name": "kinds", "initial": "idle",
         "events": {"tap": {"payload": [{"name": "who", "type": "string"}, {"name": "on", "type": "bool", "default": False},
                                        {"name": "n", "type": "number", "default": 0}]}},
         "states": {"idle": {"on": {"tap": "done"}}, "done": {}}}


def test_a_number_json_cannot_hold_sent_to_a_text_or_bool_field_is_refused_for_its_type():
    with animrt.Runtime() as rt:
        m = rt.machine(rt.definition(KINDS))
        rt.tick(0.0)
        rt.events()
        with pytest.raises(animrt.KindError, match=r"^machine 'kinds': field 'who' of 'tap' is a string; a number "
                           r"\(nan\) was given$"):
            m.send("tap", who=math.nan)
        with pytest.raises(animrt.KindError, match=r"^machine 'kinds': field 'on' of 'tap' is a bool; a number "
                           r"\(inf\) was given$"):
            m.send("tap", {"who": "x", "on": math.inf})
        with pytest.raises(animrt.InvalidArgumentError, match=r"^machine 'kinds': field 'n' of 'tap' is -inf; it must "
                           r"be a finite number$"):
            m.send("tap", who="x", n=-math.inf)
        # The first such field in the payload's declared order is named, as the library checks them.
        with pytest.raises(animrt.KindError, match="field 'who' of 'tap' is a string; a number"):
            m.send("tap", n=math.nan, who=math.inf)
        # Names are checked before values, as for any payload.
        with pytest.raises(animrt.NotFoundError, match="'tap' has no payload field 'nope'"):
            m.send("tap", who=math.nan, nope=1)
        with pytest.raises(animrt.InvalidArgumentError, match="'tap' needs its field 'who'"):
            m.send("tap", n=math.nan)
        rt.tick(0.1)
        assert m.state == "idle" and rt.events() == []  # refused, so nothing happened
        assert m.send("tap", who="x", on=True, n=2) is animrt.SendOutcome.TAKEN


def test_a_payload_string_is_held_to_the_string_limit():
    # 1 MiB in UTF-8 bytes, as a string an expression makes: one byte more is refused and changes nothing.
    with animrt.Runtime() as rt:
        m = rt.machine(rt.definition(KINDS))
        rt.tick(0.0)
        rt.events()
        with pytest.raises(animrt.RangeError) as e:
            m.send("tap", who="é" * (1 << 19) + "x")
        assert e.value.message == ("machine 'kinds': field 'who' of 'tap' is 1048577 bytes; a payload string is at most "
                                   "1048576 bytes, as a string an expression makes is")
        rt.tick(0.1)
        assert m.state == "idle" and rt.events() == []
        assert m.send("tap", who="é" * (1 << 19)) is animrt.SendOutcome.TAKEN
        assert m.state == "done"


def test_a_message_names_the_machine_when_a_state_field_or_event_shares_its_name():
    toggle = {"name": "toggle", "initial": "off",
              "events": {"tap": {"payload": [{"name": "toggle", "type": "number", "default": 0}]}},
              "states": {"off": {"on": {"tap": "toggle"}}, "toggle": {"on": {"tap": "off"}}}}
    with animrt.Runtime() as rt:
        m = rt.machine(rt.definition(toggle))
        with pytest.raises(animrt.KindError, match=r"^machine 'toggle': field 'toggle' of 'tap' is a number; a string "
                           "was given$"):
            m.send("tap", toggle="y")
        with pytest.raises(animrt.InvalidArgumentError, match=r"^machine 'toggle': field 'toggle' of 'tap' is nan"):
            m.send("tap", toggle=math.nan)
        with pytest.raises(animrt.NotFoundError, match=r"^machine 'toggle': 'tap' has no payload field 'toggl'; did you "
                           r"mean 'toggle'\?$"):
            m.send("tap", toggl=1)
        # A message that leads with the machine's name is not named twice.
        with pytest.raises(animrt.NotFoundError, match=r"^'toggle' has no state named 'toggl'; did you mean 'toggle'\?$"):
            m.in_state("toggl")
        with pytest.raises(animrt.NotFoundError, match=r"^'toggle' has no event 'tapp'; did you mean 'tap'\?$"):
            m.send("tapp")
        bad = {**toggle, "states": {"off": {"on": {"tap": "toggle"}}}}
        with pytest.raises(animrt.NotFoundError, match=r"^definition 'toggle': states.off.on.tap: no state named 'toggle'"):
            rt.definition(bad)
        with pytest.raises(animrt.NotFoundError, match=r"^definition 'toggle': states.off.on.tap: no state named 'toggle'"):
            rt.register_definition("toggle", bad)
        # An event named as the machine: its payload's messages still say which machine.
        tap = {"name": "tap", "initial": "idle", "events": {"tap": {}}, "states": {"idle": {"on": {"tap": "idle"}}}}
        t = rt.machine(rt.definition(tap))
        with pytest.raises(animrt.NotFoundError, match=r"^machine 'tap': 'tap' has no payload field 'x': it takes no payload$"):
            t.send("tap", x=1)
        with pytest.raises(animrt.NotFoundError, match=r"^'tap' has no event 'tapp'; did you mean 'tap'\?$"):
            t.send("tapp")


def test_text_c_cannot_carry_is_refused_in_payloads_config_and_definitions():
    """A NUL would cut a string short where the host reads it back (context, events): refused, as is half a
    surrogate pair; nothing changes."""
    labelled = {"name": "labelled", "config": {"prefix": {"type": "string", "default": "#"}},
                "events": {"name": {"payload": [{"name": "text", "type": "string"}]}},
                "context": {"label": {"type": "string", "initial": "''"}}, "initial": "a",
                "states": {"a": {"on": {"name": {"actions": [{"assign": {"label": "config.prefix + event.text"}}]}}}}}
    with animrt.Runtime() as rt:
        d = rt.definition(labelled)
        m = rt.machine(d)
        with pytest.raises(animrt.InvalidArgumentError, match="^machine 'labelled': field 'text' of 'name' 'ab.x00cd' has a NUL character "
                           r"\(at 2\): C strings end there"):
            m.send("name", text="ab\x00cd")
        with pytest.raises(animrt.InvalidArgumentError, match="^machine 'labelled': field 'text' of 'name' '.udc00' is not text UTF-8 can carry"):
            m.send("name", text="\udc00")
        with pytest.raises(animrt.InvalidArgumentError, match="^machine 'labelled': config.'prefix'. 'x.x00' has a NUL character"):
            rt.machine(d, config={"prefix": "x\x00"})
        bad = json.loads(json.dumps(labelled))
        bad["context"]["label"]["initial"] = "'a\x00b'"
        with pytest.raises(animrt.InvalidArgumentError, match=r"^definition 'labelled': the JSON is refused at line 1, column \d+: \\u0000 in a "
                           "string: a NUL ends a C string"):
            rt.definition(bad)
        bad["context"]["label"]["initial"] = "'\ud800'"
        with pytest.raises(animrt.InvalidArgumentError, match=r"^definition 'labelled': the JSON is malformed at line 1, column \d+: a lone "
                           r"surrogate \\ud800 in a string"):
            rt.definition(bad)
        assert m.context["label"] == "" and m.state == "a"
        assert m.send("name", text="ok ✓ 😀") is animrt.SendOutcome.TAKEN
        assert m.context["label"] == "#ok ✓ 😀"


def test_a_failing_eventless_guard_returns_with_an_error_event_never_hangs():
    broken = {"name": "broken", "events": {"go": {}},
              "context": {"x": {"type": "number", "initial": 0}, "r": {"type": "number", "computed": "1 / context.x"}},
              "initial": "a",
              "states": {"a": {"on": {"go": "b"}}, "b": {"always": {"guard": "context.r > 5", "target": "c"}}, "c": {}}}
    with animrt.Runtime() as rt:
        m = rt.machine(rt.definition(broken))
        assert m.send("go") is animrt.SendOutcome.TAKEN
        assert m.state == "b"
        rt.tick(0)  # delivers the events
        errors = [e for e in rt.events() if isinstance(e, animrt.MachineError)]
        assert [e.event for e in errors] == ["go"]
        assert "guard of states.b.always" in errors[0].message and "context.r computes to inf" in errors[0].message
        broken["initial"] = "b"
        m = rt.machine(rt.definition(broken))  # the same guard in the initial state
        assert m.state == "b"
        rt.tick(0)
        assert [e.event for e in rt.events() if isinstance(e, animrt.MachineError)] == [None]


def test_config_locale_and_strings_are_checked_at_creation():
    with animrt.Runtime() as rt:
        button = rt.definition(BUTTON)
        m = rt.machine(button, config={"width": 200}, locale="zh", strings={"done": "好了"})
        assert m.context["label"] == "下载"
        assert m.part("button").value("bounds.size.width") == 200
        with pytest.raises(animrt.NotFoundError, match="did you mean 'width'"):
            rt.machine(button, config={"widht": 200})
        with pytest.raises(animrt.RangeError, match="the minimum is 44"):
            rt.machine(button, config={"width": 10})
        with pytest.raises(animrt.NotFoundError, match="no strings for locale 'fr'"):
            rt.machine(button, locale="fr")
        with pytest.raises(animrt.ArgumentTypeError, match="must be a Definition"):
            rt.machine("button")  # type: ignore[arg-type]
        # options that are not a dict are refused as such, not with an AttributeError from inside the binding
        for name, given in (("config", [("width", 200)]), ("config", "width=200"), ("strings", ["done"]),
                            ("strings", 3)):
            with pytest.raises(animrt.ArgumentTypeError) as e:
                rt.machine(button, **{name: given})
            assert e.value.message == (f"machine 'downloadButton': {name} is {given!r} ({'an' if given == 3 else 'a'} "
                                       f"{type(given).__name__}); it must be a dict by name, or None: "
                                       f"rt.machine(definition, {name}="
                                       + ("{'width': 200})" if name == "config" else "{'done': 'Sent'})"))
        assert rt.machine(button, config={}, strings={}).state == "idle"


def test_a_per_instance_string_is_held_to_the_string_limit():
    # The bound on a string an expression makes (1 MiB), in bytes: one more is refused.
    with animrt.Runtime() as rt:
        button = rt.definition(BUTTON)
        m = rt.machine(button, strings={"done": "é" * (1 << 19)})
        assert m.state == "idle"
        with pytest.raises(animrt.RangeError) as e:
            rt.machine(button, strings={"done": "é" * (1 << 19) + "x"})
        assert e.value.message.endswith("strings.done is 1048577 bytes; a per-instance string is at most 1048576 bytes, "
                                        "as a string an expression makes is")


def test_a_count_the_defaults_make_no_count_is_refused_as_the_definition_loads():
    def spokes(declaration):
        return {"name": "spokes", "config": {"n": {"type": "number", **declaration}},
                "parts": [{"name": "spoke", "count": "config.n"}], "initial": "a", "states": {"a": {}}}
    with animrt.Runtime() as rt:
        rt.definition(spokes({"default": 4096, "min": 4095.5, "max": 4096.5}))
        with pytest.raises(animrt.RangeError) as e:
            rt.definition(spokes({"default": 0.5, "min": 0.2, "max": 0.8}))
        assert e.value.message.endswith("parts[0].count: with the config's defaults, part 'spoke' would have 0.5 copies "
                                        "(config.n); config.n declares 0.2 to 0.8, so no value of it is a count")


def test_numbers_json_cannot_hold_are_refused_naming_where_they_are():
    # JSON has no NaN or infinity: the binding names the value instead of handing the library
    # "Infinity", which it would refuse as malformed JSON the program never wrote (rows 3, M7).
    with animrt.Runtime() as rt:
        button = rt.definition(BUTTON)
        with pytest.raises(animrt.InvalidArgumentError, match=r"config\['width'\] is inf; it must be a finite number"):
            rt.machine(button, config={"width": math.inf})
        with pytest.raises(animrt.InvalidArgumentError, match=r"config\['width'\] is nan"):
            rt.machine(button, config={"width": math.nan})
        spin = {**CARD, "animations": {"spin": {"type": "basic", "keyPath": "opacity", "repeatCount": math.inf}}}
        with pytest.raises(animrt.InvalidArgumentError,
                           match=r"definition\['animations'\]\['spin'\]\['repeatCount'\] is inf; .*the expression 'inf'"):
            rt.definition(spin)
        # The expression 'inf' is infinity: no hint for minus infinity or NaN, which it does not write.
        for value in (-math.inf, math.nan):
            odd = {**CARD, "animations": {"spin": {"type": "basic", "keyPath": "opacity", "repeatCount": value}}}
            with pytest.raises(animrt.InvalidArgumentError) as refused:
                rt.definition(odd)
            assert refused.value.message == (f"definition 'card': definition['animations']['spin']['repeatCount'] is "
                                             f"{value}; it must be a finite number (JSON has no NaN or infinity)")
        with pytest.raises(animrt.InvalidArgumentError, match=r"definition\['animations'\]\['spin'\]"):
            rt.register_definition("spinner", spin)
        assert len(rt.events()) == 0
        m = rt.machine(button, config={"width": 200})  # the runtime goes on as before
        assert m.part("button").value("bounds.size.width") == 200


def test_an_int_no_double_holds_is_refused_naming_where_it_is():
    # JSON would carry its digits, and the library refuse them as malformed JSON the program never wrote.
    with animrt.Runtime() as rt:
        with pytest.raises(animrt.RangeError, match=r"^machine 'downloadButton': config\['width'\] is an int of 401 "
                           r"digits; a number must be a double \(at most about 1.8e308\)$"):
            rt.machine(rt.definition(BUTTON), config={"width": 10 ** 400})
        m = rt.machine(rt.definition(KINDS))
        with pytest.raises(animrt.RangeError, match=r"^machine 'kinds': field 'n' of 'tap' is an int of 401 digits; a "
                           r"number must be a double \(at most about 1.8e308\)$"):
            m.send("tap", who="x", n=-10 ** 400)
        # Past the 4300 digits Python's str() of an int stops at: counted all the same.
        with pytest.raises(animrt.RangeError, match=r"^machine 'kinds': field 'n' of 'tap' is an int of 5001 digits; a "
                           r"number must be a double \(at most about 1.8e308\)$"):
            m.send("tap", who="x", n=10 ** 5000)
        assert m.send("tap", who="x", n=2 ** 64) is animrt.SendOutcome.TAKEN  # rounded, as any number past 2**53
        # A whole-number field keeps its digits: one no double holds is refused, not rounded to its neighbour.
        card = rt.machine(rt.definition(named="streakCard"))
        with pytest.raises(animrt.RangeError, match=r"field 'completedDays' of 'complete' is 9007199254740993, which no "
                           r"double holds exactly \(whole numbers are exact up to 2\^53\)"):
            card.send("complete", completedDays=2 ** 53 + 1)
        assert card.state == "tracking"
        assert card.send("complete", completedDays=2 ** 53 + 2) is animrt.SendOutcome.TAKEN
        assert card.context["completedDays"] == 2 ** 53 + 2


COUNTS = {
    "name": "counts",
    "context": {"n": {"type": "number", "initial": 0}},
    "events": {"set": {"payload": [{"name": "n", "type": "number", "integer": True}]},
               "got": {"resultOf": "fetch", "payload": [{"name": "items", "type": "number", "integer": True},
                                                        {"name": "share", "type": "number"}]}},
    "emits": {"counted": {"payload": [{"name": "n", "type": "number", "integer": True},
                                      {"name": "half", "type": "number"}]}},
    "requests": {"fetch": {"payload": [{"name": "page", "type": "number", "integer": True}]}},
    "initial": "a",
    "states": {"a": {"values": ["n"],
                     "on": {"set": {"target": "b", "actions": [{"assign": {"n": "event.n"}},
                                                               {"emit": "counted", "payload": {"n": "event.n", "half": "event.n / 2"}},
                                                               {"request": "fetch", "payload": {"page": "event.n"}}]}}},
               "b": {"values": ["n"], "on": {"got": "a", "set": "a"}}},
}


def test_a_field_declared_integer_is_reported_as_an_int_and_other_numbers_as_floats():
    # R3.0.1: "integer": true reaches the host as ANIMRT_TYPE_INTEGER, which the binding gives as an int
    with animrt.Runtime() as rt:
        m = rt.machine(rt.definition(COUNTS))
        rt.events()
        m.send("set", n=6)
        m.send("set", n=0)  # back to a
        m.send("set", n=-(2 ** 63))  # the least int64: exactly
        m.send("got", request=1, items=12, share=3)  # request 1 is not the latest: stale, as sent
        rt.tick(0.0)
        events = rt.events()
        emitted = [e for e in events if isinstance(e, animrt.Emitted)]
        asked = [e for e in events if isinstance(e, animrt.RequestIssued)]
        (stale,) = [e for e in events if isinstance(e, animrt.StaleResult)]
        assert [e.payload for e in emitted] == [{"n": 6, "half": 3.0}, {"n": -(2 ** 63), "half": -(2.0 ** 62)}]
        assert [e.payload for e in asked] == [{"page": 6}, {"page": -(2 ** 63)}]
        assert stale.payload == {"request": 1, "items": 12, "share": 3.0}
        for payload in [emitted[0].payload, asked[0].payload, stale.payload]:
            whole = [v for k, v in payload.items() if k in ("n", "page", "items")]
            assert whole and all(type(v) is int for v in whole)
        assert type(emitted[0].payload["half"]) is float and type(stale.payload["share"]) is float  # not declared whole
        assert repr(emitted[0]).endswith("payload={'n': 6, 'half': 3.0})")
        # A state's values and the context are context fields, which are numbers: floats.
        changed = [e for e in events if isinstance(e, animrt.StateChanged) and e.to_state == "b"]
        assert changed[0].values == {"n": 6.0} and type(changed[0].values["n"]) is float
        assert type(m.context["n"]) is float
        # Past the int64 the host would read it as: refused, and nothing happens.
        with pytest.raises(animrt.RangeError, match=r"^machine 'counts': field 'n' of 'set' is 9223372036854775808; a "
                           r"whole-number field is from -2\^63 to 2\^63 - 1, an int64_t as the host reads it$"):
            m.send("set", n=2 ** 63)
        assert m.state == "b"


def test_values_json_cannot_hold_are_refused_naming_where_they_are():
    # A set, bytes or an object in a definition or options is no JSON value: the error names
    # where it is and what JSON takes, as for NaN, instead of json's bare "Object of type set
    # is not JSON serializable"; and nothing is loaded or made.
    with animrt.Runtime() as rt:
        bad = {**CARD, "states": {**CARD["states"], "hidden": {"on": {"appear": "loading"}, "ignore": {"hide"}}}}
        with pytest.raises(animrt.ArgumentTypeError,
                           match=r"definition\['states'\]\['hidden'\]\['ignore'\] is \{'hide'\} \(a set\); "
                                 r"JSON holds dicts, lists, str, numbers, bools and None"):
            rt.definition(bad)
        button = rt.definition(BUTTON)
        with pytest.raises(animrt.ArgumentTypeError, match=r"config\['width'\] is b'200' \(a bytes\)"):
            rt.machine(button, config={"width": b"200"})  # type: ignore[dict-item]
        with pytest.raises(animrt.ArgumentTypeError, match=r"definition\['parts'\] has the key \(1, 2\) \(a tuple\); "
                                                           r"JSON keys are str"):
            rt.definition({**CARD, "parts": {(1, 2): 3}})
        with pytest.raises(TypeError):  # still the built-in class Python code catches
            rt.machine(button, config={"width": {200}})  # type: ignore[dict-item]
        assert len(rt.events()) == 0
        # numpy numbers are numbers here too, as they are for layers
        m = rt.machine(button, config={"width": numpy.int64(200), "spinSeconds": numpy.float32(0.5)})
        assert m.part("button").value("bounds.size.width") == 200
        placed = {**CARD, "parts": [{"name": "ring", "properties": {"position": numpy.array([3.0, 4.0])}}]}
        assert rt.machine(rt.definition(placed)).part("ring").value("position") == (3.0, 4.0)


def test_numpy_numbers_and_booleans_are_payload_values():
    # As in a config and in a layer's values: a progress computed with numpy was refused
    # ("a payload field is a number, a bool or a str"), unless it happened to be a float64.
    with animrt.Runtime() as rt:
        m = rt.machine(rt.definition(BUTTON))
        rt.tick(0)
        m.send("tap")
        rt.tick(0.1)  # the shrink animations begin, and end 0.3 s later
        rt.tick(0.4)
        assert m.state == "downloading"
        assert m.send("progress", request=numpy.int64(1), fraction=numpy.float32(0.25)) is animrt.SendOutcome.TAKEN
        assert m.context["progress"] == 0.25
        assert m.send("finished", request=numpy.uint8(1), ok=numpy.bool_(False)) is animrt.SendOutcome.TAKEN
        assert m.state == "finished.failed" and m.context["failures"] == 1.0
        with pytest.raises(animrt.InvalidArgumentError, match="field 'fraction' of 'progress' is nan; it must be a "
                           "finite number"):
            m.send("progress", request=1, fraction=numpy.float32("nan"))
        with pytest.raises(animrt.ArgumentTypeError, match=r"fraction is array\(\[0.5\]\) \(a ndarray\); a payload "
                           "field is a number, a bool or a str"):
            m.send("progress", request=1, fraction=numpy.array([0.5]))  # type: ignore[arg-type]


def test_a_definition_with_a_byte_order_mark_loads(tmp_path):
    # Editors on Windows save UTF-8 with a byte order mark; the file was refused ("found byte
    # 0xef") and its text, read with encoding="utf-8", was taken for no JSON at all.
    marked = tmp_path / "card.json"
    marked.write_text(json.dumps(CARD), encoding="utf-8-sig")
    with animrt.Runtime() as rt:
        assert rt.definition(marked).states == ("hidden", "loading", "ready")
        assert rt.definition(marked.read_text(encoding="utf-8")).name == "card"


def test_the_events_a_send_causes_arrive_with_the_next_tick():
    # docs/machines.md: rt.events() returns what ticks delivered; rt.tick(rt.time) delivers a send's
    # events without moving the clock.
    with animrt.Runtime() as rt:
        m = rt.machine(rt.definition(CARD))
        rt.tick(1.0)
        rt.events()
        m.send("appear")
        assert rt.events() == []
        rt.tick(rt.time)
        events = rt.events()
        assert [type(e).__name__ for e in events] == ["StateChanged", "RequestIssued"]
        assert all(e.time == 1.0 for e in events) and rt.time == 1.0


def test_animations_a_machine_adds_report_their_keys():
    # AnimationStarted.key is "the key the animation was added under": a machine's `animate` action
    # names one too (download_button.json: "shape" and "corner" on the button)
    with animrt.Runtime() as rt:
        button = rt.machine(rt.definition(BUTTON))
        button.send("tap")
        rt.tick(0.0)
        started = [e for e in rt.events() if isinstance(e, animrt.AnimationStarted)]
        assert sorted(e.key for e in started) == ["corner", "shape"]
        assert all(e.layer == button.part("button") for e in started)
        shape = button.part("button").animation("shape")
        assert shape is not None and shape.key == "shape" and "'shape'" in repr(shape)
        rt.tick(1.0)
        stopped = [e for e in rt.events() if isinstance(e, animrt.AnimationStopped)]
        assert sorted(e.key for e in stopped) == ["corner", "shape"]


def test_a_machines_animation_events_read_after_it_has_gone_still_say_what_it_animated():
    # Events are often read a tick later, when the machine's animations have stopped and gone: their
    # keys and key paths are read as the events arrive, not when first asked for.
    with animrt.Runtime() as rt:
        button = rt.machine(rt.definition(BUTTON))
        button.send("tap")
        rt.tick(0.0)
        rt.tick(1.0)
        said = sorted((type(e).__name__, e.key, e.animation.key_path) for e in rt.events()
                      if isinstance(e, (animrt.AnimationStarted, animrt.AnimationStopped)))
        assert said == [("AnimationStarted", "corner", "cornerRadius"), ("AnimationStarted", "shape", "bounds.size.width"),
                        ("AnimationStopped", "corner", "cornerRadius"), ("AnimationStopped", "shape", "bounds.size.width")]
        # And once they have gone: the network button's two "shape" groups (a group has no key path).
        spinner = rt.machine(rt.definition(named="networkButton"))
        spinner.send("tap")
        rt.tick(1.5)
        rt.tick(2.0)  # its two "shape" groups have stopped and gone before the events are read
        assert spinner.part("button").animation_keys() == []
        said = [(type(e).__name__, e.key, e.animation.key_path) for e in rt.events()
                if isinstance(e, (animrt.AnimationStarted, animrt.AnimationStopped)) and e.time >= 1.5
                and e.layer in (spinner.part("button"), spinner.part("border"))]
        assert said == [("AnimationStarted", "shape", None)] * 2 + [("AnimationStopped", "shape", None)] * 2


def test_an_attached_animation_keeps_its_key_path_once_it_has_gone():
    """The key path is fixed when the animation is added, as its key and layer are: kept once it has
    gone, where what the library holds of it now (its timing) is refused as stale."""
    with animrt.Runtime() as rt:
        layer = rt.layer()
        fade = layer.add_animation(rt.basic("opacity", to=0, duration=0.5), key="fade")
        pop = layer.add_animation(rt.group([rt.basic("bounds.size.width", to=9)]), key="pop")
        button = rt.machine(rt.definition(BUTTON))
        button.send("tap")
        rt.tick(0.0)
        rt.tick(1.0)
        machines = [e.attached for e in rt.events() if isinstance(e, animrt.AnimationStarted) and e.layer != layer]
        button.destroy()  # its animations (finished, filling forwards) go with it
        assert layer.animation_keys() == []
        with pytest.raises(animrt.HandleError):
            machines[0].timing("duration")
        assert (fade.key_path, pop.key_path) == ("opacity", None)
        assert sorted(a.key_path for a in machines) == ["bounds.size.width", "cornerRadius"]  # read as delivered
        with pytest.raises(animrt.HandleError):
            fade.timing("duration")
        # The network button's "shape" groups, read as their events were delivered and gone since.
        spinner = rt.machine(rt.definition(named="networkButton"))
        spinner.send("tap")
        rt.tick(1.5)
        rt.tick(2.0)
        gone = [e.attached for e in rt.events() if isinstance(e, animrt.AnimationStarted) and e.time >= 1.5
                and e.layer in (spinner.part("button"), spinner.part("border"))]
        assert len(gone) == 2 and spinner.part("button").animation_keys() == []
        assert [a.key_path for a in gone] == [None, None]  # a group has none
    assert fade.key_path == "opacity"  # and once the runtime is closed


def test_a_name_nothing_is_close_to_is_answered_with_the_names_there_are():
    """Every lookup by name says what to write instead: the closest name, else the names there are
    (the first ten), else that there are none, as m.send("nope") and m.part("nope") do."""
    with animrt.Runtime() as rt:
        button = rt.definition(named="networkButton")
        m = rt.machine(button)
        events = "(events: resetToReady, startAnimate, stopAnimate, stopByError, tap, updateProgress)"
        cases = [
            (lambda: button.payload_fields("nope"), f"'networkButton' has no event named 'nope' {events}"),
            (lambda: m.send("nope"), f"'networkButton' has no event 'nope' {events}"),
            # Fifteen states, of which a list cut at ten would hide 'loading' and 'ready': the top-level ones.
            (lambda: m.in_state("zzz"), "'networkButton' has no state named 'zzz' (top-level states: finished, "
             "finishing, loading, ready; nested ones are named from the top, as 'finished.failed')"),
            (lambda: m.context["zzz"], "'networkButton' has no context field named 'zzz' (context fields: failed, "
             "progress, stopPending, title)"),
            (lambda: rt.machine(rt.definition({"name": "toggle", "events": {"tap": {}}, "initial": "off",
                                               "states": {"off": {}}})).context["zzz"],
             "'toggle' has no context field named 'zzz'; it has no context fields"),
            (lambda: rt.machine(button, strings={"zzz": "x"}), "'networkButton' has no string 'zzz' (strings: done, "
             "error, start)"),
        ]
        for call, message in cases:
            with pytest.raises(animrt.NotFoundError) as raised:
                call()
            assert str(raised.value) == message
        rt.register_function("half", "f64(f64)", lambda x: x / 2)
        with pytest.raises(animrt.NotFoundError) as raised:
            rt.call("zzz", 1)
        assert str(raised.value) == "no function named 'zzz' is registered or bound (functions: half)"
        # A destroyed definition answers from the names it read, in the same words.
        button.destroy()
        with pytest.raises(animrt.NotFoundError) as raised:
            button.payload_fields("nope")
        assert str(raised.value) == f"'networkButton' has no event named 'nope' {events}"


def test_the_context_is_a_mapping_get_and_in_work():
    # m.context is a collections.abc.Mapping: an unknown name is a KeyError too, so get() and `in`
    # behave as they do on a dict, and the error still suggests the field meant
    with animrt.Runtime() as rt:
        card = rt.machine(rt.definition(named="progressCard"))
        assert card.context.get("progres", -1.0) == -1.0 and card.context.get("progress") == 0.0
        assert "progress" in card.context and "progres" not in card.context and 5 not in card.context
        with pytest.raises(KeyError) as raised:
            card.context["progres"]
        assert isinstance(raised.value, animrt.NotFoundError)
        assert str(raised.value) == "'progressCard' has no context field named 'progres'; did you mean 'progress'?"
        # a key that is not a str is in no context, as `in` says: get() gives the default, [] a KeyError
        assert card.context.get(5, "none") == "none" and card.context.get(None) is None
        with pytest.raises(KeyError, match="context field names are str; 5 .an int. names none"):
            card.context[5]


def test_payloads_survive_later_polls_when_events_are_read_late():
    # The library keeps a machine event's payload only until its next poll;
    # the binding reads it when it polls, so late readers see every value.
    with animrt.Runtime() as rt:
        m = rt.machine(rt.definition(CARD))
        for i in range(50):
            m.send("appear")
            m.send("fetched", request=i + 1, progress=i / 100)
            m.send("hide")
            rt.tick(i * 0.1)
        shown = [e for e in rt.events() if isinstance(e, animrt.Emitted)]
        assert [e.payload["title"] for e in shown] == [f"{i}%" for i in range(50)]


def test_reprs_name_the_machine_and_still_print_after_the_runtime_closes():
    rt = animrt.Runtime()
    card = rt.definition(CARD)
    m = rt.machine(card)
    assert repr(card) == f"<Definition 'card' {card.id:#x}>"
    assert repr(m) == f"<Machine {m.id:#x} card state='hidden'>"
    unread = rt.definition(named="networkButton")   # its name never asked for before the close
    button = rt.machine(unread)
    rt.close()
    assert repr(card) == f"<Definition 'card' {card.id:#x}>"   # read before: still known
    # Never asked for, but read by the close, while it could be: a repr printed later names it.
    assert repr(unread) == f"<Definition 'networkButton' {unread.id:#x}>" and unread.name == "networkButton"
    assert repr(button) == f"<Machine {button.id:#x} networkButton>"
    with pytest.raises(animrt.ClosedError):  # what a repr does not show is the library's to say
        unread.dot()


def test_a_closed_runtimes_machine_is_named_by_every_read():
    """m.state said which machine's runtime was closed, and m.context['x'], dict(m.context) and
    m.destroy() said only "the runtime is closed": with several machines about, which one was read
    is what the message is for. The context's repr prints why it cannot be read, as a repr must not
    raise; a destroyed machine's reads are named too."""
    rt = animrt.Runtime()
    card = rt.machine(rt.definition(named="progressCard"))
    button = rt.machine(rt.definition(named="networkButton"))
    rt.close()
    for read in (lambda: card.state, lambda: card.context["progress"], lambda: dict(card.context),
                 lambda: list(card.context), lambda: len(card.context), lambda: "progress" in card.context,
                 lambda: card.destroy()):
        with pytest.raises(animrt.ClosedError) as caught:
            read()
        assert caught.value.message == ("machine 'progressCard': the runtime is closed (rt.close() has run, or its "
                                         "with block has ended); check rt.closed before using it, or "
                                         "obj.runtime.closed for one of its objects")
    assert repr(button.context) == f"<Context of <Machine {button.id:#x} networkButton>: the runtime is closed>"
    with animrt.Runtime() as rt:
        m = rt.machine(rt.definition(named="networkButton"))
        assert repr(m.context) == repr(dict(m.context))
        m.destroy()
        with pytest.raises(animrt.HandleError, match=r"^machine 'networkButton': machine handle 0x[0-9a-f]+ is stale"):
            m.context["progress"]
        assert repr(m.context).startswith(f"<Context of <Machine {m.id:#x} networkButton (destroyed)>: machine handle")


def test_what_a_machine_reported_before_it_was_destroyed_names_it():
    """Destroyed (and let go) before the tick that delivers what it reported, a machine's events came as
    MachineError of "a machine this binding did not create", and the stand-in made for the first one
    raised AttributeError from rt.tick() at the second. They name the machine, and it is let go once
    they are delivered; the events of a machine made through raw C calls are all MachineErrors."""
    with animrt.Runtime() as rt:
        button = rt.definition(named="networkButton")
        m = rt.machine(button)
        rt.tick(0.0)
        rt.events()
        m.send("tap")
        gone, handle = weakref.ref(m), m.id
        m.destroy()
        del m
        rt.tick(0.1)
        changes = [e for e in rt.events() if not isinstance(e, animrt.AnimationStopped)]
        assert [(type(e).__name__, e.from_state, e.to_state) for e in changes] == \
            [("StateChanged", "ready", "loading.preparing")]
        assert repr(changes[0].machine) == f"<Machine {handle:#x} networkButton (destroyed)>"
        del changes
        gc.collect()
        assert gone() is None  # kept only until its events were delivered
        out = ctypes.c_uint64()  # made through raw C calls: no Python machine to name its events through
        rt._call(lib.animrt_machine_create, button.id, 0, None, ctypes.byref(out))
        rt._call(lib.animrt_machine_send_json, out.value, b"tap", None, None)
        rt.tick(0.2)
        errors = [e for e in rt.events() if not isinstance(e, animrt.AnimationStarted)]
        assert [type(e).__name__ for e in errors] == ["MachineError", "MachineError"]
        # Each event brings a stand-in of its own for that one machine: equal, and one key in a set or dict.
        assert errors[0].machine.id == errors[1].machine.id == out.value and errors[0].machine == errors[1].machine
        assert len({e.machine for e in errors}) == 1 and {errors[0].machine: 1}[errors[1].machine] == 1


def _loading_card(rt):
    """A progress card sent "fetch" and shown once: loading, the string reads below then change when it is sent "fetched"."""
    card = rt.machine(rt.definition(named="progressCard"))
    card.send("fetch")
    rt.tick(0.0)
    return card


def test_a_snapshot_or_string_that_grows_between_its_size_and_its_read_is_read_whole(monkeypatch):
    """A string too long for the buffer a call starts with is read again at the size the library says:
    another thread sending the machine an event in between made the text longer than that, and the
    read raised BufferTooSmallError, an error of the caller's buffers, which the caller never gave. It
    is read again at its new size."""
    for fn, read in [(lib.animrt_machine_get, lambda card: card.context["percentText"]),
                     (lib.animrt_machine_snapshot, lambda card: json.loads(card.snapshot()))]:
        monkeypatch.setitem(_layer._string_sizes, fn.__name__, 1)  # the first call learns the size
        with animrt.Runtime() as rt:
            card = _loading_card(rt)
            real, sent = rt._call, []

            def call(called, *args):
                try:
                    return real(called, *args)  # the size: BufferTooSmallError
                finally:
                    if called is fn and not sent:  # between the size and the read:
                        sent.append(card.send("fetched", request=1, progress=0.35))  # '0%' is '35%', and more

            rt._call = call
            first = read(card)
            rt._call = real
            assert sent == [animrt.SendOutcome.TAKEN] and first == read(card)  # read whole, as it is now
    assert first["leaf"] == "ready"


def test_a_snapshot_that_has_not_grown_is_built_once(monkeypatch):
    """A string is read with a buffer the size its function's last result needed: a machine's snapshot
    (23 kB for a progress card) was built twice a read, once to learn its size and once to fill."""
    monkeypatch.delitem(_layer._string_sizes, "animrt_machine_snapshot", raising=False)
    with animrt.Runtime() as rt:
        card = _loading_card(rt)
        real, calls = rt._call, []

        def call(called, *args):
            if called is lib.animrt_machine_snapshot:
                calls.append(args[-2])  # the buffer's size
            return real(called, *args)

        rt._call = call
        first = card.snapshot()
        assert len(calls) == 2 and calls[0] == 256 and calls[1] == len(first.encode()) + 1
        assert card.snapshot() == first and len(calls) == 3 and calls[2] == calls[1]  # once, at its size
        card.send("fetched", request=1, progress=0.35)
        grown = card.snapshot()  # longer now ('0%' is '35%', and more): learnt, then read
        assert len(grown.encode()) > len(first.encode()) and calls[3:] == [calls[1], len(grown.encode()) + 1]
        rt._call = real


class _FakeStringFunction:
    """A (buf, cap, needed) C function as _string_out calls it, giving `text`, and the buffer size of each call."""

    def __init__(self, name: str) -> None:
        self.__name__ = name
        self.text = b""
        self.sizes: list = []

    def __call__(self, buf, cap, needed):
        self.sizes.append(cap)
        needed._obj.value = len(self.text) + 1
        if cap < len(self.text) + 1:
            raise animrt.BufferTooSmallError(f"needs {len(self.text) + 1} bytes")
        ctypes.memmove(buf, self.text + b"\0", len(self.text) + 1)


def test_a_string_size_is_remembered_up_to_a_mebibyte(monkeypatch):
    """The size a function's last string needed is the next call's first buffer, but only up to 1 MiB: a
    result of megabytes once (an export of a large definition) does not make every later read allocate
    megabytes first."""
    fake = _FakeStringFunction("animrt_test_string")
    monkeypatch.delitem(_layer._string_sizes, fake.__name__, raising=False)
    out = lambda: _layer._string_out(lambda f, *args: f(*args), fake)  # noqa: E731
    fake.text = b"k" * 999
    assert out() == "k" * 999 and fake.sizes == [256, 1000]
    fake.text = b"short"
    assert out() == "short" and fake.sizes[2:] == [1000]
    fake.text = b"m" * (1 << 20)  # 1 MiB and its NUL: one byte past what is remembered
    assert out() == "m" * (1 << 20) and fake.sizes[3:] == [6, (1 << 20) + 1]
    fake.text = b"x" * ((1 << 20) - 1)  # with its NUL, exactly 1 MiB: remembered
    assert len(out()) == (1 << 20) - 1 and fake.sizes[5:] == [6, 1 << 20]
    fake.text = b"y"
    assert out() == "y" and fake.sizes[7:] == [1 << 20]


def test_destroy_stops_the_machine_and_is_idempotent():
    with animrt.Runtime() as rt:
        rt.tick(0)
        m = rt.machine(rt.definition(BUTTON))
        m.send("tap")
        rt.tick(0.1)
        rt.events()
        m.destroy()
        m.destroy()
        with pytest.raises(animrt.HandleError):
            m.send("tap")
        rt.tick(5)
        assert all(isinstance(e, animrt.AnimationStopped) for e in rt.events())


def test_a_machine_runs_on_and_is_named_after_its_definition_is_destroyed():
    # "Forgets the definition; machines made from it keep running" (Definition.destroy, and
    # animrt_definition_destroy in the header). The binding named states, fields and payloads
    # through the destroyed handle: m.state raised HandleError, and so did rt.tick() while it
    # decoded the machine's events, which were then lost.
    with animrt.Runtime() as rt:
        card = rt.definition(CARD)
        m = rt.machine(card)
        card.destroy()
        card.destroy()
        assert m.state == "hidden" and m.in_state("hidden")
        assert m.send("appear") is animrt.SendOutcome.TAKEN
        rt.tick(0.0)
        events = rt.events()
        assert [type(e).__name__ for e in events] == ["StateChanged", "StateChanged", "RequestIssued"]
        assert (events[1].from_state, events[1].to_state) == ("hidden", "loading")
        assert m.send("fetched", request=events[2].id, progress=0.5) is animrt.SendOutcome.TAKEN
        rt.tick(0.1)
        shown = [e for e in rt.events() if isinstance(e, animrt.Emitted)]
        assert [(e.name, e.payload) for e in shown] == [("shown", {"title": "50%"})]
        assert m.state == "ready" and m.context["progress"] == 0.5 and dict(m.context)["title"] == "50%"
        assert m.definition is card and card.states == ("hidden", "loading", "ready")
        assert repr(m).endswith(" card state='ready'>")
        with pytest.raises(animrt.NotFoundError, match="'card' has no context field named 'progres'; did you mean 'progress'"):
            m.context["progres"]
        with pytest.raises(animrt.NotFoundError, match="'card' has no state named 'redy'; did you mean 'ready'"):
            m.in_state("redy")
        with pytest.raises(animrt.HandleError):  # the definition itself is gone
            rt.machine(card)


def test_the_download_button_example_end_to_end():
    with animrt.Runtime() as rt:
        rt.tick(0)
        m = rt.machine(rt.definition(BUTTON), config={"doneSeconds": 1})
        m.send("tap")
        rt.tick(0.1)
        rt.tick(0.4)
        assert m.state == "downloading"
        request = next(e for e in rt.events() if isinstance(e, animrt.RequestIssued))
        assert (request.name, request.id, request.payload) == ("download", 1, {"attempt": 1.0})
        m.send("progress", request=request.id, fraction=0.5)
        assert m.part("ring").value("strokeEnd") == 0.5
        m.send("finished", request=request.id, ok=True)
        assert m.state == "finished.succeeded"
        rt.tick(1.4)
        assert m.state == "idle"


def test_a_snapshot_restored_in_another_runtime_continues_identically():
    def run(rt: animrt.Runtime, m: animrt.Machine, log: list) -> None:
        ring = m.part("ring")
        for t, send in [(1.4, None), (1.5, "appear"), (1.69, None), (1.7, None), (2.0, None)]:
            if send:
                m.send(send)
            rt.tick(t)
            log.append((ring.presentation("strokeEnd"), m.state, [type(e).__name__ for e in rt.events()]))

    a = animrt.Runtime()
    card = a.definition(CARD)
    a.tick(1)
    m = a.machine(card)
    m.send("appear")
    m.send("fetched", request=1, progress=0.6)
    a.tick(1.2)
    a.tick(1.35)
    a.events()
    saved = m.snapshot()
    b = animrt.Runtime()
    with pytest.raises(animrt.TimeError, match="tick it to the snapshot's time first"):
        b.restore(saved, b.definition(CARD))
    b.tick(1.35)
    copy = b.restore(saved, b.definition(CARD))
    assert copy.state == "ready" and dict(copy.context) == dict(m.context)
    log_a: list = []
    log_b: list = []
    run(a, m, log_a)
    run(b, copy, log_b)
    assert log_a == log_b
    assert [entry[1] for entry in log_a] == ["ready", "loading", "loading", "loading", "loading"]
    a.close()
    b.close()


def test_a_snapshot_read_by_json_loads_restores_as_its_text_does():
    """rt.definition takes a dict; so does rt.restore, for a snapshot kept in a program's own JSON."""
    with animrt.Runtime() as rt:
        m = rt.machine(rt.definition(named="progressCard"))
        rt.tick(0)
        m.send("fetch")
        rt.tick(0.1)
        asked = next(e for e in rt.events() if isinstance(e, animrt.RequestIssued))
        m.send("fetched", request=asked.id, progress=0.3)
        rt.tick(0.2)
        m.send("progress", progress=0.9)  # the ring animates from here
        rt.tick(0.3)
        saved = m.snapshot()
        state = {"screen": "home", "card": json.loads(saved)}
        from_text = rt.restore(saved, m.definition)
        from_dict = rt.restore(state["card"], m.definition)
        assert from_dict.snapshot() == from_text.snapshot() == saved
        for t in (0.35, 0.5, 0.9):
            rt.tick(t)
            fills = {c.part("ring").presentation("strokeEnd") for c in (m, from_text, from_dict)}
            assert len(fills) == 1 and 0.3 < fills.pop() <= 0.9
        assert from_dict.state == "ready" and from_dict.context["progress"] == 0.9
        broken = dict(state["card"], time=math.nan)
        with pytest.raises(animrt.InvalidArgumentError, match=r"^snapshot\['time'\] is nan; it must be a finite"):
            rt.restore(broken, m.definition)


def test_a_refused_restore_spends_no_handle():
    """Refused after its part's layer was made (its value does not fit the property it names), a restore
    is undone without spending a handle: however often it is refused, the next layer and the machine then
    restored get the handles of a runtime that never tried (the same bits below the runtime's tag)."""
    def untagged(o: object) -> int:
        return o.id & 0xFFFF_FFFF_FFFF  # type: ignore[attr-defined, no-any-return]

    with animrt.Runtime() as a, animrt.Runtime() as b, animrt.Runtime() as untouched:
        a.tick(1)
        saved = a.machine(a.definition(CARD)).snapshot()
        edited = saved.replace('"property":"strokeEnd"', '"property":"position"', 1)
        assert edited != saved
        cards = [rt.definition(CARD) for rt in (b, untouched)]
        b.tick(1)
        untouched.tick(1)
        for _ in range(3):
            with pytest.raises(animrt.KindError, match="'position' takes a point.*nothing was made"):
                b.restore(edited, cards[0])
        assert b.events() == []
        assert untagged(b.layer()) == untagged(untouched.layer())
        restored, twin = b.restore(saved, cards[0]), untouched.restore(saved, cards[1])
        assert untagged(restored) == untagged(twin)
        assert untagged(restored.part("ring")) == untagged(twin.part("ring"))


def test_a_restore_refuses_a_misspelt_member_and_a_property_given_twice():
    """A member no object of a snapshot has (a misspelt "retimed", read past until then: the part restored as
    unchanged) is refused as InvalidArgumentError naming it and its place, and so is a property given twice on a
    part (the second written over the first); nothing is made, and the unedited snapshot then restores."""
    with animrt.Runtime() as a, animrt.Runtime() as b:
        a.tick(1)
        saved = a.machine(a.definition(CARD)).snapshot()
        card = b.definition(CARD)
        b.tick(1)
        misspelt = saved.replace('{"name":"ring",', '{"name":"ring","retimd":true,', 1)
        assert misspelt != saved
        with pytest.raises(animrt.InvalidArgumentError,
                           match=re.escape("not a machine snapshot: parts[0].retimd: a part has no member 'retimd' "
                                           "(it has name, values, shown, timing, retimed)")):
            b.restore(misspelt, card)
        end = saved.index('"property":"strokeEnd"}') + len('"property":"strokeEnd"}')
        value = saved[saved.index('{"model":'):end]
        twice = saved[:end] + "," + value.replace("[0]", "[0.5]") + saved[end:]
        with pytest.raises(animrt.InvalidArgumentError, match="'strokeEnd' is given twice; a layer has one value of each "
                                                               "property; nothing was made"):
            b.restore(twice, card)
        assert b.events() == []
        assert b.restore(saved, card).part("ring").value("strokeEnd") == 0


def test_a_parts_layer_belongs_to_its_machine_and_is_destroyed_with_it():
    """Layer.destroy() on a part raises StateError naming the machine and the part, and changes nothing:
    the machine still acts on the part, snapshots and restores; destroying the machine destroys it."""
    with animrt.Runtime() as rt, animrt.Runtime() as other:
        rt.tick(1)
        m = rt.machine(rt.definition(CARD))
        ring = m.part("ring")
        with pytest.raises(animrt.StateError, match=re.escape(
                f"{ring.id:#x} is part 'ring' of machine {m.id:#x} ('card'): a part lives as long as its machine; "
                "destroy the machine instead (Machine.destroy)")):
            ring.destroy()
        assert "(destroyed)" not in repr(ring) and m.part("ring") is ring
        assert repr(ring) == f"<Layer part 'ring' of 'card' {ring.id:#x}>"  # whose part it is, in logs
        ring.set_parent(rt.layer())  # moving a part is the host's to do
        m.send("appear")
        m.send("fetched", request=1, progress=0.5)
        assert ring.value("strokeEnd") == 0.5
        other.tick(1)
        copy = other.restore(m.snapshot(), other.definition(CARD))
        assert copy.state == "ready" and copy.part("ring").value("strokeEnd") == 0.5
        with pytest.raises(animrt.StateError, match="is part 'ring' of machine"):
            copy.part("ring").destroy()
        assert [e for e in rt.events() if isinstance(e, animrt.MachineError)] == []
        m.destroy()
        with pytest.raises(animrt.HandleError, match="stale"):
            ring.value("strokeEnd")


# A state waiting for the animation its entry started on its part: restored, it makes a layer.
WAITING = {"name": "waiting", "parts": [{"name": "box", "properties": {"opacity": 1}}],
           "animations": {"fade": {"type": "basic", "keyPath": "opacity", "to": 0, "duration": 10}},
           "initial": "a", "states": {"a": {"entry": [{"animate": "fade", "part": "box"}], "done": "b"}, "b": {}}}


def test_a_restore_into_a_full_layer_table_is_refused_undone_and_then_made():
    """At the real limit (docs/limits.md: ANIMRT_OBJECTS_MAX objects of one kind; the layers made in one
    bulk call, about 1.4 GB and 3 s), a restore, which makes its part's layer, is refused with
    OutOfMemoryError, is undone and spends no handle; with one layer destroyed the same snapshot
    restores into the slot freed, reads back as the original and goes on as it does. (test_machines.c
    fills the barrier table, which Python has no bulk call for.)"""
    limit = int(re.search(r"#define ANIMRT_OBJECTS_MAX (\d+)", HEADER.read_text()).group(1))
    assert limit == 2 ** 24 - 1

    def untagged(o: object) -> int:
        return o.id & 0xFFFF_FFFF_FFFF  # type: ignore[attr-defined, no-any-return]

    with animrt.Runtime() as a, animrt.Runtime() as full, animrt.Runtime() as untouched:
        m = a.machine(a.definition(WAITING))
        a.tick(0)  # its fade begins
        a.tick(5)
        saved = m.snapshot()
        assert '"waitingForDone":["a"]' in saved
        waiting = [rt.definition(WAITING) for rt in (full, untouched)]
        full.tick(5)
        untouched.tick(5)
        layers = full.create_layers(limit)
        assert len(layers) == limit and len(set(layers[-3:])) == 3
        with pytest.raises(animrt.OutOfMemoryError, match=f"too many layers: a runtime holds at most {limit} at once"):
            full.layer()  # one past the limit
        with pytest.raises(animrt.OutOfMemoryError, match="too many layers"):
            full.create_layers(1)
        for _ in range(2):
            with pytest.raises(animrt.OutOfMemoryError,
                               match="the snapshot could not be restored: too many layers.*nothing was made"):
                full.restore(saved, waiting[0])
        assert full._machines == {} and full.events() == []
        lib.animrt_layer_destroy(full._ptr, layers[-1])  # one free slot: the part's layer
        copy, twin = full.restore(saved, waiting[0]), untouched.restore(saved, waiting[1])
        assert untagged(copy) == untagged(twin)
        # the part's layer is in the freed slot, the generation after the destroyed layer's
        box, freed = copy.part("box").id, layers[-1]
        assert box & 0xFFFFFF == freed & 0xFFFFFF and (box >> 24) & 0xFFFFF == ((freed >> 24) & 0xFFFFF) + 1
        with pytest.raises(animrt.OutOfMemoryError, match="too many layers"):
            full.layer()  # full again
        assert copy.state == m.state == "a"
        # half-way through the fade, then at its end (removed: the model's 1 shows, and the state moves on)
        for t, expected in ((5.0, 0.5), (7.5, 0.25), (10.0, 1.0)):
            for rt in (a, full, untouched):
                rt.tick(t)
            shown = [machine.part("box").presentation("opacity") for machine in (m, copy, twin)]
            assert shown == [shown[0]] * 3 and shown[0] == pytest.approx(expected)
            assert copy.state == twin.state == m.state == ("b" if t == 10 else "a")


def test_a_restored_machine_under_a_turning_layer_finishes_as_the_original():
    """Under an autoreversing parent the layer passes the animation's end (0.9) between the ticks at
    0.5 and 1.5 and turns back: the original's done comes then, and so must the restored copy's."""
    machine = {"name": "m", "events": {}, "parts": [{"name": "p", "properties": {"opacity": 0}}],
               "animations": {"x": {"type": "basic", "keyPath": "opacity", "from": 0, "to": 1, "duration": 0.9}},
               "initial": "a", "states": {"a": {"entry": [{"animate": "x", "part": "p", "key": "k"}], "done": "b"},
                                          "b": {}}}

    def world():
        rt = animrt.Runtime()
        parent = rt.layer()
        parent.configure_timing(duration=1.0, autoreverses=True)
        return rt, parent

    rt, parent = world()
    m = rt.machine(rt.definition(machine), parent=parent)  # its animation is stamped at 0
    rt.tick(0)
    rt.tick(0.5)
    saved = m.snapshot()
    rt2, parent2 = world()
    rt2.tick(0)
    rt2.tick(0.5)
    copy = rt2.restore(saved, rt2.definition(machine), parent=parent2)
    for t in (1.5, 2.5):
        rt.tick(t)
        rt2.tick(t)
        assert (m.state, copy.state) == ("b", "b")
    rt.close()
    rt2.close()


def test_a_restored_group_keeps_the_duration_its_children_inherited():
    machine = {"name": "m", "events": {"go": {}}, "parts": [{"name": "p", "properties": {"opacity": 0}}],
               "animations": {"g": {"type": "group", "animations": [{"type": "basic", "keyPath": "opacity", "from": 0,
                                                                      "to": 1}],
                                    "fillMode": "forwards", "removedOnCompletion": False}},
               "initial": "a", "states": {"a": {"on": {"go": "b"}},
                                          "b": {"entry": [{"animate": "g", "part": "p", "key": "k", "join": False}]}}}
    rt = animrt.Runtime()
    m = rt.machine(rt.definition(machine))
    rt.tick(0)
    with rt.transaction(animation_duration=2.0):  # the group and its child run 2 s
        m.send("go")
    rt.tick(0.1)
    saved = m.snapshot()
    rt2 = animrt.Runtime()
    rt2.tick(0)
    rt2.tick(0.1)
    copy = rt2.restore(saved, rt2.definition(machine))
    for t in (0.2, 0.3):
        rt.tick(t)
        rt2.tick(t)
        assert m.part("p").presentation("opacity") == copy.part("p").presentation("opacity") == pytest.approx((t - 0.1) / 2)
    rt.close()
    rt2.close()


def test_an_after_loop_with_no_delay_lets_the_tick_return():
    """A state that re-enters itself after 0 s: each tick fires a bounded number of its timers."""
    loop = {"name": "loop", "context": {"n": {"type": "number", "initial": 0}}, "events": {"go": {}},
            "initial": "a", "states": {"a": {"on": {"go": "b"}},
                                       "b": {"after": [{"delay": 0, "target": "b",
                                                        "actions": [{"assign": {"n": "context.n + 1"}}]}]}}}
    with animrt.Runtime(event_capacity=1 << 20) as rt:
        m = rt.machine(rt.definition(loop))
        rt.tick(0)
        m.send("go")
        rt.tick(1)
        assert m.context["n"] == 65536
        rt.tick(2)
        assert m.context["n"] == 2 * 65536


def test_a_recorded_session_replays_call_by_call(tmp_path):
    trace = tmp_path / "session.trace"
    with animrt.Runtime() as rt:
        rt.start_trace(trace)
        m = rt.machine(rt.definition(BUTTON))
        layer = rt.layer()
        layer.add_animation(rt.basic("opacity", from_=0, to=1, duration=0.5))
        m.send("tap")
        for i in range(20):
            rt.tick(i * 0.05)
        m.send("finished", request=1, ok=True)
        rt.tick(1.2)
        rt.stop_trace()
    with animrt.Runtime() as again:
        calls = again.replay(trace)
    lines = trace.read_text().splitlines()
    assert calls == len(lines) - 1 > 25
    tampered = tmp_path / "tampered.trace"
    edited = "\n".join(lines).replace('\\"ok\\": true', '\\"ok\\": false')
    assert edited != "\n".join(lines)
    tampered.write_text(edited + "\n")
    with animrt.Runtime() as other:
        with pytest.raises(animrt.StateError, match=r"diverges at trace line \d+ \(animrt_machine_send_json\): the events"):
            other.replay(tampered)
    with animrt.Runtime() as used:
        used.layer()
        with pytest.raises(animrt.StateError, match="fresh runtime"):
            used.replay(trace)


# A script that records a trace into a file limited to 2 000 bytes (the header and the layer's line
# fit; the ticks do not), then ends the recording as `ending` says.
CUT_SHORT = """
import resource, signal, sys, animrt
rt = animrt.Runtime()
rt.start_trace(sys.argv[1])
rt.layer()
old = resource.getrlimit(resource.RLIMIT_FSIZE)
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
resource.setrlimit(resource.RLIMIT_FSIZE, (2000, old[1]))
for i in range(100):
    rt.tick(i * 0.01)
resource.setrlimit(resource.RLIMIT_FSIZE, old)
try:
    {ending}
except animrt.NotFoundError as e:
    print(type(e).__name__, rt.closed, e)
rt.close()  # the trace has stopped: nothing more is raised
print("after", rt.closed)
"""


def test_a_cut_short_trace_of_a_runtime_never_closed_is_warned_of(run_to_exit, tmp_path):
    # Collected without close(), the runtime is destroyed by its finalizer: nothing can be raised
    # there, so an incomplete trace is said as an unclosed file is, with a ResourceWarning.
    trace = tmp_path / "collected.trace"
    ending = "import gc, warnings\n    warnings.simplefilter('always')\n    del rt\n    gc.collect()"
    script = CUT_SHORT.replace("{ending}", ending).replace("rt.close()  # the trace has stopped: nothing more is raised\n"
                                                          "print(\"after\", rt.closed)\n", "print(\"after\")\n")
    result = run_to_exit(script.replace("sys.argv[1]", repr(str(trace))))
    assert result.returncode == 0, result.stderr
    whole = trace.read_text().count("\n")
    assert result.stdout == "after\n"
    assert (f"ResourceWarning: a Runtime was destroyed without close() while it recorded a trace, which is incomplete: "
            f"the trace file '{trace}' is incomplete: writing line {whole + 1} (animrt_runtime_tick) failed: File too large"
            in result.stderr), result.stderr


@pytest.mark.parametrize("ending", ["rt.close()", "rt.stop_trace()"])
def test_a_trace_the_file_could_not_hold_is_reported_by_stop_or_close(run_to_exit, tmp_path, ending):
    # The library closes a trace still recording when its runtime is destroyed, and has no one to tell
    # that the file lost calls: close() stops it first and raises what the stop said.
    trace = tmp_path / "cut.trace"
    script = CUT_SHORT.replace("{ending}", ending)
    result = run_to_exit(script.replace("sys.argv[1]", repr(str(trace))))
    assert result.returncode == 0, result.stderr
    text = trace.read_text()
    whole = text.count("\n")  # the lines written whole; the file may end in part of the next
    assert 2 <= whole < 20 and "animrt_layer_create" in text.splitlines()[1]
    first_lost = whole + 1
    closed = "False" if ending == "rt.stop_trace()" else "True"
    assert result.stdout.splitlines() == [
        f"NotFoundError {closed} the trace file '{trace}' is incomplete: writing line {first_lost} "
        "(animrt_runtime_tick) failed: File too large; the calls from there on were not recorded",
        "after True"]


def test_close_stops_a_whole_trace_without_a_word(tmp_path):
    trace = tmp_path / "whole.trace"
    rt = animrt.Runtime()
    rt.start_trace(trace)
    rt.layer()
    rt.tick(1)
    rt.close()
    with animrt.Runtime() as again:
        assert again.replay(trace) == 2
    rt = animrt.Runtime()
    rt.start_trace(trace)
    rt.stop_trace()
    with pytest.raises(animrt.StateError, match="no trace is being recorded"):
        rt.stop_trace()
    rt.close()  # stopped already: nothing to stop again, nothing raised


def test_ctrl_c_right_after_a_poll_keeps_the_machines_events_and_payloads(interrupt_after):
    # Their payloads are the library's until the next poll: copied before Ctrl-C is let through.
    interrupt_after("animrt_event_poll")
    with animrt.Runtime() as rt:
        m = rt.machine(rt.definition(CARD))
        m.send("appear")
        m.send("fetched", request=1, progress=0.724)
        with pytest.raises(KeyboardInterrupt):
            rt.tick(0.0)
        m.send("hide")
        rt.tick(0.5)
        events = [e for e in rt.events() if not isinstance(e, (animrt.AnimationStarted, animrt.AnimationStopped))]
        assert events[:5] == [
            animrt.StateChanged(0.0, m, None, "hidden", {}),
            animrt.StateChanged(0.0, m, "hidden", "loading", {}),
            animrt.RequestIssued(0.0, m, "fetch", 1, {}),
            animrt.StateChanged(0.0, m, "loading", "ready", {"progress": 0.724, "title": "72%"}),
            animrt.Emitted(0.0, m, "shown", {"title": "72%"}),
        ]
        assert len(events) == 6 and isinstance(events[5], animrt.StateChanged)
        assert (events[5].from_state, events[5].to_state) == ("ready", "hidden")


def test_a_hosts_own_page_does_not_claim_the_repositorys_tooling():
    """The page a host exports for its own machine began, after its title, with "Generated from the
    definition by `make machine-docs`; `make test` fails if it no longer matches", which is true only
    of the pages committed in docs/machines/ (tools/machine_docs.c adds it to those): the page goes from
    its title to its diagram and its tables."""
    toggle = {"name": "toggle", "description": "A switch.", "initial": "off", "events": {"tap": {}},
              "states": {"off": {"on": {"tap": "on"}}, "on": {"on": {"tap": "off"}}}}
    with animrt.Runtime() as rt:
        page = rt.definition(toggle).markdown()
        assert page.startswith("# toggle\n\nA switch.\n\n![statechart of toggle](toggle.svg)\n\n## Events\n\n")
        assert "make" not in page
        page = rt.definition(named="progressCard").markdown()
        assert page.startswith("# progressCard\n\n")
        assert "make machine-docs" not in page
        assert "\n\n![statechart of progressCard](progressCard.svg)\n\n## Configuration\n\n" in page


def test_a_definitions_events_are_those_the_host_sends():
    """Definition.events listed error.execution, which a host cannot send (the machine raises it, and a
    send of it is refused): it lists the events the host sends, each at its C id, and the C ABI's count
    is one more. A failure while the machine handles error.execution is still reported naming it."""
    faulty = {"name": "faulty", "events": {"tap": {}, "reset": {}}, "context": {"n": {"type": "number", "initial": 0}},
              "initial": "a",
              "states": {"a": {"on": {"tap": {"actions": [{"assign": {"n": "1 / context.n"}}]},
                                      "error.execution": {"target": "b", "actions": [{"assign": {"n": "2 / context.n"}}]}}},
                         "b": {"on": {"reset": "a"}}}}
    with animrt.Runtime() as rt:
        d = rt.definition(faulty)
        assert d.events == ("reset", "tap")
        assert rt.definition(named="progressCard").events == (
            "appear", "fetch", "fetchFailed", "fetched", "hide", "progress", "retry")
        count = ctypes.c_size_t()
        assert lib.animrt_definition_count(rt._ptr, d._id, 1, ctypes.byref(count)) == 0 and count.value == 3
        for i, name in enumerate(d.events):  # each name's position is its C id
            out = ctypes.c_int32()
            assert lib.animrt_definition_id(rt._ptr, d._id, 1, name.encode(), ctypes.byref(out)) == 0 and out.value == i
        m = rt.machine(d)
        with pytest.raises(animrt.InvalidArgumentError, match="'error.execution' is raised by the machine itself"):
            m.send("error.execution")
        rt.tick(0)
        rt.events()
        assert m.send("tap") is animrt.SendOutcome.TAKEN
        rt.tick(0)
        errors = [e for e in rt.events() if isinstance(e, animrt.MachineError)]
        assert [e.event for e in errors] == ["tap", "error.execution"]
        assert errors[1].message == ("states.a.on.error.execution.actions[0]: context.n would be inf; context "
                                     "numbers must be finite")
        assert m.state == "b"
