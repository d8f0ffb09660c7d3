"""A recorded run as a regression test: replayed through today's agent, failing at the first event that differs."""

from __future__ import annotations

import os
from pathlib import Path

from ..replay.recorded_answers import ReplayDivergence
from ..replay.verify import VerifyResult, verify_trace


def replay_run(trace: str | os.PathLike[str], agent: str) -> VerifyResult:
    """Re-run the recorded `trace` through `agent` (MODULE:ATTR: your build(model), a LangGraph graph, ...),
    every model call answered from the recording and every deterministic tool run for real. Raises
    ReplayDivergence with the short report (the event, the field, both values) when the run does something
    else; naming the agent here is what trusts it to run."""
    __tracebackhide__ = True
    result = verify_trace(Path(trace), [agent])
    if result.status != "ok":
        notes = "".join(f"\n{note}" for note in result.notes)
        raise ReplayDivergence(
            f"{Path(trace).name} no longer replays the same through {agent}:\n{result.message}{notes}"
        )
    return result
