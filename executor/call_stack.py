"""The executor call stack at an emitting frame (an event's `frames`), walked once per new frame and remembered."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from types import CodeType, FrameType
from typing import TYPE_CHECKING

from .events import EventBase
from .paths import PACKAGE_DIR

if TYPE_CHECKING:  # a type only: the gate is whatever the driver of the run plugged in
    from .call_gate import ToolCallGate

_PACKAGE_PREFIX = str(PACKAGE_DIR)
_MAX_STACKS = 64  # a loop round makes a handful of new frames


@dataclass(frozen=True)
class CallScope:
    """What a worker thread running one tool call adds to the events it emits (see parallel_tools)."""

    tool_call_id: str
    prefix: tuple[str, ...]
    """The executor's call stack where the calls were dispatched; the worker's own frames follow it."""
    stop: CodeType
    """The worker function: the stack walk stops there instead of at the run's outermost frame."""
    sink: Callable[[EventBase], None]
    """Receives each event under the emit lock, so the sink sees events in `seq` order."""
    gate: ToolCallGate | None = None
    """The run's tool_call_gate (loop_hooks.use_tool_call_gate): asked before each emit; None: the call runs freely."""


class ThreadScope(threading.local):
    """The CallScope of the current thread; None on the loop's own thread."""

    # A class default rather than getattr(local, "scope", None): a missing attribute on a
    # threading.local raises and catches AttributeError inside, ~0.4 µs on every event.
    scope: CallScope | None = None


class CallStacks:
    """The names of the executor methods on the stack at a frame, outermost first.

    A suspended `yield from` chain is linked through f_back while it runs, so walking outwards
    from the emitting frame gives the real call stack. The walk ends at `outermost` (the run's
    entry point), or, without one, where the executor's own code ends. When `caller` (the
    user's entry point, e.g. invoke) drove `outermost`, its name comes first.
    """

    __slots__ = ("_caller", "_outermost", "known")

    def __init__(self, outermost: CodeType | None = None, caller: CodeType | None = None) -> None:
        self._outermost = outermost
        self._caller = caller
        # Frame -> its stack, on the loop's thread only. A generator is always resumed by the one
        # that delegates to it, so the stack at a frame stays the same while it lives: one walk per
        # new frame, not per event. A frame hashes by identity, so while it is held here no other
        # frame can take its place; `keep_running` lets the finished ones go each round.
        self.known: dict[FrameType, tuple[str, ...]] = {}

    def at(self, frame: FrameType) -> tuple[str, ...]:
        """The stack at `frame` on the loop's thread, remembered for the frames it passes through."""
        known = self.known
        parent = known.get(frame.f_back) if frame.f_back is not None else None
        if parent is not None and frame.f_code is not self._outermost:  # most often: a new frame under a known one
            names = parent + (frame.f_code.co_name,)
            if len(known) > _MAX_STACKS:
                known.clear()
            known[frame] = names
            return names
        names, pending = self._walk(frame, self._outermost, known)
        if len(known) > _MAX_STACKS:  # a round that never ends (a tool run outside the executor)
            known.clear()
        for walked in reversed(pending):
            names += (walked.f_code.co_name,)
            known[walked] = names
        return names

    def walk(self, frame: FrameType, stop: CodeType | None = None) -> tuple[str, ...]:
        """The stack at `frame` up to `stop` (default: the run's outermost), not remembered: any thread."""
        names, pending = self._walk(frame, stop or self._outermost, {})
        return names + tuple(walked.f_code.co_name for walked in reversed(pending))

    def keep_running(self, frame: FrameType | None) -> None:
        """Forget every remembered frame but `frame` and the known frames it was called from.

        The frames of a finished round hold their locals (the last prompt) alive, and then the
        scratchpad could no longer grow in place. Those still running (the loop's own) are kept:
        they are the same next round.
        """
        known, kept = self.known, {}
        while frame is not None:
            names = known.get(frame)
            if names is None:
                break
            kept[frame] = names
            frame = frame.f_back
        known.clear()
        known.update(kept)

    def _walk(
        self, frame: FrameType | None, stop: CodeType | None, known: dict[FrameType, tuple[str, ...]]
    ) -> tuple[tuple[str, ...], list[FrameType]]:
        """Walk outwards to `stop` or to a known frame: (the names outside the walked frames, the frames walked)."""
        pending: list[FrameType] = []
        names: tuple[str, ...] = ()
        while frame is not None:
            found = known.get(frame)
            if found is not None:
                return found, pending
            code = frame.f_code
            if stop is None and pending and not code.co_filename.startswith(_PACKAGE_PREFIX):
                break  # without an outermost method, the stack ends where the executor's code does
            pending.append(frame)
            if code is stop:
                break
            frame = frame.f_back
        if pending and pending[-1].f_code is self._outermost:
            # LangChain: Chain.invoke — when the user called invoke, the stack starts at their call.
            outer = pending[-1].f_back
            if outer is not None and outer.f_code is self._caller:
                names = (outer.f_code.co_name,)
        return names, pending
