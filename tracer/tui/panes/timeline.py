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

from ...debug.event_filter import FilteredView, describe
from ...debug.session import DebugSession, UnreadableEvent
from ...i18n import Message as Said
from ...i18n import say
from ...report.text.literal import literal
from ..views.event_summary import KIND_WIDTH, kind_style, summary_text
from ..views.lanes import LaneMap
from ..views.mcp_view import MCP_STYLE, TOOL_KINDS, mcp_tool_names
from ..views.word_cut import fit

CURRENT = Style(bgcolor="grey30", bold=True)
MAX_INDENT = 5
# Pane widths (columns): 37 is the timeline's at 120x40 (its scrollbar shown), beside a Source pane
# wide enough for the loop file's 72-column lines; the elapsed time stays, the kind padding goes.
INDENT_FROM, PAD_FROM, TIME_FROM, NARROW_FROM = 70, 42, 36, 60
SHORT_KIND_WIDTH = 12  # fits all but the longest kinds, which then push their summary along
DRAWN_ROWS_KEPT = 1_000  # rows drawn since the events, breakpoints or filter last changed (see render_line)


def time_cell(event, width: int, digits: int = 5) -> Text:
    """The elapsed time `t` since chain_start (waits and slow calls show as jumps), on wide enough panes,
    in `digits` columns (the run's last time's: a run of seconds does not keep a column for minutes)."""
    if width < TIME_FROM:
        return Text()
    t = getattr(event, "t", None)
    return Text(f"{t:>{digits}.2f}s " if t is not None and t < 100 else f"{t or 0:>{digits}.0f}s ", style="dim")


def time_digits(last_t: float | None) -> int:
    """Columns for the times of a run whose last event is at `last_t`: 4 for a run of seconds (0.03),
    5 past ten seconds (12.50, and 99.99 before 1234 in a longer run), more for a run of hours."""
    if last_t is None or last_t < 0 or last_t >= 10:
        return max(5, len(f"{last_t or 0:.0f}"))
    return 4


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

    def __init__(self, session: DebugSession, lang: str = "en", **kwargs) -> None:
        super().__init__(**kwargs)
        self.session, self.lang = session, lang
        self._marks_cache: tuple[tuple[int, int, int], list[bool]] | None = None
        self._lanes = LaneMap(session.event, len(session))
        self._mcp_tools: frozenset[str] | None = None  # the run's tools from MCP servers, read from chain_start
        self._drawn: dict[tuple, Strip] = {}
        self.hidden_from: int | None = None  # rows from here on show only their number (predict)
        # The iteration and time columns' digits: set from the run's last event by grow().
        self._round_digits, self._time_digits = 2, 5

    def on_mount(self) -> None:
        self.grow()

    # -- rows: every event, or only those the filter shows ---------------------------------------
    def _rows(self) -> int:
        shown = self.session.shown()
        return len(self.session) if shown is None else len(shown)

    def _position_at(self, row: int) -> int | None:
        shown = self.session.shown()
        if shown is None:
            return row if 0 <= row < len(self.session) else None
        return int(shown[row]) if 0 <= row < len(shown) else None

    def _row_of(self, position: int) -> int:
        shown = self.session.shown()
        return position if shown is None else FilteredView.row_of(shown, position)

    def grow(self) -> None:
        """Call when the number of events changed (a live run), the index arrived or the filter changed."""
        self.virtual_size = Size(self.size.width, self._rows())
        self._marks_cache = None
        self._drawn.clear()
        self.border_subtitle = literal(self._filter_note())
        self._lanes = LaneMap(self.session.event, len(self.session))  # a live run's stretch may have grown
        last = self._iteration_of(len(self.session) - 1)
        self._round_digits = len(str(max(last or 0, 0)))
        self._time_digits = (
            time_digits(getattr(self.session.event(len(self.session) - 1), "t", None)) if len(self.session) else 5
        )
        self.refresh()

    def _filter_note(self) -> str:
        session = self.session
        shown = session.shown()
        note = describe(
            shown, len(session), session.view.filter, session.view.step_within, not session.is_shown(session.position)
        )
        if note is None and session.store.warning:
            note = Said("panes.cut_off")
        return note.text(self.lang) if note is not None else ""

    def hide_from(self, position: int | None) -> None:
        """Keep the events from `position` on out of sight (None: show them all): with predict on, the
        row of an event a question is about would give the answer away."""
        if position != self.hidden_from:
            self.hidden_from = position
            self._drawn.clear()
            self.refresh()

    def breakpoints_changed(self) -> None:
        self._marks_cache = None
        self._drawn.clear()
        self.refresh()

    def follow(self) -> None:
        """Scroll so the current event is visible, centred when it jumped out of view."""
        height = max(self.scrollable_content_region.height, 1)
        row = self._row_of(self.session.position)
        if not self.scroll_y <= row < self.scroll_y + height:
            self.scroll_to(y=max(0, row - height // 2), animate=False, immediate=True)
        if self.session.view.filter is not None:
            self.border_subtitle = literal(self._filter_note())
        self.refresh()

    def action_nudge(self, rows: int) -> None:
        if self.session.shown() is None:
            self.post_message(self.Picked(self.session.position + rows))
            return
        row = self._row_of(self.session.position)
        # On a hidden event, "down" goes to the shown one below it (its row), "up" to the one above.
        target = row + rows - (1 if rows > 0 and not self.session.is_shown(self.session.position) else 0)
        position = self._position_at(max(0, min(target, self._rows() - 1)))
        if position is not None:
            self.post_message(self.Picked(position))

    def on_click(self, event: Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        position = self._position_at(int(self.scroll_y) + offset.y)
        if position is not None:
            self.post_message(self.Picked(position))

    # -- drawing --------------------------------------------------------------------------------------
    def _marks(self, top: int, height: int) -> list[bool]:
        index = self.session.store.index
        if index is None or not len(self.session.breakpoints):
            return [False] * height
        if self.session.shown() is not None:  # rows are not contiguous events: mark each one
            marks = self.session.breakpoints.marks
            positions = [self._position_at(top + y) for y in range(height)]
            return [p is not None and bool(marks(index, self.session.store.resolve_at, p, p + 1)[0]) for p in positions]
        key = (top, height, len(index))
        if self._marks_cache is None or self._marks_cache[0] != key:
            bottom = min(top + height, len(index))
            marks = self.session.breakpoints.marks(index, self.session.store.resolve_at, top, bottom)
            self._marks_cache = (key, list(marks) + [False] * (height - len(marks)))
        return self._marks_cache[1]

    def render_line(self, y: int) -> Strip:
        top = int(self.scroll_y)
        position = self._position_at(top + y)
        width = self.scrollable_content_region.width
        if position is None:
            return Strip.blank(width, self.rich_style)
        marked = self._marks(top, max(self.scrollable_content_region.height, y + 1))[y]
        current = position == self.session.position
        # Every key redraws the pane, and most rows are as they were: a row is rendered once per
        # look (position, current, mark, width, style), until grow() or breakpoints_changed().
        key = (position, current, marked, width, self.rich_style)
        strip = self._drawn.get(key)
        if strip is None:
            row = self._row(position, marked, width)
            if current:
                row.stylize(CURRENT)
            segments = list(row.render(self.app.console))
            strip = Strip(segments).crop_extend(0, width, CURRENT if current else None).apply_style(self.rich_style)
            if len(self._drawn) >= DRAWN_ROWS_KEPT:
                self._drawn.clear()
            self._drawn[key] = strip
        return strip

    def _row(self, position: int, marked: bool, width: int) -> Text:
        session = self.session
        event = session.event(position)
        # Narrower panes first drop the depth indent, then the kind padding, to keep the summary.
        indent = width >= INDENT_FROM
        pad = KIND_WIDTH if indent else SHORT_KIND_WIDTH if width >= PAD_FROM else 0
        digits = len(str(max(len(session) - 1, 0)))
        row = Text(no_wrap=True, overflow="ellipsis")
        # One mark column: ▶ the current event (red when a breakpoint matches it too), ● a match.
        if position == session.position:
            row.append("▶", style="bold red" if marked else "bold")
        else:
            row.append("●" if marked else " ", style="bold red")
        row.append(f"{position:>{digits}}", style="dim")
        if self.hidden_from is not None and position >= self.hidden_from:
            return row.append("     ?", style="dim")
        row.append_text(self._iteration_cell(position, event, self._row_of(position)))
        # Concurrent tool calls, one column per tool_call_id; the kind still follows on a narrow pane.
        row.append_text(self._lanes.cell(position, event, narrow=width < NARROW_FROM))
        row.append_text(time_cell(event, width, self._time_digits))
        if indent:
            # Indent by call depth below _call, so nested calls (the calculator's model) stand out.
            row.append(" " * min(max(len(event.frames) - 2, 0), MAX_INDENT))
        if isinstance(event, UnreadableEvent):
            row.append(say("panes.unreadable", self.lang) + " ", style="bold red")
            row.append_text(literal(event.problem))
            return fit(row, width)
        row.append(f"{event.kind:<{pad}} ", style=kind_style(event.kind, event))
        row.append_text(self._lanes.label(position, event, narrow=width < NARROW_FROM))
        if event.kind in TOOL_KINDS and getattr(event, "tool", None) in self._mcp_tool_names():
            row.append("MCP ", style=MCP_STYLE)  # this tool runs on a server, its calls are JSON-RPC
        start = len(row.plain)
        row.append_text(summary_text(event, narrow=width < NARROW_FROM, lang=self.lang))
        return fit(row, width, start)  # a summary too long ends on a word's edge, not half a word

    def _mcp_tool_names(self) -> frozenset[str]:
        if self._mcp_tools is None:
            if not len(self.session):
                return frozenset()  # a live run before its chain_start: ask again next row
            self._mcp_tools = mcp_tool_names(self.session.event(0))
        return self._mcp_tools

    def _iteration_cell(self, position: int, event, row: int) -> Text:
        """┌ on the first event of an iteration, │ inside it, └ on its last: the rounds of the loop."""
        iteration = event.iteration
        before = self._iteration_of(self._position_at(row - 1))
        after = self._iteration_of(self._position_at(row + 1))
        # As many digits as the run's last round has, and a space: round 14 reads "┌14 llm_start",
        # never "┌14llm_start"; a run of fewer than 10 rounds gives that column to the summary.
        digits = self._round_digits
        if iteration == 0:
            return Text(" " * (digits + 3), style="dim")
        if before != iteration:
            return Text(f" ┌{iteration:<{digits}} ", style="bold")
        return Text(f" {'└' if after != iteration else '│'}{' ' * digits} ", style="dim")

    def _iteration_of(self, position: int | None) -> int | None:
        if position is None or not 0 <= position < len(self.session):
            return None
        index = self.session.store.index
        if index is not None and position < len(index):
            return index.iteration(position)
        return self.session.event(position).iteration
