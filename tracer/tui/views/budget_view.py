"""The Prompt pane at a context_trimmed / summarized event: what was dropped or replaced, and what is sent next."""

from __future__ import annotations

from rich.text import Text

from ...report.literal import literal
from .clipped_text import clipped

SEGMENT_LIMIT = 8_000
DROPPED, SUMMARY, KEPT = "bold red", "bold green", "dim"
BUDGET_KINDS = ("context_trimmed", "summarized")


def budget_text(event, next_call) -> tuple[Text, Text]:
    """(header, body) for a trim or summary event; `next_call` is the llm_start that follows it
    (the history after), or None when the trace ends first."""
    trimmed = event.kind == "context_trimmed"
    removed = event.dropped if trimmed else event.replaced
    header = Text()
    what = f"trimmed ({event.reason})" if trimmed else "summarized"
    header.append(
        f"history {what} · event {event.seq} · {event.messages_before} → {event.messages_after} messages"
        f" · {event.tokens_before} → {event.tokens_after} tokens",
        style="bold",
    )
    header.append("\n")
    header.append("dropped" if trimmed else "replaced", style=DROPPED)
    if not trimmed:
        header.append(" · ")
        header.append("the summary in their place", style=SUMMARY)
    header.append(" · ")
    header.append("what the next call sends", style=KEPT)
    from executor.models.messages import render_messages  # only a context-budget event needs it, not the first frame

    body = Text()
    body.append(f"Before: the {len(removed)} oldest messages after the question\n", style="bold")
    body.append_text(clipped(render_messages(removed), DROPPED, SEGMENT_LIMIT, keep_end=True))
    if not trimmed:
        body.append("\n\nAfter: one message instead\n", style="bold")
        body.append_text(literal(render_messages([event.summary]), SUMMARY))
    if next_call is not None:
        body.append(f"\n\nThe next call (event {next_call.seq}) sends:\n", style="bold")
        body.append_text(clipped(next_call.prompt, KEPT, SEGMENT_LIMIT, keep_end=True))
    return header, body
