"""Mermaid state diagrams of a run: its transitions, or the loop's state machine with counts on the edges."""

from __future__ import annotations

import re
from collections.abc import Iterable

from executor.events import EventBase
from executor.states import state_of

from ..trace.transitions import Transition

# Mermaid has no escaping that survives every renderer, so text from the run (tool names the
# model made up, error types) keeps only characters that cannot end a label or start markup.
_UNSAFE = re.compile(r"[^\w .,:()#+\-/=]", re.UNICODE)


def _label_text(label: str) -> str:
    return _UNSAFE.sub("_", label)[:60]


def mermaid_state_diagram(steps: Iterable[Transition], title: str | None = None) -> str:
    """stateDiagram-v2 text. States repeat across rounds (plan is one state), so the loop shows
    as a cycle; each edge is labelled with the iterations that took it."""
    ids: dict[str, str] = {}
    edges: dict[tuple[str, str], list[int]] = {}
    previous = "[*]"
    last: Transition | None = None
    for step in steps:
        state = ids.setdefault(step.label, f"s{len(ids)}")
        rounds = edges.setdefault((previous, state), [])
        if step.iteration not in rounds:
            rounds.append(step.iteration)
        previous, last = state, step
    lines = ["---", f"title: {_label_text(title)}", "---"] if title else []
    lines.append("stateDiagram-v2")
    lines += [f'    state "{_label_text(label)}" as {state}' for label, state in ids.items()]
    for (source, target), rounds in edges.items():
        lines.append(f"    {source} --> {target}" + ("" if source == "[*]" else f": {_rounds_text(rounds)}"))
    if last is not None and last.label.startswith(("chain_end", "chain_error")):
        lines.append(f"    {ids[last.label]} --> [*]")
    return "\n".join(lines) + "\n"


def _rounds_text(rounds: list[int]) -> str:
    """Iterations as ranges: "round 2", "rounds 1-14", "rounds 1-3, 5"."""
    spans: list[list[int]] = []
    for r in sorted(rounds):
        if spans and r == spans[-1][1] + 1:
            spans[-1][1] = r
        else:
            spans.append([r, r])
    text = ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in spans)
    return ("round " if len(rounds) == 1 else "rounds ") + text


def loop_state_diagram(events: Iterable[EventBase], title: str | None = None) -> str:
    """stateDiagram-v2 of the loop as a state machine (executor.states: planning, acting,
    observing, summarizing, finished, error). Consecutive events in one state are one visit;
    each edge is labelled with how many times the run moved that way."""
    edges: dict[tuple[str, str], int] = {}
    visits: dict[str, int] = {}
    previous = "[*]"
    for event in events:
        state = state_of(event)
        if state == previous:
            continue
        edges[(previous, state)] = edges.get((previous, state), 0) + 1
        visits[state] = visits.get(state, 0) + 1
        previous = state
    lines = ["---", f"title: {_label_text(title)}", "---"] if title else []
    lines.append("stateDiagram-v2")
    lines += [f"    {state}: {state} ({count} visit{'s' if count != 1 else ''})" for state, count in visits.items()]
    for (source, target), count in edges.items():
        lines.append(f"    {source} --> {target}: {count}×")
    if previous in ("finished", "error"):
        lines.append(f"    {previous} --> [*]")
    return "\n".join(lines) + "\n"
