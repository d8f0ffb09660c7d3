"""Async tools and models are awaited under invoke, iter_events, ainvoke and aiter_events: one loop, two drivers."""

import asyncio
import threading

import pytest

from executor import AgentExecutor, ManualClock, ModelReply, ScriptedModel, Tool, ToolError, create_react_agent, tool
from executor.models.chat_model import cut_at_stop
from tests.helpers.loop_builders import action, finish

VOLATILE = {"run_id", "t"}


@tool
async def price(flower: str) -> str:
    """Today's price of a flower."""
    await asyncio.sleep(0)
    return f"{flower}: 25 yuan"


class AsyncScriptedModel:
    """A user's async model: generate is a coroutine function."""

    model_name = "async-scripted"

    def __init__(self, replies):
        self.replies, self.prompts = list(replies), []

    async def generate(self, prompt, stop):
        await asyncio.sleep(0)
        self.prompts.append(prompt)
        return ModelReply(cut_at_stop(self.replies[len(self.prompts) - 1], stop))


def build(model, tools=(price,)):
    return AgentExecutor(
        agent=create_react_agent(model, list(tools)),
        tools=list(tools),
        clock=ManualClock(tick=0.001),
        run_id_factory=lambda: "r",
        handle_parsing_errors=True,
    )


def replies():
    return [action("price", "roses"), finish("25 yuan")]


def assert_awaited(model, result):
    assert result["output"] == "25 yuan"
    assert "Observation: roses: 25 yuan\n" in model.prompts[1]
    assert not any("coroutine" in prompt for prompt in model.prompts)


def test_sync_invoke_awaits_an_async_tool_and_an_async_model():
    model = AsyncScriptedModel(replies())
    assert_awaited(model, build(model).invoke({"input": "q"}))


async def test_sync_invoke_inside_a_running_loop_still_awaits():
    # pytest-asyncio runs this test in a loop: invoke must not call asyncio.run on it
    model = AsyncScriptedModel(replies())
    assert_awaited(model, build(model).invoke({"input": "q"}))


async def test_ainvoke_awaits_on_the_callers_loop():
    seen = []

    @tool
    async def where(flower: str) -> str:
        """Which thread and loop run this tool."""
        seen.append((threading.get_ident(), asyncio.get_running_loop()))
        return "roses: 25 yuan"

    model = AsyncScriptedModel([action("where", "roses"), finish("25 yuan")])
    result = await build(model, [where]).ainvoke({"input": "q"})
    assert_awaited(model, result)
    assert seen == [(threading.get_ident(), asyncio.get_running_loop())]


async def test_aiter_events_gives_the_same_events_as_iter_events():
    sync_events = list(build(AsyncScriptedModel(replies())).iter_events({"input": "q"}))
    stream = build(AsyncScriptedModel(replies())).aiter_events({"input": "q"})
    async_events = [event async for event in stream]
    assert stream.result == {"input": "q", "output": "25 yuan"}

    def strip(events):
        return [e.model_dump(exclude=VOLATILE) for e in events]

    assert strip(async_events) == strip(sync_events)  # frames and source lines included: one loop


async def test_ainvoke_prefers_the_async_forms_and_invoke_the_sync_ones():
    calls = []

    class BothModel(ScriptedModel):
        async def agenerate(self, prompt, stop):
            calls.append("agenerate")
            return self.generate(prompt, stop)

    def search(q):
        calls.append("func")
        return "sync"

    async def asearch(q):
        calls.append("coroutine")
        return "async"

    tools = [Tool("Search", "Look up.", search, coroutine=asearch)]
    script = [action("Search", "x"), finish("done")]
    await build(BothModel(script), tools).ainvoke({"input": "q"})
    assert calls == ["agenerate", "coroutine", "agenerate"]
    calls.clear()
    build(BothModel(script), tools).invoke({"input": "q"})
    assert calls == ["func"]


@pytest.mark.parametrize("driver", ["invoke", "ainvoke"])
async def test_an_async_tools_error_is_handled_like_a_sync_ones(driver):
    async def flaky(q):
        await asyncio.sleep(0)
        raise ToolError("the shop is closed")

    tools = [Tool("Shop", "Buy.", flaky, handle_tool_error=True)]
    model = ScriptedModel([action("Shop", "roses"), finish("no roses")])
    executor = build(model, tools)
    result = executor.invoke({"input": "q"}) if driver == "invoke" else await executor.ainvoke({"input": "q"})
    assert result["output"] == "no roses"
    assert "Observation: the shop is closed\n" in model.prompts[1]


async def test_an_unhandled_async_error_ends_the_run_with_chain_error():
    async def broken(q):
        raise KeyError("gone")

    events = []
    executor = build(ScriptedModel([action("B", "x")]), [Tool("B", "Breaks.", broken)])
    with pytest.raises(KeyError):
        await executor.ainvoke({"input": "q"}, [events.append])
    assert [e.kind for e in events][-2:] == ["tool_error", "chain_error"]


def test_a_plain_function_returning_a_coroutine_is_awaited_too():
    async def later(q):
        return f"later:{q}"

    model = ScriptedModel([action("L", "x"), finish("ok")])
    build(model, [Tool("L", "Later.", lambda q: later(q))]).invoke({"input": "q"})
    assert "Observation: later:x\n" in model.prompts[1]


def test_async_generator_functions_are_refused():
    async def stream(q):
        yield q

    with pytest.raises(TypeError, match="async generator"):
        Tool("S", "d", stream)


async def test_a_retry_backoff_under_ainvoke_lets_other_tasks_run():
    from executor import RetryPolicy, TransientError

    failures = [TransientError("busy")]

    def flaky(q):
        if failures:
            raise failures.pop()
        return "ok"

    ticks = []

    async def ticker():
        while True:
            ticks.append(1)
            await asyncio.sleep(0.005)

    tools = [Tool("F", "Flaky.", flaky, retry_policy=RetryPolicy(initial_delay=0.1, jitter=False))]
    executor = AgentExecutor(
        agent=create_react_agent(ScriptedModel([action("F", "x"), finish("done")]), tools), tools=tools
    )  # the real clock: the backoff really waits
    task = asyncio.create_task(ticker())
    await asyncio.sleep(0)
    before = len(ticks)
    result = await executor.ainvoke({"input": "q"})
    task.cancel()
    assert result["output"] == "done"
    assert len(ticks) - before >= 5  # the loop kept serving the ticker during the 0.1 s backoff


async def test_a_blocking_sync_tool_under_ainvoke_runs_off_the_event_loop():
    tool_blocking, loop_ran_meanwhile = threading.Event(), threading.Event()
    answers = []

    def slow(q):  # a blocking client, e.g. requests: it answers once the event loop has run without it
        tool_blocking.set()
        answers.append("ok" if loop_ran_meanwhile.wait(30) else "the event loop stood still while the tool blocked")
        return answers[-1]

    async def ticker():
        while True:
            if tool_blocking.is_set():
                loop_ran_meanwhile.set()
            await asyncio.sleep(0.005)

    executor = build(ScriptedModel([action("S", "x"), finish("done")]), [Tool("S", "Slow.", slow)])
    task = asyncio.create_task(ticker())
    assert (await executor.ainvoke({"input": "q"}))["output"] == "done"
    task.cancel()
    assert answers == ["ok"]


async def test_a_rate_limit_wait_under_ainvoke_lets_other_tasks_run():
    from executor import RateLimiter

    ticks = []

    async def ticker():
        while True:
            ticks.append(1)
            await asyncio.sleep(0.005)

    model = ScriptedModel([action("price", "roses"), finish("25 yuan")])
    executor = AgentExecutor(
        agent=create_react_agent(model, [price]), tools=[price], rate_limiter=RateLimiter(max_qps=10, burst=1)
    )  # real clock: 0.1 s per call
    task = asyncio.create_task(ticker())
    await asyncio.sleep(0)
    before = len(ticks)
    events = []
    await executor.ainvoke({"input": "q"}, [events.append])
    task.cancel()
    assert [e.kind for e in events].count("rate_limit_wait") == 1
    assert len(ticks) - before >= 5  # the second call's 0.1 s wait did not block the loop
