"""No output option writes over the trace a command reads, nor over another trace unless --force: each is
refused in one line that names the file, with the file left byte for byte as it was."""

from __future__ import annotations

import shutil

import pytest

from tests.helpers.cli_run import loopscope
from tests.helpers.paths import FIXTURES, ROSE

OTHER = FIXTURES / "parallel_tools.jsonl"

# {t}: the trace the command reads; {o}: another trace that is not read (an earlier recording).
OVER_THE_INPUT = {
    "export --html": ["export", "--html", "{t}", "{t}"],
    "export otlp-json": ["export", "--format", "otlp-json", "-o", "{t}", "{t}"],
    "export --mermaid": ["export", "--mermaid", "-o", "{t}", "{t}"],
    "prompt": ["prompt", "{t}", "--at", "1", "-o", "{t}"],
    "diff --html": ["diff", "{t}", "{o}", "--html", "{t}"],
    "runs --html": ["runs", "{dir}", "--html", "{t}", "--catalogue", "{dir}/c.db"],
    "fork -o": ["fork", "{t}", "--at", "3", "--reply", "Final Answer: 7", "-o", "{t}"],
    "import -o": ["import", "{t}", "-o", "{t}"],
}
OVER_ANOTHER_TRACE = {
    "export --html": ["export", "--html", "{o}", "{t}"],
    "export otlp-json": ["export", "--format", "otlp-json", "-o", "{o}", "{t}"],
    "export --mermaid": ["export", "--mermaid", "-o", "{o}", "{t}"],
    "prompt": ["prompt", "{t}", "--at", "1", "-o", "{o}"],
    "diff --html": ["diff", "{t}", "{t}", "--html", "{o}"],
    "runs --html": ["runs", "{dir}/t.jsonl", "--html", "{o}", "--catalogue", "{dir}/c.db"],
}


@pytest.fixture
def folder(tmp_path):
    shutil.copy(ROSE, tmp_path / "t.jsonl")
    shutil.copy(OTHER, tmp_path / "o.jsonl")
    return tmp_path


def argv(words, folder):
    named = {"t": folder / "t.jsonl", "o": folder / "o.jsonl", "dir": folder}
    return [word.format(**named) for word in words]


def assert_refused(code, out, err, named):
    assert (code, out) == (2, ""), (code, out, err)
    assert err.count("\n") == 1 and err.startswith("loopscope: ") and str(named) in err, err
    assert "Traceback" not in err


# fork and import write a trace, so they have no --force: their input is refused all the same.
INPUT_CASES = [
    pytest.param(words, force, id=name + (" --force" if force else ""))
    for name, words in OVER_THE_INPUT.items()
    for force in ([False] if name.split()[0] in ("fork", "import") else [False, True])
]


@pytest.mark.parametrize("words, force", INPUT_CASES)
def test_an_output_naming_the_input_is_refused_even_with_force(folder, capsys, words, force):
    code, out, err = loopscope(capsys, *argv(words, folder), *(["--force"] if force else []))
    assert_refused(code, out, err, folder / "t.jsonl")
    assert "reads" in err and "another file" in err
    assert (folder / "t.jsonl").read_bytes() == ROSE.read_bytes()


@pytest.mark.parametrize("words", OVER_ANOTHER_TRACE.values(), ids=OVER_ANOTHER_TRACE.keys())
def test_an_output_naming_another_trace_is_refused_unless_forced(folder, capsys, words):
    code, out, err = loopscope(capsys, *argv(words, folder))
    assert_refused(code, out, err, folder / "o.jsonl")
    assert "--force" in err
    assert (folder / "o.jsonl").read_bytes() == OTHER.read_bytes()
    code, _out, err = loopscope(capsys, *argv(words, folder), "--force")
    assert code in (0, 1) and "Traceback" not in err, err  # diff says 1 for runs that differ
    assert (folder / "o.jsonl").read_bytes() != OTHER.read_bytes()


def test_an_output_over_a_file_that_is_no_trace_is_written_as_before(folder, capsys):
    page = folder / "run.html"
    page.write_text("an older page\n", encoding="utf-8")
    code, _out, err = loopscope(capsys, "export", "--html", page, folder / "t.jsonl")
    assert code == 0 and page.read_text(encoding="utf-8").startswith("<!DOCTYPE html>"), err


def test_a_link_to_the_input_is_the_input(folder, capsys):
    (folder / "link.jsonl").symlink_to(folder / "t.jsonl")
    code, out, err = loopscope(
        capsys, "prompt", folder / "t.jsonl", "--at", "1", "-o", folder / "link.jsonl", "--force"
    )
    assert_refused(code, out, err, folder / "link.jsonl")
    assert (folder / "t.jsonl").read_bytes() == ROSE.read_bytes()
