"""`loopscope run rose-pricing` re-executes the real executor against the recording, offline."""

import json
from types import SimpleNamespace

from tracer.cli import main
from tracer.trace.reader import load_trace
from tutorials import get_scenario

# Source lines move whenever executor code is edited; the header hashes flag that instead.
VOLATILE = {"t", "run_id", "duration", "source"}


def loopscope(capsys, *args):
    """The command in this process (its output captured): what `python -m tracer.cli ARGS` prints and returns."""
    returncode = main(list(args))
    out, err = capsys.readouterr()
    return SimpleNamespace(returncode=returncode, stdout=out, stderr=err)


def comparable(event):
    return {k: v for k, v in event.model_dump().items() if k not in VOLATILE}


def test_run_narrates_and_prints_the_ledger(tmp_path, capsys):
    out_path = tmp_path / "rerun.jsonl"
    proc = loopscope(capsys, "run", "rose-pricing", "--trace", str(out_path))
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
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
    proc = loopscope(capsys, "run", "rose-pricing", "--fixture", str(path))
    assert "numexpr computed 31.5" in proc.stdout
    assert json.loads(lines[0])["scenario"] == "rose-pricing"


def test_unknown_scenario_is_one_line_with_exit_2(capsys):
    proc = loopscope(capsys, "run", "tulip-pricing")
    assert proc.returncode == 2
    assert (
        proc.stderr.strip()
        == "loopscope: unknown scenario 'tulip-pricing'; did you mean rose-pricing? available: "
        + proc.stderr.split("available: ")[1].strip()
    )
    assert "rose-pricing" in proc.stderr and "Traceback" not in proc.stderr


def test_missing_fixture_says_how_to_record_one(tmp_path, capsys):
    proc = loopscope(capsys, "run", "rose-pricing", "--fixture", str(tmp_path / "nope.jsonl"))
    assert proc.returncode == 2 and "loopscope record rose-pricing" in proc.stderr
