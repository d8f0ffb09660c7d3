"""A trace whose model name, tool output and own file name carry terminal escapes: no command prints them raw."""

from __future__ import annotations

import json

import pytest

from tests.helpers.paths import ROSE
from tracer.cli import main

# An OSC that retitles the terminal, a CSI that clears it, and the one-byte C1 CSI.
ESCAPES = "\x1b]0;pwned\x07\x1b[2J\x9b"
RAW = ("\x1b", "\x07", "\x9b")


@pytest.fixture
def hostile_trace(tmp_path):
    """The rose recording with the escapes in every llm_start's model, a tool's observation and the file name."""
    lines = []
    for line in ROSE.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        if record.get("kind") == "llm_start":
            record["model"] = f"gpt{ESCAPES}"
        elif record.get("kind") == "tool_end":
            record["observation"] += ESCAPES
        lines.append(json.dumps(record, ensure_ascii=False))
    path = tmp_path / f"rose{ESCAPES}.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize(
    "argv",
    [
        ["call", "{trace}", "--at", "1"],
        ["diff", "{trace}", str(ROSE)],
        ["export", "--format", "otlp-json", "{trace}"],
        ["export", "--mermaid", "{trace}"],
        ["debug", "{trace}"],  # stdout is not a terminal: the run is narrated
        ["fork", "{trace}", "--at", "9", "--reply", "x", "-o", "{out}"],
        ["verify", "{trace}"],
        ["call", "{trace}", "--at", "0"],  # an error line naming the file
    ],
)
def test_no_escape_from_a_trace_reaches_the_terminal_raw(argv, hostile_trace, tmp_path, capsys):
    argv = [arg.format(trace=hostile_trace, out=tmp_path / "forked.jsonl") for arg in argv]
    main(argv)
    out, err = capsys.readouterr()
    assert out + err  # the command said something
    for raw in RAW:
        assert raw not in out and raw not in err, (raw, argv)


def test_call_shows_the_model_name_from_the_trace_escaped(hostile_trace, capsys):
    assert main(["call", str(hostile_trace), "--at", "1"]) == 0
    out = capsys.readouterr().out
    assert "asked gpt␛]0;pwned\\x07␛[2J\\x9b ·" in out


def test_otlp_json_on_stdout_escapes_c1_controls_and_keeps_the_value(hostile_trace, capsys):
    assert main(["export", "--format", "otlp-json", str(hostile_trace)]) == 0
    out = capsys.readouterr().out
    assert "\\u009b" in out and "\\u001b" in out

    def strings(value):
        if isinstance(value, str):
            yield value
        elif isinstance(value, (list, dict)):
            for item in value.values() if isinstance(value, dict) else value:
                yield from strings(item)

    # The same JSON value: the model's name still holds the escapes, as data.
    assert any(text == f"gpt{ESCAPES}" for text in strings(json.loads(out)))
