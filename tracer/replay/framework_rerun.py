"""A framework agent's recorded run re-run offline: its own graph and tools, the model answered from the recording."""

from __future__ import annotations

import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from executor.events import ChainStartEvent, Event, EventBase

from ..agents.framework_agent import FrameworkAgent
from ..agents.frameworks import RecordedReply, answers_in_order, recorded_limits, recorded_replies, state_argument
from ..trace.normalise import Difference, first_difference, in_call_order, normalise_events
from ..trace.run_inputs import question_of
from ..trace.transitions import Trace

# What a framework's callbacks record about themselves, not about the agent: the callback's own run ids, and
# where inside the framework's code it fired (its lines move with every release of the framework).
_FRAMEWORK_FIELDS = ("origin", "stack")
# A recorded failure whose class a re-run cannot raise (its module is not loaded, or making it would run its
# code) is raised as a stand-in of the same name: the error's text is compared, its class's module is not.
_STAND_IN_FIELDS = ("error_class",)


def rerun_framework_agent(
    agent: FrameworkAgent,
    trace: Trace,
    replies: Sequence[RecordedReply] | None = None,
    limits: dict[str, Any] | None = None,
) -> tuple[list[Event], BaseException | None]:
    """Run the user's agent again on the recorded question, every model call answered by `replies` (the
    recording's own by default), with the turn limit in `limits` (the recording's by default; a cassette's
    is the test's own): the re-run's events, and what it raised (None when it ended)."""
    first = trace.events[0] if trace.events else None
    inputs = dict(first.inputs) if isinstance(first, ChainStartEvent) else {}
    question, state = question_of(inputs), state_argument(agent.adapter, inputs)
    if limits is None:
        limits = recorded_limits(agent.adapter, getattr(first, "settings", None))
    answers = answers_in_order(recorded_replies(trace.events) if replies is None else replies)
    with tempfile.TemporaryDirectory(prefix="loopscope-rerun-") as folder:
        path = Path(folder) / "rerun.jsonl"
        error: BaseException | None = None
        try:
            agent.adapter.record(agent.agent, question, path, answers, agent.header_meta(), **state, **limits)
        except Exception as raised:  # the user's agent failed; its trace says where, and the caller compares
            error = raised
        except KeyboardInterrupt:  # its words name a kept file in this folder, which is about to go
            raise KeyboardInterrupt() from None
        events = list(Trace.load(path).events) if path.exists() else []
    return events, error


def _comparable(events: Sequence[EventBase]) -> list[dict[str, Any]]:
    normalised = normalise_events(events)
    for event in normalised:
        for name in (*_FRAMEWORK_FIELDS, *_STAND_IN_FIELDS):
            event.pop(name, None)
        source = event.get("source")
        if isinstance(source, dict):  # the framework's own file: which release ran it does not matter
            event["source"] = {"function": source.get("function")}
    return in_call_order(normalised)


def compare_framework_runs(recorded: Sequence[EventBase], rerun: Sequence[EventBase]) -> Difference | None:
    """The first event where the re-run did something else than the recording; None when they agree."""
    return first_difference(_comparable(recorded), _comparable(rerun))
