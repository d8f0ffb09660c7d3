"""The status line: where we are, why we stopped, and any warning about the trace."""

from __future__ import annotations

from rich.cells import cell_len
from rich.text import Text
from textual.widgets import Static

from executor.states import state_of

from ...debug.breaker_states import breaker_states_at
from ...debug.session import DebugSession
from ...i18n import Message, say, templates
from ...report.cost.prices import CostTotal
from ...report.text.cjk_wrap import WrappedText
from ..views.function_hint import function_hint

BREAKER_STYLES = {"open": "bold white on red", "half_open": "bold black on yellow", "closed": "green"}


def _state(event) -> str:
    """The loop state (planning, acting, ...); an unreadable line has none."""
    try:
        return state_of(event)
    except AttributeError:
        return "?"


def _bill(total: CostTotal, lang: str) -> str:
    """`1,234 tok $0.000300`; the price only when there is one (the Detail pane says why there is not)."""
    price = f" ${total.dollars:.6f}" if total.dollars is not None else ""
    return say("panes.bill", lang, tokens=f"{total.prompt_tokens + total.completion_tokens:,}", price=price)


def bill_text(session: DebugSession, iteration_number: int, lang: str = "en") -> str:
    """The tokens (and price) of this iteration and of the run so far; nothing before the first call."""
    totals = session.costs.totals(iteration_number)
    if totals is None:
        return ""
    iteration, run = totals
    parts = []
    if iteration.calls:  # an iteration without a model call has no bill: "iteration 0 tok no price" said nothing
        parts.append(say("panes.bill_iteration", lang, bill=_bill(iteration, lang)))
    parts.append(say("panes.bill_run", lang, bill=_bill(run, lang)))
    mark = say("panes.estimated", lang) if run.estimated else ""
    return " · ".join(parts) + mark


class StatusLine(Static):
    """One line, two when the message needs them (a part's change, a fork's path): never cut mid-sentence."""

    plain = ""  # the line's text (tests read it)

    def __init__(self, lang: str = "en", **kwargs) -> None:
        super().__init__(**kwargs)
        self.lang = lang

    def show(self, session: DebugSession, said: Message, busy: Message | None = None) -> None:
        """Where the session is, and `busy` (why keys wait) or else `said` (what the last key did)."""
        event = session.event()
        text = Text()
        lang = self.lang
        where = {"seq": session.position, "total": len(session)}
        place = say("panes.place" if session.store.complete else "panes.place_live", lang, **where)
        text.append(f" {place} ", style="bold reverse")
        state = say(f"panes.state.{_state(event)}", lang) if f"panes.state.{_state(event)}" in templates() else "?"
        loop = say("panes.loop", lang, iteration=event.iteration, kind=event.kind, state=state)
        text.append(f" {loop} │ ", style="bold")
        text.append_text(breaker_text(session, lang))
        text.append((busy or said).text(lang), style="yellow" if busy else "")
        hint = None if busy else function_hint(session)
        if hint:  # what s / r do here (the footer says it too, in fewer words)
            text.append(f" │ {hint.text(lang)}", style="bold cyan")
        bill = bill_text(session, event.iteration, lang)
        # After the message: why we stopped matters more than the bill, which a narrow terminal leaves
        # to the Detail pane rather than take a second line for it.
        if bill and cell_len(text.plain) + cell_len(bill) + 3 <= max(self.size.width, 1):
            text.append(f" │ {bill}", style="magenta")
        self.plain = text.plain
        self.update(WrappedText(text))


def breaker_text(session: DebugSession, lang: str) -> Text:
    """Each breaker's state as of the current event, e.g. "breakers: primary open, backup closed │";
    nothing for a run without breakers."""
    states = breaker_states_at(session.store, session.position)
    text = Text()
    if not states:
        return text
    text.append(say("panes.breakers", lang), style="bold")
    for model, state in states.items():
        text.append(" ")
        key = f"panes.breaker.{state}"
        shown = say(key, lang) if key in templates() else state
        text.append(f"{model} {shown}", style=BREAKER_STYLES.get(state, ""))
    text.append(" │ ", style="bold")
    return text
