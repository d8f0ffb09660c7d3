"""The loop as a state machine: each event is planning, acting, observing, summarizing, finished or error."""

from __future__ import annotations

from typing import Literal

from .events import EventBase

State = Literal["planning", "acting", "observing", "summarizing", "finished", "error"]
STATES: tuple[State, ...] = ("planning", "acting", "observing", "summarizing", "finished", "error")

# Functions on the stack that mean "a tool is running" (ReAct's one action, or a reply's tool calls;
# in a traced LangGraph run, its ToolNode running one call).
_ACTING_FRAMES = frozenset(
    {"_perform_agent_action", "perform_tool_calls", "perform_tool_call", "_run_one", "_arun_one"}
)
_SUMMARIZING_FRAMES = frozenset({"_summarize"})
_BY_KIND: dict[str, State] = {
    "chain_start": "planning",
    "agent_action": "planning",
    "agent_finish": "finished",
    "chain_end": "finished",
    "chain_error": "error",
    "limit_reached": "error",
    "step": "observing",
    "context_trimmed": "summarizing",
    "summarized": "summarizing",
}


def state_of(event: EventBase) -> State:
    """The loop state `event` belongs to, from its kind and call stack alone (a pure function).

    Planning is the model deciding (plan and its model calls); acting is tools running, with
    anything nested in them (the calculator's own model call); observing is the results joining
    the history and the finish test saying "go on"; summarizing is the history being trimmed or
    summarized to fit the budget. A handled error is observed like any observation; an
    unhandled one, a limit, or the run failing is the error state.
    """
    kind = event.kind
    if kind == "finish_check":
        return "finished" if getattr(event, "is_finish", False) else "observing"
    if kind == "parse_error":
        return "observing" if getattr(event, "handled", False) else "error"
    if kind == "tool_error" and not getattr(event, "handled", False):
        return "error"
    if kind in _BY_KIND:
        return _BY_KIND[kind]
    frames = set(event.frames)
    if frames & _SUMMARIZING_FRAMES:
        return "summarizing"
    if frames & _ACTING_FRAMES:
        return "acting"
    return "planning"
