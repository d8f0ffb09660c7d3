"""The variables pane: the loop's state at the current event, rebuilt from the trace, or the real locals live."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from rich.text import Text

from executor.events import ChainStartEvent, FinishCheckEvent, StepEvent

from ...debug.event_store import ReplayStore
from ...debug.session import DebugSession, UnreadableEvent
from ...debug.source_map import FrameLocation
from ...debug.stack_locals import StackLocals, stack_locals
from ...i18n import say
from ...report.text.literal import literal
from ...trace.index import TraceIndex
from .clipped_text import clipped, first_line
from .graph_state_view import graph_run, graph_state
from .typed_events import event_as
from .variable_table import VariableTable

if TYPE_CHECKING:
    from ...debug.live_run import FrameSnapshot

SHOWN_STEPS = 3
REPR_LIMIT = 2_000


# A float's binary noise (0.010000000000000005): the pane rounds it, the Detail pane keeps it exact.
LONG_FLOAT = re.compile(r"(?<![\w.])-?\d+\.\d{7,}(?:e-?\d+)?(?![\w.])")


def rounded_floats(text: str) -> str:
    """`time_elapsed 0.010000000000000005` as `0.01`: floats in a repr, to 6 decimal places."""
    return LONG_FLOAT.sub(lambda match: repr(round(float(match.group()), 6)), text)


def _short(value: Any, limit: int = 60) -> str:
    return repr(first_line(str(value), limit))


def _row(table: VariableTable, name: str, value: Text | str, note: str = "") -> None:
    cell = value.copy() if isinstance(value, Text) else literal(value)
    if note:
        cell.append(f"   {note}", style="dim italic")
    table.add(name, cell)


def _action_repr(event: Any) -> str:
    if event.kind == "agent_action":
        return (
            f"AgentAction(tool={_short(event.tool)}, tool_input={_short(event.tool_input)}, "
            f"log={_short(event.log, 40)})"
        )
    if event.kind == "agent_finish":
        return f"AgentFinish(return_values={first_line(repr(event.return_values), 80)}, log={_short(event.log, 40)})"
    return f"OutputParserException({_short(event.error)})  → becomes AgentAction('_Exception', …)"


def progress_cells(done: int, total: int, width: int = 12) -> str:
    """A bar of `width` cells, as far along as `done` is of `total`: ▕██████░░░░░░▏ 50%."""
    share = min(max(done / total, 0.0), 1.0) if total > 0 else 0.0
    filled = round(share * width)
    return f"▕{'█' * filled}{'░' * (width - filled)}▏ {share:.0%}"


def loop_state(session: DebugSession, lang: str = "en") -> VariableTable | Text:
    """iteration, name_to_tool_map, intermediate_steps, output, observation and the finish check."""
    store, position = session.store, session.position
    index = store.index
    event = session.event()
    if isinstance(event, UnreadableEvent):
        return Text(event.problem, style="bold red")
    if index is None:
        return Text(say("panes.indexing_state", lang), style="italic")
    graph = graph_run(session, index)
    if graph is not None:  # a traced LangGraph agent has no _call: its state is the graph's messages
        return graph_state(session, index, graph, lang)
    reenactment = store.reenactment if isinstance(store, ReplayStore) else None  # live: the locals are real
    if reenactment is not None and session.locals_pending():  # a worker re-executes the run; redrawn when there
        done = len(reenactment.snapshots)
        following = say("panes.locals_follow", lang, done=f"{done:,}", total=f"{position + 1:,}")
        note = f" {following} {progress_cells(done, position + 1)}"
    else:
        why = reenactment.problem if reenactment is not None else None
        note = " " + say("panes.no_real_locals", lang, why=why) if why else ""
    table = VariableTable(Text(say("panes.call_variables", lang) + note, style="dim"))
    _row(table, "iteration", str(event.iteration))
    _tools_row(table, session, index, lang)
    _steps_rows(table, session, index, lang)
    start = index.iteration_start(position)
    planned = max(
        (
            p
            for p in (index.last_before(k, position, start) for k in ("agent_action", "agent_finish", "parse_error"))
            if p is not None
        ),
        default=None,
    )
    stepped = index.last_before("step", position, start)
    if planned is None:
        _row(table, "output", Text(say("panes.not_planned", lang), style="dim"))
    elif stepped is None:
        _row(table, "output", _action_repr(session.event(planned)), say("panes.at_event", lang, seq=planned))
        _observation_row(table, session, index, planned, position, lang)
    elif (step := event_as(session, stepped, StepEvent)) is not None:  # _take_next_step returned its AgentSteps
        _row(
            table,
            "output",
            f"[AgentStep(action=AgentAction(tool={_short(step.action.tool)}, …), "
            f"observation={_short(step.observation, 50)})]",
            say("panes.at_event", lang, seq=stepped),
        )
    checked = index.last_before("finish_check", position, start)
    check = event_as(session, checked, FinishCheckEvent) if checked is not None else None
    if check is None:
        _row(table, "is_finish", Text(say("panes.not_checked", lang), style="dim"))
    else:
        is_finish = check.is_finish
        _row(
            table,
            "is_finish",
            Text(str(is_finish), style="bold green" if is_finish else "bold yellow"),
            say("panes.graph_edge_checked" if check.decided_by else "panes.finish_checked", lang, seq=checked),
        )
    return table


def _tools_row(text: VariableTable, session: DebugSession, index: TraceIndex, lang: str) -> None:
    start = index.last_before("chain_start", session.position)
    chain_start = event_as(session, start, ChainStartEvent) if start is not None else None
    if chain_start is None:
        _row(text, "name_to_tool_map", Text(say("panes.no_chain_start", lang), style="dim"))
        return
    tools = chain_start.tools
    shown = ", ".join(f"{t.name!r}: Tool({t.name!r})" for t in tools)
    _row(text, "name_to_tool_map", "{" + shown + "}")


def _steps_rows(text: VariableTable, session: DebugSession, index: TraceIndex, lang: str) -> None:
    position = session.position
    # _call extends intermediate_steps only after the finish check has been yielded and resumed.
    checked = index.last_before("finish_check", position - 1) if position else None
    count = index.count_before("step", checked) if checked is not None else 0
    _row(text, "intermediate_steps", f"[{count} AgentStep{'s' * (count != 1)}]")
    if count > SHOWN_STEPS:
        text.add("", Text(say("panes.earlier", lang, count=count - SHOWN_STEPS), style="dim"))
    for number in range(max(0, count - SHOWN_STEPS), count):
        step = event_as(session, index.nth("step", number), StepEvent)
        if step is None:  # an unreadable line
            continue
        text.add(
            "",
            literal(
                f"[{number}] ({step.action.tool}, {_short(step.action.tool_input, 30)}) → "
                f"{_short(step.observation, 50)}"
            ),
        )


def _observation_row(
    text: VariableTable, session: DebugSession, index: TraceIndex, planned: int, position: int, lang: str
) -> None:
    found = [
        p
        for p in (index.last_before(k, position, planned) for k in ("tool_end", "invalid_tool", "tool_error"))
        if p is not None
    ]
    if not found:
        return
    event = session.event(max(found))
    observation = getattr(event, "observation", None)
    if observation is None:
        _row(text, "observation", Text(say("panes.no_observation", lang, kind=event.kind), style="dim"))
    else:
        _row(
            text,
            "observation",
            _short(observation, 70),
            say("panes.observation_at", lang, seq=max(found)),
        )


def live_locals(
    frames: tuple[FrameSnapshot, ...], selected: int, live: bool, inside: bool = False, lang: str = "en"
) -> VariableTable:
    """The real locals of the selected frame (u/d move it); the other frames are one line each."""
    pairs: StackLocals = [(FrameLocation(f.function, f.file, f.line, True), f) for f in frames]
    return _frames_table(pairs, len(frames) - 1 - selected, _origin(live, frames[-1] if inside else None, lang), lang)


def _origin(live: bool, inside: FrameSnapshot | None, lang: str) -> Text:
    if inside is not None:
        return Text(say("panes.locals_inside", lang, function=inside.function, line=inside.line), style="dim")
    return Text(say("panes.locals_live" if live else "panes.locals_replayed", lang), style="dim")


def _frames_table(pairs: StackLocals, chosen: int, origin: Text, lang: str, event: Any = None) -> VariableTable:
    """Innermost frame first, one line each; the chosen one (the call stack pane's marked one) with its locals."""
    table = VariableTable(origin)
    for depth in range(len(pairs) - 1, -1, -1):
        frame, snapshot = pairs[depth]
        is_chosen = depth == chosen
        file, line = (snapshot.file, snapshot.line) if snapshot is not None else (frame.file, frame.line)
        where = f"{file or '?'}:{line}" if line else file or ""
        if not is_chosen:
            count = say("panes.locals_count", lang, count=len(snapshot.locals)) if snapshot is not None else ""
            where = f"{where}  {count}".rstrip()
        table.add(
            Text(f"{'▶ ' if is_chosen else '  '}{frame.function}()", style="bold reverse" if is_chosen else "bold"),
            Text(where, style="dim"),
        )
        if not is_chosen:
            continue
        if snapshot is not None:
            for name, value in snapshot.locals:
                table.add(Text(name, style="bold"), clipped(rounded_floats(value), limit=REPR_LIMIT))
        else:
            _no_locals_rows(table, frame, event, lang)
    return table


def _no_locals_rows(table: VariableTable, frame: FrameLocation, event: Any, lang: str) -> None:
    """Why the marked frame shows no locals: the user's function not called yet (what it will be given), or
    a frame whose locals were not captured at this event."""
    if not frame.callee:
        table.add("", Text(say("panes.frame_not_captured", lang), style="dim italic"))
    elif getattr(event, "kind", None) == "tool_start":
        table.add("", Text(say("panes.callee_not_called", lang, function=frame.function), style="dim italic"))
        table.add(Text("tool_input", style="bold"), literal(str(getattr(event, "tool_input", ""))))
    else:
        table.add("", Text(say("panes.callee_not_running", lang, function=frame.function), style="dim italic"))


def variables_text(session: DebugSession, lang: str = "en") -> VariableTable | Text:
    """The locals of the frame the call stack pane marks (u/d move both); the loop's state rebuilt when no
    frame's locals were captured."""
    pairs = stack_locals(session)
    chosen = len(pairs) - 1 - session.frame_up
    captured = any(snapshot is not None for _, snapshot in pairs)
    if 0 <= chosen < len(pairs) and (captured or (session.store.live and pairs[chosen][0].callee)):
        inside = pairs[chosen][1] if pairs[chosen][0].callee else None
        origin = _origin(session.store.live, inside, lang)
        return _frames_table(pairs, chosen, origin, lang, session.event())
    frames = session.real_frames()
    if frames:  # a framework's recorded stack names its steps, not the frames captured: those are shown
        return live_locals(frames, min(session.frame_up, len(frames) - 1), session.store.live, False, lang)
    return loop_state(session, lang)
