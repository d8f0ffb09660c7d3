"""Two real endpoints over HTTP, one down (429, then 500, forever): the run falls back, the breaker opens,
later half-opens, and closes once the endpoint heals; every step an event, in order."""

import json

import pytest

from executor import ManualClock, RetryPolicy
from executor.models.config import load_model_config
from executor.models.model_list import create_model_chain, load_model_list
from executor.recovery.circuit_breaker import breaker_for, reset_breakers
from tests.helpers.fake_openai_server import FakeOpenAIServer, Refused, Status
from tracer.trace.reader import load_trace
from tracer.trace.writer import TraceWriter
from tutorials import get_scenario
from tutorials.rose_pricing import REPLIES

ROSE = get_scenario("rose-pricing")
ANSWER = "以25元计算，加价5%后的定价应为26.25元"
BREAKER = {"failure_threshold": 3, "window": 60.0, "cool_down": 30.0}


@pytest.fixture
def two_endpoints(live_env, monkeypatch):
    """(dead, healthy): `dead` answers 429 then 500 to everything; AVAILABLE_MODELS lists dead first."""
    dead = FakeOpenAIServer(always=[Status(429, "slow down"), Status(500, "boom")]).start()
    healthy = live_env
    monkeypatch.setenv(
        "AVAILABLE_MODELS",
        json.dumps(
            [
                {"id": "primary-model", "name": "Primary", "base_url": dead.base_url},
                {"id": "backup-model", "name": "Backup", "base_url": healthy.base_url},
            ]
        ),
    )
    reset_breakers()
    yield dead, healthy
    reset_breakers()
    dead.stop()


def chain():
    listed = load_model_list()
    assert listed.default.id == "primary-model" and listed.warnings == ()
    return create_model_chain(listed, load_model_config(), breaker=BREAKER)


def run_rose(clock, trace=None):
    executor = ROSE.executor(chain(), clock=clock, retry_policy=RetryPolicy(max_retries=4, jitter=False))
    events = []
    result = executor.invoke(ROSE.inputs(), [events.append] + ([trace] if trace else []))
    return result, events


def window(events, first_kind="llm_start"):
    """The kinds from the first llm_start through the first llm_end."""
    kinds = [e.kind for e in events]
    start = kinds.index(first_kind)
    return kinds[start : kinds.index("llm_end", start) + 1]


def test_a_run_falls_back_when_the_breaker_opens_and_the_next_calls_are_refused(two_endpoints, tmp_path):
    dead, healthy = two_endpoints
    healthy.push(*REPLIES)
    path = tmp_path / "fallback.jsonl"
    with TraceWriter(path, scenario=ROSE.name) as writer:
        result, events = run_rose(ManualClock(tick=0.001), writer)
    assert ANSWER in result["output"]
    # Three failures open the breaker before the five allowed retries are spent.
    assert window(events) == ["llm_start", "retry", "retry", "breaker_open", "fallback", "llm_end"]
    first_retry, second_retry, opened, fallback, end = [e for e in events if e.kind != "chain_start"][1:6]
    assert first_retry.error.startswith("ProviderHTTPError: HTTP 429") and "HTTP 500" in second_retry.error
    assert opened.endpoint == dead.base_url and opened.failures == 3 and opened.from_state == "closed"
    assert (fallback.failed_model, fallback.next_model, fallback.refused) == ("primary-model", "backup-model", False)
    assert fallback.error_type == "CircuitOpenError" and end.answered_by == "backup-model"
    # Every later call is refused at once: the dead endpoint heard exactly three requests.
    later = [e for e in events if e.kind == "fallback"][1:]
    assert len(later) == 3 and all(e.refused for e in later)  # two plan() calls and the calculator's
    assert len(dead.received) == 3 and len(healthy.received) == 4
    assert next(r.prompt for r in healthy.received) == dead.received[0].prompt  # the prompt is unchanged
    assert [r.body["model"] for r in healthy.received] == ["backup-model"] * 4
    _, recorded, _ = load_trace(path)
    assert [e.kind for e in recorded] == [e.kind for e in events]
    assert [e.answered_by for e in recorded if e.kind == "llm_end"] == ["backup-model"] * 4


def test_after_the_cool_down_the_breaker_half_opens_and_a_failed_trial_opens_it_again(two_endpoints):
    dead, healthy = two_endpoints
    healthy.push(*REPLIES, *REPLIES)
    clock = ManualClock()
    run_rose(clock)
    assert breaker_for(dead.base_url).state == "open"
    clock.advance(31.0)
    result, events = run_rose(clock)  # a second run in the same process shares the breaker
    assert ANSWER in result["output"]
    assert window(events) == ["llm_start", "breaker_half_open", "breaker_open", "fallback", "llm_end"]
    half_open, reopened, fallback = [e for e in events if e.kind.startswith(("breaker", "fallback"))][:3]
    assert half_open.open_for >= 31.0 and reopened.from_state == "half_open" and reopened.failures == 1
    assert len(dead.received) == 4  # one trial request, no retries
    assert not fallback.refused and "HTTP 500" in fallback.error  # the fourth answer of the cycle


def test_a_healed_endpoint_closes_the_breaker_and_answers_again(two_endpoints):
    dead, healthy = two_endpoints
    healthy.push(*REPLIES)
    clock = ManualClock()
    run_rose(clock)
    dead.always = []
    dead.push(*REPLIES)
    clock.advance(30.0)
    result, events = run_rose(clock)
    assert ANSWER in result["output"]
    assert window(events) == ["llm_start", "breaker_half_open", "breaker_closed", "llm_end"]
    assert "fallback" not in [e.kind for e in events]
    assert all(e.answered_by is None for e in events if e.kind == "llm_end")
    assert breaker_for(dead.base_url).state == "closed" and len(healthy.received) == 4


def test_a_structured_refusal_over_http_is_the_final_answer(live_env):
    from executor import AgentExecutor, create_react_agent
    from executor.models.providers import create_model
    from executor.recovery.degradation import RuleSet

    live_env.push(Refused("I'm sorry, I can't help with pricing."))
    config = load_model_config(model="openai:fake-model")
    model = create_model(config.model, config)
    tools = ROSE.build_tools(model)
    executor = AgentExecutor(create_react_agent(model, tools), tools, rules=RuleSet([]), clock=ManualClock())
    events = []
    result = executor.invoke(ROSE.inputs(), [events.append])
    assert result["output"] == "I'm sorry, I can't help with pricing."
    end = next(e for e in events if e.kind == "llm_end")
    assert end.refusal == result["output"] and end.text == ""
    assert next(e for e in events if e.kind == "refusal").detected_by == "refusal_field"
