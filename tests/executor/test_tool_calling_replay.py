"""A tool-calling recording holds everything a replay needs: its llm_end events answer a re-run."""

import json

from pydantic import BaseModel

from executor import ContextBudget, ScriptedModel, reply_from_llm_end
from executor.events import event_from_json
from tests.helpers.loop_builders import run_collecting
from tests.helpers.tool_calling_builders import calls, text_tool, tool_calling_executor


class Answer(BaseModel):
    cities: list[str]


def comparable(event):
    data = event.model_dump(mode="json")
    data.pop("t")
    data.pop("run_id")
    return data


def test_replaying_the_recorded_replies_gives_the_same_events():
    replies = [
        calls(("a", "upper", {"tool_input": "paris"}), ("b", "upper", '{"tool_input": 3}')),
        calls(("c", "upper", {"tool_input": "rome"})),
        "S",
        "not json",
        "S2",
        '{"cities": ["PARIS", "ROME"]}',
    ]
    settings = {
        "agent_settings": {"context_budget": ContextBudget(context_window=5, strategy="summarize")},
        "response_format": Answer,
        "handle_parsing_errors": True,
        "max_concurrency": 1,
    }
    tools = [text_tool("upper", str.upper)]
    executor, _ = tool_calling_executor(replies, tools, **settings)
    result, events, error = run_collecting(executor)
    assert error is None and result["output"] == Answer(cities=["PARIS", "ROME"])
    recorded = [event_from_json(json.dumps(event.model_dump(mode="json"))) for event in events]
    replayed_replies = [reply_from_llm_end(e) for e in recorded if e.kind == "llm_end"]
    first_ids = [r.tool_calls[0].id if r.tool_calls else None for r in replayed_replies]
    assert first_ids == ["a", "c", None, None, None, None]
    executor, model = tool_calling_executor(replayed_replies, tools, **settings)
    assert isinstance(model, ScriptedModel)
    _, replay_events, error = run_collecting(executor)
    assert error is None
    assert [comparable(e) for e in replay_events] == [comparable(e) for e in recorded]
    kinds = {e.kind for e in recorded}
    assert {"summarized", "parse_error", "tool_error"} <= kinds
