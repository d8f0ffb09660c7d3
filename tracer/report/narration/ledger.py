"""The closing tally of a run: how often plan and _perform_agent_action ran, what isinstance said, and what the
model calls cost in tokens and dollars (per iteration and in all)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import cast

from rich.cells import cell_len

from executor.events import Event, EventBase

from ...i18n import Message, say
from ..cost.prices import CallCost, CostTotal, PriceTable, call_costs, price_note, totals_by_iteration
from ..graph_edge import edge_target
from .narrator import is_plan_call

_RECOVERY = ("llm_end", "fallback", "breaker_open", "plan_error", "degrade")
LABEL_CELLS = 29  # the counts line up after the labels, in either language


def _row(label: str, value: object, note: str = "") -> str:
    return label + " " * max(0, LABEL_CELLS - cell_len(label)) + f"{value}{note}"


@dataclass
class Ledger:
    plan_calls: int = 0
    actions_performed: int = 0
    model_calls: int = 0
    finish_checks: list[bool] = field(default_factory=list)
    edge_targets: list[str] = field(default_factory=list)  # a LangGraph run's: where each check's edge went
    graph_edges: bool = False  # a LangGraph run: its checks are the edge after the model node
    framework_loop: bool = False  # a framework's loop (LangGraph, the Agents SDK, pydantic-ai): no plan() in it
    _tools_started: set[str] = field(default_factory=set, repr=False)
    invalid_tools: int = 0
    parse_errors: int = 0
    tool_errors: int = 0
    retries: int = 0
    fallbacks: int = 0
    refused_by_breaker: int = 0  # calls an open breaker refused unsent
    breakers_opened: int = 0
    plan_errors: int = 0
    degraded: Message | None = None  # the rule that answered, or "no rule"
    answered_by: dict[str, int] = field(default_factory=dict)  # model -> calls it answered
    tool_calls: int = 0  # of a tool-calling agent (each agent_action with a tool_call_id)
    multi_call_replies: int = 0
    summaries: int = 0
    trims: int = 0
    _calls_this_reply: int = field(default=0, repr=False)
    ended: Message = field(default_factory=lambda: Message("ledger.outcome.unfinished"))
    stopped_by: str = ""
    prices: PriceTable | None = None  # the shipped table when not given (a command hands the user's down)
    calls: list[CallCost] = field(default_factory=list)
    _open_call: list[EventBase] = field(default_factory=list, repr=False)

    def add(self, event: EventBase) -> None:
        # A listener is handed EventBase; every event the executor or a reader makes is one of the
        # union's classes, so comparing kinds below narrows it (until executor's Listener types it).
        event = cast(Event, event)
        if event.kind in ("llm_start", "llm_end"):
            self._count_tokens(event)
        if event.kind == "llm_start":
            self.model_calls += 1
            self.plan_calls += is_plan_call(event)
            self._calls_this_reply = 0
        elif event.kind == "agent_action":
            self.actions_performed += 1
            if event.tool_call_id:
                self.tool_calls += 1
                self._calls_this_reply += 1
                self.multi_call_replies += self._calls_this_reply == 2
        elif event.kind == "summarized":
            self.summaries += 1
        elif event.kind == "context_trimmed":
            self.trims += 1
        elif event.kind == "tool_start" and self.framework_loop and event.tool_call_id:
            self._tools_started.add(event.tool_call_id)  # the Agents SDK and pydantic-ai make no agent_action
        elif event.kind == "chain_start":
            self.framework_loop = bool(event.settings.get("graph") or event.settings.get("framework"))
        elif event.kind == "finish_check":
            self.finish_checks.append(event.is_finish)
            self.edge_targets.append(edge_target(event.went_to, event.is_finish))
            self.graph_edges |= event.decided_by == "graph_edge"
        elif event.kind == "invalid_tool":
            self.invalid_tools += 1
        elif event.kind == "parse_error":
            self.parse_errors += 1
        elif event.kind == "tool_error":
            self.tool_errors += 1
        elif event.kind == "retry":
            self.retries += 1
        elif event.kind in _RECOVERY:
            self._add_recovery(event)
        elif event.kind == "limit_reached":
            self.stopped_by = event.reason
        elif event.kind == "chain_end":
            # A forced stop also ends in chain_end; say so, or a limit looks like an answer.
            stopped = Message("ledger.outcome.stopped", {"reason": self.stopped_by})
            self.ended = stopped if self.stopped_by else Message("ledger.outcome.finished")
        elif event.kind == "chain_error":
            self.ended = Message("ledger.outcome.error", {"error_type": event.error_type})

    def _add_recovery(self, event: Event) -> None:
        if event.kind == "llm_end":
            name = event.answered_by
            if name:
                self.answered_by[name] = self.answered_by.get(name, 0) + 1
        elif event.kind == "fallback":
            self.fallbacks += 1
            self.refused_by_breaker += event.refused
        elif event.kind == "breaker_open":
            self.breakers_opened += 1
        elif event.kind == "plan_error":
            self.plan_errors += 1
        elif event.kind == "degrade":
            rule = Message("ledger.degraded.rule", {"rule": event.rule})
            self.degraded = rule if event.rule else Message("ledger.degraded.no_rule")

    def _count_tokens(self, event: EventBase) -> None:
        if event.kind == "llm_start":
            self._open_call[:] = [event]
            return
        if self.prices is None:
            self.prices = PriceTable.load()
        self.calls += call_costs(self._open_call + [event], self.prices)
        self._open_call.clear()

    @classmethod
    def of(cls, events: Iterable[EventBase], prices: PriceTable | None = None) -> Ledger:
        ledger = cls(prices=prices)
        for event in events:
            ledger.add(event)
        return ledger

    @property
    def outcome(self) -> str:
        """How the run ended, in English: finished, stopped by max_iterations, error (ValueError)."""
        return self.ended.text("en")

    @property
    def degraded_by(self) -> str:
        return self.degraded.text("en") if self.degraded else ""

    def lines(self, lang: str = "en") -> list[str]:
        if self.framework_loop or self.graph_edges:  # no plan() and no _perform_agent_action to count
            rows = [_row(say("ledger.model_calls", lang), self.model_calls)]
            if self.graph_edges:  # a LangGraph agent: where the edge after its model node went, each round
                edges = ", ".join(self.edge_targets)
                rows.insert(0, say("ledger.graph_edges", lang, checks=edges))
        else:
            checks = ", ".join(str(c) for c in self.finish_checks) or say("ledger.none", lang)
            calculator = say("ledger.model_calls.note", lang) if self.model_calls > self.plan_calls else ""
            rows = [
                _row(say("ledger.plan_calls", lang), self.plan_calls, say("ledger.plan_calls.note", lang)),
                _row(say("ledger.actions", lang), self.actions_performed, say("ledger.actions.note", lang)),
                say("ledger.finish_checks", lang, checks=checks),
                _row(say("ledger.model_calls", lang), self.model_calls, calculator),
            ]
        extras = [
            (max(self.tool_calls, len(self._tools_started)), "tool_calls"),
            (self.multi_call_replies, "multi_call_replies"),
            (self.summaries, "summaries"),
            (self.trims, "trims"),
            (self.invalid_tools, "invalid_tools"),
            (self.parse_errors, "parse_errors"),
            (self.tool_errors, "tool_errors"),
            (self.retries, "retries"),
            (self.fallbacks, "fallbacks"),
            (self.refused_by_breaker, "refused_by_breaker"),
            (self.breakers_opened, "breakers_opened"),
            (self.plan_errors, "plan_errors"),
        ]
        rows += [_row(say(f"ledger.{key}", lang), n) for n, key in extras if n]
        note = say("ledger.answered_by.note", lang)
        rows += [_row(say("ledger.answered_by", lang, model=name), n, note) for name, n in self.answered_by.items()]
        if self.degraded:
            rows.append(_row(say("ledger.degraded", lang), self.degraded.text(lang)))
        rows += self.cost_lines(lang)
        rows.append(_row(say("ledger.outcome", lang), self.ended.text(lang)))
        return rows

    def cost_lines(self, lang: str = "en") -> list[str]:
        """Tokens and dollars per iteration and for the run, saying what was estimated."""
        if not self.calls:
            return []
        total = CostTotal.of(self.calls)
        rows = [
            _row(say("ledger.tokens.iteration", lang, iteration=n), t.short(lang))
            for n, t in totals_by_iteration(self.calls).items()
        ]
        rows.append(_row(say("ledger.tokens.all", lang), total.short(lang)))
        if any(call.estimated for call in self.calls):
            rows.append(say("ledger.tokens.estimated", lang))
        notes = {price_note(call.price, call.model, lang) for call in self.calls} - {""}
        rows += [f"  {note.strip(' ()（）')}" for note in sorted(notes)]
        return rows
