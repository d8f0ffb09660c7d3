"""The prompt pane: a fixed line saying which model call this is, over the scrollable prompt text."""

from __future__ import annotations

from rich.text import Text
from textual.containers import Vertical
from textual.widgets import Static

from ...report.text.cjk_wrap import WrappedText
from .text_pane import TextPane


class PromptPane(Vertical):
    header = ""  # the fixed line's text (tests read it)

    def __init__(self, lang: str = "en", **kwargs) -> None:
        super().__init__(**kwargs)
        self.lang = lang

    def compose(self):
        yield Static(id="prompt-header")
        yield TextPane(stick_to_end=True, lang=self.lang, id="prompt-text")

    def show(self, header: Text, body: Text) -> None:
        self.header = header.plain
        self.query_one("#prompt-header", Static).update(WrappedText(header))
        # Hanging: a diff's wrapped line continues past its mark's column (and a bullet under its text).
        self.query_one("#prompt-text", TextPane).show(WrappedText(body, hanging=True))
