"""The waterfall: `w` shows the run's calls and waits as bars under the panes (and hides them again)."""

from __future__ import annotations

from ...i18n import Message
from ..panes.waterfall_pane import WaterfallPane
from .flow import Flow, KeyAction, flow_key


class WaterfallFlow(Flow):
    # Not in the footer: at 120 columns it would push `? help` and `q quit` off (`?` lists it).
    KEYS = [flow_key("w", "waterfall", "waterfall (calls and waits on a time axis)", show=False)]

    def actions(self) -> dict[str, KeyAction]:
        return {"waterfall": self.toggle}

    def toggle(self) -> None:
        pane = self.screen.query_one(WaterfallPane)
        pane.display = not pane.display
        if pane.display:
            pane.load()
            pane.focus()
            self.say(Message("debugger.waterfall_shown"))  # its own bottom line names its keys
        else:
            self.screen.query_one("#timeline").focus()
            self.say(Message("debugger.waterfall_hidden"))
