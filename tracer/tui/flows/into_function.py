"""Stepping into a user's tool function in a live run: which key does what there, and where it lands."""

from __future__ import annotations

from typing import Any

from executor.events import CalleeRef, EventBase, ToolErrorEvent

from ...debug.event_store import LiveStore
from ...debug.line_breakpoints import line_hit, lines_in_call
from ...debug.session import MOTION_WORDS, DebugSession, UnreadableEvent
from ...debug.step_into import LOOPSCOPE_PACKAGES, LineStop
from ...debug.stepping import Motion


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


def why_not_into(session: DebugSession, motion: Motion) -> str | None:
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
        return (
            f"stepping into {_name(event)} line by line needs live mode: a recording has its events, not "
            "the function's lines (loopscope debug --live AGENT --model replay:TRACE)"
        )
    store = _live_at_newest(session)
    if store is None:
        return f"this call of {_name(event)} has already run: s steps into a function at the newest event"
    problem = store.run.why_not_step_into(event)
    return f"not stepping into it: {problem}" if problem else None


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
    lines = lines_in_call(session.breakpoints, _callee(event))  # as they are now: added or deleted since
    if lines:
        run.step_into(event, "lines", lines)
    else:
        run.disarm()


def at_line(session: DebugSession, stop: LineStop, motion: Motion) -> bool:
    """The traced function reached a line: True to stop there (the panes show it), False to run on
    (a breakpoint with an ignore count left, or whose condition does not hold)."""
    store = session.store
    frame = stop.frame
    word = MOTION_WORDS[motion]
    if stop.reason == "breakpoint":
        stopping = line_hit(session.breakpoints, frame.file, frame.line, store.resolve_at(len(store) - 1))
        if not stopping:
            return False
        names = ", ".join(f"#{bp.number} {bp.spec} (hit {bp.hits})" for bp in stopping)
        message = f"{word}: stopped at breakpoint {names} in {frame.function}()"
    else:
        message = f"{word}: {frame.function}() line {frame.line}"
    session.goto(len(store) - 1)
    session.message = message
    return True


def left_function(session: DebugSession, motion: Motion) -> None:
    """A key pressed inside the function landed on the call's next event: say that it returned."""
    event = session.event()
    callee = _callee(event)
    name = f"{callee.qualname or callee.function}()" if callee is not None else "the tool"
    stepped = getattr(getattr(getattr(session, "store", None), "run", None), "stepped_into", None)
    call = getattr(stepped, "tool_call_id", None)
    if call is not None and getattr(event, "tool_call_id", None) != call:  # a parallel call: another's turn
        name = _name(stepped)
        session.message = (
            f"{MOTION_WORDS[motion]}: {name} is done → event {session.position} "
            f"(another call's {event.kind}; {name}'s own comes in turn)"
        )
        return
    if isinstance(event, ToolErrorEvent) and event.error_type == "ToolInputError":
        what = f"{name} never ran: its arguments did not fit"  # refused before the first line
    elif isinstance(event, ToolErrorEvent):
        what = f"{name} raised {event.error_type}"
    else:
        what = f"{name} is done"
    session.message = f"{MOTION_WORDS[motion]}: {what} → event {session.position} ({event.kind})"
