"""Two runs side by side, aligned by transition: where they part and what differs there."""

from __future__ import annotations

import difflib
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from executor.events import EventBase

from ..trace.literal_text import scrub
from ..trace.normalise import short_diff
from ..trace.transitions import Trace, Transition

# What a learner calls each detail when two runs disagree about it.
DETAIL_NAMES = {
    "reply": "reply text",
    "tool_calls": "tool calls",
    "tool_input": "action input",
    "tool": "action",
    "observation": "observation",
    "return_values": "final answer",
    "outputs": "outcome",
    "message": "error message",
    "error": "error",
    "inputs": "inputs",
    "settings": "settings",
    "tools": "tools",
    "n_steps": "step count",
    "iterations": "iterations",
}


@dataclass(frozen=True)
class AlignedRow:
    """One transition of A next to its counterpart in B (either may be missing)."""

    a: Transition | None
    b: Transition | None

    @property
    def same(self) -> bool:
        return (
            self.a is not None
            and self.b is not None
            and self.a.label == self.b.label
            and self.a.detail == self.b.detail
        )

    @property
    def either(self) -> Transition:
        """A's transition, or B's where A has none (align never makes a row with neither)."""
        present = self.a if self.a is not None else self.b
        if present is None:
            raise ValueError("an aligned row holds a transition of A, of B, or both")
        return present

    @property
    def marker(self) -> str:
        if self.same:
            return "="
        if self.a is None:
            return ">"
        return "<" if self.b is None else "≠"


@dataclass
class TraceDiff:
    a: Trace
    b: Trace
    rows: list[AlignedRow]
    parted_at: int | None  # index into rows of the first row that is not the same
    differences: list[str] = field(default_factory=list)  # readable lines about that row

    @property
    def same(self) -> bool:
        return self.parted_at is None


def align(a: list[Transition], b: list[Transition]) -> list[AlignedRow]:
    """Pair transitions in step while their labels agree (so the parting point is where a
    learner would look), then pair the rest by longest common runs of labels, so an inserted
    retry or an extra round shows as a row on one side instead of shifting everything after it."""
    common = 0
    while common < min(len(a), len(b)) and a[common].label == b[common].label:
        common += 1
    rows = [AlignedRow(a[k], b[k]) for k in range(common)]
    rest_a, rest_b = a[common:], b[common:]
    matcher = difflib.SequenceMatcher(None, [t.label for t in rest_a], [t.label for t in rest_b], autojunk=False)
    for op, a0, a1, b0, b1 in matcher.get_opcodes():
        paired = min(a1 - a0, b1 - b0) if op in ("equal", "replace") else 0
        rows += [AlignedRow(rest_a[a0 + k], rest_b[b0 + k]) for k in range(paired)]
        rows += [AlignedRow(t, None) for t in rest_a[a0 + paired : a1]]
        rows += [AlignedRow(None, t) for t in rest_b[b0 + paired : b1]]
    return rows


def _describe_value(name: str, a: Any, b: Any) -> list[str]:
    label = DETAIL_NAMES.get(name, name)
    if isinstance(a, dict) and isinstance(b, dict):  # settings, inputs: only the keys that changed
        changed = [key for key in [*a, *(k for k in b if k not in a)] if a.get(key, _MISSING) != b.get(key, _MISSING)]
        return [f"{label} differ in {', '.join(map(str, changed))}:"] + [
            f"  {key}: A {_shown(a, key)}, B {_shown(b, key)}" for key in changed
        ]
    if isinstance(a, str) and isinstance(b, str) and ("\n" in a or "\n" in b or len(a) + len(b) > 100):
        return [f"{label} differs:"] + [
            "  " + line
            for line in short_diff(a, b).replace("--- recorded", "--- A").replace("+++ re-run", "+++ B").splitlines()
        ]
    return [f"{label} differs:", f"  A: {a!r}", f"  B: {b!r}"]


_MISSING = object()


def _shown(values: dict, key: Any) -> str:
    return repr(values[key]) if key in values else "(not set)"


def describe_row(row: AlignedRow) -> list[str]:
    """What differs in one aligned row, in the words of the loop (reply, action, observation, outcome)."""
    if row.a is None or row.b is None:
        only = row.either
        return [f"only {'B' if row.a is None else 'A'} has {only.label} (event {only.seq}, iteration {only.iteration})"]
    if row.a.label != row.b.label:
        return [f"A does {row.a.label} where B does {row.b.label}"]
    lines: list[str] = []
    for name in list(row.a.detail) + [k for k in row.b.detail if k not in row.a.detail]:
        va, vb = row.a.detail.get(name), row.b.detail.get(name)
        if va != vb:
            lines += _describe_value(name, va, vb)
    return lines


def diff_traces(a: Trace | str | os.PathLike[str], b: Trace | str | os.PathLike[str]) -> TraceDiff:
    """Align two runs by transition and find where they part (None when they never do)."""
    trace_a, trace_b = Trace.of(a), Trace.of(b)
    rows = align(trace_a.transitions(), trace_b.transitions())
    parted = next((i for i, row in enumerate(rows) if not row.same), None)
    differences = describe_row(rows[parted]) if parted is not None else []
    return TraceDiff(trace_a, trace_b, rows, parted, differences)


def _cell(t: Transition | None) -> str:
    return "" if t is None else f"{t.seq:>4} {t.label}"


def render_diff(diff: TraceDiff, names: tuple[str, str] = ("A", "B"), context: int = 3) -> list[str]:
    """The aligned table (identical stretches folded), then the parting point and the outcomes."""
    width = max([len(_cell(r.a)) for r in diff.rows] + [20]) + 2
    lines = [
        f"A  {names[0]}  ({len(diff.a.events)} events)",
        f"B  {names[1]}  ({len(diff.b.events)} events)",
        "",
        f"     {'ev A':<{width}}  {'ev B'}",
    ]
    end = len(diff.rows) if diff.parted_at is None else min(len(diff.rows), diff.parted_at + context + 1)
    folded_until = (diff.parted_at if diff.parted_at is not None else len(diff.rows)) - context
    hidden = range(1, folded_until - 1) if folded_until - 2 >= 2 else range(0)  # fold 2 rows or more
    for index, row in enumerate(diff.rows[:end]):
        if index in hidden:
            if index == hidden.start:
                lines.append(f"     ... {len(hidden)} identical transitions ...")
            continue
        lines.append(f"  {row.marker}  {_cell(row.a):<{width}}  {_cell(row.b)}")
    if end < len(diff.rows):
        lines.append(f"     ... {len(diff.rows) - end} more rows after the parting point ...")
    lines.append("")
    if diff.parted_at is None:
        lines.append("The runs take the same transitions with the same replies, actions and observations.")
    else:
        row = diff.rows[diff.parted_at]
        where = ", ".join(f"{side} event {t.seq}" for side, t in (("A", row.a), ("B", row.b)) if t)
        lines.append(f"The runs part at transition {diff.parted_at} ({where}):")
        lines += ["  " + line for line in diff.differences]
    lines += ["", f"A {diff.a.outcome()}", f"B {diff.b.outcome()}"]
    for side, fork, parent in (("B", diff.b, diff.a), ("A", diff.a, diff.b)):
        stale = stale_replies(fork, parent)
        if stale:
            events = ", ".join(str(seq) for seq in stale)
            lines.append(
                f"note: {side} is a fork whose model calls at events {events} got the other run's replies although "
                f"their prompts differ (it answered them from the recording): {side}'s outcome may be stale"
            )
    return [scrub(line) for line in lines]


def stale_replies(fork: Trace, parent: Trace) -> list[int]:
    """The llm_start seqs of `fork` after its fork point whose prompt differs from `parent`'s call in the
    same place while the reply is the same: a fork that answers a changed prompt from the recording."""
    if fork.header.fork_at is None or getattr(fork.header, "after_fork", None) != "recording":
        return []
    calls = [_calls(trace.events, fork.header.fork_at) for trace in (fork, parent)]
    return [
        start.seq
        for (start, reply), (old_start, old_reply) in zip(*calls)
        if start.prompt != old_start.prompt and reply == old_reply
    ]


def _calls(events: Sequence[EventBase], after: int) -> list[tuple[Any, str | None]]:
    """(llm_start, the reply text of its llm_end) for each model call after event `after`."""
    calls, start = [], None
    for event in events[after + 1 :]:
        if event.kind == "llm_start":
            start = event
        elif event.kind == "llm_end" and start is not None:
            calls.append((start, getattr(event, "text", None)))
            start = None
    return calls
