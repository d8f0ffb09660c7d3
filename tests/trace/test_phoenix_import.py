"""`import --phoenix` against a loopback server answering Phoenix's recorded REST responses (tests/data/phoenix/)."""

from __future__ import annotations

import json
import threading
import urllib.parse
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from tests.helpers.paths import FIXTURES, ROOT
from tracer.cli import main
from tracer.trace.importers import phoenix_client
from tracer.trace.importers.phoenix import otlp_span
from tracer.trace.reader import TraceFile, load_trace
from tracer.trace.transitions import transitions

RECORDED = ROOT / "tests" / "data" / "phoenix"
ROSE_ID, PARALLEL_ID = "0caaa425760b77322213914dca8940b8", "b8df0e7846bc61603412a33141792472"


class Recorded:
    """What the fake Phoenix answers, and what it was asked."""

    def __init__(self) -> None:
        self.spans = json.loads((RECORDED / "spans.json").read_text())["data"]
        self.page = 1000
        self.key: str | None = None
        self.asked: list[tuple[str, dict[str, list[str]], dict[str, str]]] = []
        self.redirect = False
        self.span_annotations: list[dict[str, Any]] = []  # given to spans beside the recorded root's

    def answer(self, path: str, query: dict[str, list[str]], headers: dict[str, str]) -> tuple[int, Any]:
        self.asked.append((path, query, headers))
        if self.redirect:
            return 302, None
        if self.key and headers.get("Authorization") != f"Bearer {self.key}":
            return 401, {"detail": "Invalid token"}
        if path == "/v1/projects/default/spans":
            start = int(query.get("cursor", ["0"])[0])
            chosen = [
                s for s in self.spans if s["context"]["trace_id"] in query.get("trace_id", [s["context"]["trace_id"]])
            ]
            page = chosen[start : start + self.page]
            more = start + self.page < len(chosen)
            return 200, {"data": page, "next_cursor": str(start + self.page) if more else None}
        if path.startswith("/v1/projects/default/") and path.endswith("_annotations"):
            body = json.loads((RECORDED / path.rsplit("/", 1)[1]).with_suffix(".json").read_text())
            if path.endswith("/span_annotations"):
                asked = set(query.get("span_ids", []))
                body["data"] = [a for a in body["data"] + self.span_annotations if a["span_id"] in asked]
            return 200, body
        return 404, {"detail": "Project not found"}


@pytest.fixture
def phoenix() -> Iterator[tuple[str, Recorded]]:
    recorded = Recorded()

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            parts = urllib.parse.urlsplit(self.path)
            status, body = recorded.answer(parts.path, urllib.parse.parse_qs(parts.query), dict(self.headers))
            self.send_response(status)
            if status == 302:
                self.send_header("Location", "http://example.invalid/steal")
            self.send_header("Content-Type", "application/json")
            self.end_headers()
            if body is not None:
                self.wfile.write(json.dumps(body).encode())

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", recorded
    finally:
        server.shutdown()
        server.server_close()


def pulled(folder: Path) -> dict[str, Path]:
    """trace id -> the trace file the import wrote for it."""
    found = {}
    for path in folder.glob("*.jsonl"):
        with TraceFile(path) as trace:
            found[str((trace.header.model_extra or {})["imported_trace_id"])] = path
    return found


def same_transitions(original: Path, imported: Path) -> bool:
    return transitions(load_trace(original)[1]) == transitions(load_trace(imported)[1])


def test_each_trace_comes_back_with_the_transitions_it_was_exported_with(phoenix, tmp_path, monkeypatch):
    url, recorded = phoenix
    recorded.page = 7  # 18 spans in three pages: the cursor is followed
    monkeypatch.delenv("PHOENIX_API_KEY", raising=False)
    assert main(["import", "--phoenix", url, "-o", str(tmp_path / "out")]) == 0
    traces = pulled(tmp_path / "out")
    assert set(traces) == {ROSE_ID, PARALLEL_ID}
    assert same_transitions(FIXTURES / "rose_pricing.jsonl", traces[ROSE_ID])
    assert same_transitions(FIXTURES / "parallel_tools.jsonl", traces[PARALLEL_ID])
    assert len([a for a in recorded.asked if a[0].endswith("/spans")]) == 3
    assert all("Authorization" not in headers for _p, _q, headers in recorded.asked)


def test_phoenix_annotations_become_scores(phoenix, tmp_path):
    url, _recorded = phoenix
    assert main(["import", "--phoenix", url, "-o", str(tmp_path / "out")]) == 0
    traces = pulled(tmp_path / "out")
    with TraceFile(traces[ROSE_ID]) as rose, TraceFile(traces[PARALLEL_ID]) as parallel:
        assert [(s.name, s.value, s.comment, s.source) for s in rose.scores] == [
            ("helpful", 0.25, "priced the wrong flower", "phoenix")  # "Helpful" made a word
        ]
        assert {(s.name, s.value) for s in parallel.scores} == {("verdict", "correct"), ("helpful", 0.9)}


@pytest.mark.parametrize("exact", [True, False], ids=["loopscope-export", "spans-only"])
def test_an_annotation_on_a_tool_or_model_span_is_that_events_score(phoenix, tmp_path, exact):
    url, recorded = phoenix
    if not exact:  # as any other instrumentation's spans: no loopscope event JSON, read by their attributes
        for span in recorded.spans:
            span["events"] = []
    shanghai, calculate = "795d484d1f679063", "bbeb47cd77187157"  # a parallel tool call; the Calculator's model
    recorded.span_annotations = [
        {"span_id": shanghai, "name": "right city", "result": {"label": "no", "score": None, "explanation": "x"}},
        {"span_id": calculate, "name": "expression", "result": {"label": None, "score": 1, "explanation": None}},
    ]
    assert main(["import", "--phoenix", url, "-o", str(tmp_path / "out")]) == 0
    traces = pulled(tmp_path / "out")
    with TraceFile(traces[PARALLEL_ID]) as parallel:
        by_name = {s.name: s for s in parallel.scores}
        assert by_name["helpful"].event is None  # the root span's annotation is the run's, as before
        tool_end = parallel[by_name["right_city"].event]
        assert (tool_end.kind, by_name["right_city"].value) == ("tool_end", "no")
        assert tool_end.tool_call_id == "call_sh"  # the Shanghai call's end, not a sibling's
    with TraceFile(traces[ROSE_ID]) as rose:
        (expression,) = [s for s in rose.scores if s.name == "expression"]
        assert rose[expression.event].kind == "llm_end" and expression.value == 1.0
        assert [s.event for s in rose.scores if s.name == "helpful"] == [None]
    asked = [q for path, q, _h in recorded.asked if path.endswith("/span_annotations")]
    assert {shanghai, calculate} <= {one for q in asked for one in q["span_ids"]}


def test_one_trace_by_id_and_a_start_time_are_asked_of_the_server(phoenix, tmp_path):
    url, recorded = phoenix
    assert (
        main(["import", "--phoenix", url, "--trace-id", ROSE_ID, "--since", "2026-12-01", "-o", str(tmp_path / "o")])
        == 0
    )
    assert set(pulled(tmp_path / "o")) == {ROSE_ID}
    _path, query, _headers = next(a for a in recorded.asked if a[0].endswith("/spans"))
    assert query["trace_id"] == [ROSE_ID]
    assert query["start_time"] == ["2026-12-01T00:00:00+00:00"]


def test_the_start_of_an_id_picks_its_trace(phoenix, tmp_path):
    url, _recorded = phoenix
    assert main(["import", "--phoenix", url, "--trace-id", "b8df0e", "-o", str(tmp_path / "o")]) == 0
    assert set(pulled(tmp_path / "o")) == {PARALLEL_ID}


def test_a_server_that_asks_for_a_key_gets_phoenix_api_key(phoenix, tmp_path, monkeypatch, capsys):
    url, recorded = phoenix
    recorded.key = "s3cret-key"
    monkeypatch.delenv("PHOENIX_API_KEY", raising=False)
    assert main(["import", "--phoenix", url, "-o", str(tmp_path / "o")]) == 2
    error = capsys.readouterr().err
    assert "asks for an API key" in error and "PHOENIX_API_KEY" in error and error.count("\n") == 1
    monkeypatch.setenv("PHOENIX_API_KEY", "s3cret-key")
    assert main(["import", "--phoenix", url, "-o", str(tmp_path / "o")]) == 0
    assert len(pulled(tmp_path / "o")) == 2


def test_a_redirect_is_refused_so_the_key_goes_nowhere_else(phoenix, tmp_path, monkeypatch, capsys):
    url, recorded = phoenix
    recorded.redirect = True
    monkeypatch.setenv("PHOENIX_API_KEY", "s3cret-key")
    assert main(["import", "--phoenix", url, "-o", str(tmp_path / "o")]) == 2
    error = capsys.readouterr().err
    assert "redirected to http://example.invalid/steal" in error
    assert "s3cret-key" not in error


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--project", "nope"], "has no project 'nope'"),
        (["--since", "yesterday"], "--since 'yesterday'"),
        (["--trace-id", "ffff"], "has no spans trace 'ffff'"),
    ],
)
def test_what_cannot_be_pulled_gets_one_line(phoenix, tmp_path, capsys, args, said):
    url, _recorded = phoenix
    assert main(["import", "--phoenix", url, *args, "-o", str(tmp_path / "o")]) == 2
    error = capsys.readouterr().err
    assert said in error and error.count("\n") == 1


def test_an_answer_larger_than_the_cap_is_not_read(phoenix, tmp_path, monkeypatch, capsys):
    url, _recorded = phoenix
    monkeypatch.setattr(phoenix_client, "MAX_PAGE_BYTES", 10_000)
    assert main(["import", "--phoenix", url, "-o", str(tmp_path / "o")]) == 2
    assert "larger than" in capsys.readouterr().err


def test_not_a_phoenix_address(tmp_path, capsys):
    assert main(["import", "--phoenix", "file:///etc/passwd", "-o", str(tmp_path / "o")]) == 2
    assert "is not an http(s) address" in capsys.readouterr().err


def test_a_phoenix_span_becomes_an_otlp_span_with_its_openinference_kind():
    span = otlp_span(
        {
            "name": "plan",
            "context": {"trace_id": "ab" * 16, "span_id": "cd" * 8},
            "parent_id": "ef" * 8,
            "span_kind": "LLM",
            "start_time": "2026-12-01T00:00:01.5+00:00",
            "end_time": "2026-12-01T00:00:02+00:00",
            "status_code": "ERROR",
            "status_message": "boom",
            "attributes": {"llm": {"input_messages": [{"message": {"role": "user", "content": "hi"}}]}},
            "events": [],
        }
    )
    attributes = {a["key"]: a["value"] for a in span["attributes"]}
    assert attributes["openinference.span.kind"] == {"stringValue": "LLM"}
    assert attributes["llm.input_messages.0.message.content"] == {"stringValue": "hi"}
    assert span["parentSpanId"] == "ef" * 8
    assert int(span["endTimeUnixNano"]) - int(span["startTimeUnixNano"]) == 500_000_000
    assert span["status"] == {"code": 2, "message": "boom"}
