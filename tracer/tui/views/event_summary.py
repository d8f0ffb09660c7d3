"""One line per event for the timeline: a colour per kind and a short, literal summary of the payload."""

from __future__ import annotations

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

from ...trace.literal_text import scrub
from ...trace.run_inputs import answer_of, question_of
from .clipped_text import first_line
from .event_summary_zh import SUMMARIES_ZH
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


def _caller(event: EventBase) -> str:
    frames = event.frames
    if event.stack:  # a traced LangChain run: its frames stop at the caller (plan), not at the model call
        return frames[-1]
    return frames[-2] if len(frames) >= 2 else "?"


def _output(values: dict) -> str:
    return first_line(str(answer_of(values))) or "(empty)"  # said, not a blank that reads as cut off


def _question(inputs: dict) -> str:
    # An import whose inputs hold the framework's objects: its first model call has the question.
    return first_line(question_of(inputs)) or "(none in the inputs)"


RecoveryEvent = (
    FallbackEvent
    | BreakerOpenEvent
    | BreakerHalfOpenEvent
    | BreakerClosedEvent
    | PlanErrorEvent
    | DegradeEvent
    | RefusalEvent
)


def recovery_summary(e: RecoveryEvent) -> str:
    """Fallbacks, breakers, degradation and refusals in a few words."""
    if e.kind == "fallback":
        why = "REFUSED by open breaker, never sent" if e.refused else f"failed for good ({e.error_type})"
        return f"{e.failed_model} {why} → {e.next_model}"
    if e.kind == "breaker_open":
        cause = "half-open trial failed" if e.from_state == "half_open" else f"{e.failures} failures in {e.window:g}s"
        return f"{e.model}: {cause}, refusing calls for {e.cool_down:g}s"
    if e.kind == "breaker_half_open":
        return f"{e.model}: open for {e.open_for:g}s, one trial call goes through"
    if e.kind == "breaker_closed":
        return f"{e.model}: trial call worked, calls flow again"
    if e.kind == "plan_error":
        return f"{e.failures}/{e.degrade_after} {e.error_type}: {first_line(e.message)}"
    if e.kind == "degrade":
        found = f"rule {e.rule!r} → {e.tool}({first_line(e.tool_input or '')!r})" if e.rule else "no rule matches"
        return f"after {e.failures} failures: {found}"
    return f"{e.detected_by}: {first_line(e.text)}"  # refusal


# What each kind says, in a few words, the deciding value first (rows are cut on the right);
# model and tool text is cut to its first line.
SUMMARIES = {
    "chain_start": lambda e: "question: " + _question(e.inputs),
    "llm_start": lambda e: f"{_caller(e)}() → {e.model} · {len(e.prompt):,} chars",
    "llm_end": lambda e: (
        _tool_calls(e)
        if e.tool_calls
        else (f"reply from {e.answered_by}: " if e.answered_by else "reply: ") + first_line(e.text)
    ),
    "agent_action": lambda e: f"{e.tool}({first_line(e.tool_input)})",
    "agent_finish": lambda e: "final answer: " + _output(e.return_values),
    "parse_error": lambda e: ("handled: " if e.handled else "not handled: ") + first_line(e.error),
    "invalid_tool": lambda e: f"no tool named {first_line(e.requested)!r}",
    "tool_start": lambda e: f"{e.tool} ← {first_line(e.tool_input)}",
    "tool_end": lambda e: f"{e.tool} → {first_line(e.observation)}",
    "tool_error": lambda e: f"{e.tool}: {e.error_type}: {first_line(e.message)}",
    "retry": lambda e: f"#{e.attempt} wait {e.delay:.2f}s · {e.target} {e.name!r} failed",
    "rate_limit_wait": lambda e: f"{e.waited:.2f}s waited for the rate limit",
    "step": lambda e: f"#{e.n_steps} {e.action.tool} → {first_line(e.observation)}",
    "finish_check": lambda e: f"{e.is_finish} ← isinstance(output, AgentFinish)",
    "limit_reached": lambda e: f"{e.reason} after {e.iterations} iterations",
    "calculator_eval": lambda e: f"{first_line(e.expression)} = {first_line(e.result)}",
    "chain_end": lambda e: "output: " + _output(e.outputs),
    "chain_error": lambda e: f"{e.error_type}: {first_line(e.message)}",
    **dict.fromkeys(
        ("fallback", "breaker_open", "breaker_half_open", "breaker_closed", "plan_error", "degrade", "refusal"),
        recovery_summary,
    ),
    "context_trimmed": lambda e: (
        f"{e.reason}: {e.messages_before} → {e.messages_after} messages, "
        f"{e.tokens_before} → {e.tokens_after} tokens, {len(e.dropped)} dropped"
    ),
    **dict.fromkeys(("mcp_request", "mcp_result", "mcp_extract"), mcp_summary),
    "summarized": lambda e: (
        f"{len(e.replaced)} messages → 1 summary: {e.messages_before} → "
        f"{e.messages_after} messages, {e.tokens_before} → {e.tokens_after} tokens"
    ),
}


def _tool_calls(event: LLMEndEvent) -> str:
    """A tool-calling reply: its calls, each with the id its result will carry."""
    calls = event.tool_calls or []
    listed = ", ".join(f"{call.name}({first_line(call.arguments)}) [{call.id}]" for call in calls)
    return f"{len(calls)} tool call{'s' if len(calls) != 1 else ''}: {listed}"


# In a narrow timeline the deciding value must come before a long tool name (tool_start names it).
NARROW_SUMMARIES = {
    "tool_end": lambda e: f"→ {first_line(e.observation)} · {e.tool}",
}


def summary(event: EventBase, narrow: bool = False, lang: str = "en") -> str:
    describe = (
        (NARROW_SUMMARIES if narrow else {}).get(event.kind)
        or (SUMMARIES_ZH if lang == "zh" else {}).get(event.kind)
        or SUMMARIES.get(event.kind)
    )
    return describe(event) if describe else ""


def summary_text(event: EventBase, narrow: bool = False, lang: str = "en") -> Text:
    """The summary as literal text (scrubbed: no markup, no escapes, no control characters)."""
    return Text(scrub(summary(event, narrow, lang)).replace("\n", " "), style="default")
