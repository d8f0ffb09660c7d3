"""`loopscope runs --html`: the charts across runs as inline SVG, and the runs table, on one offline page."""

from __future__ import annotations

import datetime
from collections.abc import Callable, Sequence

from ..i18n import say
from ..report.html.page import esc, page
from .charts import ModelFailures, RunCharts, quartiles
from .run_row import RunRow

W, ROW, LEFT = 760, 26, 150  # chart width, a box or bar's row height, the names' column (px)


def _svg(height: int, body: str, label: str) -> str:
    return f'<svg role="img" aria-label="{esc(label)}" width="{W}" height="{height}" viewBox="0 0 {W} {height}">{body}</svg>'


def _scale(top: float) -> Callable[[float], float]:
    top = top if top > 0 else 1.0
    return lambda value: LEFT + (W - LEFT - 20) * value / top


def _ticks(top: float, x: Callable[[float], float], y: int, unit: str) -> str:
    marks = []
    for share in (0, 0.25, 0.5, 0.75, 1):
        at = x(top * share)
        marks.append(f'<line x1="{at:.1f}" x2="{at:.1f}" y1="0" y2="{y}" stroke="currentColor" stroke-opacity=".15"/>')
        marks.append(
            f'<text x="{at:.1f}" y="{y + 14}" font-size="11" text-anchor="middle">{top * share:.3g}{unit}</text>'
        )
    return "".join(marks)


def latency_boxes(charts: RunCharts, lang: str = "en") -> str:
    """One horizontal box per tool: whiskers at min and max, the box from 25% to 75%, a line at the median."""
    top = max((values[-1] for _tool, values in charts.latencies), default=1.0)
    x, parts = _scale(top), []
    for row, (tool, values) in enumerate(charts.latencies):
        low, q1, median, q3, high = (x(v) for v in quartiles(values))
        y = row * ROW + 6
        parts.append(
            f'<text x="{LEFT - 8}" y="{y + 12}" font-size="12" text-anchor="end">{esc(tool[:24])}</text>'
            f'<line x1="{low:.1f}" x2="{high:.1f}" y1="{y + 8}" y2="{y + 8}" stroke="currentColor"/>'
            f'<rect x="{q1:.1f}" y="{y}" width="{max(q3 - q1, 1):.1f}" height="16" fill="#3fb06b" fill-opacity=".7">'
            f"<title>{esc(_box_title(tool, values, lang))}</title></rect>"
            f'<line x1="{median:.1f}" x2="{median:.1f}" y1="{y}" y2="{y + 16}" stroke="currentColor" stroke-width="2"/>'
        )
    height = len(charts.latencies) * ROW + 24
    parts.append(_ticks(top, x, height - 20, " s"))
    return _svg(height, "".join(parts), say("html.runs.label.latency", lang))


def _box_title(tool: str, values: list[float], lang: str) -> str:
    median, most = f"{quartiles(values)[2]:.3f}", f"{values[-1]:.3f}"
    return say("html.runs.box", lang, tool=tool, calls=len(values), median=median, most=most)


def over_time(charts: RunCharts, what: str, lang: str = "en") -> str:
    """A dot per run: its cost or tokens, by when the run was recorded (or in order, if all at once)."""
    points = [p for p in charts.runs if what == "tokens" or p.cost is not None]
    values = [float(p.cost or 0.0) if what == "cost" else float(p.tokens) for p in points]
    height, top = 180, max(values, default=1.0) or 1.0
    times = [p.recorded for p in points]
    spread = (max(times) - min(times)) if times else 0.0
    xs = [(t - min(times)) / spread if spread >= 1 else (i / max(len(points) - 1, 1)) for i, t in enumerate(times)]
    dots = []
    for share, value, point in zip(xs, values, points):
        cx, cy = 90 + share * (W - 110), height - 30 - (height - 50) * value / top
        shown = f"${value:.6f}" if what == "cost" else f"{int(value):,} tokens"
        when = datetime.datetime.fromtimestamp(point.recorded).isoformat(timespec="seconds")
        dots.append(
            f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="3.5" fill="{"#5b8def" if what == "tokens" else "#f0a030"}">'
            f"<title>{esc(point.name)} · {esc(point.outcome)} · {shown} · {when}</title></circle>"
        )
    peak = f"${top:.6f}" if what == "cost" else f"{int(top):,}"
    axis = (
        f'<line x1="90" x2="{W - 20}" y1="{height - 30}" y2="{height - 30}" stroke="currentColor" stroke-opacity=".3"/>'
        f'<text x="84" y="24" font-size="11" text-anchor="end">{peak}</text>'
        f'<text x="84" y="{height - 30}" font-size="11" text-anchor="end">0</text>'
    )
    if times:
        first = datetime.datetime.fromtimestamp(min(times)).isoformat(sep=" ", timespec="minutes")
        last = datetime.datetime.fromtimestamp(max(times)).isoformat(sep=" ", timespec="minutes")
        axis += f'<text x="90" y="{height - 10}" font-size="11">{esc(first)}</text>'
        axis += f'<text x="{W - 20}" y="{height - 10}" font-size="11" text-anchor="end">{esc(last)}</text>'
    return _svg(height, axis + "".join(dots), say(f"html.runs.label.{what}", lang))


def failure_bars(charts: RunCharts, lang: str = "en") -> str:
    top = max((m.failures for m in charts.failures), default=1)
    x, parts = _scale(float(top)), []
    for row, model in enumerate(charts.failures):
        y = row * ROW + 6
        parts.append(
            f'<text x="{LEFT - 8}" y="{y + 12}" font-size="12" text-anchor="end">{esc(model.model[:24])}</text>'
            f'<rect x="{LEFT}" y="{y}" width="{x(model.failures) - LEFT:.1f}" height="16" fill="#e5484d">'
            f"<title>{esc(_bar_title(model, lang))}</title></rect>"
            f'<text x="{x(model.failures) + 4:.1f}" y="{y + 12}" font-size="11">{model.failures}</text>'
        )
    height = len(charts.failures) * ROW + 24
    parts.append(_ticks(float(top), x, height - 20, ""))
    return _svg(height, "".join(parts), say("html.runs.label.failures", lang))


def _bar_title(model: ModelFailures, lang: str) -> str:
    failures, fallbacks, calls = model.failures, model.fallbacks, model.calls
    return say("html.runs.bar", lang, model=model.model, failures=failures, fallbacks=fallbacks, calls=calls)


def _table(rows: Sequence[RunRow], lang: str) -> str:
    columns = ("name", "outcome", "iterations", "tokens", "cost", "time", "path")
    head = "".join(f"<th>{esc(say(f'html.runs.column.{column}', lang))}</th>" for column in columns)
    body = []
    for row in rows:
        cost = "" if row.cost is None else f"${row.cost:.6f}"
        time = "" if row.duration is None else f"{row.duration:.2f} s"
        cells = (row.name, row.outcome, row.iterations, f"{row.tokens:,}", cost, time, row.path)
        body.append("<tr>" + "".join(f"<td>{esc(cell)}</td>" for cell in cells) + "</tr>")
    return f'<table class="runs"><thead><tr>{head}</tr></thead><tbody>{"".join(body)}</tbody></table>'


def _heading(key: str, lang: str) -> str:
    return f"<h2>{esc(say(key, lang))}</h2>"


def charts_page(charts: RunCharts, rows: Sequence[RunRow], title: str, lang: str = "en") -> str:
    sections = [f"<h1>{esc(title)}</h1><p class=muted>{esc(say('html.runs.count', lang, count=f'{len(rows):,}'))}</p>"]
    if charts.latencies:
        sections.append(_heading("html.runs.latency", lang) + latency_boxes(charts, lang))
    if charts.runs:
        sections.append(_heading("html.runs.cost", lang) + over_time(charts, "cost", lang))
        sections.append(_heading("html.runs.tokens", lang) + over_time(charts, "tokens", lang))
    if charts.failures:
        sections.append(_heading("html.runs.failures", lang) + failure_bars(charts, lang))
    sections.append(_heading("html.runs.table", lang) + _table(rows, lang))
    return page(title, "".join(sections), lang)
