"""The footer: Textual's, with the screen's keys drawn in the debugger's first frame, the ones that matter first."""

from __future__ import annotations

from textual import events
from textual.app import ComposeResult
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

from ..chrome import key_name, localise

# What a learner needs on any terminal: the motions, the tutorial's next stop, help and quit. The
# rest follows and is what a narrow terminal cuts (help lists every key).
FIRST = ("step-forward", "next-forward", "out-forward", "continue-forward", "next-stop", "help", "app-quit")
COMPACT_BELOW = 100  # columns: narrower terminals get the footer without padding around each key


class KeysFooter(Footer):
    """Textual's Footer composes no keys until the screen's bindings signal comes, then composes them
    after the next refresh: the first frame had no keys (or came a frame later, bench/bench_startup.py)."""

    def compose(self) -> ComposeResult:
        self._bindings_ready = True  # the screen's keys are known now: focus adds none that are shown
        shown = [(b, enabled, tooltip) for (_, b, enabled, tooltip) in self.screen.active_bindings.values() if b.show]
        shown.sort(key=lambda item: item[0].id not in FIRST)  # stable: the rest keep the screen's order
        lang = getattr(self.screen, "lang", "en")  # the app's own keys (q) are not the screen's to relabel
        for binding, enabled, tooltip in shown:
            yield FooterKey(
                binding.key,
                key_name(binding.key, lang) or self.app.get_key_display(binding),
                localise(binding.description, lang),
                binding.action,
                disabled=not enabled,
                tooltip=tooltip,
            ).data_bind(compact=Footer.compact)

    def on_resize(self, event: events.Resize) -> None:
        self.compact = event.size.width < COMPACT_BELOW
