"""`loopscope tests add`: a recorded run becomes a pytest module that passes on the unchanged agent and fails,
naming the event and both values, after the agent's tool changes (loopscope's own agents and LangGraph ones)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.helpers.cli_run import loopscope
from tests.helpers.user_project import AGENT_SOURCE, QUESTION, REPLIES

GRAPH_SOURCE = '''
from langchain.agents import create_agent
from langchain_core.language_models.fake_chat_models import FakeMessagesListChatModel


def get_weather(city: str) -> str:
    """Today's weather for one city."""
    return f"{city}: sunny"


agent = create_agent(FakeMessagesListChatModel(responses=[]), tools=[get_weather])
'''
GRAPH_REPLIES = [{"tool_calls": [{"id": "w1", "name": "get_weather", "arguments": {"city": "Beijing"}}]}, "Sunny."]


def pytest_in(folder) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist", "tests/regressions"],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.mark.slow
@pytest.mark.parametrize(
    ("module", "source", "replies", "edit"),
    [
        ("florist", AGENT_SOURCE, list(REPLIES), ("total:.2f", "total:.1f")),
        ("weather", GRAPH_SOURCE, GRAPH_REPLIES, ("{city}: sunny", "{city}: snow")),
    ],
    ids=["own-agent", "langgraph"],
)
def test_a_run_becomes_a_test_that_passes_then_fails_naming_the_event(
    capsys, tmp_path, monkeypatch, module, source, replies, edit
):
    monkeypatch.chdir(tmp_path)
    (tmp_path / f"{module}.py").write_text(source, encoding="utf-8")
    (tmp_path / "replies.json").write_text(json.dumps(replies), encoding="utf-8")
    spec = f"{module}.py:{'build' if module == 'florist' else 'agent'}"
    code, _, err = loopscope(
        capsys, "record", spec, "--input", QUESTION, "--replies", "replies.json", "-o", "bad run.jsonl"
    )
    assert code == 0, err
    code, _, err = loopscope(capsys, "tests", "add", "bad run.jsonl")
    assert code == 0, err
    test_file = tmp_path / "tests" / "regressions" / "test_regression_bad_run.py"
    assert test_file.is_file() and (tmp_path / "tests" / "regressions" / "bad_run.jsonl").is_file()
    assert f"agent={spec!r}" in test_file.read_text(encoding="utf-8")

    passed = pytest_in(tmp_path)
    assert passed.returncode == 0, passed.stdout + passed.stderr

    agent_file = tmp_path / f"{module}.py"
    agent_file.write_text(agent_file.read_text(encoding="utf-8").replace(*edit), encoding="utf-8")
    failed = pytest_in(tmp_path)
    assert failed.returncode == 1
    assert "no longer replays the same" in failed.stdout and "(tool_end): observation differs" in failed.stdout


def test_a_run_whose_header_names_no_agent_asks_for_one(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "t.jsonl").write_text('{"format": "loopscope-trace", "schema_version": 1}\n', encoding="utf-8")
    code, _, err = loopscope(capsys, "tests", "add", "t.jsonl")
    assert code == 2 and "--agent MODULE:ATTR" in err


def test_an_existing_test_is_not_replaced_without_force(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "t.jsonl").write_text(
        '{"format": "loopscope-trace", "schema_version": 1, "agent": "a:build"}\n', encoding="utf-8"
    )
    assert loopscope(capsys, "tests", "add", "t.jsonl")[0] == 0
    code, _, err = loopscope(capsys, "tests", "add", "t.jsonl")
    assert code == 2 and "--force" in err
    assert loopscope(capsys, "tests", "add", "t.jsonl", "--force")[0] == 0
