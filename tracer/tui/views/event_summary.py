"""One line per event for the timeline: a colour per kind and a short, literal summary of the payload."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.text import Text

from executor.events import (
    BreakerClosedEvent,
    BreakerHalfOpenEvent,
    BreakerOpenEvent,
    DegradeEvent,
    EventBase,
    FallbackEvent,
    FinishCheckEvent,
    LLMEndEvent,
    PlanErrorEvent,
    RefusalEvent,
)

from ...i18n import say
from ...report.graph_edge import edge_target
from ...trace.literal_text import scrub
from ...trace.run_inputs import answer_of, question_of
from .clipped_text import first_line
from .mcp_view import MCP_STYLE, mcp_summary

KIND_STYLES = {
    "chain_start": "bold magenta",
    "chain_end": "bold magenta",
    "chain_error": "bold red",
    "llm_start": "cyan",
    "llm_end": "bright_cyan",
    "agent_action": "bold yellow",
    "agent_finish": "bold green",
    "tool_start": "magenta",
    "tool_end": "bright_magenta",
    "calculator_eval": "blue",
    "step": "yellow",
    "finish_check": "green",
    "parse_error": "bold red",
    "invalid_tool": "bold red",
    "tool_error": "bold red",
    "limit_reached": "bold red",
    "retry": "dark_orange",
    "rate_limit_wait": "dark_orange",
    "mcp_request": MCP_STYLE,
    "mcp_result": "bright_blue",
    "mcp_extract": "blue",
}
KIND_WIDTH = max(len(kind) for kind in KIND_STYLES)
# When a model fails for good. Rare, so the long breaker_half_open pushes its own summary along
# instead of widening every row of every timeline.
KIND_STYLES.update(
    {
        "fallback": "bold dark_orange",
        "breaker_open": "bold red",
        "breaker_half_open": "yellow",
        "breaker_closed": "green",
        "plan_error": "bold red",
        "degrade": "bold magenta",
        "refusal": "bold yellow",
    }
)
REFUSED_STYLE = "bold white on red"  # a call an open breaker refused unsent: it stands out on the timeline


def kind_style(event_kind: str, event: EventBase | None = None) -> str:
    if event_kind == "finish_check" and isinstance(event, FinishCheckEvent) and not event.is_finish:
        return "yellow"
    if event_kind == "fallback" and isinstance(event, FallbackEvent) and event.refused:
        return REFUSED_STYLE
    return KIND_STYLES.get(event_kind, "white")


def _finish_check(event: FinishCheckEvent, lang: str) -> str:
    if event.decided_by == "graph_edge":  # a LangGraph agent: the edge after its model node decided
        target = edge_target(event.went_to, event.is_finish)
        if event.is_finish and target != "END":
            return say("events.graph_edge.to", lang, node=target)
        return say("events.graph_edge.end" if event.is_finish else "events.graph_edge.model", lang)
    return f"{event.is_finish} ← isinstance(output, AgentFinish)"


def _caller(event: EventBase) -> str:
    frames = event.frames
    if event.stack:  # a traced LangChain run: its frames stop at the caller (plan), not at the model call
        return frames[-1]
    return frames[-2] if len(frames) >= 2 else "?"


def _output(values: dict, lang: str) -> str:
    return first_line(str(answer_of(values))) or say("events.empty", lang)  # said, not a blank that reads as cut off


def _question(inputs: dict, lang: str) -> str:
    # An import whose inputs hold the framework's objects: its first model call has the question.
    return first_line(question_of(inputs)) or say("events.no_question", lang)


RecoveryEvent = (
    FallbackEvent
    | BreakerOpenEvent
    | BreakerHalfOpenEvent
    | BreakerClosedEvent
    | PlanErrorEvent
    | DegradeEvent
    | RefusalEvent
)


def recovery_summary(e: RecoveryEvent, lang: str = "en") -> str:
    """Fallbacks, breakers, degradation and refusals in a few words."""
    if e.kind == "fallback":
        if e.refused:
            return say("events.fallback_refused", lang, failed=e.failed_model, next=e.next_model)
        return say("events.fallback_failed", lang, failed=e.failed_model, error=e.error_type, next=e.next_model)
    if e.kind == "breaker_open":
        if e.from_state == "half_open":
            return say("events.breaker_open_trial", lang, model=e.model, cool_down=f"{e.cool_down:g}")
        return say(
            "events.breaker_open",
            lang,
            model=e.model,
            failures=e.failures,
            window=f"{e.window:g}",
            cool_down=f"{e.cool_down:g}",
        )
    if e.kind == "breaker_half_open":
        return say("events.breaker_half_open", lang, model=e.model, open_for=f"{e.open_for:g}")
    if e.kind == "breaker_closed":
        return say("events.breaker_closed", lang, model=e.model)
    if e.kind == "plan_error":
        failed = {
            "failures": e.failures,
            "after": e.degrade_after,
            "error": e.error_type,
            "message": first_line(e.message),
        }
        return say("events.plan_error", lang, **failed)
    if e.kind == "degrade":
        if not e.rule:
            return say("events.degrade_none", lang, failures=e.failures)
        found = {"rule": repr(e.rule), "tool": e.tool, "tool_input": repr(first_line(e.tool_input or ""))}
        return say("events.degrade", lang, failures=e.failures, **found)
    return say("events.refusal", lang, by=e.detected_by, text=first_line(e.text))


def _reply(e: LLMEndEvent, lang: str) -> str:
    if e.tool_calls:
        return _tool_calls(e, lang)
    if e.answered_by:
        return say("events.reply_from", lang, by=e.answered_by, text=first_line(e.text))
    return say("events.reply", lang, text=first_line(e.text))


def _trimmed(e: Any, lang: str) -> str:
    sizes = {"before": e.messages_before, "after": e.messages_after}
    tokens = {"tokens_before": e.tokens_before, "tokens_after": e.tokens_after}
    if e.kind == "context_trimmed":
        return say("events.context_trimmed", lang, reason=e.reason, dropped=len(e.dropped), **sizes, **tokens)
    return say("events.summarized", lang, replaced=len(e.replaced), **sizes, **tokens)


# What each kind says, in a few words, the deciding value first (rows are cut on the right);
# model and tool text is cut to its first line. Symbols only (no words) where the values say it all.
SUMMARIES: dict[str, Callable[[Any, str], str]] = {
    "chain_start": lambda e, lang: say("events.question", lang, question=_question(e.inputs, lang)),
    "llm_start": lambda e, lang: say(
        "events.llm_start", lang, caller=_caller(e), model=e.model, chars=f"{len(e.prompt):,}"
    ),
    "llm_end": _reply,
    "agent_action": lambda e, lang: f"{e.tool}({first_line(e.tool_input)})",
    "agent_finish": lambda e, lang: say("events.final_answer", lang, answer=_output(e.return_values, lang)),
    "parse_error": lambda e, lang: say(
        "events.handled" if e.handled else "events.not_handled", lang, error=first_line(e.error)
    ),
    "invalid_tool": lambda e, lang: say("events.invalid_tool", lang, requested=repr(first_line(e.requested))),
    "tool_start": lambda e, lang: f"{e.tool} ← {first_line(e.tool_input)}",
    "tool_end": lambda e, lang: f"{e.tool} → {first_line(e.observation)}",
    "tool_error": lambda e, lang: f"{e.tool}: {e.error_type}: {first_line(e.message)}",
    "retry": lambda e, lang: say(
        "events.retry", lang, attempt=e.attempt, delay=f"{e.delay:.2f}", target=e.target, name=repr(e.name)
    ),
    "rate_limit_wait": lambda e, lang: say("events.rate_limit_wait", lang, waited=f"{e.waited:.2f}"),
    "step": lambda e, lang: f"#{e.n_steps} {e.action.tool} → {first_line(e.observation)}",
    "finish_check": lambda e, lang: _finish_check(e, lang),
    "limit_reached": lambda e, lang: say("events.limit_reached", lang, reason=e.reason, iterations=e.iterations),
    "calculator_eval": lambda e, lang: f"{first_line(e.expression)} = {first_line(e.result)}",
    "chain_end": lambda e, lang: say("events.output", lang, answer=_output(e.outputs, lang)),
    "chain_error": lambda e, lang: f"{e.error_type}: {first_line(e.message)}",
    **dict.fromkeys(
        ("fallback", "breaker_open", "breaker_half_open", "breaker_closed", "plan_error", "degrade", "refusal"),
        recovery_summary,
    ),
    "context_trimmed": _trimmed,
    **dict.fromkeys(("mcp_request", "mcp_result", "mcp_extract"), mcp_summary),
    "summarized": _trimmed,
}


def _tool_calls(event: LLMEndEvent, lang: str = "en") -> str:
    """A tool-calling reply: its calls, each with the id its result will carry."""
    calls = event.tool_calls or []
    listed = say("events.call_separator", lang).join(
        f"{call.name}({first_line(call.arguments)}) [{call.id}]" for call in calls
    )
    return say("events.tool_call" if len(calls) == 1 else "events.tool_calls", lang, count=len(calls), listed=listed)


# In a narrow timeline the deciding value must come before a long tool name (tool_start names it),
# and an MCP request's id (what its result's "← #3" answers) before the method every call shares.
NARROW_SUMMARIES: dict[str, Callable[[Any, str], str]] = {
    "tool_end": lambda e, lang: f"→ {first_line(e.observation)} · {e.tool}",
    "mcp_request": lambda e, lang: mcp_summary(e, lang).replace(
        f"→ {e.method} #{e.request_id}", f"→ #{e.request_id} {e.method}", 1
    ),
}


def summary(event: EventBase, narrow: bool = False, lang: str = "en") -> str:
    describe = (NARROW_SUMMARIES if narrow else {}).get(event.kind) or SUMMARIES.get(event.kind)
    return describe(event, lang) if describe else ""


def summary_text(event: EventBase, narrow: bool = False, lang: str = "en") -> Text:
    """The summary as literal text (scrubbed: no markup, no escapes, no control characters)."""
    return Text(scrub(summary(event, narrow, lang)).replace("\n", " "), style="default")
