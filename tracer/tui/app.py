"""The Textual application: one debugger screen over a session."""

from __future__ import annotations

from textual.app import App
from textual.binding import Binding

from ..literal_text import scrub
from .main_screen import DebuggerScreen
from .session import DebugSession


class DebuggerApp(App[int]):
    CSS_PATH = "debugger.tcss"
    TITLE = "loopscope"
    BINDINGS = [Binding("q", "quit", "quit")]
    ENABLE_COMMAND_PALETTE = False

    def __init__(self, session: DebugSession) -> None:
        super().__init__()
        self.session = session
        self.failure: str | None = None
        self.sub_title = scrub(session.title)

    def on_mount(self) -> None:
        self.push_screen(DebuggerScreen(self.session))

    def fail(self, message: str) -> None:
        """Leave with exit code 2; launch prints `message` on stderr once the terminal is restored."""
        self.failure = message
        self.exit(2, return_code=2)

    async def action_quit(self) -> None:
        self.exit(0)
