"""A scrollable pane of literal text (variables, prompt, detail, narration), refreshed from the session."""

from __future__ import annotations

from rich.text import Text
from textual.containers import VerticalScroll
from textual.message import Message
from textual.widgets import Static

from ...i18n import say
from ...report.text.cjk_wrap import WrappedText
from ..views.variable_table import VariableTable


class TextPane(VerticalScroll, can_focus=True):
    """Holds one Static; `show` replaces its text. `stick_to_end` panes open scrolled to the bottom.
    When the text does not fit, a last line says how much more there is and how to get to it: j/k
    when this is the pane they scroll (`jk_target`, chosen by the screen), else tab first."""

    class Moved(Message):
        """What the pane hides changed (new text, a scroll, a new size): the screen picks j/k's pane again."""

    def __init__(self, stick_to_end: bool = False, lang: str = "en", scrolled_unfocused: bool = True, **kwargs) -> None:
        """`scrolled_unfocused`: whether j/k reach it before the screen has picked their pane."""
        super().__init__(**kwargs)
        self.stick_to_end = stick_to_end
        self.jk_target = scrolled_unfocused
        self.body = Static(Text(""), classes="pane-text")
        self.more = Static("", classes="more-hint")
        self.lang = lang
        self.plain = ""
        # Whether the end is kept in view as the text rewraps: until the reader scrolls up. Not Textual's
        # anchor, which scrolls a text shorter than the pane to a negative offset: a block of blank
        # lines over it, and a hint of lines "below" that j could never reach.
        self.follow_end = stick_to_end
        self._told: tuple[int, int] | None = None  # the hidden lines the screen last heard of

    def compose(self):
        yield self.body
        yield self.more

    def on_mount(self) -> None:
        self.more.display = False

    def show(self, text: Text | VariableTable | WrappedText) -> None:
        """Any renderable with a `.plain` text; the plain text is what tests read. A Text is wrapped
        between Chinese characters and at spaces, never inside a word (Rich would cut it anywhere)."""
        if text.plain == self.plain:
            return  # unchanged: keep the reader's scroll position
        self.plain = text.plain
        self.body.update(WrappedText(text) if isinstance(text, Text) else text)
        if self.stick_to_end:
            self.follow_end = True  # also if the reader had scrolled up
            self.scroll_end(animate=False)  # once the new text is laid out
        else:
            self.scroll_home(animate=False, immediate=True)
        self.call_after_refresh(self.update_more)

    @property
    def hidden_lines(self) -> tuple[int, int]:
        """(lines above, lines below) the part shown."""
        top = max(round(self.scroll_y), 0)
        return top, max(round(self.max_scroll_y) - top, 0)

    def set_jk_target(self, target: bool) -> None:
        """The screen says whether j/k scroll this pane now; the hint says so, and the pane is marked."""
        self.set_class(target, "jk-target")
        if target != self.jk_target:
            self.jk_target = target
            self.update_more()

    def update_more(self) -> None:
        above, below = self.hidden_lines
        direct = self.jk_target or self.has_focus
        if below:
            key = "below" if direct else "focus"
            hint = say(f"panes.more.{key}" + ("" if below == 1 else "_many"), self.lang, n=below)
        elif above and self.stick_to_end:  # the prompt opens at its end: its start is above
            key = "above" if direct else "above_focus"
            hint = say(f"panes.more.{key}" + ("" if above == 1 else "_many"), self.lang, n=above)
        else:
            hint = ""
        self.more.update(Text(hint, style="bold" if direct else "dim"))  # j/k's: on the accent (scroll_target.tcss)
        self.more.display = bool(hint)
        if (above, below) != self._told:
            self._told = (above, below)
            self.post_message(self.Moved())

    def _follow(self) -> None:
        if self.follow_end:
            self.scroll_end(animate=False)

    def watch_scroll_y(self, old: float, new: float) -> None:
        super().watch_scroll_y(old, new)
        if self.stick_to_end and round(new) != round(old):
            self.follow_end = round(new) >= self.max_scroll_y  # scrolled up: the reader's place is kept
        self.update_more()

    def on_resize(self) -> None:
        self.call_after_refresh(self._follow)
        self.call_after_refresh(self.update_more)

    def watch_virtual_size(self) -> None:
        # The text grew or shrank after the layout the hint was worked out for (its first wrap at this width).
        self.call_after_refresh(self._follow)
        self.call_after_refresh(self.update_more)

    def on_focus(self) -> None:
        self.update_more()

    def on_blur(self) -> None:
        self.update_more()
