"""`debug --print` of an imported run narrates its model calls: a `── round N` line per round, the replies
that came between them (a partial one said so), and each tool call invoked once, by its id, before its
observation, even where the tool started before the reply that asked for it was over."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from rich.console import Console

from tracer.report.narration.narrator import Narrator
from tracer.trace.importers import convert

LANGFUSE = Path(__file__).resolve().parents[1] / "data" / "langfuse"
SAMPLES = sorted(p.name for p in LANGFUSE.glob("*.json"))


def _narrated(events) -> str:
    out = io.StringIO()
    narrator = Narrator(Console(file=out, width=200, color_system=None, highlight=False))
    for event in events:
        narrator(event)
    return out.getvalue()


def _rounds(events) -> list[int]:
    """The rounds the file holds: the iteration of every model call outside a tool, once each (a call a
    framework and its client instrumentation both recorded is one call)."""
    return sorted({e.iteration for e in events if e.kind == "llm_start" and e.tool_call_id is None})


@pytest.mark.parametrize("name", SAMPLES, ids=lambda n: n.rsplit("-", 3)[0])
def test_every_round_of_an_imported_run_is_narrated_once(name):
    events = convert(LANGFUSE / name).events
    text = _narrated(events)
    said = [int(n) for n in re.findall(r"── round (\d+) · the model is asked ", text)]
    assert said == _rounds(events) and said
    for start in (e for e in events if e.kind == "tool_start" and e.tool_call_id):
        invoked = text.count(f"[{start.tool_call_id}] Invoking: `{start.tool}`")
        assert invoked == 1, (start.tool_call_id, invoked)
        assert text.index(f"[{start.tool_call_id}] Invoking") < text.index(f"[{start.tool_call_id}] Observation")


def test_agno_says_its_four_model_calls_as_two_rounds_and_openai_agents_its_two():
    agno = _narrated(convert(LANGFUSE / "agno-2025-06-11.json").events)
    assert re.findall(r"── round (\d+)", agno) == ["1", "2"]
    assert "None" not in agno.split("── round 1")[1].split("Observation")[0]
    agents = _narrated(convert(LANGFUSE / "openai-agents-2025-09-30.json").events)
    assert re.findall(r"── round (\d+)", agents) == ["1", "2"]


def test_intermediate_replies_are_said_and_a_partial_one_says_so():
    jokes = _narrated(convert(LANGFUSE / "pydantic-ai-tools-2025-12-04.json").events)
    assert "Reply: I gathered some great ideas for a programming joke!" in jokes
    bee = _narrated(convert(LANGFUSE / "beeai-2025-08-01.json").events)
    assert bee.count("(partial: the file holds no reply for this call)") == 2
    assert "Reply: . **Montjuïc**" in bee and "(partial: the file keeps 62 of at least 295 streamed chunks" in bee


def test_a_tool_that_starts_before_its_reply_ends_is_invoked_first_with_its_id():
    """Frameworks that stream (claude-agent-sdk) start a tool while the model's span is still open."""
    events = convert(LANGFUSE / "langgraph-2025-08-22.json").events
    first_round = [e for e in events if e.iteration == 1]
    reply = [e for e in first_round if e.kind in ("llm_end", "agent_action")]
    tools = [e for e in first_round if e.kind in ("tool_start", "tool_end")]
    others = [e for e in events if e.iteration != 1]
    text = _narrated(others[:1] + [e for e in first_round if e.kind == "llm_start"] + tools + reply + others[1:])
    call_id = tools[0].tool_call_id
    assert text.count("Invoking: `Web-Search`") == 1
    assert text.index(f"[{call_id}] Invoking: `Web-Search`") < text.index(f"[{call_id}] Observation")
