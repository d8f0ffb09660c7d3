"""The status line: where we are, why we stopped, and any warning about the trace."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from ...debug.session import DebugSession


class StatusLine(Static):
    def show(self, session: DebugSession, busy: str = "") -> None:
        event = session.event()
        text = Text(no_wrap=True, overflow="ellipsis")
        total = len(session)
        live = "" if session.store.complete else " so far (live)"
        text.append(f" event {session.position} of {total}{live} ", style="bold reverse")
        text.append(f" iteration {event.iteration} · {event.kind} │ ", style="bold")
        text.append(busy or session.message, style="yellow" if busy else "")
        self.update(text)
