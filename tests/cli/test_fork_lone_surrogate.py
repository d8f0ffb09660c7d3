"""`loopscope fork` on a trace holding escaped lone surrogates (a tool read a file with surrogateescape) works."""

from __future__ import annotations

import sys

from executor import ScriptedModel
from tracer.cli import main
from tracer.trace.reader import load_trace
from tracer.trace.writer import TraceWriter

MENU = """from executor import AgentExecutor, ManualClock, Tool, create_react_agent

MENU_TEXT = "caf\\udce9 menu \\x1b[31m"


def build(model):
    tools = [Tool("Menu", "reads the menu file", lambda _: MENU_TEXT)]
    return AgentExecutor(agent=create_react_agent(model, tools), tools=tools, clock=ManualClock(tick=0.001))
"""
REPLIES = [" look\nAction: Menu\nAction Input: today", " Final Answer: see \ud800 above"]


def test_fork_of_a_trace_with_lone_surrogates_writes_the_fork_and_prints_them_escaped(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [str(tmp_path), *sys.path])
    (tmp_path / "menu.py").write_text(MENU, encoding="utf-8")
    sys.modules.pop("menu", None)
    from menu import build  # type: ignore[import-not-found]

    with TraceWriter(tmp_path / "menu.jsonl", agent="menu:build", clock_tick=0.001) as writer:
        build(ScriptedModel(REPLIES)).invoke({"input": "what is on?"}, [writer])
    tool_end = next(e.seq for e in load_trace(tmp_path / "menu.jsonl")[1] if e.kind == "tool_end")
    code = main(
        [
            "fork",
            "menu.jsonl",
            "--at",
            str(tool_end),
            "--observation",
            "soup \udcff",
            "-o",
            "fork.jsonl",
            "--agent",
            "menu:build",
        ]
    )
    out, err = capsys.readouterr()
    sys.modules.pop("menu", None)
    assert code == 0, err
    assert "): finished: see \\ud800 above" in out  # (stale: the prompt changed) escaped, not a crash
    _header, events, warning = load_trace(tmp_path / "fork.jsonl")
    assert warning is None
    assert [e.observation for e in events if e.kind == "tool_end"] == ["soup \udcff"]
    assert events[-1].outputs == {"output": "see \ud800 above"}
