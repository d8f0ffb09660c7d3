"""The playground: one model call's exact prompt in an editor, sent again, the new reply beside the recorded one."""

from __future__ import annotations

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Static, TextArea

from ...i18n import Message, say, verbatim
from ...models.playground import CallRerun, PlaygroundError, RecordedCall, configured_model, rerun_call
from ...report.text.literal import literal
from ...trace.literal_text import scrub
from ..chrome import app_language
from ..panes.text_pane import TextPane


def reply_text(reply: str, diff: list[str] | None = None, lang: str = "en") -> Text:
    """A reply, literally; with `diff`, the changed lines after it in red and green."""
    text = literal(reply or say("boxes.playground.empty", lang))
    if diff:
        text.append("\n\n" + say("boxes.playground.diff", lang) + "\n", style="bold")
        for line in diff[2:]:
            style = "green" if line.startswith("+") else "red" if line.startswith("-") else "dim"
            text.append_text(literal(line + "\n", style=style))
    return text


class PlaygroundScreen(ModalScreen[str | None]):
    """Dismisses with a new reply to fork the run with (`f`), or None (esc)."""

    BINDINGS = [
        Binding("ctrl+s", "send", "send the prompt", id="playground-send"),
        Binding("f", "fork", "fork the run with the new reply", id="playground-fork"),
        Binding("escape", "close", "close", id="playground-close"),
    ]

    def __init__(self, call: RecordedCall, model_spec: str | None = None, base_url: str | None = None) -> None:
        super().__init__()
        self.call, self.model_spec, self.base_url = call, model_spec, base_url
        self.prompt = scrub(call.prompt)  # control characters shown (and sent) as visible stand-ins
        self.rerun: CallRerun | None = None
        self.lang = "en"  # the app's, once mounted

    def compose(self) -> ComposeResult:
        self.lang = app_language(self.app)
        call = self.call
        with Vertical(id="playground"):
            asked = {"seq": call.at, "caller": call.caller, "model": call.model}
            yield Static(literal(say("boxes.playground.question", self.lang, **asked)), id="playground-question")
            yield TextArea(self.prompt, soft_wrap=True, id="playground-prompt")
            with Horizontal(id="playground-replies"):
                yield TextPane(lang=self.lang, id="playground-recorded")  # its "↓ more" hint speaks too
                yield TextPane(lang=self.lang, id="playground-new")
            yield Static(Text(say("boxes.playground.keys", self.lang), style="dim"), id="playground-hint")

    def on_mount(self) -> None:
        recorded = self.query_one("#playground-recorded", TextPane)
        recorded.border_title = say("boxes.playground.recorded", self.lang)
        recorded.show(reply_text(self.call.reply, lang=self.lang))
        new = self.query_one("#playground-new", TextPane)
        new.border_title = say("boxes.playground.new", self.lang)
        new.show(Text(say("boxes.playground.ask_again", self.lang), style="dim"))
        box = self.query_one(TextArea)
        box.focus()
        box.move_cursor(box.document.end)  # a ReAct prompt ends where the model goes on ("Thought:")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "fork":  # `f` types into the editor; it forks once a reply is shown
            return self.rerun is not None and not isinstance(self.focused, TextArea)
        return True

    def say(self, said: Message, style: str = "dim") -> None:
        self.query_one("#playground-hint", Static).update(literal(said.text(self.lang), style=style))

    def action_send(self) -> None:
        prompt = self.query_one(TextArea).text
        unchanged = prompt == self.prompt
        spec = self.model_spec
        if unchanged and spec is None:
            self._show(rerun_call(self.call))
            return
        if spec:
            self.say(Message("boxes.playground.asking", {"model": spec}), "yellow")
        else:
            self.say(Message("boxes.playground.asking_configured"), "yellow")
        self._ask(prompt if not unchanged else self.call.prompt, spec)

    @work(thread=True, exclusive=True, group="playground")
    def _ask(self, prompt: str, spec: str | None) -> None:
        """The model call goes over the network: away from the UI thread."""
        try:
            rerun = rerun_call(self.call, prompt, configured_model(spec, self.base_url))
        except PlaygroundError as error:
            self.app.call_from_thread(self.say, verbatim(str(error)), "bold red")
            return
        self.app.call_from_thread(self._show, rerun)

    def _show(self, rerun: CallRerun) -> None:
        self.rerun = rerun
        diff = rerun.reply_diff()
        pane = self.query_one("#playground-new", TextPane)
        by = say("boxes.playground.replayed", self.lang) if rerun.replayed else rerun.answered_by
        answered = {"by": by, "seconds": f"{rerun.seconds:.2f}"}
        pane.border_title = scrub(say("boxes.playground.new_by", self.lang, **answered))
        pane.show(reply_text(rerun.reply, diff, self.lang))
        pane.focus()  # out of the editor, so `f` forks (tab goes back to the prompt)
        if diff:
            self.say(Message("boxes.playground.differs", {"lines": len(diff) - 2}))
        else:
            self.say(Message("boxes.playground.same"))
        self.refresh_bindings()

    def action_fork(self) -> None:
        if self.rerun is not None and self.rerun.reply == self.call.reply:
            self.say(Message("boxes.playground.nothing_to_fork"), "bold red")
        elif self.rerun is not None:
            self.dismiss(self.rerun.reply)

    def action_close(self) -> None:
        self.dismiss(None)
