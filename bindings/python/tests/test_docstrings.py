"""Every public name of the binding is documented, with an example (R5.2)."""
import inspect
import re

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
