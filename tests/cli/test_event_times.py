"""An event's time that is NaN, Infinity or 1e308 (issue 34): every command says so in one line naming the line,
or shows that line as unreadable; none raises, and no exporter turns it into nanoseconds."""

from __future__ import annotations

import json
import re

import pytest

from tests.helpers.paths import ROSE
from tracer.cli import main
from tracer.runs import catalogue

BAD_TIMES = ["NaN", "Infinity", "-Infinity", "1e308", "-1e308", "1e12"]  # 1e12: past the 1.8e10 allowed


@pytest.fixture(autouse=True)
def own_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv(catalogue.ENV_CATALOGUE, raising=False)


def with_time(tmp_path, value: str, kind: str = "llm_start") -> tuple[str, int]:
    """A copy of the rose trace whose first `kind` event has `"t": value`; (path, its line number)."""
    lines = ROSE.read_text("utf-8").splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if i and json.loads(line)["kind"] == kind)
    lines[at] = re.sub(r'"t":[-0-9.e+]+', f'"t":{value}', lines[at], count=1)
    path = tmp_path / "traces" / f"t-{kind}.jsonl"
    path.parent.mkdir(exist_ok=True)
    path.write_text("".join(lines), "utf-8")
    return str(path), at + 1


def one_line_naming(err: str, path: str, line: int) -> bool:
    said = err.strip().splitlines()
    return len(said) == 1 and f"{path}:{line}: t is " in said[0] and "Traceback" not in err


@pytest.mark.parametrize("value", BAD_TIMES)
def test_otlp_json_export_refuses_in_one_line(tmp_path, capsys, value):
    path, line = with_time(tmp_path, value)
    out = tmp_path / "spans.json"
    assert main(["export", "--format", "otlp-json", "-o", str(out), path]) == 2
    assert one_line_naming(capsys.readouterr().err, path, line)
    assert not out.exists()


@pytest.mark.parametrize("value", ["NaN", "Infinity", "1e308"])
def test_otlp_send_refuses_before_sending(tmp_path, capsys, value):
    path, line = with_time(tmp_path, value)
    assert main(["export", "--otlp", "http://127.0.0.1:9/v1/traces", path]) == 2
    assert one_line_naming(capsys.readouterr().err, path, line)


@pytest.mark.parametrize("value", ["NaN", "1e308"])
def test_debug_print_refuses_in_one_line(tmp_path, capsys, value):
    path, line = with_time(tmp_path, value)
    assert main(["debug", path, "--print"]) == 2
    assert one_line_naming(capsys.readouterr().err, path, line)


@pytest.mark.parametrize("value", ["NaN", "1e308", "-1e308"])
@pytest.mark.parametrize("kind", ["llm_start", "tool_end", "chain_end"])
def test_html_export_writes_the_page_with_that_line_unreadable(tmp_path, capsys, value, kind):
    path, line = with_time(tmp_path, value, kind)
    page = tmp_path / "page.html"
    code = main(["export", "--html", str(page), path])
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    if code == 0:  # the line is read only as raw bytes: the page shows it unreadable, with the reason
        assert "t is " in page.read_text("utf-8") and "must be finite" in page.read_text("utf-8")
    else:  # the line is decoded (its cost or its index): refused like every other command
        assert code == 2 and one_line_naming(captured.err, path, line)


@pytest.mark.parametrize("value", ["NaN", "1e308"])
def test_runs_lists_the_trace_as_unreadable_and_does_not_send_it(tmp_path, capsys, value):
    _path, line = with_time(tmp_path, value)
    assert main(["runs", str(tmp_path / "traces"), "--json"]) == 0
    row = json.loads(capsys.readouterr().out.splitlines()[0])
    assert row["outcome"] == "unreadable" and f"line {line}: t is " in row["detail"]
    main(["runs", str(tmp_path / "traces"), "--export-otlp", "http://127.0.0.1:9/v1/traces"])
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err and "1 unreadable" in captured.out + captured.err


def test_an_ordinary_time_is_still_read(tmp_path, capsys):
    path, _line = with_time(tmp_path, "123456.5")
    assert main(["export", "--format", "otlp-json", "-o", str(tmp_path / "spans.json"), path]) == 0
