"""The prompt pane: the exact text of the current (or last) model call, its scratchpad, and what is new since the caller's previous call."""

from __future__ import annotations

from rich.text import Text

from executor.events import LLMEndEvent, LLMStartEvent

from ...debug.session import DebugSession, UnreadableEvent
from ...i18n import say
from ...report.narration.narrator import reply_text
from ...report.text.line_diff import marked_diff
from ...trace.index import TraceIndex
from ...trace.literal_text import scrub
from ...trace.numpy_on_use import np
from .budget_view import BUDGET_KINDS, budget_text
from .clipped_text import clipped, common_prefix_length
from .typed_events import event_as

SEGMENT_LIMIT = 8_000  # per part of the prompt; the end of each part is what matters most
DIFF_LIMIT = 50_000  # prompts longer than this are not line-diffed (difflib is quadratic)

TEMPLATE, SCRATCHPAD, NEW = "dim", "cyan", "bold green on grey15"


def _same_caller_calls(index: TraceIndex, at: int) -> np.ndarray:
    """Positions of the llm_start events made from the same call stack as event `at`, up to it."""
    frames = index.shape(at).frames
    calls = index.positions("llm_start")
    calls = calls[: np.searchsorted(calls, at, side="right")]
    same = index.shape_mask(lambda s: s.frames == frames, 0, len(index))
    return calls[same[calls]]


def prompt_text(session: DebugSession, lang: str = "en") -> tuple[Text, Text]:
    """(header, body): which call this is and the legend, then the prompt itself and its reply."""
    index = session.store.index
    if index is None:
        return Text(say("panes.indexing_prompt", lang), style="italic"), Text()
    current = session.event(session.position)
    if current.kind in BUDGET_KINDS:  # the history before and after the budget cut it
        after = index.positions("llm_start")
        after = after[after > session.position]
        return budget_text(current, session.event(int(after[0])) if len(after) else None, lang)
    at = index.last_before("llm_start", session.position)
    if at is None:
        first = index.positions("llm_start")
        none_yet = (
            say("panes.no_call_yet_first", lang, seq=int(first[0])) if len(first) else say("panes.no_call_yet", lang)
        )
        return Text(none_yet, style="italic"), Text()
    event = session.event(at)
    if isinstance(event, UnreadableEvent):
        return Text(event.problem, style="bold red"), Text()
    if not isinstance(event, LLMStartEvent):  # the index says llm_start: a line saying otherwise is shown, not used
        return Text(say("panes.not_llm_start", lang, seq=at, kind=event.kind), style="bold red"), Text()
    calls = _same_caller_calls(index, at)
    number = len(calls)
    previous = event_as(session, int(calls[-2]), LLMStartEvent) if number >= 2 else None
    first = event_as(session, int(calls[0]), LLMStartEvent) if number >= 2 else None
    caller = event.frames[-2] if len(event.frames) >= 2 else "?"
    header = Text()
    header.append(
        scrub(
            say(
                "panes.prompt_call",
                lang,
                caller=caller,
                number=number,
                seq=at,
                chars=f"{len(event.prompt):,}",
                stop=repr(event.stop),
            )
        ),
        style="bold",
    )
    if at != session.position:
        header.append(" · " + say("panes.last_call_before", lang, seq=session.position), style="dim")
    header.append("\n")
    header.append(say("panes.template", lang), style=TEMPLATE)
    header.append(" · ")
    header.append(say("panes.scratchpad", lang), style=SCRATCHPAD)
    if previous is not None:
        header.append(" · ")
        header.append(say("panes.new_since", lang, number=number - 1, seq=previous.seq), style=NEW)
    body = _coloured_prompt(event.prompt, first, previous, lang)
    _reply(body, session, index, at, lang)
    return header, body


def _coloured_prompt(
    prompt: str, first: LLMStartEvent | None, previous: LLMStartEvent | None, lang: str = "en"
) -> Text:
    # The caller's first prompt has an empty scratchpad, so what it shares with this one is the
    # template; what this one shares with the previous call is old scratchpad; the rest is new.
    template_end = common_prefix_length(first.prompt, prompt) if first is not None else len(prompt)
    new_from = common_prefix_length(previous.prompt, prompt) if previous is not None else len(prompt)
    new_from = max(new_from, template_end)
    parts = Text()
    parts.append_text(clipped(prompt[:template_end], TEMPLATE, SEGMENT_LIMIT, keep_end=True))
    parts.append_text(clipped(prompt[template_end:new_from], SCRATCHPAD, SEGMENT_LIMIT, keep_end=True))
    parts.append_text(clipped(prompt[new_from:], NEW, SEGMENT_LIMIT, keep_end=True))
    if previous is not None and new_from < len(previous.prompt):
        parts.append_text(_diff(previous.prompt, prompt, lang))
    return parts


def _diff(before: str, after: str, lang: str = "en") -> Text:
    """Shown when the new prompt is not the old one plus more (e.g. trimmed intermediate steps)."""
    text = Text(
        "\n\n" + say("panes.prompt_changed", lang) + "\n",
        style="bold yellow",
    )
    if max(len(before), len(after)) > DIFF_LIMIT:
        text.append(say("panes.too_long_to_diff", lang) + "\n", style="dim")
        return text
    text.append(say("panes.diff_legend", lang) + "\n", style="dim")
    text.append_text(marked_diff(before, after, context=1))
    return text


def _reply(text: Text, session: DebugSession, index: TraceIndex, at: int, lang: str = "en") -> None:
    if at + 1 >= len(index) or index.kind(at + 1) != "llm_end" or at + 1 > session.position:
        text.append("\n\n" + say("panes.no_reply_yet", lang), style="dim italic")
        return
    reply = session.event(at + 1)
    text.append("\n\n" + say("panes.reply", lang, seq=at + 1) + "\n", style="bold")
    if isinstance(reply, LLMEndEvent):
        text.append_text(clipped(reply_text(reply), "yellow"))
    elif isinstance(reply, UnreadableEvent):
        text.append_text(clipped(reply.problem, "yellow"))
