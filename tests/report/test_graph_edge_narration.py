"""A LangGraph run is narrated by what its graph decides (the edge after the model node), never by an
`isinstance(output, AgentFinish)` test it does not make; waits on the HTML page read as people read them."""

from __future__ import annotations

import io
import re

import pytest
from rich.console import Console

from tests.helpers.cli_run import loopscope
from tests.helpers.paths import FIXTURES
from tracer.report.html.trace_page import trace_page
from tracer.report.narration.ledger import Ledger
from tracer.report.narration.narrator import Narrator
from tracer.trace.reader import load_trace
from tracer.tui.views.event_summary import summary

GRAPH_RUN = FIXTURES / "langchain" / "retry_jitter.jsonl"  # create_agent + ToolRetryMiddleware
CLASSIC_RUN = FIXTURES / "langchain" / "rose_pricing.jsonl"  # LangChain's classic AgentExecutor


def narrated(path, lang="en"):
    buffer = io.StringIO()
    narrator, ledger = Narrator(Console(file=buffer, width=300, color_system=None), lang=lang), Ledger()
    for event in load_trace(path)[1]:
        narrator(event)
        ledger.add(event)
    return buffer.getvalue(), ledger.lines(lang)


def test_a_graph_run_says_where_its_edge_went_and_never_isinstance():
    out, ledger = narrated(GRAPH_RUN)
    assert "isinstance" not in out and not any("isinstance" in line or "plan called" in line for line in ledger)
    tools_at = out.index("the reply asked for tools and they ran → the edge goes back to the model node")
    end_at = out.index("the reply has no tool calls → the edge after the model node goes to END")
    assert out.index("Observation:") < tools_at < end_at < out.index("> Finished chain.")
    assert "edge after the model node: tools, END" in ledger


def test_a_graph_run_says_so_in_chinese_too():
    out, ledger = narrated(GRAPH_RUN, "zh")
    assert "回复里没有工具调用 → 模型节点之后的边走向 END" in out and "isinstance" not in out
    assert "模型节点之后的边：tools, END" in ledger


def test_langchains_classic_executor_still_makes_its_isinstance_test():
    out, _ledger = narrated(CLASSIC_RUN)
    assert out.count("isinstance(output, AgentFinish) → False") == 2
    assert out.count("isinstance(output, AgentFinish) → True") == 1 and "edge" not in out


def test_the_timeline_and_the_page_say_the_edge():
    checks = [e for e in load_trace(GRAPH_RUN)[1] if e.kind == "finish_check"]
    assert [e.decided_by for e in checks] == ["graph_edge", "graph_edge"]
    assert [summary(e) for e in checks] == ["→ model ← the tools ran", "→ END ← the reply has no tool calls"]
    page = trace_page(GRAPH_RUN)
    assert "→ END (the reply has no tool calls)" in page and "isinstance(output, AgentFinish)" not in page


def test_the_pages_retry_waits_are_rounded():
    page = trace_page(GRAPH_RUN)  # jittered waits: 0.9... s, not seventeen digits
    waits = re.findall(r"waits ([0-9.]+) s", page)
    assert len(waits) == 6 and all(len(w.partition(".")[2]) <= 3 for w in waits), waits
    assert any("." in w for w in waits)  # jitter makes them fractional: the rounding was exercised


def test_debug_print_narrates_in_the_language_asked(capsys):
    code, out, _err = loopscope(capsys, "debug", "--print", "--lang", "zh", str(GRAPH_RUN))
    assert code == 0 and "回复里没有工具调用" in out and "输出：" in out


def test_running_a_langchain_scenario_runs_langchains_own_agent(capsys):
    code, out, err = loopscope(capsys, "run", "langchain-retry-steady")
    assert code == 0, out + err
    assert "left the recording" not in out
    assert "ran LangChain's own agent offline" in out and "edge after the model node: tools, END" in out
    assert "Tool 'get_weather' failed after 7 attempts with TimeoutError" in out  # the middleware's own words


@pytest.mark.parametrize(
    ("fixture", "framework"), [("openai_agents", "OpenAI Agents SDK"), ("pydantic_ai", "pydantic-ai")]
)
def test_an_agents_sdk_or_pydantic_ai_run_is_told_by_its_rounds_and_calls(fixture, framework):
    out, ledger = narrated(FIXTURES / "four_loops" / f"{fixture}.jsonl")
    assert f"> Entering new {framework} run (agent weather)..." in out and "AgentExecutor" not in out
    assert out.count("── round ") == 3  # each model call a round, as the trace has them
    assert re.search(r'\[call_sh\] Invoking: `get_weather` with `{"city": ?"SH"}`', out)
    assert out.index("[call_bj] Invoking: `get_weather`") < out.index("[call_bj] Observation:")
    assert not any("plan called" in line or "isinstance" in line for line in ledger)
    assert any(line.startswith("tool calls (by id)") and line.split()[-1] == "3" for line in ledger), ledger


def test_an_unnamed_pydantic_ai_agent_is_not_called_question_mark(tmp_path):
    lines = (FIXTURES / "four_loops" / "pydantic_ai.jsonl").read_text(encoding="utf-8").splitlines()
    lines[1] = lines[1].replace('"agent":"weather",', "").replace('"agent": "weather", ', "")
    assert '"weather"' not in lines[1]
    unnamed = tmp_path / "unnamed.jsonl"
    unnamed.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out, _ledger = narrated(unnamed)
    assert "> Entering new pydantic-ai run...\n" in out and "(agent" not in out
