"""Messages the debugger's flows and panes send up to the screen (Textual: attributes down, messages up)."""

from __future__ import annotations

from typing import Any

from textual.message import Message

from ..i18n import Message as Said


class Say(Message):
    """Show `said` on the status line (in the screen's language)."""

    def __init__(self, said: Said) -> None:
        super().__init__()
        self.said = said


class Busy(Message):
    """A flow started (reason) or finished (None) something that keys must wait for."""

    def __init__(self, reason: Said | None) -> None:
        super().__init__()
        self.reason = reason


class Waiting(Message):
    """Show `said` on the status line while busy (say what the typed keys wait for)."""

    def __init__(self, said: Said) -> None:
        super().__init__()
        self.said = said


class Redraw(Message):
    """The session changed (position, breakpoints, events): redraw the panes."""

    def __init__(self, grew: bool = False, breakpoints: bool = False, tab: str | None = None) -> None:
        super().__init__()
        self.grew = grew  # the store gained events: the timeline must grow
        self.breakpoints = breakpoints  # breakpoints were added, removed or toggled
        self.tab = tab  # show this right-hand pane


class OpenSession(Message):
    """Replace the session shown (a fork, a tutorial) with `session`, its status line saying `said`."""

    def __init__(self, session: Any, said: Said, tab: str | None = None) -> None:
        super().__init__()
        self.session, self.said, self.tab = session, said, tab


class ForkWith(Message):
    """Fork the run at event `at` with `text` as the model's reply there (from the playground)."""

    def __init__(self, at: int, text: str) -> None:
        super().__init__()
        self.at, self.text = at, text


class Fail(Message):
    """The debugger cannot go on (the trace cannot be read): leave with exit code 2, saying `text`."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text


class PastLastStop(Message):
    """space was pressed at a tutorial's last stop: the tutorial flow moves on (next part, or says what is next)."""


class BeforeFirstStop(Message):
    """backspace was pressed at (or before) a tutorial's first stop: the tutorial flow goes back a part, if any."""
