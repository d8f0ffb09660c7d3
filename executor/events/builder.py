"""A record the loop makes each round, built by validation as any other: `cls(**values)`."""

from __future__ import annotations

from typing import Any, TypeVar

from pydantic import BaseModel

_Record = TypeVar("_Record", bound=BaseModel)


# Events and records used to be assembled without validation here, by code written per kind and
# exec'd; bench/bench_speed_tricks.py measured what that saved (docs/performance.md, "Speed tricks:
# kept or removed") and it was not a figure anyone waits for, so they are validated like any model.
# This name stays for agent_executor.py, which still imports it.
def build_record(cls: type[_Record], **values: Any) -> _Record:
    """`cls(**values)`."""
    return cls(**values)
