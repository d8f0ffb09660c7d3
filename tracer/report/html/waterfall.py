"""The waterfall in the HTML report: one row per lane, each bar a link to its first event; many small bars added up."""

from __future__ import annotations

from ...i18n import say
from ..waterfall.cells import Window, fit, lane_cells, seconds, tick_step
from ..waterfall.picture import BAR_KINDS, CATEGORY_OF, Waterfall
from .page import esc

# A lane with more bars than this is drawn as this many cells, each the bars that fall in it added up.
MAX_BARS_PER_LANE = 3_000
CELLS = 1_500
LABEL_FROM = 0.04  # a bar this share of the run wide or wider shows its name (the title always has it)


def _percent(value: float) -> str:
    return f"{value * 100:.4f}%"


def _bar(waterfall: Waterfall, bar: int, window: Window, run: str, lang: str) -> str:
    span = window.t1 - window.t0
    kind = int(waterfall.kind[bar])
    left = (float(waterfall.start[bar]) - window.t0) / span
    width = (float(waterfall.end[bar]) - float(waterfall.start[bar])) / span
    failed = waterfall.error_at[bar] == waterfall.error_at[bar]
    classes = ["b", f"k{kind}"] + (["pt"] if CATEGORY_OF[kind] == 3 else []) + (["fail"] if failed else [])
    label = waterfall.label_of(bar, lang)
    first, last = int(waterfall.first[bar]), int(waterfall.last[bar])
    return (
        f'<a class="{" ".join(classes)}" href="#{run}e{first}" data-r="{run}" data-f="{first}" data-l="{last}" '
        f'style="left:{_percent(left)};width:{_percent(width)}" title="{esc(waterfall.description(bar, lang))}">'
        f"{esc(label) if CATEGORY_OF[kind] != 3 and width >= LABEL_FROM else ''}</a>"
    )


def _added_up(waterfall: Waterfall, lane: int, window: Window, run: str, lang: str) -> list[str]:
    """Runs of cells that hold bars, each one element: how many bars, and a link to the first."""
    cells = lane_cells(waterfall, lane, Window(window.t0, window.t1, CELLS), label_from=CELLS + 1)
    parts, at = [], 0
    while at < CELLS:
        if cells.bars[at] == 0:
            at += 1
            continue
        end = at
        while end + 1 < CELLS and cells.bars[end + 1] > 0 and cells.kind[end + 1] == cells.kind[at]:
            end += 1
        count = int(cells.starts[at : end + 1].sum()) or 1
        first = int(waterfall.first[int(cells.bar[at])])
        failed = " fail" if cells.failed[at : end + 1].any() else ""
        kind = int(cells.kind[at])
        what = say(f"html.legend.{BAR_KINDS[kind]}", lang)
        title = say("html.waterfall.added_up", lang, count=f"{count:,}", kind=what, first=first)
        parts.append(
            f'<a class="b agg k{kind}{failed}" href="#{run}e{first}" '
            f'style="left:{_percent(at / CELLS)};width:{_percent((end - at + 1) / CELLS)}" '
            f'title="{esc(title)}"></a>'
        )
        at = end + 1
    return parts


def _axis(window: Window) -> str:
    span = window.t1 - window.t0
    step = tick_step(span, 100, 12)
    ticks, tick, count = [], (window.t0 // step) * step, 0
    while tick < window.t1 and count < 200:
        if tick >= window.t0:
            ticks.append(f'<span style="left:{_percent((tick - window.t0) / span)}">{seconds(tick, step)}</span>')
        tick, count = tick + step, count + 1
    return f'<div class="axis">{"".join(ticks)}</div>'


def waterfall_html(waterfall: Waterfall, run: str = "", lang: str = "en") -> str:
    """The waterfall section; bars link to `#{run}e{N}` (the event's detail)."""
    title = esc(say("html.waterfall", lang))
    if not len(waterfall):
        return f"<h2>{title}</h2><p class=muted>{esc(say('html.waterfall.empty', lang))}</p>"
    window = fit(waterfall, 1000)
    rows = [_axis(window)]
    for lane in waterfall.order:
        bars = waterfall.in_window(lane, window.t0, window.t1)
        if len(bars) > MAX_BARS_PER_LANE:
            drawn = _added_up(waterfall, lane, window, run, lang)
        else:
            drawn = [_bar(waterfall, int(bar), window, run, lang) for bar in sorted(bars.tolist())]
        name = esc(waterfall.lanes[lane].heading(lang))
        rows.append(f'<div class="lane"><span class="name">{name}</span>{"".join(drawn)}</div>')
    buttons = [("2", "zoom_in"), ("0.5", "zoom_out"), ("0", "whole")]
    summary = say(
        "html.waterfall.summary",
        lang,
        bars=f"{len(waterfall):,}",
        lanes=len(waterfall.lanes),
        start=seconds(window.t0, 0.001),
        end=seconds(waterfall.t1, 0.001),
    )
    zoom = (
        '<div class="zoom">'
        + "".join(
            f'<button type="button" data-zoom="{factor}">{esc(say(f"html.waterfall.{word}", lang))}</button>'
            for factor, word in buttons
        )
        + f'<span class="muted"> {esc(summary)}</span></div>'
    )
    return (
        f'<h2>{title}</h2><div class="wf">{zoom}'
        f'<div class="wf-scroll"><div class="wf-tracks">{"".join(rows)}</div></div></div>'
    )
