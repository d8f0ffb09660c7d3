"""A run's transitions as a Mermaid state diagram: each kind of transition a state, each move an edge."""

from __future__ import annotations

import re
from typing import Iterable

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
