"""An event's JSON line, byte for byte what pydantic's serializer writes, written by orjson where that is exact."""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from typing import Any

import orjson
from pydantic import BaseModel
from pydantic_core import PydanticSerializationError

from executor.events import EventBase, SourceRef

# Why orjson, not pydantic's model_dump_json: a trace is written as the run goes, and pydantic's
# serializer costs enough more per event that tracing would add more than the 1.8x to an untraced
# run that tracing may cost (docs/performance.md, "Speed tricks: kept or removed"). orjson writes
# the event's own field dict (already in field order) with the same shortest float form, raw UTF-8
# and escapes. Whatever it cannot write exactly as pydantic would (an int over 64 bits, a lone
# surrogate, a non-str key, an object pydantic would repr, a record with its own serialisation
# rules) raises, and that event goes the pydantic way. tests/trace/test_line_encoder.py holds the
# two byte-equal, fixture by fixture.
_OPTIONS = orjson.OPT_PASSTHROUGH_SUBCLASS | orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS
_DECLINED = (orjson.JSONEncodeError, TypeError)  # _NotPlain is a TypeError


class _NotPlain(TypeError):
    """A value this encoder cannot write as pydantic would; the caller falls back to pydantic."""


@functools.cache  # per model class: a few dozen classes
def _exclusions(cls: type[BaseModel]) -> tuple[tuple[str, Callable[[Any], bool]], ...] | None:
    """cls's exclude_if fields; None when the class has rules orjson cannot follow (aliases, serializers)."""
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
    if not plain:
        return None
    return tuple(
        (name, test) for name, field in cls.model_fields.items() if (test := getattr(field, "exclude_if", None))
    )


def _written_fields(record: BaseModel) -> dict[str, Any]:
    """The record's fields as pydantic writes them (excluded ones left out); _NotPlain if orjson cannot."""
    excluded = _exclusions(type(record))
    if excluded is None or record.__pydantic_extra__:
        raise _NotPlain
    if not excluded:
        return record.__dict__
    fields = dict(record.__dict__)  # in field order, as pydantic writes them
    for name, test in excluded:
        if test(fields[name]):
            del fields[name]
    return fields


def _fields_of(value: Any) -> dict[str, Any]:
    """orjson's `default`: a nested pydantic record (source, callee, a step's action) as its fields."""
    if isinstance(value, BaseModel):
        return _written_fields(value)
    raise _NotPlain


def event_fields(event: EventBase) -> dict[str, Any] | None:
    """A copy of the event's fields as pydantic would write them (excluded ones left out); None: ask pydantic."""
    try:
        fields = dict(_written_fields(event))
    except _NotPlain:
        return None
    # Every event has a source, a record of plain values (SourceRef): its fields in its place
    # are the same JSON, and spare orjson a call back to _fields_of on every line.
    if type(fields["source"]) is SourceRef:
        fields["source"] = fields["source"].__dict__
    return fields


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


def encode_fields(fields: dict[str, Any]) -> bytes | None:
    """`fields` as one JSON object; None when orjson cannot write it exactly as pydantic would."""
    try:
        return orjson.dumps(fields, default=_fields_of, option=_OPTIONS)
    except _DECLINED:
        return None


def encode_line(event: EventBase) -> bytes:
    """The event's trace line, newline included: pydantic's `to_json`, written by orjson where that is exact."""
    fields = event_fields(event)
    if fields is not None:
        try:
            return orjson.dumps(fields, default=_fields_of, option=_OPTIONS | orjson.OPT_APPEND_NEWLINE)
        except _DECLINED:
            pass
    return _pydantic_line(event)


def encode_event(event: EventBase) -> bytes:
    """The event's JSON (no newline), as encode_line writes it."""
    return encode_line(event)[:-1]
