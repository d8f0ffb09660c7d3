"""RetryPolicy's arithmetic and decisions, and retries as events inside a real run (ManualClock: no waiting)."""

import random

import pytest

from executor import (
    AgentExecutor,
    ManualClock,
    ModelReply,
    RetriesExhausted,
    RetryPolicy,
    ScriptedModel,
    Tool,
    TransientError,
    create_react_agent,
    llm_math_tool,
)
from executor.recovery.retry import parse_retry_after, retry_after_of, status_code_of
from tutorials.rose_pricing import REPLIES, build_tools


class HTTPFailure(Exception):
    def __init__(self, status_code, retry_after=None):
        super().__init__(f"HTTP {status_code}")
        self.status_code, self.retry_after = status_code, retry_after


class FlakyModel:
    """Raises the given errors on the first calls, then answers from the script."""

    def __init__(self, errors, replies, model_name="flaky"):
        self.errors = list(errors)
        self.inner = ScriptedModel(replies)
        self.model_name = model_name
        self.calls = 0

    def generate(self, prompt, stop):
        self.calls += 1
        if self.errors:
            raise self.errors.pop(0)
        return self.inner.generate(prompt, stop)


def rose_executor(model, clock, **options):
    tools = build_tools(model)
    return AgentExecutor(create_react_agent(model, tools), tools, clock=clock, **options)


def drain(executor, inputs=None):
    events = []
    try:
        result = executor.invoke(inputs or {"input": "q"}, [events.append])
    except Exception as error:
        return events, error
    return events, result


# -- the formula -------------------------------------------------------------------------------
def test_backoff_doubles_from_initial_delay_and_is_capped():
    policy = RetryPolicy(initial_delay=1.0, backoff_factor=2.0, max_delay=10.0, jitter=False)
    assert [policy.delay_for(n) for n in range(1, 8)] == [1, 2, 4, 8, 10, 10, 10]
    assert RetryPolicy(initial_delay=0.5, backoff_factor=3, jitter=False).delay_for(3) == 4.5


def test_a_huge_attempt_number_gives_the_cap_not_an_overflow():
    assert RetryPolicy(max_delay=30.0, jitter=False).delay_for(5000) == 30.0


def test_jitter_stays_between_half_and_all_of_the_formula_and_repeats_with_a_seed():
    def delays(seed):
        policy = RetryPolicy(jitter=True, rng=random.Random(seed).random, max_delay=1000)
        return [policy.delay_for(n) for n in range(1, 7) for _ in range(20)]

    first, again, other = delays(7), delays(7), delays(8)
    assert first == again and first != other
    for index, delay in enumerate(first):
        base = 2 ** (index // 20)
        assert base / 2 <= delay <= base
    # the draws really spread across the band rather than sitting at one end
    assert min(first[:20]) < 0.6 and max(first[:20]) > 0.9


def test_jitter_uses_the_injected_source_at_both_ends():
    assert RetryPolicy(rng=lambda: 0.0).delay_for(3) == 2.0
    assert RetryPolicy(rng=lambda: 1.0).delay_for(3) == 4.0


def test_retry_after_replaces_the_formula_without_jitter_but_is_capped():
    policy = RetryPolicy(rng=lambda: 0.0, max_delay=20)
    assert policy.delay_for(1, HTTPFailure(429, retry_after=7.5)) == 7.5
    assert policy.delay_for(1, HTTPFailure(429, retry_after=3600)) == 20
    assert RetryPolicy(rng=lambda: 0.0, honour_retry_after=False).delay_for(1, HTTPFailure(429, 7.5)) == 0.5


def test_retry_after_is_read_from_a_response_header_in_seconds_or_as_a_date():
    class Response:
        status_code = 503
        headers = {"retry-after": "Wed, 21 Oct 2015 07:28:30 GMT"}

    error = Exception("busy")
    error.response = Response()
    now = 1445412480.0  # 07:28:00 that day
    assert retry_after_of(error, now=lambda: now) == 30.0
    assert status_code_of(error) == 503
    assert parse_retry_after(" 4 ") == 4.0
    assert parse_retry_after("soon") is None


# -- which errors are retried --------------------------------------------------------------------
@pytest.mark.parametrize(
    "error, expected",
    [
        (ConnectionError("reset"), True),
        (TimeoutError(), True),
        (TransientError("flaky gateway"), True),
        (HTTPFailure(429), True),
        (HTTPFailure(503), True),
        (HTTPFailure(400), False),
        (HTTPFailure(401), False),
        (PermissionError("bad key"), False),
        (ValueError("a bug"), False),
    ],
)
def test_default_policy_retries_transient_failures_only(error, expected):
    assert RetryPolicy().should_retry(error) is expected


def test_conditions_can_be_types_status_codes_or_substrings_and_never_retry_wins():
    policy = RetryPolicy(retry_on=(KeyError, 418, "overloaded"), never_retry=("do not retry",))
    assert policy.should_retry(KeyError("k"))
    assert policy.should_retry(HTTPFailure(418))
    assert policy.should_retry(RuntimeError("Server OVERLOADED, try later"))
    assert not policy.should_retry(RuntimeError("fine"))
    assert not policy.should_retry(KeyError("overloaded but do not retry"))
    assert not policy.should_retry(RetriesExhausted("llm", "m", 7, ConnectionError()))


@pytest.mark.parametrize(
    "options, complaint",
    [
        ({"max_retries": -1}, "max_retries"),
        ({"backoff_factor": 0.5}, "backoff_factor"),
        ({"initial_delay": -1}, "must not be negative"),
        ({"on_failure": "ignore"}, "on_failure"),
        ({"retry_on": (object(),)}, "retry conditions"),
    ],
)
def test_bad_settings_are_refused_with_a_message(options, complaint):
    with pytest.raises(ValueError, match=complaint):
        RetryPolicy(**options)


# -- retries inside a run --------------------------------------------------------------------------
def test_each_failed_model_attempt_is_a_retry_event_yielded_before_the_wait():
    clock = ManualClock()
    model = FlakyModel([ConnectionError("reset by peer"), HTTPFailure(503)], REPLIES)
    policy = RetryPolicy(jitter=False, initial_delay=1.0)
    events = rose_executor(model, clock, retry_policy=policy).iter_events({"input": "q"})
    seen, slept_when_seen = [], []
    for event in events:
        seen.append(event)
        if event.kind == "retry":
            slept_when_seen.append(list(clock.slept))
    retries = [e for e in seen if e.kind == "retry"]
    assert [(e.target, e.name, e.attempt, e.delay) for e in retries] == [
        ("llm", "flaky", 1, 1.0),
        ("llm", "flaky", 2, 2.0),
    ]
    assert retries[0].error == "ConnectionError: reset by peer" and retries[1].error == "HTTPFailure: HTTP 503"
    assert slept_when_seen == [[], [1.0]]  # the consumer sees each retry before its wait happens
    assert clock.slept == [1.0, 2.0]
    kinds = [e.kind for e in seen]
    assert kinds[1:5] == ["llm_start", "retry", "retry", "llm_end"]
    assert retries[0].frames[-2:] == ("call_model", "with_retries")
    assert seen[-1].kind == "chain_end" and model.calls == 4 + 2


def test_max_retries_six_means_seven_calls_then_the_run_fails_with_retries_exhausted():
    clock = ManualClock()
    model = FlakyModel([HTTPFailure(500)] * 10, REPLIES)
    events, error = drain(rose_executor(model, clock, retry_policy=RetryPolicy(max_retries=6, jitter=False)))
    assert model.calls == 7
    assert [e.attempt for e in events if e.kind == "retry"] == [1, 2, 3, 4, 5, 6]
    assert clock.slept == [1, 2, 4, 8, 16, 32]
    assert isinstance(error, RetriesExhausted) and isinstance(error.last_error, HTTPFailure)
    assert "failed after 7 attempts: HTTPFailure: HTTP 500" in str(error)
    assert events[-1].kind == "chain_error" and events[-1].error_type == "RetriesExhausted"


def test_a_never_retry_error_fails_on_the_first_call_with_no_retry_event():
    clock = ManualClock()
    model = FlakyModel([PermissionError("key refused")], REPLIES)
    events, error = drain(rose_executor(model, clock, retry_policy=RetryPolicy()))
    assert isinstance(error, PermissionError) and model.calls == 1
    assert not [e for e in events if e.kind == "retry"] and clock.slept == []


def test_without_a_policy_nothing_is_retried():
    model = FlakyModel([ConnectionError("reset")], REPLIES)
    _events, error = drain(rose_executor(model, ManualClock()))
    assert isinstance(error, ConnectionError) and model.calls == 1


def tool_that_fails(times, error_factory):
    calls = []

    def search(query):
        calls.append(query)
        if len(calls) <= times:
            raise error_factory()
        return "roses cost 25 yuan"

    return search, calls


def search_run(tool, clock, **options):
    replies = [" Thought\nAction: Search\nAction Input: roses", " Done.\nFinal Answer: ok"]
    model = ScriptedModel(replies)
    return AgentExecutor(create_react_agent(model, [tool]), [tool], clock=clock, **options), model


def test_a_tool_with_its_own_policy_is_retried_and_then_succeeds():
    func, calls = tool_that_fails(2, lambda: TimeoutError("search timed out"))
    tool = Tool("Search", "find things", func, retry_policy=RetryPolicy(jitter=False, initial_delay=0.5))
    clock = ManualClock()
    executor, _model = search_run(tool, clock)
    events, result = drain(executor)
    assert result["output"] == "ok" and len(calls) == 3
    tool_events = [
        (e.kind, getattr(e, "attempt", None)) for e in events if e.kind in ("tool_start", "retry", "tool_end")
    ]
    assert tool_events == [("tool_start", None), ("retry", 1), ("retry", 2), ("tool_end", None)]
    assert [e.target for e in events if e.kind == "retry"] == ["tool", "tool"]
    assert clock.slept == [0.5, 1.0]


def test_on_failure_continue_turns_the_final_error_into_the_observation():
    func, calls = tool_that_fails(99, lambda: ConnectionError("search backend down"))
    policy = RetryPolicy(max_retries=2, jitter=False, on_failure="continue")
    tool = Tool("Search", "find things", func, retry_policy=policy)
    executor, model = search_run(tool, ManualClock())
    events, result = drain(executor)
    assert result["output"] == "ok" and len(calls) == 3
    error_event = next(e for e in events if e.kind == "tool_error")
    assert error_event.handled and "failed after 3 attempts" in error_event.observation
    assert "search backend down" in model.prompts[1]  # the agent was told, and went on


def test_on_failure_error_ends_the_run_after_the_last_attempt():
    func, calls = tool_that_fails(99, lambda: ConnectionError("down"))
    tool = Tool("Search", "find things", func, retry_policy=RetryPolicy(max_retries=1, jitter=False))
    executor, _model = search_run(tool, ManualClock())
    events, error = drain(executor)
    assert isinstance(error, RetriesExhausted) and len(calls) == 2
    assert [e.kind for e in events][-2:] == ["tool_error", "chain_error"]


def test_the_executor_policy_covers_tools_but_a_nested_give_up_is_not_retried_again():
    # The calculator's own model call gives up after 3 attempts; the tool-level retry must not
    # start that over (which would make 3 x 3 calls).
    model = FlakyModel([], REPLIES)
    calculator_model = FlakyModel([ConnectionError("backend overloaded")] * 50, [], model_name="calc")
    tools = [build_tools(model)[0], llm_math_tool(calculator_model)]
    # "overloaded" also matches the give-up message, which quotes the last error
    policy = RetryPolicy(max_retries=2, jitter=False, retry_on=(ConnectionError, "overloaded"))
    executor = AgentExecutor(create_react_agent(model, tools), tools, clock=ManualClock(), retry_policy=policy)
    events, error = drain(executor)
    assert calculator_model.calls == 3 and isinstance(error, RetriesExhausted)
    assert [e.name for e in events if e.kind == "retry"] == ["calc", "calc"]


def test_tools_without_a_policy_keep_their_call_stack_unchanged():
    model = ScriptedModel(REPLIES)
    events, _ = drain(rose_executor(model, ManualClock()))
    nested = next(e for e in events if e.kind == "llm_start" and "calculate" in e.frames)
    assert nested.frames[-4:] == ("_perform_agent_action", "run", "calculate", "call_model")


def test_usage_from_the_model_reaches_llm_end():
    class CountingModel:
        model_name = "counting"

        def __init__(self):
            self.inner = ScriptedModel(REPLIES)

        def generate(self, prompt, stop):
            text = self.inner.generate(prompt, stop).text
            return ModelReply(text, {"prompt_tokens": len(prompt), "completion_tokens": len(text)})

    events, _ = drain(rose_executor(CountingModel(), ManualClock()))
    usages = [e.usage for e in events if e.kind == "llm_end"]
    assert len(usages) == 4 and all(u["prompt_tokens"] > 100 for u in usages)


def test_a_described_policy_comes_back_for_replay_with_the_conditions_it_can_rebuild():
    class ProviderQuirk(Exception):
        pass

    original = RetryPolicy(
        max_retries=3,
        initial_delay=0.25,
        max_delay=9,
        on_failure="continue",
        retry_on=(ConnectionError, TransientError, ProviderQuirk, 429, "overloaded"),
        never_retry=(PermissionError, 401),
    )
    described = original.describe()
    assert described["retry_on"] == [
        "ConnectionError",
        "TransientError",
        "ProviderQuirk",
        429,
        {"contains": "overloaded"},
    ]
    rebuilt = RetryPolicy.from_description(described)
    numbers = (rebuilt.max_retries, rebuilt.initial_delay, rebuilt.max_delay, rebuilt.on_failure)
    assert numbers == (3, 0.25, 9, "continue")
    # ProviderQuirk cannot be imported by name, so it is left out
    assert rebuilt.retry_on == (ConnectionError, TransientError, 429, "overloaded")
    assert rebuilt.never_retry == (PermissionError, 401) and rebuilt.jitter is False
