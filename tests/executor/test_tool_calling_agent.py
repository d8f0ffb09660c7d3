"""The tool-calling agent on the same AgentExecutor: messages, tool calls, argument validation."""

import pytest

from executor import ToolAgentAction, create_tool_calling_agent
from executor.events import LLMStartEvent
from tests.helpers.loop_builders import kinds, run_collecting
from tests.helpers.tool_calling_builders import calls, text_tool, tool_calling_executor


def upper_tool():
    return text_tool("upper", lambda text: text.upper())


def test_the_next_request_holds_the_assistant_tool_calls_and_one_tool_message_per_id():
    executor, model = tool_calling_executor(
        [
            calls(("call_a", "upper", {"tool_input": "rose"}), ("call_b", "upper", {"tool_input": "tulip"})),
            "ROSE, TULIP",
        ],
        [upper_tool()],
    )
    result, _events, error = run_collecting(executor, "shout two flowers")
    assert error is None and result["output"] == "ROSE, TULIP"
    first, second = model.requests
    assert [m["role"] for m in first["messages"]] == ["system", "user"]
    sent = second["messages"]
    assert [m["role"] for m in sent] == ["system", "user", "assistant", "tool", "tool"]
    assert [c["id"] for c in sent[2]["tool_calls"]] == ["call_a", "call_b"]
    assert sent[2]["tool_calls"][0]["function"] == {"name": "upper", "arguments": '{"tool_input": "rose"}'}
    assert [(m["tool_call_id"], m["content"]) for m in sent[3:]] == [("call_a", "ROSE"), ("call_b", "TULIP")]


def test_llm_start_carries_the_messages_and_the_tool_schemas_and_llm_end_the_calls():
    executor, model = tool_calling_executor([calls(("c1", "upper", {"tool_input": "x"})), "X"], [upper_tool()])
    _, events, _ = run_collecting(executor, "shout x")
    starts = [e for e in events if e.kind == "llm_start"]
    assert [s.messages for s in starts] == [r["messages"] for r in model.requests]
    (spec,) = starts[0].tools
    assert spec["function"]["name"] == "upper"
    assert spec["function"]["parameters"]["required"] == ["tool_input"]
    assert "[tool c1]\nX" in starts[1].prompt  # the readable rendering shows the tool result and its id
    first_end = next(e for e in events if e.kind == "llm_end")
    assert [c.model_dump() for c in first_end.tool_calls] == [
        {"id": "c1", "name": "upper", "arguments": '{"tool_input": "x"}'}
    ]
    assert model.requests[0]["tool_choice"] == "auto" and model.requests[0]["parallel_tool_calls"] is True


def test_plan_returns_tool_agent_actions_shaped_like_langchains():
    agent = create_tool_calling_agent(
        __import__("executor").ScriptedModel(
            [calls(("c1", "upper", {"tool_input": "a"}), ("c2", "upper", {"tool_input": "b"}), text="Let me look.")]
        ),
        [upper_tool()],
    )
    from executor import RunContext

    plan = agent.plan([], RunContext(), input="q")
    events = []
    try:
        while True:
            events.append(next(plan))
    except StopIteration as stop:
        actions = stop.value
    assert [type(a) for a in actions] == [ToolAgentAction, ToolAgentAction]
    assert [(a.tool, a.tool_input, a.tool_call_id) for a in actions] == [
        ("upper", '{"tool_input": "a"}', "c1"),
        ("upper", '{"tool_input": "b"}', "c2"),
    ]
    assert actions[0].log == '\nInvoking: `upper` with `{"tool_input": "a"}`\nresponded: Let me look.\n\n'
    assert actions[0].message_log[0] is actions[1].message_log[0]  # one assistant turn for both calls
    assert actions[0].message_log[0]["content"] == "Let me look."


def test_every_event_of_a_call_carries_its_id_and_the_steps_keep_call_order():
    executor, _ = tool_calling_executor(
        [calls(("c1", "upper", {"tool_input": "a"}), ("c2", "upper", {"tool_input": "b"})), "done"], [upper_tool()]
    )
    _, events, _ = run_collecting(executor)
    for kind in ("agent_action", "tool_start", "tool_end", "step"):
        assert sorted(e.tool_call_id for e in events if e.kind == kind) == ["c1", "c2"], kind
    assert [e.tool_call_id for e in events if e.kind == "step"] == ["c1", "c2"]


@pytest.mark.parametrize(
    "arguments, expected",
    [
        ('{"tool_input": "ok"', "Error: the arguments for upper are not valid JSON"),
        (
            '{"text": "wrong field"}',
            "Error: the arguments for upper do not fit its schema (tool_input: Field required)",
        ),
        (
            '{"tool_input": 42}',
            "Error: the arguments for upper do not fit its schema (tool_input: Input should be a valid string)",
        ),
        ('["input"]', "Error: the arguments for upper do not fit its schema"),
    ],
    ids=["bad-json", "missing-field", "wrong-type", "not-an-object"],
)
def test_bad_arguments_become_that_calls_error_observation_and_the_loop_goes_on(arguments, expected):
    executor, model = tool_calling_executor(
        [calls(("bad", "upper", arguments), ("good", "upper", {"tool_input": "fine"})), "recovered"], [upper_tool()]
    )
    result, events, error = run_collecting(executor)
    assert error is None and result["output"] == "recovered"
    tool_messages = {m["tool_call_id"]: m["content"] for m in model.requests[1]["messages"] if m["role"] == "tool"}
    assert tool_messages["bad"].startswith(expected) and tool_messages["good"] == "FINE"
    (tool_error,) = [e for e in events if e.kind == "tool_error"]
    assert tool_error.handled and tool_error.tool_call_id == "bad" and tool_error.error_type == "ToolArgumentsError"
    assert not [e for e in events if e.kind == "tool_start" and e.tool_call_id == "bad"]  # the tool never ran


def test_an_unknown_tool_name_is_an_invalid_tool_observation_for_that_call():
    executor, model = tool_calling_executor([calls(("x", "lower", {"tool_input": "A"})), "ok"], [upper_tool()])
    _, events, _ = run_collecting(executor)
    (invalid,) = [e for e in events if e.kind == "invalid_tool"]
    assert invalid.tool_call_id == "x" and invalid.observation == "lower is not a valid tool, try one of [upper]."
    assert model.requests[1]["messages"][-1] == {
        "role": "tool",
        "tool_call_id": "x",
        "content": "lower is not a valid tool, try one of [upper].",
    }


def test_a_reply_without_tool_calls_is_the_final_answer():
    executor, _ = tool_calling_executor(["just text"], [upper_tool()])
    result, events, _ = run_collecting(executor)
    assert result["output"] == "just text"
    assert kinds(events) == ["chain_start", "llm_start", "llm_end", "agent_finish", "finish_check", "chain_end"]


def test_a_return_direct_tool_ends_the_run_with_its_observation():
    tool = text_tool("upper", lambda text: text.upper(), return_direct=True)
    executor, model = tool_calling_executor([calls(("c1", "upper", {"tool_input": "now"}))], [tool])
    result, _, _ = run_collecting(executor)
    assert result["output"] == "NOW" and len(model.requests) == 1


def test_tool_names_the_api_would_refuse_are_rejected_up_front():
    with pytest.raises(ValueError, match=r"Tool name 'Web Search' cannot be sent as a function name"):
        create_tool_calling_agent(__import__("executor").ScriptedModel([]), [text_tool("Web Search", str)])


def test_a_model_without_the_tool_calling_path_is_refused_with_a_clear_error():
    class TextOnly:
        model_name = "text-only"

        def generate(self, prompt, stop):
            raise AssertionError

    with pytest.raises(TypeError, match="has no generate_messages"):
        create_tool_calling_agent(TextOnly(), [upper_tool()])


def test_old_llm_start_events_without_the_new_fields_still_load():
    event = LLMStartEvent.model_validate(
        {
            "seq": 0,
            "run_id": "r",
            "t": 0.0,
            "iteration": 1,
            "frames": ["plan"],
            "source": {"file": "f", "line": 1, "function": "plan"},
            "model": "m",
            "prompt": "p",
            "stop": [],
        }
    )
    assert event.messages is None and event.tools is None


def test_a_tool_with_its_own_args_schema_gets_validated_fields_and_sends_that_schema():
    from pydantic import BaseModel

    from executor.tools.schema import ToolArgumentsError, parse_tool_arguments, tool_spec

    class Trip(BaseModel):
        city: str
        days: int = 1

    class City(BaseModel):
        city: str

    tool = text_tool("trip", str)
    tool.args_schema = Trip  # what a tool built with an args_schema carries
    assert parse_tool_arguments(tool, '{"city": "Rome", "days": "3"}') == {"city": "Rome", "days": 3}
    with pytest.raises(ToolArgumentsError, match=r"\(days: Input should be a valid integer"):
        parse_tool_arguments(tool, '{"city": "Rome", "days": "many"}')
    assert tool_spec(tool)["function"]["parameters"]["required"] == ["city"]
    tool.args_schema = City  # one string field: the tool gets the string, as a ReAct Action Input
    assert parse_tool_arguments(tool, '{"city": "Rome"}') == "Rome"
    tool.openai_tool = lambda: {"type": "function", "function": {"name": "trip", "parameters": {}}}
    assert tool_spec(tool)["function"]["parameters"] == {}  # the tool's own spec wins
