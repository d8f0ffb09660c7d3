"""A pydantic-ai Agent built without a model (the app gives one to each run, `agent.run(q, model=...)`), recorded
with its own model: one line that says what to do, and no trace file (it was "the agent raised TypeError: argument of
type 'NoneType' is not iterable" from deep in pydantic-ai, after a trace of two events was written); offline, with
--replies, it still records."""

from __future__ import annotations

import json

from tests.helpers.cli_run import loopscope
from tracer import Trace

AGENT = "from pydantic_ai import Agent\n\nagent = Agent(instructions='Be brief.')\n"


def test_an_agent_without_a_model_is_said_in_one_line_before_any_file(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "my_app.py").write_text(AGENT, encoding="utf-8")
    code, _, err = loopscope(capsys, "record", "my_app.py:agent", "--input", "hi", "-o", "run.jsonl")
    assert code == 1 and not (tmp_path / "run.jsonl").exists()
    line = err.strip().splitlines()[-1]
    assert "the agent has no model" in line and "give the Agent its model" in line and "--replies" in line, err
    (tmp_path / "replies.json").write_text(json.dumps(["hello"]), encoding="utf-8")
    argv = ["record", "my_app.py:agent", "--input", "hi", "--replies", "replies.json", "-o", "run.jsonl"]
    code, _, err = loopscope(capsys, *argv)
    assert code == 0, err
    assert Trace.load(tmp_path / "run.jsonl").events[-1].outputs["output"] == "hello"


def test_in_a_chinese_locale_the_missing_model_is_said_in_chinese(capsys, tmp_path, monkeypatch):
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("LC_ALL", "zh_CN.UTF-8")
    monkeypatch.chdir(tmp_path)
    (tmp_path / "my_app.py").write_text(AGENT, encoding="utf-8")
    code, _, err = loopscope(capsys, "record", "my_app.py:agent", "--input", "hi", "-o", "run.jsonl")
    line = err.strip().splitlines()[-1]
    assert code == 1 and "这个智能体没有模型" in line and "--replies FILE" in line and "the agent" not in line, err


def test_debug_live_says_the_missing_model_in_the_debuggers_language(tmp_path, monkeypatch):
    from tracer.agents.framework_agent import load_framework_agent
    from tracer.debug.framework_live import FrameworkLiveRun

    monkeypatch.chdir(tmp_path)
    (tmp_path / "my_app.py").write_text(AGENT, encoding="utf-8")
    agent = load_framework_agent("my_app.py:agent")
    assert agent is not None
    run = FrameworkLiveRun(agent, "hi", tmp_path / "live.jsonl")
    try:
        while run.pull() is not None:
            pass
    finally:
        run.close()
    said = run.outcome.text("zh")
    assert "NoModel" in said and "这个智能体没有模型" in said and "the agent has no model" in run.outcome.text("en")
