"""Which frames a framework run's event is shown in: the framework's and the user's, not loopscope's or Python's own."""

from __future__ import annotations

import sysconfig
from dataclasses import replace
from pathlib import Path
from types import FrameType

from executor.events import EventBase

from .live_run import FrameSnapshot, _snapshot
from .model_caller import model_caller

_LOOPSCOPE = str(Path(__file__).resolve().parents[1])  # tracer/: our own frames are not the run's
_STDLIB = sysconfig.get_paths()["stdlib"]
# How a callback reaches us (LangChain's callback manager): not the run's own frames.
_PLUMBING = ("langchain_core/callbacks/",)
MOST_FRAMES = 40
MODEL_EVENTS = ("llm_start", "llm_end")


def is_ours(file: str, ours: str = _LOOPSCOPE) -> bool:
    """Whether code in `file` is loopscope's (installed in a site-packages or not)."""
    return file.startswith(ours)


def is_run_file(file: str, ours: str = _LOOPSCOPE, stdlib: str = _STDLIB) -> bool:
    """Whether a frame running code in `file` belongs to the run: the framework's or the user's, not ours,
    Python's own (asyncio, threading) or the plumbing a callback reaches us through. A framework installed
    in the system Python's site-packages lies under the standard library's folder, and is the run's."""
    python = file.startswith(stdlib) and "site-packages" not in file
    return not is_ours(file, ours) and not python and not any(part in file for part in _PLUMBING)


def run_frames(start: FrameType | None) -> tuple[FrameSnapshot, ...]:
    """The thread's frames that belong to the run (the framework's and the user's), outermost first."""
    frames: list[FrameSnapshot] = []
    seen: dict[int, str] = {}
    frame = start
    while frame is not None and len(frames) < MOST_FRAMES:
        if is_run_file(frame.f_code.co_filename):
            frames.append(_snapshot(frame, seen))
        frame = frame.f_back
    return tuple(reversed(frames))


def _as_recorded(event: EventBase, frames: tuple[FrameSnapshot, ...]) -> tuple[FrameSnapshot, ...]:
    """The frames the event's recorded stack names (the framework's loop: invoke, stream, the node, ...), named
    as the trace names them, so the call stack pane and Variables show the trace's frames with real locals."""
    wanted = getattr(event, "stack", None) or ()
    kept, start = [], 0
    for ref in wanted:
        for index in range(start, len(frames)):
            frame = frames[index]
            if frame.line == ref.line and frame.file.endswith(ref.file):
                kept.append(replace(frame, function=ref.function))  # a node's frame is named after its node
                start = index + 1
                break
    return tuple(kept) if kept else frames


def event_frames(event: EventBase, caller: FrameType | None) -> tuple[FrameSnapshot, ...]:
    """The run's frames an event is shown in. A model call's frames end at the frame that asked the model (with the
    messages it sent among its locals), not at the framework's plumbing between it and our model wrapper (whose
    locals are our wrapper's coroutine or `self`): unless the event names its frames (LangGraph's stack)."""
    if event.kind in MODEL_EVENTS and not getattr(event, "stack", None):
        caller = model_caller(caller, is_ours, is_run_file) or caller
    return _as_recorded(event, run_frames(caller))
