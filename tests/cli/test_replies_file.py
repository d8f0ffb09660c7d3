"""`--replies FILE.json`: a user's own agent recorded, run and debugged against the built-in scripted model."""

from __future__ import annotations

import json
import sys

import pytest

from tests.helpers.cli_run import loopscope
from tracer.trace.reader import load_trace

AGENT = '''
from executor import AgentExecutor, create_react_agent, create_tool_calling_agent, tool


@tool
def price(item: str, quantity: int) -> str:
    """The price of QUANTITY items."""
    return f"{quantity} {item}s cost {2.5 * quantity:.2f} yuan"


def react(model):
    return AgentExecutor(agent=create_react_agent(model, [price]), tools=[price])


def calling(model):
    return AgentExecutor(agent=create_tool_calling_agent(model, [price]), tools=[price])
'''


@pytest.fixture
def project(tmp_path, monkeypatch):
    (tmp_path / "shop.py").write_text(AGENT, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [str(tmp_path), *sys.path])
    sys.modules.pop("shop", None)
    yield tmp_path
    sys.modules.pop("shop", None)


def test_a_react_agent_records_from_text_replies_and_verifies(project, capsys):
    replies = [
        ' I should price them.\nAction: price\nAction Input: {"item": "rose", "quantity": 12}',
        " I now know the final answer.\nFinal Answer: 30 yuan",
    ]
    (project / "replies.json").write_text(json.dumps(replies), encoding="utf-8")
    code, _out, err = loopscope(
        capsys, "record", "shop:react", "--input", "12 roses?", "--replies", "replies.json", "-o", "run.jsonl"
    )
    assert code == 0, err
    _, events, _ = load_trace(project / "run.jsonl")
    assert [e.observation for e in events if e.kind == "tool_end"] == ["12 roses cost 30.00 yuan"]
    assert events[-1].kind == "chain_end" and events[-1].outputs["output"] == "30 yuan"
    assert loopscope(capsys, "verify", "run.jsonl", "--agent", "shop:react")[0] == 0


def test_a_tool_calling_agent_takes_tool_calls_from_the_file(project, capsys):
    replies = [
        {
            "text": "",
            "tool_calls": [
                {"name": "price", "arguments": {"item": "rose", "quantity": 2}},
                {"name": "price", "arguments": {"item": "tulip", "quantity": 3}, "id": "t1"},
            ],
        },
        "Roses 5, tulips 7.5.",
    ]
    (project / "replies.json").write_text(json.dumps(replies), encoding="utf-8")
    code, _out, err = loopscope(
        capsys, "record", "shop:calling", "--input", "prices?", "--replies", "replies.json", "-o", "run.jsonl"
    )
    assert code == 0, err
    _, events, _ = load_trace(project / "run.jsonl")
    ends = {e.tool_call_id: e.observation for e in events if e.kind == "tool_end"}
    assert ends == {"call_1_1": "2 roses cost 5.00 yuan", "t1": "3 tulips cost 7.50 yuan"}
    assert events[-1].outputs["output"] == "Roses 5, tulips 7.5."


@pytest.mark.parametrize(
    "content, said",
    [
        (None, "No such file or directory"),
        ("{not json", "is not JSON"),
        ('{"a": 1}', "give a non-empty JSON list of replies"),
        ("[]", "give a non-empty JSON list of replies"),
        ("[1]", "reply #1 is neither a string nor"),
        ('["ok", {"text": "x", "tool_calls": [{"arguments": {}}]}]', "reply #2, tool call #1"),
    ],
)
def test_a_bad_replies_file_is_one_line(project, capsys, content, said):
    if content is not None:
        (project / "replies.json").write_text(content, encoding="utf-8")
    code, _out, err = loopscope(
        capsys, "record", "shop:react", "--input", "q", "--replies", "replies.json", "-o", "run.jsonl"
    )
    assert code == 2 and said in err and len(err.strip().splitlines()) == 1
    assert not (project / "run.jsonl").exists()


def test_a_scenario_brings_its_own_replies(capsys):
    code, _out, err = loopscope(capsys, "run", "rose-pricing", "--replies", "r.json")
    assert code == 2 and "--replies is for your own agent" in err
