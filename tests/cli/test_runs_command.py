"""`loopscope runs` from the command line: JSON lines, --where, --sort, --by, the printed table, --export-otlp,
and one-line errors for what the user got wrong."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.helpers.otlp_receiver import OTLPReceiver
from tests.helpers.paths import FIXTURES
from tracer.cli import main
from tracer.runs import catalogue
from tracer.runs.catalogue import default_location

SHIPPED = sorted(FIXTURES.rglob("*.jsonl"))
REQUIRED = {"path", "outcome", "iterations", "tokens", "cost", "duration", "model", "errors"}


@pytest.fixture(autouse=True)
def own_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv(catalogue.ENV_CATALOGUE, raising=False)
    monkeypatch.setattr(catalogue, "RACY_NS", 0)  # files written a moment ago count as settled


@pytest.fixture
def traces(tmp_path) -> Path:
    folder = tmp_path / "traces"
    folder.mkdir()
    for source in SHIPPED:
        shutil.copy(source, folder / f"{source.parent.name}-{source.name}")
    return folder


def run_json(capsys, *argv) -> list[dict]:
    assert main(["runs", *argv, "--json"]) == 0
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def test_json_has_a_line_per_run_with_the_keys_the_issue_names(traces, capsys):
    rows = run_json(capsys, str(traces))
    assert len(rows) == len(SHIPPED)
    for row in rows:
        assert row.keys() >= REQUIRED
    rose = next(row for row in rows if row["path"].endswith("fixtures-rose_pricing.jsonl"))
    assert (rose["outcome"], rose["iterations"], rose["model"], rose["errors"]) == ("finished", 3, "scripted", 0)
    assert rose["tokens"] == rose["prompt_tokens"] + rose["completion_tokens"] > 0 and rose["cost"] > 0


def test_where_sort_and_by(traces, capsys):
    errors = run_json(capsys, str(traces), "--where", 'outcome == "error" or kind == "tool_error"', "--sort=-cost")
    assert [row["name"] for row in errors] == [
        "tool-error-handled",
        "four-loops-pydantic-ai",  # the four-loops lookup that fails: pydantic-ai's ModelRetry
        "four-loops-loopscope",  # and loopscope's ToolError
        "four-loops-openai-agents",  # and the Agents SDK's caught exception
        "parallel-tools",
        "tool-error-unhandled",
        "parse-error-off",
        "langchain-retry-loopscope",
        "langchain-retry-jitter",  # recorded from LangChain: its scripted chat model has no price, so last
        "langchain-retry-steady",
    ]
    priced = [row["cost"] for row in errors if row["cost"] is not None]
    assert priced == sorted(priced, reverse=True) and [row["cost"] for row in errors][len(priced) :] == [None, None]
    tools = run_json(capsys, str(traces), "--by", "tool")
    assert {"tool", "calls", "errors", "p50", "p95"} <= tools[0].keys()
    assert [tool["tool"] for tool in tools][:1] == ["Search"]
    models = run_json(capsys, str(traces), "--where", 'model == "scripted"', "--by", "model")
    assert [(m["model"], m["fallbacks"]) for m in models] == [("scripted", 0)]


def test_the_printed_table_and_its_summary(traces, capsys):
    assert main(["runs", str(traces)]) == 0
    out, err = capsys.readouterr()
    lines = out.splitlines()
    assert lines[0].split()[:4] == ["path", "name", "outcome", "iter"]
    assert len(lines) == 1 + len(SHIPPED)
    assert any(line.startswith("fixtures-iteration_limit.jsonl") and "iteration_limit" in line for line in lines)
    assert err.strip() == f"{len(SHIPPED)} run(s) · 0 from the catalogue, {len(SHIPPED)} read"
    assert main(["runs", str(traces), "--lang", "zh"]) == 0
    assert capsys.readouterr().out.splitlines()[0].split()[:3] == ["路径", "名称", "结果"]


def test_the_current_folder_by_default(traces, capsys, monkeypatch):
    monkeypatch.chdir(traces)
    assert len(run_json(capsys)) == len(SHIPPED)


def test_hostile_text_in_a_trace_is_printed_literally(tmp_path, capsys):
    lines = (FIXTURES / "rose_pricing.jsonl").read_text("utf-8").splitlines(keepends=True)
    header = json.loads(lines[0]) | {"scenario": "\x1b[31mred\x1b]0;title\x07[bold]x[/bold]"}
    (tmp_path / "odd\x1b[2J.jsonl").write_text(json.dumps(header) + "\n" + "".join(lines[1:]), "utf-8")
    assert main(["runs", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\x07" not in out and "[bold]x[/bold]" in out
    assert main(["runs", str(tmp_path), "--json"]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\x07" not in out  # escaped in the JSON text, the same JSON values
    row = json.loads(out)
    assert row["scenario"] == header["scenario"] and row["path"].endswith("odd\x1b[2J.jsonl")
    assert row["name"] == "␛[31mred␛]0;title\\x07[bold]x[/bold]"  # the name column, as shown


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--where", "cots > 1"], "--where 'cots > 1': no run or event field is called 'cots'"),
        (["--where", 'outcome == "failed"'], "'failed' is not an outcome"),
        (["--sort", "speed"], "--sort 'speed': not a run field"),
        (["--lang", "fr"], "unknown language 'fr'"),
    ],
)
def test_what_the_user_got_wrong_is_one_line_and_nothing_is_read(traces, capsys, argv, said):
    assert main(["runs", str(traces), *argv]) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.strip().splitlines()) == 1 and said in err
    assert not default_location().exists()


def test_a_path_that_is_not_there_is_said_and_the_rest_listed(traces, tmp_path, capsys):
    rows = run_json(capsys, str(traces), str(tmp_path / "missing"))
    assert len(rows) == len(SHIPPED)
    assert main(["runs", str(tmp_path / "missing")]) == 0
    assert "missing: No such file or directory" in capsys.readouterr().err


def test_export_otlp_sends_the_selected_runs(traces, capsys):
    with OTLPReceiver() as receiver:
        code = main(["runs", str(traces), "--where", 'outcome == "error"', "--export-otlp", receiver.url])
    assert code == 0
    roots = [span for span in receiver.spans if not span.parent_id]
    assert len(roots) == 2 and len({span.trace_id for span in receiver.spans}) == 2
    assert f"sent {len(receiver.spans)} spans of 2 run(s) to {receiver.url}" in capsys.readouterr().out


def test_export_otlp_to_a_collector_that_refuses_is_one_line(traces, capsys):
    with OTLPReceiver(refuse_with=503) as receiver:
        code = main(["runs", str(traces), "--export-otlp", receiver.url])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 1 and len(err) == 1 and "HTTP 503" in err[0] and "0 run(s) were sent before it" in err[0]


def test_forks_adds_the_forks_folder(traces, tmp_path, capsys, monkeypatch):
    forks = tmp_path / "forks"
    forks.mkdir()
    lines = (FIXTURES / "rose_pricing.jsonl").read_text("utf-8").splitlines(keepends=True)
    header = json.loads(lines[0]) | {"parent": str(FIXTURES / "rose_pricing.jsonl"), "fork_at": 5}
    (forks / "rose.fork-5.jsonl").write_text(json.dumps(header) + "\n" + "".join(lines[1:]), "utf-8")
    monkeypatch.setenv("LOOPSCOPE_FORKS", str(forks))
    plain = run_json(capsys, str(traces))
    with_forks = run_json(capsys, str(traces), "--forks")
    assert len(with_forks) == len(plain) + 1
    assert [row["parent"] for row in with_forks if row["parent"]] == [str(FIXTURES / "rose_pricing.jsonl")]


def test_imports_reads_other_tools_exports(tmp_path, capsys):
    from tests.helpers.foreign_traces import write_langfuse, write_otlp

    write_otlp(tmp_path / "collector.jsonl")
    write_langfuse(tmp_path / "langfuse.json")
    assert run_json(capsys, str(tmp_path)) == []
    rows = run_json(capsys, str(tmp_path), "--imports")
    assert sorted(Path(row["path"]).name for row in rows) == ["collector.jsonl", "langfuse.json"]
    assert all(row["imported"] and row["outcome"] != "unreadable" for row in rows)
    assert main(["runs", str(tmp_path)]) == 0
    assert "1 other tools' export(s) passed over (--imports reads them)" in capsys.readouterr().err


def test_a_folder_of_exports_is_not_simply_empty_the_summary_says_what_was_not_read(tmp_path, capsys):
    from tests.helpers.foreign_traces import write_langfuse

    for n in range(3):
        write_langfuse(tmp_path / f"export-{n}.json")
    assert main(["runs", str(tmp_path)]) == 0
    err = capsys.readouterr().err
    assert "0 run(s)" in err and "3 .json file(s) not read (--imports reads other tools' exports)" in err
    assert main(["runs", str(tmp_path), "--imports"]) == 0
    assert ".json file(s) not read" not in capsys.readouterr().err


def test_where_imported_finds_the_traces_loopscope_import_wrote_and_lists_them_without_imports(tmp_path, capsys):
    from tests.helpers.foreign_traces import write_otlp

    runs = tmp_path / "runs"
    runs.mkdir()
    shutil.copy(FIXTURES / "rose_pricing.jsonl", runs / "rose.jsonl")
    assert main(["import", str(write_otlp(tmp_path / "spans.json")), "-o", str(runs / "imported.jsonl")]) == 0
    capsys.readouterr()
    listed = run_json(capsys, str(runs))  # an imported trace is a loopscope trace: no --imports needed
    assert sorted(Path(row["path"]).name for row in listed) == ["imported.jsonl", "rose.jsonl"]
    kept = run_json(capsys, str(runs), "--where", "imported")
    assert [Path(row["path"]).name for row in kept] == ["imported.jsonl"]
    assert kept[0]["imported"].startswith("written by loopscope import from spans.json")
    assert [Path(row["path"]).name for row in run_json(capsys, str(runs), "--where", "not imported")] == ["rose.jsonl"]
