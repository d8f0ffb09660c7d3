"""The fork edit box: the recorded reply or observation of one call, to be rewritten and run on."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static, TextArea

from ...trace.literal_text import scrub
from ..chrome import app_language, localise

WHAT = {"reply": "the model's reply", "observation": "the tool's observation"}
# What the re-run does after the edit: the learner must not expect a live model to react to it.
AFTER = (
    "After this event the run re-executes, and every later model reply is replayed from the recording, "
    "in order: a changed observation can still end in the old answer. A changed reply changes what the "
    "executor does next (another tool, a parse error, the final answer)."
)


class ForkText(TextArea):
    """The edit box; ctrl+a selects all (TextArea's own ctrl+a goes to the start of the line)."""

    BINDINGS = [Binding("ctrl+a", "select_all", "select all", show=False, id="fork-select-all")]


class ForkScreen(ModalScreen[str | None]):
    """Dismisses with the new text, or None on escape. An unchanged text is refused (it would not fork)."""

    BINDINGS = [
        Binding("ctrl+s", "submit", "fork with this text", id="fork-screen-submit"),
        Binding("escape", "cancel", "cancel", id="fork-screen-cancel"),
    ]

    def __init__(self, at: int, kind: str, change: str, recorded: str) -> None:
        super().__init__()
        self.at, self.kind, self.change = at, kind, change
        # Untrusted text goes into the box with its control characters made visible: the box
        # must never pass an escape sequence to the terminal. What is submitted is what is shown.
        self.recorded = scrub(recorded)
        self.cleaned = self.recorded != recorded

    def compose(self) -> ComposeResult:
        self.lang = app_language(self.app)
        question = f"Fork at event {self.at} ({self.kind}): replace {WHAT[self.change]}"
        with Vertical(id="fork"):
            yield Static(Text(localise(question, self.lang), style="bold"), id="fork-question")
            yield Static(Text(localise(AFTER, self.lang), style="italic"), id="fork-after")
            yield ForkText(self.recorded, soft_wrap=True, id="fork-text")
            yield Static(self._hint(), id="fork-hint")

    def _hint(self) -> Text:
        hint = Text(
            localise(
                "ctrl+s: re-run the trace with this text, open the fork · ctrl+a: select all · esc: cancel", self.lang
            ),
            style="dim",
        )
        if self.cleaned:
            hint.append(
                "\n"
                + localise(
                    "control characters of the recording are shown, and sent, as visible stand-ins (␛, \\xNN)",
                    self.lang,
                ),
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
            self.query_one("#fork-hint", Static).update(
                Text(localise("the text is unchanged: edit it first (esc cancels)", self.lang), style="bold red")
            )
            return
        self.dismiss(text)

    def action_cancel(self) -> None:
        self.dismiss(None)
