"""`loopscope run rose-pricing` re-executes the real executor against the recording, offline."""

import json

from tests.helpers.cli_run import loopscope
from tracer.trace.reader import load_trace
from tutorials import get_scenario

# Source lines move whenever executor code is edited; the header hashes flag that instead.
VOLATILE = {"t", "run_id", "duration", "source"}


def comparable(event):
    return {k: v for k, v in event.model_dump().items() if k not in VOLATILE}


def test_run_narrates_and_prints_the_ledger(tmp_path, capsys):
    out_path = tmp_path / "rerun.jsonl"
    code, out, err = loopscope(capsys, "run", "rose-pricing", "--trace", out_path)
    assert code == 0, err
    assert "> Entering new AgentExecutor chain..." in out and "> Finished chain." in out
    assert "plan called                  3" in out
    assert "_perform_agent_action called 2" in out
    assert "isinstance(output, AgentFinish): False, False, True" in out
    _, recorded, _ = load_trace(get_scenario("rose-pricing").fixture)
    _, rerun, _ = load_trace(out_path)
    assert [comparable(e) for e in rerun] == [comparable(e) for e in recorded]


def test_calculator_really_runs_on_replay(tmp_path, capsys):
    # Swap the recorded expression: if numexpr really runs, the answer changes with it.
    fixture = get_scenario("rose-pricing").fixture
    lines = fixture.read_text(encoding="utf-8").splitlines()
    edited = [
        line.replace("25 * 1.05\\n```", "30 * 1.05\\n```") if '"kind":"llm_end"' in line else line for line in lines
    ]
    path = tmp_path / "edited.jsonl"
    path.write_text("\n".join(edited) + "\n", encoding="utf-8")
    _code, out, _err = loopscope(capsys, "run", "rose-pricing", "--fixture", path)
    assert "numexpr computed 31.5" in out
    assert json.loads(lines[0])["scenario"] == "rose-pricing"


def test_unknown_scenario_is_one_line_with_exit_2(capsys):
    code, _out, err = loopscope(capsys, "run", "tulip-pricing")
    assert code == 2
    assert (
        err.strip()
        == "loopscope: unknown scenario 'tulip-pricing'; did you mean rose-pricing? available: "
        + err.split("available: ")[1].strip()
    )
    assert "rose-pricing" in err and "Traceback" not in err


def test_missing_fixture_says_how_to_record_one(tmp_path, capsys):
    code, _out, err = loopscope(capsys, "run", "rose-pricing", "--fixture", tmp_path / "nope.jsonl")
    assert code == 2 and "loopscope record rose-pricing" in err
