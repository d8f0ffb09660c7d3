"""Keys that ask something first: go to an event, search, add a breakpoint; and b on the current line."""

from __future__ import annotations

from functools import partial

from textual import work
from textual.worker import get_current_worker

from ...debug.breakpoint_spec import BreakpointSpecError, parse_spec
from ...i18n import Message
from ..screens.ask_screen import AskScreen
from .flow import Flow, KeyAction, flow_key


def _unreachable(bp) -> Message | None:
    """Why no event can reach a user-file line breakpoint (None when it can, or when that is not known yet)."""
    return bp.reach.problem if bp.reach is not None else None


def _breakpoint_problem(spec: str) -> str | None:
    try:
        parse_spec(spec)
    except BreakpointSpecError as error:
        return str(error)
    return None


class AskingFlow(Flow):
    KEYS = [
        flow_key("colon", "goto-event", "go to event number", show=False),
        flow_key("slash", "search", "search"),
        flow_key("right_square_bracket", "next-match", "next match", show=False),
        flow_key("left_square_bracket", "previous-match", "previous match", show=False),
        flow_key("b", "toggle-breakpoint", "breakpoint"),
        flow_key("B", "add-breakpoint", "add breakpoint (kind, tool, condition …)", show=False),
    ]

    def actions(self) -> dict[str, KeyAction]:
        return {
            "goto-event": self.goto_number,
            "search": self.search,
            "next-match": partial(self.search_again, 1),
            "previous-match": partial(self.search_again, -1),
            "toggle-breakpoint": self.toggle_breakpoint,
            "add-breakpoint": self.add_breakpoint,
        }

    def goto_number(self) -> None:
        last = len(self.session) - 1

        def problem(answer: str) -> Message | None:
            if answer.isdigit() and int(answer) <= last:
                return None
            return Message("debugger.type_event_number", {"last": last})

        def go(answer: str | None) -> None:
            if answer is not None:
                self.session.goto(int(answer))
                self.say(Message("debugger.went_to", {"seq": self.session.position}))
                self.redraw()

        self.app.push_screen(AskScreen(Message("boxes.ask.goto"), f"0 … {last}", problem), go)

    def search(self) -> None:
        def found(answer: str | None) -> None:
            if answer:
                self.run_search(answer, 1)

        self.app.push_screen(
            AskScreen(
                Message("boxes.ask.search"),
                Message("boxes.ask.search_hint"),
                value=self.session.search_text,
            ),
            found,
        )

    def search_again(self, direction: int) -> None:
        if not self.session.search_text:
            self.say(Message("debugger.no_search"))
        else:
            self.run_search(self.session.search_text, direction)
        self.redraw()

    def run_search(self, text: str, direction: int) -> None:
        # Off the UI thread: on a million-event trace a search reads every line for seconds,
        # and the window must keep painting (and a new search replaces this one).
        self.busy(Message("debugger.searching", {"text": repr(text)}))
        self._search(text, direction)

    @work(thread=True, exclusive=True, group="search")
    def _search(self, text: str, direction: int) -> None:
        worker = get_current_worker()
        position = self.session.search(text, direction, cancelled=lambda: worker.is_cancelled)
        if not worker.is_cancelled:
            self.app.call_from_thread(self._searched, text, position)

    def _searched(self, text: str, position: int | None) -> None:
        self.busy(None)
        if position is None:
            self.say(Message("debugger.not_found", {"text": repr(text)}))
        else:
            self.session.goto(position)
            self.say(Message("debugger.found", {"text": repr(text), "seq": position}))
        self.redraw()

    def add_breakpoint(self) -> None:
        def add(answer: str | None) -> None:
            if answer:
                bp = self.session.breakpoints.add(answer)
                self.say(
                    Message("debugger.breakpoint_added", {"number": bp.number, "spec": bp.spec}).then(_unreachable(bp))
                )
                self.redraw(breakpoints=True)

        self.app.push_screen(
            AskScreen(Message("boxes.ask.breakpoint"), Message("debugger.spec_help"), _breakpoint_problem), add
        )

    def toggle_breakpoint(self, file: str | None = None, line: int | None = None) -> None:
        """On `file`:`line`, or on the selected frame's line when none is given."""
        if file is None or line is None:
            frame = self.session.selected_frame()
            if frame is None or not frame.file or not frame.line:
                self.say(Message("debugger.no_line_here"))
                self.redraw()
                return
            file, line = frame.file, frame.line
        added = self.session.breakpoints.toggle_line(file, line)
        where = f"{file}:{line}"
        self.say(
            Message("debugger.line_breakpoint_set", {"number": added.number, "where": where}).then(_unreachable(added))
            if added
            else Message("debugger.line_breakpoint_removed", {"where": where})
        )
        self.redraw(breakpoints=True)
