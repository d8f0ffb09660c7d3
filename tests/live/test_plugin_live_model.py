"""The pytest plugin records with the live model the loopscope command would use (LOOPSCOPE_MODEL, OPENAI_BASE_URL,
OPENAI_API_KEY, or --loopscope-model / the marker's model=), here a local OpenAI-compatible endpoint."""

from __future__ import annotations

import json
import shutil

# As in tests/testing/test_plugin.py: loaded before pytester's in-process runs, which put sys.modules back.
import numexpr  # noqa: F401
import pytest

import executor
import tracer.replay.builder
import tracer.replay.verify
import tracer.testing.configured_model  # noqa: F401
from tests.live.conftest import API_KEY

for _name in executor.__all__:
    getattr(executor, _name)

pytest_plugins = ["pytester"]

PROJECT_TEST = """
import pytest
from executor import AgentExecutor, Tool, create_react_agent

def build(model):
    tools = [Tool("Search", "Look up today's prices.", lambda q: "Roses cost 25 yuan a bunch.", deterministic=False)]
    return AgentExecutor(agent=create_react_agent(model, tools), tools=tools)

MARK
def test_rose(loopscope_cassette):
    trace = loopscope_cassette.run(build, {"input": "What do roses cost?"})  # no live_model: the configured one
    assert trace.outcome().startswith("finished: 25 yuan")
"""
REPLIES = (
    " I should look it up.\nAction: Search\nAction Input: rose price",
    " I now know the final answer.\nFinal Answer: 25 yuan",
)
CASSETTE = "cassettes/test_rose/test_rose.jsonl"


def run(pytester, *args):
    pytester.makeini("[pytest]\nasyncio_default_fixture_loop_scope = function\n")
    shutil.rmtree(pytester.path / "__pycache__", ignore_errors=True)
    return pytester.runpytest("-p", "no:cacheprovider", *args)


def project(pytester, mark=""):
    pytester.makepyfile(test_rose=PROJECT_TEST.replace("MARK", mark))


@pytest.fixture
def endpoint(live_env, pytester, monkeypatch):
    """The fake endpoint, named as the loopscope command reads it: the environment, no .env."""
    monkeypatch.setenv("LOOPSCOPE_MODEL", "openai:fake-model")
    return live_env


def test_a_test_records_against_the_configured_endpoint_then_replays_without_it(endpoint, pytester):
    endpoint.push(*REPLIES)
    project(pytester)
    run(pytester, "--loopscope-record=once").assert_outcomes(passed=1)
    assert len(endpoint.received) == 2 and endpoint.received[0].body["model"] == "fake-model"
    header = json.loads((pytester.path / CASSETTE).read_text(encoding="utf-8").splitlines()[0])
    assert header["test"] == "test_rose.py::test_rose"
    endpoint.stop()  # offline from here on
    run(pytester).assert_outcomes(passed=1)


def test_the_marker_or_the_option_picks_the_model(endpoint, pytester):
    endpoint.push(*REPLIES, *REPLIES)
    project(pytester, mark='@pytest.mark.loopscope(model="openai:fake-model-large")')
    run(pytester, "--loopscope-record=once").assert_outcomes(passed=1)
    assert endpoint.received[-1].body["model"] == "fake-model-large"
    run(pytester, "--loopscope-record=rewrite", "--loopscope-model", "openai:fake-model").assert_outcomes(passed=1)
    assert endpoint.received[-1].body["model"] == "fake-model"


def test_a_key_read_from_dotenv_stays_out_of_the_cassette(live_env, pytester, monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY")  # only in .env, which the default redactor never sees
    (pytester.path / ".env").write_text(f"OPENAI_API_KEY={API_KEY}\nLOOPSCOPE_MODEL=openai:fake-model\n")
    live_env.push(REPLIES[0], REPLIES[1].replace("25 yuan", f"25 yuan (debug: {API_KEY})"))
    project(pytester)
    run(pytester, "--loopscope-record=once").assert_outcomes(passed=1)
    assert live_env.received[0].headers.get("authorization") == f"Bearer {API_KEY}"
    stored = (pytester.path / CASSETTE).read_text(encoding="utf-8")
    assert API_KEY not in stored and "[REDACTED:OPENAI_API_KEY]" in stored


def test_without_a_configured_model_recording_fails_in_one_line_saying_what_to_set(live_env, pytester):
    project(pytester)
    result = run(pytester, "--loopscope-record=once")
    result.assert_outcomes(failed=1)
    failure = result.stdout.str().split("= FAILURES =")[1].split("short test summary info")[0]
    assert (
        "test_rose.py::test_rose records its cassette, and no live model is configured: set LOOPSCOPE_MODEL" in failure
    )
    assert "OPENAI_BASE_URL and OPENAI_API_KEY for a local endpoint" in failure and "--loopscope-model" in failure
    assert "Traceback" not in failure and "configured_model.py" not in failure
    assert not (pytester.path / CASSETTE).exists() and live_env.received == []
