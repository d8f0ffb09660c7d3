"""Forking from the debugger: edit the current event's reply or observation, re-run, open the fork."""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, cast

from rich.text import Text
from textual import work

from executor.events import Event

from ...debug.event_store import ReplayStore
from ...debug.session import build_session
from ...debug.shipped import is_shipped, user_fork_dir
from ...i18n import Message, say
from ...report.text.literal import literal
from ...trace.header import TraceHeader
from ...trace.reader import TraceFormatError
from .flow import Flow, KeyAction, flow_key

if TYPE_CHECKING:
    from ...replay.fork import ForkResult

# The fork machinery (replay.fork loads the executor and the replay) and its screen (Textual's
# TextArea) load when f is first pressed, not with the debugger's first frame.


def forkable_hint() -> Message:
    """Which events f forks. Short: the status line shows the current kind already, and has about
    75 columns left at 120."""
    from ...replay.fork import MODEL_KINDS, TOOL_KINDS  # with f (see above)

    return Message("debugger.forkable", {"models": "/".join(MODEL_KINDS), "tools": "/".join(TOOL_KINDS)})


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
    text = str(error.args[0]) if error.args else ""
    line = text.strip().splitlines()[0] if text.strip() else ""
    if _reads_as_a_sentence(error) and line:
        return line
    return f"{type(error).__name__}: {line}" if line else type(error).__name__


def _reads_as_a_sentence(error: BaseException) -> bool:
    if isinstance(error, (TraceFormatError, LookupError)):
        return True
    # Not imported for this (a diff's or a tutorial's error would load the fork machinery): a ForkError
    # exists only once a fork has loaded its module.
    fork = sys.modules.get("tracer.replay.fork")
    return fork is not None and isinstance(error, fork.ForkError)


def timeline_title(header: TraceHeader, lang: str) -> Text:
    """ "Timeline", or for a fork where it was changed (the status line and the diff name the parent)."""
    if not header.is_fork:
        return literal(say("panes.timeline", lang))
    # A Text: a str title is read as markup, and fork_at comes from the file.
    return literal(say("panes.timeline_fork", lang, seq=header.fork_at))


def _landing(session, at: int, change: str) -> int:
    """The event of the fork that carries the new text: the call's llm_end, tool_end or tool_error."""
    ends = ("llm_end",) if change == "reply" else ("tool_end", "tool_error")
    for position in range(min(at, len(session) - 1), len(session)):
        if session.event(position).kind in ends:
            return position
    return min(at, len(session) - 1)


def after_change(result: ForkResult) -> Message | None:
    """What answered the later model calls whose prompt changed, in a few words (None when none did)."""
    changed = result.changed
    if not changed:
        return None
    many = "calls" if len(changed) > 1 else "call"
    numbers = [
        Message("debugger.model_call_at", {"call": c.call, "seq": c.seq})
        if c.seq is not None
        else Message("debugger.model_call", {"call": c.call})
        for c in changed
    ]
    listed = numbers[0]
    for number in numbers[1:]:
        listed = Message("debugger.and", {"first": listed, "then": number})
    calls = Message("debugger.model_call_one" if many == "call" else "debugger.model_call_many", {"calls": listed})
    if changed[0].answered == "stopped":
        return Message("debugger.fork_at_calls_stopped", {"calls": calls})
    if changed[0].answered == "live":
        return Message(f"debugger.fork_at_{many}_live", {"calls": calls})
    return Message(f"debugger.fork_at_{many}_stale", {"calls": calls})


class ForkFlow(Flow):
    KEYS = [flow_key("f", "fork", "fork: change this reply or observation and re-run", show=False)]

    def actions(self) -> dict[str, KeyAction]:
        return {"fork": self.start}

    def start(self) -> None:
        # With f, not with the debugger (see the top of this module).
        from ...replay.fork import ForkError, change_for, recorded_answer
        from ..screens.fork_screen import ForkScreen

        session, store = self.session, self.session.store
        if not isinstance(store, ReplayStore):
            self.say(Message("debugger.fork_needs_trace"))
            return
        if self.blocked_by:
            self.say(Message("debugger.wait", {"reason": self.blocked_by}))
            return
        event, at = session.event(), session.position
        if change_for(event.kind) is None:
            self.say(forkable_hint())
            return
        try:
            # A TraceFile reads like a sequence of events (tracer/trace does not declare it one).
            change, recorded = recorded_answer(cast("Sequence[Event]", store.trace), at)
        except (ForkError, TraceFormatError) as error:
            self.say(Message("debugger.cannot_fork", {"problem": first_line_of(error)}))
            return
        model = self.session.options.model  # debug --model: a changed prompt may be sent to it
        self.app.push_screen(
            ForkScreen(at, event.kind, change, recorded, model),
            lambda chosen: self.fork_with(at, change, *(chosen or (None,))),
        )

    def fork_with(self, at: int, change: str, text: str | None, after_fork: str = "recording") -> None:
        """Re-run the trace with `text` as the reply or observation at event `at` (None: cancelled);
        `after_fork` says what answers a later model call whose prompt changed (see fork_trace)."""
        if text is None:
            self.say(Message("debugger.fork_cancelled"))
            return
        store = self.session.store
        assert isinstance(store, ReplayStore) and store.path is not None  # f and e refuse a live run
        self.busy(Message(f"debugger.forking_{change}", {"seq": at}))
        parent = store.path.resolve()
        self._run_fork(parent, at, change, text, after_fork, fork_destination(parent, at))

    @work(thread=True, exclusive=True, group="fork")
    def _run_fork(self, parent: Path, at: int, change: str, text: str, after_fork: str, output: Path) -> None:
        """Re-executes the run (it may take a while on a long trace), away from the UI thread."""
        from ...models.playground import configured_model  # the live model, only when it is asked for
        from ...replay.fork import fork_trace  # with a fork (f or the playground), not with the debugger

        try:
            reply, observation = (text, None) if change == "reply" else (None, text)
            live = configured_model(*self.session.options.call_model)[1] if after_fork == "live" else None
            result = fork_trace(
                parent,
                at,
                reply=reply,
                observation=observation,
                output=output,
                agents=self._agents(),
                live_model=live,
                after_fork="recording" if after_fork == "live" else after_fork,
            )
        except Exception as error:  # ForkError, a scenario it cannot build, a file it cannot write...
            self.app.call_from_thread(self._fork_failed, error)
            return
        self.app.call_from_thread(self._open_fork, result, at, change)

    def _agents(self) -> tuple[str, ...]:
        """The --agent specs the debugger was opened with: a fork re-runs the trace's agent only if trusted."""
        store = self.session.store
        return store.agents if isinstance(store, ReplayStore) else ()

    def _fork_failed(self, error: BaseException) -> None:
        self.say(Message("debugger.fork_failed", {"problem": first_line_of(error)}))
        self.busy(None)

    def _open_fork(self, result: ForkResult, at: int, change: str) -> None:
        kind = self.session.event(at).kind
        breakpoints = tuple(bp.spec for bp in self.session.breakpoints)  # carried over: the same questions
        try:  # the fork is seen as its parent was: the same prices, language, trusted agents, model
            session = build_session(result.path, options=replace(self.session.options, breakpoints=breakpoints))
        except (TraceFormatError, OSError) as error:
            self._fork_failed(error)
            return
        session.goto(_landing(session, at, change))
        # The path first: on a narrow terminal the end of the status line is cut off.
        # What answered a changed prompt next: it says whether the fork's outcome can be trusted.
        changed = after_change(result)
        said = Message("debugger.forked_into", {"path": shown_path(result.path)}).then(changed)
        said = said.then(Message(f"debugger.forked_{change}", {"seq": at, "kind": kind}))
        if result.error is not None and changed is None:
            said = said.then(Message("debugger.fork_stopped_early", {"problem": first_line_of(result.error)}))
        self.busy(None)
        self.open_session(session, said, tab="detail")
