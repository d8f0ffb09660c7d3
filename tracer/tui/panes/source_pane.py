"""The source pane: the selected frame's file at its line, titled with where it is; or a stop's narration."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Static

from ...debug.session import DebugSession
from ...debug.source_map import hash_warning, moved_line_warning, read_source, read_user_source
from ...i18n import say, templates
from ...report.text.literal import literal
from ..views.narration_view import narration_text
from .source_view import SourceView
from .text_pane import TextPane


class SourcePane(Vertical):
    """A warning line over the source view. At a tutorial stop whose text points at another pane, the
    stop's narration takes the source's place (that pane is then shown in the tabs below)."""

    def __init__(self, lang: str, **kwargs) -> None:
        super().__init__(**kwargs)
        self.lang = lang
        self.warning = Static(id="source-warning")
        self.view = SourceView(id="source")
        self.stop_text = TextPane(
            lang=lang, scrolled_unfocused=False, id="stop-text"
        )  # the narration, when a stop shows another pane below
        self.stop_pane_at: int | None = None  # the event whose stop last chose the tab: once per arrival

    def compose(self) -> ComposeResult:
        yield self.warning
        yield self.view
        yield self.stop_text

    def show(self, session: DebugSession) -> str | None:
        """Draw the session's place. Returns the pane a stop just arrived at points at, for the tabs to show
        (None otherwise: once shown, the learner may pick another tab, and 5 still brings the narration)."""
        self._show_source(session)
        return self._show_stop(session)

    def _show_source(self, session: DebugSession) -> None:
        frame = session.selected_frame()
        if frame is None or frame.file is None:
            if frame is None:
                unknown = say("panes.no_source_here", self.lang)
            else:
                unknown = say("panes.no_source", self.lang, function=frame.function)
            self.view.show(None, None, {}, unknown)
            self.border_title, self.warning.display = say("panes.source", self.lang), False
            return
        if frame.file.startswith("(") and frame.file.endswith(")"):  # a framework's step: "(openai-agents)"
            framework = getattr(session.store.header, "framework", None) or frame.file[1:-1]
            self.view.show(
                None,
                None,
                {},
                say("panes.source.framework_step", self.lang, function=frame.function, framework=framework),
            )
            self.border_title, self.warning.display = literal(f"{frame.function}() · {framework}"), False
            return
        source = read_user_source(frame.file) if frame.callee else read_source(frame.file)
        said = source.problem.text(self.lang) if source.problem else ""
        self.view.show(source, frame.line, session.breakpoints.lines_in(frame.file), said)
        if frame.callee and session.store.function_frame(session.position) is not None:
            inferred = "panes.source_paused"
        elif frame.callee:
            inferred = "panes.source_callee"
        else:
            inferred = "" if frame.exact else "panes.source_inferred"
        inferred = f" · {say(inferred, self.lang)}" if inferred else ""
        # A Text, not a str: Textual reads a str title as markup, and these names come from the trace.
        # The method first: a narrow pane cuts the end of the title, and the path matters least.
        self.border_title = literal(f"{frame.function}() · {frame.file}:{frame.line}{inferred}")
        line = frame.line
        problem = hash_warning(source, session.store.header) or (
            moved_line_warning(source, frame.function, line) if frame.exact and not frame.callee and line else None
        )
        self.warning.update(literal(f"⚠ {problem.text(self.lang)}" if problem else ""))
        self.warning.display = problem is not None

    def _show_stop(self, session: DebugSession) -> str | None:
        current = session.current_stop()
        stop = current[1] if current and current[1].seq == session.position else None
        # Stops come from the tutorials or from open_debugger's callers: only a tutorial's has a pane.
        pane = getattr(stop, "pane", "") if stop is not None else ""
        self.view.display = not pane
        self.stop_text.display = bool(pane)
        self.set_class(bool(pane), "narrating")  # sized to the narration, up to a cap (debugger.tcss)
        if not pane:
            self.stop_pane_at = None
            return None
        self.stop_text.show(narration_text(session, self.lang))
        below = f"panes.narration_above.{pane}"
        self.border_title = literal(say(below if below in templates() else "panes.narration", self.lang))
        if self.stop_pane_at == session.position:
            return None
        self.stop_pane_at = session.position
        return pane
