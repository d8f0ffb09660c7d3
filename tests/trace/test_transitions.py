"""Transitions: the run as the loop's state changes, and the same as a Mermaid state diagram."""

from executor import (
    AgentExecutor,
    ManualClock,
    RateLimiter,
    RetryPolicy,
    ScriptedModel,
    Tool,
    TransientError,
    create_react_agent,
)
from tests.helpers.loop_builders import action, finish, run_collecting
from tracer.cli import main
from tracer.report.mermaid import mermaid_state_diagram
from tracer.trace.transitions import Trace, transitions
from tutorials import get_scenario

ROSE_LABELS = [
    "chain_start",
    "plan",
    "AgentAction(Search)",
    "tool(Search)",
    "step",
    "finish_check(False)",
    "plan",
    "AgentAction(Calculator)",
    "tool(Calculator)",
    "step",
    "finish_check(False)",
    "plan",
    "AgentFinish",
    "finish_check(True)",
    "chain_end",
]


def fixture_trace(name):
    return Trace.load(get_scenario(name).fixture)


def test_rose_pricing_is_search_then_calculator_then_final_answer():
    trace = fixture_trace("rose-pricing")
    assert trace.labels() == ROSE_LABELS
    assert trace.chain().startswith("chain_start → plan → AgentAction(Search) → tool(Search) → step")
    assert [t.iteration for t in trace.transitions() if t.label == "plan"] == [1, 2, 3]


def test_the_calculators_own_model_call_is_inside_its_tool_transition_not_a_plan():
    trace = fixture_trace("rose-pricing")
    llm_starts = [e for e in trace.events if e.kind == "llm_start"]
    assert len(llm_starts) == 4 and trace.labels().count("plan") == 3
    plans = [t for t in trace.transitions() if t.label == "plan"]
    replies = [e.text for e in trace.events if e.kind == "llm_end" and "plan" in e.frames]
    assert [p.detail["reply"] for p in plans] == replies


def test_failure_paths_are_transitions_of_their_own():
    assert fixture_trace("invalid-tool").labels()[2:4] == ["AgentAction(PriceDatabase)", "invalid_tool(PriceDatabase)"]
    assert fixture_trace("parse-error-off").labels() == [
        "chain_start",
        "plan",
        "parse_error(raised)",
        "chain_error(OutputParsingError)",
    ]
    assert fixture_trace("parse-error-on").labels()[2] == "parse_error(handled)"
    assert fixture_trace("tool-error-unhandled").labels()[-2:] == [
        "tool_error(SupplierQuote: ToolError, raised)",
        "chain_error(ToolError)",
    ]
    limit = fixture_trace("iteration-limit").labels()
    assert limit[-4:] == ["finish_check(False)", "limit_reached(max_iterations)", "AgentFinish", "chain_end"]


def test_a_retry_is_a_transition_and_a_rate_limit_wait_is_not():
    attempts = {"n": 0}

    def lookup(query):
        attempts["n"] += 1
        if attempts["n"] == 1:
            raise TransientError("timed out")
        return "12"

    tools = [Tool("Lookup", "Looks prices up.", lookup)]
    model = ScriptedModel([action("Lookup", "roses"), finish("12")])
    clock = ManualClock()
    executor = AgentExecutor(
        agent=create_react_agent(model, tools),
        tools=tools,
        clock=clock,
        retry_policy=RetryPolicy(max_retries=2, jitter=False),
        rate_limiter=RateLimiter(max_qps=0.5, burst=1, clock=clock),
    )
    _, events, _ = run_collecting(executor)
    labels = [t.label for t in transitions(events)]
    assert labels[2:5] == ["AgentAction(Lookup)", "retry(tool:Lookup #1)", "tool(Lookup)"]
    # The second model call had to wait for the limiter: an event, but timing, not a decision.
    assert "rate_limit_wait" in {e.kind for e in events}
    assert labels == [
        "chain_start",
        "plan",
        "AgentAction(Lookup)",
        "retry(tool:Lookup #1)",
        "tool(Lookup)",
        "step",
        "finish_check(False)",
        "plan",
        "AgentFinish",
        "finish_check(True)",
        "chain_end",
    ]


def test_outcome_and_snapshot_text():
    trace = fixture_trace("rose-pricing")
    assert trace.outcome() == "finished: " + trace.events[-1].outputs["output"]
    text = trace.snapshot_text()
    assert text.splitlines()[3:6] == ["  0  chain_start", "  1  plan", "  1  AgentAction(Search)"]
    assert "events" not in text.split("\n", 1)[1]
    with_events = trace.snapshot_text(include_events=True)
    assert with_events.startswith(text.rstrip("\n"))
    assert "[1] llm_start  iteration 1" in with_events and "    Question: " in with_events
    assert fixture_trace("parse-error-off").outcome().startswith("error: OutputParsingError: ")


def test_snapshot_text_keeps_model_text_on_its_line_and_escapes_control_characters():
    events = fixture_trace("rose-pricing").events
    last = events[-1].model_copy(update={"outputs": {"output": "two\nlines \x1b[31mred"}})
    text = Trace({}, events[:-1] + [last]).snapshot_text()
    assert "outcome: finished: two\\nlines ␛[31mred" in text and "\x1b" not in text


def test_mermaid_diagram_is_a_cycle_with_rounds_on_the_edges():
    diagram = mermaid_state_diagram(fixture_trace("rose-pricing").transitions(), title="rose-pricing")
    lines = diagram.splitlines()
    assert lines[:4] == ["---", "title: rose-pricing", "---", "stateDiagram-v2"]
    states = {line.split('"')[1]: line.split(" as ")[1] for line in lines if line.strip().startswith("state ")}
    assert len(states) == len(set(ROSE_LABELS))
    assert f"    {states['finish_check(False)']} --> {states['plan']}: rounds 2-3" in lines
    assert f"    {states['step']} --> {states['finish_check(False)']}: rounds 1-2" in lines
    assert lines[-1] == f"    {states['chain_end']} --> [*]"


def test_mermaid_labels_cannot_break_out_of_their_quotes():
    trace = fixture_trace("rose-pricing")
    evil = trace.events[3].model_copy(update={"tool": 'X" as s0\n[*] --> <b>'})
    diagram = mermaid_state_diagram(transitions(trace.events[:3] + [evil]))
    assert 'X" as' not in diagram and "<b>" not in diagram
    assert all(line.count('"') in (0, 2) for line in diagram.splitlines())


def test_export_command_prints_or_writes_the_diagram(tmp_path, capsys):
    fixture = get_scenario("rose-pricing").fixture
    assert main(["export", "--mermaid", str(fixture)]) == 0
    printed = capsys.readouterr().out
    assert printed.startswith("---\ntitle: rose-pricing\n---\nstateDiagram-v2\n")
    out = tmp_path / "run.mmd"
    assert main(["export", "--mermaid", str(fixture), "-o", str(out)]) == 0
    assert out.read_text(encoding="utf-8") == printed
    assert main(["export", str(fixture)]) == 2
    assert "choose a format: --mermaid" in capsys.readouterr().err
