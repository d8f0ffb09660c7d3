"""Stepping into a user's tool function in a live run: which key does what there, and where it lands."""

from __future__ import annotations

from typing import Any

from executor.events import CalleeRef, EventBase, ToolErrorEvent

from ...debug.event_store import LiveStore
from ...debug.line_breakpoints import line_hit, lines_in_call
from ...debug.session import DebugSession, UnreadableEvent, breakpoint_names, motion_name
from ...debug.step_into import LOOPSCOPE_PACKAGES, LineStop
from ...debug.stepping import Motion
from ...i18n import Message


def _live_at_newest(session: DebugSession) -> LiveStore | None:
    """The live run's store when the session is at its newest event and the run goes on; else None."""
    store = session.store
    if isinstance(store, LiveStore) and not store.complete and len(store) > 0 and session.position == len(store) - 1:
        return store
    return None


def _callee(event: EventBase | UnreadableEvent) -> CalleeRef | None:
    """The function an event calls into: tool_start, llm_start and a few more carry one, other kinds none."""
    return getattr(event, "callee", None)


def _name(event: Any) -> str:
    callee = event.callee
    return f"{callee.qualname or callee.function}()"


def into_function(session: DebugSession, motion: Motion) -> Motion | None:
    """Arm the live run for a key pressed at the newest event, when it is about a tool's function: `s`
    at a tool_start traces its call line by line; inside, s/n go a line, r runs the function to its end
    and c continues (line breakpoints still stop both). Returns the motion to search with, or None."""
    store = _live_at_newest(session)
    if store is None:
        return None
    run, event = store.run, store.event(session.position)
    if run.line_stop is not None:
        lines = lines_in_call(session.breakpoints, _callee(event))
        run.step_into(event, "step" if motion in (Motion.STEP, Motion.NEXT) else "lines", lines)
        return Motion.CONTINUE if motion is Motion.CONTINUE else Motion.STEP
    if motion is Motion.STEP and event.kind == "tool_start" and run.why_not_step_into(event) is None:
        run.step_into(event, "step")
        return Motion.STEP
    return None


def why_not_into(session: DebugSession, motion: Motion) -> Message | None:
    """Why `s` at this tool_start steps to the next event rather than into the user's function (one line)."""
    event = session.event()
    callee = _callee(event)
    if (
        motion is not Motion.STEP
        or isinstance(event, UnreadableEvent)
        or event.kind != "tool_start"
        or callee is None
        or callee.file.startswith(LOOPSCOPE_PACKAGES)
    ):
        return None
    if not session.store.live:
        return Message("debugger.into_needs_live", {"name": _name(event)})
    store = _live_at_newest(session)
    if store is None:
        return Message("debugger.into_already_ran", {"name": _name(event)})
    if getattr(store.run, "stepped_call_pending", False):
        return None  # the key goes on into the call already stepped into (a parallel call's start came first)
    problem = store.run.why_not_step_into(event)
    return Message("debugger.into_refused", {"problem": problem}) if problem else None


def arm_line_breakpoints(session: DebugSession) -> None:
    """At a new tool_start whose function holds enabled line breakpoints, trace its call so the run
    stops on those lines (instead of at the call's events, as a recording does)."""
    store = session.store
    if not (isinstance(store, LiveStore) and not store.complete and len(store)):
        return
    run, event = store.run, store.event(len(store) - 1)
    if run.line_stop is not None:  # paused inside, a motion from an earlier event resumes: run on to the lines
        run.step_into(event, "lines", lines_in_call(session.breakpoints, _callee(event)))
        return
    if event.kind != "tool_start" or run.why_not_step_into(event):
        return
    if getattr(run, "stepped_call_pending", False):  # another call's start came before the stepped call ran
        return  # (pydantic-ai starts parallel calls first): disarming here would lose the call `s` was pressed at
    lines = lines_in_call(session.breakpoints, _callee(event))  # as they are now: added or deleted since
    if lines:
        run.step_into(event, "lines", lines)
    else:
        run.disarm()


def at_line(session: DebugSession, stop: LineStop, motion: Motion) -> Message | None:
    """The traced function reached a line: what to say when it stops there (the panes show it), None to
    run on (a breakpoint with an ignore count left, or whose condition does not hold)."""
    store = session.store
    frame = stop.frame
    word = motion_name(motion)
    if stop.reason == "breakpoint":
        stopping = line_hit(session.breakpoints, frame.file, frame.line, store.resolve_at(len(store) - 1))
        if not stopping:
            return None
        names = breakpoint_names(stopping)
        said = Message("debugger.at_breakpoint_in", {"motion": word, "names": names, "function": frame.function})
    else:
        said = Message("debugger.at_line", {"motion": word, "function": frame.function, "line": frame.line})
    session.goto(len(store) - 1)
    return said


def left_function(session: DebugSession, motion: Motion) -> Message:
    """A key pressed inside the function landed on the call's next event: say that it returned."""
    event = session.event()
    callee = _callee(event)
    name: str | Message = (
        f"{callee.qualname or callee.function}()" if callee is not None else Message("debugger.the_tool")
    )
    stepped = getattr(getattr(getattr(session, "store", None), "run", None), "stepped_into", None)
    call = getattr(stepped, "tool_call_id", None)
    said = {"motion": motion_name(motion), "name": name, "seq": session.position, "kind": event.kind}
    if call is not None and getattr(event, "tool_call_id", None) != call:  # a parallel call: another's turn
        run = getattr(getattr(session, "store", None), "run", None)
        pending = getattr(run, "stepped_call_pending", False)  # its lines are still to come (pydantic-ai)
        return Message(
            "debugger.other_call_first" if pending else "debugger.done_other_call", said | {"name": _name(stepped)}
        )
    if isinstance(event, ToolErrorEvent) and event.error_type == "ToolInputError":
        return Message("debugger.never_ran", said)  # refused before the first line
    if isinstance(event, ToolErrorEvent):
        return Message("debugger.raised", said | {"error": event.error_type})
    return Message("debugger.done", said)
