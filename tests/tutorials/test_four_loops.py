"""four-loops: the fixtures re-record from one script to the same transitions, and the narrated differences are in them."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from tests.helpers.cli_run import loopscope
from tracer.trace.reader import load_trace
from tracer.trace.transitions import Trace
from tutorials.registry import TUTORIALS

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "record_four_loops.py"
PARTS = TUTORIALS["four-loops"].parts


def _script():
    spec = importlib.util.spec_from_file_location("record_four_loops", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _results(path: Path) -> list[tuple[str, str, str]]:
    """Each tool call's result as the run recorded it (tool_end or a handled tool_error), by call id."""
    events = load_trace(path)[1]
    return sorted(
        (e.kind, e.tool_call_id or "", e.observation or "") for e in events if e.kind in ("tool_end", "tool_error")
    )


def _sent_for(path: Path, call_id: str) -> str:
    """What the model was sent as the result of `call_id` (its role: tool message in the next request)."""
    for event in load_trace(path)[1]:
        for message in getattr(event, "messages", None) or ():
            if message.get("role") == "tool" and message.get("tool_call_id") == call_id:
                return message["content"]
    raise AssertionError(f"no request of {path.name} carries {call_id}'s result")


@pytest.mark.slow  # runs four agents, three of them through their frameworks
def test_the_script_records_the_same_transitions_and_results_again(tmp_path):
    written = _script().record_all(tmp_path)
    assert [p.name for p in written] == [part.fixture.name for part in PARTS]
    for part, path in zip(PARTS, written):
        assert Trace.load(path).labels() == Trace.load(part.fixture).labels(), part.name
        assert _results(path) == _results(part.fixture), part.name
        header = load_trace(path)[0]
        assert header.scenario == part.name and (getattr(header, "framework", None) or "") == part.framework


def test_every_loop_is_asked_the_same_question_with_the_same_tool_and_answers_the_same():
    first_requests, answers = [], []
    for part in PARTS:
        events = load_trace(part.fixture)[1]
        start = next(e for e in events if e.kind == "llm_start")
        first_requests.append([(m["role"], m["content"]) for m in start.messages])
        assert [t["function"]["name"] for t in start.tools] == ["get_weather"], part.name
        answers.append([e.text for e in events if e.kind == "llm_end"][-1])
    assert all(request == first_requests[0] for request in first_requests)
    assert len(set(answers)) == 1


def test_the_failed_lookup_reaches_each_model_as_the_narration_says():
    sent = {part.name: _sent_for(part.fixture, "call_sh") for part in PARTS}
    error = "no forecast for 'SH'; known cities: Beijing, Shanghai"
    assert sent["four-loops-loopscope"] == error  # ToolError's message, as it is
    assert sent["four-loops-langgraph"] == error  # ToolException handled by the tool
    assert sent["four-loops-openai-agents"] == "An error occurred while running the tool. Please try again."
    assert json.loads(sent["four-loops-pydantic-ai"]) == {"error": error}  # ModelRetry, as JSON


def test_both_calls_start_before_either_ends_in_the_sdk_and_pydantic_ai():
    for part in PARTS[2:]:
        kinds = [(e.kind, e.tool_call_id) for e in load_trace(part.fixture)[1] if e.kind.startswith("tool_")]
        assert kinds[:2] == [("tool_start", "call_bj"), ("tool_start", "call_sh")], part.name


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_print_narrates_all_four_loops(capsys, lang):
    code, out, err = loopscope(capsys, "tutorial", "four-loops", "--print", "--lang", lang)
    assert code == 0, err
    tutorial = TUTORIALS["four-loops"]
    for number, part in enumerate(PARTS, start=1):
        assert f"{number}/4" in out and tutorial.part_label(part, lang) in out, part.name
    for note in tutorial.notes.notes:
        assert note.titles[lang] in out, note.id


def test_the_fixtures_verify_through_their_own_frameworks(capsys):
    code, out, err = loopscope(capsys, "verify", *(str(part.fixture) for part in PARTS))
    verdicts = [line.split()[0] for line in out.splitlines() if line.strip() and not line.startswith(" ")]
    assert code == 0 and verdicts[:4] == ["OK"] * 4 and "moved" not in out, out + err


def test_fixtures_rerecord_never_writes_loopscopes_run_over_a_frameworks_recording(tmp_path, capsys, monkeypatch):
    from tracer.cli import fixtures as fixtures_command

    part = next(p for p in PARTS if p.name == "four-loops-openai-agents")
    copy = tmp_path / part.fixture.name
    lines = part.fixture.read_text(encoding="utf-8").splitlines()
    events = [json.loads(line) for line in lines]
    tool = next(e for e in events if e.get("kind") == "tool_end")
    tool["observation"] = "Beijing: snow"  # as if the forecast had changed since the recording
    copy.write_text("\n".join(json.dumps(e, ensure_ascii=False) for e in events) + "\n", encoding="utf-8")
    monkeypatch.setattr(fixtures_command, "scenario_fixtures", lambda: {copy.resolve(): part})

    before = copy.read_text(encoding="utf-8")
    _code, out, err = loopscope(capsys, "fixtures", "--rerecord", str(copy))
    assert copy.read_text(encoding="utf-8") == before, out + err  # still the SDK's own run, untouched
    assert "re-record it with the script that made it" in out
