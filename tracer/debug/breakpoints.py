"""Breakpoints on events (kind, tool, iteration, method, source line, condition), with hits, ignore counts and a sidecar file."""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..i18n import Message, say
from ..trace.index import TraceIndex, scan_windows
from ..trace.numpy_on_use import np
from ..trace.sidecar import SidecarRefused, loads_json, read_sidecar, write_sidecar
from .breakpoint_spec import BreakpointSpecError, parse_spec, quoted_start  # noqa: F401 (BreakpointSpecError: re-exported)
from .conditions import Condition, Resolve
from .line_breakpoints import Callees, Reach, is_user_file, reach, same_file
from .shipped import is_shipped

SIDECAR_SUFFIX = ".breakpoints.json"
SIDECAR_FORMAT = "loopscope-breakpoints"
MAX_SIDECAR_BYTES = 1 << 20  # hundreds of breakpoints fit in a few kilobytes
MAX_BREAKPOINTS = 1000
ResolveAt = Callable[[int], Resolve]


@dataclass
class Breakpoint:
    """One breakpoint. `target` is what it watches; `condition` narrows it further."""

    number: int
    target: str
    value: Any = None  # kind name, tool name, iteration number, method name, (file, line) or None
    condition: Condition | None = None
    enabled: bool = True
    temporary: bool = False
    ignore: int = 0
    hits: int = 0
    reach: Reach | None = field(default=None, repr=False)  # a user-file line: the tool calls that run it

    @property
    def spec(self) -> str:
        """The text that recreates this breakpoint (without temp/ignore, which are stored apart)."""
        condition = f"if {self.condition.text}" if self.condition is not None else ""
        if self.target == "condition":
            return condition
        value = f"{self.value[0]}:{self.value[1]}" if self.target == "line" else self.value
        what = f"{self.target}={value}"
        return f"{what} {condition}" if condition else what

    def describe(self, lang: str = "en") -> str:
        """One line for the breakpoints pane: number, spec, hits (or why no event can reach it), and flags."""
        problem = self.reach.problem if self.reach is not None else None
        parts = [f"#{self.number}", self.spec, (problem or Message("debugger.bp.hits", {"hits": self.hits})).text(lang)]
        if self.ignore:
            parts.append(say("debugger.bp.ignore", lang, count=self.ignore))
        if self.temporary:
            parts.append(say("debugger.bp.temporary", lang))
        if not self.enabled:
            parts.append(say("debugger.bp.disabled", lang))
        return "  ".join(parts)

    # -- matching --------------------------------------------------------------------------------
    def static_mask(self, index: TraceIndex, lo: int, hi: int) -> np.ndarray:
        """Events lo..hi-1 this breakpoint watches, before its condition is checked."""
        if self.target == "kind":
            return index.shape_mask(lambda s: s.kind == self.value, lo, hi)
        if self.target == "tool":
            # Where the tool is run (or asked for and found missing), not every event naming it.
            return index.shape_mask(lambda s: s.kind in ("tool_start", "invalid_tool") and s.tool == self.value, lo, hi)
        if self.target == "line":
            file, line = self.value
            mask = index.shape_mask(lambda s: s.line == line and same_file(s.file, file), lo, hi)
            return mask | self.reach.mask(index, lo, hi) if self.reach is not None and self.reach.tools else mask
        if self.target == "iteration":
            return _iteration_begins(index, self.value, lo, hi)
        if self.target == "method":
            return _method_entered(index, self.value, lo, hi)
        return np.ones(hi - lo, dtype=bool)

    def plan(self, index: TraceIndex, lo: int, hi: int) -> tuple[np.ndarray, bool]:
        """(mask, exact): when not exact, marked events still need `condition.matches`."""
        mask = self.static_mask(index, lo, hi)
        if self.condition is None:
            return mask, True
        narrowed, exact = self.condition.plan(index, lo, hi)
        return mask & narrowed, exact


def _iteration_begins(index: TraceIndex, number: int, lo: int, hi: int) -> np.ndarray:
    start = max(lo - 1, 0)
    its = index.iterations(start, hi)
    begins = its == number
    if len(its) > 1:
        begins[1:] &= its[:-1] != number
    return begins[lo - start :]


def _entered(previous: tuple[str, ...] | None, current: tuple[str, ...], method: str) -> bool:
    """True when `current` is the first event inside a call of `method` (a new call, not the same one)."""
    if method not in current:
        return False
    depth = current.index(method) + 1
    return previous is None or previous[:depth] != current[:depth]


def _method_entered(index: TraceIndex, method: str, lo: int, hi: int) -> np.ndarray:
    shapes = index.shapes
    if hi <= lo:
        return np.zeros(0, dtype=bool)
    current = index.shape_codes(lo, hi).astype(np.int64)
    previous = np.empty_like(current)
    previous[1:] = current[:-1]
    previous[0] = index.shape_codes(lo - 1, lo)[0] if lo > 0 else -1
    pairs, inverse = np.unique((previous + 1) * (len(shapes) + 1) + current, return_inverse=True)
    width = len(shapes) + 1
    table = np.array(
        [
            _entered(shapes[p // width - 1].frames if p // width else None, shapes[p % width].frames, method)
            for p in pairs
        ],
        dtype=bool,
    )
    return table[inverse]


CANCEL_CHECK_EVERY = 2048  # events checked between two looks at `cancelled` (each check is microseconds)


class SearchCancelled(Exception):
    """A breakpoint search was stopped before it found anything; `last_checked` is the last event it
    checked (None: none yet). Every event up to it counted its hits, none after it did."""

    def __init__(self, last_checked: int | None) -> None:
        super().__init__(last_checked)
        self.last_checked = last_checked


# -- the set --------------------------------------------------------------------------------------
@dataclass
class BreakpointSet:
    """Numbered breakpoints, saved to `path` (a sidecar next to the trace) on every change."""

    path: Path | None = None
    items: list[Breakpoint] = field(default_factory=list)
    warning: str | None = None
    callees: Callees | None = None  # tool name -> its function: where user-file line breakpoints reach
    traced: Callable[[], frozenset[str]] | None = None  # live: tools whose calls stop on the line itself
    _next: int = 1

    @classmethod
    def for_trace(cls, trace_path: str | os.PathLike[str]) -> BreakpointSet:
        if is_shipped(trace_path):  # a shipped recording is read-only: its breakpoints last one session
            return cls(None)
        path = Path(str(trace_path) + SIDECAR_SUFFIX)
        if {"site-packages", "dist-packages"} & set(path.resolve().parts):
            path = Path.cwd() / path.name  # an installed fixture: keep breakpoints with the user
        breakpoints = cls(path)
        breakpoints.load()
        return breakpoints

    def __iter__(self) -> Iterator[Breakpoint]:
        return iter(list(self.items))

    def __len__(self) -> int:
        return len(self.items)

    def get(self, number: int) -> Breakpoint | None:
        return next((bp for bp in self.items if bp.number == number), None)

    def add(self, spec: str, save: bool = True) -> Breakpoint:
        """Parse and add a breakpoint; an identical one already set is returned instead."""
        parts = parse_spec(spec)
        breakpoint = Breakpoint(self._next, **parts)
        for existing in self.items:
            if existing.spec == breakpoint.spec:
                return existing
        self._next += 1
        self.items.append(breakpoint)
        self.update_reach()
        if save:
            self.save()
        return breakpoint

    def remove(self, number: int) -> None:
        self.items = [bp for bp in self.items if bp.number != number]
        self.save()

    def update(self, number: int, **changes: Any) -> None:
        breakpoint = self.get(number)
        if breakpoint is not None:
            for name, value in changes.items():
                setattr(breakpoint, name, value)
            self.save()

    def toggle_line(self, file: str, line: int) -> Breakpoint | None:
        """Remove the breakpoint on file:line if there is one, else add it (returns the new one)."""
        for bp in self.items:
            if bp.target == "line" and bp.condition is None and bp.value[1] == line and same_file(file, bp.value[0]):
                self.remove(bp.number)
                return None
        return self.add(f"line={file}:{line}")

    def lines_in(self, file: str) -> dict[int, bool]:
        """Line numbers of `file` that carry a line breakpoint, and whether it is enabled."""
        return {bp.value[1]: bp.enabled for bp in self.items if bp.target == "line" and same_file(file, bp.value[0])}

    # -- stopping ---------------------------------------------------------------------------------
    def first_stop(
        self,
        index: TraceIndex,
        resolve_at: ResolveAt,
        start: int,
        end: int,
        direction: int,
        cancelled: Callable[[], bool] | None = None,
    ) -> tuple[int, list[Breakpoint]] | None:
        """The first event from start to end (inclusive, walking `direction`) where a breakpoint stops.

        Like pdb: every breakpoint reached counts a hit; one with an ignore count left uses one
        up instead of stopping; a temporary one is deleted once it has stopped. `cancelled` is
        asked every few thousand events checked; when it says yes, SearchCancelled names the
        last event checked (esc during a long search, or the window closing).
        """
        active = [bp for bp in self.items if bp.enabled]
        if not active or (end - start) * direction < 0:
            return None
        self.update_reach()
        checked, last_checked = 0, None
        for lo, hi in scan_windows(start, end, direction):
            plans = [(bp, *bp.plan(index, lo, hi)) for bp in active]
            union = np.logical_or.reduce([mask for _bp, mask, _exact in plans])
            candidates = np.flatnonzero(union) + lo
            for position in candidates if direction > 0 else candidates[::-1]:
                checked += 1
                if cancelled is not None and not checked % CANCEL_CHECK_EVERY and cancelled():
                    raise SearchCancelled(last_checked)
                last_checked = int(position)
                stopping = self._hits_at(int(position), plans, lo, resolve_at)
                if stopping:
                    spent = [bp for bp in stopping if bp.temporary]
                    for bp in spent:
                        self.items.remove(bp)
                    if spent:
                        self.save()
                    return int(position), stopping
        return None

    def _hits_at(self, position: int, plans: list, lo: int, resolve_at: ResolveAt) -> list[Breakpoint]:
        stopping = []
        resolved: Resolve | None = None
        for bp, mask, exact in plans:
            if not mask[position - lo]:
                continue
            if not exact:
                resolved = resolved or resolve_at(position)
                if not bp.condition.matches(resolved):
                    continue
            bp.hits += 1
            if bp.ignore > 0:
                bp.ignore -= 1
            else:
                stopping.append(bp)
        return stopping

    def marks(self, index: TraceIndex, resolve_at: ResolveAt, lo: int, hi: int) -> np.ndarray:
        """Which of events lo..hi-1 an enabled breakpoint watches (no hits counted), for display."""
        marked = np.zeros(max(hi - lo, 0), dtype=bool)
        self.update_reach()
        for bp in self.items:
            if not bp.enabled or hi <= lo:
                continue
            mask, exact = bp.plan(index, lo, hi)
            if not exact and bp.condition is not None:  # not exact: a condition the index cannot decide
                mask = mask.copy()
                for offset in np.flatnonzero(mask):
                    mask[offset] = bp.condition.matches(resolve_at(lo + int(offset)))
            marked |= mask
        return marked

    def update_reach(self) -> None:
        """Work out which tool calls each user-file line breakpoint reaches (as far as is known now)."""
        callees = self.callees() if self.callees is not None else {}
        traced = self.traced() if self.traced is not None else frozenset()
        for bp in self.items:
            if bp.target == "line" and is_user_file(bp.value[0]):
                found = reach(bp.value[0], bp.value[1], callees)
                bp.reach = Reach(found.tools, found.problem, traced)

    # -- the sidecar ------------------------------------------------------------------------------
    def save(self) -> None:
        if self.path is None:
            return
        entries = [
            {"spec": bp.spec, "enabled": bp.enabled, "temporary": bp.temporary, "ignore": bp.ignore}
            for bp in self.items
        ]
        text = json.dumps({"format": SIDECAR_FORMAT, "version": 1, "breakpoints": entries}, indent=1) + "\n"
        try:
            write_sidecar(self.path, text.encode("utf-8"))
        except SidecarRefused as refused:
            self.warning = f"could not save breakpoints: {refused}"
        except OSError as error:
            self.warning = f"could not save breakpoints to {self.path}: {error.strerror}"

    def load(self) -> None:
        if self.path is None:
            return
        try:
            raw = read_sidecar(self.path, MAX_SIDECAR_BYTES)
            if raw is None:
                return
            data = loads_json(raw)
            if not isinstance(data, dict) or data.get("format") != SIDECAR_FORMAT:
                raise ValueError("not a breakpoints file")
            if not isinstance(data["breakpoints"], list) or len(data["breakpoints"]) > MAX_BREAKPOINTS:
                raise ValueError(f"'breakpoints' must be a list of at most {MAX_BREAKPOINTS}")
            for entry in data["breakpoints"]:
                bp = self.add(entry["spec"], save=False)
                bp.enabled = bool(entry.get("enabled", True))
                bp.temporary = bool(entry.get("temporary", False)) or bp.temporary
                bp.ignore = int(entry.get("ignore", 0))
        except SidecarRefused as refused:
            self.items, self._next = [], 1
            self.warning = f"ignored breakpoints: {refused}"
        except (OSError, ValueError, KeyError, TypeError, AttributeError, OverflowError) as error:
            self.items, self._next = [], 1
            self.warning = (
                f"ignored {self.path}: {quoted_start(str(error), 120)}; it will be rewritten when you change "
                "a breakpoint"
            )
