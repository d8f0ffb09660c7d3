"""Issues 10, 11 and 14 together: a tool-calling agent behind a fallback whose primary is down, an async and a structured tool in parallel."""

import asyncio
import threading

import pytest

from executor import (
    AgentExecutor,
    CircuitBreaker,
    ManualClock,
    RetryPolicy,
    ScriptedModel,
    create_tool_calling_agent,
    tool,
    with_breaker,
    with_fallbacks,
)
from tests.helpers.failing_models import HTTPFailure
from tests.helpers.tool_calling_builders import calls

BOTH_CALLS = calls(("c1", "fetch_page", {"url": "a.example"}), ("c2", "add", {"a": 2, "b": 3}))


def build(barrier):
    @tool
    async def fetch_page(url: str) -> str:
        """Fetch a web page."""
        await asyncio.to_thread(barrier.wait)  # passes only while add is running too
        return f"page {url}"

    @tool
    def add(a: int, b: int) -> int:
        """Add two whole numbers."""
        barrier.wait()
        return a + b

    primary = ScriptedModel([HTTPFailure(500), HTTPFailure(503)], model_name="primary")  # a third call would fail
    backup = ScriptedModel([BOTH_CALLS, "The page is a.example and 2+3=5."], model_name="backup")
    breaker = CircuitBreaker("http://primary/v1", failure_threshold=2, cool_down=60.0)
    model = with_fallbacks(with_breaker(primary, breaker), [backup])
    tools = [fetch_page, add]
    agent = create_tool_calling_agent(model, tools, "Use the tools.")
    executor = AgentExecutor(
        agent, tools, clock=ManualClock(tick=0.001), retry_policy=RetryPolicy(max_retries=3, jitter=False)
    )
    return executor, primary, backup


def run(executor, driver):
    events = []
    if driver == "invoke":
        result = executor.invoke({"input": "What is on a.example, and 2+3?"}, [events.append])
    else:
        result = asyncio.run(executor.ainvoke({"input": "What is on a.example, and 2+3?"}, [events.append]))
    return result, events


@pytest.mark.parametrize("driver", ["invoke", "ainvoke"])
def test_fallback_answers_and_the_async_and_structured_tools_run_at_once(driver):
    executor, primary, backup = build(threading.Barrier(2, timeout=5))
    result, events = run(executor, driver)
    assert result["output"] == "The page is a.example and 2+3=5."
    kinds = [e.kind for e in events]
    # first plan: one retry, the second failure opens the breaker, the backup answers
    assert kinds[:6] == ["chain_start", "llm_start", "retry", "breaker_open", "fallback", "llm_end"]
    fallbacks = [e for e in events if e.kind == "fallback"]
    assert [(e.error_type, e.refused, e.next_model) for e in fallbacks] == [
        ("CircuitOpenError", False, "backup"),
        ("CircuitOpenError", True, "backup"),
    ]  # then refused unsent
    assert len(primary.prompts) == 2  # the open breaker kept the second plan away from it
    ends = [e for e in events if e.kind == "llm_end"]
    assert [e.answered_by for e in ends] == ["backup", "backup"]
    assert [c.name for c in ends[0].tool_calls] == ["fetch_page", "add"]
    starts = [e for e in events if e.kind == "llm_start"]
    assert starts[0].tools and [t["function"]["name"] for t in starts[0].tools] == ["fetch_page", "add"]
    assert starts[0].callee.qualname == "ScriptedModel.generate"  # the primary's code, not the wrappers'
    tool_starts = {e.tool_call_id: e for e in events if e.kind == "tool_start"}
    assert set(tool_starts) == {"c1", "c2"}
    assert tool_starts["c1"].callee.qualname.endswith("fetch_page")
    assert tool_starts["c1"].callee.file == "tests/executor/test_merged_seams.py"
    observations = {e.tool_call_id: e.observation for e in events if e.kind == "tool_end"}
    assert observations == {"c1": "page a.example", "c2": "5"}  # awaited, and the JSON args validated into ints
    tool_messages = [m["content"] for m in backup.requests[1]["messages"] if m["role"] == "tool"]
    assert tool_messages == ["page a.example", "5"]


def test_a_structured_tool_given_bad_arguments_says_so_while_the_async_one_still_answers():
    executor, _, backup = build(threading.Barrier(1))
    backup.replies[0] = calls(("c1", "fetch_page", {"url": "b.example"}), ("c2", "add", {"a": "two", "b": 3}))
    result, events = run(executor, "invoke")
    assert result["output"] == "The page is a.example and 2+3=5."
    errors = [e for e in events if e.kind == "tool_error"]
    assert [(e.tool_call_id, e.handled) for e in errors] == [("c2", True)] and "a" in errors[0].message
    assert [e.observation for e in events if e.kind == "tool_end"] == ["page b.example"]
