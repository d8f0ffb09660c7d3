"""The tutorial picker: every tutorial with its title, parts and predict score; choosing one opens it in the debugger."""

from __future__ import annotations

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from tutorials.predict_scores import read_scores, score_of
from tutorials.registry import TUTORIALS, Tutorial

from ...i18n import say


def part_count(tutorial: Tutorial, lang: str) -> str:
    count = len(tutorial.parts)
    return say("boxes.tutorials.part" if count == 1 else "boxes.tutorials.parts", lang, count=count)


def part_number(number: int, tutorial: Tutorial, lang: str) -> str:
    """ "part 2/3" (1-based `number`), in the narration's language."""
    return say("boxes.tutorials.part_number", lang, number=number, total=len(tutorial.parts))


def indented(indent: int, text: Text) -> Table:
    """`text` wrapped under itself, `indent` cells in, so a long title still reads as one block."""
    grid = Table.grid()
    grid.add_column(width=indent)
    grid.add_column(ratio=1)
    grid.add_row("", text)
    return grid


def tutorial_options(lang: str, scores: dict[str, dict[str, bool]] | None = None) -> list[Option]:
    """One option per tutorial (id NAME: its first part), then one per part of a multi-part one (NAME:INDEX).
    `scores`: the learner's predict answers; a tutorial with some shows `predict RIGHT/ASKED`."""
    options = []
    for name, tutorial in TUTORIALS.items():
        # Our own notes, still plain Text: a bracket in a title must never be read as markup.
        heading = Text.assemble((name, "bold"), (f"  · {part_count(tutorial, lang)}", "dim"))
        score = score_of(name, scores or {})
        if score is not None:
            heading.append(f"  · {say('predict.picker_score', lang, right=score.right, asked=score.asked)}", "magenta")
        options.append(Option(Group(heading, indented(2, Text(tutorial.title(lang)))), id=name))
        if len(tutorial.parts) > 1:
            for number, part in enumerate(tutorial.parts, start=1):
                label = Text(f"{part_number(number, tutorial, lang)}: {tutorial.part_label(part, lang)}")
                options.append(Option(indented(4, label), id=f"{name}:{number - 1}"))
    return options


class TutorialPicker(ModalScreen[tuple[str, int] | None]):
    """Dismisses with (tutorial name, 0-based part), or None on escape."""

    BINDINGS = [Binding("escape,q", "cancel", "close the picker", id="picker-cancel")]

    def __init__(self, lang: str, current: tuple[str, int] | None = None) -> None:
        super().__init__()
        self.lang, self.current = lang, current

    def compose(self) -> ComposeResult:
        with Vertical(id="picker"):
            title = say("boxes.tutorials.title", self.lang, language=say("boxes.tutorials.language", self.lang))
            yield Static(Text(title, style="bold"), id="picker-title")
            yield OptionList(*tutorial_options(self.lang, read_scores()), id="picker-list")
            yield Static(Text(say("boxes.tutorials.keys", self.lang), style="dim"), id="picker-hint")

    def on_mount(self) -> None:
        choices = self.query_one(OptionList)
        ids = [option.id for option in choices.options]
        if self.current is not None:
            name, part = self.current
            wanted = f"{name}:{part}" if len(TUTORIALS[name].parts) > 1 else name
            choices.highlighted = ids.index(wanted)  # the tutorial this session shows
        choices.focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        name, _, part = (event.option.id or "").partition(":")
        self.dismiss((name, int(part or 0)))

    def action_cancel(self) -> None:
        self.dismiss(None)
