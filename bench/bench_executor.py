"""Per-iteration cost of the loop: a bare ReAct loop, the executor, the executor + JSONL, LangChain.

Run: uv run --extra bench python bench/bench_executor.py [--iterations 1000] [--repeat 5] [--per-step 3000]
All four run in one process on the same scripted replies, (a)-(c) interleaved; ratios are what to compare.
--per-step N also times each step of one N-step run (traced loopscope and LangChain), and prints
the cost of a step near the start and near the end: how the cost grows as the scratchpad does.
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import itertools

from executor import AgentExecutor, ModelReply, Tool, create_react_agent
from executor.agents.prompt import REACT_PROMPT
from executor.models.chat_model import cut_at_stop
from tracer.trace.writer import TraceWriter


def replies(n: int) -> list[str]:
    acts = [f" Step {i}: look again.\nAction: Echo\nAction Input: item {i}" for i in range(n - 1)]
    return acts + [" I now know the final answer.\nFinal Answer: done"]


def echo(text: str) -> str:
    return f"echo:{text}"


# (a) The floor: the least a ReAct loop can do — one prompt string, one regex, one tool call per round.
ACTION = re.compile(r"Action\s*\d*\s*:[\s]*(.*?)Action\s*\d*\s*Input\s*\d*\s*:[\s]*(.*)", re.DOTALL)


def bare_loop(script: list[str], question: str) -> str:
    tools = {"Echo": echo}
    head = REACT_PROMPT.replace("{tools}", "Echo - repeats").replace("{tool_names}", "Echo")
    head = head.replace("{input}", question).replace("{agent_scratchpad}", "")
    scratchpad = ""
    replies_left = iter(script)
    for _ in range(len(script) + 1):
        prompt = head + scratchpad  # what would be sent to the model
        text = next(replies_left)
        text = text[: text.find("\nObservation")] if "\nObservation" in text else text
        if "Final Answer:" in text:
            return text.split("Final Answer:")[-1].strip()
        match = ACTION.search(text)
        tool, tool_input = match.group(1).strip(), match.group(2).strip(" ").strip('"')
        observation = tools[tool](tool_input) if tool in tools else f"{tool} is not a valid tool"
        scratchpad += f"{text}\nObservation: {observation}\nThought: "
        del prompt
    return "stopped"


class CannedModel:
    """Answers from a list like ScriptedModel but keeps no prompts, like the bare loop and FakeListLLM."""

    model_name = "canned"

    def __init__(self, script: list[str]) -> None:
        self._replies = iter(script)

    def generate(self, prompt: str, stop) -> ModelReply:
        return ModelReply(cut_at_stop(next(self._replies), stop))


def loopscope_executor(script: list[str]) -> AgentExecutor:
    model = CannedModel(script)
    tools = [Tool(name="Echo", description="repeats", func=echo)]
    return AgentExecutor(
        agent=create_react_agent(model, tools), tools=tools, max_iterations=len(script) + 1
    )  # the default clock, as a real run has


def drain(executor: AgentExecutor, listeners=()) -> dict:
    return executor.invoke({"input": "bench"}, listeners)


def langchain_run(script: list[str], on_step=None):
    try:
        from langchain_classic.agents import AgentExecutor as LCExecutor
        from langchain_classic.agents import create_react_agent as lc_create
        from langchain_core.language_models.fake import FakeListLLM
        from langchain_core.prompts import PromptTemplate
        from langchain_core.tools import Tool as LCTool
    except ImportError:
        return None
    llm = FakeListLLM(responses=script)
    tools = [LCTool(name="Echo", description="repeats", func=echo)]
    agent = lc_create(llm, tools, PromptTemplate.from_template(REACT_PROMPT))
    executor = LCExecutor(agent=agent, tools=tools, max_iterations=len(script) + 1)
    if on_step is None:
        return lambda: executor.invoke({"input": "bench"})
    from langchain_core.callbacks import BaseCallbackHandler

    class StepClock(BaseCallbackHandler):
        def on_agent_action(self, action, **kwargs):  # once per step, as finish_check is for loopscope
            on_step()

    return lambda: executor.invoke({"input": "bench"}, config={"callbacks": [StepClock()]})


def step_times(n: int) -> dict[str, tuple[float, float]]:
    """Per-step seconds at steps 1-5 and at the last five of an n-step run: traced loopscope, LangChain."""
    script = replies(n)
    marks: list[float] = []
    with tempfile.TemporaryDirectory() as tmp, TraceWriter(Path(tmp) / "steps.jsonl") as writer:

        def mark(event) -> None:
            writer(event)
            if event.kind == "finish_check":
                marks.append(time.perf_counter())

        started = time.perf_counter()
        drain(loopscope_executor(script), [mark])
    found = {"loopscope + JSONL": _ends([started, *marks])}
    lc = langchain_run(script, on_step=lambda: marks.append(time.perf_counter()))
    if lc is not None:
        marks.clear()
        started = time.perf_counter()
        lc()
        found["LangChain"] = _ends([started, *marks])
    return found


def _ends(marks: list[float]) -> tuple[float, float]:
    gaps = [b - a for a, b in itertools.pairwise(marks)]
    return statistics.median(gaps[:5]), statistics.median(gaps[-5:])


def best_of(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        fn()
        times.append(time.perf_counter() - started)
    return min(times)


def interleaved_best(runs: dict, repeat: int) -> dict[str, float]:
    best = dict.fromkeys(runs, float("inf"))
    for _ in range(repeat):
        for name, fn in runs.items():
            started = time.perf_counter()
            fn()
            best[name] = min(best[name], time.perf_counter() - started)
    return best


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--iterations", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--per-step", type=int, default=0, metavar="N", help="also time each step of an N-step run")
    args = parser.parse_args()
    n = args.iterations
    script = replies(n)
    assert bare_loop(script, "bench") == "done"
    with tempfile.TemporaryDirectory() as tmp:

        def with_writer():
            with TraceWriter(Path(tmp) / "bench.jsonl") as writer:
                drain(loopscope_executor(script), [writer])

        # Interleaved, one of each per repeat, best of each: on a shared machine a burst of load
        # then costs every case the same, and the ratios stay comparable.
        runs = {
            "(a) bare ReAct loop": lambda: bare_loop(script, "bench"),
            "(b) executor, events drained": lambda: drain(loopscope_executor(script)),
            "(c) executor + JSONL trace": with_writer,
        }
        results = interleaved_best(runs, args.repeat)
        size = (Path(tmp) / "bench.jsonl").stat().st_size
    lc = langchain_run(script)
    if lc is not None:
        results["(d) LangChain AgentExecutor"] = best_of(lambda: langchain_run(script)(), args.repeat)
    floor = results["(a) bare ReAct loop"]
    print(f"{n} iterations, best of {args.repeat}; trace file {size / 1e6:.1f} MB")
    for name, seconds in results.items():
        print(f"  {name:<32} {seconds * 1e6 / n:9.1f} µs/iteration   {seconds / floor:7.1f}x bare")
    b, c = results["(b) executor, events drained"], results["(c) executor + JSONL trace"]
    print(f"  (c)/(b) = {c / b:.2f}  (target <= 1.5)   (b)/(a) = {b / floor:.1f}  (target <= 10)")
    if lc is not None:
        print(f"  LangChain/(c) = {results['(d) LangChain AgentExecutor'] / c:.0f}x  (target >= 50)")
    else:
        print("  (d) skipped: install the extra with `uv run --extra bench ...`")
    if args.per_step:
        for name, (first, last) in step_times(args.per_step).items():
            print(
                f"  per step, {name:<18} step 1-5: {first * 1e6:8.1f} µs   "
                f"steps {args.per_step - 4}-{args.per_step}: {last * 1e6:8.1f} µs"
            )


if __name__ == "__main__":
    main()
