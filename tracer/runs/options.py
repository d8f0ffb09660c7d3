"""What the user asked of `loopscope runs`, as one value: the command builds it, the listing and the table read it."""

from __future__ import annotations

from dataclasses import dataclass

from ..debug.options import DebuggerOptions
from ..report.cost.prices import PriceTable


@dataclass(frozen=True)
class RunsOptions:
    """`loopscope runs`'s options (tracer/cli/runs.py builds them from the arguments, checked)."""

    prices: PriceTable  # --prices (or $LOOPSCOPE_PRICES) over the shipped table: the cost column's
    paths: tuple[str, ...] = (".",)  # folders and trace files to list, the forks folder with --forks
    shown_below: str | None = None  # the one folder named: paths are shown relative to it
    where: str | None = None  # --where, as typed (the table shows it; tracer/runs/where.py reads it)
    order: tuple[str, bool] | None = None  # --sort: (run field, descending)
    by: str | None = None  # --by tool|model
    as_json: bool = False
    as_text: bool = False  # --print: the table printed even in a terminal
    charts: bool = False
    html: str | None = None  # --html OUT.html
    imports: bool = False  # also read other tools' exports
    export_otlp: str | None = None  # --export-otlp URL
    catalogue: str | None = None  # --catalogue FILE, else $LOOPSCOPE_CATALOGUE; None: the cache
    lang: str = "en"  # --lang (or the locale): the table's own words
    tests_dir: str = "tests/regressions"  # --tests-dir: where `t` writes the marked runs' regression tests

    def debugger(self) -> DebuggerOptions:
        """How a run opened from the table is shown: priced and worded as the table is."""
        return DebuggerOptions(prices=self.prices, lang=self.lang)
