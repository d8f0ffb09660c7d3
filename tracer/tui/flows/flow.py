"""What every flow shares: the session it works on, its keys and what they do, and the messages it sends up."""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from textual.binding import Binding
from textual.widget import Widget

from ...debug.session import DebugSession
from ..messages import Busy, Fail, OpenSession, Redraw, Say

KeyAction = Callable[[], object]


def flow_key(key: str, id: str, description: str, show: bool = True) -> Binding:
    """A key of a flow, bound on the screen: its action `flow('ID')` runs what the flow's `actions()` maps
    its binding id to (a bound method, so a renamed method fails the type check, not a key press)."""
    return Binding(key, f"flow({id!r})", description, show=show, id=id)


class Flow(Widget):
    """An invisible child of the debugger screen. The screen binds KEYS and runs the flow's `actions()`
    (attributes down); the flow answers with Say / Busy / Redraw to the screen, OpenSession / Fail to
    the app (messages up)."""

    KEYS: ClassVar[list[Binding]] = []

    def __init__(self, session: DebugSession, **kwargs) -> None:
        super().__init__(**kwargs)
        self.session = session
        self.blocked_by = ""  # set by the screen: why keys must wait now ("" when nothing blocks)

    def actions(self) -> dict[str, KeyAction]:
        """What each of KEYS does, by binding id (every key has one: tests/tui/test_bindings.py)."""
        return {}

    def say(self, text: str) -> None:
        self.post_message(Say(text))  # the screen shows it: the words travel in the message

    def busy(self, reason: str) -> None:
        self.post_message(Busy(reason))

    def redraw(self, grew: bool = False, breakpoints: bool = False, tab: str | None = None) -> None:
        self.post_message(Redraw(grew, breakpoints, tab))

    # Posted to the app itself, which handles them: bubbling up from here would stop at the screen
    # whenever one of the screen's handlers started the flow (Textual does not bubble a message on
    # past its sender's parent). Safe from any thread.
    def open_session(self, session: DebugSession, text: str, tab: str | None = None) -> None:
        self.app.post_message(OpenSession(session, text, tab))

    def fail(self, text: str) -> None:
        self.app.post_message(Fail(text))
