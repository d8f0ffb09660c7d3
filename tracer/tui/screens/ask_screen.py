"""A one-line question (event number, search text, breakpoint) that checks the answer before closing."""

from __future__ import annotations

from collections.abc import Callable

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input

from ...i18n import Message
from ..chrome import app_language
from ..panes.wrapped_static import WrappedStatic

Check = Callable[[str], "str | Message | None"]  # returns an error message, or None when the answer is fine


class AskScreen(ModalScreen[str | None]):
    """Dismisses with the answer, or None on escape. `check` keeps it open with a message."""

    BINDINGS = [Binding("escape", "cancel", "cancel", id="ask-cancel")]

    def __init__(
        self, question: str | Message, hint: str | Message = "", check: Check | None = None, value: str = ""
    ) -> None:
        """A Message is said in the debugger's language; a str is shown as it is (said already, or not ours)."""
        super().__init__()
        self.question, self.hint, self.check, self.value = question, hint, check, value

    def compose(self) -> ComposeResult:
        self.lang = app_language(self.app)
        with Vertical(id="ask"):
            # Wrapped between Chinese characters, never inside a word: Rich alone reads a Chinese sentence
            # as one long word and cuts it anywhere ("line=[F" / "ILE:]N").
            yield WrappedStatic(Text(self._said(self.question), style="bold"), id="ask-question")
            yield Input(value=self.value, id="ask-input")
            yield WrappedStatic(Text(self._said(self.hint), style="dim"), id="ask-hint")

    def _said(self, words: str | Message) -> str:
        return words.text(self.lang) if isinstance(words, Message) else words

    def on_input_submitted(self, event: Input.Submitted) -> None:
        answer = event.value.strip()
        problem = self.check(answer) if self.check else None
        if problem:
            self.query_one("#ask-hint", WrappedStatic).update(Text(self._said(problem), style="bold red"))
            return
        self.dismiss(answer)

    def action_cancel(self) -> None:
        self.dismiss(None)
