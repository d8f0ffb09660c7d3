"""The envelope every event carries and the small records inside events (source, callee, tools, calls)."""

from __future__ import annotations

import ast
import functools
import inspect
import sys
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

# Bump when a field is renamed or removed; trace files carry it in their header.
SCHEMA_VERSION = 1

# Every event class (events.py, recovery_events.py) is named <Kind>Event; its `kind` field is the string a trace file stores.
# Field docstrings become the fields' descriptions (describe_fields, below), so
# `LLMStartEvent.model_fields["prompt"].description` says what the field holds.
# Why not pydantic's use_attribute_docstrings: it finds each class's source through the stack and
# inspect, class by class, on every start of the debugger. describe_fields parses each
# module once; the classes are built lazily (defer_build), so the descriptions still reach the schema.
_FROZEN = ConfigDict(frozen=True, defer_build=True)


class SourceRef(BaseModel):
    """Where in the source an event was yielded."""

    model_config = _FROZEN
    file: str
    """Relative to the project root, e.g. "executor/agent_executor.py" (absolute outside it)."""
    line: int
    """The line of the `yield` that handed the event out (a callee: the function's first line)."""
    function: str
    """The function that line belongs to, e.g. "_iter_next_step"."""


class CalleeRef(SourceRef):
    """Where a function called from the loop is defined: a tool's function, a model's generate.

    A subclass rather than a field on SourceRef, so that every event's `source` keeps the exact
    byte layout the trace index's fast scan reads.
    """

    qualname: str
    """The function's qualified name, e.g. "ScriptedModel.generate"."""


class ToolInfo(BaseModel):
    """A tool as chain_start lists it."""

    model_config = _FROZEN
    name: str
    """The name the model must write after `Action:`."""
    description: str
    """The text the prompt shows the model for this tool."""
    return_direct: bool = False
    """True when the tool's observation is returned as the final answer."""


class ActionRecord(BaseModel):
    """An AgentAction as it appears inside an event (tool, tool_input, log)."""

    model_config = _FROZEN
    tool: str
    """The tool the model asked for."""
    tool_input: str
    """What it asked to hand the tool."""
    log: str
    """The model's whole reply, kept for the next prompt's scratchpad."""


class ToolCallRecord(BaseModel):
    """One tool call of a model reply, as llm_end records it (enough to replay the reply)."""

    model_config = _FROZEN
    id: str
    """The id the model gave the call; its `role: tool` result carries the same id."""
    name: str
    """The tool the model asked for."""
    arguments: str
    """The arguments exactly as the model wrote them (JSON text, untrusted)."""


class EventBase(BaseModel):
    """The envelope every event carries."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)
    seq: int
    """0-based position in the run; contiguous."""
    run_id: str
    """Which run the event belongs to."""
    t: float
    """Seconds since the run started, on the run's (injectable) clock."""
    iteration: int
    """The loop round (1-based); 0 before the first round."""
    frames: tuple[str, ...]
    """The executor's call stack at the yield, outermost first."""
    source: SourceRef
    """The yield that handed the event out."""
    # Both below are written only when set, so the executor's own traces are unchanged by them.
    stack: tuple[SourceRef, ...] | None = Field(None, exclude_if=lambda value: value is None)
    """Every frame's exact line, outermost first, when the producer knew them (a traced LangChain run);
    None for the executor's own events, whose callers' lines the debugger finds in the source."""
    origin: dict[str, Any] | None = Field(None, exclude_if=lambda value: value is None)
    """Where a foreign runtime's event came from, e.g. LangChain's callback, run_id and parent_run_id."""
    kind: str
    """Which event this is; each kind's class narrows it to its own name (a Literal), which is what the
    union is discriminated on. Declared here, last, so that code holding any event can read it (and
    the field keeps its place in every written line: after the envelope, before the payload)."""


@functools.cache
def _field_docstrings(module: str) -> dict[str, dict[str, str]]:
    """{class name: {field: docstring}} for the module's top-level classes: the string right after
    an annotated field, as pydantic's use_attribute_docstrings reads it (cleaned like a docstring)."""
    file = sys.modules[module].__file__
    if file is None:  # a module without a source file has no docstrings to read
        return {}
    tree = ast.parse(Path(file).read_text(encoding="utf-8"))
    found: dict[str, dict[str, str]] = {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            docs = found.setdefault(node.name, {})
            for field, after in zip(node.body, node.body[1:]):
                if (
                    isinstance(field, ast.AnnAssign)
                    and isinstance(field.target, ast.Name)
                    and isinstance(after, ast.Expr)
                    and isinstance(after.value, ast.Constant)
                    and isinstance(after.value.value, str)
                ):
                    docs[field.target.id] = inspect.cleandoc(after.value.value)
    return found


def describe_fields(*classes: type[BaseModel]) -> None:
    """Give each field without a description its docstring (from the nearest class that documents it).

    Call it right after the classes are defined, before anything validates with them: their
    schemas are built on first use (defer_build) and then include the descriptions.
    """
    for cls in classes:
        for name, field in cls.model_fields.items():
            if field.description is None:
                field.description = next(
                    (
                        docs[name]
                        for klass in cls.__mro__
                        if issubclass(klass, BaseModel) and klass is not BaseModel
                        if name in (docs := _field_docstrings(klass.__module__).get(klass.__name__, {}))
                    ),
                    None,
                )


describe_fields(SourceRef, CalleeRef, ToolInfo, ActionRecord, ToolCallRecord, EventBase)
