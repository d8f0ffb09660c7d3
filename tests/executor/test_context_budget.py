"""The context budget: trim to the last N messages or a token budget, or summarize in a nested model call."""

import pytest

from executor import ContextBudget, approx_token_count
from tests.helpers.loop_builders import run_collecting
from tests.helpers.tool_calling_builders import calls, text_tool, tool_calling_executor

LONG = "lorem ipsum dolor sit amet " * 40  # a long tool result, ~200 estimated tokens


def lookup_tool():
    return text_tool("lookup", lambda text: f"{text}: {LONG}")


def three_lookups_then(answer, *extra):
    return [calls((f"c{i}", "lookup", {"tool_input": f"page {i}"})) for i in range(1, 4)] + list(extra) + [answer]


def roles(messages):
    return [m["role"] for m in messages]


def test_a_message_window_keeps_the_system_the_question_and_the_newest_whole_turns():
    budget = ContextBudget(context_window=5)
    executor, model = tool_calling_executor(
        three_lookups_then("done"), [lookup_tool()], agent_settings={"context_budget": budget}
    )
    result, events, error = run_collecting(executor)
    assert error is None and result["output"] == "done"
    assert [len(r["messages"]) for r in model.requests] == [2, 4, 4, 4]  # 6 would be over 5: one turn dropped
    last = model.requests[-1]["messages"]
    assert roles(last) == ["system", "user", "assistant", "tool"] and last[3]["tool_call_id"] == "c3"
    trims = [e for e in events if e.kind == "context_trimmed"]
    assert [(t.messages_before, t.messages_after, t.reason) for t in trims] == [
        (6, 4, "context_window"),
        (8, 4, "context_window"),
    ]
    assert [m.get("tool_call_id") for m in trims[1].dropped] == [None, "c1", None, "c2"]
    assert trims[1].tokens_after < trims[1].tokens_before


def test_an_assistant_turn_is_never_split_from_its_tool_results():
    reply = calls(("a", "lookup", {"tool_input": "x"}), ("b", "lookup", {"tool_input": "y"}))
    budget = ContextBudget(context_window=4)  # the two-call turn is 3 messages: head(2) + 3 > 4
    executor, model = tool_calling_executor(
        [reply, reply, "done"], [lookup_tool()], agent_settings={"context_budget": budget}
    )
    run_collecting(executor)
    for request in model.requests:
        messages = request["messages"]
        for i, message in enumerate(messages):
            if message["role"] == "tool":
                owner = next(m for m in reversed(messages[:i]) if m["role"] == "assistant")
                assert message["tool_call_id"] in [c["id"] for c in owner["tool_calls"]]
    assert roles(model.requests[-1]["messages"]) == ["system", "user", "assistant", "tool", "tool"]


def test_a_token_budget_trims_by_the_counters_estimate():
    budget = ContextBudget(max_tokens=500)
    executor, model = tool_calling_executor(
        three_lookups_then("done"), [lookup_tool()], agent_settings={"context_budget": budget}
    )
    _, events, _ = run_collecting(executor)
    trims = [e for e in events if e.kind == "context_trimmed"]
    assert trims and all(t.reason == "max_tokens" and t.tokens_after <= 500 < t.tokens_before for t in trims)
    assert all(budget.count_tokens(r["messages"]) <= 500 for r in model.requests)


def test_the_token_counter_is_pluggable():
    seen = []

    def count_characters(text):
        seen.append(text)
        return len(text)

    budget = ContextBudget(max_tokens=1200, token_counter=count_characters)
    executor, model = tool_calling_executor(
        three_lookups_then("done"), [lookup_tool()], agent_settings={"context_budget": budget}
    )
    _, events, _ = run_collecting(executor)
    assert seen and "context_trimmed" in [e.kind for e in events]
    assert all(sum(len(m["content"] or "") + 4 for m in r["messages"]) <= 1200 for r in model.requests)


def test_summarize_asks_the_model_in_a_nested_call_and_the_summary_replaces_the_old_turns():
    budget = ContextBudget(context_window=5, strategy="summarize")
    replies = [
        calls(("c1", "lookup", {"tool_input": "page 1"})),
        calls(("c2", "lookup", {"tool_input": "page 2"})),
        "SUMMARY: page 1 says lorem.",
        "done",
    ]
    executor, model = tool_calling_executor(replies, [lookup_tool()], agent_settings={"context_budget": budget})
    result, events, error = run_collecting(executor)
    assert error is None and result["output"] == "done"
    summary_request, final_request = model.requests[2], model.requests[3]
    assert summary_request["tools"] == [] and summary_request["messages"][0]["role"] == "system"
    assert "page 1: lorem" in summary_request["messages"][1]["content"]
    sent = final_request["messages"]
    assert roles(sent) == ["system", "user", "user", "assistant", "tool"]
    assert sent[2]["content"].endswith("SUMMARY: page 1 says lorem.") and sent[4]["tool_call_id"] == "c2"
    (summarized,) = [e for e in events if e.kind == "summarized"]
    assert [m.get("tool_call_id") for m in summarized.replaced] == [None, "c1"]
    assert summarized.summary == sent[2] and (summarized.messages_before, summarized.messages_after) == (6, 5)
    call_start = next(e for e in events if e.kind == "llm_start" and "_summarize" in e.frames)
    assert call_start.frames[-4:] == ("plan", "fit", "_summarize", "call_chat_model")
    assert call_start.seq < summarized.seq


def test_a_summary_is_reused_until_the_history_outgrows_the_budget_again():
    budget = ContextBudget(context_window=6, strategy="summarize")
    replies = [
        calls(("c1", "lookup", {"tool_input": "1"})),
        calls(("c2", "lookup", {"tool_input": "2"})),
        calls(("c3", "lookup", {"tool_input": "3"})),
        "S1",
        calls(("c4", "lookup", {"tool_input": "4"})),
        "S2",
        "done",
    ]
    executor, model = tool_calling_executor(replies, [lookup_tool()], agent_settings={"context_budget": budget})
    _, events, error = run_collecting(executor)
    assert error is None
    assert [e.kind for e in events].count("summarized") == 2
    second_summary_input = model.requests[5]["messages"][1]["content"]
    assert "S1" in second_summary_input  # the rolling summary folds the previous one in
    assert model.requests[-1]["messages"][2]["content"].endswith("S2")


def test_the_default_counter_needs_no_vocabulary_and_counts_cjk_per_character():
    assert approx_token_count("") == 0
    assert approx_token_count("以25元计算") == 6
    assert approx_token_count("internationalization!") == 6  # 20 letters -> 5, "!" -> 1


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({}, "needs context_window"),
        ({"context_window": 2}, "at least 3"),
        ({"context_window": 5, "strategy": "drop"}, "strategy must be"),
    ],
)
def test_bad_budgets_are_refused_with_a_clear_message(kwargs, message):
    with pytest.raises(ValueError, match=message):
        ContextBudget(**kwargs)


def test_a_second_run_of_the_same_agent_does_not_inherit_the_first_runs_summary():
    budget = ContextBudget(context_window=5, strategy="summarize")
    one_run = [
        calls(("c1", "lookup", {"tool_input": "page 1"})),
        calls(("c2", "lookup", {"tool_input": "page 2"})),
        "S",
        "done",
    ]
    executor, model = tool_calling_executor(
        one_run * 2, [lookup_tool()], agent_settings={"context_budget": budget}, run_id_factory=lambda: "same-id"
    )
    for _ in range(2):
        _, events, error = run_collecting(executor)
        assert error is None and [e.kind for e in events].count("summarized") == 1
    assert len(model.requests) == 8
