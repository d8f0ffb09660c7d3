"""The issue's "done when": the shipped fixtures copied to 2,000 traces; runs --json, --where and --by tool
work on them, and the catalogue survives traces deleted, truncated and corrupted between calls, and its own damage."""

from __future__ import annotations

import json
import re
import shutil
from collections import Counter
from pathlib import Path

import pytest

from tests.helpers.paths import FIXTURES, holding_kind
from tracer.cli import main
from tracer.runs import catalogue
from tracer.runs.catalogue import default_location

SHIPPED = sorted(FIXTURES.rglob("*.jsonl"))
COPIES = 2_000

pytestmark = pytest.mark.slow  # 2,000 traces read twice and more


@pytest.fixture(autouse=True)
def own_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv(catalogue.ENV_CATALOGUE, raising=False)
    monkeypatch.setattr(catalogue, "RACY_NS", 0)


@pytest.fixture
def many(tmp_path) -> Path:
    folder = tmp_path / "many"
    for number in range(COPIES):
        source = SHIPPED[number % len(SHIPPED)]
        target = folder / f"batch{number // 100:02d}" / f"{number:04d}-{source.parent.name}-{source.name}"
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, target)
    return folder


def json_rows(capsys, *argv) -> list[dict]:
    assert main(["runs", *argv, "--json"]) == 0
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def counts_said(capsys, folder) -> tuple[int, int]:
    """(rows from the catalogue, files read) as the printed table's summary line says them."""
    assert main(["runs", str(folder), "--print"]) == 0
    said = re.search(r"([\d,]+) from the catalogue, ([\d,]+) read", capsys.readouterr().err)
    assert said, "no summary line"
    return int(said[1].replace(",", "")), int(said[2].replace(",", ""))


def source_of(path: str) -> str:
    return path.rsplit("/", 1)[-1].split("-", 1)[1]


def test_two_thousand_traces(many, capsys):
    rows = json_rows(capsys, str(many))
    assert len(rows) == COPIES
    per_source = {source_of(row["path"]): row["outcome"] for row in rows}
    assert per_source["fixtures-iteration_limit.jsonl"] == "iteration_limit"
    assert per_source["fixtures-tool_error_unhandled.jsonl"] == "error"
    copies = Counter(source_of(row["path"]) for row in rows)

    with_errors = json_rows(capsys, str(many), "--where", 'kind == "tool_error"')
    erring = {f"{path.parent.name}-{path.name}" for path in holding_kind(SHIPPED, "tool_error")}
    assert "fixtures-tool_error_unhandled.jsonl" in erring and "fixtures-rose_pricing.jsonl" not in erring
    assert len(with_errors) == sum(copies[name] for name in erring)
    assert {source_of(row["path"]) for row in with_errors} == erring

    tools = {tool["tool"]: tool for tool in json_rows(capsys, str(many), "--by", "tool")}
    searches = {
        f"{Path(row['path']).parent.name}-{Path(row['path']).name}": sum(c["tool"] == "Search" for c in row["tools"])
        for row in json_rows(capsys, str(FIXTURES))
    }
    assert tools["Search"]["calls"] == sum(copies[name] * searches[name] for name in copies)
    one_each = {tool["tool"]: tool for tool in json_rows(capsys, str(FIXTURES), "--by", "tool")}
    assert tools["SupplierQuote"]["p95"] == one_each["SupplierQuote"]["p95"]


def test_the_catalogue_survives_what_happens_to_the_traces_and_to_itself(many, capsys, tmp_path):
    assert counts_said(capsys, many) == (0, COPIES)
    assert counts_said(capsys, many) == (COPIES, 0)
    files = sorted(many.rglob("*.jsonl"))
    for path in files[:10]:
        path.unlink()
    for path in files[10:20]:
        data = path.read_bytes()
        path.write_bytes(data[: len(data) // 2 + 7])  # cut inside a line
    for path in files[20:30]:
        path.write_bytes(b'{"format": "loopscope-trace", "schema_version": 1}\n{"seq": 0, "kind": garbage\n')
    assert counts_said(capsys, many) == (COPIES - 30, 20)
    rows = {row["path"]: row for row in json_rows(capsys, str(many))}
    assert len(rows) == COPIES - 10
    assert all(rows[str(path)]["outcome"] == "truncated" for path in files[10:20])
    assert all(rows[str(path)]["outcome"] == "unreadable" for path in files[20:30])
    assert all(str(path) not in rows for path in files[:10])

    default_location().write_bytes(default_location().read_bytes()[:4096] + b"\x00" * 8192)  # damaged
    assert main(["runs", str(many), "--json"]) == 0
    out, err = capsys.readouterr()
    assert {json.loads(line)["path"]: json.loads(line) for line in out.splitlines()} == rows
    assert "rebuilt" in err
    assert counts_said(capsys, many) == (COPIES - 10, 0)

    default_location().unlink()  # deleting it loses nothing
    assert {row["path"]: row for row in json_rows(capsys, str(many))} == rows
