"""The AgentExecutor behaves like LangChain's classic one, observably."""

import pytest

from executor import (
    STOPPED,
    AgentAction,
    ManualClock,
    OutputParsingError,
    PromptTemplate,
    ScriptedModel,
    ScriptExhausted,
    Tool,
    ToolError,
    create_react_agent,
)
from executor.agents.parser import MISSING_ACTION
from tests.helpers.loop_builders import (
    action,
    echo_tool,
    finish,
    kinds,
    run_collecting,
    scripted_executor,
)

PARSING_PREFIX = (
    "An output parsing error occurred. In order to pass this error back to the agent and have "
    "it try again, pass `handle_parsing_errors=True` to the AgentExecutor. This is the error: "
)


def test_prompt_lists_tools_and_ends_with_question_then_scratchpad():
    ex, model = scripted_executor([action("Echo", "hi"), finish("done")])
    result, _, _ = run_collecting(ex, "What now?")
    assert result["output"] == "done"
    first, second = model.prompts
    assert "Echo - Echo repeats its input" in first
    assert "[Echo]" in first
    assert first.endswith("Question: What now?\nThought:")
    step_log = action("Echo", "hi")
    assert second == first + step_log + "\nObservation: echo:hi\nThought: "


def test_stop_sequence_cuts_an_invented_observation():
    ex, _model = scripted_executor(
        [action("Echo", "hi") + "\nObservation: made up", finish("ok")], return_intermediate_steps=True
    )
    result, events, _ = run_collecting(ex)
    step_action, observation = result["intermediate_steps"][0]
    assert "made up" not in step_action.log
    assert observation == "echo:hi"
    assert [e.stop for e in events if e.kind == "llm_start"] == [["\nObservation"]] * 2


def test_invoke_merges_inputs_and_returns_steps_as_pairs():
    ex, _ = scripted_executor([action("Echo", "x"), finish("y")], return_intermediate_steps=True)
    result = ex.invoke({"input": "q", "user": "ann"})
    assert result["input"] == "q" and result["user"] == "ann" and result["output"] == "y"
    ((act, obs),) = result["intermediate_steps"]
    assert act == AgentAction("Echo", "x", action("Echo", "x")) and obs == "echo:x"


def test_unknown_tool_becomes_an_observation_listing_real_tools_and_counts_as_iteration():
    tools = [echo_tool("Search"), echo_tool("Calculator")]
    ex, model = scripted_executor([action("search", "q"), finish("never")], tools=tools, max_iterations=1)
    result, events, _ = run_collecting(ex)
    (invalid,) = [e for e in events if e.kind == "invalid_tool"]
    assert invalid.observation == "search is not a valid tool, try one of [Search, Calculator]."
    assert invalid.available == ["Search", "Calculator"]
    assert "tool_start" not in kinds(events)
    assert result["output"] == STOPPED  # the invalid step used up the only iteration
    assert len(model.prompts) == 1


def test_parsing_error_raises_by_default_with_the_classic_message():
    ex, _ = scripted_executor(["no format at all"])
    _, events, error = run_collecting(ex)
    assert isinstance(error, OutputParsingError) and isinstance(error, ValueError)
    assert str(error) == PARSING_PREFIX + "Could not parse LLM output: `no format at all`"
    assert kinds(events)[-2:] == ["parse_error", "chain_error"]
    assert events[-2].handled is False


def test_handled_parsing_error_sends_the_parser_hint_and_records_an_exception_step():
    ex, model = scripted_executor(
        ["just words", finish("fixed")], handle_parsing_errors=True, return_intermediate_steps=True
    )
    result, events, _ = run_collecting(ex)
    ((act, obs),) = result["intermediate_steps"]
    assert act == AgentAction("_Exception", MISSING_ACTION, "just words") and obs == MISSING_ACTION
    assert model.prompts[1].endswith("just words\nObservation: " + MISSING_ACTION + "\nThought: ")
    assert [e.is_finish for e in events if e.kind == "finish_check"] == [False, True]


def test_handled_parse_error_without_hint_says_invalid_or_incomplete():
    both = "Action: Echo\nAction Input: x\nFinal Answer: y"
    ex, _ = scripted_executor([both, finish("z")], handle_parsing_errors=True, return_intermediate_steps=True)
    result, _, _ = run_collecting(ex)
    ((act, obs),) = result["intermediate_steps"]
    assert obs == "Invalid or incomplete response"
    assert act.log.startswith("Parsing LLM output produced both a final answer and a parse-able action:")


@pytest.mark.parametrize(
    "handler,expected",
    [
        ("Please follow the format.", "Please follow the format."),
        (lambda error: f"custom:{error.llm_output}", "custom:oops"),
    ],
)
def test_parsing_error_handler_string_or_callable(handler, expected):
    ex, _ = scripted_executor(["oops", finish("z")], handle_parsing_errors=handler, return_intermediate_steps=True)
    result, _, _ = run_collecting(ex)
    assert result["intermediate_steps"][0][1] == expected


def failing(message=None, exc=ToolError):
    def func(text):
        raise exc(message) if message is not None else exc()

    return func


@pytest.mark.parametrize(
    "handle,error_args,expected",
    [
        (True, ("db is down",), "db is down"),
        (True, (), "Tool execution error"),
        ("Try later.", ("db is down",), "Try later."),
        (lambda e: f"handled: {e}", ("db is down",), "handled: db is down"),
    ],
)
def test_handled_tool_error_becomes_the_observation(handle, error_args, expected):
    tool = Tool(name="Db", description="d", func=failing(*error_args), handle_tool_error=handle)
    ex, _model = scripted_executor([action("Db", "x"), finish("ok")], tools=[tool], return_intermediate_steps=True)
    result, events, _ = run_collecting(ex)
    assert result["intermediate_steps"][0][1] == expected
    (err,) = [e for e in events if e.kind == "tool_error"]
    assert err.handled and err.observation == expected and err.error_type == "ToolError"
    assert kinds(events)[kinds(events).index("tool_error") + 1] == "tool_end"


@pytest.mark.parametrize(
    "tool",
    [
        Tool(name="Db", description="d", func=failing("boom")),
        Tool(name="Db", description="d", func=failing("bug", RuntimeError), handle_tool_error=True),
    ],
)
def test_unhandled_tool_error_ends_the_run_after_tool_error_and_chain_error(tool):
    ex, _ = scripted_executor([action("Db", "x"), finish("never")], tools=[tool])
    _, events, error = run_collecting(ex)
    assert error is not None and str(error) in ("boom", "bug")
    assert kinds(events)[-2:] == ["tool_error", "chain_error"]
    assert events[-2].handled is False and events[-1].message == str(error)


def test_max_iterations_forces_the_stopped_answer():
    ex, model = scripted_executor([action("Echo", str(i)) for i in range(5)], max_iterations=3)
    result, events, _ = run_collecting(ex)
    assert result["output"] == "Agent stopped due to iteration limit or time limit."
    assert len(model.prompts) == 3
    (limit,) = [e for e in events if e.kind == "limit_reached"]
    assert (limit.reason, limit.iterations, limit.early_stopping_method) == ("max_iterations", 3, "force")
    assert kinds(events)[-3:] == ["limit_reached", "agent_finish", "chain_end"]


def test_max_execution_time_is_checked_before_each_step():
    clock = ManualClock()
    slow = Tool(name="Slow", description="takes 4s", func=lambda t: clock.advance(4.0) or "done")
    ex, model = scripted_executor([action("Slow", "a")] * 5, tools=[slow], max_execution_time=10, clock=clock)
    result, events, _ = run_collecting(ex)
    assert result["output"] == STOPPED
    assert len(model.prompts) == 3  # 0s, 4s, 8s start a step; at 12s the loop stops
    assert next(e for e in events if e.kind == "limit_reached").reason == "max_execution_time"


def test_only_force_early_stopping_is_accepted():
    with pytest.raises(ValueError, match="early_stopping_method 'generate' is not supported"):
        scripted_executor([], early_stopping_method="generate")


def test_return_direct_tool_finishes_with_its_observation():
    direct = echo_tool("Direct", return_direct=True)
    ex, model = scripted_executor([action("Direct", "42"), finish("never asked")], tools=[direct])
    result, events, _ = run_collecting(ex)
    assert result["output"] == "echo:42"
    assert len(model.prompts) == 1
    assert kinds(events)[-3:] == ["finish_check", "agent_finish", "chain_end"]


@pytest.mark.parametrize("trim,visible", [(1, ["echo:2"]), (lambda steps: steps[:1], ["echo:0"])])
def test_trim_intermediate_steps_limits_what_plan_sees(trim, visible):
    replies = [action("Echo", "0"), action("Echo", "1"), action("Echo", "2"), finish("f")]
    ex, model = scripted_executor(replies, trim_intermediate_steps=trim)
    run_collecting(ex)
    last = model.prompts[-1]
    for n in range(3):
        assert (f"echo:{n}" in last) == (f"echo:{n}" in visible)


def test_missing_input_key_is_a_clear_error():
    ex, _ = scripted_executor([finish("x")])
    with pytest.raises(ValueError, match="Missing some input keys"):
        ex.invoke({"question": "q"})


def test_scripted_model_says_when_it_runs_out():
    ex, _ = scripted_executor([action("Echo", "x")])
    _, events, error = run_collecting(ex)
    assert isinstance(error, ScriptExhausted) and "reply #2" in str(error)
    assert events[-1].kind == "chain_error"


def test_custom_prompt_must_have_the_react_variables():
    with pytest.raises(ValueError, match="agent_scratchpad"):
        create_react_agent(ScriptedModel([]), [echo_tool()], prompt="Tools: {tools} {tool_names} Q: {input}")


def test_custom_prompt_is_used():
    model = ScriptedModel([finish("x")])
    tools = [echo_tool()]
    agent = create_react_agent(
        model, tools, prompt=PromptTemplate("{tools}|T={tool_names}|Q={input}|{agent_scratchpad}<")
    )
    from executor import AgentExecutor

    AgentExecutor(agent=agent, tools=tools).invoke({"input": "hi"})
    assert model.prompts == ["Echo - Echo repeats its input|T=Echo|Q=hi|<"]


def test_duplicate_tool_names_are_refused():
    with pytest.raises(ValueError, match="unique"):
        scripted_executor([], tools=[echo_tool(), echo_tool()])


def test_iter_events_is_the_same_run_and_returns_the_result():
    ex, _ = scripted_executor([action("Echo", "x"), finish("y")], run_id_factory=lambda: "r1")
    generator = ex.iter_events({"input": "q"})
    streamed = []
    while True:
        try:
            streamed.append(next(generator))
        except StopIteration as stop:
            result = stop.value
            break
    ex2, _ = scripted_executor([action("Echo", "x"), finish("y")], run_id_factory=lambda: "r1")
    listened = []
    assert ex2.invoke({"input": "q"}, [listened.append]) == result
    # The same run; only the stack differs: invoke's caller frame is part of it when invoke drove it.
    assert [e.model_copy(update={"frames": ()}) for e in streamed] == [
        e.model_copy(update={"frames": ()}) for e in listened
    ]
    assert all(e.frames[0] == "iter_events" for e in streamed)
    assert all(e.frames[:2] == ("invoke", "iter_events") for e in listened)
    assert [e.seq for e in streamed] == list(range(len(streamed)))
