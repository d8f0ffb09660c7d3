"""The source pane: the executor file of the selected frame, its line highlighted, breakpoint lines marked."""

from __future__ import annotations

import threading

from rich.style import Style
from rich.text import Text
from textual.binding import Binding
from textual.geometry import Region, Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip

from ...debug.source_map import SourceFile

CURRENT = Style(bgcolor="dark_green", bold=True)
CURSOR = Style(bgcolor="grey30")
DRAWN_LINES_KEPT = 1_000  # lines drawn since the source last changed (see render_line)


# Highlighted files, computed in a worker thread after the first frame: pygments takes a while for
# agent_executor.py, which the first frame shows plain instead of waiting for it.
_HIGHLIGHTED: dict[SourceFile, tuple[Text, ...]] = {}
_HIGHLIGHTED_MAX = 32
_HIGHLIGHTING = threading.Lock()


def is_highlighted(source: SourceFile) -> bool:
    return source in _HIGHLIGHTED


def highlighted(source: SourceFile) -> tuple[Text, ...]:
    """The file's lines with Python syntax colours (computed once per file; slow the first time)."""
    found = _HIGHLIGHTED.get(source)
    if found is not None:
        return found
    from rich.syntax import Syntax  # pygments loads with it: not on the first frame's path

    with _HIGHLIGHTING:  # two panes asking at once highlight the file once
        if source not in _HIGHLIGHTED:
            code = "\n".join(source.lines)
            text = Syntax(code, "python", theme="monokai").highlight(code)
            if len(_HIGHLIGHTED) >= _HIGHLIGHTED_MAX:
                _HIGHLIGHTED.pop(next(iter(_HIGHLIGHTED)))
            _HIGHLIGHTED[source] = tuple(text.split("\n", allow_blank=True))
        return _HIGHLIGHTED[source]


class SourceView(ScrollView, can_focus=True):
    """Line API: only visible lines are drawn. Focus it to move a cursor and toggle breakpoints with b."""

    BINDINGS = [
        Binding("down", "cursor(1)", "cursor down", show=False, id="source-cursor-1"),
        Binding("up", "cursor(-1)", "cursor up", show=False, id="source-cursor-minus-1"),
        Binding("pagedown", "cursor(10)", "cursor page down", show=False, id="source-cursor-10"),
        Binding("pageup", "cursor(-10)", "cursor page up", show=False, id="source-cursor-minus-10"),
        Binding(
            "b", "toggle_here", "toggle a breakpoint on the cursor line", show=False, id="toggle-breakpoint-at-cursor"
        ),
    ]

    class ToggleLine(Message):
        """Toggle a line breakpoint on `file`:`line` (the cursor line, b pressed in this pane)."""

        def __init__(self, file: str, line: int) -> None:
            super().__init__()
            self.file, self.line = file, line

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.source: SourceFile | None = None
        self.current_line: int | None = None
        self.cursor_line = 1
        self.breakpoint_lines: dict[int, bool] = {}
        self.message = ""
        self._unsized = True  # not drawn with a height yet (see render_lines)
        self._drawn: dict[tuple, Strip] = {}

    def show(
        self, source: SourceFile | None, line: int | None, breakpoint_lines: dict[int, bool], message: str = ""
    ) -> None:
        """Display `source` with `line` highlighted; the cursor jumps to that line."""
        changed = source != self.source or line != self.current_line
        if source != self.source:
            self._drawn.clear()
        self.source, self.current_line, self.breakpoint_lines = source, line, breakpoint_lines
        self.message = message
        count = len(source.lines) if source and source.lines else 1
        self.virtual_size = Size(self.size.width, count)
        if changed and line:
            self.cursor_line = line
            # Before the first layout the pane has no height yet: centre once it has.
            self.call_after_refresh(self._centre, line)
        if source is not None and source.lines and source not in _HIGHLIGHTED:
            self.call_after_refresh(self._highlight_in_background, source)  # plain lines until then
        self.refresh()

    def _highlight_in_background(self, source: SourceFile) -> None:
        self.run_worker(
            lambda: self._highlight(source),
            thread=True,
            group="highlight",
            description="syntax highlighting",
            exit_on_error=False,
        )

    def _highlight(self, source: SourceFile) -> None:
        highlighted(source)
        try:
            self.app.call_from_thread(self.refresh)
        except RuntimeError:  # the app closed meanwhile: nothing left to redraw
            pass

    def action_toggle_here(self) -> None:
        if self.source is not None and self.source.lines:
            self.post_message(self.ToggleLine(self.source.path, self.cursor_line))

    def _centre(self, line: int) -> None:
        height = self.scrollable_content_region.height
        if not height:  # hidden (a tutorial stop's narration has its place): centre at the next paint with a height
            self._unsized = True
            return
        margin = height // 4  # a line near the edge is centred too: it was shown one row above the fold
        if not self.scroll_y + margin < line <= self.scroll_y + height - margin:
            # force: a file just loaded in place of a shorter one has no scrollbar until the next layout, and
            # Textual ignores a scroll without one (a framework's 3,000-line file opened at its top).
            self.scroll_to(y=max(0, line - 1 - height // 2), animate=False, immediate=True, force=True)

    def render_lines(self, crop: Region) -> list[Strip]:
        # The first paint comes before the pane hears of its height (on_resize, call_after_refresh):
        # centre the line now, or the first frame shows the top of the file for a moment.
        if self._unsized and self.scrollable_content_region.height:
            self._unsized = False
            if self.source is not None and self.source.lines:
                self._centre(self.cursor_line)
        return super().render_lines(crop)

    def action_cursor(self, lines: int) -> None:
        if self.source and self.source.lines:
            self.cursor_line = max(1, min(self.cursor_line + lines, len(self.source.lines)))
            self._centre(self.cursor_line)
            self.refresh()

    def render_line(self, y: int) -> Strip:
        width = self.scrollable_content_region.width
        number = int(self.scroll_y) + y + 1
        if self.source is None or not self.source.lines:  # why there is no source: wrapped, never cut
            rows: list[Text] = list(Text(self.message, style="italic").wrap(self.app.console, max(width, 1)))
            text = rows[y] if y < len(rows) else Text("")
            return Strip(list(text.render(self.app.console))).crop_extend(0, width, None)
        if number > len(self.source.lines):
            return Strip.blank(width, self.rich_style)
        lines = _HIGHLIGHTED.get(self.source)
        style = (
            CURRENT
            if number == self.current_line
            else CURSOR
            if (self.has_focus and number == self.cursor_line)
            else None
        )
        # Every key redraws the pane, and most lines look as they did: each look of a line is
        # rendered once (its mark, highlight, colours and width), until the file changes.
        key = (number, style, self.breakpoint_lines.get(number), lines is not None, width, self.rich_style)
        strip = self._drawn.get(key)
        if strip is None:
            row = self._gutter(number, len(self.source.lines))
            row.append_text(lines[number - 1] if lines else Text(self.source.lines[number - 1]))
            if style:
                row.stylize(style)
            strip = Strip(list(row.render(self.app.console))).crop_extend(0, width, style)
            strip = strip.apply_style(self.rich_style)
            if len(self._drawn) >= DRAWN_LINES_KEPT:
                self._drawn.clear()
            self._drawn[key] = strip
        return strip

    def _gutter(self, number: int, count: int) -> Text:
        # One mark column, not two: the loop file's 72-column lines need the pane's width. The current
        # line's ▶ turns red when a breakpoint is on it too (its background already says "current").
        digits = len(str(count))
        enabled = self.breakpoint_lines.get(number)
        row = Text(no_wrap=True)
        if number == self.current_line:
            row.append("▶", style="bold red" if enabled is not None else "bold green")
        else:
            row.append("●" if enabled else "○" if enabled is False else " ", style="bold red")
        row.append(f"{number:>{digits}} ", style="dim")
        return row

    def on_focus(self) -> None:
        self.refresh()

    def on_blur(self) -> None:
        self.refresh()
