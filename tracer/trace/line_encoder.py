"""An event's JSON line, byte for byte what pydantic's serializer writes, at a third of its cost (orjson)."""

from __future__ import annotations

import json
import types
import typing
from collections.abc import Callable
from typing import Any

import orjson
from pydantic import BaseModel
from pydantic_core import PydanticSerializationError

from executor.events import EventBase

# Why orjson: pydantic's to_json costs ~1.8 µs an event, most of it fixed per call; orjson
# writes the event's own field dict (already in field order) in ~0.5 µs, with the same
# shortest float form, raw UTF-8 and escapes. Whatever orjson cannot write exactly as pydantic
# would (an int over 64 bits, a lone surrogate, a non-str key, an object pydantic would repr,
# a record with its own serialisation rules) raises, and that event goes the pydantic way.
# tests/trace/test_line_encoder.py holds the two byte-equal, fixture by fixture.
_OPTIONS = orjson.OPT_PASSTHROUGH_SUBCLASS | orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS

# Field name -> its "leave me out" test, per model class, for fields declared with exclude_if.
_EXCLUDED: dict[type[BaseModel], tuple[tuple[str, Callable[[Any], bool]], ...] | None] = {}


class _NotPlain(TypeError):
    """A value this encoder cannot write as pydantic would; the caller falls back to pydantic."""


def _exclusions(cls: type[BaseModel]) -> tuple[tuple[str, Callable[[Any], bool]], ...] | None:
    """cls's exclude_if fields; None when the class has rules orjson cannot follow (aliases, serializers)."""
    if cls in _EXCLUDED:
        return _EXCLUDED[cls]
    decorators = cls.__pydantic_decorators__
    plain = (
        not decorators.field_serializers
        and not decorators.model_serializers
        and not cls.__pydantic_computed_fields__
        and cls.model_config.get("extra") != "allow"
        and all(
            field.serialization_alias is None and field.alias is None and not field.exclude
            for field in cls.model_fields.values()
        )
    )
    found = (
        tuple(
            (name, test)
            for name, field in cls.model_fields.items()
            if (test := getattr(field, "exclude_if", None)) is not None
        )
        if plain
        else None
    )
    _EXCLUDED[cls] = found
    return found


def _fields_of(value: Any) -> dict[str, Any]:
    """orjson's `default`: a nested pydantic record as its fields; anything else is not ours to write."""
    if isinstance(value, BaseModel):
        excluded = _exclusions(type(value))
        if excluded is None or value.__pydantic_extra__:
            raise _NotPlain
        fields = value.__dict__
        if excluded:
            fields = {
                name: item
                for name, item in fields.items()
                if not any(name == skip and test(item) for skip, test in excluded)
            }
        return fields
    raise _NotPlain


# A run's events share a few SourceRef / CalleeRef objects (one per emitting line, one per tool
# function): each is written once and reused as a ready JSON fragment, keyed by identity
# (the record is kept in the value, so its id cannot be taken by another while it is here).
_FRAGMENTS: dict[int, tuple[BaseModel, orjson.Fragment]] = {}
_MAX_FRAGMENTS = 4096


def _fragment(record: BaseModel) -> orjson.Fragment | BaseModel:
    known = _FRAGMENTS.get(id(record))
    if known is not None and known[0] is record:
        return known[1]
    try:
        fragment = orjson.Fragment(orjson.dumps(_fields_of(record), option=_OPTIONS))
    except (orjson.JSONEncodeError, _NotPlain, TypeError):
        return record  # dumps() meets it again, fails again, and the event goes the pydantic way
    if len(_FRAGMENTS) >= _MAX_FRAGMENTS:
        _FRAGMENTS.clear()
    _FRAGMENTS[id(record)] = (record, fragment)
    return fragment


def _stack_fragments(stack: tuple[BaseModel, ...]) -> list[orjson.Fragment | BaseModel]:
    """Each frame of an event's recorded stack as its JSON fragment (a producer reuses its SourceRefs)."""
    found = []
    for frame in stack:
        known = _FRAGMENTS.get(id(frame))
        found.append(known[1] if known is not None and known[0] is frame else _fragment(frame))
    return found


def event_fields(event: EventBase) -> dict[str, Any] | None:
    """The event's fields as pydantic would write them (excluded ones left out); None: ask pydantic.

    Shared records (source, callee) are replaced by their JSON fragments: feed the result to
    encode_fields, not to anything that reads the values.
    """
    return _compiled(type(event))[0](event.__dict__)


# Event class -> (fields-to-write function, line function); both written out once (see _compile).
_COMPILED: dict[
    type[BaseModel], tuple[Callable[[dict[str, Any]], dict[str, Any] | None], Callable[[BaseModel], bytes]]
] = {}


def _compiled(
    cls: type[BaseModel],
) -> tuple[Callable[[dict[str, Any]], dict[str, Any] | None], Callable[[BaseModel], bytes]]:
    known = _COMPILED.get(cls)
    if known is None:
        known = _COMPILED[cls] = _compile(cls)
    return known


def _is_none(test: Callable[[Any], bool]) -> bool:
    """Does this exclude_if leave a field out exactly when it is None (EventBase's stack and origin)?"""
    samples: tuple[Any, ...] = (None, 0, "", (), [], {}, False, "None", 0.0)
    try:
        return all(bool(test(value)) == (value is None) for value in samples)
    except Exception:
        return False


def _is_zero(test: Callable[[Any], bool]) -> bool:
    """Does this exclude_if leave a count out exactly when it is 0 (llm_end's replaced_surrogates)?"""
    try:
        return all(bool(test(value)) == (value == 0) for value in (0, 1, -1, 2, 10**20))
    except Exception:
        return False


_FLAT = (str, int, float, bool, type(None))


def _flat_records(cls: type[BaseModel]) -> list[tuple[str, type[BaseModel]]]:
    """Fields holding a record of plain values (str, numbers, None), written as its own field dict:
    the same JSON, without a call back from orjson for it. SourceRef and CalleeRef have fragments."""
    found = []
    for name, field in cls.model_fields.items():
        record = field.annotation
        if name in ("source", "callee") or not (isinstance(record, type) and issubclass(record, BaseModel)):
            continue
        if _exclusions(record) == () and all(_is_flat(sub.annotation) for sub in record.model_fields.values()):
            found.append((name, record))
    return found


def _is_flat(annotation: Any) -> bool:
    """A plain value or an optional one (str, str | None): nothing for orjson to call back about."""
    if annotation in _FLAT:
        return True
    return typing.get_origin(annotation) in (typing.Union, types.UnionType) and all(
        arg in _FLAT for arg in typing.get_args(annotation)
    )


def _compile(
    cls: type[BaseModel],
) -> tuple[Callable[[dict[str, Any]], dict[str, Any] | None], Callable[[BaseModel], bytes]]:
    """`select(fields)` and `line(event)` for `cls`, written out once (like the executor's event builders).

    select: a copy of the dict, minus each excluded field (an inline `is None` test where the
    rule is that, the declared test otherwise), with source and callee swapped for their
    fragments. line: the same written by orjson with its newline, in one call per event (a
    trace writes seven a loop round), or pydantic's line where orjson declines.
    """
    excluded = _exclusions(cls)
    pydantic_line = _pydantic_line
    if excluded is None:
        return _ALWAYS_NONE, pydantic_line
    constants: dict[str, Any] = {
        "fragment": _fragment,
        "fragments": _FRAGMENTS,
        "stack_fragments": _stack_fragments,
        "dumps": orjson.dumps,
        "fields_of": _fields_of,
        "options": _OPTIONS | orjson.OPT_APPEND_NEWLINE,
        "declined": (orjson.JSONEncodeError, _NotPlain, TypeError),
        "pydantic_line": pydantic_line,
    }
    body = ["    fields = fields.copy()"]
    for index, (name, test) in enumerate(excluded):
        if _is_none(test):
            body.append(f"    if fields[{name!r}] is None: del fields[{name!r}]")
        elif _is_zero(test):
            body.append(f"    if fields[{name!r}] == 0: del fields[{name!r}]")
        else:
            constants[f"test{index}"] = test
            body.append(f"    if test{index}(fields[{name!r}]): del fields[{name!r}]")
    if "source" in cls.model_fields:
        body += [
            "    source = fields['source']",
            "    known = fragments.get(id(source))",
            "    fields['source'] = known[1] if known is not None and known[0] is source else fragment(source)",
        ]
    if "stack" in cls.model_fields:  # a traced LangChain run's frames: the same few SourceRefs, event after event
        body += [
            "    stack = fields.get('stack')",
            "    if stack is not None:",
            "        fields['stack'] = stack_fragments(stack)",
        ]
    if "callee" in cls.model_fields:
        body += [
            "    callee = fields['callee']",
            "    if callee is not None:",
            "        known = fragments.get(id(callee))",
            "        fields['callee'] = known[1] if known is not None and known[0] is callee else fragment(callee)",
        ]
    for index, (name, record) in enumerate(_flat_records(cls)):  # e.g. a step's ActionRecord
        constants[f"record{index}"] = record
        body += [
            f"    value = fields[{name!r}]",
            f"    if type(value) is record{index}: fields[{name!r}] = value.__dict__",
        ]
    lines = [
        "def select(fields):",
        *body,
        "    return fields",
        "def line(event):",
        "    fields = event.__dict__",
        *body,
        "    try:",
        "        return dumps(fields, default=fields_of, option=options)",
        "    except declined:",
        "        return pydantic_line(event)",
    ]
    exec(compile("\n".join(lines), f"<line fields {cls.__name__}>", "exec"), constants)
    return constants["select"], constants["line"]


def _pydantic_line(event: BaseModel) -> bytes:
    return pydantic_json(event) + b"\n"


def pydantic_json(event: BaseModel, exclude: set[str] | None = None) -> bytes:
    """pydantic's JSON for the event; for text UTF-8 cannot carry (a lone surrogate, as a file read
    with errors="surrogateescape" gives), the same fields with every such character \\u-escaped:
    still JSON, read back to the very same text, rather than no trace at all."""
    try:
        return event.__pydantic_serializer__.to_json(event, exclude=exclude, fallback=repr)
    except PydanticSerializationError as error:
        if "surrogates not allowed" not in str(error):
            raise
    fields = event.model_dump(mode="python", exclude=exclude, fallback=repr)
    return json.dumps(fields, ensure_ascii=True, separators=(",", ":"), default=repr).encode("ascii")


_ALWAYS_NONE: Callable[[dict[str, Any]], None] = lambda fields: None  # noqa: E731


def encode_fields(fields: dict[str, Any]) -> bytes | None:
    """`fields` as one JSON object; None when orjson cannot write it exactly as pydantic would."""
    try:
        return orjson.dumps(fields, default=_fields_of, option=_OPTIONS)
    except (orjson.JSONEncodeError, _NotPlain, TypeError):
        return None


def encode_line(event: EventBase) -> bytes:
    """The event's trace line, newline included: pydantic's `to_json`, written faster where that is exact."""
    known = _COMPILED.get(type(event))
    return (known or _compiled(type(event)))[1](event)


def line_function(cls: type[EventBase]) -> Callable[[EventBase], bytes]:
    """encode_line for events of exactly this class, without looking the class up each time."""
    return _compiled(cls)[1]


def encode_event(event: EventBase) -> bytes:
    """The event's JSON (no newline), as encode_line writes it."""
    return encode_line(event)[:-1]
