"""Langfuse's published framework traces (tests/data/langfuse, see its README) imported with message-level
fidelity: every model call's messages, reply and tool calls, every tool call's name, id, input and output.
What each file holds is read here from the file itself, shape by shape, not through the importer."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tracer.trace.importers import convert, write_conversion
from tracer.trace.reader import load_trace

DATA = Path(__file__).resolve().parents[1] / "data" / "langfuse"


@dataclass
class Call:
    """A model call as the file holds it: the texts of its messages in order, its reply, its tool calls."""

    texts: list[str]
    reply: str
    calls: list[tuple[str, str, Any]] = field(default_factory=list)  # (name, id, arguments as a value)


@dataclass
class ToolRun:
    name: str
    call_id: str | None
    input: Any
    output: str


def _arguments(value: Any) -> Any:
    return json.loads(value) if isinstance(value, str) else value


def _observations(name: str) -> tuple[dict, list[dict]]:
    document = json.loads((DATA / name).read_text())
    return document["trace"], sorted(document["observations"], key=lambda o: o["startTime"])


def _generations(name: str) -> list[dict]:
    return [o for o in _observations(name)[1] if o["type"] == "GENERATION"]


def _chatml(o: dict) -> Call:
    """OpenAI-style messages ({role, content}) in, one assistant message out (LangGraph, Vertex, ag2, Koog...)."""
    texts = [m["content"] for m in o["input"] if isinstance(m.get("content"), str)]
    out = o["output"][0] if isinstance(o["output"], list) else o["output"]
    calls = out.get("tool_calls") or (out.get("additional_kwargs") or {}).get("tool_calls") or []
    found = [(c["function"]["name"], c["id"], _arguments(c["function"]["arguments"])) for c in calls]
    return Call(texts, out["content"] if isinstance(out["content"], str) else "", found)


def _parts(o: dict) -> Call:
    """GenAI `parts` messages (pydantic-ai, Microsoft's agent framework)."""
    kept = {"text": "content", "tool_call_response": "result"}
    texts = [
        p[kept[p["type"]]] if kept[p["type"]] in p else p["response"]
        for m in o["input"]
        for p in m["parts"]
        if p["type"] in kept
    ]
    out = o["output"][0]["parts"]
    calls = [
        (p["name"], "/".join(p["id"]) if isinstance(p["id"], list) else p["id"], p["arguments"])
        for p in out
        if p["type"] == "tool_call"
    ]
    return Call(texts, "".join(p["content"] for p in out if p["type"] == "text"), calls)


def _koog(o: dict) -> Call:
    texts = [m["content"] for m in o["input"] if isinstance(m["content"], str)]
    calls = [
        (c["function"]["name"], c["id"], c["function"]["arguments"])
        for m in o["output"]
        if isinstance(m["content"], list)
        for c in m["content"]
    ]
    return Call(texts, "".join(m["content"] for m in o["output"] if isinstance(m["content"], str)), calls)


def _adk(o: dict) -> Call:
    request = o["input"]
    texts = [request["config"]["system_instruction"]] + [
        p["text"] for content in request["contents"] for p in content["parts"] if "text" in p
    ]
    parts = o["output"]["content"]["parts"]
    calls = [(p["function_call"]["name"], "", p["function_call"]["args"]) for p in parts if "function_call" in p]
    return Call(texts, "".join(p["text"] for p in parts if "text" in p), calls)


def _openai_agents(o: dict) -> Call:
    texts = [o["output"]["instructions"]] + [m["content"] for m in o["input"] if "content" in m]
    texts += [m["output"] for m in o["input"] if m.get("type") == "function_call_output"]
    items = o["output"]["output"]
    calls = [(i["name"], i["call_id"], i["arguments"]) for i in items if i["type"] == "function_call"]
    reply = "".join(c["text"] for i in items if i["type"] == "message" for c in i["content"])
    return Call(texts, reply, calls)


def _agno(o: dict) -> Call:
    if isinstance(o["input"], str):  # the OpenAI instrumentation's call inside Agno's: one prompt text
        outer = next(g for g in _generations("agno-2025-06-11.json") if g["id"] == o["parentObservationId"])
        if o["output"] == "None":  # str(None): the same call's reply asked only for tools
            return Call([o["input"]], "", _agno(outer).calls)
        return Call([o["input"]], o["output"], [])
    # Agno's messages are Python reprs: the system and user texts, their escapes undone by hand.
    found = [re.match(r"role='(system|user)' content='(.*?)' name=", m, re.DOTALL) for m in o["input"]["messages"]]
    texts = [f.group(2).replace("\\n", "\n").replace("\\'", "'") for f in found if f]
    message = o["output"]["choices"][0]["message"]
    calls = [(c["function"]["name"], c["id"], c["function"]["arguments"]) for c in message["tool_calls"] or []]
    return Call(texts, message["content"] or "", calls)


def _plain(o: dict) -> Call:
    """A prompt text (or LlamaIndex's complete(*args)) and a reply text."""
    prompt = o["input"]["args"][0] if isinstance(o["input"], dict) and "args" in o["input"] else o["input"]
    return Call([prompt] if isinstance(prompt, str) else [m["content"] for m in prompt], o["output"], [])


def _gemini(o: dict) -> Call:
    parts = o["output"]["candidates"][0]["content"]["parts"]
    return Call([o["input"]["contents"]], "".join(p["text"] for p in parts), [])


def _pydantic_qa(o: dict) -> Call:
    return Call([m["content"] for m in o["input"]], o["output"]["message"]["content"], [])


def _beeai(o: dict, observations: list[dict]) -> Call:
    attrs = o["metadata"]["attributes"]
    count = len({k.split(".")[2] for k in attrs if k.startswith("llm.input_messages.")})
    texts = [attrs[f"llm.input_messages.{n}.message.content"] for n in range(count)]
    group = o["name"].rsplit("-", 1)[1]
    success = [s for s in observations if s["name"] == f"backend.openai.chat.success-{group}"]
    reply = ""
    if success:  # a streamed reply: one output message per chunk, as many as the file kept
        out = success[0]["metadata"]["attributes"]
        numbers = sorted({int(k.split(".")[2]) for k in out if k.startswith("llm.output_messages.")})
        reply = "".join(out[f"llm.output_messages.{n}.message.content"] for n in numbers)
    return Call(texts, reply, [])


FRAMEWORKS: dict[str, Any] = {
    "ag2-2026-03-09.json": _chatml,
    "agno-2025-06-11.json": _agno,
    "autogen-2025-06-06.json": _plain,
    "beeai-2025-08-01.json": _beeai,
    "google-adk-2025-08-28.json": _adk,
    "google-gemini-2025-08-01.json": _gemini,
    "google-vertex-tools-2025-09-19.json": lambda o: Call(
        [
            t
            for m in o["input"]
            if not isinstance(m["content"], dict)  # a tool definition Langfuse lists as a message
            for t in ([m["content"]] if isinstance(m["content"], str) else [p["text"] for p in m["content"]])
        ],
        o["output"]["content"],
    ),
    "koog-2025-08-26.json": _koog,
    "langgraph-2025-08-22.json": _chatml,
    "llamaindex-2025-06-05.json": _plain,
    "microsoft-agent-2025-10-14.json": _parts,
    "openai-agents-2025-09-30.json": _openai_agents,
    "openai-assistants-2024-05-29.json": _plain,
    "pydantic-ai-tools-2025-12-04.json": _parts,
    "pydantic-ai-trace-2025-06-06.json": _pydantic_qa,
}

# The tool executions each file holds: by type TOOL, or (SPANs) by the name its framework gives them.
TOOL_SPANS = {
    "ag2-2026-03-09.json": {"execute_tool get_weather"},
    "agno-2025-06-11.json": {"duckduckgo_search"},
    "beeai-2025-08-01.json": {"tool.search.wikipedia.start-12"},
    "koog-2025-08-26.json": {"tool.ByeTool", "tool.HelloTool"},
    "langgraph-2025-08-22.json": {"Web-Search"},
}


def _expected_tools(name: str) -> list[ToolRun]:
    _trace, observations = _observations(name)
    runs = []
    asked = []  # (when the reply came, name, id) of every tool call a reply asked for
    for o in observations:
        if o["type"] == "GENERATION" and name in FRAMEWORKS and not name.startswith("beeai"):
            asked += [(o["endTime"] or o["startTime"], n, i) for n, i, _a in FRAMEWORKS[name](o).calls]
    # Tools that start together are shown in the order they end.
    for o in sorted(observations, key=lambda o: (o["startTime"], o["endTime"] or "")):
        if o["type"] != "TOOL" and o["name"] not in TOOL_SPANS.get(name, ()):
            continue
        attrs = (o.get("metadata") or {}).get("attributes") or {}
        tool = attrs.get("gen_ai.tool.name") or attrs.get("tool.name") or o["name"].removeprefix("running tool: ")
        call_id = attrs.get("gen_ai.tool.call.id")
        given, output = o["input"], o["output"]
        if name.startswith("beeai"):  # its input and output sit on the start and success spans
            tool, given = "wikipedia", attrs["tool.parameters"]
            output = next(s for s in observations if s["name"] == "tool.search.wikipedia.success-12")["output"]
        if name.startswith("google-adk"):  # Langfuse kept {} for both: the span's attributes hold them
            given, output = attrs["gcp.vertex.agent.tool_call_args"], attrs["output.value"]
        if isinstance(output, dict) and output.get("type") == "tool":  # a LangChain ToolMessage
            call_id, output = output["tool_call_id"], output["content"]
        if isinstance(call_id, list):
            call_id = "/".join(call_id)
        if call_id is None:  # the span names no call: it ran the earliest call of its name asked for before it
            claim = next((a for a in asked if a[1] == tool and a[0] <= o["startTime"]), None)
            if claim is not None:
                asked.remove(claim)
                call_id = claim[2] or None
        runs.append(
            ToolRun(tool, call_id, given, output if isinstance(output, str) else json.dumps(output, ensure_ascii=False))
        )
    return runs


def _events(name: str, tmp_path):
    conversion = convert(DATA / name)
    events = load_trace(write_conversion(conversion, DATA / name, tmp_path / "imported.jsonl"))[1]
    assert events == conversion.events  # what every command opening the file gets
    return conversion, events


def _text_of(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


@pytest.mark.parametrize("name", sorted(FRAMEWORKS), ids=lambda n: n.rsplit("-", 3)[0])
def test_every_model_call_keeps_its_messages_reply_and_tool_calls(name, tmp_path):
    _conversion, events = _events(name, tmp_path)
    starts = [e for e in events if e.kind == "llm_start"]
    ends = [e for e in events if e.kind == "llm_end"]
    observations = _observations(name)[1]
    generations = [o for o in observations if o["type"] == "GENERATION"]
    if name.startswith("beeai"):  # each call's start, success and finish events are one call
        generations = [o for o in generations if ".start-" in o["name"]]
    assert len(starts) == len(ends) == len(generations)
    for o, start in zip(generations, starts):
        end = next(e for e in ends if e.seq > start.seq and e.frames == start.frames)  # the call's own reply
        expected = _beeai(o, observations) if name.startswith("beeai") else FRAMEWORKS[name](o)
        contents = [m["content"] for m in start.messages] if start.messages is not None else [start.prompt]
        # Every text the file sent is in a message, in the file's order.
        where = [next((i for i, c in enumerate(contents) if t in c), None) for t in expected.texts if t]
        assert None not in where and where == sorted(where), (name, o["id"], where)
        assert end.text == expected.reply
        got = [(c.name, c.id, json.loads(c.arguments)) for c in end.tool_calls or []]
        assert got == [(n, i, _arguments(a)) for n, i, a in expected.calls]
    assert [e.iteration for e in starts] == sorted(e.iteration for e in starts)


def _exactness_faults(start, end) -> list[str]:
    """What keeps one imported model call from being message-exact: a tool message that answers no call an
    earlier assistant message asked for, a reply that is Python's str(None), a reply the file lacks (or
    has only a part of) presented as whole."""
    faults, asked = [], set()
    for message in start.messages or ():
        asked |= {c["id"] for c in message.get("tool_calls") or ()}
        if message["role"] == "tool" and message.get("tool_call_id") not in asked:
            faults.append(f"tool message answering {message.get('tool_call_id')!r}, asked: {sorted(asked)}")
    if end.text == "None":
        faults.append("reply 'None'")
    if not end.text and not end.tool_calls and end.partial is None:
        faults.append("an empty reply not marked partial")
    return faults


def test_all_model_calls_of_the_corpus_are_message_exact(tmp_path):
    """The whole corpus counted: every model call keeps its messages (tool results tied to the calls
    they answer), its reply (never the text 'None'), and says so where the file kept only part of it."""
    total, faulty = 0, []
    for name in sorted(FRAMEWORKS):
        events = convert(DATA / name).events
        for start in (e for e in events if e.kind == "llm_start"):
            end = next(e for e in events if e.kind == "llm_end" and e.seq > start.seq and e.frames == start.frames)
            total += 1
            faulty += [(name, start.seq, fault) for fault in _exactness_faults(start, end)]
    assert total == 29
    assert faulty == []


def test_beeai_replies_the_file_lost_are_marked_partial(tmp_path):
    _conversion, events = _events("beeai-2025-08-01.json", tmp_path)
    ends = [e for e in events if e.kind == "llm_end"]
    assert [e.text for e in ends[:2]] == ["", ""]
    assert all("no reply" in e.partial for e in ends[:2])
    assert ends[2].text.startswith(". **Montju")  # round 3's stream as the file kept it: mid-sentence
    assert "62 of at least 295" in ends[2].partial
    assert all(e.partial is None for e in _events("langgraph-2025-08-22.json", tmp_path)[1] if e.kind == "llm_end")


def test_agno_repr_messages_keep_their_tool_calls_and_call_ids(tmp_path):
    _conversion, events = _events("agno-2025-06-11.json", tmp_path)
    second = [e for e in events if e.kind == "llm_start" and e.messages][1]
    assistant, tool = second.messages[2], second.messages[3]
    assert [c["function"]["name"] for c in assistant["tool_calls"]] == ["duckduckgo_search"]
    assert json.loads(assistant["tool_calls"][0]["function"]["arguments"]) == {"query": "currently trending on Twitter"}
    assert tool["tool_call_id"] == assistant["tool_calls"][0]["id"] == "call_VybxG748CQId8Xxo6wb2pWy1"
    assert tool["content"].startswith('[\n  {\n    "title": "Twitter. It\'s what\'s happening')


@pytest.mark.parametrize(
    "text",
    [
        "role='user' content='a' name=None tool_call_id=None tool_calls=[__import__('os').system('x')] audio=None",
        "role='user' content='a' name=None tool_call_id=None tool_calls=[" + "[" * 5000,
        "role='user' content='it said tool_calls=[1] here' name=None",
    ],
)
def test_an_agno_repr_is_read_as_literals_only(text):
    from tracer.trace.importers.messages import messages_of_item

    [message], _tools = messages_of_item(text)
    assert message["role"] == "user" and "tool_calls" not in message


@pytest.mark.parametrize("name", sorted(FRAMEWORKS), ids=lambda n: n.rsplit("-", 3)[0])
def test_every_tool_call_is_a_tool_start_and_end_with_its_id_input_and_output(name, tmp_path):
    _conversion, events = _events(name, tmp_path)
    starts = [e for e in events if e.kind == "tool_start"]
    ends = [e for e in events if e.kind in ("tool_end", "tool_error")]
    expected = _expected_tools(name)
    assert [(e.tool, e.tool_call_id) for e in starts] == [(r.name, r.call_id or None) for r in expected]
    assert [e.tool_input for e in starts] == [_text_of(r.input) for r in expected]
    assert [e.observation for e in ends] == [r.output for r in expected]
    for start in starts:  # a tool call runs in the round of the reply that asked for it
        asking = [e for e in events if e.kind == "llm_end" and start.tool_call_id in {c.id for c in e.tool_calls or ()}]
        assert not asking or (asking[0].iteration == start.iteration and asking[0].seq < start.seq)


def test_langgraph_offers_its_tools_as_tools_not_messages(tmp_path):
    _conversion, events = _events("langgraph-2025-08-22.json", tmp_path)
    first = next(e for e in events if e.kind == "llm_start")
    assert [t["function"]["name"] for t in first.tools] == ["Web-Search"]
    assert [m["role"] for m in first.messages] == ["user", "user"]  # the tool definition is no `tool` message
    second = [e for e in events if e.kind == "llm_start"][1]
    assert [m["role"] for m in second.messages] == ["user", "user", "assistant", "tool"]
    assert (
        second.messages[2]["tool_calls"][0]["id"]
        == second.messages[3]["tool_call_id"]
        == "call_1oGK863sxQHlPreFhDdEs3yl"
    )
    assert [e.kind for e in events if e.iteration == 1] == [
        "llm_start",
        "llm_end",
        "agent_action",
        "tool_start",
        "tool_end",
    ]


def test_the_traces_input_output_session_user_tags_and_scores_are_kept(tmp_path):
    _conversion, events = _events("google-adk-2025-08-28.json", tmp_path)
    trace, _ = _observations("google-adk-2025-08-28.json")
    start, end = events[0], events[-1]
    assert start.inputs == json.loads(json.loads(trace["input"]))
    assert end.outputs == json.loads(json.loads(trace["output"]))
    assert start.origin["trace_id"] == trace["id"] and start.origin["session_id"] == trace["sessionId"]
    assert start.origin["user_id"] == trace["userId"]
    assert [s["name"] for s in end.origin["scores"]] == [s["name"] for s in trace["scores"]]
    assert [s["value"] for s in end.origin["scores"]] == [s["value"] for s in trace["scores"]]
    tagged, _ = _events("ag2-2026-03-09.json", tmp_path)
    assert tagged.events[0].origin["tags"] == ["ag2", "multi-agent", "tool-use"]


def test_spans_that_are_neither_model_nor_tool_calls_are_counted_in_one_line(tmp_path):
    conversion = _events("langgraph-2025-08-22.json", tmp_path)[0]
    assert conversion.plain_frames == (
        "5 span(s) kept as plain frames, neither a model nor a tool call (their own inputs and outputs are "
        "not in the events): agent ×2, should_continue ×2, tools"
    )
    assert "\n" not in conversion.plain_frames
