"""What each exercise's check reads in the trace: the events of the learner's run, never their source."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from executor.events import (
    ChainEndEvent,
    ChainErrorEvent,
    ChainStartEvent,
    EventBase,
    LimitReachedEvent,
    LLMEndEvent,
    LLMStartEvent,
    ParseErrorEvent,
    RetryEvent,
    ToolEndEvent,
    ToolErrorEvent,
)

from .scripts import EXPECTED, WINDOW, request_tokens


@dataclass(frozen=True)
class Finding:
    """One thing still wrong: a key of the exercise's [findings] table and the values its text names."""

    key: str
    args: dict[str, Any] = field(default_factory=dict)


def _of(events: Sequence[EventBase], kind: type[EventBase]) -> list[Any]:
    return [event for event in events if isinstance(event, kind)]


def _plan_calls(events: Sequence[EventBase]) -> list[LLMStartEvent]:
    return [e for e in _of(events, LLMStartEvent) if "plan" in e.frames]


def answer_findings(name: str, events: Sequence[EventBase]) -> list[Finding]:
    """Every exercise ends the same way when fixed: the run finishes, with the right answer."""
    errors = _of(events, ChainErrorEvent)
    if errors:
        return [Finding("run_failed", {"error": f"{errors[-1].error_type}: {errors[-1].message}"})]
    ends = _of(events, ChainEndEvent)
    if not ends:
        return [Finding("no_end")]
    output = str(ends[-1].outputs.get("output", ends[-1].outputs))
    if EXPECTED[name] not in output:
        return [Finding("wrong_answer", {"output": output, "expected": EXPECTED[name]})]
    return []


def stop_sequence(events: Sequence[EventBase]) -> list[Finding]:
    found = []
    stops = [e.stop for e in _plan_calls(events)]
    if stops and not any("Observation" in s for s in stops[0]):
        found.append(Finding("no_stop", {"stop": stops[0]}))
    for number, reply in enumerate((e for e in _of(events, LLMEndEvent) if "plan" in e.frames), start=1):
        invented = next((line for line in reply.text.splitlines() if line.startswith("Observation")), None)
        if invented is not None:
            found.append(Finding("invented", {"number": number, "line": invented}))
            break
    return found


def parse_error(events: Sequence[EventBase]) -> list[Finding]:
    unhandled = [e for e in _of(events, ParseErrorEvent) if not e.handled]
    return [Finding("unhandled", {"seq": unhandled[0].seq})] if unhandled else []


def max_iterations(events: Sequence[EventBase]) -> list[Finding]:
    found = []
    start = _of(events, ChainStartEvent)
    if start and start[0].settings.get("max_iterations") is None:
        found.append(Finding("no_limit"))
    for limit in _of(events, LimitReachedEvent):
        found.append(Finding("cut", {"iterations": limit.iterations, "reason": limit.reason}))
    return found


def flaky_tool(events: Sequence[EventBase]) -> list[Finding]:
    found = []
    failed = [e for e in _of(events, ToolErrorEvent) if e.tool == "supplier_quote"]
    retries = [e for e in _of(events, RetryEvent) if e.target == "tool"]
    if failed and not retries:
        found.append(Finding("no_retry", {"error": failed[0].message}))
    if retries and all(r.delay == 0 for r in retries):
        found.append(Finding("no_pause", {"count": len(retries)}))
    quotes = [e for e in _of(events, ToolEndEvent) if e.tool == "supplier_quote" and "Quote for" in e.observation]
    if not quotes and retries:
        found.append(Finding("gave_up", {"count": len(retries)}))
    return found


def parallel_ids(events: Sequence[EventBase]) -> list[Finding]:
    results = {e.tool_call_id: e for e in _of(events, ToolEndEvent) if e.tool_call_id}
    for call in _plan_calls(events):
        for message in call.messages or []:
            recorded = results.get(message.get("tool_call_id"))
            if message.get("role") != "tool" or recorded is None:
                continue
            if message.get("content") != recorded.observation:
                return [
                    Finding(
                        "swapped",
                        {"id": recorded.tool_call_id, "tool": recorded.tool, "sent": message.get("content")},
                    )
                ]
    return []


def context_budget(events: Sequence[EventBase]) -> list[Finding]:
    for number, call in enumerate(_plan_calls(events), start=1):
        sent = request_tokens(call.messages or [])
        if sent > WINDOW:
            return [Finding("over_window", {"number": number, "tokens": sent, "window": WINDOW})]
    return []


JUDGES: dict[str, Callable[[Sequence[EventBase]], list[Finding]]] = {
    "stop-sequence": stop_sequence,
    "parse-error": parse_error,
    "max-iterations": max_iterations,
    "flaky-tool": flaky_tool,
    "parallel-ids": parallel_ids,
    "context-budget": context_budget,
}


def judge(name: str, events: Sequence[EventBase]) -> list[Finding]:
    """What is still wrong with the run: the exercise's own findings first, then whether it answered."""
    own = JUDGES[name](events)
    return own + [f for f in answer_findings(name, events) if not own or f.key != "run_failed"]
