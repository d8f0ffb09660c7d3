"""The tabbed panes under the source: narration (tutorials), variables, prompt, detail and breakpoints."""

from __future__ import annotations

from rich.cells import cell_len
from textual.app import ComposeResult
from textual.widgets import TabbedContent, TabPane

from ...debug.session import DebugSession, UnreadableEvent
from ...i18n import say
from ..views.detail_view import detail_text, run_scores_at
from ..views.narration_view import narration_text
from ..views.prompt_view import prompt_text
from ..views.variables_view import variables_text
from .breakpoints_pane import BreakpointsPane
from .prompt_pane import PromptPane
from .text_pane import TextPane


class InspectorTabs(TabbedContent):
    """Only the tab shown is drawn (on each redraw, and when another tab is picked)."""

    def __init__(self, session: DebugSession, lang: str, **kwargs) -> None:
        super().__init__(initial="narration" if session.stops else "variables", **kwargs)
        self.session, self.lang = session, lang
        self.narration = TextPane(lang=lang, id="narration-text")
        self.variables = TextPane(lang=lang, id="variables-text")
        self.prompt = PromptPane(lang, id="prompt-pane")
        self.detail = TextPane(lang=lang, id="detail-text")
        self.breakpoints = BreakpointsPane(session.breakpoints, id="breakpoints-list")
        self.labels: list[str] = []  # the tabs' names, once composed

    def compose(self) -> ComposeResult:
        panes = [
            ("narration", self.narration),
            ("variables", self.variables),
            ("prompt", self.prompt),
            ("detail", self.detail),
            ("breakpoints", self.breakpoints),
        ]
        shown = panes[0 if self.session.stops else 1 :]  # narration only in tutorials
        self.labels = [say(f"panes.{name}", self.lang) for name, _ in shown]
        for (name, body), label in zip(shown, self.labels, strict=True):
            self.compose_add_child(TabPane(label, body, id=name))
        yield from super().compose()

    def on_resize(self) -> None:
        # A tab's name is never cut: when the names with their usual two spaces between them do not fit
        # (English, a tutorial's five tabs, 80 columns), one space between them (debugger.tcss).
        wanted = sum(cell_len(label) + 2 for label in self.labels)
        self.set_class(wanted > self.size.width, "-tight")

    def show(self, name: str | None = None) -> None:
        """Draw the tab `name` (the one shown when None) from the session."""
        session, name = self.session, self.active if name is None else name
        if name == "variables":
            self.variables.show(variables_text(session, self.lang))
        elif name == "prompt":
            self.prompt.show(*prompt_text(session, self.lang))
        elif name == "detail":
            event = session.event()
            cost = None if isinstance(event, UnreadableEvent) else session.costs.call_at(session.position)
            self.detail.show(detail_text(event, cost, self.lang, run_scores_at(session)))
        elif name == "breakpoints":
            self.breakpoints.show()
        elif name == "narration":
            self.narration.show(narration_text(session, self.lang))

    def on_tabbed_content_tab_activated(self, event: TabbedContent.TabActivated) -> None:
        self.show(event.pane.id or "")
