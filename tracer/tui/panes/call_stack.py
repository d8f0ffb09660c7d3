"""The call stack pane: the frames of the current event, outermost first, the selected one marked."""

from __future__ import annotations

from pathlib import Path

from rich.text import Text
from textual.events import Click
from textual.message import Message
from textual.widgets import Static

from ...debug.source_map import FrameLocation
from ...trace.literal_text import scrub


class CallStackPane(Static):
    """Shows frames like `_call  agent_executor.py:95`; click one (or press u/d) to look at it."""

    class FramePicked(Message):
        def __init__(self, frame_up: int) -> None:
            super().__init__()
            self.frame_up = frame_up

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.frames: list[FrameLocation] = []

    def show(self, frames: list[FrameLocation], frame_up: int) -> None:
        self.frames = frames
        selected = len(frames) - 1 - frame_up
        width = max((len(f.function) for f in frames), default=0)
        text = Text(no_wrap=True, overflow="ellipsis")
        shown_file = None
        event_depth = max((d for d, f in enumerate(frames) if not f.callee), default=len(frames) - 1)
        for depth, frame in enumerate(frames):
            chosen = depth == selected
            text.append("▶ " if chosen else "  ", style="bold green")
            text.append(f"{scrub(frame.function):<{width}}", style="bold reverse" if chosen else "bold")
            # The file only when it changes, so narrow panes still show every line number.
            name = scrub(Path(frame.file).name) if frame.file else None
            where = f"{name if name != shown_file else ''}:{frame.line}" if frame.line else "(line unknown)"
            shown_file = name or shown_file
            text.append(f"  {where}", style="" if frame.exact else "dim")
            if frame.callee:
                text.append("  ← your function, which it calls", style="dim italic")
            elif depth == event_depth:
                text.append("  ← this event", style="dim italic")
            text.append("\n")
        if not frames:
            text.append("(no frames)", style="dim")
        text.rstrip()  # in place: no blank line after the last frame
        self.update(text)

    def on_click(self, event: Click) -> None:
        offset = event.get_content_offset(self)
        depth = offset.y if offset is not None else -1
        if 0 <= depth < len(self.frames):
            self.post_message(self.FramePicked(len(self.frames) - 1 - depth))
