"""The diff of two runs, aligned by transition, in a scrollable box (the text of `loopscope diff`)."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from ...i18n import say
from ...report.text.literal import literal
from ..chrome import app_language

# Row markers of render_diff: = same, ≠ differs, < only in A, > only in B.
MARKER_STYLES = {"≠": "bold yellow", "<": "red", ">": "green"}


def diff_text(lines: Sequence[str]) -> Text:
    """render_diff's lines, coloured by row marker; every line is shown literally."""
    text = Text()
    for line in lines:
        marker = line[2:3] if line.startswith("  ") else ""
        if line.startswith(("The runs part at", "The runs take the same")):
            style = "bold"
        else:
            style = MARKER_STYLES.get(marker, "")
        text.append_text(literal(line + "\n", style))
    return text


class DiffScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,q,D", "close", "close the diff", id="diff-screen-close")]

    def __init__(self, title: str, lines: Sequence[str]) -> None:
        """`title`: said already (in the debugger's language), or names only."""
        super().__init__()
        self.title_text, self.lines = title, list(lines)

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="diff"):
            lang = app_language(self.app)
            yield Static(literal(self.title_text, "bold"), id="diff-title")
            yield Static(diff_text(self.lines), id="diff-text")
            yield Static(Text(say("debugger.diff_keys", lang), style="dim"))

    def on_mount(self) -> None:
        self.query_one("#diff").border_title = say("debugger.diff_box", app_language(self.app))
        self.query_one("#diff").focus()

    @property
    def plain(self) -> str:
        """The diff as shown, for tests and for reading back."""
        return "\n".join(self.lines)

    def action_close(self) -> None:
        self.dismiss(None)
