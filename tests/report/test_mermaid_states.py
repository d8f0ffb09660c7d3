"""`loopscope export --mermaid --states`: the loop's state machine with counts on its edges."""

from tests.helpers.paths import FIXTURES
from tracer.cli import main
from tracer.report.mermaid import loop_state_diagram
from tracer.trace.reader import load_trace


def test_the_summarize_run_draws_the_summarizing_detour_once():
    events = load_trace(FIXTURES / "context_budget_summarize.jsonl")[1]
    diagram = loop_state_diagram(events)
    assert "    planning --> acting: 3×" in diagram
    assert "    observing --> summarizing: 1×" in diagram
    assert "    summarizing --> planning: 1×" in diagram
    assert "    observing --> planning: 2×" in diagram
    assert diagram.rstrip().endswith("finished --> [*]")


def test_a_run_that_dies_ends_in_the_error_state(capsys):
    assert main(["export", "--mermaid", "--states", str(FIXTURES / "tool_error_unhandled.jsonl")]) == 0
    out = capsys.readouterr().out
    assert out.startswith("---\ntitle: tool-error-unhandled\n---\nstateDiagram-v2\n")
    assert "acting --> error: 1×" in out and "error --> [*]" in out
    assert "summarizing" not in out
