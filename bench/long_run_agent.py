"""A ReAct agent that searches until a high max_iterations stops it: ~7 events a round, so a 2,000-event
trace the debugger re-executes for its variables (bench_debugger.py records it; `--agent` names it)."""

from __future__ import annotations

from pathlib import Path

from executor import AgentExecutor, ChatModel, ManualClock, ScriptedModel, create_react_agent
from tutorials.flower_shop import QUESTION, search_and_calculator, thought

EVENTS_A_ROUND = 7  # llm_start, llm_end, agent_action, tool_start, tool_end, step, finish_check
SPEC = f"{Path(__file__).resolve()}:build"  # how the debugger is told to trust and re-run it
ROUNDS = 284  # 284 rounds, its start and its end: 1,996 events, under the re-execution limit of 2,000


def replies(rounds: int = ROUNDS) -> list[str]:
    return [thought(f"One more source, number {n}.", "Search", f"red rose price, source {n}") for n in range(rounds)]


def build(model: ChatModel) -> AgentExecutor:
    """The executor (the scripted replies answer when recording; the recording's when re-executing)."""
    return AgentExecutor(create_react_agent(model, tools := search_and_calculator(model)), tools, max_iterations=ROUNDS)


def record(path: Path) -> Path:
    """Record the run into `path` (a header naming this agent, so the debugger re-executes it when trusted)."""
    from tracer.agents.user_agent import load_user_agent
    from tracer.trace.writer import TraceWriter

    agent = load_user_agent(SPEC, {"input": QUESTION})
    executor = agent.executor(ScriptedModel(replies()), clock=ManualClock(tick=0.001), run_id_factory=lambda: "long")
    with TraceWriter(path, **agent.header_meta(), clock_tick=0.001) as writer:
        executor.invoke(agent.inputs(), [writer])
    return path
