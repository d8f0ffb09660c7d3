"""One line per event for the timeline: a colour per kind and a short, literal summary of the payload."""

from __future__ import annotations

from rich.text import Text

from executor.events import EventBase

from ..literal_text import scrub
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
    return frames[-2] if len(frames) >= 2 else "?"


def summary(event: EventBase) -> str:
    """What the event says, in a few words; model and tool text is cut to its first line."""
    e, kind = event, event.kind
    if kind == "chain_start":
        return "question: " + first_line(str(e.inputs.get("input", "")))
    if kind == "llm_start":
        return f"{_caller(e)}() → {e.model} · {len(e.prompt):,} chars"
    if kind == "llm_end":
        return "reply: " + first_line(e.text)
    if kind == "agent_action":
        return f"{e.tool}({first_line(e.tool_input)})"
    if kind == "agent_finish":
        return "final answer: " + first_line(str(e.return_values.get("output", e.return_values)))
    if kind == "parse_error":
        return ("handled: " if e.handled else "not handled: ") + first_line(e.error)
    if kind == "invalid_tool":
        return f"no tool named {first_line(e.requested)!r}"
    if kind == "tool_start":
        return f"{e.tool} ← {first_line(e.tool_input)}"
    if kind == "tool_end":
        return f"{e.tool} → {first_line(e.observation)}"
    if kind == "tool_error":
        return f"{e.tool}: {e.error_type}: {first_line(e.message)}"
    if kind == "retry":
        return f"{e.target} {e.name!r} attempt {e.attempt} failed, wait {e.delay:.2f}s"
    if kind == "rate_limit_wait":
        return f"waited {e.waited:.3f}s"
    if kind == "step":
        return f"#{e.n_steps} {e.action.tool} → {first_line(e.observation)}"
    if kind == "finish_check":
        return f"isinstance(output, AgentFinish) → {e.is_finish}"
    if kind == "limit_reached":
        return f"{e.reason} after {e.iterations} iterations"
    if kind == "calculator_eval":
        return f"{first_line(e.expression)} = {first_line(e.result)}"
    if kind == "chain_end":
        return "output: " + first_line(str(e.outputs.get("output", e.outputs)))
    if kind == "chain_error":
        return f"{e.error_type}: {first_line(e.message)}"
    return ""


def summary_text(event: EventBase) -> Text:
    """The summary as literal text (scrubbed: no markup, no escapes, no control characters)."""
    return Text(scrub(summary(event)).replace("\n", " "), style="default")
