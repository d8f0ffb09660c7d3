"""`loopscope exercise`: list, start, check (exit 1 until fixed, 0 after), hint, in en and zh."""

import json

import pytest

from tests.helpers.cli_run import loopscope
from tutorials.exercises import NAMES, exercises


@pytest.fixture
def workdir(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_the_list_has_one_exercise_a_line_each_starting_with_its_name(capsys):
    code, out, _ = loopscope(capsys, "exercise", "--lang", "en")
    lines = [line for line in out.splitlines() if line and not line.startswith("Start")]
    assert code == 0 and len(lines) == len(NAMES) >= 6
    assert [line.split()[0] for line in lines] == list(NAMES)


def test_start_writes_the_broken_agent_with_its_task_and_keeps_the_learners_file(capsys, workdir):
    code, out, _ = loopscope(capsys, "exercise", "start", "parse-error", "--lang", "zh")
    learner = workdir / "loopscope-exercises" / "parse-error.py"
    text = learner.read_text()
    assert code == 0 and str(learner.relative_to(workdir)) in out
    task = exercises()["parse-error"].tasks["zh"]
    assert task.splitlines()[0] in text and task.splitlines()[0] in out
    assert text.startswith('"""') and "def build(model):" in text
    learner.write_text(text + "\n# my work\n")
    code, _, err = loopscope(capsys, "exercise", "start", "parse-error")
    assert code == 2 and "--force" in err and "# my work" in learner.read_text()
    assert loopscope(capsys, "exercise", "start", "parse-error", "--force")[0] == 0
    assert "# my work" not in learner.read_text()


def test_check_fails_the_untouched_file_and_passes_once_fixed(capsys, workdir):
    loopscope(capsys, "exercise", "start", "max-iterations", "--lang", "en")
    code, out, _ = loopscope(capsys, "exercise", "check", "max-iterations", "--lang", "en")
    assert code == 1
    assert "stopped by max_iterations after 2 iterations" in out
    assert (workdir / "loopscope-exercises" / "max-iterations.jsonl").exists()  # the run, to open in the debugger
    learner = workdir / "loopscope-exercises" / "max-iterations.py"
    learner.write_text(learner.read_text().replace("max_iterations=2", "max_iterations=None"))
    code, out, _ = loopscope(capsys, "exercise", "check", "max-iterations", "--lang", "en")
    assert code == 1 and "max_iterations is None" in out  # no limit at all is not a fix
    learner.write_text(learner.read_text().replace("max_iterations=None", "max_iterations=8"))
    code, out, _ = loopscope(capsys, "exercise", "check", "max-iterations", "--lang", "zh")
    assert code == 0 and "修好了" in out


def test_check_before_start_says_how_to_start(capsys, workdir):
    code, _, err = loopscope(capsys, "exercise", "check", "flaky-tool")
    assert code == 2 and "exercise start flaky-tool" in err


def test_hints_come_one_at_a_time_and_are_remembered(capsys, workdir):
    hints = exercises()["context-budget"].hints["en"]
    said = [loopscope(capsys, "exercise", "hint", "context-budget", "--lang", "en")[1] for _ in range(len(hints) + 1)]
    for number, hint in enumerate(hints, start=1):
        assert f"hint {number}/{len(hints)}: {hint}" in said[number - 1]
    assert hints[-1] in said[-1] and "last hint" in said[-1]  # past the last: the last again
    state = json.loads((workdir / "loopscope-exercises" / ".hints.json").read_text())
    assert state == {"context-budget": len(hints)}


def test_an_unknown_exercise_is_one_line_naming_the_choices(capsys, workdir):
    code, _, err = loopscope(capsys, "exercise", "check", "no-such")
    assert code == 2 and "no-such" in err and "stop-sequence" in err and len(err.strip().splitlines()) == 1
