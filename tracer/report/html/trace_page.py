"""`loopscope export --html`: a trace as one offline HTML page (totals, waterfall, timeline, every event's detail)."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

from ...i18n import say
from ...trace.annotations import Score
from ...trace.index import TraceIndex
from ...trace.reader import TraceFile
from ...trace.redact import Redactor, default_redactor
from ..cost.prices import CallCost, CostTotal, PriceTable, call_costs, format_dollars
from ..waterfall.scan import waterfall_of_trace
from .events import ERRORS, EventPages, text
from .page import esc, legend, page
from .waterfall import waterfall_html

# Past this many events the page keeps the first and last halves of them (the waterfall keeps all):
# a page of a million events would not open. The debugger opens any trace.
EVENT_LIMIT = 20_000
COST_LIMIT = 50_000  # model calls priced one by one; past it the page gives no cost
Progress = Callable[[str, int, int], None]  # (what, done, of how many)


def _costs(trace: TraceFile, index: TraceIndex, prices: PriceTable) -> tuple[dict[int, CallCost], CostTotal | None]:
    """Each call's cost by the seq of its llm_start and llm_end, and the run's total."""
    if index.count("llm_end") > COST_LIMIT:
        return {}, None
    wanted = sorted({*index.position_list("llm_start"), *index.position_list("llm_end")})
    calls = call_costs((trace[p] for p in wanted), prices)
    by_seq = {seq: call for call in calls for seq in (call.start_seq, call.end_seq)}
    return by_seq, CostTotal.of(calls) if calls else None


def _totals(trace: TraceFile, index: TraceIndex, total: CostTotal | None, duration: float, lang: str) -> str:
    counted = {kind: index.count(kind) for kind in ("llm_start", "tool_start")}
    errors = sum(index.count(kind) for kind in ERRORS)
    rounds = index.iteration(len(index) - 1) if len(index) else 0
    if total is None:
        tokens = dollars = say("html.total.not_counted", lang)
    else:
        prompt, completion = f"{total.prompt_tokens:,}", f"{total.completion_tokens:,}"
        tokens = say("html.total.token_split", lang, prompt=prompt, completion=completion)
        dollars = format_dollars(total.dollars, lang) + (say("html.total.estimated", lang) if total.estimated else "")
    items = [
        ("events", f"{len(trace):,}"),
        ("iterations", f"{rounds:,}"),
        ("model_calls", f"{counted['llm_start']:,}"),
        ("tool_calls", f"{counted['tool_start']:,}"),
        ("errors", f"{errors:,}"),
        ("time", f"{duration:.3f} s"),
        ("tokens", tokens),
        ("cost", dollars),
    ]
    shown = [(say(f"html.total.{key}", lang), value) for key, value in items]
    return '<p class="totals">' + "".join(f"<span>{esc(k)}: <b>{esc(v)}</b></span>" for k, v in shown) + "</p>"


def _scores(scores: list[Score], redactor: Redactor) -> str:
    """Every score of the run, oldest first; the latest of each name is the one `runs` shows (marked ✓).
    A score given on one event (an imported child run's feedback) names it, and is marked among that
    event's. A comment may come from another tool's export: escaped and redacted like any recorded text."""
    if not scores:
        return ""
    latest = {(score.event, score.name): at for at, score in enumerate(scores)}
    rows = "".join(
        f"<tr><td>{esc(s.name)}{' ✓' if latest[(s.event, s.name)] == at else ''}"
        f"{'' if s.event is None else f' (event #{s.event})'}</td>"
        f"<td>{esc(f'{s.value:g}' if isinstance(s.value, float) else s.value)}</td>"
        f"<td>{esc(redactor.redact_text(s.comment))}</td><td>{esc(s.source)}</td><td>{esc(s.at)}</td></tr>"
        for at, s in enumerate(scores)
    )
    head = "<tr><th>score</th><th>value</th><th>comment</th><th>from</th><th>at</th></tr>"
    return f'<h2>Scores</h2><table class="scores">{head}{rows}</table>'


def _shown_positions(total: int) -> tuple[range, range]:
    if total <= EVENT_LIMIT:
        return range(total), range(0)
    half = EVENT_LIMIT // 2
    return range(half), range(total - half, total)


def trace_section(
    path: str | os.PathLike[str],
    run: str = "",
    redactor: Redactor | None = None,
    progress: Progress | None = None,
    prices: PriceTable | None = None,
    lang: str = "en",
) -> Iterator[str]:
    """The page's parts for one trace, in order; `run` prefixes its anchors (a diff has two).
    `prices`: the command's table (--prices, $LOOPSCOPE_PRICES); the shipped one when not given."""
    with TraceFile(path) as trace:
        index = TraceIndex.build(
            trace, (lambda share: progress("indexing", int(share * 100), 100)) if progress else None
        )
        step = (lambda done, of: progress("reading times", done, of)) if progress else None
        waterfall = waterfall_of_trace(trace, index, step)
        costs, total = _costs(trace, index, prices or PriceTable.load())
        header = trace.header
        name = header.scenario or Path(path).name
        notes = [n for n in (trace.import_note, trace.notice, trace.warning) if n]
        yield f"<h1>{esc(name)}</h1><p class=muted>{esc(Path(path))}"
        yield "".join(f"<br>{esc(note)}" for note in notes) + "</p>"
        yield _totals(trace, index, total, waterfall.t1, lang)
        yield _scores(trace.scores, redactor or default_redactor())
        yield waterfall_html(waterfall, run, lang) + legend(lang)
        yield f"<h2>{text(say('html.timeline', lang))}</h2><p class=muted>{text(say('html.timeline.note', lang))}</p>"
        pages = EventPages(run, costs, redactor or default_redactor(), lang)
        yield '<div class="tl">'
        head, tail = _shown_positions(len(trace))
        for number, position in enumerate([*head, *tail]):
            if tail and position == tail.start:
                left = tail.start - head.stop
                yield f"<p class=muted>{esc(say('html.left_out', lang, count=f'{left:,}'))}</p>"
            if progress is not None and number % 2_000 == 0:
                progress("writing events", number, len(head) + len(tail))
            yield pages.row(position, trace.raw_line(position))
        yield "</div>" + pages.data_block()


def trace_page(
    path: str | os.PathLike[str], progress: Progress | None = None, prices: PriceTable | None = None, lang: str = "en"
) -> str:
    """The whole page for one trace, its own words in `lang`."""
    body = "".join(trace_section(path, progress=progress, prices=prices, lang=lang))
    return page(f"loopscope · {Path(path).name}", body, lang)
