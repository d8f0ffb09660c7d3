"""Hostile settings and flags: one line, exit 2, no traceback, refused before anything runs."""

from __future__ import annotations

import pytest

from tests.helpers.paths import FIXTURES, ROSE
from tracer.cli import main

EVERY_COMMAND = [
    ["run", "rose-pricing"],
    ["record", "rose-pricing", "-o", "{tmp}/r.jsonl"],
    ["tutorial", "list"],
    ["verify", str(ROSE)],
    ["models"],
    ["fork", str(ROSE), "--at", "2", "--reply", "x", "-o", "{tmp}/f.jsonl"],
    ["diff", str(ROSE), str(FIXTURES / "invalid_tool.jsonl")],
    ["export", str(ROSE)],
    ["debug", str(ROSE), "--print"],
]


@pytest.mark.parametrize("argv", EVERY_COMMAND, ids=lambda argv: argv[0])
def test_a_bad_loopscope_redact_pattern_is_one_line_in_every_command(argv, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("LOOPSCOPE_REDACT", "(")
    assert main([word.replace("{tmp}", str(tmp_path)) for word in argv]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "LOOPSCOPE_REDACT" in err and "'('" in err
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    "flag, value",
    [
        ("--timeout", "inf"),
        ("--timeout", "nan"),
        ("--timeout", "-1"),
        ("--max-qps", "1e-300"),
        ("--max-qps", "inf"),
        ("--max-retries", "1000000"),
        ("--breaker-cool-down", "inf"),
    ],
)
def test_endless_timeouts_and_rates_are_refused_at_parse_time(flag, value, capsys):
    with pytest.raises(SystemExit) as leaving:
        main(["run", "rose-pricing", "--model", "scripted", flag, value])
    assert leaving.value.code == 2
    assert f"{flag} must be between" in capsys.readouterr().err
