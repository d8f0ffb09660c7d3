"""Forking from the debugger: edit the current event's reply or observation, re-run, open the fork."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

from rich.text import Text
from textual import work
from textual.binding import Binding

from ...debug.session import build_session
from ...debug.shipped import is_shipped, user_fork_dir
from ...report.literal import literal
from ...trace.header import TraceHeader
from ...trace.reader import TraceFormatError
from ..messages import OpenSession
from .flow import Flow

if TYPE_CHECKING:
    from ...replay.fork import ForkResult

# The fork machinery (replay) and its screen load when f is first pressed, not with the debugger.


def forkable_hint() -> str:
    """Which events f forks. Short: the status line shows the current kind already, and has about
    75 columns left at 120."""
    from ...replay.fork import MODEL_KINDS, TOOL_KINDS

    return f"f forks {'/'.join(MODEL_KINDS)} (a reply) or {'/'.join(TOOL_KINDS)} (an observation)"


def fork_destination(parent: Path, at: int, directory: Path | None = None) -> Path:
    """Where `loopscope fork` would write (the working directory), or for a shipped recording (a
    tutorial's) the user's fork directory, or a temporary directory when that is not writable;
    a name already taken gets a number, so no fork is overwritten."""
    if directory is None and is_shipped(parent):
        directory = user_fork_dir()
        try:
            directory.mkdir(parents=True, exist_ok=True)
        except OSError:
            pass  # not writable: the check below falls back to a temporary directory
    directory = directory or Path.cwd()
    if not os.access(directory, os.W_OK):
        directory = Path(tempfile.mkdtemp(prefix="loopscope-forks-"))
    path = directory / f"{parent.stem}.fork-{at}.jsonl"
    number = 2
    while path.exists():
        path = directory / f"{parent.stem}.fork-{at}-{number}.jsonl"
        number += 1
    return path


def shown_path(path: Path) -> str:
    """A path as short as it can be said: relative to the working directory when it is inside it."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def first_line_of(error: BaseException) -> str:
    """An error as one line; our own errors already read as sentences, others keep their type name."""
    from ...replay.fork import ForkError  # loaded by now if a fork raised it

    text = str(error.args[0]) if error.args else ""
    line = text.strip().splitlines()[0] if text.strip() else ""
    if isinstance(error, (ForkError, TraceFormatError, LookupError)) and line:
        return line
    return f"{type(error).__name__}: {line}" if line else type(error).__name__


def timeline_title(header: TraceHeader) -> Text | str:
    """ "Timeline", or for a fork where it was changed (the status line and the diff name the parent)."""
    if not header.is_fork:
        return "Timeline"
    # A Text: a str title is read as markup, and fork_at comes from the file.
    return literal(f"Timeline · fork at event {header.fork_at}")


def _landing(session, at: int, change: str) -> int:
    """The event of the fork that carries the new text: the call's llm_end, tool_end or tool_error."""
    ends = ("llm_end",) if change == "reply" else ("tool_end", "tool_error")
    for position in range(min(at, len(session) - 1), len(session)):
        if session.event(position).kind in ends:
            return position
    return min(at, len(session) - 1)


class ForkFlow(Flow):
    KEYS = [
        Binding(
            "f", "flow('forking', 'start')", "fork: change this reply or observation and re-run", show=False, id="fork"
        )
    ]

    def start(self) -> None:
        from ...replay.fork import ForkError, change_for, recorded_answer
        from ..screens.fork_screen import ForkScreen

        session = self.session
        if session.store.live:
            self.say("forking needs a recorded trace: finish the live run, then `loopscope debug` its file")
            return
        if self.blocked_by:
            self.say(f"wait: {self.blocked_by}")
            return
        event, at = session.event(), session.position
        if change_for(event.kind) is None:
            self.say(forkable_hint())
            return
        try:
            change, recorded = recorded_answer(session.store.trace, at)
        except (ForkError, TraceFormatError) as error:
            self.say(f"cannot fork here: {first_line_of(error)}")
            return
        self.app.push_screen(
            ForkScreen(at, event.kind, change, recorded), lambda text: self.fork_with(at, change, text)
        )

    def fork_with(self, at: int, change: str, text: str | None) -> None:
        """Re-run the trace with `text` as the reply or observation at event `at` (None: cancelled)."""
        if text is None:
            self.say("fork cancelled")
            return
        self.busy(f"forking at event {at}: re-running the trace with the new {change}…")
        parent = self.session.store.path.resolve()
        self._run_fork(parent, at, change, text, fork_destination(parent, at))

    @work(thread=True, exclusive=True, group="fork")
    def _run_fork(self, parent: Path, at: int, change: str, text: str, output: Path) -> None:
        """Re-executes the run (it may take a while on a long trace), away from the UI thread."""
        from ...replay.fork import fork_trace

        try:
            result = fork_trace(parent, at, output=output, agents=self._agents(), **{change: text})
        except Exception as error:  # ForkError, a scenario it cannot build, a file it cannot write...
            self.app.call_from_thread(self._fork_failed, error)
            return
        self.app.call_from_thread(self._open_fork, result, at, change)

    def _agents(self) -> tuple[str, ...]:
        """The --agent specs the debugger was opened with: a fork re-runs the trace's agent only if trusted."""
        return getattr(self.session.store, "agents", ())

    def _fork_failed(self, error: BaseException) -> None:
        self.say(f"fork failed: {first_line_of(error)}")
        self.busy("")

    def _open_fork(self, result: ForkResult, at: int, change: str) -> None:
        kind = self.session.event(at).kind
        breakpoints = [bp.spec for bp in self.session.breakpoints]  # carried over: the same questions
        try:
            session = build_session(result.path, breakpoints=breakpoints, agents=self._agents())
        except (TraceFormatError, OSError) as error:
            self._fork_failed(error)
            return
        session.goto(_landing(session, at, change))
        # The path first: on a narrow terminal the end of the status line is cut off.
        message = f"forked into {shown_path(result.path)} · new {change} at event {at} ({kind}) · D: diff with parent"
        if result.error is not None:
            message += f" · the fork stopped early: {first_line_of(result.error)}"
        self.busy("")
        self.post_message(OpenSession(session, message, tab="detail"))
