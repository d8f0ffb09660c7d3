"""The call stack pane: the frames of the current event, outermost first, the selected one marked."""

from __future__ import annotations

from pathlib import Path

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, RenderResult
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.events import Click
from textual.message import Message
from textual.widgets import Static

from ...debug.source_map import FrameLocation
from ...i18n import say
from ...trace.literal_text import scrub


def _middle_cut(name: str, width: int) -> str:
    """`agent_executor.py` as `agent_e…or.py` in `width` cells: both ends say which file it is."""
    if cell_len(name) <= width:
        return name
    if width < 10:  # `rea….py` says little: leave the name out (the source pane's title has it)
        return ""
    tail = max(1, (width - 1) // 2)
    return name[: width - 1 - tail] + "…" + name[-tail:]


NAME_KEPT = 8  # a frame's name is cut no shorter than this to keep its note's words


class StackLines:
    """The frames, one line each, fitted to the pane's width when drawn: the note after the
    event's frame shrinks to its arrow, then file names lose their middle; the line number,
    the arrow and the ▶ of the selected frame are never cut."""

    def __init__(self, frames: list[FrameLocation], selected: int, lang: str) -> None:
        self.frames, self.selected = frames, selected
        self.words = {note: say(f"panes.stack.{note}", lang) for note in ("event", "callee", "unknown", "none")}
        self.plain = "\n".join(line.plain for line in self.lines(10_000))

    def _columns(self) -> list[tuple[str, str, str, str, bool]]:
        """(function, file name, :line, note) per frame, and whether its line is exact."""
        rows: list[tuple[str, str, str, str, bool]] = []
        shown_file = None
        event_depth = max((d for d, f in enumerate(self.frames) if not f.callee), default=len(self.frames) - 1)
        for depth, frame in enumerate(self.frames):
            # The file only when it changes, so narrow panes still show every line number.
            name = scrub(Path(frame.file).name) if frame.file else None
            file = name if name and name != shown_file and frame.line else ""
            shown_file = name or shown_file
            where = f":{frame.line}" if frame.line else self.words["unknown"]
            note = self.words["callee"] if frame.callee else self.words["event"] if depth == event_depth else ""
            rows.append((scrub(frame.function), file, where, note, frame.exact))
        return rows

    def lines(self, width: int) -> list[Text]:
        rows = self._columns()
        if not rows:
            return [Text(self.words["none"], style="dim")]
        pad = max(cell_len(function) for function, *_ in rows)
        return [self._line(depth, row, pad, width) for depth, row in enumerate(rows)]

    def _line(self, depth: int, row: tuple[str, str, str, str, bool], pad: int, width: int) -> Text:
        function, file, where, note, exact = row
        chosen = depth == self.selected
        arrow = bool(note)
        # The note's words ("  ← this event") are kept when the row's alignment, or at most the end of a long
        # name (never below NAME_KEPT cells), can make room for them; else only its arrow stays.
        if note:
            room_for_name = width - (2 + 2 + cell_len(where) + 4 + cell_len(note))
            if room_for_name >= min(cell_len(function), NAME_KEPT):
                pad = min(pad, max(room_for_name, cell_len(function) if room_for_name >= cell_len(function) else 0))
                if cell_len(function) > room_for_name:
                    pad, function = room_for_name, function[: room_for_name - 1] + "…"
            else:
                note = ""
        fixed = 2 + pad + 2 + cell_len(where)
        need = 4 + cell_len(note) if note else 3 if arrow else 0
        if fixed + need > width:  # narrower than the names: the alignment gives way first
            pad = max(cell_len(function), pad - (fixed + need - width))
            fixed = 2 + pad + 2 + cell_len(where)
        if fixed + need > width and cell_len(function) > 4:  # then the name's end, never the line number
            pad = max(4, pad - (fixed + need - width))
            function = function[: pad - 1] + "…"
            fixed = 2 + pad + 2 + cell_len(where)
        room = width - fixed
        marker = (4 + cell_len(note)) if note else 3 if arrow else 0
        file = _middle_cut(file, room - marker)  # the file gives way first: the source pane's title has it
        text = Text(no_wrap=True, overflow="ellipsis")
        text.append("▶ " if chosen else "  ", style="bold green")
        text.append(f"{function:<{pad}}", style="bold reverse" if chosen else "bold")
        text.append(f"  {file}{where}", style="" if exact else "dim")
        if arrow:
            text.append(f"  ← {note}".rstrip(), style="dim italic")
        return text

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield Text("\n", no_wrap=True, overflow="ellipsis").join(self.lines(options.max_width))


class CallStackPane(VerticalScroll, can_focus=False):
    """Shows frames like `_call  agent_executor.py:95`; click one (or press u/d) to look at it. A stack
    taller than the pane scrolls to keep the selected frame (the event's, at first) in view."""

    class FramePicked(Message):
        def __init__(self, frame_up: int) -> None:
            super().__init__()
            self.frame_up = frame_up

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.frames: list[FrameLocation] = []
        self.lines = StackLines([], 0, "en")
        self.body = Static(classes="stack-lines")

    def compose(self) -> ComposeResult:
        yield self.body

    def show(self, frames: list[FrameLocation], frame_up: int, lang: str = "en") -> None:
        self.frames = frames
        self.lines = StackLines(frames, len(frames) - 1 - frame_up, lang)
        self.body.update(self.lines)
        self.call_after_refresh(self._keep_selected_in_view, len(frames) - 1 - frame_up)

    def watch_virtual_size(self) -> None:
        # The frames' lines settled after the layout the scroll was worked out for: keep the marker in view.
        self.call_after_refresh(self._keep_selected_in_view, self.lines.selected)

    def on_resize(self) -> None:
        self.call_after_refresh(self._keep_selected_in_view, self.lines.selected)

    def _keep_selected_in_view(self, selected: int) -> None:
        height = max(self.scrollable_content_region.height, 1)
        if not self.scroll_y <= selected < self.scroll_y + height:
            self.scroll_to(y=max(0, selected - height + 1), animate=False, immediate=True)

    @property
    def plain(self) -> str:
        """The stack as shown on a wide pane (tests read it)."""
        return self.lines.plain

    def on_click(self, event: Click) -> None:
        offset = event.get_content_offset(self)
        depth = offset.y + round(self.scroll_y) if offset is not None else -1
        if 0 <= depth < len(self.frames):
            self.post_message(self.FramePicked(len(self.frames) - 1 - depth))
