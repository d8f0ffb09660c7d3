"""The fork edit box: the recorded reply or observation of one call, to be rewritten and run on."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static, TextArea

from ...i18n import say
from ...trace.literal_text import scrub
from ..chrome import app_language

# What the re-run does after the edit, by what answers a later model call whose prompt changed (it now
# holds the edit): the learner must not take an old recorded answer for the model's reaction to it.
# The words are the catalogue's: fork.after, fork.changed.*, fork.choice.*.


class ForkText(TextArea):
    """The edit box; ctrl+a selects all (TextArea's own ctrl+a goes to the start of the line)."""

    BINDINGS = [Binding("ctrl+a", "select_all", "select all", show=False, id="fork-select-all")]


class ForkScreen(ModalScreen[tuple[str, str] | None]):
    """Dismisses with (the new text, what answers a changed prompt: "recording", "stop" or "live"), or
    None on escape. An unchanged text is refused (it would not fork). `model`: the live model the
    debugger was given (--model), which makes "live" a choice."""

    BINDINGS = [
        Binding("ctrl+s", "submit", "fork with this text", id="fork-screen-submit"),
        Binding("ctrl+t", "after", "what answers a later prompt that changed", id="fork-screen-after"),
        Binding("escape", "cancel", "cancel", id="fork-screen-cancel"),
    ]

    def __init__(self, at: int, kind: str, change: str, recorded: str, model: str | None = None) -> None:
        super().__init__()
        self.at, self.kind, self.change = at, kind, change
        self.model = model
        self.choices = ("recording", "stop", "live") if model else ("recording", "stop")
        self.after = self.choices[0]
        # Untrusted text goes into the box with its control characters made visible: the box
        # must never pass an escape sequence to the terminal. What is submitted is what is shown.
        self.recorded = scrub(recorded)
        self.cleaned = self.recorded != recorded

    def compose(self) -> ComposeResult:
        self.lang = app_language(self.app)
        what = say(f"boxes.fork.what.{self.change}", self.lang)
        question = say("boxes.fork.question", self.lang, seq=self.at, kind=self.kind, what=what)
        with Vertical(id="fork"):
            yield Static(Text(question, style="bold"), id="fork-question")
            yield Static(self._after_text(), id="fork-after")
            yield ForkText(self.recorded, soft_wrap=True, id="fork-text")
            yield Static(self._hint(), id="fork-hint")

    def _after_text(self) -> Text:
        # The model's name comes from the user's own --model, but is shown as Text all the same.
        model = self.model or ""
        lang = self.lang
        text = Text(say("boxes.fork.after", lang) + say(f"boxes.fork.changed.{self.after}", lang, model=model))
        text.stylize("italic")
        others = [
            say(f"boxes.fork.choice.{choice}", lang, model=model) for choice in self.choices if choice != self.after
        ]
        text.append("\n" + say("boxes.fork.instead", lang, others=" / ".join(others)), style="dim")
        return text

    def _hint(self) -> Text:
        hint = Text(
            say("boxes.fork.keys", self.lang),
            style="dim",
        )
        if self.cleaned:
            hint.append(
                "\n" + say("boxes.fork.stand_ins", self.lang),
                style="yellow",
            )
        return hint

    def on_mount(self) -> None:
        box = self.query_one(TextArea)
        box.focus()
        box.move_cursor(box.document.end)  # most edits change how a reply ends (the action, the answer)

    def action_submit(self) -> None:
        text = self.query_one(TextArea).text
        if text == self.recorded:
            self.query_one("#fork-hint", Static).update(Text(say("boxes.fork.unchanged", self.lang), style="bold red"))
            return
        self.dismiss((text, self.after))

    def action_after(self) -> None:
        self.after = self.choices[(self.choices.index(self.after) + 1) % len(self.choices)]
        self.query_one("#fork-after", Static).update(self._after_text())

    def action_cancel(self) -> None:
        self.dismiss(None)
