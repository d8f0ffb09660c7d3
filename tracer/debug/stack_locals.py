"""The call stack as the call stack pane shows it, each frame with the real locals captured for it (if any)."""

from __future__ import annotations

from pathlib import PurePosixPath
from typing import TYPE_CHECKING

from .source_map import FrameLocation

if TYPE_CHECKING:
    from .live_run import FrameSnapshot
    from .session import DebugSession

StackLocals = list[tuple[FrameLocation, "FrameSnapshot | None"]]


def _same_frame(shown: FrameLocation, real: FrameSnapshot) -> bool:
    if shown.function != real.function:
        return False
    if not shown.file or not real.file:
        return True
    return PurePosixPath(shown.file).name == PurePosixPath(real.file).name


def stack_locals(session: DebugSession) -> StackLocals:
    """session.frames() (what the pane lists, and what u/d move over), each paired with its captured frame.

    The pane's frames are not always the captured ones: a parallel tool call ran on a worker thread whose
    frames (perform_tool_call, run) were not on the captured generator chain; a tool_start lists the user's
    function it calls into below the event's frame. Pairing by name, outermost first, keeps Variables on the
    frame the pane marks: a frame with no captured locals is paired with None, never with its neighbour."""
    shown = session.frames()
    real = session.real_frames() or ()
    inside = session.store.function_frame(session.position) if len(session.store) else None
    pairs: StackLocals = []
    start = 0
    for frame in shown:
        if frame.callee:
            pairs.append((frame, inside))
            continue
        found = next((i for i in range(start, len(real)) if _same_frame(frame, real[i])), None)
        if found is None:
            pairs.append((frame, None))
        else:
            pairs.append((frame, real[found]))
            start = found + 1
    return pairs
