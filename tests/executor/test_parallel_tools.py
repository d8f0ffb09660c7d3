"""A reply's tool calls run concurrently, return in call order, and fail one at a time."""

import threading

import pytest

from executor import RetryPolicy, ToolError, TransientError
from tests.helpers.loop_builders import action, finish, run_collecting, scripted_executor
from tests.helpers.tool_calling_builders import calls, text_tool, tool_calling_executor

TWO_CALLS = calls(("c1", "first", {"tool_input": "a"}), ("c2", "second", {"tool_input": "b"}))


def test_two_calls_are_in_flight_at_the_same_time():
    # Each tool waits for the other to arrive: run one after the other, the barrier breaks.
    barrier = threading.Barrier(2, timeout=5)

    def meet(text):
        barrier.wait()
        return f"met:{text}"

    tools = [text_tool("first", meet), text_tool("second", meet)]
    executor, model = tool_calling_executor([TWO_CALLS, "both met"], tools)
    result, _, error = run_collecting(executor)
    assert error is None and result["output"] == "both met"
    assert [m["content"] for m in model.requests[1]["messages"] if m["role"] == "tool"] == ["met:a", "met:b"]


def test_results_return_in_call_order_though_the_first_call_finishes_last():
    second_ended = threading.Event()
    events = []

    def listen(event):
        events.append(event)
        if event.kind == "tool_end" and event.tool_call_id == "c2":
            second_ended.set()

    def slow_first(text):
        # Returns only once the second call's tool_end is out: held back until the first ends, it never is.
        assert second_ended.wait(30), "the second call's tool_end was not emitted while the first was running"
        return "first result"

    def quick_second(text):
        return "second result"

    executor, model = tool_calling_executor(
        [TWO_CALLS, "ok"], [text_tool("first", slow_first), text_tool("second", quick_second)]
    )
    executor.invoke({"input": "q?"}, [listen])
    ends = [e.tool_call_id for e in events if e.kind == "tool_end"]
    assert ends == ["c2", "c1"]  # emission order: the quick call ended first
    assert [e.tool_call_id for e in events if e.kind == "step"] == ["c1", "c2"]  # steps: call order
    tool_messages = [(m["tool_call_id"], m["content"]) for m in model.requests[1]["messages"] if m["role"] == "tool"]
    assert tool_messages == [("c1", "first result"), ("c2", "second result")]


def test_seq_is_contiguous_and_each_calls_frames_are_its_own_call_stack():
    tools = [text_tool("first", str.upper), text_tool("second", str.lower)]
    executor, _ = tool_calling_executor([TWO_CALLS, "ok"], tools)
    _, events, _ = run_collecting(executor)
    assert [e.seq for e in events] == list(range(len(events)))
    assert [e.t for e in events] == sorted(e.t for e in events)
    for event in (e for e in events if e.kind in ("tool_start", "tool_end")):
        assert event.frames == (
            "invoke",
            "iter_events",
            "_call",
            "_take_next_step",
            "_iter_next_step",
            "perform_tool_calls",
            "perform_tool_call",
            "run",
        )


def test_a_handled_failure_becomes_its_calls_observation_and_the_other_call_completes():
    def broken(text):
        raise ToolError("the weather service is down")

    tools = [text_tool("first", broken, handle_tool_error=True), text_tool("second", str.upper)]
    executor, model = tool_calling_executor([TWO_CALLS, "partial answer"], tools)
    result, events, error = run_collecting(executor)
    assert error is None and result["output"] == "partial answer"
    assert [(e.tool_call_id, e.handled) for e in events if e.kind == "tool_error"] == [("c1", True)]
    tool_messages = [m["content"] for m in model.requests[1]["messages"] if m["role"] == "tool"]
    assert tool_messages == ["the weather service is down", "B"]


def test_an_unhandled_failure_waits_for_the_other_calls_then_ends_the_run():
    other_finished = threading.Event()

    def broken(text):
        raise ValueError("bug in the tool")

    def slow(text):
        other_finished.set()
        return "finished anyway"

    executor, _ = tool_calling_executor([TWO_CALLS, "never"], [text_tool("first", broken), text_tool("second", slow)])
    _, events, error = run_collecting(executor)
    assert isinstance(error, ValueError) and str(error) == "bug in the tool"
    assert other_finished.is_set()
    assert [(e.kind, e.tool_call_id) for e in events if e.kind in ("tool_end", "tool_error")] in (
        [("tool_error", "c1"), ("tool_end", "c2")],
        [("tool_end", "c2"), ("tool_error", "c1")],
    )
    assert events[-1].kind == "chain_error" and events[-1].error_type == "ValueError"


def test_each_calls_retry_policy_applies_and_its_retries_carry_the_call_id():
    attempts = {"first": 0}

    def flaky(text):
        attempts["first"] += 1
        if attempts["first"] == 1:
            raise TransientError("blip")
        return "second try"

    tools = [
        text_tool("first", flaky, retry_policy=RetryPolicy(max_retries=2, jitter=False, initial_delay=0.5)),
        text_tool("second", str.upper),
    ]
    executor, model = tool_calling_executor([TWO_CALLS, "ok"], tools)
    _, events, error = run_collecting(executor)
    assert error is None
    (retry,) = [e for e in events if e.kind == "retry"]
    assert retry.tool_call_id == "c1" and retry.name == "first" and retry.delay == 0.5
    assert executor.clock.slept == [0.5]
    assert [m["content"] for m in model.requests[1]["messages"] if m["role"] == "tool"] == ["second try", "B"]


def test_max_concurrency_one_runs_the_calls_one_after_the_other_in_call_order():
    order = []

    def record(text):
        order.append(text)
        return text

    tools = [text_tool("first", record), text_tool("second", record)]
    executor, _ = tool_calling_executor([TWO_CALLS, "ok"], tools, max_concurrency=1)
    _, events, _ = run_collecting(executor)
    assert order == ["a", "b"]
    assert [(e.kind, e.tool_call_id) for e in events if e.kind.startswith("tool_")] == [
        ("tool_start", "c1"),
        ("tool_end", "c1"),
        ("tool_start", "c2"),
        ("tool_end", "c2"),
    ]


def test_the_react_agent_still_runs_one_action_on_the_executors_thread():
    seen = []
    tool = text_tool("Echo", lambda text: seen.append(threading.current_thread()) or text)
    executor, _ = scripted_executor([action("Echo", "hi"), finish("done")], tools=[tool])
    _, events, _ = run_collecting(executor)
    assert seen == [threading.main_thread()]
    assert all(getattr(e, "tool_call_id", None) is None for e in events)


@pytest.mark.parametrize("n_calls", [1, 5])
def test_any_number_of_calls_each_get_their_own_tool_message(n_calls):
    reply = calls(*[(f"id{i}", "first", {"tool_input": str(i)}) for i in range(n_calls)])
    executor, model = tool_calling_executor([reply, "ok"], [text_tool("first", lambda t: f"r{t}")])
    run_collecting(executor)
    assert [(m["tool_call_id"], m["content"]) for m in model.requests[1]["messages"] if m["role"] == "tool"] == [
        (f"id{i}", f"r{i}") for i in range(n_calls)
    ]


def test_concurrent_calculator_calls_each_make_a_paced_nested_model_call_in_their_own_lane():
    from executor import ModelReply, RateLimiter, llm_math_tool

    class ExpressionModel:
        """Answers the calculator's prompt with the question as its expression (any thread, any order)."""

        model_name = "expressions"

        def generate(self, prompt, stop):
            question = prompt.rsplit("Question: ", 1)[1].split("\n", 1)[0]
            return ModelReply(f"```text\n{question}\n```")

    executor, _ = tool_calling_executor(
        [
            calls(("m1", "Calculator", {"tool_input": "25 * 1.05"}), ("m2", "Calculator", {"tool_input": "30 * 1.05"})),
            "ok",
        ],
        [llm_math_tool(ExpressionModel())],
    )
    executor.rate_limiter = RateLimiter(max_qps=1, burst=1, clock=executor.clock)
    _, events, error = run_collecting(executor)
    assert error is None
    assert sorted((e.tool_call_id, e.result) for e in events if e.kind == "calculator_eval") == [
        ("m1", "26.25"),
        ("m2", "31.5"),
    ]
    nested = [e for e in events if e.kind == "llm_start" and "perform_tool_call" in e.frames]
    assert len(nested) == 2 and all(e.frames[-3:] == ("run", "calculate", "call_model") for e in nested)
    assert sorted(e.tool_call_id for e in nested) == ["m1", "m2"]  # same frames: the id tells the lanes apart
    assert all(e.tool_call_id is None for e in events if e.kind == "llm_start" and e not in nested)
    waits = [e for e in events if e.kind == "rate_limit_wait" and "perform_tool_call" in e.frames]
    assert sorted(e.tool_call_id for e in waits) == ["m1", "m2"]  # at 1 call/s each call's model call waited


@pytest.mark.parametrize("driver", ["invoke", "ainvoke"])
def test_async_tools_of_one_reply_overlap_under_both_drivers(driver):
    import asyncio

    both_started = threading.Barrier(2, timeout=5)

    async def fetch(text):
        await asyncio.to_thread(both_started.wait)  # both coroutines must be running at once
        if text == "b":
            raise ToolError("b is unavailable")
        return f"fetched {text}"

    tools = [text_tool("first", fetch), text_tool("second", fetch, handle_tool_error=True)]
    executor, model = tool_calling_executor([TWO_CALLS, "ok"], tools)
    if driver == "ainvoke":  # the driver's loop is not blocked while the workers run
        events = []
        assert asyncio.run(executor.ainvoke({"input": "go"}, [events.append]))["output"] == "ok"
        error = None
    else:
        _, events, error = run_collecting(executor)
    assert error is None
    assert [m["content"] for m in model.requests[1]["messages"] if m["role"] == "tool"] == [
        "fetched a",
        "b is unavailable",
    ]  # the coroutine's error was thrown back into its tool
