"""A scrollable pane of literal text (variables, prompt, detail, narration), refreshed from the session."""

from __future__ import annotations

from rich.text import Text
from textual.containers import VerticalScroll
from textual.widgets import Static

from ...i18n import say
from ...report.text.cjk_wrap import WrappedText
from ..views.variable_table import VariableTable


class TextPane(VerticalScroll, can_focus=True):
    """Holds one Static; `show` replaces its text. `stick_to_end` panes open scrolled to the bottom.
    When the text does not fit, a last line says how much more there is and how to get to it."""

    def __init__(self, stick_to_end: bool = False, lang: str = "en", scrolled_unfocused: bool = True, **kwargs) -> None:
        super().__init__(**kwargs)
        self.stick_to_end = stick_to_end
        self.scrolled_unfocused = scrolled_unfocused  # j/k reach it without focus (the tab shown below does)
        self.body = Static(Text(""), classes="pane-text")
        self.more = Static("", classes="more-hint")
        self.lang = lang
        self.plain = ""

    def compose(self):
        yield self.body
        yield self.more

    def on_mount(self) -> None:
        self.more.display = False
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
        self.call_after_refresh(self.update_more)

    @property
    def hidden_lines(self) -> tuple[int, int]:
        """(lines above, lines below) the part shown."""
        top = round(self.scroll_y)
        return top, max(round(self.max_scroll_y) - top, 0)

    def update_more(self) -> None:
        above, below = self.hidden_lines
        if below:
            key = "below" if self.scrolled_unfocused or self.has_focus else "focus"
            hint = say(f"panes.more.{key}" + ("" if below == 1 else "_many"), self.lang, n=below)
        elif above and self.stick_to_end:  # the prompt opens at its end: its start is above
            hint = say("panes.more.above" + ("" if above == 1 else "_many"), self.lang, n=above)
        else:
            hint = ""
        self.more.update(Text(hint, style="bold reverse"))
        self.more.display = bool(hint)

    def watch_scroll_y(self, old: float, new: float) -> None:
        super().watch_scroll_y(old, new)
        self.update_more()

    def on_resize(self) -> None:
        self.call_after_refresh(self.update_more)

    def watch_virtual_size(self) -> None:
        # The text grew or shrank after the layout the hint was worked out for (its first wrap at this width).
        self.call_after_refresh(self.update_more)

    def on_focus(self) -> None:
        self.update_more()

    def on_blur(self) -> None:
        self.update_more()
