"""OpenInference's LangChain instrumentation (a LangChain 1.x create_agent agent, two parallel tool calls)
opens message-exact against what the local server received and answered (tests/data/instrumentations)."""

from __future__ import annotations

from tests.trace.instrumentation_truth import DATA, Compared, assert_message_exact
from tracer.trace.importers import convert


def test_openinference_langchain_create_agent_opens_message_exact():
    # The tool spans record only the argument's value ("Paris") and a ToolMessage dump as the output:
    # the import shows the model's arguments and the message's content, as the server saw them.
    assert assert_message_exact("openinference-langchain") == Compared(
        model_calls=2, messages=7, tool_calls=2, tool_results=2
    )


def test_a_tool_span_saying_other_arguments_than_the_models_call_keeps_its_own(tmp_path):
    # The model's arguments stand in only for the same arguments in another form: a tool that was
    # given something else (a framework rewrote the input) shows what it was given.
    recording = (DATA / "openinference-langchain.otlp.json").read_text(encoding="utf-8")
    assert recording.count('"stringValue": "Paris"') == 1  # the Paris tool span's input.value
    changed = tmp_path / "rewritten.json"
    changed.write_text(recording.replace('"stringValue": "Paris"', '"stringValue": "Lyon"'), encoding="utf-8")
    starts = {e.tool_call_id: e.tool_input for e in convert(changed).events if e.kind == "tool_start"}
    assert starts == {"call_paris": "Lyon", "call_oslo": '{"city": "Oslo"}'}
