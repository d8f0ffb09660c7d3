"""One line per event for the timeline: a colour per kind and a short, literal summary of the payload."""

from __future__ import annotations

from rich.text import Text

from executor.events import EventBase

from ...trace.literal_text import scrub
from .clipped_text import first_line

KIND_STYLES = {
    "chain_start": "bold magenta", "chain_end": "bold magenta", "chain_error": "bold red",
    "llm_start": "cyan", "llm_end": "bright_cyan",
    "agent_action": "bold yellow", "agent_finish": "bold green",
    "tool_start": "magenta", "tool_end": "bright_magenta", "calculator_eval": "blue",
    "step": "yellow", "finish_check": "green",
    "parse_error": "bold red", "invalid_tool": "bold red", "tool_error": "bold red",
    "limit_reached": "bold red", "retry": "dark_orange", "rate_limit_wait": "dark_orange",
}
KIND_WIDTH = max(len(kind) for kind in KIND_STYLES)


def kind_style(event_kind: str, event: EventBase | None = None) -> str:
    if event_kind == "finish_check" and event is not None and not event.is_finish:
        return "yellow"
    return KIND_STYLES.get(event_kind, "white")


def _caller(event: EventBase) -> str:
    frames = event.frames
    if event.stack:  # a traced LangChain run: its frames stop at the caller (plan), not at the model call
        return frames[-1]
    return frames[-2] if len(frames) >= 2 else "?"


def _output(values: dict) -> str:
    return first_line(str(values.get("output", values)))


# What each kind says, in a few words; model and tool text is cut to its first line.
SUMMARIES = {
    "chain_start": lambda e: "question: " + first_line(str(e.inputs.get("input", ""))),
    "llm_start": lambda e: f"{_caller(e)}() → {e.model} · {len(e.prompt):,} chars",
    "llm_end": lambda e: "reply: " + first_line(e.text),
    "agent_action": lambda e: f"{e.tool}({first_line(e.tool_input)})",
    "agent_finish": lambda e: "final answer: " + _output(e.return_values),
    "parse_error": lambda e: ("handled: " if e.handled else "not handled: ") + first_line(e.error),
    "invalid_tool": lambda e: f"no tool named {first_line(e.requested)!r}",
    "tool_start": lambda e: f"{e.tool} ← {first_line(e.tool_input)}",
    "tool_end": lambda e: f"{e.tool} → {first_line(e.observation)}",
    "tool_error": lambda e: f"{e.tool}: {e.error_type}: {first_line(e.message)}",
    "retry": lambda e: f"{e.target} {e.name!r} attempt {e.attempt} failed, wait {e.delay:.2f}s",
    "rate_limit_wait": lambda e: f"waited {e.waited:.3f}s",
    "step": lambda e: f"#{e.n_steps} {e.action.tool} → {first_line(e.observation)}",
    "finish_check": lambda e: f"isinstance(output, AgentFinish) → {e.is_finish}",
    "limit_reached": lambda e: f"{e.reason} after {e.iterations} iterations",
    "calculator_eval": lambda e: f"{first_line(e.expression)} = {first_line(e.result)}",
    "chain_end": lambda e: "output: " + _output(e.outputs),
    "chain_error": lambda e: f"{e.error_type}: {first_line(e.message)}",
}


def summary(event: EventBase) -> str:
    describe = SUMMARIES.get(event.kind)
    return describe(event) if describe else ""


def summary_text(event: EventBase) -> Text:
    """The summary as literal text (scrubbed: no markup, no escapes, no control characters)."""
    return Text(scrub(summary(event)).replace("\n", " "), style="default")
