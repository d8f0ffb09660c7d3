"""The Variables pane of a framework's run: its messages under the framework's name, from a trace that may lie."""

from __future__ import annotations

import json

from tests.helpers.paths import FIXTURES
from tests.helpers.trace_factory import record
from tracer.tui.launch import build_session
from tracer.tui.views.variables_view import variables_text
from tutorials.rose_pricing import REPLIES


def _with_settings(tmp_path, settings):
    """A rose run whose chain_start claims `settings`, as a trace someone else wrote may."""
    path = record(tmp_path / "run.jsonl", REPLIES)
    lines = path.read_text(encoding="utf-8").splitlines()
    for number, line in enumerate(lines):
        event = json.loads(line)
        if event.get("kind") == "chain_start":
            lines[number] = json.dumps(event | {"settings": settings})
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_a_framework_run_says_whose_messages_these_are_in_both_languages(tmp_path):
    session = build_session(_with_settings(tmp_path, {"framework": "pydantic-ai"}))
    session.goto(5)
    english = variables_text(session).plain
    assert "The messages of the pydantic-ai run at this event" in english and "messages  " in english
    assert "name_to_tool_map" not in english and 'state["messages"]' not in english
    chinese = variables_text(session, "zh").plain
    assert "这个事件处 pydantic-ai 运行中的消息" in chinese and "The messages of" not in chinese


def test_a_hostile_framework_name_and_middleware_are_shown_literally_never_obeyed(tmp_path):
    session = build_session(_with_settings(tmp_path, {"framework": "[red]x\x1b[2Jy", "middleware": 5}))
    session.goto(5)
    shown = variables_text(session)
    assert "[red]x" in shown.plain and "\x1b" not in shown.plain  # markup literal, the escape neutralised
    assert "middleware" not in shown.plain  # a number is not a list of middleware


def test_a_graph_run_whose_middleware_is_not_a_list_still_shows_its_state(tmp_path):
    session = build_session(_with_settings(tmp_path, {"graph": "CompiledStateGraph", "middleware": 5}))
    session.goto(5)
    shown = variables_text(session).plain
    assert 'state["messages"]' in shown and "middleware" not in shown


def test_tool_results_that_ended_out_of_order_are_shown_in_the_order_the_model_asked(tmp_path):
    """parallel_tools.jsonl: Guangzhou's call ends before Shanghai's; the next model call gets them as asked."""
    path = tmp_path / "run.jsonl"
    lines = (FIXTURES / "parallel_tools.jsonl").read_text(encoding="utf-8").splitlines()
    for number, line in enumerate(lines):
        event = json.loads(line)
        if event.get("kind") == "chain_start":
            lines[number] = json.dumps(event | {"settings": {"framework": "pydantic-ai"}})
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    session = build_session(path)
    sent = session.event(17)  # the model call after the three results
    assert sent.kind == "llm_start"
    asked = [m["tool_call_id"] for m in sent.messages if m.get("role") == "tool"]
    session.goto(12)  # the last of the three results
    shown = [line.split()[2].rstrip(":") for line in variables_text(session).plain.splitlines() if "] tool " in line]
    assert shown == asked == ["call_bj", "call_sh", "call_gz"]
