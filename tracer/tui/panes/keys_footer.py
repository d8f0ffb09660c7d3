"""The footer: the screen's shown keys on one line, drawn as one widget, in the debugger's first frame."""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.widget import Widget


class KeysFooter(Widget, can_focus=False):
    """Looks like Textual's Footer and acts like it (a click presses the key), but is one widget that
    renders a line: Textual's composes a FooterKey widget per key, each restyled twice as it mounts,
    and recomposes once the bindings signal comes, which was a third of the first frame's work after
    the imports (bench/bench_startup.py)."""

    DEFAULT_CSS = """
    KeysFooter {
        dock: bottom;
        height: 1;
        background: $footer-background;
        color: $footer-foreground;
    }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._spans: list[tuple[int, int, str]] = []  # (first cell, end cell, key): what a click presses

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, self._bindings_changed)

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)

    def _bindings_changed(self, _screen: object) -> None:
        self.refresh()

    def shown(self) -> list[tuple[Binding, bool]]:
        """The keys the footer shows, in the screen's order: (binding, enabled), one per action."""
        seen: set[str] = set()
        keys = []
        for _node, binding, enabled, _tooltip in self.screen.active_bindings.values():
            if binding.show and binding.action not in seen:
                seen.add(binding.action)
                keys.append((binding, enabled))
        return keys

    def render(self) -> Text:
        key_style = self.app.theme_variables.get("footer-key-foreground", "")
        line = Text(no_wrap=True, overflow="crop")
        self._spans = []
        for binding, enabled in self.shown():
            start = line.cell_len
            line.append(f" {self.app.get_key_display(binding)} ", style=f"bold {key_style}")
            line.append(f"{binding.description} ")
            if not enabled:
                line.stylize("dim", start)
            self._spans.append((start, line.cell_len, binding.key))
        return line

    def on_click(self, event: events.Click) -> None:
        for start, end, key in self._spans:
            if start <= event.x < end:
                self.app.simulate_key(key)
                return
