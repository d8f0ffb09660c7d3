"""A predict question, asked before its event is shown: the question, numbered choices, a number key answers."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from tutorials.predict import PredictStop

from ...i18n import say
from ...report.text.cjk_wrap import WrappedText

MOST_CHOICES = 9  # one number key each


class PredictScreen(ModalScreen[int | None]):
    """Dismisses with the 0-based choice, or None on escape (the event stays hidden). Docked at the
    bottom: the timeline and source above still show where the run is."""

    BINDINGS = [
        Binding("escape", "not_now", "not now", id="predict-not-now"),
        *(
            Binding(str(n), f"answer({n})", f"answer {n}", show=False, id=f"predict-answer-{n}")
            for n in range(1, MOST_CHOICES + 1)
        ),
    ]

    def __init__(self, stop: PredictStop, number: int, total: int, lang: str) -> None:
        super().__init__()
        self.stop, self.number, self.total, self.lang = stop, number, total, lang

    def compose(self) -> ComposeResult:
        lang, stop = self.lang, self.stop
        with Vertical(id="predict-box"):
            title = say("predict.box_title", lang, number=self.number, total=self.total)
            yield Static(Text(title, style="bold"), id="predict-title")
            # The tutorial's own words, still plain Text: a bracket in them is never markup.
            yield Static(WrappedText(Text(stop.question)), id="predict-question")
            choices = Text("\n").join(Text.assemble((f"{n}. ", "bold"), choice) for n, choice in self._numbered())
            yield Static(WrappedText(choices, hanging=True), id="predict-choices")
            hint = say("predict.box_keys", lang, last=len(stop.choices), seq=stop.hidden_from)
            yield Static(WrappedText(Text(hint, style="dim")), id="predict-hint")

    def _numbered(self) -> list[tuple[int, str]]:
        return list(enumerate(self.stop.choices, start=1))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "answer":  # a number past the last choice does nothing
            return isinstance(parameters[0], int) and parameters[0] <= len(self.stop.choices)
        return True

    def action_answer(self, number: int) -> None:
        self.dismiss(number - 1)

    def action_not_now(self) -> None:
        self.dismiss(None)
