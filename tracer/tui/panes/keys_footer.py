"""The footer: the screen's shown keys on one line, drawn as one widget, in the debugger's first frame."""

from __future__ import annotations

from rich.cells import cell_len
from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.widget import Widget

from ..chrome import binding_words, key_name

# What a learner needs on any terminal: the motions, the tutorial's next stop, help and quit. The
# rest follows and is what a narrow terminal cuts (help lists every key).
# Predict comes after help and quit: a long `s step into quote()` must not push those two off 80 columns.
FIRST = ("step-forward", "next-forward", "out-forward", "continue-forward", "next-stop", "help", "app-quit", "predict")
COMPACT_BELOW = 100  # columns: narrower terminals get the footer without padding around each key


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
        """The keys the footer shows, FIRST's first, then in the screen's order: (binding, enabled), one per action."""
        seen: set[str] = set()
        keys = []
        for _node, binding, enabled, _tooltip in self.screen.active_bindings.values():
            if binding.show and binding.action not in seen:
                seen.add(binding.action)
                keys.append((binding, enabled))
        rank = {key: index for index, key in enumerate(FIRST)}
        keys.sort(key=lambda item: rank.get(item[0].id or "", len(FIRST)))  # stable: the rest keep the screen's order
        return keys

    def render(self) -> Text:
        key_style = self.app.theme_variables.get("footer-key-foreground", "")
        line = Text(no_wrap=True, overflow="crop")
        self._spans = []
        lang = getattr(self.screen, "lang", "en")  # the app's own keys (q) are not the screen's to relabel
        compact = 0 < self.size.width < COMPACT_BELOW
        for binding, enabled in self.shown():
            start = line.cell_len
            key = key_name(binding.key, lang) or self.app.get_key_display(binding)
            description = binding_words(binding, lang)
            # " s step  n next " when there is room, " s step n next" when there is not
            shown_key, shown_description = (
                (f" {key}", f" {description}") if compact else (f" {key} ", f"{description} ")
            )
            if self.size.width and start + cell_len(shown_key + shown_description) > self.size.width:
                break  # a key that does not fit whole is left out, not cut ("F" alone); ? lists them all
            line.append(shown_key, style=f"bold {key_style}")
            line.append(shown_description)
            if not enabled:
                line.stylize("dim", start)
            self._spans.append((start, line.cell_len, binding.key))
        return line

    def on_click(self, event: events.Click) -> None:
        for start, end, key in self._spans:
            if start <= event.x < end:
                self.app.simulate_key(key)
                return
