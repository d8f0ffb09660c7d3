"""The timeline filter: F chooses what the timeline shows, W makes the stepping keys keep to it."""

from __future__ import annotations

from textual import work
from textual.worker import get_current_worker

from ...debug.event_filter import EventFilter, FilterSpecError
from ...i18n import Message
from ..screens.ask_screen import AskScreen
from .flow import Flow, KeyAction, flow_key


def _filter_problem(text: str) -> str | None:
    if not text:
        return None  # empty clears the filter
    try:
        EventFilter.parse(text)
    except FilterSpecError as error:
        return str(error)
    return None


class FilterFlow(Flow):
    KEYS = [
        flow_key("F", "filter", "filter"),
        flow_key("W", "step-within-filter", "step within the filter (on/off)", show=False),
    ]

    def actions(self) -> dict[str, KeyAction]:
        return {"filter": self.ask, "step-within-filter": self.toggle_step_within}

    def ask(self) -> None:
        if not self.session.index_ready:
            self.say(Message("debugger.filter_not_ready"))
            return
        current = self.session.view.filter
        self.app.push_screen(
            AskScreen(
                Message("boxes.ask.filter"),
                Message("debugger.filter_help"),
                _filter_problem,
                value=current.text if current else "",
            ),
            self.apply,
        )

    def apply(self, text: str | None) -> None:
        if text is None:
            return
        chosen = EventFilter.parse(text) if text.strip() else None
        if chosen is not None and chosen.reads_events:
            # Off the UI thread: a condition the index cannot decide reads every event, seconds on a
            # million-event trace; the window keeps painting and keys wait (a new filter replaces this one).
            self.busy(Message("debugger.filtering", {"text": text.strip()}))
            self._compute(chosen, len(self.session))
            return
        self.session.view.set(chosen)
        self._applied()

    @work(thread=True, exclusive=True, group="filter")
    def _compute(self, chosen: EventFilter, length: int) -> None:
        worker = get_current_worker()
        shown = self.session.filter_positions(chosen, cancelled=lambda: worker.is_cancelled)
        if shown is not None and not worker.is_cancelled:
            self.app.call_from_thread(self._computed, chosen, shown, length)

    def _computed(self, chosen: EventFilter, shown, length: int) -> None:
        self.busy(None)
        self.session.install_filter(chosen, shown, length)
        self._applied()

    def _applied(self) -> None:
        shown = self.session.shown()
        if shown is None:
            self.say(Message("debugger.filter_cleared"))
        else:
            hidden = len(self.session) - len(shown)
            key = "debugger.filter_showing_within" if self.session.view.step_within else "debugger.filter_showing"
            counts = {"shown": f"{len(shown):,}", "total": f"{len(self.session):,}", "hidden": f"{hidden:,}"}
            self.say(Message(key, counts))
        self.redraw(grew=True)

    def toggle_step_within(self) -> None:
        view = self.session.view
        view.step_within = not view.step_within
        if view.step_within:
            self.say(Message("debugger.within_filter" if view.filter else "debugger.within_no_filter"))
        else:
            self.say(Message("debugger.within_off"))
        self.redraw(grew=True)
