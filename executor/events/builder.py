"""Events built from values the executor made: type-checked, not re-validated (trace files still are)."""

from __future__ import annotations

import functools
import types
import typing
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from pydantic import BaseModel

from . import EVENT_CLASSES, ActionRecord, EventBase, SourceRef

# Why: pydantic validation costs ~1.5 µs an event, seven events a loop round, while nearly every
# value here was just made by the executor with the right type. So an event is assembled the
# way pydantic's model_construct does it (same field order, defaults and fields_set), after a
# type(value) check of each payload value. A value of any other type (an int for a float, a str
# subclass, a custom model's odd reply) or a missing or unknown field goes through full
# validation instead, so the event is always the one validation would have made, or its error.
# tests/test_event_builder.py holds the two equal, kind by kind.
# What RunContext stamps on every event; EventBase's optional fields (stack, origin) are payload.
ENVELOPE = ("seq", "run_id", "t", "iteration", "frames", "source")
_REQUIRED = object()
_Built = TypeVar("_Built", bound=BaseModel)  # an event, or a record built the same way


class _Anything:
    """The accepted types of a field typed Any."""

    def __contains__(self, item: object) -> bool:
        return True


_ANYTHING = _Anything()


@dataclass(frozen=True)
class _Plan:
    """How to build one kind from one set of payload names, worked out once and reused."""

    template: dict[str, Any]  # every field in declaration order: its default, or _REQUIRED
    checks: tuple[tuple[str, Any], ...]  # (payload name, the types its value may have)
    deep: tuple[tuple[str, Any, Any], ...]  # (name, element types, literal values): look inside
    copied: tuple[str, ...]  # dict and list fields: validation gives the event its own copy
    fields_set: set[str]  # shared by the events built from this plan; pydantic copies it to change it


def _accepted(annotation: Any) -> tuple[Any, Any, frozenset[Any] | None]:
    """(types a value may have, types its elements may have, the literal values allowed)."""
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if annotation is Any:
        return _ANYTHING, None, None
    if origin is typing.Literal:
        return frozenset(type(arg) for arg in args), None, frozenset(args)
    if origin in (types.UnionType, typing.Union):
        options = [_accepted(arg) for arg in args]
        if any(outer is _ANYTHING for outer, _, _ in options):
            return _ANYTHING, None, None
        elements = [element for _, element, _ in options if element is not None]
        return frozenset().union(*(outer for outer, _, _ in options)), (elements or [None])[0], None
    if origin in (list, tuple, dict):
        element = _accepted(args[-1] if origin is dict else args[0])[0]
        return frozenset({origin}), element, None  # a dict's keys are checked to be str separately
    return frozenset({annotation}), None, None


def _plan(cls: type[BaseModel], names: tuple[str, ...]) -> _Plan | None:
    """The plan for building `cls` from these payload names; None when validation must decide."""
    fields = cls.model_fields
    payload_fields = {name: field for name, field in fields.items() if name not in ENVELOPE}
    required = {name for name, field in payload_fields.items() if field.is_required()}
    if not set(names) <= payload_fields.keys() or not required <= set(names):
        return None
    accepted = {name: _accepted(payload_fields[name].annotation) for name in names}
    return _Plan(
        template={name: (_REQUIRED if field.is_required() else field.default) for name, field in fields.items()},
        checks=tuple((name, outer) for name, (outer, _, _) in accepted.items() if outer is not _ANYTHING),
        deep=tuple(
            (name, element, literals)
            for name, (outer, element, literals) in accepted.items()
            if element is not None or literals is not None or (outer is not _ANYTHING and dict in outer)
        ),
        copied=tuple(
            name for name, (outer, _, _) in accepted.items() if outer is not _ANYTHING and {list, dict} & outer
        ),
        fields_set={*(name for name in ENVELOPE if name in fields), *names},
    )


def build_event(
    cls: type[EventBase],
    payload: dict[str, Any],
    seq: int,
    run_id: str,
    t: float,
    iteration: int,
    frames: tuple[str, ...],
    source: SourceRef,
) -> EventBase:
    """`cls(seq=seq, ..., **payload)`: equal to the validated event, and serialised the same.

    The envelope (seq to source) is RunContext's own and trusted as is; the payload is checked.
    """
    return builder_for(cls, tuple(payload))(payload, seq, run_id, t, iteration, frames, source)


def builder_for(cls: type[_Built], names: tuple[str, ...]) -> Callable[..., _Built]:
    """`build(payload, seq, run_id, t, iteration, frames, source)` for `cls` from payloads with these names."""
    builder = _BUILDERS.get((cls, names))
    if builder is None:
        builder = _BUILDERS[(cls, names)] = _builder_for(cls, names)
    return builder


# (kind, payload names) -> its builder. A call site passes the same names every time, so this
# stays as small as the number of emit calls in the source (plus odd kinds from user code).
_BUILDERS: dict[tuple[type[BaseModel], tuple[str, ...]], Callable[..., Any]] = {}


def _builder_for(cls: type[BaseModel], names: tuple[str, ...]) -> Callable[..., Any]:
    """A function that builds `cls` from exactly these payload names, written out for them.

    Like dataclasses and attrs, the builder is Python source made once and compiled: each
    payload value is read once, type-checked inline, and placed in a dict literal in field
    order, so an event costs one dict and four attribute stores. When validation must decide
    (an unknown kind, a missing or unknown name, a value of another type) it validates instead.
    """
    plan = _plan(cls, names) if cls in _KINDS or cls in _RECORDS else None
    if plan is None:
        return functools.partial(_validated if cls not in _RECORDS else _validated_record, cls)
    constants: dict[str, Any] = {
        "cls": cls,
        "validated": _validated,
        "new": object.__new__,
        "inside_is_valid": _inside_is_valid,
        "plan": plan,
        "fields_set": plan.fields_set,
        **_SLOT_SETTERS,
    }
    lines = ["def build(payload, seq, run_id, t, iteration, frames, source):"]
    checks = dict(plan.checks)
    for index, name in enumerate(names):
        lines.append(f"    v{index} = payload[{name!r}]")
        if name in checks:
            constants[f"accepted{index}"] = checks[name]
            lines.append(
                f"    if type(v{index}) not in accepted{index}: "
                "return validated(cls, payload, seq, run_id, t, iteration, frames, source)"
            )
    if plan.deep:
        lines.append(
            "    if not inside_is_valid(plan, payload): "
            "return validated(cls, payload, seq, run_id, t, iteration, frames, source)"
        )
    for index, name in enumerate(names):
        if name in plan.copied:  # validation gives the event its own list or dict
            lines.append(f"    if v{index} is not None: v{index} = type(v{index})(v{index})")
    items = []
    for index, (field, default) in enumerate(plan.template.items()):
        if field in ENVELOPE:
            items.append(f"{field!r}: {field}")
        elif field in names:
            items.append(f"{field!r}: v{names.index(field)}")
        else:
            constants[f"default{index}"] = default
            items.append(f"{field!r}: default{index}")
    # What pydantic's BaseModel.model_construct does, minus its per-field loop.
    lines += [
        "    event = new(cls)",
        f"    set_dict(event, {{{', '.join(items)}}})",
        "    set_fields_set(event, fields_set)",
        "    set_extra(event, None)",
        "    set_private(event, None)",
        "    return event",
    ]
    exec(compile("\n".join(lines), f"<event builder {cls.__name__}>", "exec"), constants)
    return constants["build"]


_KINDS: frozenset[type[BaseModel]] = frozenset(EVENT_CLASSES)
# Records the loop makes every round, built the same way.
_RECORDS: frozenset[type[BaseModel]] = frozenset({ActionRecord})


def build_record(cls: type[_Built], **values: Any) -> _Built:
    """`cls(**values)` for a record the loop makes every round (an ActionRecord): built like an event."""
    return builder_for(cls, tuple(values))(values, None, None, None, None, None, None)


def _inside_is_valid(plan: _Plan, payload: dict[str, Any]) -> bool:
    """Elements of containers, str keys of dicts, and literal values: the checks a type() cannot make."""
    for name, elements, literals in plan.deep:  # plain loops: a generator costs more than a short list
        value = payload[name]
        if value is None:
            continue
        if literals is not None and value not in literals:
            return False
        if type(value) is dict:
            for key in value:
                if type(key) is not str:
                    return False
            value = value.values()
        if elements is not None:
            for item in value:
                if type(item) not in elements:
                    return False
    return True


# Frozen models refuse the ordinary way in. object.__setattr__(event, name, value) would find each
# of these descriptors on BaseModel and call its __set__; calling that directly skips the lookup
# (~30 ns a store, four stores an event). BaseModel declares them in its __slots__.
_SLOT_SETTERS = {
    f"set_{short}": BaseModel.__dict__[name].__set__
    for short, name in (
        ("dict", "__dict__"),
        ("fields_set", "__pydantic_fields_set__"),
        ("extra", "__pydantic_extra__"),
        ("private", "__pydantic_private__"),
    )
}


def _validated_record(cls: type[_Built], payload: dict[str, Any], *envelope: Any) -> _Built:
    return cls.__pydantic_validator__.validate_python(payload)


def _validated(
    cls: type[_Built],
    payload: dict[str, Any],
    seq: int,
    run_id: str,
    t: float,
    iteration: int,
    frames: tuple[str, ...],
    source: SourceRef,
) -> _Built:
    return cls.__pydantic_validator__.validate_python(
        {**payload, "seq": seq, "run_id": run_id, "t": t, "iteration": iteration, "frames": frames, "source": source}
    )
