"""`loopscope runs [PATH ...]`: every run under some folders, one row each, in a table, as JSON, or added up."""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
from collections.abc import Sequence
from pathlib import Path

from ..debug.shipped import user_fork_dir
from ..i18n import say
from ..runs.aggregates import by_model, by_tool, score_names_of
from ..runs.catalogue import ENV_CATALOGUE, Catalogue, chosen_location
from ..runs.charts import run_charts
from ..runs.columns import (
    MODEL_COLUMNS,
    TOOL_COLUMNS,
    Column,
    model_score_columns,
    run_columns,
    score_names,
    screen_columns,
)
from ..runs.listing import RunList, list_runs
from ..runs.options import RunsOptions
from ..runs.run_fields import RUN_FIELDS, is_run_field, sort_key
from ..runs.run_row import RunRow
from ..runs.where import ConditionError, RunCondition
from ..trace.literal_text import escape_controls_in_json, scrub
from . import COMMANDS
from .language import LANG_HELP, chosen_language
from .options import price_table
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
    p.add_argument(
        "--tests-dir",
        default="tests/regressions",
        metavar="DIR",
        help="where `t` in the table writes the marked runs' regression tests, as `loopscope tests add --dir` "
        "(default: tests/regressions)",
    )
    p.add_argument("--lang", help="the table's own words in this " + LANG_HELP)
    add_force_option(p)
    return p


def sort_order(text: str | None, lang: str = "en") -> tuple[str, bool] | None:
    """(run field, descending) from --sort KEY or --sort=-KEY; a one-line error for any other word."""
    if not text:
        return None
    name = text.removeprefix("-")
    if not is_run_field(name):
        raise UsageError(say("runs.error.sort", lang, given=scrub(text), fields=", ".join(RUN_FIELDS)))
    return name, text.startswith("-")


def _sorted(rows: list[RunRow], order: tuple[str, bool] | None) -> list[RunRow]:
    return sorted(rows, key=sort_key(*order)) if order else rows


def _condition(text: str | None, lang: str = "en") -> RunCondition | None:
    if text is None:
        return None
    try:
        return RunCondition(text)
    except ConditionError as error:
        shown = text if len(text) <= 80 else text[:80] + "…"
        raise UsageError(say("runs.error.where", lang, given=shown, problem=error)) from None


def shown_from(paths: Sequence[str]) -> str | None:
    """Paths are shown below the one folder named (`loopscope runs traces/`), else below this folder."""
    return paths[0] if len(paths) == 1 and os.path.isdir(paths[0]) else None


def _paths(named: Sequence[str], forks: bool) -> tuple[str, ...]:
    paths = list(named) or ["."]
    if forks and user_fork_dir().is_dir():
        paths.append(str(user_fork_dir()))
    return tuple(paths)


def runs_options(args: argparse.Namespace) -> RunsOptions:
    """The arguments as one value; what the user got wrong (--sort, --lang, --prices) is said here."""
    lang = chosen_language(args.lang)  # first: what the user got wrong is said in their language
    return RunsOptions(
        paths=_paths(args.paths, args.forks),
        shown_below=shown_from(args.paths),
        where=args.where,
        order=sort_order(args.sort, lang),
        by=args.by,
        as_json=args.json,
        as_text=args.as_text,
        charts=args.charts,
        html=args.html,
        imports=args.imports,
        export_otlp=args.export_otlp,
        catalogue=args.catalogue or os.environ.get(ENV_CATALOGUE) or None,  # the user's variable, read here
        lang=lang,
        tests_dir=args.tests_dir,
        prices=price_table(args.prices),  # last: reads a file, once the words are known good
    )


def run(args: argparse.Namespace) -> int:
    options = runs_options(args)  # first: what the user got wrong is said in their language
    lang = options.lang
    condition = _condition(args.where, lang)  # and before anything is read
    location, owned = chosen_location(options.catalogue)
    catalogue = Catalogue.open(location, owned)
    try:
        with progress_bar(
            say("runs.progress", lang), unit="files", stages=False
        ) as report:  # the first listing reads every file
            listing = list_runs(
                options.paths, catalogue, imports=options.imports, prices=options.prices, progress=report
            )
        for note in listing.notes:
            print(scrub(f"loopscope: {note}"), file=sys.stderr)
        rows = _sorted(condition.select(listing.rows, listing.shapes) if condition else listing.rows, options.order)
        check_output(options.html, [*options.paths, *(row.path for row in listing.rows)], args.force)
        if options.export_otlp:
            return _export(rows, options.export_otlp, lang)
        if options.html or options.charts:
            return _charts(rows, options)
        if options.by:
            return _aggregate(rows, options)
        if options.as_json:
            _print_json(row.to_json() for row in rows)
            return 0
        if can_show_debugger() and not options.as_text:
            from ..tui.runs_app import open_runs  # Textual (about 0.3 s): printing never loads it

            scores = score_names(rows)
            return open_runs(listing, rows, options, screen_columns(options.shown_below, scores))
        _print_table(listing, rows, run_columns(options.shown_below, score_names(rows)), options.lang)
        return 0
    finally:
        catalogue.close()


def _print_json(items) -> None:
    for item in items:
        # To a terminal perhaps: what scrub() would show is written as \\u escapes, the same JSON value.
        print(escape_controls_in_json(json.dumps(item, ensure_ascii=False)))


def _print_table(listing: RunList, rows: Sequence[RunRow], columns: Sequence[Column], lang: str) -> None:
    for line in runs_lines(rows, columns, lang):
        print(line)
    print(scrub(summary_line(listing, rows, lang)), file=sys.stderr)


def summary_line(listing: RunList, rows: Sequence[RunRow], lang: str = "en") -> str:
    """`2,000 run(s), 12 shown · 3 unreadable · 1,998 from the catalogue, 2 read`."""
    runs = f"{len(listing.rows):,}"
    if len(rows) != len(listing.rows):
        parts = [say("runs.summary.shown", lang, runs=runs, shown=f"{len(rows):,}")]
    else:
        parts = [say("runs.summary.runs", lang, runs=runs)]
    unreadable = sum(not row.readable for row in listing.rows)
    if unreadable:
        parts.append(say("runs.summary.unreadable", lang, count=f"{unreadable:,}"))
    if listing.foreign:
        parts.append(say("runs.summary.foreign", lang, count=f"{listing.foreign:,}"))
    if listing.finding.json_passed:  # not opened: a folder of exports is not simply "0 run(s)"
        parts.append(say("runs.summary.json_passed", lang, count=f"{listing.finding.json_passed:,}"))
    parts.append(say("runs.summary.sources", lang, cached=f"{listing.cached:,}", read=f"{listing.read:,}"))
    return " · ".join(parts)


def _aggregate(rows: Sequence[RunRow], options: RunsOptions) -> int:
    lang = options.lang
    readable = [row for row in rows if row.readable]
    if options.by == "tool":
        tools = by_tool(readable)
        if options.as_json:
            _print_json(stat.to_json() for stat in tools)
        else:
            print("\n".join(stats_lines(tools, TOOL_COLUMNS, lang)))
    else:
        models = by_model(readable, options.prices)
        if options.as_json:
            _print_json(stat.to_json() for stat in models)
        else:
            columns = [*MODEL_COLUMNS, *model_score_columns(score_names_of(models))]
            print("\n".join(stats_lines(models, columns, lang)))
    print(scrub(say("runs.summary.over", lang, runs=f"{len(readable):,}")), file=sys.stderr)
    return 0


def _charts(rows: Sequence[RunRow], options: RunsOptions) -> int:
    lang = options.lang
    charts = run_charts(rows, options.prices)
    if options.charts:
        from .runs_charts import chart_text  # late: plotext, an extra, only for --charts

        width = min(shutil.get_terminal_size((100, 24)).columns, 120)
        print(chart_text(charts, width, colour=sys.stdout.isatty() and not os.environ.get("NO_COLOR"), lang=lang))
    if options.html:
        from ..runs.charts_html import charts_page  # late: only --html writes a page
        from .export import write_atomically

        output = Path(options.html)
        try:
            title = f"loopscope runs · {say('html.runs.count', lang, count=f'{len(rows):,}')}"
            write_atomically(output, charts_page(charts, rows, title, lang))
        except OSError as error:
            problem = error.strerror or error
            raise UsageError(say("cli.error.cannot_write", lang, path=output, problem=problem)) from None
        print(scrub(say("runs.wrote_charts", lang, runs=f"{len(rows):,}", path=output)), file=sys.stderr)
    return 0


def _export(rows: Sequence[RunRow], url: str, lang: str) -> int:
    from .runs_export import export_runs  # OpenTelemetry is an extra ([otel]): listing works without it

    readable = [Path(row.path) for row in rows if row.readable]
    return export_runs(readable, url, skipped=sum(not row.readable for row in rows), lang=lang)
