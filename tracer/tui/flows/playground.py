"""The playground key: at a model call, `e` edits its exact prompt and asks again (see PlaygroundScreen)."""

from __future__ import annotations

from ...i18n import Message
from ..messages import ForkWith
from .flow import Flow, KeyAction, flow_key


class PlaygroundFlow(Flow):
    KEYS = [flow_key("e", "edit-prompt", "edit this model call's prompt and ask again", show=False)]

    def actions(self) -> dict[str, KeyAction]:
        return {"edit-prompt": self.open}

    def open(self) -> None:
        # With e, not with the debugger: the playground and its screen load the models and the replay.
        from ...models.playground import PlaygroundError, recorded_call
        from ..screens.playground_screen import PlaygroundScreen

        session = self.session
        if session.store.live:
            self.say(Message("debugger.playground_needs_trace"))
            return
        position = session.position
        try:
            # Only the events up to the reply are decoded, not the whole trace.
            events = [session.store.event(p) for p in range(min(position + 400, len(session)))]
            call = recorded_call(events, position)
        except PlaygroundError as error:
            self.say(Message("debugger.playground_where", {"problem": str(error)}))
            return
        spec, base_url = session.options.call_model
        self.app.push_screen(
            PlaygroundScreen(call, spec, base_url), lambda reply: self._after_playground(call.at, reply)
        )

    def _after_playground(self, at: int, reply: str | None) -> None:
        if reply is None:
            self.say(Message("debugger.playground_closed"))
            return
        self.post_message(ForkWith(at, reply))
