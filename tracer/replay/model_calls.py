"""Each model's recorded calls, read from a run whose calls may have gone through fallbacks and breakers.

One llm_start may be answered by several models: the primary retries and fails, its breaker opens,
a fallback answers. The events say which model made each attempt (retry.name, breaker_open.model,
fallback.failed_model, llm_end.answered_by); this module sorts the attempts by model so that each
replayed model fails and answers exactly as it did, and the run's breakers and fallbacks (rebuilt
around them) narrate the same events again.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from executor.events import ChainErrorEvent, Event, FallbackEvent, LLMStartEvent, PlanErrorEvent, ToolErrorEvent

from .recorded_call import ModelCall, RecordedCall

_RETRY_IN = re.compile(r"is not called again for ([0-9.e+-]+)s")


@dataclass
class BreakerDecision:
    """What a model's breaker decided for one attempt, as recorded: let it through ("pass"), let it through
    as the half-open trial ("trial", open_for), or refuse it unsent ("refuse", retry_in); and whether the
    attempt's failure opened the breaker (from_state, failures counted) or its success closed it."""

    kind: str
    value: float | None = None
    opened: tuple[str, int] | None = None
    closed: bool = False


def _split_error(text: str) -> tuple[str, str]:
    error_type, _, message = text.partition(": ")
    return error_type or "Exception", message


def _final_failure(text: str) -> tuple[str, str]:
    """The last attempt's error from a fallback's or plan_error's text ("... after N attempts: Type: msg")."""
    return _split_error(text.split(" attempts: ", 1)[1] if " attempts: " in text else text)


@dataclass
class _Span:
    """The attempts made for one llm_start, by model, and which model was asked last."""

    start: LLMStartEvent
    last_asked: str
    calls: dict[str, ModelCall] = field(default_factory=dict)


class ModelCallReader:
    """Walks the events once; `calls` ends up holding each model's calls in recorded order."""

    def __init__(self, events: Sequence[Event]) -> None:
        self.calls: dict[str, list[ModelCall]] = defaultdict(list)
        self.decisions: dict[str, list[BreakerDecision]] = defaultdict(list)
        self._trial: dict[str, BreakerDecision] = {}
        self._counted: set[str] = set()
        self.breaker_open: dict[str, bool] = _initial_breaker_states(events)
        self.span: _Span | None = None
        for event in events:
            self.read(event)
        self.end_span(None)  # the run died inside a call (a crash leaves no chain_error)

    def call_of(self, model: str) -> ModelCall:
        assert self.span is not None
        call = self.span.calls.get(model)
        if call is None:
            call = self.span.calls[model] = RecordedCall(self.span.start)
            self.calls[model].append(call)
        return call

    def read(self, event: Event) -> None:
        if event.kind == "llm_start":
            self.end_span(None)
            self.span = _Span(event, event.model)
            return
        if event.kind in ("breaker_open", "breaker_half_open", "breaker_closed"):
            self.breaker_open[event.model] = event.kind == "breaker_open"
        if self.span is None:
            return
        if event.kind == "retry" and event.target == "llm":
            self.call_of(event.name).failures.append(event.error)
            self.attempted(event.name)
        elif event.kind == "breaker_half_open":
            self.call_of(event.model)  # the trial call is an attempt
            self._trial[event.model] = BreakerDecision("trial", event.open_for)
            self.decisions[event.model].append(self._trial[event.model])
        elif event.kind == "breaker_open":
            self.call_of(event.model).fail_for_good(*_split_error(event.error), retryable=True)
            self.attempted(event.model).opened = (event.from_state, event.failures)
        elif event.kind == "breaker_closed":
            self.attempted(event.model).closed = True
            self._counted.add(event.model)  # the llm_end that follows is this same attempt
        elif event.kind == "fallback":
            self.read_fallback(event)
        elif event.kind == "llm_end":
            model = event.answered_by or self.span.start.model
            self.call_of(model).end = event
            self.span = None
            if model in self._counted:
                self._counted.discard(model)
            else:
                self.attempted(model)
        elif event.kind == "plan_error" or event.kind == "chain_error" or event.kind == "tool_error":
            self.end_span(event)  # the model call failed for good

    def read_fallback(self, event: FallbackEvent) -> None:
        assert self.span is not None
        self.span.last_asked = event.next_model
        if event.refused:
            self.refused(event.failed_model, event.error)
        if event.error_type == "CircuitOpenError":
            return  # refused unsent, or the breaker_open before it already ended the call
        call = self.call_of(event.failed_model)
        if not call.finished:
            call.fail_for_good(*_final_failure(event.error), retryable=event.error_type == "RetriesExhausted")
            self.attempted(event.failed_model)

    def end_span(self, ending: PlanErrorEvent | ChainErrorEvent | ToolErrorEvent | None) -> None:
        """The call failed for good: the model asked last made a final attempt no event names,
        unless its breaker refused it (then it made none)."""
        span, self.span = self.span, None
        if span is None:
            return
        model = span.last_asked
        call = span.calls.get(model)
        text = f"{ending.error_type}: {getattr(ending, 'message', '')}" if ending is not None else ""
        if call is None and self.breaker_open.get(model, False):
            self.refused(model, text)
            return
        call = call or self.call_of_span(span, model)
        if call.finished or call.end is not None:
            return
        if call.failures:  # retries ran out: the last attempt failed as the one before it did
            call.fail_for_good(*_split_error(call.failures[-1]), retryable=True)
        elif ending is not None:
            call.fail_for_good(*_final_failure(text), retryable=" attempts: " in text)
        self.attempted(model)

    def attempted(self, model: str) -> BreakerDecision:
        """An attempt of `model` went through its breaker: the pending trial, or a plain pass."""
        trial = self._trial.pop(model, None)
        if trial is not None:
            return trial
        decision = BreakerDecision("pass")
        self.decisions[model].append(decision)
        return decision

    def refused(self, model: str, error: str) -> None:
        found = _RETRY_IN.search(error)
        self.decisions[model].append(BreakerDecision("refuse", float(found.group(1)) if found else 0.0))

    def call_of_span(self, span: _Span, model: str) -> ModelCall:
        self.span = span
        try:
            return self.call_of(model)
        finally:
            self.span = None


def _initial_breaker_states(events: Sequence[Event]) -> dict[str, bool]:
    """Which models' breakers were open when the run began (chain_start's settings["model_chain"])."""
    first = events[0] if events else None
    if first is None or first.kind != "chain_start":
        return {}
    chain: Any = first.settings.get("model_chain") or {}
    links = chain.get("chain", [chain]) if isinstance(chain, dict) else []
    return {
        str(link.get("model")): (link.get("breaker") or {}).get("state") == "open"
        for link in links
        if isinstance(link, dict)
    }


def breaker_decisions(events: Sequence[Event]) -> dict[str, list[BreakerDecision]]:
    """Each model's breaker decisions in recorded order, attempt by attempt."""
    return dict(ModelCallReader(events).decisions)


def calls_by_model(events: Sequence[Event]) -> dict[str, list[ModelCall]]:
    """Each model's calls in recorded order (a model asked for a call it never got has none)."""
    return dict(ModelCallReader(events).calls)


def model_calls_in_order(events: Sequence[Event]) -> list[ModelCall]:
    """Every model call, whichever model made it, in recorded order (one model: its calls)."""
    return sorted(
        (call for calls in calls_by_model(events).values() for call in calls), key=lambda call: call.start.seq
    )
