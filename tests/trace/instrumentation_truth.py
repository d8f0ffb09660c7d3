"""What an imported instrumentation recording must equal: the ground truth its local server logged (tests/data/instrumentations)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tracer.trace.importers import convert

DATA = Path(__file__).resolve().parents[1] / "data" / "instrumentations"


def sent(message: dict[str, Any]) -> dict[str, Any]:
    """A message as the server received it, in the shape loopscope's llm_start holds (role, content,
    tool_calls, tool_call_id; a LangChain assistant message's `name` is no field of that shape)."""
    kept: dict[str, Any] = {"role": message["role"], "content": message.get("content") or ""}
    if message.get("tool_calls"):
        kept["tool_calls"] = [
            {
                "id": c["id"],
                "type": "function",
                "function": {"name": c["function"]["name"], "arguments": c["function"]["arguments"]},
            }
            for c in message["tool_calls"]
        ]
    if message.get("tool_call_id"):
        kept["tool_call_id"] = message["tool_call_id"]
    return kept


@dataclass
class Compared:
    """How much of a recording was compared (every comparison asserted equal)."""

    model_calls: int = 0
    messages: int = 0
    tool_calls: int = 0
    tool_results: int = 0


def assert_message_exact(name: str, tools_recorded: bool = True, recording: Path | None = None) -> Compared:
    """Import NAME.otlp.json (or `recording`, made from it) with loopscope's importer and assert every
    model call's messages, tools offered, reply text and tool calls, and every tool run's call, input
    and result, equal what the server received and answered."""
    truth = json.loads((DATA / f"{name}.truth.json").read_text(encoding="utf-8"))
    events = convert(recording or DATA / f"{name}.otlp.json").events
    starts = [e for e in events if e.kind == "llm_start"]
    ends = [e for e in events if e.kind == "llm_end"]
    assert len(starts) == len(ends) == len(truth), (len(starts), len(ends), len(truth))
    compared = Compared(model_calls=len(truth))
    for number, (start, end, call) in enumerate(zip(starts, ends, truth, strict=True)):
        expected = [sent(m) for m in call["received"]["messages"]]
        assert start.messages == expected, f"model call {number}: messages"
        compared.messages += len(expected)
        assert start.tools == (call["received"]["tools"] if tools_recorded else None), f"model call {number}: tools"
        assert end.text == call["answered"]["content"], f"model call {number}: reply text"
        assert [(c.id, c.name, c.arguments) for c in end.tool_calls or ()] == [
            (c["id"], c["name"], c["arguments"]) for c in call["answered"]["tool_calls"]
        ], f"model call {number}: tool calls"
    # Each tool run: the call it answers (id, name, the arguments the model wrote), and its result as the
    # next request carried it back to the model. Parallel calls are paired by id, not by finishing order.
    asked = {c["id"]: c for call in truth for c in call["answered"]["tool_calls"]}
    returned = {
        m["tool_call_id"]: m["content"] for call in truth for m in call["received"]["messages"] if m["role"] == "tool"
    }
    tool_starts = {e.tool_call_id: e for e in events if e.kind == "tool_start"}
    tool_ends = {e.tool_call_id: e for e in events if e.kind == "tool_end"}
    assert sorted(tool_starts, key=str) == sorted(asked) == sorted(tool_ends, key=str)
    for call_id, call in asked.items():
        assert (tool_starts[call_id].tool, tool_starts[call_id].tool_input) == (call["name"], call["arguments"])
        assert (tool_ends[call_id].tool, tool_ends[call_id].observation) == (call["name"], returned[call_id])
    compared.tool_calls, compared.tool_results = len(asked), len(returned)
    return compared
