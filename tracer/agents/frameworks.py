"""The one adapter shape every framework's agent is run through: run it, record it, answer it from a recording.

loopscope's own `build(model)` agents are run by the executor; an agent built with another framework (a
compiled LangGraph graph, an OpenAI Agents SDK Agent, a pydantic-ai Agent) is run by that framework, through a
small adapter in tracer/bridges/ registered under the entry point group `loopscope.frameworks`. The entry's name
is the top-level package of the agent object's class (`langgraph`, `agents`, `pydantic_ai`), so recognising an
agent costs one dictionary look-up and imports no framework that the agent does not already use.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any, Protocol

from executor.events import EventBase, LLMEndEvent

from ..extras import MissingExtra

GROUP = "loopscope.frameworks"


class RunClosed(BaseException):
    """A debugger closed the run it was holding: unwinds the agent's thread (not an Exception, so the agent's
    own handlers let it through); the trace is finished with every event up to there."""


@dataclass(frozen=True)
class RecordedToolCall:
    """One tool call the model asked for: its id, the tool's name, and the arguments as JSON text."""

    id: str
    name: str
    arguments: str


@dataclass(frozen=True)
class RecordedReply:
    """One model reply as a recording (or a --replies file) gives it: its text and its tool calls."""

    text: str
    tool_calls: tuple[RecordedToolCall, ...] = field(default_factory=tuple)
    error: str | None = None
    """The call failed instead, as "Type: message" (a fallback or a retry followed it): a re-run fails it again."""
    error_class: str | None = None
    """The failure's class as "module:qualname", when the recording named it (a re-run raises that class when
    it is loaded; see tracer/bridges/recorded_errors.py)."""


class RepliesUsedUp(LookupError):
    """The re-run asked the model more often than the recording answered it."""


# What answers a model call in a re-run: given the prompt as loopscope renders the call's messages, the reply.
Answerer = Callable[[str], RecordedReply]


def answers_in_order(replies: Sequence[RecordedReply]) -> Answerer:
    """Each call answered by the next reply, whatever it was asked (verify compares what the run did after)."""
    left = list(replies)

    def answer(prompt: str) -> RecordedReply:
        if not left:
            raise RepliesUsedUp("the re-run asked the model once more than the recording answered it")
        return left.pop(0)

    return answer


class FrameworkAdapter(Protocol):
    """What loopscope needs to know of a framework to record, re-run, fork and step through its agents."""

    name: str  # shown to the user: "LangGraph"
    extra: str  # the loopscope extra that installs it: "langchain"

    def record(
        self,
        agent: Any,
        question: str,
        path: Path,
        answer: Answerer | None = None,
        meta: dict[str, Any] | None = None,
        observations: dict[str, str] | None = None,
        listener: Callable[[EventBase], None] | None = None,
        clock: Callable[[], float] | None = None,
    ) -> None:
        """Run `agent` on `question` and write its trace to `path` (`meta` joins its header). With `answer`,
        every model call is answered by it instead of by the agent's own model (nothing is sent anywhere);
        `observations` gives the result of the tool calls with those ids instead of running the tool;
        `listener` is told each event, in the thread that made it, once it is written (a live debugger holds
        the run there); `clock` times the events (default: time.monotonic).
        What the agent raises is raised, after the trace has recorded it."""
        ...

    def tool_functions(self, agent: Any) -> dict[str, Callable[..., Any]]:
        """The user's own tool functions by tool name, for the Source pane and for stepping into them."""
        ...


def recorded_limits(adapter: Any, settings: Any) -> dict[str, Any]:
    """The recorded run's own turn limit, as the adapter's `record` takes it again (`max_turns`: the Agents
    SDK's Runner.run(max_turns=N), pydantic-ai's UsageLimits(request_limit=N)), read from chain_start's settings
    under the adapter's `limit_setting`: a re-run may go as far as the recording could, not only to the
    framework's default."""
    if not getattr(adapter, "takes_max_turns", False) or not isinstance(settings, dict):
        return {}
    turns = settings.get(getattr(adapter, "limit_setting", "max_turns"))
    return {"max_turns": turns} if type(turns) is int and turns > 0 else {}


def state_of(adapter: Any, inputs: Any) -> dict[str, Any] | None:
    """The input state a graph is run on when it was not asked a question: a LangGraph graph whose state
    has keys of its own (`{"question": ...}`, given as --inputs JSON, or as the recorded run's inputs).
    None when the inputs are a question (`input`, or `messages`), and for the frameworks that take only one."""
    if not getattr(adapter, "takes_state", False) or not isinstance(inputs, dict) or not inputs:
        return None
    if "messages" in inputs or isinstance(inputs.get("input"), str):
        return None
    return dict(inputs)


def state_argument(adapter: Any, inputs: Any) -> dict[str, Any]:
    """`state=...` for the adapter's record() when the run is on a state (see state_of), else nothing."""
    state = state_of(adapter, inputs)
    return {"state": state} if state is not None else {}


def framework_of(agent: Any) -> str | None:
    """The top-level package an agent object's class comes from, when an adapter is registered for it."""
    package = type(agent).__module__.partition(".")[0]
    return package if package in _registered() else None


def adapter_for(agent: Any) -> FrameworkAdapter | None:
    """The adapter that runs `agent`, or None when it is not a framework's agent loopscope knows."""
    package = framework_of(agent)
    if package is None:
        return None
    module, _, attr = _registered()[package].partition(":")
    try:
        adapter: FrameworkAdapter = getattr(importlib.import_module(module), attr)
    except ImportError as error:  # the adapter's extra is missing: its own words name the extra to install
        raise MissingExtra(str(error), name=error.name) from None
    return adapter


def _registered() -> dict[str, str]:
    return {entry.name: entry.value for entry in entry_points(group=GROUP)}


def recorded_replies(events: Sequence[EventBase]) -> list[RecordedReply]:
    """Every model call's outcome in a recorded run, in order: its reply, or its failure when a retry or a
    fallback followed it (a model call that failed has a start and no end)."""
    replies = []
    asked = False  # a model call started and has not been answered yet
    for event in events:
        if isinstance(event, LLMEndEvent):
            calls = tuple(RecordedToolCall(c.id, c.name, c.arguments) for c in event.tool_calls or ())
            replies.append(RecordedReply(event.text, calls))
            asked = False
        elif event.kind == "llm_start":
            asked = True
        elif asked and (event.kind == "fallback" or (event.kind == "retry" and getattr(event, "target", "") == "llm")):
            error = str(getattr(event, "error", "") or "Error: the call failed")
            replies.append(RecordedReply("", error=error, error_class=getattr(event, "error_class", None)))
            asked = False
    return replies


def recorded_by_framework(header: Any) -> bool:
    """Was this trace written by a framework's run (a LangChain handler, or any adapter), so that a re-run goes
    through that framework's adapter rather than loopscope's own executor?"""
    return bool(getattr(header, "framework", None)) or getattr(header, "source", None) == "langchain"
