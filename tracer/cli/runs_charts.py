"""`loopscope runs --charts`: the charts across runs drawn in the terminal with plotext (the [charts] extra)."""

from __future__ import annotations

import datetime
from types import ModuleType
from typing import Any

from ..extras import missing_extra
from ..i18n import say
from ..runs.charts import RunCharts
from ..trace.literal_text import scrub
from .language import usage_error

HEIGHT = 14
NAME_CHARS = 14  # a tool's or model's name under its box or bar


def _plotext() -> ModuleType:
    try:
        import plotext  # late: slow to import, and an extra; only --charts draws with it
    except ImportError as error:
        missing = missing_extra("charts", "loopscope runs --charts", error)
        raise usage_error("cli.charts.error.no_plotext", None, missing=missing) from None
    return plotext


def _name(text: str) -> str:
    """A name from a trace as a tick label: control characters visible, one line, short."""
    flat = " ".join(scrub(text).split())
    return flat if len(flat) <= NAME_CHARS else flat[: NAME_CHARS - 1] + "…"


def chart_text(charts: RunCharts, width: int, colour: bool, lang: str = "en") -> str:
    """Every chart that has something to show, one under the other, titled in `lang`."""
    plotext = _plotext()
    parts = []
    if charts.latencies:
        parts.append(_box(plotext, charts, width, colour, lang))
    if charts.runs:
        parts.append(_over_time(plotext, charts, "cost", width, colour, lang))
        parts.append(_over_time(plotext, charts, "tokens", width, colour, lang))
    if charts.failures:
        parts.append(_failures(plotext, charts, width, colour, lang))
    return "\n".join(parts) if parts else say("runs.chart.none", lang)


def _figure(plotext: ModuleType, width: int, colour: bool, title: str) -> Any:
    figure = plotext.figure
    figure.clear()
    figure.plot_size(width, HEIGHT)
    figure.theme("default" if colour else "colorless")
    figure.title(title)
    return figure


def _built(plotext: ModuleType, figure: Any, colour: bool) -> str:
    text = str(figure.build())
    return text if colour else plotext.uncolorize(text)


def _box(plotext: ModuleType, charts: RunCharts, width: int, colour: bool, lang: str) -> str:
    figure = _figure(plotext, width, colour, say("runs.chart.latency", lang))
    names = [_name(tool) for tool, _values in charts.latencies]
    figure.draw(figure.box(names, [values for _tool, values in charts.latencies], width=0.4))
    return _built(plotext, figure, colour)


def _over_time(plotext: ModuleType, charts: RunCharts, what: str, width: int, colour: bool, lang: str) -> str:
    points = [p for p in charts.runs if what == "tokens" or p.cost is not None]
    figure = _figure(plotext, width, colour, say(f"runs.chart.{what}", lang))
    values = [float(p.cost or 0.0) if what == "cost" else float(p.tokens) for p in points]
    if not points:
        return _built(plotext, figure, colour)
    times = [p.recorded for p in points]
    if max(times) - min(times) >= 1:  # the files' times tell the runs apart
        # ISO dates: plotext's own default is day first (05/06/2025), which half the world reads as May 6th
        within_a_day = max(times) - min(times) < 86400
        figure.date().activate(form="%Y-%m-%d %H:%M" if within_a_day else "%Y-%m-%d")
        xs: list[Any] = [datetime.datetime.fromtimestamp(t) for t in times]
    else:  # copied at once: one after another, in the order they were found
        xs = list(range(1, len(points) + 1))
    figure.draw(figure.signal(xs, values, marker="dot"))
    return _built(plotext, figure, colour)


def _failures(plotext: ModuleType, charts: RunCharts, width: int, colour: bool, lang: str) -> str:
    figure = _figure(plotext, width, colour, say("runs.chart.failures", lang))
    shown = charts.failures[:MAX_BARS]
    figure.draw(figure.bar([_name(m.model) for m in shown], [m.failures for m in shown], marker="#"))
    return _built(plotext, figure, colour)


MAX_BARS = 10
