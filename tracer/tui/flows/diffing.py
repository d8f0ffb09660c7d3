"""Diffing from the debugger: this run against its parent (a fork's header names it) or any trace file."""

from __future__ import annotations

from pathlib import Path

from ...debug.event_store import LiveStore
from ...i18n import Message, say
from ...trace.header import TraceHeader
from ...trace.reader import TraceFormatError
from ...trace.transitions import Trace
from ..screens.ask_screen import AskScreen
from ..screens.diff_screen import DiffScreen
from .flow import Flow, KeyAction, flow_key
from .forking import first_line_of, shown_path


def parent_path(header: TraceHeader, trace_path: Path | None) -> Path | None:
    """The parent a fork's header names, found as written or next to the fork; None when it names none."""
    named = header.parent
    if not isinstance(named, str) or not named:
        return None
    path = Path(named)
    if trace_path and not path.is_absolute() and not path.exists() and (trace_path.parent / path).exists():
        return trace_path.parent / path  # written relative to where `loopscope fork` ran
    return path


def load_other(answer: str) -> Trace | str:
    """The trace at `answer`, or a one-line reason it cannot be diffed."""
    if not answer:
        return "type the path of a trace file (.jsonl)"
    try:
        return Trace.load(Path(answer).expanduser())
    except (TraceFormatError, OSError) as error:
        return first_line_of(error)


class DiffFlow(Flow):
    KEYS = [flow_key("D", "diff", "diff with the parent run (or another trace)", show=False)]

    def actions(self) -> dict[str, KeyAction]:
        return {"diff": self.start}

    def _this_run(self) -> Trace:
        store = self.session.store
        if isinstance(store, LiveStore):  # the events pulled so far: a live trace file is still being written
            return Trace(store.header, list(store.events), store.path)
        assert store.path is not None  # a recording is a file
        return Trace.load(store.path)

    def start(self) -> None:
        store = self.session.store
        parent = parent_path(store.header, store.path)
        if parent is not None and parent.exists():
            self._show_diff(parent, Message("debugger.diff_parent"))
            return
        hint = Message("debugger.diff_hint_missing", {"parent": parent}) if parent else Message("debugger.diff_hint")
        loaded: dict[str, Trace] = {}

        def problem(answer: str) -> str | None:
            other = load_other(answer)
            if isinstance(other, str):
                return other
            loaded[answer] = other
            return None

        def diff(answer: str | None) -> None:
            if answer is not None:
                self._show_diff(loaded[answer], Message("debugger.diff_named"))

        self.app.push_screen(
            AskScreen(
                Message("boxes.ask.diff"),
                hint,
                problem,
                value=str(parent or ""),
            ),
            diff,
        )

    def _show_diff(self, other: Path | Trace, role: Message) -> None:
        from ...report.diff import diff_traces, render_diff  # with D, not with the debugger's first frame

        try:
            other_trace = other if isinstance(other, Trace) else Trace.load(other)
            this = self._this_run()
            diff = diff_traces(other_trace, this)
        except (TraceFormatError, OSError) as error:
            self.say(Message("debugger.cannot_diff", {"problem": first_line_of(error)}))
            return
        names = (shown_path(other_trace.path) if other_trace.path else "A", shown_path(this.path) if this.path else "B")
        title = say("debugger.diff_title", self.screen_lang, role=role)
        self.app.push_screen(DiffScreen(title, render_diff(diff, names)))
        if diff.same:
            self.say(Message("debugger.diff_same", {"role": role}))
        else:
            self.say(Message("debugger.diff_parted", {"role": role, "at": diff.parted_at}))
