"""The openai provider over real HTTP: rose-pricing live, every fault retried, replayed offline."""

import json
import socket

import pytest

from executor import ManualClock, RetriesExhausted, RetryPolicy
from executor.models.config import load_model_config
from executor.models.providers import ProviderAuthError, ProviderUnreachable, create_model
from tests.helpers.fake_openai_server import Drop, Malformed, Slow, Status
from tests.live.conftest import API_KEY
from tracer.replay.builder import recorded_retry_policy, replayed_executor
from tracer.replay.verify import compare_runs
from tracer.trace.transitions import Trace
from tracer.trace.writer import TraceWriter
from tutorials import get_scenario
from tutorials.rose_pricing import REPLIES

ROSE = get_scenario("rose-pricing")
ANSWER = "以25元计算，加价5%后的定价应为26.25元"


def live_model(timeout=5.0):
    config = load_model_config(model="openai:fake-model", timeout=timeout)
    return create_model(config.model, config)


def run_rose(model, policy=None, clock=None, trace=None):
    """Run rose-pricing against `model`; returns (events, result or the exception, clock)."""
    clock = clock or ManualClock(tick=0.001)
    executor = ROSE.executor(model, clock=clock, retry_policy=policy or RetryPolicy(jitter=False))
    events = []
    listeners = [events.append] + ([trace] if trace else [])
    try:
        outcome = executor.invoke(ROSE.inputs(), listeners)
    except Exception as error:
        outcome = error
    return events, outcome, clock


def test_rose_pricing_runs_live_end_to_end(live_env):
    live_env.push(*REPLIES)
    events, result, _ = run_rose(live_model())
    assert ANSWER in result["output"]
    assert len(live_env.received) == 4  # three plan() calls and the calculator's own call
    plan, _, calculator, _ = live_env.received
    assert plan.body["stop"] == ["\nObservation"] and calculator.body["stop"] == ["```output"]
    assert plan.body["model"] == "fake-model" and plan.headers["authorization"] == f"Bearer {API_KEY}"
    first_reply = next(e for e in events if e.kind == "llm_end")
    assert "Observation" not in first_reply.text  # the server applied the stop sequence we passed through
    usage = first_reply.usage
    assert usage["total_tokens"] == usage["prompt_tokens"] + usage["completion_tokens"] > 0
    assert next(e for e in events if e.kind == "calculator_eval").result == "26.25"
    assert [e.prompt for e in events if e.kind == "llm_start"] == [r.prompt for r in live_env.received]


@pytest.mark.parametrize(
    "fault, error_text",
    [
        (Status(429, "slow down", retry_after="3"), "ProviderHTTPError: HTTP 429 from http://127.0.0.1"),
        (Status(500), "ProviderHTTPError: HTTP 500"),
        (Status(502), "ProviderHTTPError: HTTP 502"),
        (Status(503), "ProviderHTTPError: HTTP 503"),
        (Drop(), "ProviderConnectionError: could not reach"),
        (Malformed(), "MalformedReply: the reply from"),
        (Slow(3.0), "ProviderTimeout: no reply from"),
    ],
    ids=["429", "500", "502", "503", "dropped", "malformed-json", "slow"],
)
def test_each_fault_is_retried_and_shows_as_a_retry_event(live_env, fault, error_text):
    live_env.push(fault, *REPLIES)
    timeout = 0.3 if isinstance(fault, Slow) else 5.0  # only the slow reply really waits (0.3 s)
    events, result, clock = run_rose(live_model(timeout=timeout), RetryPolicy(jitter=False, initial_delay=1.5))
    assert ANSWER in result["output"]
    retries = [e for e in events if e.kind == "retry"]
    assert len(retries) == 1 and retries[0].target == "llm" and retries[0].name == "fake-model"
    assert retries[0].attempt == 1 and retries[0].error.startswith(error_text)
    expected_delay = 3.0 if isinstance(fault, Status) and fault.retry_after else 1.5  # Retry-After wins
    assert retries[0].delay == expected_delay and clock.slept == [expected_delay]
    assert len(live_env.received) == 5


def test_the_policy_gives_up_after_max_retries_plus_one_calls(live_env):
    live_env.push(*[Status(500, "upstream exploded")] * 4)
    events, error, clock = run_rose(live_model(), RetryPolicy(max_retries=3, jitter=False))
    assert isinstance(error, RetriesExhausted) and len(live_env.received) == 4
    assert clock.slept == [1.0, 2.0, 4.0]
    assert "llm 'fake-model' failed after 4 attempts" in str(error) and "upstream exploded" in str(error)
    assert events[-1].kind == "chain_error"


def test_a_refused_key_fails_fast_with_a_clear_message_and_without_the_key(live_env):
    live_env.push(Status(401))
    events, error, clock = run_rose(live_model())
    assert isinstance(error, ProviderAuthError) and len(live_env.received) == 1
    assert clock.slept == [] and not [e for e in events if e.kind == "retry"]
    message = str(error)
    assert "HTTP 401" in message and "check OPENAI_API_KEY" in message and "\n" not in message
    assert "Incorrect API key provided: ***" in message  # the server echoed the key; we hid it
    assert API_KEY not in json.dumps([e.model_dump(mode="json") for e in events], ensure_ascii=False)


def test_an_unreachable_endpoint_fails_at_once_and_says_what_to_check(live_env, monkeypatch):
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    monkeypatch.setenv("OPENAI_BASE_URL", f"http://127.0.0.1:{port}/v1")
    events, error, clock = run_rose(live_model(), RetryPolicy(max_retries=6, jitter=False))
    assert isinstance(error, ProviderUnreachable) and clock.slept == []  # no backoff against a closed port
    assert not [e for e in events if e.kind == "retry"]
    assert f"could not connect to http://127.0.0.1:{port}/v1" in str(error) and "check OPENAI_BASE_URL" in str(error)


def record_live(path, policy):
    with TraceWriter(path, scenario=ROSE.name, model="openai:fake-model", retry_policy=policy.describe()) as writer:
        return run_rose(live_model(), policy, trace=writer)


def replay_offline(path):
    """Re-execute a trace with the cassette under the retry policy its header records."""
    trace = Trace.load(path)
    assert RetryPolicy.from_description(trace.header.retry_policy) == recorded_retry_policy(trace.header)
    executor = replayed_executor(trace, ROSE.executor, clock=ManualClock(tick=0.001))
    rerun = []
    executor.invoke(ROSE.inputs(), [rerun.append])
    return trace.events, rerun


def test_a_live_trace_replays_offline_and_its_events_match(live_env, tmp_path):
    live_env.push(*REPLIES)
    events, result, _ = record_live(tmp_path / "live.jsonl", RetryPolicy(jitter=False))
    assert ANSWER in result["output"]
    server_calls = len(live_env.received)
    recorded, rerun = replay_offline(tmp_path / "live.jsonl")
    assert compare_runs(recorded, rerun) is None
    assert len(rerun) == len(events) and len(live_env.received) == server_calls  # no server involved
    assert [e.usage for e in rerun if e.kind == "llm_end"] == [e.usage for e in events if e.kind == "llm_end"]


def test_a_live_trace_with_retries_replays_them_offline(live_env, tmp_path):
    live_env.push(Status(503), *REPLIES[:2], Drop(), *REPLIES[2:])  # the second fault hits the calculator
    events, _, _ = record_live(tmp_path / "live.jsonl", RetryPolicy(jitter=False))
    assert [e.name for e in events if e.kind == "retry"] == ["fake-model", "fake-model"]
    recorded, rerun = replay_offline(tmp_path / "live.jsonl")
    assert compare_runs(recorded, rerun) is None
    assert [e.error for e in rerun if e.kind == "retry"] == [e.error for e in events if e.kind == "retry"]


def test_the_key_is_in_no_event_and_not_in_the_trace_file(live_env, tmp_path):
    live_env.push(Status(429, retry_after="1"), *REPLIES)
    path = tmp_path / "live.jsonl"
    with TraceWriter(path, scenario=ROSE.name) as writer:
        events, _, _ = run_rose(live_model(), trace=writer)
    in_memory = json.dumps([e.model_dump(mode="json") for e in events], ensure_ascii=False)
    assert "fake-model" in in_memory and API_KEY not in in_memory
    assert API_KEY not in path.read_text(encoding="utf-8")
    assert API_KEY not in repr(live_model()) and API_KEY not in repr(load_model_config())
