"""An event's JSON line, byte for byte what pydantic's serializer writes, at a third of its cost (orjson)."""

from __future__ import annotations

from typing import Any, Callable

import orjson
from pydantic import BaseModel

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
    plain = (not decorators.field_serializers and not decorators.model_serializers
             and not cls.__pydantic_computed_fields__ and cls.model_config.get("extra") != "allow"
             and all(field.serialization_alias is None and field.alias is None and not field.exclude
                     for field in cls.model_fields.values()))
    found = tuple((name, field.exclude_if) for name, field in cls.model_fields.items()
                  if getattr(field, "exclude_if", None) is not None) if plain else None
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
            fields = {name: item for name, item in fields.items()
                      if not any(name == skip and test(item) for skip, test in excluded)}
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


def event_fields(event: EventBase) -> dict[str, Any] | None:
    """The event's fields as pydantic would write them (excluded ones left out); None: ask pydantic.

    Shared records (source, callee) are replaced by their JSON fragments: feed the result to
    encode_fields, not to anything that reads the values.
    """
    excluded = _EXCLUDED.get(type(event), _UNKNOWN)
    if excluded is _UNKNOWN:
        excluded = _exclusions(type(event))
    if excluded is None:
        return None
    fields = event.__dict__.copy()
    for name, test in excluded:
        if test(fields[name]):
            del fields[name]
    source = fields["source"]
    known = _FRAGMENTS.get(id(source))
    fields["source"] = known[1] if known is not None and known[0] is source else _fragment(source)
    callee = fields.get("callee")
    if callee is not None:
        fields["callee"] = _fragment(callee)
    return fields


_UNKNOWN = object()


def encode_fields(fields: dict[str, Any]) -> bytes | None:
    """`fields` as one JSON object; None when orjson cannot write it exactly as pydantic would."""
    try:
        return orjson.dumps(fields, default=_fields_of, option=_OPTIONS)
    except (orjson.JSONEncodeError, _NotPlain, TypeError):
        return None


def encode_event(event: EventBase) -> bytes:
    """The event's trace line (no newline): pydantic's `to_json`, written faster where that is exact."""
    fields = event_fields(event)
    line = encode_fields(fields) if fields is not None else None
    if line is None:
        return event.__pydantic_serializer__.to_json(event, fallback=repr)
    return line
