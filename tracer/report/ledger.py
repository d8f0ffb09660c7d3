"""The closing tally of a run: how often plan and _perform_agent_action ran, and what isinstance said."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable

from executor.events import EventBase


_RECOVERY = ("llm_end", "fallback", "breaker_open", "plan_error", "degrade")


@dataclass
class Ledger:
    plan_calls: int = 0
    actions_performed: int = 0
    model_calls: int = 0
    finish_checks: list[bool] = field(default_factory=list)
    invalid_tools: int = 0
    parse_errors: int = 0
    tool_errors: int = 0
    retries: int = 0
    fallbacks: int = 0
    refused_by_breaker: int = 0  # calls an open breaker refused unsent
    breakers_opened: int = 0
    plan_errors: int = 0
    degraded_by: str = ""  # the rule that answered, or "no rule"
    answered_by: dict[str, int] = field(default_factory=dict)  # model -> calls it answered
    outcome: str = "unfinished"
    stopped_by: str = ""

    def add(self, event: EventBase) -> None:
        kind = event.kind
        if kind == "llm_start":
            self.model_calls += 1
            self.plan_calls += "plan" in event.frames
        elif kind in ("agent_action",):
            self.actions_performed += 1
        elif kind == "finish_check":
            self.finish_checks.append(event.is_finish)
        elif kind == "invalid_tool":
            self.invalid_tools += 1
        elif kind == "parse_error":
            self.parse_errors += 1
        elif kind == "tool_error":
            self.tool_errors += 1
        elif kind == "retry":
            self.retries += 1
        elif kind in _RECOVERY:
            self._add_recovery(event)
        elif kind == "limit_reached":
            self.stopped_by = event.reason
        elif kind == "chain_end":
            # A forced stop also ends in chain_end; say so, or a limit looks like an answer.
            self.outcome = f"stopped by {self.stopped_by}" if self.stopped_by else "finished"
        elif kind == "chain_error":
            self.outcome = f"error ({event.error_type})"

    def _add_recovery(self, event: EventBase) -> None:
        kind = event.kind
        if kind == "llm_end":
            name = event.answered_by
            if name:
                self.answered_by[name] = self.answered_by.get(name, 0) + 1
        elif kind == "fallback":
            self.fallbacks += 1
            self.refused_by_breaker += event.refused
        elif kind == "breaker_open":
            self.breakers_opened += 1
        elif kind == "plan_error":
            self.plan_errors += 1
        elif kind == "degrade":
            self.degraded_by = f"rule {event.rule!r}" if event.rule else "no rule"

    @classmethod
    def of(cls, events: Iterable[EventBase]) -> "Ledger":
        ledger = cls()
        for event in events:
            ledger.add(event)
        return ledger

    def lines(self) -> list[str]:
        checks = ", ".join(str(c) for c in self.finish_checks) or "none"
        rows = [
            f"plan called                  {self.plan_calls}   (one model call each)",
            f"_perform_agent_action called {self.actions_performed}   (one tool run or invalid-tool reply each)",
            f"isinstance(output, AgentFinish): {checks}",
            f"model calls in all           {self.model_calls}   (the calculator asks the model too)",
        ]
        extras = [(self.invalid_tools, "invalid-tool observations"), (self.parse_errors, "parse errors"),
                  (self.tool_errors, "tool errors"), (self.retries, "retries")]
        extras += [(self.fallbacks, "fallbacks"), (self.refused_by_breaker, "refused by an open breaker"),
                   (self.breakers_opened, "breakers opened"), (self.plan_errors, "plans without an action")]
        rows += [f"{label:<29}{n}" for n, label in extras if n]
        rows += [f"answered by {name:<17}{n}   (a fallback model)" for name, n in self.answered_by.items()]
        if self.degraded_by:
            rows.append(f"degraded to rules            {self.degraded_by}")
        rows.append(f"outcome                      {self.outcome}")
        return rows
