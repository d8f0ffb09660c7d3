"""The status line: where we are, why we stopped, and any warning about the trace."""

from __future__ import annotations

from rich.cells import cell_len
from rich.text import Text
from textual.widgets import Static

from executor.states import state_of

from ...debug.breaker_states import breaker_states_at
from ...debug.session import DebugSession
from ...report.cost.prices import CostTotal
from ...report.text.cjk_wrap import WrappedText
from ..chrome import localise
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
    unit = "token" if lang == "zh" else "tok"
    price = f" ${total.dollars:.6f}" if total.dollars is not None else ""
    return f"{total.prompt_tokens + total.completion_tokens:,} {unit}{price}"


def bill_text(session: DebugSession, iteration_number: int) -> str:
    """The tokens (and price) of this iteration and of the run so far; nothing before the first call."""
    totals = session.costs.totals(iteration_number)
    if totals is None:
        return ""
    iteration, run = totals
    zh = session.lang == "zh"
    parts = []
    if iteration.calls:  # an iteration without a model call has no bill: "iteration 0 tok no price" said nothing
        parts.append(f"{'本轮' if zh else 'iteration'} {_bill(iteration, session.lang)}")
    parts.append(f"{'全程' if zh else 'run'} {_bill(run, session.lang)}")
    mark = ("（估算）" if zh else " (est.)") if run.estimated else ""
    return " · ".join(parts) + mark


class StatusLine(Static):
    """One line, two when the message needs them (a part's change, a fork's path): never cut mid-sentence."""

    plain = ""  # the line's text (tests read it)

    def show(self, session: DebugSession, busy: str = "") -> None:
        event = session.event()
        text = Text()
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
        bill = bill_text(session, event.iteration)
        # After the message: why we stopped matters more than the bill, which a narrow terminal leaves
        # to the Detail pane rather than take a second line for it.
        if bill and cell_len(text.plain) + cell_len(bill) + 3 <= max(self.size.width, 1):
            text.append(f" │ {bill}", style="magenta")
        self.plain = text.plain
        self.update(WrappedText(text))


BREAKERS_ZH = {"breakers:": "熔断器：", "open": "打开", "half_open": "半开", "closed": "关闭"}


def breaker_text(session: DebugSession) -> Text:
    """Each breaker's state as of the current event, e.g. "breakers: primary open, backup closed │";
    nothing for a run without breakers."""
    states = breaker_states_at(session.store, session.position)
    text = Text()
    if not states:
        return text
    zh = session.lang == "zh"
    text.append(BREAKERS_ZH["breakers:"] if zh else "breakers:", style="bold")
    for model, state in states.items():
        text.append(" ")
        shown = BREAKERS_ZH.get(state, state) if zh else state.replace("_", "-")
        text.append(f"{model} {shown}", style=BREAKER_STYLES.get(state, ""))
    text.append(" │ ", style="bold")
    return text
