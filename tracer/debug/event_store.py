"""Where the debugger gets events: a recorded trace file, or a live run that grows as it is pulled."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from executor.events import Event

from ..trace.header import new_header
from ..trace.index import TraceIndex
from ..trace.reader import TraceFile, TraceFormatError
from .conditions import Resolve, resolve_in
from .reenactment import Reenactment

if TYPE_CHECKING:  # a live run, and the replay machinery behind it, load only when one is opened
    from concurrent.futures import ProcessPoolExecutor

    from .framework_live import FrameworkLiveRun
    from .live_run import FrameSnapshot, LiveRun

# Traces up to this many events are indexed before the window opens; bigger ones in the background.
INDEX_NOW_LIMIT = 200_000
# After this many lines read, the pages they were read from are let go. A scan (a filter or breakpoint
# condition on a field the index does not hold) reads every line; the read pages of the mapped file
# count as the process's memory until released, which made a million-event trace's RSS its file size.
RELEASE_EVERY = 20_000


class ReplayStore:
    """A trace file opened lazily. `index` is None until built (see needs_background_index)."""

    live = False
    complete = True

    def __init__(self, trace: TraceFile, agents: Sequence[str] = ()) -> None:
        self.trace = trace
        self.agents = tuple(agents)  # the user's --agent specs, which the header's agent may be
        self.path = trace.path
        self.header = trace.header
        self.warning = trace.warning
        # The status line on opening: what an import recognised, and the trace's notice (see TraceFile).
        self.import_note = " · ".join(n for n in (trace.import_note, trace.notice) if n) or None
        self.index: TraceIndex | None = None
        self._pool: ProcessPoolExecutor | None = None
        self._read: list[int] = []  # [lines read since the last release, lowest line, highest line]
        self.reenactment = Reenactment(self.path, self.header, len(trace), self.event, self.agents)
        if len(trace) <= INDEX_NOW_LIMIT:
            self.index = TraceIndex.build(trace)
        else:
            self.index, problem = TraceIndex.load_cache(self.path, len(trace))
            self.warning = " · ".join(filter(None, [self.warning, problem])) or None
        if self.index is None:
            # Started now, before the UI takes over stdio (the spawn needs real file handles),
            # so the scan runs on another core while the window opens.
            import multiprocessing  # here, not at the top: an import a small trace never needs
            from concurrent.futures import ProcessPoolExecutor

            spawn = multiprocessing.get_context("spawn")  # forking a threaded process is unsafe
            self._pool = ProcessPoolExecutor(max_workers=1, mp_context=spawn)
            self._scan = self._pool.submit(TraceIndex.scan_and_cache, self.path, len(trace))

    @property
    def needs_background_index(self) -> bool:
        return self.index is None

    def build_index(self) -> TraceIndex:
        """Waits (in a worker thread) for the scan started at open; the caller installs the result.

        The scan runs in a child process because a regex scan holds the GIL in bursts: in a
        thread it would make every key press wait. A trace the fast scan cannot read is then
        indexed here, event by event.
        """
        index = self._scan.result()
        if self._pool is not None:  # started in __init__ whenever the index was left to build here
            self._pool.shutdown()
        return index if index is not None else TraceIndex.build(self.trace)

    def __len__(self) -> int:
        return len(self.trace)

    def event(self, position: int) -> Event:
        return self.trace[position]

    def fields(self, position: int) -> dict[str, Any]:
        self._count_read(position)
        return self.trace.fields(position)

    def resolve_at(self, position: int) -> Resolve:
        return resolve_in(self.fields(position), position)

    def raw_line(self, position: int) -> bytes:
        self._count_read(position)
        return self.trace.raw_line(position)

    def _count_read(self, position: int) -> None:
        # Any thread may read (a search or filter worker, the UI): the count is approximate, and
        # releasing pages another reader still wants only makes it read them back from the page cache.
        read = self._read
        if not read:
            self._read = [1, position, position]
            return
        read[0] += 1
        read[1], read[2] = min(read[1], position), max(read[2], position)
        if read[0] >= RELEASE_EVERY:
            self._read = []
            self.release(read[1], read[2] - read[1] + 1)

    def release(self, first: int, count: int) -> None:
        """Events first..first+count-1 were only scanned: their pages need not stay in memory."""
        self.trace.release_lines(first, count)

    def function_frame(self, position: int) -> FrameSnapshot | None:
        return None  # lines inside a tool function run only live

    def frames_at(self, position: int, wait: bool = True) -> tuple[FrameSnapshot, ...] | None:
        """The real frames at `position`; a recording has none, so they come from re-executing it
        (None: the loop state is rebuilt). wait=False: only if the re-run has already got there."""
        if not wait:
            return self.reenactment.ready(position)
        try:
            return self.reenactment.frames_at(position)
        except TraceFormatError:  # a broken line: the panes say so
            return None

    def locals_pending(self, position: int) -> bool:
        """True while re-executing the recording can still bring `position`'s real locals."""
        return self.reenactment.pending(position)

    def reenact_towards(self, position: int, most: int) -> None:
        """Re-execute at most `most` more events towards `position`, not past it (the debugger's worker
        thread calls this until it is there, asking between calls where the user is now)."""
        self.reenactment.advance(min(most, position + 1 - len(self.reenactment.snapshots)))

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
        self.reenactment.close()
        self.trace.close()


class LiveStore:
    """Events of a running scenario, appended on the UI thread as the worker pulls them."""

    live = True
    warning = None
    needs_background_index = False

    def __init__(self, run: LiveRun | FrameworkLiveRun) -> None:
        from ..agents.user_agent import header_meta  # late: a live run has loaded it; a recording never needs it

        if run.trace_path is None:  # the session's title, its breakpoints file, diff and fork all name it
            raise ValueError("a live debugging session needs a run that writes its trace (LiveRun's trace_path)")
        self.run = run
        self.path = run.trace_path
        self.header = new_header(**header_meta(run.scenario), live=True)
        self.index = TraceIndex()
        self.events: list[Event] = []
        self.snapshots: list[tuple[FrameSnapshot, ...]] = []
        self._fields: dict[int, dict[str, Any]] = {}

    @property
    def complete(self) -> bool:
        return self.run.finished

    def append(self, event: Event, frames: tuple[FrameSnapshot, ...]) -> None:
        self.events.append(event)
        self.snapshots.append(frames)
        self.index.append(event)

    def __len__(self) -> int:
        return len(self.events)

    def event(self, position: int) -> Event:
        return self.events[position]

    def fields(self, position: int) -> dict[str, Any]:
        if position not in self._fields:
            self._fields[position] = self.events[position].model_dump(mode="json")
        return self._fields[position]

    def resolve_at(self, position: int) -> Resolve:
        return resolve_in(self.fields(position), position)

    def raw_line(self, position: int) -> bytes:
        return self.events[position].model_dump_json(fallback=repr).encode()

    def frames_at(self, position: int, wait: bool = True) -> tuple[FrameSnapshot, ...] | None:
        return self.snapshots[position]  # captured as the run was pulled: never waits

    def locals_pending(self, position: int) -> bool:
        return False

    def function_frame(self, position: int) -> FrameSnapshot | None:
        """The tool function the run is paused inside (stepped into from the tool_start at `position`)."""
        stop = self.run.line_stop
        return stop.frame if stop is not None and position == len(self.events) - 1 else None

    def close(self) -> Path | None:
        return self.run.close()


EventStore = ReplayStore | LiveStore
