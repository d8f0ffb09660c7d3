"""The Prompt pane at a context_trimmed / summarized event: what was dropped or replaced, and what is sent next."""

from __future__ import annotations

from rich.text import Text

from ...i18n import say
from ...report.text.literal import literal
from .clipped_text import clipped

SEGMENT_LIMIT = 8_000
DROPPED, SUMMARY, KEPT = "bold red", "bold green", "dim"
BUDGET_KINDS = ("context_trimmed", "summarized")


def budget_text(event, next_call, lang: str = "en") -> tuple[Text, Text]:
    """(header, body) for a trim or summary event; `next_call` is the llm_start that follows it
    (the history after), or None when the trace ends first."""

    def words(key: str, **args: object) -> str:
        return say(f"panes.budget.{key}", lang, **args)

    trimmed = event.kind == "context_trimmed"
    removed = event.dropped if trimmed else event.replaced
    header = Text()
    what = words("trimmed", reason=event.reason) if trimmed else words("summarized")
    sizes = words(
        "sizes",
        seq=event.seq,
        before=event.messages_before,
        after=event.messages_after,
        tokens_before=event.tokens_before,
        tokens_after=event.tokens_after,
    )
    header.append(what + sizes, style="bold")
    header.append("\n")
    header.append(words("dropped") if trimmed else words("replaced"), style=DROPPED)
    if not trimmed:
        header.append(" · ")
        header.append(words("summary"), style=SUMMARY)
    header.append(" · ")
    header.append(words("sends"), style=KEPT)
    from executor.models.messages import render_messages  # only a context-budget event needs it, not the first frame

    body = Text()
    body.append(words("before", n=len(removed)) + "\n", style="bold")
    body.append_text(clipped(render_messages(removed), DROPPED, SEGMENT_LIMIT, keep_end=True))
    if not trimmed:
        body.append("\n\n" + words("after") + "\n", style="bold")
        body.append_text(literal(render_messages([event.summary]), SUMMARY))
    if next_call is not None:
        body.append("\n\n" + words("next", seq=next_call.seq) + "\n", style="bold")
        body.append_text(clipped(next_call.prompt, KEPT, SEGMENT_LIMIT, keep_end=True))
    return header, body
