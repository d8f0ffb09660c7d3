"""Tool(timeout=...): a tool that hangs costs the loop its timeout, never the run."""

import threading
import time

import pytest

from executor import RetryPolicy, Tool, ToolError, ToolTimeout
from executor.events import CalculatorEvalEvent
from tests.helpers.loop_builders import action, finish, kinds, run_collecting, scripted_executor


@pytest.fixture
def release():
    """Set at the end of each test, so a worker thread left waiting ends with it."""
    gate = threading.Event()
    yield gate
    gate.set()


def sleepy_tool(release, **settings):
    def sleep(text):
        # Up to 30 s: if the timeout did not work, the run would see "woke up" instead of a timeout.
        return "released" if release.wait(30) else "woke up"

    return Tool(name="Sleepy", description="sleeps", func=sleep, **settings)


def test_a_hung_tool_times_out_into_an_observation_and_the_loop_goes_on(release):
    tool = sleepy_tool(release, timeout=0.2, handle_tool_error=True)
    executor, model = scripted_executor(
        [action("Sleepy", "x"), finish("done")], tools=[tool], return_intermediate_steps=True
    )
    result, events, error = run_collecting(executor)
    assert error is None and result["output"] == "done"
    observation = result["intermediate_steps"][0][1]
    assert observation == "Tool 'Sleepy' did not answer within 0.2 seconds; the loop stopped waiting for it."
    tool_error = next(e for e in events if e.kind == "tool_error")
    assert (tool_error.error_type, tool_error.handled, tool_error.observation) == ("ToolTimeout", True, observation)
    assert "Observation: " + observation in model.prompts[1]


def test_an_unhandled_timeout_ends_the_run_like_any_tool_error(release):
    executor, _ = scripted_executor([action("Sleepy", "x"), finish("done")], tools=[sleepy_tool(release, timeout=0.2)])
    result, events, error = run_collecting(executor)
    assert isinstance(error, ToolTimeout) and isinstance(error, ToolError) and result is None
    assert kinds(events)[-2:] == ["tool_error", "chain_error"]
    assert events[-1].error_type == "ToolTimeout"


def test_each_retry_gets_its_own_timeout(release):
    policy = RetryPolicy(max_retries=1, jitter=False, on_failure="continue")
    executor, _ = scripted_executor(
        [action("Sleepy", "x"), finish("done")], tools=[sleepy_tool(release, timeout=0.1, retry_policy=policy)]
    )
    result, events, error = run_collecting(executor)
    assert error is None and result["output"] == "done"
    assert [e.attempt for e in events if e.kind == "retry"] == [1]
    assert "failed after 2 attempts: ToolTimeout" in next(e for e in events if e.kind == "tool_error").message


def test_a_tool_within_its_timeout_answers_and_raises_as_usual():
    def picky(text):
        if text == "bad":
            raise ToolError("no bad input")
        return f"ok:{text}"

    tool = Tool(name="Picky", description="", func=picky, timeout=5, handle_tool_error=True)
    executor, _ = scripted_executor(
        [action("Picky", "good"), action("Picky", "bad"), finish("done")], tools=[tool], return_intermediate_steps=True
    )
    result, _, error = run_collecting(executor)
    assert error is None
    assert [obs for _, obs in result["intermediate_steps"]] == ["ok:good", "no bad input"]


def test_a_generator_tool_past_its_deadline_times_out_after_its_events():
    def slow(text, run):
        yield run.emit(CalculatorEvalEvent, expression=text, result="1")
        time.sleep(0.3)
        return "late"

    tool = Tool(name="Slow", description="", func=slow, timeout=0.1, handle_tool_error=True)
    executor, _ = scripted_executor([action("Slow", "1"), finish("done")], tools=[tool], return_intermediate_steps=True)
    result, events, error = run_collecting(executor)
    assert error is None
    assert result["intermediate_steps"][0][1] == "Tool 'Slow' did not finish within 0.1 seconds."
    assert kinds(events)[kinds(events).index("tool_start") :][:4] == [
        "tool_start",
        "calculator_eval",
        "tool_error",
        "tool_end",
    ]


@pytest.mark.parametrize("timeout", [0, -1, float("inf"), float("nan")])
def test_timeout_must_be_a_positive_finite_number(timeout):
    with pytest.raises(ValueError, match="timeout must be a positive number of seconds"):
        Tool(name="T", description="", func=str, timeout=timeout)
