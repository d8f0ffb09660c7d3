"""`loopscope tutorial NAME`: a narrated walk through a recorded run, in the debugger or as text."""

from __future__ import annotations

import argparse
import importlib
from collections.abc import Callable, Sequence
from dataclasses import replace
from textwrap import indent

from rich.console import Console
from rich.panel import Panel
from rich.text import Text

from executor.events import Event, EventBase, LLMEndEvent, LLMStartEvent
from tutorials import Scenario
from tutorials.narration import NarrationMismatch, NarrationStop, tutorial_stops
from tutorials.notes_file import LANGUAGES, NotesFileError
from tutorials.predict import PredictStop, predict_stops
from tutorials.registry import TUTORIALS, Tutorial

from ..i18n import say
from ..report.narration.narrator import Narrator, reply_text
from ..report.text.cjk_wrap import wrap_note, wrap_text
from ..report.text.line_diff import marked_diff
from ..report.text.literal import literal
from ..trace.literal_text import scrub
from ..trace.reader import load_trace
from . import COMMANDS
from .language import chosen_language, default_language  # noqa: F401  (default_language: tests)
from .options import debugger_options
from .terminal import can_show_debugger
from .usage_error import UsageError

TYPE_CHECKING = False  # not typing's: see scenarios.py
if TYPE_CHECKING:  # the values are built (and their modules loaded) only when a tutorial runs
    from ..debug.options import DebuggerOptions
    from ..report.cost.prices import PriceTable


def add_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    p = sub.add_parser(
        "tutorial",
        help=COMMANDS["tutorial"],
        description="Step through a recorded run with narration at each important "
        "event. Opens the debugger in a terminal; --print writes the walk as text.",
    )
    p.add_argument("name", help="a tutorial name, or `list` to see them all")
    p.add_argument(
        "--print", dest="as_text", action="store_true", help="print the narrated walk instead of opening the debugger"
    )
    p.add_argument(
        "--lang",
        help=f"narration language: {', '.join(LANGUAGES)} "
        "(default: zh when LC_ALL/LC_MESSAGES/LANG starts with zh, else en)",
    )
    p.add_argument("--part", type=int, metavar="N", help="only part N of a tutorial with several parts")
    p.add_argument("--predict", action="store_true", help=say("predict.flag_help"))
    return p


def _tutorial_named(name: str, lang: str) -> Tutorial:
    if name not in TUTORIALS:
        raise UsageError(say("tutorial.error.unknown", lang, name=name, names=", ".join(TUTORIALS)))
    return TUTORIALS[name]


def _chosen_parts(tutorial: Tutorial, number: int | None, lang: str) -> Sequence[Scenario]:
    if number is None:
        return tutorial.parts
    if not 1 <= number <= len(tutorial.parts):
        names = ", ".join(f"{i} = {p.name}" for i, p in enumerate(tutorial.parts, start=1))
        raise UsageError(say("tutorial.error.no_part", lang, name=tutorial.name, number=number, parts=names))
    return tutorial.parts[number - 1 : number]


def _part_events(tutorial: Tutorial, part: Scenario, lang: str) -> tuple[list[Event], list[NarrationStop]]:
    if not part.fixture.exists():
        raise UsageError(say("tutorial.error.no_recording", lang, path=part.fixture, scenario=part.name))
    _header, events, _warning = load_trace(part.fixture)
    try:
        return events, tutorial_stops(part.name, lang, events)
    except (NarrationMismatch, NotesFileError) as error:
        raise UsageError(say("tutorial.error.misfit", lang, name=tutorial.name, problem=error)) from None


def _part_heading(tutorial: Tutorial, part: Scenario, lang: str, with_title: bool = True) -> str:
    title = tutorial.title(lang)
    if len(tutorial.parts) == 1:
        return title
    number = tutorial.parts.index(part) + 1
    heading = say(
        "tutorial.part", lang, number=number, total=len(tutorial.parts), label=tutorial.part_label(part, lang)
    )
    return f"{title} · {heading}" if with_title else heading


# -- the printed walk ---------------------------------------------------------------------
def _previous_plan_prompt(events: Sequence[EventBase], seq: int) -> str:
    earlier = [e for e in events[:seq] if isinstance(e, LLMStartEvent) and "plan" in e.frames]
    return earlier[-1].prompt if earlier else ""


def _prompt_gain(events: Sequence[EventBase], stop: NarrationStop, asked: LLMStartEvent) -> Text:
    """What this prompt has that the previous plan() prompt had not, shown literally.

    The scratchpad only ever grows at the end, so normally the old prompt is a prefix of
    the new one and the gain is the appended text; otherwise fall back to a line diff.
    """
    before = _previous_plan_prompt(events, stop.seq)
    after = asked.prompt
    if before and after.startswith(before):
        last_line = before.rsplit("\n", 1)[-1]
        return Text.assemble(literal("…" + last_line, "dim"), literal(after[len(before) :], "green"))
    return marked_diff(before, after, context=0)


def _evidence(events: Sequence[EventBase], stop: NarrationStop, lang: str) -> Text | None:
    """What the debugger's panes would show next to this stop, for a walk printed as text."""
    event = events[stop.seq]
    if stop.show == "prompt_diff" and isinstance(event, LLMStartEvent):
        return Text.assemble((say("tutorial.prompt_gained", lang) + "\n", "bold"), _prompt_gain(events, stop, event))
    if isinstance(event, LLMEndEvent):  # the narrator prints a reply only once it is parsed; show it raw here
        return Text.assemble((say("tutorial.reply", lang) + "\n", "bold"), literal(reply_text(event), "yellow"))
    return None


def _stop_panel(
    stop: NarrationStop, number: int, total: int, events: Sequence[EventBase], lang: str, width: int
) -> Panel:
    # Our own notes, but still plain Text: brackets in them must never be read as markup.
    body = Text(wrap_note(stop.text, width))
    evidence = _evidence(events, stop, lang)
    if evidence is not None:
        body.append("\n\n")
        body.append_text(Text("\n").join(wrap_text(evidence, width, hanging=True)))  # a diff keeps its marks' column
    heading = Text(f" {say('tutorial.stop', lang, number=number, total=total)} · {stop.title} ", style="bold")
    body.rstrip()  # in place
    return Panel(body, title=heading, title_align="left", border_style="cyan")


def _predict_stops(tutorial: Tutorial, part: Scenario, lang: str, events: list[Event]) -> list[PredictStop]:
    try:
        return predict_stops(part.name, lang, events)
    except NotesFileError as error:
        raise UsageError(f"the predict questions of {tutorial.name!r} do not fit its fixture: {error}") from None


def _question_panel(stop: PredictStop, number: int, total: int, lang: str, width: int) -> Panel:
    # Our own content, shown as plain Text: brackets in it are never markup.
    body = Text(wrap_note(stop.question, width) + "\n")
    for index, choice in enumerate(stop.choices, start=1):
        body.append(f"\n  {index}. {choice}")
    heading = say("predict.heading", lang, number=number, total=total, seq=stop.hidden_from)
    return Panel(body, title=Text(f" {heading} ", style="bold"), title_align="left", border_style="magenta")


def _answer_text(stop: PredictStop, lang: str, width: int) -> Text:
    answer = say("predict.answer", lang, number=stop.answer + 1, choice=stop.choices[stop.answer])
    why = "\n".join(wrap_note(line, width - 2) for line in stop.why.splitlines())
    return Text.assemble((answer + "\n", "bold magenta"), (say("predict.why", lang) + "\n", "bold"), indent(why, "  "))


def print_part(
    console: Console, tutorial: Tutorial, part: Scenario, lang: str, prices: PriceTable, predict: bool = False
) -> None:
    from ..report.narration.ledger import Ledger  # the printed walk's alone: the debugger starts without it

    events, stops = _part_events(tutorial, part, lang)
    by_seq = {stop.seq: (number, stop) for number, stop in enumerate(stops, start=1)}
    questions = _predict_stops(tutorial, part, lang, events) if predict else []
    # Asked before the first event that would give the answer away, answered after the event itself;
    # two questions may be about one event.
    asked: dict[int, list[tuple[int, PredictStop]]] = {}
    answered: dict[int, list[PredictStop]] = {}
    for number, question in enumerate(questions, start=1):
        asked.setdefault(question.hidden_from, []).append((number, question))
        answered.setdefault(question.seq, []).append(question)
    if len(tutorial.parts) > 1:
        console.print(
            Text("\n── " + _part_heading(tutorial, part, lang, with_title=False), style="bold"), soft_wrap=True
        )
    narrator = Narrator(console, lang=lang)
    for event in events:
        for number, question in asked.get(event.seq, ()):  # the questions before their event, answers after it
            console.print(_question_panel(question, number, len(questions), lang, console.width - 4))
        narrator(event)
        for question in answered.get(event.seq, ()):
            console.print(_answer_text(question, lang, console.width - 2))
        if event.seq in by_seq:
            number, stop = by_seq[event.seq]
            console.print(_stop_panel(stop, number, len(stops), events, lang, console.width - 4))
    console.print(Text("\n" + say("ledger.title", lang), style="bold"))
    for line in Ledger.of(events, prices).lines(lang):  # tool names and errors of the run: shown literally
        console.print(literal("  " + line))


def list_tutorials(console: Console, lang: str) -> None:
    width = max(len(name) for name in TUTORIALS)
    for name, tutorial in TUTORIALS.items():
        count = len(tutorial.parts)
        parts = "" if count == 1 else say("tutorial.list_parts", lang, count=count)
        console.print(Text(f"{name:<{width}}  {tutorial.title(lang)}{parts}"), soft_wrap=True)
    console.print(Text("\n" + say("tutorial.list_hint", lang), style="dim"))


# -- the debugger -------------------------------------------------------------------------
def stdout_is_terminal() -> bool:
    return can_show_debugger()


def debugger_opener() -> Callable[..., int] | None:
    """tracer.tui.launch.open_debugger when the debugger is installed, else None."""
    try:
        module = importlib.import_module("tracer.tui.launch")
    except ModuleNotFoundError as error:
        if error.name in ("tracer.tui", "tracer.tui.launch"):
            return None
        raise
    return getattr(module, "open_debugger", None)


def open_parts(
    opener: Callable[..., int], tutorial: Tutorial, parts: Sequence[Scenario], lang: str, options: DebuggerOptions
) -> int:
    """The debugger on the first chosen part; space past a part's last stop opens the next one in
    the same window (and T any part), so q always leaves."""
    part = parts[0]
    _events, stops = _part_events(tutorial, part, lang)
    if tutorial.live:  # its lesson steps into functions, which a recording cannot: a live run of the same events
        from ..debug.own_agent_run import (  # late: only a live tutorial runs an agent
            live_tutorial_epilogue,
            live_tutorial_message,
            live_tutorial_run,
        )

        run = live_tutorial_run(tutorial.name)
        title = f"{_part_heading(tutorial, part, lang)} · {run.scenario.source}"
        code = opener(
            None, options=options, stops=stops, title=title, live=run, message=live_tutorial_message(run, lang)
        )
        print(scrub(live_tutorial_epilogue(run, lang)))
        return code
    return opener(part.fixture, options=options, stops=stops, title=_part_heading(tutorial, part, lang))


def run(args: argparse.Namespace) -> int:
    lang = chosen_language(args.lang)
    console = Console(highlight=False)
    if args.name == "list":
        list_tutorials(console, lang)
        return 0
    tutorial = _tutorial_named(args.name, lang)
    parts = _chosen_parts(tutorial, args.part, lang)
    opener = None if args.as_text or not stdout_is_terminal() else debugger_opener()
    # The tutorial's narration sets the debugger's language (lang=None); prices are the user's, if set.
    options = replace(debugger_options(args, None), predict=args.predict)
    if opener is not None:
        return open_parts(opener, tutorial, parts, lang, options)
    console.print(Text("══ " + tutorial.title(lang), style="bold"), soft_wrap=True)
    for part in parts:
        print_part(console, tutorial, part, lang, options.price_table(), predict=args.predict)
    return 0
