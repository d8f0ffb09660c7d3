"""The detail pane: every field of the current event, shown literally."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from rich.cells import cell_len
from rich.text import Text

from executor.events import EventBase

from ...debug.session import DebugSession, UnreadableEvent
from ...i18n import say, templates
from ...report.cost.prices import ENV_PRICES, CallCost, format_dollars
from ...report.text.literal import literal
from ...trace.annotations import Score
from .clipped_text import clipped
from .event_summary import kind_style
from .mcp_view import mcp_detail

ENVELOPE = ("seq", "run_id", "t", "iteration", "frames", "source", "kind")
NAME_WIDTH = 14
SHOWN_FIRST = ("settings",)
# Where a traced framework's event came from (its callback's stack and origin, often 20 lines) is the
# envelope's base fields, first in pydantic's order: shown after what happened (a retry's error and delay).
SHOWN_LAST = ("stack", "origin")
RUN_ENDS = ("chain_end", "chain_error")


def _label(name: str, lang: str) -> str:
    """The envelope's names in `lang`; a payload field keeps its own name (conditions and traces use it)."""
    key = f"panes.field.{name}"
    label = say(key, lang) if key in templates() else name
    return label + " " * max(NAME_WIDTH - cell_len(label), 1)


def _value(value: Any, lang: str = "en") -> Text:
    if isinstance(value, str):
        if "\n" in value or len(value) > 60:
            size = say("panes.chars", lang, count=f"{len(value):,}")
            return Text.assemble((size + "\n", "dim"), clipped(value))
        return literal(repr(value))
    if isinstance(value, (dict, list)):
        return clipped(json.dumps(value, ensure_ascii=False, indent=2))
    return literal(repr(value))


def detail_text(
    event: EventBase | UnreadableEvent, cost: CallCost | None = None, lang: str = "en", scores: Sequence[Score] = ()
) -> Text:
    if isinstance(event, UnreadableEvent):
        unreadable = say("panes.cannot_read", lang, seq=event.seq)
        return Text(f"{unreadable}\n{event.problem}", style="bold red")
    text = Text()
    text.append(_label("kind", lang))
    text.append(event.kind, style=kind_style(event.kind, event))
    place = say("panes.detail_place", lang, iteration=event.iteration, t=f"{event.t:.6f}")
    text.append(f"\n{_label('seq', lang)}{event.seq}    {place}\n")
    text.append(_label("run_id", lang))
    text.append_text(literal(event.run_id))
    # Even the envelope comes from a file someone may have written by hand: shown literally too.
    text.append("\n" + _label("frames", lang))
    text.append_text(literal(" › ".join(event.frames) + "\n"))
    text.append(_label("source", lang))
    where = f"{event.source.file}:{event.source.line}"
    text.append_text(literal(say("panes.detail_source", lang, where=where, function=event.source.function) + "\n"))
    mcp = mcp_detail(event, lang)
    if mcp is not None:  # an MCP request, its raw answer, the probe, or the servers a run listed its tools from
        text.append_text(mcp)
    if cost is not None:  # the whole model call's bill, shown at both its llm_start and its llm_end
        text.append(_label("tokens", lang), style="bold")
        text.append(call_cost_words(cost, lang) + "\n", style="magenta")
    if scores:  # the run's at its first event and at its end, an event's own at it (run_scores_at)
        text.append_text(scores_text(scores, lang))
    payload = event.model_dump(exclude=set(ENVELOPE))
    # The settings are what tutorials point at; the long tool descriptions would push them below the fold.
    order = {name: (name not in SHOWN_FIRST) + 2 * (name in SHOWN_LAST) for name in payload}
    payload = {name: payload[name] for name in sorted(payload, key=order.__getitem__)}
    if payload:
        text.append("\n")
    for name, value in payload.items():
        text.append(_label(name, lang), style="bold")
        text.append_text(_value(value, lang))
        text.append("\n")
    return text


def run_scores_at(session: DebugSession) -> list[Score]:
    """The scores (`loopscope score` and imports write them after its events) to show where the session
    is: the run's own at its first event and at its end, and at any event the scores given on it (an
    imported child run's feedback, at the model or tool call it became); none for a live run (no file yet)."""
    scores = getattr(getattr(session.store, "trace", None), "scores", None)
    if not scores:
        return []
    position, event = session.position, session.event()
    at_end = position == len(session) - 1 and getattr(event, "kind", None) in RUN_ENDS
    runs = position == 0 or at_end
    seq = getattr(event, "seq", None)
    return [score for score in scores if (runs if score.event is None else score.event == seq)]


def scores_text(scores: Sequence[Score], lang: str) -> Text:
    """One line per score, the run's then the event's, oldest first: name = value, ✓ on the latest of
    each name (of the run's: the one `runs` shows and filters on), who gave it and when; its comment under
    it. All of it shown literally (another tool's export may have written it)."""
    scores = sorted(scores, key=lambda score: score.event is not None)  # stable: oldest first in each
    latest = {(score.event is None, score.name): at for at, score in enumerate(scores)}
    text = Text()
    for at, score in enumerate(scores):
        first = at == 0 or (score.event is None) != (scores[at - 1].event is None)
        label = say("score.detail.label" if score.event is None else "score.detail.event_label", lang)
        label = label if first else ""
        text.append(label + " " * max(NAME_WIDTH - cell_len(label), 1), style="bold")
        value = f"{score.value:g}" if isinstance(score.value, float) else score.value
        text.append_text(literal(f"{score.name} = {value}", "bold magenta"))
        if latest[(score.event is None, score.name)] == at:
            text.append(" ✓", style="green")
        given = say("score.detail.given", lang, source=score.source, at=score.at or "—")
        text.append_text(literal(f"  {given}\n", "dim"))
        if score.comment:
            text.append(" " * (NAME_WIDTH + 2))
            text.append_text(literal(score.comment + "\n"))
    return text


def call_cost_words(cost: CallCost, lang: str) -> str:
    """One line: the call's tokens, where they came from, and its price (or why it has none)."""
    source = say("panes.cost_estimated" if cost.estimated else "panes.cost_from_usage", lang)
    if cost.price is None:
        price = say("panes.no_price", lang, model=repr(cost.model), file=ENV_PRICES)
    elif cost.price.priced_as:
        dollars = format_dollars(cost.dollars)
        price = say("panes.price_estimate", lang, dollars=dollars, free=cost.price.priced_as, entry=cost.price.entry)
    else:
        price = format_dollars(cost.dollars)
    tokens = {"prompt": f"{cost.prompt_tokens:,}", "completion": f"{cost.completion_tokens:,}"}
    return say("panes.call_cost", lang, **tokens, source=source, price=price)
