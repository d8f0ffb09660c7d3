"""A run as a compact list of the loop's state transitions: plan → AgentAction(Search) → tool(Search) → ..."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar, cast

from executor.events import (
    AgentActionEvent,
    AgentFinishEvent,
    BreakerClosedEvent,
    BreakerHalfOpenEvent,
    BreakerOpenEvent,
    ChainEndEvent,
    ChainErrorEvent,
    ChainStartEvent,
    DegradeEvent,
    Event,
    EventBase,
    FallbackEvent,
    FinishCheckEvent,
    InvalidToolEvent,
    LimitReachedEvent,
    ParseErrorEvent,
    PlanErrorEvent,
    RefusalEvent,
    RetryEvent,
    StepEvent,
    ToolEndEvent,
    ToolErrorEvent,
)

from .header import TraceHeader
from .literal_text import scrub
from .reader import load_trace
from .run_inputs import answer_of

ARROW = " → "


@dataclass(frozen=True)
class Transition:
    """One change of the loop's state. `label` is what a snapshot stores; `detail` is what a diff compares."""

    label: str
    seq: int  # the event that made the transition
    iteration: int
    detail: dict[str, Any] = field(default_factory=dict, compare=False)

    def __str__(self) -> str:
        return self.label


# Where a recorded LangGraph agent asks its model for the next move (LangChain 1.x create_agent's model
# node, LangGraph's prebuilt agent); only a recorded stack is read for them, where they name LangChain's
# own functions (loopscope's own call_model is also a tool's nested call).
GRAPH_PLAN_FRAMES = frozenset({"model_node", "amodel_node", "call_model", "acall_model"})


def _is_plan_call(event: EventBase) -> bool:
    frames = event.frames
    return "plan" in frames or (event.stack is not None and not GRAPH_PLAN_FRAMES.isdisjoint(frames))


def _tool_error_label(e: ToolErrorEvent) -> str:
    return f"tool_error({e.tool}: {e.error_type}, {'handled' if e.handled else 'raised'})"


E = TypeVar("E", bound=EventBase)
Describe = Callable[[EventBase], tuple[str, dict[str, Any]]]


def _rule(cls: type[E], describe: Callable[[E], tuple[str, dict[str, Any]]]) -> tuple[str, Describe]:
    """(cls's kind, describe): mypy checks each describe against its own class. The cast is sound
    because the table is looked up by an event's kind, and a kind names exactly one class."""
    return cls.model_fields["kind"].default, cast(Describe, describe)


# kind -> (label, detail) for the events that are transitions of their own.
_SIMPLE: dict[str, Describe] = dict(
    [
        _rule(
            ChainStartEvent,
            lambda e: ("chain_start", {"inputs": e.inputs, "tools": [t.name for t in e.tools], "settings": e.settings}),
        ),
        _rule(AgentActionEvent, lambda e: (f"AgentAction({e.tool})", {"tool": e.tool, "tool_input": e.tool_input})),
        _rule(AgentFinishEvent, lambda e: ("AgentFinish", {"return_values": e.return_values})),
        _rule(
            ParseErrorEvent,
            lambda e: (
                f"parse_error({'handled' if e.handled else 'raised'})",
                {"error": e.error, "observation": e.observation},
            ),
        ),
        _rule(InvalidToolEvent, lambda e: (f"invalid_tool({e.requested})", {"observation": e.observation})),
        _rule(ToolEndEvent, lambda e: (f"tool({e.tool})", {"observation": e.observation})),
        _rule(ToolErrorEvent, lambda e: (_tool_error_label(e), {"message": e.message, "observation": e.observation})),
        _rule(RetryEvent, lambda e: (f"retry({e.target}:{e.name} #{e.attempt})", {"error": e.error})),
        _rule(StepEvent, lambda e: ("step", {"n_steps": e.n_steps})),
        _rule(FinishCheckEvent, lambda e: (f"finish_check({e.is_finish})", {})),
        _rule(LimitReachedEvent, lambda e: (f"limit_reached({e.reason})", {"iterations": e.iterations})),
        _rule(ChainEndEvent, lambda e: ("chain_end", {"outputs": e.outputs})),
        _rule(ChainErrorEvent, lambda e: (f"chain_error({e.error_type})", {"message": e.message})),
        # When a model fails for good: who took over, what the breakers did, and the rules' answer.
        _rule(
            FallbackEvent,
            lambda e: (
                f"fallback({e.failed_model}->{e.next_model}: {e.error_type}{', refused' if e.refused else ''})",
                {"error": e.error},
            ),
        ),
        _rule(BreakerOpenEvent, lambda e: (f"breaker_open({e.model})", {"failures": e.failures, "from": e.from_state})),
        _rule(BreakerHalfOpenEvent, lambda e: (f"breaker_half_open({e.model})", {"open_for": e.open_for})),
        _rule(BreakerClosedEvent, lambda e: (f"breaker_closed({e.model})", {})),
        _rule(
            PlanErrorEvent,
            lambda e: (f"plan_error({e.error_type} {e.failures}/{e.degrade_after})", {"message": e.message}),
        ),
        _rule(
            DegradeEvent,
            lambda e: (
                f"degrade({e.rule}->{e.tool})" if e.rule else "degrade(no rule)",
                {"pattern": e.pattern, "tool_input": e.tool_input},
            ),
        ),
        _rule(RefusalEvent, lambda e: (f"refusal({e.detected_by})", {"text": e.text})),
    ]
)
# Not transitions: llm_end and tool_start are halves of one (the plan / tool(...) entry carries
# them), a nested model call and calculator_eval happen inside tool(Calculator), and
# rate_limit_wait depends on timing rather than on what the loop decided.


def in_issue_order(events: Iterable[Event]) -> list[Event]:
    """The events with each stretch of concurrent tool calls laid out in the order the calls were asked
    for, never in the order they finished: the calls' starts, then each call's result (and retries) in
    issue order, then their steps. Two runs that did the same thing then take the same transitions,
    whichever thread won (diff, snapshots). The events themselves are unchanged, seq included."""
    out: list[Event] = []
    planned: list[str] = []  # tool_call_ids of the agent_actions just before, in the order asked
    stretch: list[Event] = []
    for event in [*events, None]:
        call_id = getattr(event, "tool_call_id", None) if event is not None and event.kind != "agent_action" else None
        if call_id is not None and event is not None:
            stretch.append(event)
            continue
        out += _calls_in_issue_order(stretch, planned)
        stretch = []
        if event is None:
            break
        if event.kind == "agent_action":
            planned = planned if out and out[-1].kind == "agent_action" else []
            planned.append(str(getattr(event, "tool_call_id", None)))
        out.append(event)
    return out


def _calls_in_issue_order(stretch: list[Event], planned: list[str]) -> list[Event]:
    rank: dict[str, int] = {call_id: i for i, call_id in enumerate(planned)}
    seen: set[str] = set()
    keyed = []
    for index, event in enumerate(stretch):
        lane = str(getattr(event, "tool_call_id", None))
        rank.setdefault(lane, len(rank))  # a call no agent_action named: by when it started
        first = lane not in seen
        seen.add(lane)
        phase = 0 if first and event.kind == "tool_start" else 2 if event.kind == "step" else 1
        keyed.append(((phase, rank[lane], index), event))
    return [event for _key, event in sorted(keyed, key=lambda pair: pair[0])]


def transitions(events: Iterable[Event]) -> list[Transition]:
    """The run's transitions, in order (concurrent tool calls in the order they were asked for, see
    in_issue_order). A plan's detail holds the model's reply text."""
    out: list[Transition] = []
    open_plan: Transition | None = None
    for event in in_issue_order(events):
        kind = event.kind
        if event.kind == "llm_start" and _is_plan_call(event):
            open_plan = Transition("plan", event.seq, event.iteration, {"reply": None})
            out.append(open_plan)
        elif event.kind == "llm_end" and open_plan is not None and _is_plan_call(event):
            open_plan.detail["reply"] = event.text
            if event.tool_calls:  # a tool-calling reply: what it asked for (the ids are the model's, not compared)
                open_plan.detail["tool_calls"] = [f"{call.name}({call.arguments})" for call in event.tool_calls]
            if event.answered_by:  # a fallback answered this plan
                open_plan.detail["answered_by"] = event.answered_by
            open_plan = None
        elif kind in _SIMPLE:
            label, detail = _SIMPLE[kind](event)
            out.append(Transition(label, event.seq, event.iteration, detail))
    return out


STOPPED_AT_CHANGE = "PromptChanged"  # the error type `fork --stop-at-change` ends a fork with (tracer/replay)


def outcome_of(events: Sequence[Event]) -> str:
    """How the run ended, in a few words: the final output, the error, or that it is unfinished."""
    last = events[-1] if events else None
    if last is not None and last.kind == "chain_end":
        return f"finished: {answer_of(last.outputs)}"
    if last is not None and last.kind == "chain_error" and last.error_type == STOPPED_AT_CHANGE:
        return f"stopped at change: {last.message}"  # a fork told to end at a changed prompt did so: no failure
    if last is not None and last.kind == "chain_error":
        return f"error: {last.error_type}: {last.message}"
    return "unfinished (the trace stops before chain_end)"


def as_events(events: Iterable[EventBase]) -> list[Event]:
    """The events in a list typed by the union, so their kinds narrow. The executor's generators and
    listeners are typed by the base class, but every event it makes is one of the union's classes."""
    return cast("list[Event]", list(events))


@dataclass
class Trace:
    """A trace file's header and events, with the views tests and tools want of them."""

    header: TraceHeader
    events: list[Event]
    path: Path | None = None
    warning: str | None = None  # set when the file's last line was cut off
    result: dict[str, Any] | None = field(default=None, repr=False)  # what invoke returned, for a fresh run
    error: BaseException | None = field(default=None, repr=False)  # what the run raised, if it did

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> Trace:
        header, events, warning = load_trace(path)
        return cls(header, events, Path(path), warning)

    @classmethod
    def of(cls, value: Trace | Sequence[EventBase] | str | os.PathLike[str]) -> Trace:
        """Accept what a user naturally has at hand: a Trace, a list of events, or a path."""
        if isinstance(value, Trace):
            return value
        if isinstance(value, (str, os.PathLike)):
            return cls.load(value)
        return cls(TraceHeader(), as_events(value))

    @property
    def scenario(self) -> str | None:
        return self.header.scenario

    def transitions(self) -> list[Transition]:
        return transitions(self.events)

    def labels(self) -> list[str]:
        return [t.label for t in self.transitions()]

    def chain(self) -> str:
        """The transitions on one line, joined by arrows."""
        return ARROW.join(self.labels())

    def outcome(self) -> str:
        return outcome_of(self.events)

    def __len__(self) -> int:
        return len(self.events)

    def snapshot_text(self, include_events: bool = False) -> str:
        """The human-readable text a snapshot file stores: one transition per line, so a
        changed run shows up in a diff as the lines that changed (tracer/snapshot_extension.py)."""
        lines = ["# loopscope trace: transitions (iteration, transition)", f"outcome: {_one_line(self.outcome())}", ""]
        lines += [f"{t.iteration:>3}  {t.label}" for t in self.transitions()]
        if include_events:
            from .normalise import render_normalised_events  # only snapshots with events (its difflib) need it

            lines += [
                "",
                "# events, volatile fields (t, duration, run_id, usage, source line) left out, "
                "tool-call and run ids renamed call_1, run_1... by first appearance",
                "",
            ]
            lines += render_normalised_events(self.events)
        return "\n".join(lines) + "\n"


def _one_line(text: str) -> str:
    """Model text made safe for a one-line slot: control characters visible, newlines as \\n."""
    return scrub(text.replace("\r", "\\r").replace("\n", "\\n"))
