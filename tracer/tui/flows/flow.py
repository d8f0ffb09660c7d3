"""What every flow shares: the session it works on, its keys and what they do, and the messages it sends up."""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from textual.binding import Binding
from textual.widget import Widget

from ...debug.session import DebugSession
from ...i18n import Message
from ..messages import Busy, Fail, OpenSession, Redraw, Say

KeyAction = Callable[[], object]


def flow_key(key: str, id: str, description: str, show: bool = True) -> Binding:
    """A key of a flow, bound on the screen: its action `flow('ID')` runs what the flow's `actions()` maps
    its binding id to (a bound method, so a renamed method fails the type check, not a key press)."""
    return Binding(key, f"flow({id!r})", description, show=show, id=id)


def stop_tab(session: DebugSession) -> str:
    """The tab a tutorial's stop at the session's position opens: the pane it points at, else its narration."""
    here = session.current_stop()
    return getattr(here[1], "pane", "") or "narration" if here else "narration"


class Flow(Widget):
    """An invisible child of the debugger screen. The screen binds KEYS and runs the flow's `actions()`
    (attributes down); the flow answers with Say / Busy / Redraw to the screen, OpenSession / Fail to
    the app (messages up)."""

    KEYS: ClassVar[list[Binding]] = []

    def __init__(self, session: DebugSession, **kwargs) -> None:
        super().__init__(**kwargs)
        self.session = session
        self.blocked_by: Message | None = None  # set by the screen: why keys must wait now

    def actions(self) -> dict[str, KeyAction]:
        """What each of KEYS does, by binding id (every key has one: tests/tui/test_bindings.py)."""
        return {}

    @property
    def screen_lang(self) -> str:
        """The language the screen speaks (for the words of a box a flow opens)."""
        return str(getattr(self.screen, "lang", "en"))

    def say(self, said: Message) -> None:
        self.post_message(Say(said))

    def busy(self, reason: Message | None) -> None:
        """Keys wait for `reason` (None: nothing blocks them any more)."""
        self.post_message(Busy(reason))

    def redraw(self, grew: bool = False, breakpoints: bool = False, tab: str | None = None) -> None:
        self.post_message(Redraw(grew, breakpoints, tab))

    # Posted to the app itself, which handles them: bubbling up from here would stop at the screen
    # whenever one of the screen's handlers started the flow (Textual does not bubble a message on
    # past its sender's parent). Safe from any thread.
    def open_session(self, session: DebugSession, said: Message, tab: str | None = None) -> None:
        self.app.post_message(OpenSession(session, said, tab))

    def fail(self, text: str) -> None:
        self.app.post_message(Fail(text))
