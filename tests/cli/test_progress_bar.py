"""Progress of long work: a bar on stderr when it is a terminal, nothing at all when it is a pipe or a file."""

from __future__ import annotations

import io
import json
import os
import pty
import select
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers.foreign_traces import otlp_json_document, otlp_spans
from tests.helpers.paths import ROOT
from tracer.cli.progress_bar import progress_bar
from tracer.trace.importers import convert_all, write_conversion


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_pipe_or_a_file_gets_nothing():
    stream = io.StringIO()
    with progress_bar("importing", stream=stream) as report:
        report("reading", 5, 10)
    assert stream.getvalue() == ""


def test_a_terminal_gets_a_bar_that_says_what_is_being_done():
    stream = Terminal()
    with progress_bar("importing", stream=stream) as report:
        report("writing events", 50, 100)
    shown = stream.getvalue()
    assert "importing: writing events" in shown and "50/100" in shown


def test_the_importer_reports_how_far_it_read_and_wrote(tmp_path):
    source = tmp_path / "spans.json"
    source.write_text(json.dumps(otlp_json_document(otlp_spans())))
    heard: list[tuple[str, int, int]] = []
    conversion = convert_all(source, lambda *said: heard.append(said)).pick(None)
    write_conversion(conversion, source, tmp_path / "out.jsonl", progress=lambda *said: heard.append(said))
    assert [what for what, _done, _total in heard] == ["reading MB", "reading MB", "writing events"]
    assert heard[-1] == ("writing events", 0, len(conversion.events))


def _in_a_terminal(args: list[str]) -> tuple[int, str]:
    """Run `loopscope ARGS` with stdout and stderr on a pseudo-terminal; (exit code, what it showed)."""
    main, child = pty.openpty()
    process = subprocess.Popen(
        [sys.executable, "-m", "tracer.cli", *args], stdout=child, stderr=child, cwd=ROOT,
        env={**os.environ, "COLUMNS": "100", "TERM": "xterm-256color"},
    )  # fmt: skip
    os.close(child)
    shown = b""
    while True:
        ready, _, _ = select.select([main], [], [], 60)
        if not ready:
            break
        try:
            chunk = os.read(main, 65536)
        except OSError:  # the child closed the terminal
            break
        if not chunk:
            break
        shown += chunk
    os.close(main)
    return process.wait(timeout=60), shown.decode("utf-8", "replace")


@pytest.mark.slow  # two subprocesses
def test_import_in_a_terminal_shows_the_bar_and_in_a_pipe_does_not(tmp_path):
    source = tmp_path / "spans.json"
    source.write_text(json.dumps(otlp_json_document(otlp_spans())))
    code, shown = _in_a_terminal(["import", str(source), "-o", str(tmp_path / "a.jsonl")])
    assert code == 0 and "importing" in shown and "events written to" in shown
    piped = subprocess.run(
        [sys.executable, "-m", "tracer.cli", "import", str(source), "-o", str(tmp_path / "b.jsonl")],
        capture_output=True, text=True, cwd=ROOT, check=True,
    )  # fmt: skip
    assert piped.stderr == "" and "importing" not in piped.stdout
    assert Path(tmp_path / "a.jsonl").read_bytes().count(b"\n") == Path(tmp_path / "b.jsonl").read_bytes().count(b"\n")


def test_one_bar_that_names_the_item_it_is_at():
    stream = Terminal()
    with progress_bar("verifying", stream=stream, stages=False) as report:
        for done, name in enumerate(("a.jsonl", "b.jsonl", "c.jsonl")):
            report(name, done, 3)
    shown = stream.getvalue()
    assert "verifying: c.jsonl" in shown and "2/3" in shown
