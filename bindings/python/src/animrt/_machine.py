"""State machines: definitions (JSON statecharts, docs/machines.md) and the instances that run them.

A :class:`Definition` is loaded once into a runtime; each :class:`Machine`
made from it owns its parts (ordinary :class:`Layer` objects), runs on the
runtime's clock and reports what it does as events, delivered by
:meth:`Runtime.tick` with the animation events::

    card = rt.definition(pathlib.Path("progress_card.json"))
    m = rt.machine(card, config={"jitterThreshold": 0.1}, locale="zh")
    m.send("fetch")
    rt.tick(0.0)
    for event in rt.events():
        if isinstance(event, animrt.RequestIssued):
            start_download(event.id)
"""
from __future__ import annotations

import asyncio
import collections.abc
import functools
import json
import math
import numbers
import os
import re
import stat
from ctypes import byref, c_int, c_int32, c_size_t, c_uint64, create_string_buffer
from typing import TYPE_CHECKING, Any, Callable, Dict, FrozenSet, Iterator, List, Mapping, Optional, Tuple, TypeVar, Union

from . import _arguments as check
from ._enums import SendOutcome
from ._errors import (AnimrtError, ArgumentTypeError, BufferTooSmallError, ClosedError, HandleError,
                      InvalidArgumentError, KindError, NotFoundError, RangeError, StateError)
from ._events import RequestIssued
from ._ffi import Value, lib
from ._layer import Layer, _string_out
from ._object import Object, Scoped, Suggests

if TYPE_CHECKING:
    from ._runtime import Runtime

#: A value a machine holds: a number, a boolean or a string. A payload field declared whole
#: (``"integer": true``) is reported as an int; every other number as a float.
MachineValue = Union[int, float, bool, str]
#: A config value: a number, a boolean, a string, or the components of a point, size, rect, colour or transform.
ConfigValue = Union[float, bool, str, Tuple[float, ...], List[float]]

# animrt_name_kind
_STATE, _EVENT, _CONTEXT, _EMIT, _REQUEST, _PART, _CONFIG = range(7)
#: The event a machine raises itself when an action or a guard fails: the last event id, never sent by the host.
ERROR_EVENT = "error.execution"
# animrt_export_format
_DOT, _MARKDOWN = 0, 1
# animrt_value_type
_NUMBER, _BOOL, _STRING, _INTEGER, _POINTER = 1, 2, 3, 4, 5


F = TypeVar("F", bound=Callable[..., Any])


def name_in(error: AnimrtError, what: str, name: Optional[str]) -> AnimrtError:
    """`error` with its message led by ``what 'name': `` (``machine 'progressCard': …``), unless the
    name is unknown or the message already leads with it: with several machines or definitions
    about, the message says which one failed. The exception is changed in place, so a ``raise`` of
    it keeps its class, cause and traceback."""
    if name is not None and not getattr(error, "_names_machine", False) and not _leads_with(error.message, name):
        error.message = f"{what} {name!r}: {error.message}"
        error.args = (error.message,) + error.args[1:]
    return error


def _naming_it(error: AnimrtError) -> AnimrtError:
    """`error`, marked as a message of the binding's own that names its machine's definition in its
    own words (``the snapshot is of a 'networkButton' machine, and …``): :func:`name_in` leaves it."""
    error._names_machine = True  # type: ignore[attr-defined]
    return error


def _leads_with(message: str, name: str) -> bool:
    """Whether `message` already names the machine or definition `name`: led by ``machine 'name'``
    or ``definition 'name'`` (named once already), or by ``'name' has no`` as the library says what
    a definition lacks (``'progressCard' has no event 'tapp'``). The name anywhere else is not
    enough: a state, event, field or timer may have the machine's name (``field 'toggle' of
    'tap'``), and ``'tap' has no payload field`` speaks of an event."""
    quoted = repr(name)
    if message.startswith((f"machine {quoted}", f"definition {quoted}")):
        return True
    return message.startswith(f"{quoted} has no ") and not message.startswith(f"{quoted} has no payload field")


def _naming_machine(method: F) -> F:
    """Has an error raised by a Machine method (or a read of its :class:`Context`) name the
    machine's definition."""
    @functools.wraps(method)
    def wrapper(self: Union[Machine, Context], *args: Any, **kwargs: Any) -> Any:
        try:
            return method(self, *args, **kwargs)
        except AnimrtError as e:
            machine = self._machine if isinstance(self, Context) else self
            definition: Optional[Definition] = getattr(machine, "_definition", None)  # None: a stand-in
            raise name_in(e, "machine", None if definition is None else definition._label())
    return wrapper  # type: ignore[return-value]


def _values_by_name(send: F) -> F:
    """Has ``m.send('fetched', 1, 0.35)``, the payload's values given as arguments, show the send with
    the event's field names, where Python would raise a bare "takes from 2 to 3 positional
    arguments". The signature help() and type checkers see is send's own."""
    @functools.wraps(send)
    def checked(self: Machine, *args: Any, **kwargs: Any) -> Any:
        if len(args) > 2:
            values = args[1:]
            raise ArgumentTypeError(f"m.send() got the payload's values as arguments, "
                                    f"{', '.join(repr(v) for v in values)}; "
                                    f"{self._by_name(check.text(args[0], 'event'), values)}")
        return send(self, *args, **kwargs)
    return checked  # type: ignore[return-value]


def decode_value(v: Value) -> MachineValue:
    """A tagged value as Python: float, bool or str, and an int for ANIMRT_TYPE_INTEGER (a payload
    field declared ``"integer": true``), so that a count reads as one: ``range(event.payload["days"])``."""
    if v.type == _BOOL:
        return bool(v.boolean)
    if v.type == _STRING:
        return (v.string or b"").decode("utf-8")
    if v.type == _INTEGER:
        return int(v.integer)
    return float(v.number)


class Definition(Object):
    """A machine definition loaded into a runtime (``animrt_definition_load``), made by :meth:`Runtime.definition`.

    It knows its names, and draws itself::

        button = rt.definition({"name": "toggle", "events": {"tap": {}}, "initial": "off",
                                "states": {"off": {"on": {"tap": "on"}}, "on": {"on": {"tap": "off"}}}})
        button.states          # ('off', 'on')
        print(button.dot())    # Graphviz
    """

    _destroy_fn = lib.animrt_definition_destroy

    def __init__(self, runtime: Runtime, handle: int) -> None:
        super().__init__(runtime, handle)
        self._names: Dict[int, Tuple[str, ...]] = {}
        self._fields: Dict[Tuple[int, int], Tuple[str, ...]] = {}
        self._name: Optional[str] = None
        #: The library name it was loaded by (``named=``), shown by the repr when it is not its own.
        self._registered: Optional[str] = None
        self._forgotten = False  # destroyed: names come from what was read before
        #: its top-level final states, in which a machine finishes (read for Machine.wait_for)
        self._finals: Optional[FrozenSet[str]] = None

    def _list(self, kind: int) -> Tuple[str, ...]:
        found = self._names.get(kind)
        if found is None:
            count = c_size_t()
            self._runtime._call(lib.animrt_definition_count, self._id, kind, byref(count))
            found = tuple(_string_out(self._runtime._call, lib.animrt_definition_name, self._id, kind, i)
                          for i in range(count.value))
            self._names[kind] = found
        return found

    def _field_names(self, kind: int, item: int) -> Tuple[str, ...]:
        key = (kind, item)
        found = self._fields.get(key)
        if found is None:
            count = c_size_t()
            self._runtime._call(lib.animrt_definition_field_count, self._id, kind, item, byref(count))
            found = tuple(_string_out(self._runtime._call, lib.animrt_definition_field_name, self._id, kind, item, i)
                          for i in range(count.value))
            self._fields[key] = found
        return found

    def _id_of(self, kind: int, name: str, parameter: str) -> int:
        names = self._list(kind)
        if name in names:
            return names.index(name)
        if self._forgotten:  # the library can no longer be asked: the same message, from what was read
            what = _KIND_NAMES[kind]
            shown = [n for n in names if not n.startswith("error.")] if kind == _EVENT else list(names)
            raise NotFoundError(f"{self._name!r} has no {what} named {name!r}"
                                + check.unknown_name(check.text(name, parameter), shown, what + "s"))
        out = c_int32()
        self._runtime._call(lib.animrt_definition_id, self._id, kind, check.text(name, parameter).encode(), byref(out))
        return out.value  # not reached: an unknown name raises NotFoundError with a suggestion

    @property
    def name(self) -> str:
        """The machine's name, as its definition says: ``card.name`` → 'progressCard'."""
        if self._name is None:
            first = self.markdown().split("\n", 1)[0]
            self._name = first[2:] if first.startswith("# ") else first
        return self._name

    def _label(self) -> Optional[str]:
        """The name for a repr, or None when it can no longer be read (the definition destroyed
        through ``animrt._ffi`` before it was first asked for; :meth:`destroy` and
        :meth:`Runtime.close` read it first): a repr must not raise, since it is what a traceback,
        a log line or a debugger shows of an object."""
        try:
            return self.name
        except AnimrtError:
            return None

    def __repr__(self) -> str:
        name = self._label()
        if name is None:
            return f"<Definition {self._id:#x}>"
        if self._registered is not None and self._registered != name:  # registered under another name
            return f"<Definition {name!r} registered as {self._registered!r} {self._id:#x}>"
        return f"<Definition {name!r} {self._id:#x}>"

    @property
    def states(self) -> Tuple[str, ...]:
        """Every state's full name, in id order: ``("completed", "completed.celebrating", …)``."""
        return self._list(_STATE)

    @property
    def events(self) -> Tuple[str, ...]:
        """The events the host may send, in id order: ``"tap" in button.events``.

        ``error.execution`` is not among them: the machine raises it itself when an action or a
        guard fails (a definition handles it in ``"on"``, and :class:`MachineError` events report
        the failure), and a send of it is refused. The C ABI counts it, as the last event id:
        ``animrt_definition_count`` for ``ANIMRT_NAME_EVENT`` gives one more than ``len(events)``
        and ``animrt_definition_name`` names it; each name here keeps its C id, its position."""
        names = self._list(_EVENT)
        return names[:-1] if names and names[-1] == ERROR_EVENT else names

    @property
    def context_fields(self) -> Tuple[str, ...]:
        """The names of the context fields: ``card.context_fields`` → ('actionTitle', 'celebrating', …)."""
        return self._list(_CONTEXT)

    @property
    def emits(self) -> Tuple[str, ...]:
        """The events the machine emits to the host: ``card.emits``."""
        return self._list(_EMIT)

    @property
    def requests(self) -> Tuple[str, ...]:
        """The operations the machine asks the host to perform: ``card.requests`` → ('fetchProgress',)."""
        return self._list(_REQUEST)

    @property
    def parts(self) -> Tuple[str, ...]:
        """The names of the parts (layers) an instance owns: ``button.parts``."""
        return self._list(_PART)

    @property
    def config(self) -> Tuple[str, ...]:
        """The names of the config parameters: ``button.config`` → ('doneSeconds', 'spinSeconds', 'width')."""
        return self._list(_CONFIG)

    def payload_fields(self, event: str) -> Tuple[str, ...]:
        """The payload fields of `event`, in order (a result's first is ``request``):
        ``card.payload_fields("fetched")`` → ('request', 'progress', 'hint').

        `event` is one the host sends; the name of a request the machine makes, or of an event it
        emits, raises :class:`NotFoundError` saying so and where that payload is read."""
        if isinstance(event, str) and event not in self._list(_EVENT):
            hint = self._sent_by_the_machine(event)
            if hint:
                raise NotFoundError(f"{self.name!r} has no event named {event!r}{hint}")
        return self._field_names(_EVENT, self._id_of(_EVENT, event, "event"))

    def _sent_by_the_machine(self, name: str) -> str:
        """What `name`, no event the host sends, is when the machine sends it: a request it makes or
        an event it emits, with where the host reads its payload; else ""."""
        def fields(kind: int, item: int) -> str:
            names = self._field_names(kind, item)
            return f"fields: {', '.join(names)}" if names else "no fields"
        if name in self.requests:
            return (": it is a request the machine makes of the host; its payload "
                    f"({fields(_REQUEST, self.requests.index(name))}) is read from the RequestIssued event, "
                    "event.payload, and the host answers it by sending an event that carries the request's id, request=event.id")
        if name in self.emits:
            return (": it is an event the machine emits for the host to read, not one it takes; its payload "
                    f"({fields(_EMIT, self.emits.index(name))}) is read from the Emitted event, event.payload")
        return ""

    def dot(self) -> str:
        """The statechart as Graphviz DOT (``animrt_definition_export``): ``open("card.dot", "w").write(card.dot())``."""
        return _string_out(self._runtime._call, lib.animrt_definition_export, self._id, _DOT)

    def markdown(self) -> str:
        """A Markdown page: configuration, events, context, parts, copy and the full transition table:
        ``print(card.markdown())``."""
        return _string_out(self._runtime._call, lib.animrt_definition_export, self._id, _MARKDOWN)

    def destroy(self) -> None:
        """Forgets the definition (``animrt_definition_destroy``); machines made from it keep running:
        ``card.destroy()``. Destroying twice does nothing."""
        if self._finalizer is not None and self._finalizer.alive:
            # Machines made from it keep running, and are named through it: read every name
            # and field first, since the handle cannot be asked once it is destroyed.
            try:
                self._label()
                for kind in _KIND_NAMES:
                    for item in range(len(self._list(kind))):
                        if kind not in (_CONTEXT, _PART, _CONFIG):  # the kinds with fields
                            self._field_names(kind, item)
                self._forgotten = True
            except AnimrtError:  # the runtime is closed: there is nothing left to name
                pass
            self._finalizer()


class UnknownFieldError(NotFoundError, KeyError):
    """A context field the machine does not have: a :class:`NotFoundError` with a suggestion, and the
    ``KeyError`` a mapping raises, so ``m.context.get("x", 0)`` and ``"x" in m.context`` work."""

    def __str__(self) -> str:
        return self.message  # not KeyError's quoted repr


class Context(Suggests, Mapping[str, MachineValue]):
    """A machine's context, read live (``animrt_machine_get``): ``machine.context["progress"]`` → 0.35.

    Fields are read by name, as in any mapping, not as attributes: a field may have the name of a
    mapping's method (``keys``, ``items``, ``get``), which ``m.context.keys`` could not tell apart.
    Reading one as an attribute says how it is read (``m.context.progress`` → "a context field is
    read by its name: m.context['progress']")."""

    def __init__(self, machine: Machine) -> None:
        self._machine = machine

    def _hint(self, name: str, reading: bool = False) -> str:
        """A context field read as an attribute: the read that works, or the fields there are."""
        fields = self._machine.definition.context_fields
        if name in fields:
            return f"; a context field is read by its name: m.context[{name!r}]"
        near = check.closest(name, fields)
        if near is not None:
            return f"; a context field is read by its name: did you mean m.context[{near!r}]?"
        # collections.abc's Mapping: typing's alias lists no methods under Python 3.9
        if check.closest(name, [a for a in dir(collections.abc.Mapping) if not a.startswith("_")]) is not None:
            return ""  # a mapping's method misspelt: the closest is suggested
        return (f"; a context field is read by its name, m.context['name'] (its fields: {', '.join(fields)})"
                if fields else "; the machine has no context fields")

    @_naming_machine
    def __getitem__(self, name: str) -> MachineValue:
        """The value of context field `name`: ``m.context["progress"]``; an unknown name raises
        :class:`NotFoundError` with a suggestion (also a ``KeyError``, as in any mapping)."""
        m = self._machine
        if not isinstance(name, str):  # no field has it, as `in` says: the KeyError get() expects
            raise UnknownFieldError(f"context field names are str; {check.describe(name)} names none")
        try:
            field = m.definition._id_of(_CONTEXT, name, "name")
        except NotFoundError as e:
            raise UnknownFieldError(e.message, e.status) from None
        out = Value()
        needed = c_size_t()
        call = m._runtime._call
        try:
            call(lib.animrt_machine_get, m._id, field, byref(out), None, 0, byref(needed))
        except Exception:
            if needed.value == 0:
                raise
            while True:  # again, at its new size, when another thread made it longer in between
                buffer = create_string_buffer(needed.value)
                try:
                    call(lib.animrt_machine_get, m._id, field, byref(out), buffer, needed.value, byref(needed))
                except BufferTooSmallError:
                    if needed.value <= len(buffer):
                        raise
                    continue
                return buffer.value.decode("utf-8")
        return decode_value(out)

    @_naming_machine
    def __contains__(self, name: object) -> bool:
        """Whether the machine has context field `name`: ``"progress" in m.context``."""
        return isinstance(name, str) and name in self._machine.definition.context_fields

    @_naming_machine
    def __iter__(self) -> Iterator[str]:
        """The field names, in id order: ``for name in m.context: ...``."""
        return iter(self._machine.definition.context_fields)

    @_naming_machine
    def __len__(self) -> int:
        """How many context fields the machine has: ``len(m.context)``."""
        return len(self._machine.definition.context_fields)

    def __repr__(self) -> str:
        """The fields and their values, as a dict prints; it never raises (a traceback, a log line or a
        debugger shows it): once the values cannot be read, it says why."""
        try:
            return "{" + ", ".join(f"{k!r}: {self[k]!r}" for k in self) + "}"
        except AnimrtError as e:
            machine = self._machine._repr(live=False)
            name = self._machine.definition._label()
            said = f"machine {name!r}: "
            if isinstance(e, ClosedError):  # the advice the message gives a caller is no part of a repr
                return f"<Context of {machine}: the runtime is closed>"
            return f"<Context of {machine}: {e.message[len(said):] if e.message.startswith(said) else e.message}>"

    def __setitem__(self, name: str, value: object) -> None:
        """Refused, saying how a context changes: ``m.context["progress"] = 0.5`` is a TypeError,
        as in any read-only mapping."""
        raise self._read_only(name)

    def __delitem__(self, name: str) -> None:
        """Refused, as a write is: ``del m.context["progress"]``."""
        raise self._read_only(name)

    def __setattr__(self, name: str, value: object) -> None:
        """Refused for a field's name or any public one (``m.context.progress = 0.5`` would otherwise
        set an attribute that nothing reads, and say nothing)."""
        if name.startswith("_"):
            object.__setattr__(self, name, value)
        else:
            raise self._read_only(name)

    def _read_only(self, name: object) -> ArgumentTypeError:
        events = ", ".join(self._machine.definition.events)
        if name not in self._machine.definition.context_fields:
            return ArgumentTypeError(f"m.context is read-only, and {name!r} is not one of its fields "
                                     f"({', '.join(self._machine.definition.context_fields)}); a machine's "
                                     f"context changes only by its own actions (assign), on the events it is "
                                     f"sent (events: {events})")
        return ArgumentTypeError(f"m.context is read-only: a machine's context changes only by its own actions "
                                 f"(assign), on the events it is sent; send the one that sets {name!r} "
                                 f"(events: {events})")


class Machine(Scoped):
    """A running machine (``animrt_machine_create``), made by :meth:`Runtime.machine`.

    Send it events with their payload fields by name; read its state and
    context; draw its parts like any layer::

        m = rt.machine(card)
        m.send("fetch")                               # the card requests its progress
        rt.tick(rt.time)                              # which the next tick delivers
        asked = next(e for e in rt.events() if isinstance(e, animrt.RequestIssued) and e.machine is m)
        m.send("fetched", request=asked.id, progress=0.35)   # SendOutcome.TAKEN
        m.state                                       # 'ready'
        m.context["progress"]                         # 0.35
        ring = m.part("ring")                         # a Layer

    A result names the request it answers by the id its :class:`RequestIssued` event carried: a
    number written into the program is right only while it happens to be the latest (another is
    :attr:`SendOutcome.STALE`).

    From asyncio, :meth:`wait_for` returns once one of the states given is active:
    ``shown = await button.wait_for("finished.succeeded", "finished.failed")``.

    As a context manager, the end of the ``with`` block destroys it (:meth:`destroy`), also when
    the block raises; a call on it afterwards raises :class:`HandleError`::

        with rt.machine(card) as m:
            m.send("fetch")
    """

    def _copy_hint(self) -> str:
        return ("to run another from where this one is, restore its snapshot: "
                "rt.restore(machine.snapshot(), machine.definition)")

    def _hint(self, name: str, reading: bool = False) -> str:
        """Where what a newcomer reads of a machine is: its definition's names, and its events."""
        if name in ("events", "get_events", "poll", "pending_events", "history"):
            return ("; what it does comes with the runtime's events, rt.events() after rt.tick(t), each naming "
                    "its .machine; the events it accepts are m.definition.events")
        if name in ("on", "on_event", "subscribe", "listen", "add_listener", "on_transition", "on_change"):
            return "; its events come with the runtime's: rt.on_event(handler), each naming its .machine"
        if name in ("wait_until", "until", "when", "wait_state", "wait_for_state", "await_state", "reached"):
            return "; from asyncio, await m.wait_for('ready') waits until one of the states given is active"
        if name in ("current_state", "value", "active_state", "configuration"):
            return "; its active state is m.state, and m.in_state('loading') tests an ancestor"
        if name in ("context_fields", "states", "parts", "config", "emits", "requests", "name", "payload_fields",
                    "dot", "markdown"):
            return f"; its definition's is m.definition.{name}"
        return ""

    def __init__(self, runtime: Runtime, definition: Definition, parent: Optional[Layer],
                 config: Optional[Mapping[str, ConfigValue]], locale: Optional[str],
                 strings: Optional[Mapping[str, str]], snapshot: Optional[str] = None) -> None:
        if not isinstance(definition, Definition):
            raise ArgumentTypeError(f"definition is {check.describe(definition)}; it must be a Definition"
                                    + _definition_hint(runtime, definition, snapshot is not None))
        if parent is not None and not isinstance(parent, Layer):
            raise ArgumentTypeError(f"parent is {check.describe(parent)}; it must be a Layer or None")
        # Made and registered before another thread's tick polls its first events (its initial state),
        # which are named through it; complete before it is registered, as that tick may find it at once.
        with runtime._registering():
            try:
                out = self._make(runtime, definition, parent, config, locale, strings, snapshot)
            except AnimrtError as e:  # which definition: with several about, the message says
                raise name_in(e, "machine", definition._label())
            self._definition = definition
            self._parts: Dict[str, Layer] = {}
            self._destroyed = False
            super().__init__(runtime, out.value, owned=False)
            runtime._machines[out.value] = self

    @staticmethod
    def _make(runtime: Runtime, definition: Definition, parent: Optional[Layer],
              config: Optional[Mapping[str, ConfigValue]], locale: Optional[str],
              strings: Optional[Mapping[str, str]], snapshot: Optional[str]) -> c_uint64:
        """Creates (or restores) the machine in the library, its options checked first."""
        options: Dict[str, Any] = {}
        for name, given, example in (("config", config, "{'width': 200}"), ("strings", strings, "{'done': 'Sent'}")):
            if given is not None and not isinstance(given, Mapping):
                raise ArgumentTypeError(f"{name} is {check.describe(given)}; it must be a dict by name, or None: "
                                        f"rt.machine(definition, {name}={example})")
        if config:
            options["config"] = {check.text(k, "config key"): (list(v) if isinstance(v, (tuple, list))
                                                                else check.text(v, f"config[{k!r}]") if isinstance(v, str) else v)
                                 for k, v in config.items()}
        if locale is not None:
            options["locale"] = check.text(locale, "locale")
        if strings:
            options["strings"] = {check.text(k, "strings key"): check.text(v, f"strings[{k!r}]") for k, v in strings.items()}
        text = to_json(options, "").encode() if options else None
        out = c_uint64()
        parent_id = parent._id if parent is not None else 0
        if snapshot is not None:
            if definition.runtime is not runtime:  # C restore takes no definition, so cannot refuse it
                label = definition._label()
                raise HandleError(f"definition {'' if label is None else repr(label) + ' '}belongs to another runtime: "
                                  "load it into this one with rt.definition(...) and restore with that copy")
            _check_snapshot_of(check.text(snapshot, "snapshot"), definition)
            runtime._call(lib.animrt_machine_restore, snapshot.encode("utf-8"), parent_id, byref(out))
        else:
            runtime._call(lib.animrt_machine_create, definition._id, parent_id, text, byref(out))
        return out

    @property
    def definition(self) -> Definition:
        """The definition it runs; read-only, as the machine cannot change it:
        ``m.definition.events`` → ('appear', 'fetch', …)."""
        return self._definition

    @_naming_machine
    @_values_by_name
    def send(self, event: str, fields: Optional[Mapping[str, MachineValue]] = None, /,
             **payload: MachineValue) -> SendOutcome:
        """Sends `event` with its payload fields by name (``animrt_machine_send_json``), or as a dict
        (``m.send("fetched", {"request": asked.id, "progress": 0.72})``, `asked` being the
        :class:`RequestIssued` event it answers); the whole macrostep runs before it returns.

        Returns :class:`SendOutcome` ``TAKEN``, ``IGNORED`` (the state ignores it), ``STALE`` (a
        result whose request id is not the latest: reported as a :class:`StaleResult` event, not
        processed) or ``THROTTLED`` (a throttled event sent before its interval ended: the latest
        one is processed when it ends). An event no active state takes raises :class:`StateError` naming the state and
        what it accepts, and so does one whose transitions' guards all fail (a last transition without a guard
        takes it then, and changes no state without a target); a bad payload raises with the field's name::

            m.send("fetched", request=asked.id, progress=0.72)
        """
        name = check.text(event, "event")
        if fields is not None:
            if not isinstance(fields, Mapping):
                raise ArgumentTypeError(f"the payload is {check.describe(fields)}; {self._by_name(name, fields)}")
            twice = sorted(set(fields) & set(payload))
            if twice:
                raise ArgumentTypeError(f"payload field {twice[0]!r} is given twice, in the dict and by name")
            payload = {**fields, **payload}
        payload = {key: _payload_value(value, key, name) for key, value in payload.items()}
        if any(isinstance(v, float) and not math.isfinite(v) for v in payload.values()):
            raise self._not_finite(name, payload)
        outcome = c_int()
        self._runtime._call(lib.animrt_machine_send_json, self._id, name.encode("utf-8"),
                                     json.dumps(payload, allow_nan=True).encode() if payload else None, byref(outcome))
        return SendOutcome(outcome.value)

    def _by_name(self, event: str, values: object) -> str:
        """How to send `event` with `values`, a payload that is not a dict: given in order as a tuple or
        list (or one value alone, for the event's only field), the send with the names of its fields (``m.send('fetched', request=1, progress=0.35)``);
        otherwise the general form, and its fields."""
        fields = self.definition.payload_fields(event)  # an unknown event raises, with a suggestion
        if isinstance(values, (bool, str, numbers.Real)) and len(fields) == 1:  # one value: the one field's
            values = (values,)  # (with more fields, which one it is for is not known)
        if not fields:
            return f"{event!r} takes no payload: m.send({event!r})"
        if isinstance(values, (tuple, list)) and 0 < len(values) <= len(fields):
            named = ", ".join(f"{field}={value!r}" for field, value in zip(fields, values))
            return f"pass its fields by name, in the order its definition gives them: m.send({event!r}, {named})"
        return (f"pass its fields by name, m.send({event!r}, field=value), or as a dict of them (its fields: "
                f"{', '.join(fields)})")

    def _not_finite(self, event: str, payload: Dict[str, MachineValue]) -> AnimrtError:
        """The error for a payload holding a NaN or an infinity, which JSON cannot carry, said as the
        library says it for the field's type: ``is nan; it must be a finite number`` for a number
        field, ``is a string; a number (nan) was given`` for another. The library is asked with
        those values as JSON null, which no field takes: it checks the event and the fields' names
        first, then refuses the first null in declaration order naming the field's type, and
        nothing is sent."""
        probe = {k: None if isinstance(v, float) and not math.isfinite(v) else v for k, v in payload.items()}
        try:
            self._runtime._call(lib.animrt_machine_send_json, self._id, event.encode("utf-8"),
                                         json.dumps(probe).encode(), None)
        except KindError as e:
            found = re.match(r"field '([^']*)' of '[^']*' is an? (\w+); JSON null was given", e.message)
            if found is None or probe.get(found.group(1), 0) is not None:
                return e
            field, kind = found.groups()
            if kind == "number":
                return InvalidArgumentError(f"field {field!r} of {event!r} is {payload[field]}; it must be a finite "
                                            "number")
            return KindError(f"field {field!r} of {event!r} is a {kind}; a number ({payload[field]}) was given")
        except AnimrtError as e:
            return e
        return InvalidArgumentError(f"a payload field of {event!r} is not a finite number, which JSON cannot carry")

    @property
    @_naming_machine
    def state(self) -> str:
        """The active leaf state's full name (``animrt_machine_state``): ``m.state`` → 'completed.celebrating'."""
        out = c_int32()
        self._runtime._call(lib.animrt_machine_state, self._id, byref(out))
        return self.definition.states[out.value]

    @_naming_machine
    def in_state(self, state: str) -> bool:
        """Whether `state` is active: the leaf or one of its ancestors (``animrt_machine_in_state``):
        ``m.in_state("completed")``."""
        sid = self.definition._id_of(_STATE, state, "state")
        out = c_int()
        self._runtime._call(lib.animrt_machine_in_state, self._id, sid, byref(out))
        return bool(out.value)

    async def wait_for(self, *states: str) -> str:
        """Waits, from an asyncio task, until one of `states` is active, and returns the one reached.

        A state is named in full, as :meth:`in_state` takes it, and counts when it is the active
        leaf or one of its ancestors (``"finished"`` counts in ``"finished.failed"``); of several
        reached at once, the first given is returned. The network button's outcome::

            async def show_result(button: animrt.Machine, ok: bool) -> str:
                button.send("stopAnimate" if ok else "stopByError")
                return await button.wait_for("finished.succeeded", "finished.failed")

        One already active returns at once. Otherwise the clock is the program's: another task must
        go on ticking (``rt.tick(loop.time())`` then ``await asyncio.sleep(1 / 60)``), and the wait
        ends at the tick that delivers the :class:`StateChanged` into one of them, after that tick
        has returned (from a tick on another thread, through the task's event loop); a state
        entered and left again before that tick counts, as its event reports it. Any number of
        tasks may wait at once, and cancelling one (``asyncio.wait_for`` timing out) cancels only
        its own wait.

        A name the definition does not have raises :class:`NotFoundError` with the closest, before
        anything is awaited. A wait no state can end any more raises: :class:`StateError` once the
        machine finishes in a top-level final state that none of `states` is (it takes no more
        events), :class:`HandleError` once it is destroyed (at the next tick, which delivers what it
        did before: a change into one of `states` among that still returns it), and
        :class:`ClosedError` when the runtime is closed; and so does a wait begun after any of them.
        """
        rt = self._runtime
        try:
            wanted = self._awaitable(states)
            if rt.closed or self._gone():
                raise self._wait_error(wanted, None)
            finals = self._final_states()
        except AnimrtError as e:
            raise name_in(e, "machine", self.definition._label())
        future: "asyncio.Future[str]" = asyncio.get_running_loop().create_future()
        rt._await_state(self, wanted, future)  # before the look at the state: a tick meanwhile resolves it
        try:
            try:
                now = next((state for state in wanted if self.in_state(state)), None)
                if now is None and self.state in finals:
                    raise self._wait_error(wanted, self.state)
            except AnimrtError as e:
                raise name_in(e, "machine", self.definition._label())
            if now is not None:
                return now
            return await future
        finally:
            rt._forget_state_wait(self, future)

    def _awaitable(self, states: Tuple[object, ...]) -> Tuple[str, ...]:
        """The states given to :meth:`wait_for`, each one the definition has; else what to pass."""
        names = self.definition.states
        if not states:
            raise ArgumentTypeError(f"m.wait_for() needs the states to wait for, by their full names: "
                                    f"m.wait_for({names[-1]!r}) (its states: {', '.join(names)})")
        wanted = []
        for state in states:
            if isinstance(state, (list, tuple, set, frozenset)):
                raise ArgumentTypeError(f"a state is {check.describe(state)}; pass each state as an argument: "
                                        "m.wait_for(*states)")
            name = check.text(state, "state")
            self.definition._id_of(_STATE, name, "state")  # an unknown name raises, with the closest
            wanted.append(name)
        return tuple(wanted)

    def _final_states(self) -> FrozenSet[str]:
        """The top-level final states of its definition, entering which finishes a machine: read
        once, from the definition its snapshot holds (the C interface lists states by name only)."""
        definition = self.definition
        if definition._finals is None:
            held = json.loads(self.snapshot())["definition"]
            tree = json.loads(held) if isinstance(held, str) else held
            definition._finals = frozenset(name for name, state in tree.get("states", {}).items()
                                           if isinstance(state, Mapping) and state.get("type") == "final")
        return definition._finals

    def _wait_error(self, states: Tuple[str, ...], final: Optional[str]) -> AnimrtError:
        """Why a :meth:`wait_for` of `states` ends without one: the machine finished in `final`,
        was destroyed, or its runtime closed."""
        name = self.definition._label()
        machine = f"machine {self._id:#x}" if name is None else f"machine {name!r}"
        awaited = " or ".join(repr(state) for state in states)
        if final is not None:
            return _naming_it(StateError(f"{machine} finished in its final state {final!r} before reaching "
                                         f"{awaited}: a finished machine changes state no more"))
        if self._gone():
            return _naming_it(HandleError(f"{machine} was destroyed (m.destroy() has run, or its with block has "
                                          f"ended) before reaching {awaited}"))
        return _naming_it(ClosedError(f"the runtime was closed before {machine} reached {awaited}; check "
                                      "rt.closed before waiting on one of its machines"))

    @property
    def context(self) -> Context:
        """The context, read live as a mapping: ``dict(m.context)``, ``m.context["title"]``."""
        return Context(self)

    @_naming_machine
    def part(self, name: str, index: Optional[int] = None) -> Layer:
        """The layer of part `name` (``animrt_machine_part``), the same object every time:
        ``m.part("ring").presentation("strokeEnd")``. A repeated part (``"count"`` in its
        declaration) has one layer per copy: ``m.part("arc", 2)``, also written ``m.part("arc[2]")``."""
        if index is not None:
            if isinstance(index, bool) or not isinstance(index, int):
                raise ArgumentTypeError(f"index is {check.describe(index)}; it must be an int")
            if index < 0:  # not counted back from the end, as a list's would be: copies have fixed numbers
                self.part(name, 0)  # a part that is not repeated, or not there, is named as such
                count = self.part_count(name)
                raise RangeError(f"'{name}[{index}]': part '{name}' has {count} "
                                 f"{'copy' if count == 1 else 'copies'} ({'0' if count == 1 else f'0 to {count - 1}'}); "
                                 f"an index counts from 0, not back from the end")
            name = f"{check.text(name, 'name')}[{index}]"
        found = self._parts.get(name)
        if found is None:
            out = c_uint64()
            self._runtime._call(lib.animrt_machine_part, self._id, check.text(name, "name").encode("utf-8"), byref(out))
            found = Layer._stand_in(self._runtime, out.value)
            label = self.definition._label()
            found._part_label = f"part {name!r}" + ("" if label is None else f" of {label!r}")
            self._parts[name] = found
        return found

    @_naming_machine
    def part_count(self, name: str) -> int:
        """How many layers part `name` has (``animrt_machine_part_count``): its number of copies for a
        repeated part, 1 otherwise::

            arcs = [m.part("arc", i) for i in range(m.part_count("arc"))]
        """
        out = c_size_t()
        self._runtime._call(lib.animrt_machine_part_count, self._id, check.text(name, "name").encode("utf-8"), byref(out))
        return out.value

    @_naming_machine
    def snapshot(self) -> str:
        """The machine as JSON text (``animrt_machine_snapshot``): its state, context, timers,
        requests, parts and running animations. :meth:`Runtime.restore` makes it run again,
        identically, in a runtime at the same time::

            saved = m.snapshot()
            other = animrt.Runtime(); other.tick(rt.time)
            again = other.restore(saved, other.definition(named="progressCard"))
        """
        return _string_out(self._runtime._call, lib.animrt_machine_snapshot, self._id)

    @_naming_machine
    def destroy(self) -> None:
        """Destroys the machine (``animrt_machine_destroy``): its timers are cancelled and its parts
        destroyed; nothing of it happens afterwards. Destroying twice does nothing: ``m.destroy()``."""
        if self._destroyed:
            return
        self._destroyed = True
        self._runtime._call(lib.animrt_machine_destroy, self._id)
        # What it reported before is delivered by the next tick, maybe on another thread, and named
        # through it: kept until then (first, so that a tick looking it up finds it in one or the other).
        self._runtime._gone_machines[self._id] = self
        self._runtime._machines.pop(self._id, None)

    def _gone(self) -> bool:
        """Whether :meth:`destroy` has run (a machine has no finalizer: the runtime owns it)."""
        return getattr(self, "_destroyed", False)

    def __repr__(self) -> str:
        """``<Machine 0x… progressCard state='completed.celebrating'>``: its definition's name and its
        state configuration (the active leaf, whose full name names its active ancestors). It never
        raises: a destroyed machine, or one whose runtime is closed, prints what is still known."""
        return self._repr(live=True)

    def _repr(self, live: bool) -> str:
        """The repr, with the live state (`live`) or without it: an event's repr shows the machine
        without the state it is in when printed, which may be later than the event's own."""
        parts = [f"<Machine {self._id:#x}"]
        definition: Optional[Definition] = getattr(self, "_definition", None)  # None: a stand-in
        name = None if definition is None else definition._label()
        if name is not None:
            parts.append(name)
        if getattr(self, "_destroyed", False):
            parts.append("(destroyed)")
        elif live and definition is not None and not self._runtime.closed:
            try:
                out = c_int32()
                self._runtime._call(lib.animrt_machine_state, self._id, byref(out))
                parts.append(f"state={definition.states[out.value]!r}")
            except (AnimrtError, IndexError):  # destroyed through animrt._ffi; restored from another definition
                pass
        return " ".join(parts) + ">"


def _payload_value(value: object, key: str, event: str) -> MachineValue:
    """A payload field's value as JSON carries it: a bool, a str, an int or a float. numpy numbers
    and booleans are numbers and booleans here too, as everywhere in the binding (json.dumps would
    refuse a numpy int or float32, and write a numpy float64 as the float it is)."""
    if isinstance(value, (bool, str)):
        return check.text(value, f"field {key!r} of {event!r}") if isinstance(value, str) else value
    if check.is_numpy_bool(value):
        return bool(value)
    if isinstance(value, numbers.Integral):
        # An int no double holds is refused here: JSON would carry its digits, and the library refuse
        # them as malformed JSON the program never wrote.
        check.double(int(value), f"field {key!r} of {event!r}")
        return int(value)
    if isinstance(value, numbers.Real):
        return float(value)
    if isinstance(value, RequestIssued):  # the request event itself, where its id goes
        raise ArgumentTypeError(f"{key} is the RequestIssued event of {value.name!r}; a result carries the "
                                f"request's id: {key}=event.id ({key}={value.id})")
    raise ArgumentTypeError(f"{key} is {check.describe(value)}; a payload field is a number, a bool or a str")


def to_json(value: Any, where: str) -> str:
    """`value` as JSON text. JSON has no NaN or infinity: a float that is not finite raises
    InvalidArgumentError naming where it is (``config['width'] is inf``) instead of writing
    ``Infinity``, which the library would refuse as malformed JSON the caller never wrote. A value
    JSON cannot hold (a set, bytes, an object) raises ArgumentTypeError naming where it is too;
    numpy numbers and arrays are numbers and lists, as everywhere in the binding."""
    def convert(v: Any, path: str) -> Any:
        if v is None or isinstance(v, (str, bool)):
            return v
        if isinstance(v, numbers.Integral):
            check.double(int(v), path)  # (as a payload's field: JSON would carry its digits)
            return int(v)
        if isinstance(v, numbers.Real):
            f = float(v)
            if not math.isfinite(f):
                hint = ("; a definition writes infinity as the expression 'inf' (a string)"
                        if where == "definition" and f > 0 else "")
                raise InvalidArgumentError(f"{path} is {f}; it must be a finite number (JSON has no NaN or infinity){hint}")
            return f
        if isinstance(v, Mapping):
            out: Dict[str, Any] = {}
            for k, item in v.items():
                if not isinstance(k, str):
                    raise ArgumentTypeError(f"{path or 'the options'} has the key {check.describe(k)}; JSON keys are str")
                out[k] = convert(item, f"{path}[{k!r}]" if path else k)
            return out
        if isinstance(v, (list, tuple)):
            return [convert(item, f"{path}[{i}]") for i, item in enumerate(v)]
        if not isinstance(v, (bytes, bytearray)) and callable(getattr(v, "tolist", None)):  # numpy arrays and scalars
            return convert(v.tolist(), path)
        raise ArgumentTypeError(f"{path} is {check.describe(v)}; JSON holds dicts, lists, str, numbers, bools and None")
    return json.dumps(convert(value, where))


_KIND_NAMES = {_STATE: "state", _EVENT: "event", _CONTEXT: "context field", _EMIT: "emitted event",
               _REQUEST: "request", _PART: "part", _CONFIG: "config parameter"}


def _signature(definition: Definition) -> List[Tuple[str, Tuple[str, ...]]]:
    """What a machine's ids mean under `definition`: each kind's names in id order, and the fields
    of every state (its values), event, emitted event and request, labelled for messages."""
    out: List[Tuple[str, Tuple[str, ...]]] = []
    for kind, what in _KIND_NAMES.items():
        names = definition._list(kind)
        out.append((what, names))
        if kind in (_STATE, _EVENT, _EMIT, _REQUEST):
            for i, item in enumerate(names):
                out.append((f"{what} {item!r}", definition._field_names(kind, i)))
    return out


def _difference(theirs: List[Tuple[str, Tuple[str, ...]]], mine: List[Tuple[str, Tuple[str, ...]]]) -> Optional[str]:
    """The first way in which two signatures differ, in words, or None when they are the same."""
    for (what, a), (_, b) in zip(theirs, mine):
        if a == b:
            continue
        if what in _KIND_NAMES.values():
            gone = [x for x in a if x not in b]
            new = [x for x in b if x not in a]
            said = [f"its {what} {gone[0]!r} is not in this definition"] if gone else []
            said += [f"this definition's {what} {new[0]!r} is not in it"] if new else []
            return ", and ".join(said) or f"its {what}s are in another order"
        return f"the fields of its {what} are {a!r}; this definition's are {b!r}"
    return None


def _check_snapshot_of(snapshot: str, definition: Definition) -> None:
    """Refuses a snapshot taken from another definition than `definition`, which the machine's
    events and state would be named through (wrongly, or past the end of its lists): another
    machine, or another version of the same one (a state renamed, a field added). The library
    restores with the definition the snapshot holds; its names are compared with `definition`'s
    through a copy loaded for the purpose and forgotten. A snapshot the binding cannot read is left
    to the library, which says what is wrong with it."""
    try:
        taken = json.loads(snapshot)["definition"]
        text = taken if isinstance(taken, str) else json.dumps(taken)
        name = json.loads(text)["name"]
    except (ValueError, KeyError, TypeError):
        return
    mine = definition.name
    if isinstance(name, str) and name != mine:
        raise _naming_it(InvalidArgumentError(  # the call checked: the snapshot's name may be registered under no name
            f"the snapshot is of a {name!r} machine, and definition is {mine!r}: restore it with the definition it "
            f"was taken from: {restore_call(definition.runtime, snapshot)}"))
    runtime = definition.runtime
    handle = c_uint64()
    try:
        runtime._call(lib.animrt_definition_load, text.encode("utf-8"), byref(handle))
    except AnimrtError:
        return  # the library refuses the restore and says why
    taken = Definition(runtime, handle.value)
    try:
        differs = _difference(_signature(taken), _signature(definition))  # the given one's names stay read
    finally:
        if taken._finalizer is not None:
            taken._finalizer()  # forgotten at once; destroy() would read every name first
    if differs is not None:
        raise _naming_it(InvalidArgumentError(
            f"the snapshot was taken from another version of {mine!r}: {differs}; restore it with the definition it "
            "was taken from: rt.definition(json.loads(snapshot)['definition'])"))


def restore_call(runtime: Runtime, snapshot: str) -> str:
    """The call that restores `snapshot` in `runtime`, for a message: with its definition loaded by name
    when the runtime's library has one of the snapshot's name and the same names as the definition the
    snapshot holds (``rt.restore(snapshot, rt.definition(named='networkButton'))``), else with the
    definition the snapshot holds (``rt.restore(snapshot, rt.definition(json.loads(snapshot)['definition']))``)."""
    held = "rt.restore(snapshot, rt.definition(json.loads(snapshot)['definition']))"
    try:
        taken = json.loads(snapshot)["definition"]
        name = json.loads(taken if isinstance(taken, str) else json.dumps(taken))["name"]
    except (ValueError, KeyError, TypeError):
        return "rt.restore(snapshot, definition)"
    if not isinstance(name, str) or "\0" in name:  # C would read up to the NUL: another name
        return held
    handle = c_uint64()
    try:  # a name the library does not have (or could not have) is refused here
        runtime._call(lib.animrt_definition_load_named, name.encode("utf-8", "replace"), byref(handle))
    except AnimrtError:
        return held
    named = Definition(runtime, handle.value)
    try:
        _check_snapshot_of(snapshot, named)  # another version under the same name is refused
    except AnimrtError:
        return held
    finally:
        if named._finalizer is not None:
            named._finalizer()  # forgotten at once; destroy() would read every name first
    return f"rt.restore(snapshot, rt.definition(named={name!r}))"


def library_name(runtime: Runtime, text: str) -> Tuple[Optional[str], bool]:
    """The definition of the runtime's library (shipped, a plugin's or registered) that `text` names
    (``(name, True)``) or is most likely a misspelling of (``(name, False)``), or ``(None, False)``;
    for messages only. The library is asked by loading `text`, and a copy it loads is forgotten at once."""
    if len(text) > 200 or "\0" in text:
        return None, False
    out = c_uint64()
    try:
        runtime._call(lib.animrt_definition_load_named, text.encode("utf-8", "replace"), byref(out))
    except NotFoundError as e:
        meant = re.search(r"did you mean '([^']+)'\?", e.message)
        return (meant.group(1), False) if meant else (None, False)
    except AnimrtError:  # closed, say: no hint
        return None, False
    try:
        runtime._call(lib.animrt_definition_destroy, out.value)
    except AnimrtError:
        pass
    return text, True


def _library_hint(runtime: Runtime, text: str, call: str, names_it: str) -> Optional[str]:
    """`call` (the source in its braces) with ``named=`` the definition of the runtime's library that
    `text` names, after `names_it`, or asking whether the one it most likely misspells was meant;
    None when it is neither."""
    name, exact = library_name(runtime, text)
    if name is None:
        return None
    fixed = call.format(f"named={name!r}")
    return names_it + fixed if exact else f"; did you mean {fixed}?"


def _source_hint(runtime: Runtime, text: str, call: str) -> str:
    """What a str given where a definition goes, and not JSON, most likely meant, as the exact
    `call` (``rt.definition({})``, the source in its braces) that loads it: a name of the runtime's
    library (``rt.definition(named='networkButton')``), misspelt or not, or a file's path
    (``rt.definition(pathlib.Path('card.json'))``)."""
    named = _library_hint(runtime, text, call, ": it names a definition of the runtime's library, loaded with ")
    if named is not None:
        return named
    if text.endswith(".json") or any(sep in text for sep in (os.path.sep, os.path.altsep) if sep) or os.path.isfile(text):
        return f": a file is passed as a pathlib.Path, {call.format(f'pathlib.Path({text!r})')}"
    return (": pass JSON text, a dict, a pathlib.Path for a file, or named=... for a definition of the "
            "runtime's library")


def _definition_hint(runtime: Runtime, given: object, restoring: bool) -> str:
    """How to make a Definition of what was given for one to rt.machine (or rt.restore, `restoring`),
    as the exact call: a name of the runtime's library, misspelt or not, or a source rt.definition loads."""
    call = "rt.restore(snapshot, rt.definition({}))" if restoring else "rt.machine(rt.definition({}))"
    if isinstance(given, str) and not given.lstrip(" \t\r\n\ufeff").startswith("{"):
        named = _library_hint(runtime, given, call, f"; {given!r} names a definition of the runtime's library: ")
        if named is not None:
            return named
    if isinstance(given, (str, Mapping, os.PathLike)):
        return f"; load it first: {call.format('source')}"
    return " from rt.definition(...)"


DEFINITION_MAX_BYTES = 4 * 1024 * 1024  # the library's limit on a definition's text (docs/machines.md, Limits)


def _file_text(path: "os.PathLike[str]") -> Optional[str]:
    """The text of a regular file of at most DEFINITION_MAX_BYTES, else None. A pipe is not opened to
    wait for a writer and a device is not read (/dev/zero has no end), as the library refuses both unread."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    if not stat.S_ISREG(os.fstat(fd).st_mode):  # checked before fdopen, which refuses a directory
        os.close(fd)
        return None
    with os.fdopen(fd, "rb") as f:
        data = f.read(DEFINITION_MAX_BYTES + 1)
    return data.decode("utf-8-sig") if len(data) <= DEFINITION_MAX_BYTES else None


def source_name(source: object) -> Optional[str]:
    """The "name" a definition source gives itself, if it can be read (for error messages only)."""
    try:
        if isinstance(source, Mapping):
            found = source.get("name")
        elif isinstance(source, os.PathLike):
            text = _file_text(source)
            if text is None:
                return None
            found = json.loads(text).get("name")
        elif isinstance(source, str):
            found = json.loads(source).get("name")
        else:
            return None
    except (OSError, ValueError, AttributeError):
        return None
    return found if isinstance(found, str) else None


def load_definition(runtime: Runtime, source: Union[str, "os.PathLike[str]", Mapping[str, Any], None],
                    named: Optional[str]) -> Definition:
    """The Definition for one of the sources :meth:`Runtime.definition` takes; an error names the
    definition when the source gives its name (the library names files and library definitions)."""
    try:
        return _load_definition(runtime, source, named)
    except AnimrtError as e:
        raise name_in(e, "definition", None if named is not None else source_name(source))


def _load_definition(runtime: Runtime, source: Union[str, "os.PathLike[str]", Mapping[str, Any], None],
                     named: Optional[str]) -> Definition:
    out = c_uint64()
    call = runtime._call
    if named is not None:
        if source is not None:
            raise ArgumentTypeError("pass a source or named=..., not both")
        call(lib.animrt_definition_load_named, check.text(named, "named").encode("utf-8"), byref(out))
        loaded = Definition(runtime, out.value)
        loaded._registered = named
        return loaded
    elif isinstance(source, Mapping):
        call(lib.animrt_definition_load, to_json(source, "definition").encode("utf-8"), byref(out))
    elif isinstance(source, os.PathLike):
        call(lib.animrt_definition_load_file, os.fsencode(source), byref(out))
    elif isinstance(source, str):
        if not source.lstrip(" \t\r\n\ufeff").startswith("{"):  # a byte order mark may lead the text
            raise ArgumentTypeError(f"source is the string {source[:40]!r}, which is not JSON"
                                    + _source_hint(runtime, source, "rt.definition({})"))
        call(lib.animrt_definition_load, check.text(source, "source").encode("utf-8"), byref(out))
    else:
        raise ArgumentTypeError(f"source is {check.describe(source)}; it must be JSON text (str), a dict, or a "
                                "path (pathlib.Path)")
    return Definition(runtime, out.value)


