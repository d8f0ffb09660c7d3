"""`loopscope verify DIR --html OUT.html`: one line per run, and one page linking each divergence's two values."""

from __future__ import annotations

import shutil

from tests.helpers.cli_run import loopscope
from tests.helpers.paths import ROSE


def test_verify_of_a_folder_reports_each_run_and_the_page_shows_both_values(capsys, tmp_path):
    runs = tmp_path / "runs"
    runs.mkdir()
    shutil.copyfile(ROSE, runs / "same.jsonl")
    # The calculator really runs on replay, so a recording that says it answered otherwise diverges there.
    text = ROSE.read_text(encoding="utf-8").replace('"observation":"Answer: 26.25"', '"observation":"Answer: 27.5"')
    (runs / "changed.jsonl").write_text(text, encoding="utf-8")
    code, out, _ = loopscope(capsys, "verify", str(runs), "--html", str(tmp_path / "v.html"))
    assert code == 1
    lines = out.splitlines()
    assert any(line.startswith("OK") and "same.jsonl" in line for line in lines)
    assert any(line.startswith("DIVERGED") and "changed.jsonl" in line for line in lines)
    assert "2 traces: 1 ok, 1 diverged" in out
    page = (tmp_path / "v.html").read_text(encoding="utf-8")
    assert 'href="#run-0"' in page and '<section id="run-0">' in page
    assert "<pre>Answer: 27.5</pre>" in page and "<pre>Answer: 26.25</pre>" in page


def test_the_page_never_replaces_a_trace(capsys, tmp_path):
    shutil.copyfile(ROSE, tmp_path / "r.jsonl")
    code, _, err = loopscope(capsys, "verify", str(tmp_path / "r.jsonl"), "--html", str(tmp_path / "r.jsonl"))
    assert code == 2 and "r.jsonl" in err
