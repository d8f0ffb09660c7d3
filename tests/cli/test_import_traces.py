"""A file holding several traces: `import -o FOLDER` writes one per trace id, `-o FILE.jsonl` is one line listing
the ids, `--trace-id` picks one, and `debug` / `diff` take `--trace-id` (a terminal asks which)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers.cli_run import loopscope
from tracer.trace.reader import load_trace

DATA = Path(__file__).resolve().parents[1] / "data" / "langfuse"
SOURCES = ["langgraph-2025-08-22.json", "koog-2025-08-26.json", "openai-agents-2025-09-30.json"]


@pytest.fixture
def three_traces(tmp_path) -> Path:
    """Three Langfuse traces in one file, as the public API's list endpoint returns them."""
    items = [json.loads((DATA / name).read_text()) for name in SOURCES]
    path = tmp_path / "three.json"
    path.write_text(json.dumps({"data": items}))
    return path


def ids() -> list[str]:
    return [json.loads((DATA / name).read_text())["trace"]["id"] for name in SOURCES]


def test_a_folder_gets_one_trace_per_trace_id_named_so_they_can_be_told_apart(capsys, tmp_path, three_traces):
    code, out, err = loopscope(capsys, "import", three_traces, "-o", tmp_path / "out")
    assert code == 0
    files = sorted((tmp_path / "out").glob("*.jsonl"))
    assert sorted(f.name for f in files) == sorted(
        [
            "LangGraph-e1fde3efec57.jsonl",
            "agent.f9f77d1a-437f-4ba6-890e-b592a50cbd-dff173a675b7.jsonl",
            "Agent-workflow-fee618f96dc3.jsonl",
        ]
    )
    total = 0
    for path in files:  # each is a whole run of its own trace
        header, events, warning = load_trace(path)
        total += len(events)
        assert warning is None and events[0].kind == "chain_start" and events[-1].kind == "chain_end"
        assert header.model_extra["imported_trace_id"] == events[0].origin["trace_id"] in ids()
    assert (
        out.splitlines()[-1]
        == f"three.json: Langfuse trace, 3 trace(s) → {total} events written to {tmp_path / 'out'}/, with {err.count('warning: ')} different warning(s)"
    )
    assert "warning: 5 span(s) kept as plain frames" in err  # not a plain success: the losses are said


def test_one_file_for_several_traces_is_one_line_listing_the_ids(capsys, tmp_path, three_traces):
    out = tmp_path / "one.jsonl"
    code, stdout, err = loopscope(capsys, "import", three_traces, "-o", out)
    assert (code, stdout) == (2, "") and err.count("\n") == 1 and not out.exists()
    assert "holds 3 traces: 'e1fde3efec57ce8a69bafd3fb928a7eb' (LangGraph)" in err
    assert all(trace_id in err for trace_id in ids()) and "--trace-id ID" in err


def test_trace_id_picks_one_by_its_id_or_the_start_of_it(capsys, tmp_path, three_traces):
    out = tmp_path / "koog.jsonl"
    code, stdout, _err = loopscope(capsys, "import", three_traces, "-o", out, "--trace-id", "dff173a6")
    assert code == 0 and "Langfuse trace: 11 spans, 2 LLM, 2 tool" in stdout
    assert load_trace(out)[1][0].origin["trace_id"] == "dff173a675b759ce1b70e522b27d6846"
    code, _out, err = loopscope(capsys, "import", three_traces, "-o", out, "--trace-id", "nope")
    assert code == 2 and "no trace with id 'nope'; it holds " in err and err.count("\n") == 1


def test_debug_and_diff_take_trace_id_and_say_the_ids_without_it(capsys, tmp_path, three_traces):
    code, _out, err = loopscope(capsys, "debug", three_traces, "--print")
    assert code == 2 and "holds 3 traces" in err and err.count("\n") == 1
    code, out, _err = loopscope(capsys, "debug", three_traces, "--print", "--trace-id", "e1fde3ef")
    assert code == 0 and 'Observation: [{"url": "https://example.com"' in out
    code, out, _err = loopscope(
        capsys, "diff", three_traces, three_traces, "--trace-id", "e1fde3ef", "--trace-id", "e1fde3ef"
    )
    assert code == 0 and "The runs take the same transitions" in out
    code, out, _err = loopscope(
        capsys, "diff", three_traces, three_traces, "--trace-id", "e1fde3ef", "--trace-id", "fee618f9"
    )
    assert code == 1 and "AgentAction(Web-Search)" in out and "AgentAction(get_weather)" in out
    code, _out, err = loopscope(capsys, "debug", DATA / "koog-2025-08-26.json", "--print", "--trace-id", "x")
    assert code == 2 and "no trace with id 'x'" in err


def test_in_a_terminal_debug_asks_which_trace(monkeypatch, capsys, three_traces):
    from tracer.cli import trace_choice

    asked = []
    monkeypatch.setattr("builtins.input", lambda prompt: asked.append(prompt) or "3")
    chosen = trace_choice.chosen_trace(str(three_traces), None, ask=True)
    assert asked == ["Which one? [1-3 or an id]: "]
    assert load_trace(chosen)[1][0].origin["trace_id"] == ids()[2]
    listed = capsys.readouterr().err
    assert listed.startswith("three.json holds 3 traces:\n") and "LangGraph" in listed


def test_trace_id_on_a_loopscope_trace_is_one_line(capsys):
    from tests.helpers.paths import ROSE

    code, _out, err = loopscope(capsys, "debug", ROSE, "--print", "--trace-id", "abc")
    assert code == 2 and "this is a loopscope trace" in err and err.count("\n") == 1
