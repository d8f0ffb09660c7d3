"""Huge fields in a recording (a 50 MB tool result, thousands of differing lines) cost seconds, not minutes."""

from __future__ import annotations

import json

from tests.helpers.trace_factory import record, with_search_result
from tracer.cli import main
from tracer.trace.normalise import short_diff
from tutorials.rose_pricing import REPLIES


def test_a_diff_of_huge_texts_that_differ_everywhere_is_short_and_linear():
    recorded = "\n".join(f"line {n}" for n in range(300_000))
    rerun = "\n".join(f"line {n + 1}" for n in range(300_000))  # difflib would need ~10^11 steps
    diff = short_diff(recorded, rerun).splitlines()
    assert diff == [
        "--- recorded",
        "+++ re-run",
        "@@ the texts part at line 1 (too long to diff) @@",
        "-line 0",
        "+line 1",
    ]
    one_line = short_diff("x" * 50_000_000 + "a", "x" * 50_000_000 + "b")
    assert len(one_line) < 1_000 and "(50,000,002 characters)" in one_line


def test_small_diffs_keep_their_context_and_true_line_numbers():
    before = "\n".join("abcdefg")
    assert short_diff(before, before.replace("d", "X")).splitlines()[2:] == [
        "@@ -2,5 +2,5 @@",
        " b",
        " c",
        "-d",
        "+X",
        " e",
        " f",
    ]


def test_run_fixture_whose_huge_tool_result_no_longer_matches_leaves_quickly(tmp_path, capsys):
    big = "\n".join(f"shop {n}: roses 25 dollars" for n in range(40_000))  # ~1 MB, 40k lines
    path = record(tmp_path / "big.jsonl", REPLIES, build_tools=with_search_result(big), run_id="rose-pricing")
    lines = path.read_text(encoding="utf-8").splitlines()
    for number, line in enumerate(lines):
        event = json.loads(line)
        if event.get("kind") == "tool_end" and event["observation"] == big:
            event["observation"] = big.replace("shop", "store")  # every line of the replayed result differs
            lines[number] = json.dumps(event, ensure_ascii=False)
            break
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert main(["run", "rose-pricing", "--fixture", str(path)]) == 1
    out = capsys.readouterr().out
    assert "The run left the recording" in out and "too long to diff" in out
