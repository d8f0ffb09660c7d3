"""state_of: every event of a run belongs to one loop state, derived from its kind and frames alone."""

from executor import STATES, ContextBudget, RetryPolicy, ToolError, TransientError, state_of
from tests.helpers.loop_builders import action, finish, run_collecting, scripted_executor
from tests.helpers.tool_calling_builders import calls, text_tool, tool_calling_executor


def states(events):
    return [(e.kind, state_of(e)) for e in events]


def test_a_react_run_goes_planning_acting_observing_finished():
    executor, _ = scripted_executor([action("Echo", "hi"), finish("done")])
    _, events, _ = run_collecting(executor)
    assert states(events) == [
        ("chain_start", "planning"),
        ("llm_start", "planning"),
        ("llm_end", "planning"),
        ("agent_action", "planning"),
        ("tool_start", "acting"),
        ("tool_end", "acting"),
        ("step", "observing"),
        ("finish_check", "observing"),
        ("llm_start", "planning"),
        ("llm_end", "planning"),
        ("agent_finish", "finished"),
        ("finish_check", "finished"),
        ("chain_end", "finished"),
    ]


def test_nested_calls_and_retries_inside_a_tool_are_acting_and_summaries_are_summarizing():
    flaky = {"n": 0}

    def lookup(text):
        flaky["n"] += 1
        if flaky["n"] == 1:
            raise TransientError("blip")
        return text * 50

    tool = text_tool("lookup", lookup, retry_policy=RetryPolicy(jitter=False))
    budget = ContextBudget(context_window=5, strategy="summarize")
    replies = [
        calls(("c1", "lookup", {"tool_input": "a"})),
        calls(("c2", "lookup", {"tool_input": "b"})),
        "sum",
        "done",
    ]
    executor, _ = tool_calling_executor(replies, [tool], agent_settings={"context_budget": budget})
    _, events, _ = run_collecting(executor)
    by_kind = {}
    for kind, state in states(events):
        by_kind.setdefault(kind, set()).add(state)
    assert by_kind["retry"] == {"acting"} and by_kind["summarized"] == {"summarizing"}
    assert by_kind["llm_start"] == {"planning", "summarizing"}  # the summary call is summarizing
    assert all(state in STATES for _, state in states(events))


def test_errors_are_error_and_handled_errors_are_observed():
    def broken(text):
        raise ToolError("down")

    executor, _ = scripted_executor(
        [action("Echo", "x"), "no action here", finish("ok")],
        tools=[text_tool("Echo", broken, handle_tool_error=True)],
        handle_parsing_errors=True,
        max_iterations=2,
    )
    _, events, _ = run_collecting(executor)
    assert ("tool_error", "acting") in states(events)
    assert ("parse_error", "observing") in states(events)
    assert ("limit_reached", "error") in states(events)
    executor, _ = scripted_executor([action("Echo", "x")], tools=[text_tool("Echo", broken)])
    _, events, error = run_collecting(executor)
    assert error is not None and states(events)[-2:] == [("tool_error", "error"), ("chain_error", "error")]


def test_every_event_of_every_recorded_fixture_has_a_state():
    from pathlib import Path

    from tracer.trace.reader import load_trace

    for path in sorted(Path(__file__).resolve().parent.parent.glob("fixtures/*.jsonl")):
        _, events, _ = load_trace(path)
        seen = [state_of(event) for event in events]
        assert set(seen) <= set(STATES) and seen[0] == "planning", path.name
        assert seen[-1] == ("error" if events[-1].kind == "chain_error" else "finished"), path.name
