"""What every flow shares: the session it works on, and the messages it sends up."""

from __future__ import annotations

from typing import ClassVar

from textual.binding import Binding
from textual.widget import Widget

from ...debug.session import DebugSession
from ..messages import Busy, Redraw, Say


class Flow(Widget):
    """An invisible child of the debugger screen. The screen binds KEYS and calls the flow's
    methods (attributes down); the flow answers with Say / Busy / Redraw / OpenSession (messages up)."""

    DEFAULT_CSS = "Flow { display: none; }"

    def on_mount(self) -> None:
        self.add_class("flow")

    KEYS: ClassVar[list[Binding]] = []

    def __init__(self, session: DebugSession, **kwargs) -> None:
        super().__init__(**kwargs)
        self.session = session
        self.blocked_by = ""  # set by the screen: why keys must wait now ("" when nothing blocks)

    def say(self, text: str) -> None:
        self.session.message = text
        self.post_message(Say(text))

    def busy(self, reason: str) -> None:
        self.post_message(Busy(reason))

    def redraw(self, **changes) -> None:
        self.post_message(Redraw(**changes))
