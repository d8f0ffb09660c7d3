"""The timeline: one row per event, coloured by kind, bracketed by iteration; only the visible rows are drawn."""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual.binding import Binding
from textual.events import Click
from textual.geometry import Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip

from ...debug.session import DebugSession, UnreadableEvent
from ...report.literal import literal
from ..views.event_summary import KIND_WIDTH, kind_style, summary_text

CURRENT = Style(bgcolor="grey30", bold=True)
MAX_INDENT = 5
INDENT_FROM, PAD_FROM = 70, 40  # pane widths (columns)
SHORT_KIND_WIDTH = 12  # fits all but the longest kinds, which then push their summary along


class EventTimeline(ScrollView, can_focus=True):
    """Rows are computed in render_line from the session, so a million events cost nothing until seen."""

    BINDINGS = [
        Binding("down", "nudge(1)", "next row", show=False, id="timeline-nudge-1"),
        Binding("up", "nudge(-1)", "previous row", show=False, id="timeline-nudge-minus-1"),
        Binding("pagedown", "nudge(10)", "page down", show=False, id="timeline-nudge-10"),
        Binding("pageup", "nudge(-10)", "page up", show=False, id="timeline-nudge-minus-10"),
    ]

    class Picked(Message):
        """The user picked an event in the timeline (arrow keys or a click)."""

        def __init__(self, position: int) -> None:
            super().__init__()
            self.position = position

    def __init__(self, session: DebugSession, **kwargs) -> None:
        super().__init__(**kwargs)
        self.session = session
        self._marks_cache: tuple[tuple[int, int, int], list[bool]] | None = None

    def on_mount(self) -> None:
        self.grow()

    def grow(self) -> None:
        """Call when the number of events changed (a live run) or the index arrived."""
        self.virtual_size = Size(self.size.width, len(self.session))
        self._marks_cache = None
        self.refresh()

    def breakpoints_changed(self) -> None:
        self._marks_cache = None
        self.refresh()

    def follow(self) -> None:
        """Scroll so the current event is visible, centred when it jumped out of view."""
        height = max(self.scrollable_content_region.height, 1)
        position = self.session.position
        if not self.scroll_y <= position < self.scroll_y + height:
            self.scroll_to(y=max(0, position - height // 2), animate=False, immediate=True)
        self.refresh()

    def action_nudge(self, rows: int) -> None:
        self.post_message(self.Picked(self.session.position + rows))

    def on_click(self, event: Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        position = int(self.scroll_y) + offset.y
        if 0 <= position < len(self.session):
            self.post_message(self.Picked(position))

    # -- drawing --------------------------------------------------------------------------------------
    def _marks(self, top: int, height: int) -> list[bool]:
        index = self.session.store.index
        if index is None or not len(self.session.breakpoints):
            return [False] * height
        key = (top, height, len(index))
        if self._marks_cache is None or self._marks_cache[0] != key:
            bottom = min(top + height, len(index))
            marks = self.session.breakpoints.marks(index, self.session.store.resolve_at, top, bottom)
            self._marks_cache = (key, list(marks) + [False] * (height - len(marks)))
        return self._marks_cache[1]

    def render_line(self, y: int) -> Strip:
        top = int(self.scroll_y)
        position = top + y
        width = self.scrollable_content_region.width
        if position >= len(self.session):
            return Strip.blank(width, self.rich_style)
        marked = self._marks(top, max(self.scrollable_content_region.height, y + 1))[y]
        row = self._row(position, marked)
        if position == self.session.position:
            row.stylize(CURRENT)
        segments = list(row.render(self.app.console))
        strip = Strip(segments).crop_extend(0, width, CURRENT if position == self.session.position else None)
        return strip.apply_style(self.rich_style)

    def _row(self, position: int, marked: bool) -> Text:
        session = self.session
        event = session.event(position)
        # Narrower panes first drop the depth indent, then the kind padding, to keep the summary.
        width = self.scrollable_content_region.width
        indent = width >= INDENT_FROM
        pad = KIND_WIDTH if indent else SHORT_KIND_WIDTH if width >= PAD_FROM else 0
        digits = len(str(max(len(session) - 1, 0)))
        row = Text(no_wrap=True, overflow="ellipsis")
        row.append("▶" if position == session.position else " ", style="bold")
        row.append("●" if marked else " ", style="bold red")
        row.append(f"{position:>{digits}}", style="dim")
        row.append_text(self._iteration_cell(position, event))
        if indent:
            # Indent by call depth below _call, so nested calls (the calculator's model) stand out.
            row.append(" " * min(max(len(event.frames) - 2, 0), MAX_INDENT))
        if isinstance(event, UnreadableEvent):
            row.append("unreadable ", style="bold red")
            row.append_text(literal(event.problem))
            return row
        row.append(f"{event.kind:<{pad}} ", style=kind_style(event.kind, event))
        row.append_text(summary_text(event))
        return row

    def _iteration_cell(self, position: int, event) -> Text:
        """┌ on the first event of an iteration, │ inside it, └ on its last: the rounds of the loop."""
        iteration = event.iteration
        before = self._iteration_of(position - 1)
        after = self._iteration_of(position + 1)
        if iteration == 0:
            return Text("    ", style="dim")
        if before != iteration:
            return Text(f" ┌{iteration:<2}", style="bold")
        if after != iteration:
            return Text(" └  ", style="dim")
        return Text(" │  ", style="dim")

    def _iteration_of(self, position: int) -> int | None:
        if not 0 <= position < len(self.session):
            return None
        index = self.session.store.index
        if index is not None and position < len(index):
            return index.iteration(position)
        return self.session.event(position).iteration
