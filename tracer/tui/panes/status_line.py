"""The status line: where we are, why we stopped, and any warning about the trace."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from executor.states import state_of

from ...debug.breaker_states import breaker_states_at
from ...debug.session import DebugSession
from ..chrome import localise
from ..views.function_hint import function_hint

BREAKER_STYLES = {"open": "bold white on red", "half_open": "bold black on yellow", "closed": "green"}


def _state(event) -> str:
    """The loop state (planning, acting, ...); an unreadable line has none."""
    try:
        return state_of(event)
    except AttributeError:
        return "?"


class StatusLine(Static):
    def show(self, session: DebugSession, busy: str = "") -> None:
        event = session.event()
        text = Text(no_wrap=True, overflow="ellipsis")
        total = len(session)
        lang = session.lang
        if lang == "zh":
            live = "" if session.store.complete else "（实时，目前）"
            text.append(f" 事件 {session.position}/{total}{live} ", style="bold reverse")
            text.append(f" 第 {event.iteration} 轮 · {event.kind} · {localise(_state(event), lang)} │ ", style="bold")
        else:
            live = "" if session.store.complete else " so far (live)"
            text.append(f" event {session.position} of {total}{live} ", style="bold reverse")
            text.append(f" iteration {event.iteration} · {event.kind} · {_state(event)} │ ", style="bold")
        text.append_text(breaker_text(session))
        text.append(localise(busy or session.message, lang), style="yellow" if busy else "")
        hint = "" if busy else function_hint(session)
        if hint:  # what s / r do here (the footer says it too, in fewer words)
            text.append(f" │ {hint}", style="bold cyan")
        totals = session.costs.totals(event.iteration)
        if totals is not None:  # after the message: why we stopped matters more than the bill
            iteration, run = totals
            if lang == "zh":
                mark = "（估算）" if run.estimated else ""
                text.append(f" │ 本轮 {iteration.compact()} · 全程 {run.compact()}{mark}", style="magenta")
            else:
                mark = " (est.)" if run.estimated else ""
                text.append(f" │ iteration {iteration.compact()} · run {run.compact()}{mark}", style="magenta")
        self.update(text)


def breaker_text(session: DebugSession) -> Text:
    """Each breaker's state as of the current event, e.g. "breakers: primary open, backup closed │";
    nothing for a run without breakers."""
    states = breaker_states_at(session.store, session.position)
    text = Text()
    if not states:
        return text
    text.append("breakers:", style="bold")
    for model, state in states.items():
        text.append(" ")
        text.append(f"{model} {state.replace('_', '-')}", style=BREAKER_STYLES.get(state, ""))
    text.append(" │ ", style="bold")
    return text
