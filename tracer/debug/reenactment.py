"""A recording's real frames: the run is executed again against its own recorded replies, as far as needed."""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from executor.events import EventBase

from ..i18n import Message, verbatim
from ..trace.header import TraceHeader

if TYPE_CHECKING:  # the replay machinery loads with the first re-executed event, after the first frame
    from ..agents.trust import AgentRef
    from .framework_live import FrameworkRunAhead
    from .live_run import FrameSnapshot
    from .run_ahead import RunAhead

# Longer recordings are not re-run (the variables pane then rebuilds the loop state from the events).
REENACT_LIMIT = 2_000  # CPU per event: bench/bench_reenactment.py; its frames are kept for each


class Reenactment:
    """Pulls a re-run of the recorded scenario in step with the recording, keeping each event's frames.

    A trace stores events, not locals; re-running the same executor on the same recorded replies
    and clock reaches the same states, so its paused generators hold exactly the locals the
    recorded run had. Every re-run event is checked against the recorded one; on the first
    difference (the source changed since recording) it stops and says where.

    frames_at() waits for the re-run; the debugger's window calls ready() instead and has a worker
    thread advance it, so the first frame and every key press never wait for it. Re-executing is
    incremental: it goes as far as asked (the event shown) and the next request resumes from the
    run's paused generator chain; every event passed keeps its frames, so going back costs nothing.
    Advances are serialised by a lock, so both may be used from different threads.
    """

    def __init__(
        self,
        path: Path,
        header: TraceHeader,
        length: int,
        recorded: Callable[[int], EventBase],
        agents: Sequence[str] = (),
    ) -> None:
        self.path, self.header, self.length, self.recorded = path, header, length, recorded
        self.agents = tuple(agents)  # the user's --agent specs: a header's agent runs only if trusted
        self.snapshots: list[tuple[FrameSnapshot, ...]] = []
        self._agent_spec: AgentRef | None = None  # the header's agent as trusted (pinned to its file), once checked
        self.problem: Message | None = self._why_not()  # why there are no real locals (the Variables pane says it)
        self._run: RunAhead | FrameworkRunAhead | None = None
        self._pulling = threading.Lock()

    def _why_not(self) -> Message | None:
        if self.length > REENACT_LIMIT:
            return Message("debugger.reenact_too_long", {"limit": f"{REENACT_LIMIT:,}"})
        if self.header.scenario:
            return None
        if not self.header.agent and not self.agents:
            return Message("debugger.reenact_no_scenario")
        # Late, like the other replay imports here: the replay machinery loads when a trace is re-executed,
        # not with the debugger's first frame (tests/cli/test_startup_imports.py).
        from ..agents.scenario_registry import UnknownAgent
        from ..agents.trust import trusted_agent

        try:  # decided before anything is imported: a trace alone never runs code
            self._agent_spec = trusted_agent(self.header.agent, self.agents)
        except UnknownAgent as error:
            return verbatim(str(error.args[0]))  # the trust rule's own words, about the user's agent
        return None

    def _agent(self) -> object:
        """The scenario (from the registry, by name) or the trusted user agent the recording is re-run with."""
        if self._agent_spec is not None:
            from ..agents.user_agent import load_user_agent  # late: see _why_not

            return load_user_agent(self._agent_spec)
        from ..agents.scenario_registry import find_scenario  # late: see _why_not

        return find_scenario(self.header.scenario or "")  # never resolved as MODULE:FUNCTION

    def _run_ahead(self) -> RunAhead | FrameworkRunAhead:
        """What re-runs the recording: loopscope's executor, or the framework that ran a framework agent."""
        if self.header.framework is not None and self._agent_spec is not None:
            from ..agents.framework_agent import load_framework_agent  # late: see _why_not
            from ..trace.transitions import Trace
            from .framework_live import FrameworkRunAhead

            agent = load_framework_agent(self._agent_spec, offline=True)
            if agent is not None:
                return FrameworkRunAhead(agent, Trace.load(self.path))
        from .run_ahead import RunAhead  # late: see _why_not

        return RunAhead(self._agent(), self.path)

    def frames_at(self, position: int) -> tuple[FrameSnapshot, ...] | None:
        """The frames at `position`, re-executing as far as needed (None: they cannot be had)."""
        while self.pending(position):
            self.advance(position + 1 - len(self.snapshots))
        return self.ready(position)

    def ready(self, position: int) -> tuple[FrameSnapshot, ...] | None:
        """The frames at `position` if the re-run has already got there; never waits."""
        snapshots = self.snapshots
        return snapshots[position] if position < len(snapshots) else None

    def pending(self, position: int) -> bool:
        """True while the re-run can still reach `position` but has not yet."""
        return self.problem is None and len(self.snapshots) <= position < self.length

    @property
    def produced(self) -> int:
        """How many events the re-executed run has handed out so far (tests count what each request ran)."""
        return len(self._run.pulled) if self._run is not None else 0

    def advance(self, count: int = 1) -> None:
        """Re-execute up to `count` more events (from any thread; one advance at a time)."""
        with self._pulling:
            wanted = min(len(self.snapshots) + count, self.length)
            if self.problem is not None or len(self.snapshots) >= wanted:
                return
            try:
                if self._run is None:
                    self._run = self._run_ahead()
                self._run.run_to(wanted)
            except Exception as error:  # an unknown scenario, a fixture that no longer replays
                self.problem = Message("debugger.reenact_failed", {"error": f"{type(error).__name__}: {error}"})
                return
            while self.problem is None and len(self.snapshots) < wanted:
                self._check_next()

    def _check_next(self) -> None:
        """Keep the next re-executed event's frames if it is the recorded one (else say where they part)."""
        assert self._run is not None
        seq = len(self.snapshots)
        if seq >= len(self._run.pulled):  # the run ended before the recording did
            self.problem = Message("debugger.reenact_ended", {"seq": seq, "outcome": self._run.outcome})
            return
        event, frames = self._run.take(seq)
        try:
            wanted = self.recorded(seq)
        except Exception as error:  # a broken line in the recording
            self.problem = Message("debugger.reenact_unreadable", {"seq": seq, "error": str(error)})
            return
        if event.source.file != wanted.source.file:  # e.g. a LangChain run recorded by its callback handler
            self.problem = Message("debugger.reenact_other_code", {"file": wanted.source.file})
            return
        if (event.kind, event.source, event.frames) != (wanted.kind, wanted.source, wanted.frames):
            self.problem = Message(
                "debugger.reenact_differs",
                {
                    "seq": seq,
                    "kind": event.kind,
                    "line": event.source.line,
                    "recorded_kind": wanted.kind,
                    "recorded_line": wanted.source.line,
                },
            )
            return
        self.snapshots.append(frames)

    def close(self) -> None:
        with self._pulling:  # a worker's pull in progress finishes first
            self.problem = self.problem or Message("debugger.reenact_closed")
            if self._run is not None:
                self._run.close()
