"""`loopscope runs --html`: the charts across runs as inline SVG, and the runs table, on one offline page."""

from __future__ import annotations

import datetime
from collections.abc import Callable, Sequence

from ..report.html.page import esc, page
from .charts import RunCharts, quartiles
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


def latency_boxes(charts: RunCharts) -> str:
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
            f"<title>{esc(tool)}: {len(values)} calls, median {quartiles(values)[2]:.3f} s, max {values[-1]:.3f} s"
            "</title></rect>"
            f'<line x1="{median:.1f}" x2="{median:.1f}" y1="{y}" y2="{y + 16}" stroke="currentColor" stroke-width="2"/>'
        )
    height = len(charts.latencies) * ROW + 24
    parts.append(_ticks(top, x, height - 20, " s"))
    return _svg(height, "".join(parts), "latency per tool call")


def over_time(charts: RunCharts, what: str) -> str:
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
    return _svg(height, axis + "".join(dots), f"{what} per run over time")


def failure_bars(charts: RunCharts) -> str:
    top = max((m.failures for m in charts.failures), default=1)
    x, parts = _scale(float(top)), []
    for row, model in enumerate(charts.failures):
        y = row * ROW + 6
        parts.append(
            f'<text x="{LEFT - 8}" y="{y + 12}" font-size="12" text-anchor="end">{esc(model.model[:24])}</text>'
            f'<rect x="{LEFT}" y="{y}" width="{x(model.failures) - LEFT:.1f}" height="16" fill="#e5484d">'
            f"<title>{esc(model.model)}: {model.failures} failed attempts, {model.fallbacks} fallbacks away, "
            f"{model.calls} calls answered</title></rect>"
            f'<text x="{x(model.failures) + 4:.1f}" y="{y + 12}" font-size="11">{model.failures}</text>'
        )
    height = len(charts.failures) * ROW + 24
    parts.append(_ticks(float(top), x, height - 20, ""))
    return _svg(height, "".join(parts), "failures per model")


def _table(rows: Sequence[RunRow]) -> str:
    head = "".join(f"<th>{t}</th>" for t in ("name", "outcome", "iterations", "tokens", "cost", "time", "path"))
    body = []
    for row in rows:
        cost = "" if row.cost is None else f"${row.cost:.6f}"
        time = "" if row.duration is None else f"{row.duration:.2f} s"
        cells = (row.name, row.outcome, row.iterations, f"{row.tokens:,}", cost, time, row.path)
        body.append("<tr>" + "".join(f"<td>{esc(cell)}</td>" for cell in cells) + "</tr>")
    return f'<table class="runs"><thead><tr>{head}</tr></thead><tbody>{"".join(body)}</tbody></table>'


def charts_page(charts: RunCharts, rows: Sequence[RunRow], title: str) -> str:
    sections = [f"<h1>{esc(title)}</h1><p class=muted>{len(rows):,} runs</p>"]
    if charts.latencies:
        sections.append("<h2>Latency per tool call</h2>" + latency_boxes(charts))
    if charts.runs:
        sections.append("<h2>Cost per run, by when it ran</h2>" + over_time(charts, "cost"))
        sections.append("<h2>Tokens per run, by when it ran</h2>" + over_time(charts, "tokens"))
    if charts.failures:
        sections.append("<h2>Failed attempts per model (retries and fallbacks away)</h2>" + failure_bars(charts))
    sections.append("<h2>Runs</h2>" + _table(rows))
    return page(title, "".join(sections))
