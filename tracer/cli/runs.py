"""`loopscope runs [PATH ...]`: every run under some folders, one row each, in a table, as JSON, or added up."""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from ..debug.shipped import user_fork_dir
from ..report.cost.prices import ENV_PRICES, PriceTable
from ..runs.aggregates import by_model, by_tool
from ..runs.catalogue import Catalogue, chosen_location
from ..runs.charts import run_charts
from ..runs.columns import MODEL_COLUMNS, TOOL_COLUMNS, Column, run_columns, screen_columns
from ..runs.listing import RunList, list_runs
from ..runs.run_fields import RUN_FIELDS, sort_key
from ..runs.run_row import RunRow
from ..runs.where import ConditionError, RunCondition
from ..trace.literal_text import escape_controls_in_json, scrub
from . import COMMANDS
from .language import LANG_HELP, chosen_language
from .output_guard import add_force_option, check_output
from .progress_bar import progress_bar
from .runs_table import runs_lines, stats_lines
from .terminal import can_show_debugger
from .usage_error import UsageError

SORT_HELP = (
    f"order by a run field, e.g. cost, -cost for the largest first (write --sort=-cost); one of {', '.join(RUN_FIELDS)}"
)


def add_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    p = sub.add_parser(
        "runs",
        help=COMMANDS["runs"],
        description="List every run under PATHs (default: this folder, recursively; hidden folders and "
        "environments are skipped unless named): how it ended, its iterations, model and tool calls, "
        "errors, tokens, cost, time and model. In a terminal a table opens (enter opens a run in the "
        "debugger); otherwise the table is printed. Rows are kept in a catalogue (a cache in "
        "$XDG_CACHE_HOME/loopscope) and read again from a trace when it changes.",
    )
    p.add_argument("paths", nargs="*", metavar="PATH", help="folders to search and trace files (default: .)")
    p.add_argument(
        "--where",
        metavar="CONDITION",
        help='keep runs with an event that matches, as a breakpoint condition: kind == "tool_error", '
        'tool == "Search" and iteration >= 3; run fields too: cost > 0.01, outcome == "error"',
    )
    p.add_argument("--sort", metavar="KEY", help=SORT_HELP)
    p.add_argument("--by", choices=("tool", "model"), help="add up the selected runs per tool or per model")
    p.add_argument("--json", action="store_true", help="one JSON object per run (or per tool/model with --by)")
    p.add_argument("--print", dest="as_text", action="store_true", help="print the table even in a terminal")
    p.add_argument(
        "--charts",
        action="store_true",
        help="draw charts of the selected runs instead: latency per tool, cost and tokens per run over time, "
        "failures per model (needs the charts extra: pip install 'loopscope[charts]')",
    )
    p.add_argument(
        "--html",
        metavar="OUT.html",
        help="write the charts and the table of the selected runs as one offline HTML page",
    )
    p.add_argument("--imports", action="store_true", help="also read other tools' exports (.json, .jsonl)")
    p.add_argument("--forks", action="store_true", help=f"also list the forks folder ({user_fork_dir()})")
    p.add_argument(
        "--export-otlp",
        metavar="URL",
        help="send the selected runs as OpenTelemetry spans to this OTLP/HTTP collector (e.g. http://127.0.0.1:4318)",
    )
    p.add_argument(
        "--catalogue", metavar="FILE", help="the catalogue file (default: $LOOPSCOPE_CATALOGUE, else the cache)"
    )
    p.add_argument(
        "--prices", metavar="FILE.toml", help="model prices for the cost column (see `loopscope run --help`)"
    )
    p.add_argument("--lang", help="the table's own words in this " + LANG_HELP)
    add_force_option(p)
    return p


def sort_order(text: str | None) -> tuple[str, bool] | None:
    """(run field, descending) from --sort KEY or --sort=-KEY; a one-line error for any other word."""
    if not text:
        return None
    name = text.removeprefix("-")
    if name not in RUN_FIELDS:
        raise UsageError(f"--sort {scrub(text)!r}: not a run field; use one of {', '.join(RUN_FIELDS)}")
    return name, text.startswith("-")


def _sorted(rows: list[RunRow], order: tuple[str, bool] | None) -> list[RunRow]:
    return sorted(rows, key=sort_key(*order)) if order else rows


def _condition(text: str | None) -> RunCondition | None:
    if text is None:
        return None
    try:
        return RunCondition(text)
    except ConditionError as error:
        shown = text if len(text) <= 80 else text[:80] + "…"
        raise UsageError(f"--where {shown!r}: {error}") from None


def _localiser(lang: str) -> Callable[[str], str]:
    if lang == "en":
        return lambda text: text
    from ..tui.chrome import localise  # its words only: no Textual (it loads the tutorials' registry)

    return lambda text: localise(text, lang)


def shown_from(args: argparse.Namespace) -> str | None:
    """Paths are shown below the one folder named (`loopscope runs traces/`), else below this folder."""
    return args.paths[0] if len(args.paths) == 1 and os.path.isdir(args.paths[0]) else None


def _paths(args: argparse.Namespace) -> list[str]:
    paths = list(args.paths) or ["."]
    if args.forks and user_fork_dir().is_dir():
        paths.append(str(user_fork_dir()))
    return paths


def run(args: argparse.Namespace) -> int:
    condition = _condition(args.where)  # what the user got wrong is said before anything is read
    order = sort_order(args.sort)
    lang = chosen_language(args.lang)
    prices = PriceTable.load(args.prices)
    location, owned = chosen_location(args.catalogue)
    catalogue = Catalogue.open(location, owned)
    try:
        with progress_bar("reading runs", unit="files", stages=False) as report:  # the first listing reads every file
            listing = list_runs(_paths(args), catalogue, imports=args.imports, prices=prices, progress=report)
        for note in listing.notes:
            print(scrub(f"loopscope: {note}"), file=sys.stderr)
        rows = _sorted(condition.select(listing.rows, listing.shapes) if condition else listing.rows, order)
        check_output(args.html, [*args.paths, *(row.path for row in listing.rows)], args.force)
        if args.export_otlp:
            return _export(rows, args.export_otlp)
        if args.html or args.charts:
            return _charts(rows, args, prices, lang)
        if args.by:
            return _aggregate(rows, args, prices, lang)
        if args.json:
            _print_json(row.to_json() for row in rows)
            return 0
        if can_show_debugger() and not args.as_text:
            if args.prices:  # the debugger's panes read the table through the environment
                os.environ[ENV_PRICES] = str(args.prices)
            from ..tui.runs_app import open_runs  # Textual: printing never loads it

            return open_runs(listing, rows, order, args.where, screen_columns(shown_from(args)), lang)
        _print_table(listing, rows, run_columns(shown_from(args)), lang)
        return 0
    finally:
        catalogue.close()


def _print_json(items) -> None:
    for item in items:
        # To a terminal perhaps: what scrub() would show is written as \\u escapes, the same JSON value.
        print(escape_controls_in_json(json.dumps(item, ensure_ascii=False)))


def _print_table(listing: RunList, rows: Sequence[RunRow], columns: Sequence[Column], lang: str) -> None:
    localise = _localiser(lang)
    for line in runs_lines(rows, columns, localise):
        print(line)
    print(scrub(summary_line(listing, rows)), file=sys.stderr)


def summary_line(listing: RunList, rows: Sequence[RunRow]) -> str:
    """`2,000 runs, 12 shown · 3 unreadable · 1,998 from the catalogue, 2 read`."""
    shown = f", {len(rows):,} shown" if len(rows) != len(listing.rows) else ""
    unreadable = sum(not row.readable for row in listing.rows)
    parts = [f"{len(listing.rows):,} run(s){shown}"]
    if unreadable:
        parts.append(f"{unreadable:,} unreadable")
    if listing.foreign:
        parts.append(f"{listing.foreign:,} other tools' export(s) passed over (--imports reads them)")
    if listing.finding.json_passed:  # not opened: a folder of exports is not simply "0 run(s)"
        parts.append(f"{listing.finding.json_passed:,} .json file(s) not read (--imports reads other tools' exports)")
    parts.append(f"{listing.cached:,} from the catalogue, {listing.read:,} read")
    return " · ".join(parts)


def _aggregate(rows: Sequence[RunRow], args: argparse.Namespace, prices: PriceTable, lang: str) -> int:
    readable = [row for row in rows if row.readable]
    if args.by == "tool":
        tools = by_tool(readable)
        if args.json:
            _print_json(stat.to_json() for stat in tools)
        else:
            print("\n".join(stats_lines(tools, TOOL_COLUMNS, _localiser(lang))))
    else:
        models = by_model(readable, prices)
        if args.json:
            _print_json(stat.to_json() for stat in models)
        else:
            print("\n".join(stats_lines(models, MODEL_COLUMNS, _localiser(lang))))
    print(scrub(f"over {len(readable):,} run(s)"), file=sys.stderr)
    return 0


def _charts(rows: Sequence[RunRow], args: argparse.Namespace, prices: PriceTable, lang: str) -> int:
    charts = run_charts(rows, prices)
    if args.charts:
        from .runs_charts import chart_text  # late: plotext, an extra, only for --charts

        width = min(shutil.get_terminal_size((100, 24)).columns, 120)
        print(chart_text(charts, width, colour=sys.stdout.isatty() and not os.environ.get("NO_COLOR"),
                         localise=_localiser(lang)))  # fmt: skip
    if args.html:
        from ..runs.charts_html import charts_page  # late: only --html writes a page
        from .export import write_atomically

        output = Path(args.html)
        try:
            write_atomically(output, charts_page(charts, rows, f"loopscope runs · {len(rows):,} runs"))
        except OSError as error:
            raise UsageError(f"cannot write {output}: {error.strerror or error}; nothing was written") from None
        print(scrub(f"wrote the charts of {len(rows):,} run(s) to {output}"), file=sys.stderr)
    return 0


def _export(rows: Sequence[RunRow], url: str) -> int:
    from .runs_export import export_runs  # OpenTelemetry is an extra ([otel]): listing works without it

    return export_runs([Path(row.path) for row in rows if row.readable], url, skipped=sum(not r.readable for r in rows))
