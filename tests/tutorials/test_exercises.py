"""Exercises: each untouched file fails its check, from its trace; each reference fix passes; content is complete."""

import re

import pytest

from tutorials.exercises import NAMES, exercises
from tutorials.exercises.judges import judge
from tutorials.exercises.runner import check_file
from tutorials.notes_file import LANGUAGES

CJK = re.compile(r"[\u4e00-\u9fff]")
# The finding each untouched file must produce: the bug the exercise is about, not just "it failed".
BUG = {
    "stop-sequence": "invented",
    "parse-error": "unhandled",
    "max-iterations": "cut",
    "flaky-tool": "no_retry",
    "parallel-ids": "swapped",
    "context-budget": "over_window",
}


def test_there_are_at_least_six_exercises_each_with_its_bug_named():
    assert len(NAMES) >= 6 and set(BUG) == set(NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_the_untouched_file_fails_with_its_own_bug(name):
    result = check_file(name, exercises()[name].broken)
    assert not result.passed
    assert result.events, "the check must judge a real run"
    assert BUG[name] in [finding.key for finding in result.findings]


@pytest.mark.parametrize("name", NAMES)
def test_the_reference_fix_passes(name):
    result = check_file(name, exercises()[name].fixed)
    assert result.passed, result.findings
    assert result.events[-1].kind == "chain_end"


def test_another_fix_that_makes_the_same_run_passes_too(tmp_path):
    # The check reads the trace, not the source: create_react_agent (its default stop) fixes it as well.
    source = exercises()["stop-sequence"].broken.read_text()
    source = source.replace(
        "agent = ReActAgent(model, tools, PromptTemplate(REACT_PROMPT), stop=[])",
        "agent = create_react_agent(model, tools)",
    ).replace("from executor import AgentExecutor,", "from executor import create_react_agent, AgentExecutor,")
    learner = tmp_path / "stop-sequence.py"
    learner.write_text(source)
    assert check_file("stop-sequence", learner).passed


def test_a_fix_that_only_changes_the_source_text_does_not_pass(tmp_path):
    # A comment naming the fix changes nothing in the run, so the check still fails.
    source = exercises()["parse-error"].broken.read_text() + "\n# handle_parsing_errors=True\n"
    learner = tmp_path / "parse-error.py"
    learner.write_text(source)
    assert not check_file("parse-error", learner).passed


def test_a_file_that_does_not_load_is_told_not_raised(tmp_path):
    learner = tmp_path / "broken.py"
    learner.write_text("def build(model:\n")
    result = check_file("parse-error", learner)
    assert [f.key for f in result.findings] == ["load_failed"] and "SyntaxError" in result.findings[0].args["error"]


def test_retries_without_a_pause_are_still_wrong():
    # Judged from the retry events' delays: a retry policy with no wait does not pass.
    from executor.events import RetryEvent

    fixed = check_file("flaky-tool", exercises()["flaky-tool"].fixed)
    retries = [e for e in fixed.events if isinstance(e, RetryEvent)]
    assert retries and all(r.delay > 0 for r in retries)
    no_pause = [e.model_copy(update={"delay": 0.0}) if isinstance(e, RetryEvent) else e for e in fixed.events]
    assert "no_pause" in [f.key for f in judge("flaky-tool", no_pause)]


@pytest.mark.parametrize("name", NAMES)
def test_content_is_complete_in_both_languages(name):
    exercise = exercises()[name]
    for texts in (exercise.titles, exercise.tasks, *exercise.findings.values()):
        assert set(texts) == set(LANGUAGES)
        assert CJK.search(texts["zh"]) and not CJK.search(texts["en"])
    assert len(exercise.hints["en"]) == len(exercise.hints["zh"]) >= 2
    assert BUG[name] in exercise.findings
    assert exercise.broken.exists() and exercise.fixed.exists()
