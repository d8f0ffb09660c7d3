"""Re-record the four-loops tutorial's fixtures: one question through loopscope's executor and three frameworks' loops.

    uv run python scripts/record_four_loops.py            # writes fixtures/four_loops/*.jsonl
    uv run python scripts/record_four_loops.py OUT_DIR    # writes OUT_DIR/*.jsonl (the tests record into tmp)

Offline: loopscope's part is `loopscope record four-loops-loopscope`; each framework's part is that framework's
own agent (tutorials/four_loops_agents.py) run by its adapter (tracer/agents/frameworks.py) with every model call
answered by the tutorial's replies, as `loopscope record MODULE:ATTR --replies FILE` does. Times come from a
manual clock, so a re-recording gives the same events.
"""

from __future__ import annotations

import sys
from pathlib import Path

from executor import ManualClock
from tracer.agents.framework_agent import load_framework_agent
from tracer.agents.frameworks import answers_in_order
from tracer.cli.record import record_run
from tracer.cli.record_framework import as_recorded
from tutorials import SCENARIOS
from tutorials.four_loops import QUESTION, REPLIES

TICK = 0.001  # as loopscope's own scripted recordings: every clock read moves time on by a millisecond
# Part name -> the agent that records it (a no-argument function returning the framework's agent).
AGENTS = {
    "four-loops-langgraph": "tutorials.four_loops_agents:langgraph_agent",
    "four-loops-openai-agents": "tutorials.four_loops_agents:openai_agents_agent",
    "four-loops-pydantic-ai": "tutorials.four_loops_agents:pydantic_ai_agent",
}


def record_all(folder: Path) -> list[Path]:
    """Record the four parts into `folder`; the paths written, in the tutorial's order."""
    folder.mkdir(parents=True, exist_ok=True)
    loopscope = SCENARIOS["four-loops-loopscope"]
    written = [folder / loopscope.fixture.name]
    record_run(loopscope, written[0])
    for name, spec in AGENTS.items():
        agent = load_framework_agent(spec, offline=True)
        assert agent is not None, f"{spec} is not a framework's agent"
        path = folder / SCENARIOS[name].fixture.name
        answer = answers_in_order([as_recorded(reply) for reply in REPLIES])
        meta = {**agent.header_meta(), "scenario": name, "clock_tick": TICK}
        agent.adapter.record(agent.agent, QUESTION, path, answer, meta, clock=ManualClock(tick=TICK).monotonic)
        written.append(path)
    return written


def main(argv: list[str]) -> int:
    folder = Path(argv[0]) if argv else SCENARIOS["four-loops-loopscope"].fixture.parent
    for path in record_all(folder):
        print(f"recorded {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
