"""A scrollable pane of literal text (variables, prompt, detail, narration), refreshed from the session."""

from __future__ import annotations

from rich.text import Text
from textual.containers import VerticalScroll
from textual.widgets import Static

from ...report.cjk_wrap import WrappedText
from ..views.variable_table import VariableTable


class TextPane(VerticalScroll, can_focus=True):
    """Holds one Static; `show` replaces its text. `stick_to_end` panes open scrolled to the bottom."""

    def __init__(self, stick_to_end: bool = False, **kwargs) -> None:
        super().__init__(**kwargs)
        self.stick_to_end = stick_to_end
        self.body = Static(Text(""), classes="pane-text")
        self.plain = ""

    def compose(self):
        yield self.body

    def on_mount(self) -> None:
        if self.stick_to_end:
            # Anchored: Textual keeps the bottom in view when the text grows after a relayout.
            self.anchor()

    def show(self, text: Text | VariableTable | WrappedText) -> None:
        """Any renderable with a `.plain` text; the plain text is what tests read. A Text is wrapped
        between Chinese characters and at spaces, never inside a word (Rich would cut it anywhere)."""
        if text.plain == self.plain:
            return  # unchanged: keep the reader's scroll position
        self.plain = text.plain
        self.body.update(WrappedText(text) if isinstance(text, Text) else text)
        if self.stick_to_end:
            self.scroll_end(animate=False)  # also re-anchors if the reader had scrolled up
        else:
            self.scroll_home(animate=False, immediate=True)
