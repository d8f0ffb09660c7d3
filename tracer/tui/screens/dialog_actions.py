"""The debugger's actions that ask something first: go to an event, search, add a breakpoint, help."""

from __future__ import annotations

from ...debug.breakpoints import SPEC_HELP, BreakpointSpecError, parse_spec
from .ask_screen import AskScreen
from .help_screen import HelpScreen


def _breakpoint_problem(spec: str) -> str | None:
    try:
        parse_spec(spec)
    except BreakpointSpecError as error:
        return str(error)
    return None


class DialogActions:
    """Mixed into DebuggerScreen, which provides `session`, `app`, `refresh_panes` and `breakpoints_changed`."""

    def action_goto_number(self) -> None:
        last = len(self.session) - 1

        def problem(answer: str) -> str | None:
            if not answer.isdigit() or int(answer) > last:
                return f"type an event number from 0 to {last}"
            return None

        def go(answer: str | None) -> None:
            if answer is not None:
                self.session.goto(int(answer))
                self.session.message = f"went to event {self.session.position}"
                self.refresh_panes()

        self.app.push_screen(AskScreen("Go to event number", f"0 … {last}", problem), go)

    def action_search(self) -> None:
        def found(answer: str | None) -> None:
            if answer:
                self.run_search(answer, 1)

        self.app.push_screen(AskScreen("Search the events for", "smart case: capitals make it exact · "
                                       "] and [ repeat it", value=self.session.search_text), found)

    def action_search_again(self, direction: int) -> None:
        if not self.session.search_text:
            self.session.message = "no search yet: press / first"
            self.refresh_panes()
            return
        self.run_search(self.session.search_text, direction)

    def run_search(self, text: str, direction: int) -> None:
        position = self.session.search(text, direction)
        if position is None:
            self.session.message = f"no event contains {text!r}"
        else:
            self.session.goto(position)
            self.session.message = f"{text!r} found in event {position} (] next, [ previous)"
        self.refresh_panes()

    def action_add_breakpoint(self) -> None:
        def add(answer: str | None) -> None:
            if answer:
                bp = self.session.breakpoints.add(answer)
                self.session.message = f"breakpoint #{bp.number} {bp.spec}"
                self.breakpoints_changed()

        self.app.push_screen(AskScreen("Add a breakpoint", SPEC_HELP, _breakpoint_problem), add)

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen(self.help_sections()))
