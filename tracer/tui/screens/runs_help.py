"""The runs table's keys and the words `F` (filter) understands, in a scrollable box."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from ...i18n import say
from ...runs.run_fields import RUN_FIELDS
from ...runs.run_row import OUTCOMES
from .help_screen import key_table


class RunsHelpScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,q,question_mark", "close", "close help", id="runs-close-help")]

    def __init__(self, bindings: Sequence[BindingType], lang: str = "en") -> None:
        super().__init__()
        self.bindings, self.lang = [b for b in bindings if isinstance(b, Binding)], lang

    def compose(self) -> ComposeResult:
        lang = self.lang
        text = Text(say("runs_table.help_title", lang) + "\n\n", style="bold")
        keys = say("runs_table.help_keys", lang)
        text.append_text(key_table(keys, self.bindings, getattr(self.app, "keymap", None), lang))
        listed = {"fields": ", ".join(RUN_FIELDS), "outcomes": ", ".join(OUTCOMES)}
        text.append("\n" + say("runs_table.help_filter", lang, **listed) + "\n")
        with VerticalScroll(id="help"):
            yield Static(text)

    def on_mount(self) -> None:
        self.query_one("#help").focus()  # ↑/↓ and pgup/pgdn scroll it

    def action_close(self) -> None:
        self.dismiss(None)
