"""The narrator and ledger tell a tool-calling run: calls tagged by id, the summary call not a plan round."""

import io

from rich.console import Console

from tests.helpers.paths import FIXTURES
from tracer.report.narration.ledger import Ledger
from tracer.report.narration.narrator import Narrator, reply_text
from tracer.trace.reader import load_trace


def narrate(name):
    events = load_trace(FIXTURES / name)[1]
    out = io.StringIO()
    narrator = Narrator(Console(file=out, width=200, color_system=None))
    for event in events:
        narrator(event)
    return events, out.getvalue()


def test_each_concurrent_call_is_tagged_with_its_id():
    events, text = narrate("parallel_tools.jsonl")
    assert text.count("── round ") == 2
    assert "[call_gz] Tool error in get_weather (handled, becomes the observation)" in text
    assert "[call_sh] Observation: Shanghai: light rain" in text
    ledger = Ledger.of(events)
    assert (ledger.plan_calls, ledger.tool_calls, ledger.multi_call_replies, ledger.model_calls) == (2, 3, 1, 2)
    assert reply_text(events[2]).splitlines()[0] == '-> get_weather({"city": "Beijing"}) id=call_bj'


def test_the_summary_call_is_not_a_plan_round():
    events, text = narrate("context_budget_summarize.jsonl")
    assert text.count("── round ") == 4
    assert "a summary call asks scripted" in text and "Summarized: 4 messages replaced by one summary" in text
    ledger = Ledger.of(events)
    assert (ledger.plan_calls, ledger.model_calls, ledger.summaries) == (4, 5, 1)
    _, trimmed = narrate("context_budget_trim.jsonl")
    assert "Context trimmed (max_tokens): 8 → 6 messages, 499 → 350 tokens; dropped the 2 oldest" in trimmed


def test_an_mcp_tool_call_is_told_between_the_action_and_the_observation():
    events, text = narrate("mcp_search.jsonl")
    lines = text.splitlines()
    request = next(at for at, line in enumerate(lines) if "↳ MCP tools/call #3 to " in line)
    assert "the server answered #3: 1 content block(s), 1,037 bytes" in lines[request + 1]
    assert "probed with JSONPath: $.data.pages matched" in lines[request + 2]
    assert lines[request + 3].startswith("Observation: ")
    assert text.count("↳ MCP tools/call") == sum(event.kind == "mcp_request" for event in events) == 2


def test_an_mcp_failure_a_miss_and_a_hostile_server_name_are_told_literally():
    events = load_trace(FIXTURES / "mcp_search.jsonl")[1]
    request = next(event for event in events if event.kind == "mcp_request")
    result = next(event for event in events if event.kind == "mcp_result")
    extract = next(event for event in events if event.kind == "mcp_extract")
    out = io.StringIO()
    narrator = Narrator(Console(file=out, width=200, color_system=None))
    narrator(request.model_copy(update={"server": "evil\x1b[2J[bold]server[/bold]"}))
    narrator(result.model_copy(update={"is_error": True}))
    narrator(extract.model_copy(update={"matched": None, "paths": ["$.pages", "$.data.pages"]}))
    text = out.getvalue()
    assert "\x1b" not in text and "[bold]server[/bold]" in text  # shown, not obeyed
    assert "isError: the tool ran and failed" in text
    assert "no JSONPath matched (tried $.pages, $.data.pages): the call fails with the answer's outline" in text
