"""A predict question, asked before its event is shown: the question, numbered choices, a number key answers."""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from tutorials.predict import PredictStop

from ...i18n import say
from ...report.text.cjk_wrap import WrappedText


class PredictScreen(ModalScreen[int | None]):
    """Dismisses with the 0-based choice, or None on escape (the event stays hidden). Docked at the
    bottom: the timeline and source above still show where the run is."""

    BINDINGS = [Binding("escape", "not_now", "not now", id="predict-not-now")]

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

    def on_key(self, event: events.Key) -> None:
        """A choice's number answers (read from the key, not bound: the choices are 1 to N, N differs);
        a number past the last choice does nothing."""
        number = event.character
        if number is not None and number.isdigit() and 1 <= int(number) <= len(self.stop.choices):
            event.stop()
            self.dismiss(int(number) - 1)

    def action_not_now(self) -> None:
        self.dismiss(None)
