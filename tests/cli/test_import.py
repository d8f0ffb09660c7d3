"""`loopscope import`, and `debug` / `diff` / `export` opening other tools' traces directly."""

from __future__ import annotations

import json

from tests.helpers.cli_run import loopscope
from tests.helpers.foreign_traces import write_langfuse, write_otlp
from tracer.trace.reader import load_trace


def test_import_writes_a_loopscope_trace_and_warns_about_orphans(capsys, tmp_path):
    out_path = tmp_path / "imported.jsonl"
    code, out, err = loopscope(capsys, "import", str(write_otlp(tmp_path / "spans.json")), "-o", str(out_path))
    assert code == 0
    assert out.strip() == (
        f"spans.json: OTLP JSON: 7 spans, 2 LLM, 4 tool → 14 events written to {out_path}, with 2 warning(s)"
    )
    assert "shown at the top level" in err
    header, events, _ = load_trace(out_path)
    assert header.model_extra["import_format"] == "otlp-json" and len(events) == 14


def test_an_unknown_file_is_one_line_and_exit_2(capsys, tmp_path):
    path = tmp_path / "other.json"
    path.write_text(json.dumps([1, 2, 3]))
    code, out, err = loopscope(capsys, "import", str(path), "-o", str(tmp_path / "x.jsonl"))
    assert code == 2 and not out
    assert err.strip().endswith(
        "found a JSON list of 3 item(s); expected a loopscope trace (JSONL), OTLP JSON, "
        "a LangSmith run export or a Langfuse trace export"
    )
    assert err.count("\n") == 1 and not (tmp_path / "x.jsonl").exists()


def test_debug_diff_and_export_open_other_tools_traces_directly(capsys, tmp_path):
    langfuse = write_langfuse(tmp_path / "langfuse.json")
    code, out, _ = loopscope(capsys, "debug", str(langfuse), "--print")
    assert code == 0 and "imported langfuse.json: Langfuse trace" in out and "26.25 yuan" in out
    code, out, _ = loopscope(capsys, "diff", str(langfuse), str(langfuse))
    assert code == 0 and "The runs take the same transitions" in out and "B finished: 26.25 yuan" in out
    code, out, _ = loopscope(capsys, "export", "--mermaid", str(langfuse))
    assert code == 0 and "stateDiagram-v2" in out
