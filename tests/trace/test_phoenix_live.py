"""A real Arize Phoenix on loopback: two fixtures exported to it over OTLP come back with `import --phoenix` unchanged."""

from __future__ import annotations

import importlib.util
import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.helpers.paths import FIXTURES
from tracer.cli import main
from tracer.trace.reader import TraceFile, load_trace
from tracer.trace.transitions import transitions

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        importlib.util.find_spec("phoenix") is None, reason="needs arize-phoenix (uv sync installs the dev group)"
    ),
]
STARTUP = 120.0  # seconds for Phoenix to migrate its database and listen (about 10 s on a quiet machine)
INGEST = 30.0  # seconds for the exported spans to be queryable (Phoenix writes them in batches)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def get(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=10) as response:
        return json.loads(response.read(64 << 20))


@pytest.fixture(scope="module")
def phoenix(tmp_path_factory) -> Iterator[str]:
    port, home = free_port(), tmp_path_factory.mktemp("phoenix")
    env = {
        **os.environ,
        "PHOENIX_WORKING_DIR": str(home),
        "PHOENIX_HOST": "127.0.0.1",
        "PHOENIX_PORT": str(port),
        "PHOENIX_GRPC_PORT": str(free_port()),
        "PHOENIX_TELEMETRY_ENABLED": "false",
    }
    env.pop("PHOENIX_API_KEY", None)
    log = (home / "serve.log").open("wb")
    server = subprocess.Popen(
        [sys.executable, "-m", "phoenix.server.main", "serve"], env=env, stdout=log, stderr=subprocess.STDOUT
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + STARTUP
        while True:
            try:
                get(f"{url}/v1/projects")
                break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    pytest.fail(f"Phoenix did not start: {(home / 'serve.log').read_text()[-2000:]}")
                time.sleep(0.5)
        yield url
    finally:
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait(timeout=10)
        log.close()


@pytest.fixture(scope="module")
def exported(phoenix) -> list[dict[str, Any]]:
    """The two fixtures sent with `loopscope export --otlp`, and Phoenix's spans once it holds them all."""
    rose, parallel = FIXTURES / "rose_pricing.jsonl", FIXTURES / "parallel_tools.jsonl"
    assert main(["export", "--otlp", f"{phoenix}/v1/traces", str(rose), str(parallel)]) == 0
    deadline = time.monotonic() + INGEST
    while True:
        spans = get(f"{phoenix}/v1/projects/default/spans?limit=1000")["data"]
        if len(spans) >= 18 or time.monotonic() > deadline:
            return spans
        time.sleep(0.5)


def by_trace(spans: list[dict[str, Any]], root_name: str) -> list[dict[str, Any]]:
    roots = {s["context"]["trace_id"] for s in spans if s["parent_id"] is None and s["name"] == root_name}
    return [s for s in spans if s["context"]["trace_id"] in roots]


def test_the_span_tree_phoenix_holds(exported):
    assert len(exported) == 18
    parallel = [s for s in exported if s["context"]["trace_id"] == _trace_of_scenario(exported, "parallel-tools")]
    (root,) = [s for s in parallel if s["parent_id"] is None]
    assert root["span_kind"] == "AGENT"
    tools = [s for s in parallel if s["span_kind"] == "TOOL"]
    assert len(tools) == 3 and len({t["parent_id"] for t in tools}) == 1  # the parallel calls are siblings
    cities = sorted(t["attributes"]["input.value"] for t in tools)
    assert cities == ["Beijing", "Guangzhou", "Shanghai"]  # each with its own input
    ids = {s["context"]["span_id"]: s for s in parallel}
    for span in parallel:
        if span is not root:
            assert span["parent_id"] in ids  # no orphan: every parent is in the trace
    (step,) = [s for s in parallel if s["context"]["span_id"] == tools[0]["parent_id"]]
    assert step["name"] == "_take_next_step" and step["parent_id"] == root["context"]["span_id"]


def _trace_of_scenario(spans: list[dict[str, Any]], scenario: str) -> str:
    (root,) = [s for s in spans if s["parent_id"] is None and s["attributes"].get("loopscope.scenario") == scenario]
    return str(root["context"]["trace_id"])


def test_both_fixtures_come_back_with_the_same_transitions(phoenix, exported, tmp_path, capsys):
    assert main(["import", "--phoenix", phoenix, "-o", str(tmp_path / "pulled")]) == 0
    pulled: dict[str, Path] = {}
    for path in (tmp_path / "pulled").glob("*.jsonl"):
        with TraceFile(path) as trace:
            pulled[str((trace.header.model_extra or {})["imported_trace_id"])] = path
    for fixture, scenario in (("rose_pricing.jsonl", "rose-pricing"), ("parallel_tools.jsonl", "parallel-tools")):
        imported = pulled[_trace_of_scenario(exported, scenario)]
        assert transitions(load_trace(FIXTURES / fixture)[1]) == transitions(load_trace(imported)[1])
        capsys.readouterr()
        main(["diff", str(FIXTURES / fixture), str(imported)])
        assert "The runs take the same transitions" in capsys.readouterr().out


def post(url: str, body: dict[str, Any]) -> Any:
    request = urllib.request.Request(
        url, json.dumps(body).encode(), {"Content-Type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read(1 << 20))


def test_an_annotation_phoenix_keeps_on_a_tool_span_is_that_calls_score(phoenix, exported, tmp_path):
    parallel = _trace_of_scenario(exported, "parallel-tools")
    (shanghai,) = [
        s
        for s in exported
        if s["context"]["trace_id"] == parallel
        and s["span_kind"] == "TOOL"
        and s["attributes"]["input.value"] == "Shanghai"
    ]
    annotation = {
        "span_id": shanghai["context"]["span_id"],
        "name": "Right city",
        "annotator_kind": "HUMAN",
        "result": {"label": "yes", "score": 1, "explanation": "the asked city"},
    }
    post(f"{phoenix}/v1/span_annotations?sync=true", {"data": [annotation]})
    assert main(["import", "--phoenix", phoenix, "--trace-id", parallel, "-o", str(tmp_path / "pulled")]) == 0
    (path,) = (tmp_path / "pulled").glob("*.jsonl")
    with TraceFile(path) as trace:
        (score,) = [s for s in trace.scores if s.name == "right_city"]
        assert (score.value, score.comment, score.source) == (1.0, "the asked city", "phoenix")
        assert score.event is not None, "a tool span's annotation is that call's, not the run's"
        event = trace[score.event]
        assert (event.kind, event.tool_call_id) == ("tool_end", "call_sh")
