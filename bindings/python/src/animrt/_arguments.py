"""Checks of Python arguments before they reach the library.

Each check names the parameter as the caller wrote it, says what is valid
and, for a misspelt name, suggests the closest valid one. The library checks
ranges and finiteness itself; these checks catch what ctypes would turn into
an unhelpful error (a string where a number goes, an unknown option name).
"""
from __future__ import annotations

import collections.abc
import difflib
import functools
import inspect
import numbers
from enum import IntEnum
from typing import Any, Callable, Iterable, Mapping, Optional, Sequence, SupportsFloat, Type, TypeVar

from ._errors import ArgumentTypeError, EnumError, InvalidArgumentError, RangeError

E = TypeVar("E", bound=IntEnum)
F = TypeVar("F", bound=Callable[..., Any])

#: The largest token a Python caller may pass to Barrier.notify: larger
#: tokens carry the binding's own callables.
MAX_TOKEN = 2 ** 63 - 1


def describe(value: object) -> str:
    """`'2' (a str)`: a value and its type, for messages."""
    if value is None:
        return "None"
    kind = type(value).__name__
    article = "an" if kind[:1].lower() in "aeiou" else "a"
    text = repr(value)
    if len(text) > 60:
        text = text[:57] + "..."
    return f"{text} ({article} {kind})"


def closest(word: str, candidates: Iterable[str]) -> Optional[str]:
    """The candidate a misspelt `word` most likely meant, if any is close."""
    options = list(candidates)
    folded = {c.lower().replace("_", "").replace("-", ""): c for c in options}
    key = word.lower().replace("_", "").replace("-", "")
    if key in folded:
        return folded[key]
    match = difflib.get_close_matches(key, list(folded), n=1, cutoff=0.6)
    return folded[match[0]] if match else None


def did_you_mean(word: str, candidates: Iterable[str]) -> str:
    """"; did you mean 'x'?" or ""."""
    near = closest(word, candidates)
    return f"; did you mean {near!r}?" if near is not None else ""


def related(word: str, candidates: Iterable[str], limit: int = 3) -> list[str]:
    """The candidates that share whole words with `word` when none is spelt like it: one whose words
    hold all of `word`'s ("add" → add_animation, "keys" → animation_keys), or whose words all stand in
    `word` ("create_layer" → layer). At most `limit`, shortest first."""
    words = set(word.lower().strip("_").split("_"))
    found = {c for c in candidates if c and (words <= set(c.lower().split("_")) or set(c.lower().split("_")) <= words)}
    return sorted(found, key=lambda c: (len(c), c))[:limit]


def suggest_name(word: str, candidates: Iterable[str]) -> str:
    """"; did you mean 'x'?" for the closest spelling, else for the names sharing its words
    ("; did you mean 'remove_animation' or 'remove_all_animations'?"), or ""."""
    options = list(candidates)
    near = did_you_mean(word, options)
    if near:
        return near
    names = [repr(n) for n in related(word, options)]
    if not names:
        return ""
    return "; did you mean " + (names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]) + "?"


def counted(n: int, noun: str) -> str:
    """`n` and `noun`, plural unless `n` is 1, as the library's messages count ("1 argument",
    "2 arguments")."""
    return f"1 {noun}" if n == 1 else f"{n} {noun}s"


def unknown_name(word: str, names: Sequence[str], plural: str) -> str:
    """What a message about `word`, which none of `names` is, goes on with, as the library's lookups
    by name say it: the closest ("; did you mean 'tap'?"), else the names there are, the first ten
    (" (events: reset, start, …)"), else that there are none ("; it has no events")."""
    near = closest(word, names)
    if near is not None:
        return f"; did you mean {near!r}?"
    if not names:
        return f"; it has no {plural}"
    return f" ({plural}: {', '.join(names[:10])}{', …' if len(names) > 10 else ''})"


def double(value: SupportsFloat, name: str) -> float:
    """`value` as a float; one no double holds (``10 ** 400``) is a RangeError naming `name`, where
    float() raises a bare OverflowError."""
    try:
        return float(value)
    except OverflowError:
        pass
    if isinstance(value, numbers.Integral):
        raise RangeError(f"{name} is an int of {digits(int(value))} digits; a number must be a double (at most about 1.8e308)")
    raise RangeError(f"{name} is past the largest double (about 1.8e308)")


def digits(n: int) -> int:
    """How many decimal digits `n` has, counted without str() (which stops at 4300 digits)."""
    n = abs(n)
    count = int(n.bit_length() * 0.30102999566398120) + 1  # the count, or one more
    lowest: int = 10 ** (count - 1)  # the least number of `count` digits
    return count - 1 if n < lowest and count > 1 else count


def shown(n: int) -> str:
    """An int as a message shows it: its digits, or, past what str() writes (4300 digits unless the
    program changed it), how many it has."""
    try:
        return str(n)
    except ValueError:
        return f"an int of {digits(n)} digits"


def number(value: object, name: str) -> float:
    """`value` as a float; a bool, a string or None is refused."""
    if isinstance(value, numbers.Real) and not isinstance(value, bool):
        return double(value, name)
    raise ArgumentTypeError(f"{name} is {describe(value)}; it must be a number")


def seconds(value: object, name: str) -> float:
    """A time in seconds (the message shows how to pass one)."""
    if isinstance(value, numbers.Real) and not isinstance(value, bool):
        return double(value, name)
    raise ArgumentTypeError(f"{name} is {describe(value)}; it must be a number of seconds, e.g. 2.0")


def integer(value: object, name: str, low: int, high: int) -> int:
    """An int in [low, high]."""
    if isinstance(value, numbers.Integral) and not isinstance(value, bool):
        n = int(value)
        if low <= n <= high:
            return n
        raise RangeError(f"{name} is {shown(n)}; it must be from {low} to {high}")
    raise ArgumentTypeError(f"{name} is {describe(value)}; it must be an int from {low} to {high}")


def token(value: object, name: str = "token", callable_goes: Optional[str] = None) -> int:
    """A host token: an int from 0 to 2**63 - 1. Where a callable may stand in the token's place, the
    message offers one; where it goes elsewhere (a timer's callback, a transaction's on_complete),
    `callable_goes` says where, to a callable given as the token."""
    if isinstance(value, numbers.Integral) and not isinstance(value, bool):
        n = int(value)
        if 0 <= n <= MAX_TOKEN:
            return n
        raise RangeError(f"{name} is {shown(n)}; tokens go from 0 to 2**63 - 1 (larger ones carry the binding's callables)")
    if callable_goes is None:
        raise ArgumentTypeError(f"{name} is {describe(value)}; it must be an int from 0 to 2**63 - 1, or a callable")
    raise ArgumentTypeError(f"{name} is {describe(value)}; it must be an int from 0 to 2**63 - 1"
                            + (f"; {callable_goes}" if callable(value) else ""))


def boolean(value: object, name: str) -> bool:
    """True or False (0 and 1 are accepted too)."""
    if isinstance(value, bool):
        return value
    if isinstance(value, numbers.Integral) and int(value) in (0, 1):
        return bool(value)
    if is_numpy_bool(value):
        return bool(value)
    raise ArgumentTypeError(f"{name} is {describe(value)}; it must be True or False")


def in_order(value: object, name: str, items: str, dict_hint: str = "") -> None:
    """Refuses a set or a mapping where a list's `items` are taken in their order: a set's order is
    arbitrary and a dict iterates over its keys, so either would be taken without a word, and wrongly."""
    if isinstance(value, collections.abc.Set):
        raise ArgumentTypeError(f"{name} is {describe(value)}; a set has no order and {name} is taken in order: "
                                f"pass a list {items}")
    if isinstance(value, collections.abc.Mapping):
        raise ArgumentTypeError(f"{name} is {describe(value)}; a dict would give its keys: pass a list {items}"
                                + dict_hint)


def is_numpy_bool(value: object) -> bool:
    """Whether `value` is numpy's boolean scalar (``array > 0.5`` gives them): ``numpy.bool_``, whose
    class is named ``bool`` since numpy 2 (``numpy.bool``), ``bool_`` before."""
    kind = type(value)
    return kind.__module__ == "numpy" and kind.__name__ in ("bool", "bool_")


def text(value: object, name: str) -> str:
    """A str that C can carry: no NUL character (C strings end there, so what follows would be lost)
    and no lone surrogate (not encodable as UTF-8)."""
    if not isinstance(value, str):
        raise ArgumentTypeError(f"{name} is {describe(value)}; it must be a str")
    if "\0" in value:
        raise InvalidArgumentError(f"{name} {value[:60]!r} has a NUL character (at {value.index(chr(0))}): C strings "
                                   "end there, so what follows it would be lost")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as e:
        raise InvalidArgumentError(f"{name} {value[:60]!r} is not text UTF-8 can carry: {e.reason} at "
                                   f"{e.start}") from None
    return value


def callback(value: object, name: str) -> Callable[[], object]:
    """A callable taking no arguments."""
    if callable(value):
        arity(value, 0, name, "no arguments")
        return value
    raise ArgumentTypeError(f"{name} is {describe(value)}; it must be a callable taking no arguments")


def arity(fn: Callable[..., Any], count: int, name: str, arguments: str) -> None:
    """Refuses, where it is handed over, a callable that could never be called with `count` positional
    arguments (described as `arguments`), rather than letting it fail at a later tick, far from the
    mistake. A callable whose signature Python cannot tell (some builtins) is let through."""
    try:
        signature = inspect.signature(fn)
    except (TypeError, ValueError):
        return
    try:
        signature.bind(*([None] * count))
    except TypeError as e:
        label = getattr(fn, "__qualname__", None) or type(fn).__name__
        raise ArgumentTypeError(f"{name} is called with {arguments}; {label}{signature} cannot be called so ({e})") \
            from None


def choice(value: object, name: str, enum: Type[E], names: Mapping[str, E]) -> E:
    """An enum member from a member, its int value or one of `names`."""
    if isinstance(value, enum):
        return value
    valid = ", ".join(repr(n) for n in names)
    if isinstance(value, str):
        if value in names:
            return names[value]
        raise EnumError(f"{name} is {value!r}; valid: {valid}{did_you_mean(value, names)}")
    if isinstance(value, numbers.Integral) and not isinstance(value, bool):
        try:
            return enum(int(value))
        except ValueError:
            pass
        raise EnumError(f"{name} is {shown(int(value))}; valid: {valid}, or animrt.{enum.__name__} members")
    raise ArgumentTypeError(f"{name} is {describe(value)}; valid: {valid}, or animrt.{enum.__name__} members")


#: Core Animation's names for what the factories take as arguments of their own.
CORE_ANIMATION_VALUES = {"fromValue": "from_", "toValue": "to", "byValue": "by"}


#: Other animation libraries' names for options, with the names they may stand for here: the first
#: that the call takes is suggested (spelling alone finds none, or a wrong one: 'friction' is not
#: 'direction').
OPTION_HABITS = {
    "easing": ("Web Animations' and CSS's easing", ("timing_function",)),
    "tension": ("react-spring's tension", ("stiffness",)),
    "friction": ("react-spring's friction", ("damping",)),
    "completion": ("UIKit's completion", ("on_finish", "on_complete", "callback")),
}


def options(given: Mapping[str, Any], known: Sequence[str], where: str, values: bool = True) -> None:
    """Refuses option names that `where` does not take, suggesting the closest (`values`: `where`
    takes from_=, to= and by=, so Core Animation's names for them are pointed there)."""
    for key in given:
        if key not in known:
            meant = CORE_ANIMATION_VALUES.get(key) if values else None
            if key == "from" and values:   # only reachable through **{"from": …}, as from= is a syntax error
                hint = "; from is a Python keyword: the argument is from_="
            elif meant:
                hint = f"; Core Animation's {key} is {meant}= here"
            elif key in OPTION_HABITS and any(n in known for n in OPTION_HABITS[key][1]):
                whose, names = OPTION_HABITS[key]
                hint = f"; did you mean {next(n for n in names if n in known)!r}? ({whose})"
            else:
                hint = did_you_mean(key, known)
            raise ArgumentTypeError(f"{where} got an unknown option {key!r}{hint} (options: {', '.join(known)})")



def too_many_in_order(where: str, positional: Sequence[str], names: Sequence[str], given: int) -> ArgumentTypeError:
    """The error for a call given more positional arguments than `positional` (self first, for a method)
    holds, where Python would say only how many: ``rt.machine(card, {"width": 200})`` is told that
    the definition alone goes in order, and which names the others are passed by."""
    own = [n for n in positional if n != "self"]
    extra = given - (len(positional) - len(own))
    by_name = [n for n in names if n not in own]
    taken = (f"takes {len(own)} positional argument{'s' if len(own) != 1 else ''} ({', '.join(own)})" if own
             else "takes no positional arguments")
    message = f"{where} {taken} but {extra} {'was' if extra == 1 else 'were'} given"
    if by_name:
        message += f"; {'the others are' if own else 'they are'} passed by name: {', '.join(n + '=…' for n in by_name)}"
    return ArgumentTypeError(message)


def missing(where: str, needs: Mapping[str, str], required: Sequence[str], args: Sequence[Any],
            kwargs: Mapping[str, Any]) -> None:
    """Refuses a call that leaves out a required argument `needs` describes, where Python would raise a
    bare "missing 1 required positional argument": ``rt.tick()`` is told what tick wants and how it is
    usually given. `required` is the function's required positional parameters, self first for a method."""
    for name in required[len(args):]:
        if name not in kwargs and name in needs:
            raise ArgumentTypeError(f"{where} needs {name}, {needs[name]}")


def keywords(where: str, needs: Optional[Mapping[str, str]] = None) -> Callable[[F], F]:
    """Has a function refuse a keyword it does not take as :func:`options` does (the closest name
    suggested, every name listed), where Python would raise a bare "unexpected keyword argument".
    With `needs` (a required parameter's name → what it is, with an example), a call that leaves one
    out says so (:func:`missing`). A call whose keywords are all known costs one set comparison, and
    one that gives every required argument in order one comparison of lengths."""
    def decorate(fn: F) -> F:
        parameters = inspect.signature(fn).parameters.values()
        names = [p.name for p in parameters
                 if p.kind in (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
                 and p.name != "self"]
        known = frozenset(names)
        positional = [p.name for p in parameters if p.kind in (inspect.Parameter.POSITIONAL_ONLY,
                                                             inspect.Parameter.POSITIONAL_OR_KEYWORD)]
        most = len(positional) if not any(p.kind is inspect.Parameter.VAR_POSITIONAL for p in parameters) else None
        required = [p.name for p in parameters if p.kind in (inspect.Parameter.POSITIONAL_ONLY,
                                                           inspect.Parameter.POSITIONAL_OR_KEYWORD)
                    and p.default is inspect.Parameter.empty]
        fewest = len(required) if needs else 0

        @functools.wraps(fn)
        def checked(*args: Any, **kwargs: Any) -> Any:
            if most is not None and len(args) > most:
                raise too_many_in_order(where, positional, names, len(args))
            if len(args) < fewest:
                missing(where, needs or {}, required, args, kwargs)
            if kwargs and not known.issuperset(kwargs):
                options(kwargs, names, where, values=False)
            return fn(*args, **kwargs)
        return checked  # type: ignore[return-value]
    return decorate
