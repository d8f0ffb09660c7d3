"""Every shipped fixture records today's code (events and lines), and `loopscope fixtures` both finds and
mends a stale one."""

from __future__ import annotations

import json

from tests.helpers.cli_run import loopscope
from tests.helpers.paths import ROSE
from tracer.trace.reader import load_trace


def test_every_shipped_fixture_is_current(capsys):
    code, out, err = loopscope(capsys, "fixtures")
    stale = [line for line in out.splitlines() if not line.startswith(("current", "LANGCHAIN"))]
    assert code == 0 and not stale, (
        "fixtures record code that has moved or changed; re-record them with "
        "`uv run loopscope fixtures --rerecord` and commit the result:\n" + out + err
    )
    assert out.count("current") >= 15


def _with_moved_line(source, target):
    """The rose trace with its first agent_action pointing two lines below where the code emits it."""
    lines = source.read_text(encoding="utf-8").splitlines()
    for number, line in enumerate(lines[1:], start=1):
        event = json.loads(line)
        if event["kind"] == "agent_action":
            event["source"]["line"] += 2
            lines[number] = json.dumps(event, ensure_ascii=False, separators=(",", ":"))
            break
    target.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return event["source"]


def test_a_moved_line_is_found_and_rewritten_from_the_runs_own_replay(tmp_path, capsys):
    stale = tmp_path / "rose.jsonl"
    moved = _with_moved_line(ROSE, stale)

    code, out, err = loopscope(capsys, "verify", str(stale))
    assert code == 0 and "1 recorded line(s) moved since" in out  # behaviour is unchanged: verify passes

    code, out, err = loopscope(capsys, "fixtures", str(stale))
    assert code == 1
    assert f"MOVED      {stale}" in out and f"{moved['file']}:{moved['line']} is now" in out
    assert "loopscope fixtures --rerecord" in out

    code, out, err = loopscope(capsys, "fixtures", "--rerecord", str(stale))
    assert code == 0 and out.startswith(f"rewritten  {stale}"), out + err
    header, events, _ = load_trace(stale)
    assert header.scenario == "rose-pricing" and "executor_hashes" not in header.model_fields_set
    assert [e.model_dump() for e in events] == [e.model_dump() for e in load_trace(ROSE)[1]]
    assert loopscope(capsys, "fixtures", str(stale))[0] == 0


def test_a_changed_run_is_not_rewritten_from_itself(tmp_path, capsys):
    changed = tmp_path / "rose.jsonl"
    text = ROSE.read_text(encoding="utf-8").replace("26.25", "26.5")
    changed.write_text(text, encoding="utf-8")
    code, _out, err = loopscope(capsys, "fixtures", "--rerecord", str(changed))
    assert code == 2 and "cannot be rewritten from its own re-run" in err
    assert changed.read_text(encoding="utf-8") == text  # nothing lost


def test_a_langchain_fixture_is_recorded_again_compared_and_rewritten(tmp_path, capsys, monkeypatch):
    from tracer.cli import fixtures as fixtures_command
    from tutorials import get_scenario

    scenario = get_scenario("langchain-retry-steady")
    copy = tmp_path / "retry_steady.jsonl"
    lines = scenario.fixture.read_text(encoding="utf-8").splitlines()
    tampered = [json.loads(line) for line in lines]
    retry = next(event for event in tampered if event.get("kind") == "retry")
    retry["delay"] = 99.0  # as if LangChain had waited otherwise
    copy.write_text("\n".join(json.dumps(e, ensure_ascii=False) for e in tampered) + "\n", encoding="utf-8")
    monkeypatch.setattr(fixtures_command, "scenario_fixtures", lambda: {copy.resolve(): scenario})

    code, out, err = loopscope(capsys, "fixtures", str(copy))
    assert code == 1 and out.startswith(f"CHANGED    {copy}"), out + err
    assert f"event {retry['seq']} (retry) differs in delay" in out and f"loopscope fixtures --rerecord {copy}" in out

    code, out, err = loopscope(capsys, "fixtures", "--rerecord", str(copy))
    assert code == 0 and out.startswith(f"recorded   {copy}"), out + err
    code, out, err = loopscope(capsys, "fixtures", str(copy))
    assert code == 0 and out.startswith(f"current    {copy}  (LangChain's own run"), out + err


def test_a_langchain_trace_no_scenario_records_names_what_to_do(tmp_path, capsys):
    from tutorials import get_scenario

    copy = tmp_path / "someone_elses.jsonl"
    copy.write_bytes(get_scenario("langchain-retry-jitter").fixture.read_bytes())
    code, out, _err = loopscope(capsys, "fixtures", str(copy))
    assert code == 0 and out.startswith(f"LANGCHAIN  {copy}") and "no installed scenario records it" in out
