"""A trace cut short while it is being read (issue 34): the reader says so in one line; the process is never killed.

Deterministic: each check runs in a child process whose TraceFile truncates its own file just after opening
it (the moment another program's `truncate` or a rotating writer would strike), then the command goes on.
With a memory map this was SIGBUS: exit 135 (-7 from subprocess), no message, the output lost.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import textwrap

import pytest

from tests.helpers.paths import FIXTURES

ROOT = FIXTURES.parent
BIG = FIXTURES / "iteration_limit.jsonl"

CHILD = textwrap.dedent(
    """
    import os, sys
    from tracer.trace import reader

    opened = reader.TraceFile.__init__
    keep = sys.argv[1]

    def cut_after_opening(self, path):
        opened(self, path)
        if keep == "grow":  # a live run appending
            with open(path, "ab") as out:
                out.write(b'{"seq": 999, "kind": "chain_start"}\\n' * 1000)
        else:
            os.truncate(path, int(keep))  # after the lines were found, before any is decoded

    reader.TraceFile.__init__ = cut_after_opening
    from tracer.cli import main
    sys.exit(main(sys.argv[2:]))
    """
)


def run_cut(tmp_path, keep: int | str, *argv: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache"), "PYTHONPATH": str(ROOT)}
    env.pop("LOOPSCOPE_CATALOGUE", None)
    return subprocess.run(
        [sys.executable, "-c", CHILD, str(keep), *argv],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=120,
    )


@pytest.fixture
def trace(tmp_path):
    """The iteration-limit run with one observation grown to 700 kB: a trace bigger than any read window."""
    folder = tmp_path / "traces"
    folder.mkdir()
    path = folder / "long.jsonl"
    lines = BIG.read_text("utf-8").splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if i and json.loads(line)["kind"] == "tool_end")
    event = json.loads(lines[at])
    event["observation"] += " rose" * 140_000
    lines[at] = json.dumps(event, ensure_ascii=False, separators=(",", ":")) + "\n"
    path.write_text("".join(lines), "utf-8")
    return path


def said_cut_short(result: subprocess.CompletedProcess[str], path) -> None:
    assert result.returncode != -signal.SIGBUS, "killed by SIGBUS"
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and str(path) in lines[0] and "changed while it was read" in lines[0]


@pytest.mark.parametrize("keep", [0, 100, 5000])
def test_debug_print_on_a_trace_cut_while_read_says_so_in_one_line(tmp_path, trace, keep):
    result = run_cut(tmp_path, keep, "debug", str(trace), "--print")
    said_cut_short(result, trace)
    assert result.returncode == 2


def test_export_html_on_a_trace_cut_while_read_says_so_in_one_line(tmp_path, trace):
    page = tmp_path / "page.html"
    result = run_cut(tmp_path, 100, "export", "--html", str(page), str(trace))
    said_cut_short(result, trace)
    assert result.returncode == 2


def test_runs_lists_a_trace_cut_while_read_as_unreadable_and_the_others_in_full(tmp_path, trace):
    shutil.copy(FIXTURES / "rose_pricing.jsonl", trace.parent / "rose.jsonl")
    result = run_cut(tmp_path, 100, "runs", str(trace.parent), "--json")
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    rows = {os.path.basename(row["path"]): row for row in map(json.loads, result.stdout.splitlines())}
    assert rows["long.jsonl"]["outcome"] == "unreadable"
    assert "changed while it was read" in rows["long.jsonl"]["detail"]
    assert rows["rose.jsonl"]["outcome"] == "finished"  # nothing else lost


def test_a_trace_that_grows_while_read_is_still_read_whole(tmp_path, trace):
    # A live run appends while someone reads: only shrinking is a problem.
    result = run_cut(tmp_path, "grow", "debug", str(trace), "--print")
    assert result.returncode == 0, result.stderr
    assert "Finished chain." in result.stdout
