"""Every public name of the binding is documented, with an example (R5.2)."""
import ast
import inspect
import math
import re
import sys
import textwrap

import pytest

import animrt

# A docstring shows an example when it holds code: a doctest, a literal block, or inline code
# with a call, an assignment, an index or a key path.
EXAMPLE = re.compile(r">>>|::\n|``[^`]*[(=\[\"'.][^`]*``")
RAISING = ("__iter__", "__contains__")  # they only say that a layer is not a container


def public_members():
    for name in animrt.__all__:
        obj = getattr(animrt, name)
        if isinstance(obj, (int, str)) or not (inspect.isclass(obj) or inspect.isfunction(obj)):
            continue  # version numbers and type aliases, documented where they are defined
        yield name, obj
        if inspect.isclass(obj):
            # its own members, and those of the private base classes it gets public members from
            own = [k for k in obj.__mro__ if k is obj or (k.__module__.startswith("animrt") and k.__name__[0] == "_")
                   or k.__name__ == "Object"]
            for attr, member in [(a, m) for k in own for a, m in vars(k).items()]:
                public = not attr.startswith("_") or attr in ("__getitem__", "__setitem__", "__len__") + RAISING
                if public and (inspect.isfunction(member) or isinstance(member, property)):
                    yield f"{name}.{attr}", member


def test_every_public_name_has_a_docstring_with_an_example():
    missing, without_example = [], []
    for name, obj in public_members():
        doc = obj.__doc__ if isinstance(obj, property) else inspect.getdoc(obj)
        if not doc:
            missing.append(name)
        elif not EXAMPLE.search(doc) and not name.endswith(RAISING):
            without_example.append(name)
    assert missing == [], f"no docstring: {missing}"
    assert without_example == [], f"no example in the docstring: {without_example}"


def test_help_shows_the_docstring_not_a_source_comment():
    text = inspect.getdoc(animrt.Runtime.layer)
    assert text.startswith("A new layer") and "rt.layer(spinner)" in text
    assert 'duration="settling"' in inspect.getdoc(animrt.Runtime.spring)
    for method in (animrt.Runtime.basic, animrt.Runtime.keyframe, animrt.Runtime.group, animrt.Runtime.barrier,
                   animrt.Runtime.start_timer, animrt.Runtime.transaction, animrt.Runtime.reader,
                   animrt.Layer.value):
        assert "``" in inspect.getdoc(method) or "::" in inspect.getdoc(method), method


# A result a docstring states: ``expression`` → number inline, or a literal block's line ``expression  # number``.
STATED = re.compile(r"``([^`]+)``\s*→\s*(?:``)?(-?[0-9][0-9.]*[0-9])")
COMMENTED = re.compile(r"^(?P<code>[^#]*?)\s+#\s*(?P<number>-?[0-9][0-9.]*[0-9])\b")
LITERAL_BLOCK = re.compile(r"::\n\n((?:    .*\n?|\n)+)")


def examples_namespace(rt):
    """The names the docstrings' examples use without making them: the docs' toast spring, fling and card."""
    return {"animrt": animrt, "math": math, "rt": rt,
            "drop": rt.spring("position.y", from_=-40, to=60, damping=12, stiffness=180),
            "fling": rt.decay("position", (800, -300)), "card": rt.definition(named="progressCard")}


def stated_results():
    """(where, expression, stated number, what the expression gives) for every stated result whose
    expression runs with the names of examples_namespace."""
    for name, obj in public_members():
        doc = obj.__doc__ if isinstance(obj, property) else inspect.getdoc(obj)
        doc = inspect.cleandoc(doc or "")
        for expression, number in STATED.findall(doc):
            *statements, last = expression.split("; ")  # ``power = rt.bind_function(…); power(2, 10)``
            with animrt.Runtime() as rt:
                names = examples_namespace(rt)
                try:
                    exec("\n".join(statements), names)
                    yield name, expression, number, eval(last, names)
                except (NameError, animrt.AnimrtError):  # needs a name it makes elsewhere, such as a bound function
                    pass
        for block in LITERAL_BLOCK.findall(doc):
            lines = textwrap.dedent(block).splitlines()
            with animrt.Runtime() as rt:
                names = examples_namespace(rt)
                for i, line in enumerate(lines):
                    match = COMMENTED.match(line)
                    if not match or not match.group("code").strip():
                        continue
                    try:
                        exec("\n".join(lines[:i]), names)
                        value = eval(match.group("code").strip(), names)
                    except (NameError, animrt.AnimrtError):
                        break
                    yield name, match.group("code").strip(), match.group("number"), value


def test_the_results_docstrings_state_are_what_the_library_gives():
    """help() is where a newcomer checks a number: drop.response was said to be 0.628 (the default
    spring's) and a fling's settling_duration 3.9 (3.72)."""
    checked, wrong = [], []
    for name, expression, number, value in stated_results():
        decimals = len(number.split(".")[1]) if "." in number else 0
        checked.append(expression)
        if not isinstance(value, (int, float)) or round(value, decimals) != float(number):
            wrong.append(f"{name}: {expression} is {value!r}, not {number}")
    assert wrong == []
    assert {"drop.response", "fling.settling_duration", 'm.context["progress"]',
            'rt.evaluate_timing_function("easeInEaseOut", 0.25)'} <= set(checked), checked


def test_the_machine_config_in_the_docstrings_is_the_progress_cards():
    """The examples pass config= to the progress card; a parameter it does not have is refused."""
    with animrt.Runtime() as rt:
        parameters = set(rt.definition(named="progressCard").config)
    for doc in (inspect.getdoc(animrt.Runtime.machine), inspect.getdoc(sys.modules["animrt._machine"])):
        for config in re.findall(r"config=(\{[^}]*\})", doc):
            assert set(ast.literal_eval(config)) <= parameters, config


def test_the_pause_and_resume_help_shows_continue_from_the_paused_frame():
    """QA1673's idiom as Layer.convert_time_from shows it, run: set_timing(speed=1) alone (once called
    the resume) jumps ahead by the time spent paused, 25 → 55 here, not 30."""
    blocks = LITERAL_BLOCK.findall(inspect.getdoc(animrt.Layer.convert_time_from))
    assert len(blocks) == 1
    pause, resume = textwrap.dedent(blocks[0]).split("\n...\n")
    with animrt.Runtime() as rt:
        card = rt.layer()
        card.add_animation(rt.basic("position.x", from_=0, to=100, duration=2.0), key="slide")  # 50 a second
        rt.tick(0.0)
        rt.tick(0.5)
        names = {"card": card, "now": rt.time}
        exec(pause, names)
        for t in (1.0, 1.5):
            rt.tick(t)
            assert card.presentation("position.x") == 25.0
        names["now"] = rt.time
        exec(resume, names)
        rt.tick(1.6)
        assert card.presentation("position.x") == pytest.approx(30.0)
        rt.tick(2.0)
        assert card.presentation("position.x") == pytest.approx(50.0)


def test_the_machine_help_answers_the_request_its_machine_made_not_a_number_written_in():
    """help(animrt.Machine) answered with request=1, right only for the first request a runtime
    makes: request numbers count across a runtime's machines, and any other is stale."""
    block = textwrap.dedent(LITERAL_BLOCK.findall(inspect.getdoc(animrt.Machine))[0])
    assert "request=1" not in block and "asked.id" in block
    with animrt.Runtime() as rt:
        earlier = rt.machine(rt.definition(named="progressCard"))
        earlier.send("fetch")  # request 1 is this card's
        names = examples_namespace(rt)
        exec(block, names)
        m = names["m"]
        assert names["asked"].id == 2 and names["asked"].machine is m
        assert m.state == "ready" and m.context["progress"] == 0.35
        assert isinstance(names["ring"], animrt.Layer)
