"""Fallback models and the circuit breaker inside a real run: each step an event, in order (ManualClock)."""

import pytest

from executor import AgentExecutor, ManualClock, RetryPolicy, ScriptedModel, create_react_agent
from executor.recovery.circuit_breaker import (
    CircuitBreaker,
    CircuitOpenError,
    breaker_for,
    reset_breakers,
    with_breaker,
)
from executor.recovery.fallbacks import FallbackModel, with_fallbacks
from tests.helpers.failing_models import DeadModel, HTTPFailure
from tests.helpers.loop_builders import echo_tool, finish, kinds, run_collecting


@pytest.fixture(autouse=True)
def fresh_breakers():
    reset_breakers()
    yield
    reset_breakers()


def run(model, replies_model=None, clock=None, retries=2):
    tools = [echo_tool()]
    executor = AgentExecutor(
        create_react_agent(model, tools),
        tools,
        clock=clock or ManualClock(tick=0.001),
        retry_policy=RetryPolicy(max_retries=retries, jitter=False, initial_delay=1.0),
    )
    return run_collecting(executor)


def test_primary_retries_first_then_the_fallback_event_then_the_fallbacks_reply():
    dead, backup = DeadModel(), ScriptedModel([finish("42")], model_name="backup")
    result, events, error = run(with_fallbacks(dead, [backup]))
    assert error is None and result["output"] == "42"
    assert kinds(events)[1:6] == ["llm_start", "retry", "retry", "fallback", "llm_end"]
    start, first_retry, _, fallback, end = events[1:6]
    assert start.model == "primary" and first_retry.error.startswith("HTTPFailure: HTTP 429")
    assert fallback.failed_model == "primary" and fallback.next_model == "backup"
    assert fallback.error_type == "RetriesExhausted" and "HTTP 500" in fallback.error and not fallback.refused
    assert end.answered_by == "backup" and end.text == " I now know the final answer.\nFinal Answer: 42"
    assert dead.calls == 3 and backup.prompts == [start.prompt]  # the prompt is unchanged
    # Narrated from inside the model call: the generator chain runs through call_model into the chain.
    assert fallback.frames[-2:] == ("call_model", "narrated_generate")
    assert fallback.source.file == "executor/recovery/fallbacks.py"


def test_a_model_that_answers_leaves_answered_by_unset():
    ok = ScriptedModel([finish("1")], model_name="ok")
    result, events, _ = run(with_fallbacks(ok, [DeadModel()]))
    assert result["output"] == "1" and "fallback" not in kinds(events)
    assert events[0].settings["model_chain"] == {"model": "ok", "chain": [{"model": "ok"}, {"model": "primary"}]}
    _plain, plain_events, _ = run(ScriptedModel([finish("1")]))
    assert "model_chain" not in plain_events[0].settings
    assert next(e for e in events if e.kind == "llm_end").answered_by is None


def test_every_model_failing_raises_the_first_models_error_after_a_fallback_event_each():
    result, events, error = run(FallbackModel(DeadModel("a"), [DeadModel("b", "http://b"), DeadModel("c")]))
    assert result is None and "llm 'a' failed after 3 attempts" in str(error)
    assert [(e.failed_model, e.next_model) for e in events if e.kind == "fallback"] == [("a", "b"), ("b", "c")]
    assert kinds(events)[-1] == "chain_error"


def test_with_fallbacks_flattens_and_keeps_order():
    a, b, c = ScriptedModel([], model_name="a"), ScriptedModel([], model_name="b"), ScriptedModel([], model_name="c")
    chained = with_fallbacks(with_fallbacks(a, [b]), [c])
    assert [m.model_name for m in chained.models] == ["a", "b", "c"] and chained.model_name == "a"
    with pytest.raises(ValueError, match="at least one fallback"):
        FallbackModel(a, [])


def test_breaker_state_machine_counts_only_failures_within_the_window():
    breaker = CircuitBreaker("e", failure_threshold=2, window=10.0, cool_down=5.0)
    assert breaker.record_failure(0.0, HTTPFailure(500)) is None
    assert breaker.record_failure(11.0, HTTPFailure(500)) is None  # the first one left the window
    assert breaker.record_failure(12.0, HTTPFailure(401)) is None  # a refused key says nothing of health
    assert breaker.record_failure(13.0, HTTPFailure(503)) == ("closed", 2) and breaker.state == "open"
    with pytest.raises(CircuitOpenError, match=r"is not called again for 2s"):
        breaker.admit(16.0, "m")
    assert breaker.admit(18.0, "m") == 5.0 and breaker.state == "half_open"
    with pytest.raises(CircuitOpenError):  # one trial at a time
        breaker.admit(18.5, "m")
    assert breaker.record_failure(19.0, TimeoutError()) == ("half_open", 1) and breaker.state == "open"
    assert breaker.admit(24.0, "m") == 5.0 and breaker.record_success() and breaker.state == "closed"


def test_breaker_opens_stops_the_retries_and_the_fallback_answers():
    dead, backup = DeadModel(), ScriptedModel([finish("42")], model_name="backup")
    model = with_fallbacks(with_breaker(dead, failure_threshold=2, cool_down=30.0), [backup])
    result, events, _ = run(model, retries=5)
    assert result["output"] == "42" and dead.calls == 2  # the breaker cut the 6 allowed attempts to 2
    assert kinds(events)[1:6] == ["llm_start", "retry", "breaker_open", "fallback", "llm_end"]
    opened, fallback = events[3], events[4]
    assert (opened.endpoint, opened.model, opened.failures) == ("http://dead/v1", "primary", 2)
    assert opened.from_state == "closed"
    assert opened.error.startswith("HTTPFailure: HTTP 500") and opened.cool_down == 30.0
    assert fallback.error_type == "CircuitOpenError" and not fallback.refused


def test_the_breaker_is_shared_across_runs_refuses_then_half_opens_and_closes():
    clock = ManualClock()
    dead = DeadModel()
    guarded = with_breaker(dead, failure_threshold=2, cool_down=30.0)
    run(with_fallbacks(guarded, [ScriptedModel([finish("1")], model_name="backup")]), clock=clock)
    assert breaker_for("http://dead/v1").state == "open" and dead.calls == 2
    # A second run in the same process: refused without a call, the fallback answers at once.
    result, events, _ = run(
        with_fallbacks(with_breaker(dead), [ScriptedModel([finish("2")], model_name="backup")]), clock=clock
    )
    assert result["output"] == "2" and dead.calls == 2
    # chain_start records the chain and the breaker's state at the start: a replay starts from there.
    chain = events[0].settings["model_chain"]
    assert [link["model"] for link in chain["chain"]] == ["primary", "backup"]
    assert chain["chain"][0]["breaker"] == {
        "endpoint": "http://dead/v1",
        "state": "open",
        "recent_failures": 0,
        "open_for": 0.0,
        "failure_threshold": 2,
        "window": 60.0,
        "cool_down": 30.0,
    }
    assert kinds(events)[1:4] == ["llm_start", "fallback", "llm_end"] and events[2].refused
    assert "refused" in events[2].error and events[2].error_type == "CircuitOpenError"
    # After the cool-down a trial call goes through: half-open, it succeeds, closed.
    clock.advance(31.0)
    healed = ScriptedModel([finish("3")], model_name="primary")
    healed.endpoint = "http://dead/v1"
    result, events, _ = run(with_breaker(healed), clock=clock)
    assert result["output"] == "3"
    assert kinds(events)[1:5] == ["llm_start", "breaker_half_open", "breaker_closed", "llm_end"]
    assert events[2].open_for >= 31.0 and breaker_for("http://dead/v1").state == "closed"


def test_a_failed_trial_opens_the_breaker_again():
    clock = ManualClock()
    dead = DeadModel()
    run(with_breaker(dead, failure_threshold=1, cool_down=10.0), clock=clock)
    clock.advance(10.0)
    _result, events, error = run(with_breaker(dead), clock=clock)
    assert isinstance(error, CircuitOpenError) and not error.refused
    assert kinds(events)[1:4] == ["llm_start", "breaker_half_open", "breaker_open"]
    assert events[3].from_state == "half_open" and events[3].failures == 1
    assert kinds(events)[-1] == "chain_error" and dead.calls == 2


def test_outside_a_run_generate_uses_the_same_breaker_without_events():
    clock = ManualClock()
    dead = DeadModel()
    guarded = with_breaker(dead, breaker=CircuitBreaker("x", failure_threshold=2, cool_down=10.0, clock=clock))
    with pytest.raises(HTTPFailure):
        guarded.generate("p", [])
    with pytest.raises(CircuitOpenError, match="opened by this failure"):
        guarded.generate("p", [])
    with pytest.raises(CircuitOpenError, match=r"\(refused\)"):
        guarded.generate("p", [])
    assert dead.calls == 2
    clock.advance(10.0)
    dead.generate = lambda prompt, stop: ScriptedModel(["ok"]).generate(prompt, stop)
    assert with_fallbacks(guarded, [DeadModel("b")]).generate("p", []).text == "ok"
    assert guarded.breaker.state == "closed"


def test_a_breaker_cannot_wrap_a_chain():
    with pytest.raises(TypeError, match="put the breaker around each model"):
        with_breaker(with_fallbacks(DeadModel(), [DeadModel("b")]))


def test_runs_in_threads_share_one_breaker_and_it_opens_once():
    import threading

    dead = DeadModel()
    outcomes, lock = [], threading.Lock()

    def one_run():
        model = with_fallbacks(
            with_breaker(dead, failure_threshold=3, cool_down=60.0),
            [ScriptedModel([finish("ok")], model_name="backup")],
        )
        result, events, _error = run(model, retries=6)
        with lock:
            outcomes.append((result, kinds(events)))

    threads = [threading.Thread(target=one_run) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=10)
    assert [result["output"] for result, _ in outcomes] == ["ok"] * 6
    assert sum(run_kinds.count("breaker_open") for _, run_kinds in outcomes) == 1
    assert 3 <= dead.calls <= 3 + 6  # at most one attempt per run was already in flight when it opened
