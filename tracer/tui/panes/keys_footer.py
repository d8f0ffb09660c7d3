"""The footer: Textual's, with the screen's keys drawn in the debugger's first frame."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.widgets import Footer


class KeysFooter(Footer):
    """Textual's Footer composes no keys until the screen's bindings signal comes, then composes them
    after the next refresh: the first frame had no keys (or came a frame later, bench/bench_startup.py)."""

    def compose(self) -> ComposeResult:
        self._bindings_ready = True  # the screen's keys are known now: focus adds none that are shown
        yield from super().compose()
