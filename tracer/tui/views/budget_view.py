"""The Prompt pane at a context_trimmed / summarized event: what was dropped or replaced, and what is sent next."""

from __future__ import annotations

from rich.text import Text

from ...report.text.literal import literal
from .clipped_text import clipped

SEGMENT_LIMIT = 8_000
DROPPED, SUMMARY, KEPT = "bold red", "bold green", "dim"
BUDGET_KINDS = ("context_trimmed", "summarized")


WORDS = {
    "en": {
        "trimmed": "history trimmed ({reason})",
        "summarized": "history summarized",
        "sizes": " · event {seq} · {before} → {after} messages · {tokens_before} → {tokens_after} tokens",
        "dropped": "dropped",
        "replaced": "replaced",
        "summary": "the summary in their place",
        "sends": "what the next call sends",
        "before": "Before: the {n} oldest messages after the question\n",
        "after": "\n\nAfter: one message instead\n",
        "next": "\n\nThe next call (event {seq}) sends:\n",
    },
    "zh": {
        "trimmed": "历史被裁剪（{reason}）",
        "summarized": "历史被摘要",
        "sizes": " · 事件 {seq} · {before} → {after} 条消息 · {tokens_before} → {tokens_after} token",
        "dropped": "丢掉的",
        "replaced": "被替换的",
        "summary": "替代它们的摘要",
        "sends": "下一次调用发送的",
        "before": "之前：问题之后最早的 {n} 条消息\n",
        "after": "\n\n之后：换成一条消息\n",
        "next": "\n\n下一次调用（事件 {seq}）发送：\n",
    },
}


def budget_text(event, next_call, lang: str = "en") -> tuple[Text, Text]:
    """(header, body) for a trim or summary event; `next_call` is the llm_start that follows it
    (the history after), or None when the trace ends first."""
    words = WORDS.get(lang, WORDS["en"])
    trimmed = event.kind == "context_trimmed"
    removed = event.dropped if trimmed else event.replaced
    header = Text()
    what = words["trimmed"].format(reason=event.reason) if trimmed else words["summarized"]
    sizes = words["sizes"].format(
        seq=event.seq,
        before=event.messages_before,
        after=event.messages_after,
        tokens_before=event.tokens_before,
        tokens_after=event.tokens_after,
    )
    header.append(what + sizes, style="bold")
    header.append("\n")
    header.append(words["dropped"] if trimmed else words["replaced"], style=DROPPED)
    if not trimmed:
        header.append(" · ")
        header.append(words["summary"], style=SUMMARY)
    header.append(" · ")
    header.append(words["sends"], style=KEPT)
    from executor.models.messages import render_messages  # only a context-budget event needs it, not the first frame

    body = Text()
    body.append(words["before"].format(n=len(removed)), style="bold")
    body.append_text(clipped(render_messages(removed), DROPPED, SEGMENT_LIMIT, keep_end=True))
    if not trimmed:
        body.append(words["after"], style="bold")
        body.append_text(literal(render_messages([event.summary]), SUMMARY))
    if next_call is not None:
        body.append(words["next"].format(seq=next_call.seq), style="bold")
        body.append_text(clipped(next_call.prompt, KEPT, SEGMENT_LIMIT, keep_end=True))
    return header, body
