"""A cassette made from a trace: recorded replies answer the model, recorded results answer
non-deterministic tools, and any departure from the recording is reported where it happens."""

from __future__ import annotations

import difflib
from typing import Any, Callable, Sequence

from executor import ChatModel, ModelReply, Tool
from executor.events import EventBase


class ReplayDivergence(AssertionError):
    """The re-run asked for something the recording does not have (or not in that form)."""


def short_diff(expected: str, actual: str, context: int = 2, limit: int = 40) -> str:
    lines = list(difflib.unified_diff(expected.splitlines(), actual.splitlines(), "recorded", "now",
                                      n=context, lineterm=""))
    if len(lines) > limit:
        lines = lines[:limit] + [f"... ({len(lines) - limit} more diff lines)"]
    return "\n".join(lines)


class ReplayModel:
    """Answers model call n with the text of the recording's n-th llm_end.

    The prompt must equal the recorded llm_start prompt; otherwise the loop has changed and
    the run diverges at that event.
    """

    def __init__(self, events: Sequence[EventBase], strict_prompts: bool = True) -> None:
        self.calls: list[tuple[EventBase, EventBase]] = []
        pending: EventBase | None = None
        for event in events:
            if event.kind == "llm_start":
                pending = event
            elif event.kind == "llm_end" and pending is not None:
                self.calls.append((pending, event))
                pending = None
        self.model_name = self.calls[0][0].model if self.calls else "replay"
        self.strict_prompts = strict_prompts
        self.prompts: list[str] = []

    def generate(self, prompt: str, stop: Sequence[str]) -> ModelReply:
        n = len(self.prompts)
        self.prompts.append(prompt)
        if n >= len(self.calls):
            raise ReplayDivergence(f"model call #{n + 1} has no recorded reply "
                                   f"(the recording has {len(self.calls)} model calls)")
        start, end = self.calls[n]
        if self.strict_prompts and prompt != start.prompt:
            raise ReplayDivergence(f"model call #{n + 1} (recorded event {start.seq}): the prompt "
                                   f"differs from the recording\n{short_diff(start.prompt, prompt)}")
        return ModelReply(end.text, end.usage)


def recorded_tool(tool: Tool, events: Sequence[EventBase]) -> Tool:
    """A copy of `tool` whose answers come, in order, from the recording's tool_end events."""
    answers: list[tuple[EventBase, EventBase]] = []
    started: EventBase | None = None
    for event in events:
        if event.kind == "tool_start" and event.tool == tool.name:
            started = event
        elif event.kind in ("tool_end", "tool_error") and started is not None and event.tool == tool.name:
            answers.append((started, event))
            started = None
    used = 0

    def replay(tool_input: str) -> Any:
        nonlocal used
        if used >= len(answers):
            raise ReplayDivergence(f"tool {tool.name!r} call #{used + 1} has no recorded result")
        start, end = answers[used]
        used += 1
        if tool_input != start.tool_input:
            raise ReplayDivergence(f"tool {tool.name!r} call #{used} (recorded event {start.seq}): input "
                                   f"{tool_input!r} differs from the recorded {start.tool_input!r}")
        if end.kind == "tool_error":
            raise ReplayDivergence(f"tool {tool.name!r} failed in the recording (event {end.seq}); "
                                   "replaying a recorded failure is not supported")
        return end.observation

    return Tool(name=tool.name, description=tool.description, func=replay,
                return_direct=tool.return_direct, handle_tool_error=tool.handle_tool_error,
                deterministic=False)


def cassette_tools(tools: Sequence[Tool], events: Sequence[EventBase]) -> list[Tool]:
    """Deterministic tools run for real; the others answer from the recording."""
    return [tool if tool.deterministic else recorded_tool(tool, events) for tool in tools]


def build_from_recording(build_tools: Callable[[ChatModel], list[Tool]],
                         events: Sequence[EventBase]) -> tuple[ReplayModel, list[Tool]]:
    model = ReplayModel(events)
    return model, cassette_tools(build_tools(model), events)
