"""The breakpoints pane: every breakpoint with its hit count; keys to enable, delete, make temporary, ignore."""

from __future__ import annotations

from rich.text import Text
from textual.binding import Binding
from textual.widgets import Static

from ...debug.breakpoints import BreakpointSet
from ...i18n import say
from ...report.text.literal import literal
from ..chrome import app_language
from ..messages import Redraw


class BreakpointsPane(Static, can_focus=True):
    """Select a breakpoint with the arrows; the keys below act on the selected one."""

    BINDINGS = [
        Binding("up", "select(-1)", "previous breakpoint", show=False, id="breakpoints-select-minus-1"),
        Binding("down", "select(1)", "next breakpoint", show=False, id="breakpoints-select-1"),
        Binding("e,enter", "toggle_enabled", "enable/disable", id="breakpoints-toggle-enabled"),
        Binding("x,delete", "delete", "delete", id="breakpoints-delete"),
        Binding("t", "toggle_temporary", "temporary", id="breakpoints-toggle-temporary"),
        Binding("plus,equals_sign", "ignore(1)", "ignore +1", id="breakpoints-ignore-1"),
        Binding("minus", "ignore(-1)", "ignore -1", id="breakpoints-ignore-minus-1"),
    ]

    def __init__(self, breakpoints: BreakpointSet, **kwargs) -> None:
        super().__init__(**kwargs)
        self.breakpoints = breakpoints
        self.selected = 0

    def on_mount(self) -> None:
        self.show()

    def show(self) -> None:
        items = list(self.breakpoints)
        self.selected = max(0, min(self.selected, len(items) - 1))
        text = Text()
        if not items:
            lang = app_language(self.app)
            text.append(
                say("debugger.bp.none", lang) + "\n"
                "  tool_error · tool=Calculator · iteration=2 · method=plan · line=FILE:N\n"
                '  if kind == "agent_action" and "25" in tool_input\n',
                style="dim",
            )
        for position, bp in enumerate(items):
            chosen = position == self.selected and self.has_focus
            text.append("▶ " if chosen else "  ")
            text.append("● " if bp.enabled else "○ ", style="bold red" if bp.enabled else "dim")
            line = literal(bp.describe(app_language(self.app)), "reverse" if chosen else "" if bp.enabled else "dim")
            text.append_text(line)
            text.append("\n")
        if items:
            text.append("\n" + say("debugger.bp.keys", app_language(self.app)), style="dim")
        if self.breakpoints.warning:
            text.append(f"\n{self.breakpoints.warning}", style="yellow")
        self.update(text)

    def _current(self):
        items = list(self.breakpoints)
        return items[self.selected] if items else None

    def _changed(self) -> None:
        self.show()
        self.post_message(Redraw(breakpoints=True))  # the timeline's and source's markers too

    def action_select(self, step: int) -> None:
        self.selected += step
        self.show()

    def action_toggle_enabled(self) -> None:
        bp = self._current()
        if bp:
            self.breakpoints.update(bp.number, enabled=not bp.enabled)
            self._changed()

    def action_delete(self) -> None:
        bp = self._current()
        if bp:
            self.breakpoints.remove(bp.number)
            self._changed()

    def action_toggle_temporary(self) -> None:
        bp = self._current()
        if bp:
            self.breakpoints.update(bp.number, temporary=not bp.temporary)
            self._changed()

    def action_ignore(self, step: int) -> None:
        bp = self._current()
        if bp:
            self.breakpoints.update(bp.number, ignore=max(0, bp.ignore + step))
            self._changed()

    def on_focus(self) -> None:
        self.show()

    def on_blur(self) -> None:
        self.show()
