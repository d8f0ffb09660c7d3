"""The events of a framework's run (the Agents SDK's, pydantic-ai's) numbered, stamped and written, as LangChain's are."""

from __future__ import annotations

import json
import os
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Any

from executor.events import (
    ChainEndEvent,
    ChainErrorEvent,
    ChainStartEvent,
    EventBase,
    LimitReachedEvent,
    LLMEndEvent,
    LLMStartEvent,
    SourceRef,
    ToolCallRecord,
)
from executor.models.messages import render_messages

from ..agents.frameworks import RunClosed
from ..trace.writer import TraceWriter
from .langchain_recorder import environment_redactor

# The tool call whose code is running in this task (and the tasks it starts): a model call made there belongs to
# it (an agent the tool delegates to), so a fork that gives that call a new result knows the call never happens.
_running_tool_call: ContextVar[str | None] = ContextVar("loopscope_running_tool_call", default=None)


@contextmanager
def running_tool_call(call_id: str | None) -> Iterator[None]:
    """Inside the block, model calls are made by the code of tool call `call_id`."""
    token = _running_tool_call.set(call_id)
    try:
        yield
    finally:
        _running_tool_call.reset(token)


class FrameworkRun:
    """One run of a framework's agent as loopscope events: each model call a round (llm_start with the
    OpenAI-shaped messages and the tools offered, llm_end with text, tool calls and usage), tool calls by id.

    The frames name the framework's own steps (`Runner.run` > `get_response`), not lines inside it: its
    internals move with every release, and what a learner steps through is the loop's shape."""

    def __init__(
        self,
        path: str | os.PathLike[str],
        source: str,
        root: str,
        model_step: str = "get_response",
        clock: Callable[[], float] = time.monotonic,
        listener: Callable[[EventBase], None] | None = None,
        **meta: Any,
    ) -> None:
        self.writer = TraceWriter(path, environment_redactor(), source=source, **meta)
        self.listener = listener  # told each event once written (a live debugger holds the run there)
        self.path = Path(path)
        self.events: list[EventBase] = []
        self.iteration = 0  # the model call being made or last made: the loop's round
        self._source, self._root, self._model_step = source, root, model_step
        self._run_id = str(uuid.uuid4())
        self._clock = clock
        self._start = clock()
        self._model_started: float | None = None

    def elapsed(self) -> float:
        """Seconds since the run began, on its clock."""
        return self._clock() - self._start

    def emit(self, cls: type[EventBase], function: str, **payload: Any) -> EventBase:
        """One event of class `cls`, made inside the framework's step `function`, written at once."""
        event = cls(
            seq=len(self.events),
            run_id=self._run_id,
            t=self.elapsed(),
            iteration=self.iteration,
            frames=(self._root, function) if function != self._root else (self._root,),
            source=SourceRef(file=f"({self._source})", line=0, function=function),
            **payload,
        )
        self.events.append(event)
        self.writer(event)
        if self.listener is not None:
            self.listener(event)
        return event

    def start(self, question: str, tools: list[dict[str, Any]], settings: dict[str, Any]) -> None:
        self.emit(
            ChainStartEvent,
            self._root,
            inputs={"messages": [{"role": "user", "content": question}]},
            tools=tools,
            settings=settings,
        )

    def model_call(self, model: str, messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> None:
        """llm_start: a new round, the prompt rendered as loopscope renders messages (what the Answerer sees)."""
        self.iteration += 1
        self._model_started = self._clock()
        self.emit(
            LLMStartEvent,
            self._model_step,
            model=model,
            prompt=render_messages(messages),
            stop=[],
            messages=messages,
            tools=tools or None,
            tool_call_id=_running_tool_call.get(),
        )

    def model_reply(self, text: str, calls: list[ToolCallRecord], usage: dict[str, int] | None) -> None:
        began = self._model_started if self._model_started is not None else self._clock()
        self.emit(
            LLMEndEvent,
            self._model_step,
            text=text,
            usage=usage or None,
            duration=self._clock() - began,
            tool_calls=calls or None,
            tool_call_id=_running_tool_call.get(),
        )

    def end(self, outputs: dict[str, Any]) -> None:
        self.emit(ChainEndEvent, self._root, outputs=outputs)

    def limit_reached(self, raised: str) -> None:
        """The framework's own turn limit ended the run (`raised`: what it raised, with the limit), told as the
        event AgentExecutor's max_iterations makes, before chain_error."""
        self.emit(
            LimitReachedEvent,
            "run",
            reason="max_iterations",
            iterations=self.iteration,
            elapsed=self.elapsed(),
            early_stopping_method=raised,
        )

    def fail(self, error: BaseException) -> None:
        self.emit(ChainErrorEvent, self._root, error_type=type(error).__name__, message=str(error))

    def close(self) -> None:
        self.writer.close()

    def stopped(self, stopped: BaseException) -> BaseException:
        """The run ended without an Exception: what to raise. A debugger closing it finishes the trace with the
        events so far; Ctrl-C (anything else) leaves the named file as it was and keeps them as
        `<name>.interrupted`, and the KeyboardInterrupt says where, as `record` of loopscope's own agents does."""
        if isinstance(stopped, RunClosed):
            self.writer.close()
            return stopped
        self.writer.abandon()
        if isinstance(stopped, KeyboardInterrupt):
            return KeyboardInterrupt(self.writer.interrupted_words())
        return stopped


def as_json_text(value: Any) -> str:
    """A tool's input or result as the text a trace shows: strings as they are, anything else as JSON."""
    if isinstance(value, str):
        return value
    try:
        return json.dumps(value, ensure_ascii=False, default=str)
    except (TypeError, ValueError):
        return str(value)


def final_output(value: Any) -> str:
    """A run's final output as chain_end's `output`: its text, or a structured output (an output_type's pydantic
    model) as JSON text. The answer is text wherever a trace is read (the narrator, answer_of, a test's outcome),
    and JSON text is also what the model itself said for it."""
    return as_json_text(plain(value))


def plain(value: Any) -> Any:
    """A framework's output (a pydantic model, a dataclass, text) as plain JSON data for chain_end."""
    dump = getattr(value, "model_dump", None)
    if callable(dump):
        return dump(mode="json")
    try:
        json.dumps(value)
    except (TypeError, ValueError):
        return str(value)
    return value
