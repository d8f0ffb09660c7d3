"""Small things a learner reads: diff names only changed settings, the ledger mentions the calculator only when it ran."""

from __future__ import annotations

import pytest

import tutorials
from tracer.cli.scenarios import scenario_named
from tracer.cli.usage_error import UsageError
from tracer.report.diff import diff_traces, render_diff
from tracer.report.narration.ledger import Ledger
from tracer.trace.reader import load_trace


def _events(name):
    return load_trace(tutorials.SCENARIOS[name].fixture)[1]


def test_diff_prints_only_the_changed_settings_keys():
    off, on = (tutorials.SCENARIOS[n].fixture for n in ("parse-error-off", "parse-error-on"))
    text = "\n".join(render_diff(diff_traces(off, on)))
    assert "settings differ in handle_parsing_errors:" in text
    assert "handle_parsing_errors: A False, B True" in text
    assert "max_iterations" not in text and "'model'" not in text  # the unchanged keys stay out


def test_the_ledger_mentions_the_calculators_model_call_only_when_it_ran():
    assert not any("calculator" in line for line in Ledger.of(_events("parse-error-off")).lines())
    assert not any("calculator" in line for line in Ledger.of(_events("iteration-limit")).lines())
    assert any("the calculator asks the model too" in line for line in Ledger.of(_events("rose-pricing")).lines())


def test_a_tutorial_name_suggests_its_scenarios():
    with pytest.raises(UsageError, match="did you mean parse-error-off or parse-error-on"):
        scenario_named("parse-error")


def test_iteration_limit_does_not_call_its_run_a_rose_run():
    from tutorials.registry import TUTORIALS

    texts = [n.texts["en"] for n in TUTORIALS["iteration-limit"].notes.notes]
    assert not any("this tutorial's rose run" in text for text in texts)
