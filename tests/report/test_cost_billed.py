"""Cost as the provider bills it: cached prompt tokens, tokens written to the cache and reasoning tokens read
from the usage each provider records, priced at their own rates, and summed the same way in `runs`.

The usages are the providers' own response shapes: OpenAI's CompletionUsage (openai-python: prompt_tokens
counts the cached tokens, completion_tokens the reasoning ones; the numbers are those of OpenAI's prompt
caching guide), Anthropic's Usage (anthropic-sdk-python's recorded responses: input_tokens leaves out the
cache; the numbers are those of Anthropic's prompt caching guide, a book written to the cache, then read)."""

from __future__ import annotations

import json

import pytest

from tracer.report.cost.prices import CostTotal, PriceTable, PriceTableError, call_costs
from tracer.runs.aggregates import by_model
from tracer.runs.run_row import priced
from tracer.runs.summary import summarise
from tracer.trace.importers import convert, write_conversion

PRICES = PriceTable.load()

OPENAI_USAGE = {
    "prompt_tokens": 2006,
    "completion_tokens": 300,
    "total_tokens": 2306,
    "prompt_tokens_details": {"audio_tokens": 0, "cached_tokens": 1920},
    "completion_tokens_details": {
        "accepted_prediction_tokens": 0,
        "audio_tokens": 0,
        "reasoning_tokens": 192,
        "rejected_prediction_tokens": 0,
    },
}


def _anthropic_usage(written: int, read: int) -> dict:
    return {
        "input_tokens": 21,
        "cache_creation_input_tokens": written,
        "cache_read_input_tokens": read,
        "cache_creation": {"ephemeral_5m_input_tokens": written, "ephemeral_1h_input_tokens": 0},
        "output_tokens": 393,
        "service_tier": "standard",
    }


# Dollars by hand, at the table's rates (per million): o4-mini 1.10 in, 0.275 cached, 4.40 out (reasoning
# billed as output); claude-sonnet-4 3.00 in, 3.75 written to the cache, 0.30 read from it, 15.00 out.
O4_MINI = (86 * 1.10 + 1920 * 0.275 + 300 * 4.40) / 1e6
SONNET_WRITE = (21 * 3.00 + 188086 * 3.75 + 393 * 15.00) / 1e6
SONNET_READ = (21 * 3.00 + 188086 * 0.30 + 393 * 15.00) / 1e6


def _llm_run(number: int, model: str, outputs_usage: dict, anthropic: bool) -> dict:
    usage_place = {"usage": outputs_usage} if anthropic else {"llm_output": {"token_usage": outputs_usage}}
    return {
        "id": f"r-llm-{number}",
        "name": "ChatAnthropic" if anthropic else "ChatOpenAI",
        "run_type": "llm",
        "start_time": f"2025-02-10T08:00:0{number}.000",
        "end_time": f"2025-02-10T08:00:0{number}.500",
        "parent_run_id": "r-root",
        "trace_id": "7f3a1c52-0000-4000-8000-0000000000aa",
        "dotted_order": f"20250210T080000.000Zr-root.20250210T08000{number}.000Zr-llm-{number}",
        "error": None,
        "extra": {"invocation_params": {"model": model}},
        "inputs": {"messages": [[{"role": "user", "content": "Analyze the major themes."}]]},
        "outputs": {"generations": [[{"text": "Pride, prejudice."}]], **usage_place},
    }


@pytest.fixture
def recorded(tmp_path):
    """A LangSmith export: one o4-mini call, two claude-sonnet-4 calls (the cache written, then read)."""
    root = {
        "id": "r-root",
        "name": "Agent",
        "run_type": "chain",
        "start_time": "2025-02-10T08:00:00.000",
        "end_time": "2025-02-10T08:00:09.000",
        "parent_run_id": None,
        "trace_id": "7f3a1c52-0000-4000-8000-0000000000aa",
        "dotted_order": "20250210T080000.000Zr-root",
        "error": None,
        "inputs": {"input": "Analyze the major themes."},
        "outputs": {"output": "Pride, prejudice."},
    }
    runs = [
        root,
        _llm_run(1, "o4-mini-2025-04-16", OPENAI_USAGE, anthropic=False),
        _llm_run(2, "claude-sonnet-4-20250514", _anthropic_usage(188086, 0), anthropic=True),
        _llm_run(3, "claude-sonnet-4-20250514", _anthropic_usage(0, 188086), anthropic=True),
    ]
    source = tmp_path / "langsmith.json"
    source.write_text(json.dumps(runs))
    conversion = convert(source)
    return conversion, write_conversion(conversion, source, tmp_path / "run.jsonl")


def test_cached_and_reasoning_tokens_are_read_from_openai_and_anthropic_usage(recorded):
    conversion, _path = recorded
    usages = [e.usage for e in conversion.events if e.kind == "llm_end"]
    assert usages == [
        {
            "prompt_tokens": 2006,
            "completion_tokens": 300,
            "total_tokens": 2306,
            "cached_tokens": 1920,
            "reasoning_tokens": 192,
        },
        {"prompt_tokens": 188107, "completion_tokens": 393, "total_tokens": 188500, "cache_creation_tokens": 188086},
        {"prompt_tokens": 188107, "completion_tokens": 393, "total_tokens": 188500, "cached_tokens": 188086},
    ]


def test_each_call_is_priced_as_the_provider_bills_it(recorded):
    conversion, _path = recorded
    calls = call_costs(conversion.events, PRICES)
    assert [c.dollars for c in calls] == pytest.approx([O4_MINI, SONNET_WRITE, SONNET_READ], rel=1e-12)
    assert calls[0].dollars < (2006 * 1.10 + 300 * 4.40) / 1e6  # the cache is cheaper than plain input
    assert "1,920 cached, 192 reasoning" in calls[0].describe()
    total = CostTotal.of(calls)
    assert (total.cached_tokens, total.cache_creation_tokens, total.reasoning_tokens) == (1920 + 188086, 188086, 192)


def test_runs_sums_the_billed_parts_and_their_dollars(recorded):
    _conversion, path = recorded
    row = priced(summarise(str(path), PRICES).row, PRICES)
    assert row.cost == pytest.approx(O4_MINI + SONNET_WRITE + SONNET_READ, rel=1e-12)
    assert (row.cached_tokens, row.cache_creation_tokens, row.reasoning_tokens) == (190006, 188086, 192)
    assert row.to_json()["cached_tokens"] == 190006
    sonnet = next(s for s in by_model([row], PRICES) if s.model.startswith("claude"))
    assert sonnet.cost == pytest.approx(SONNET_WRITE + SONNET_READ, rel=1e-12)


def test_a_model_without_cache_rates_bills_cached_tokens_as_input(tmp_path):
    prices = tmp_path / "prices.toml"
    prices.write_text('[models."o4-mini"]\ninput = 1.0\noutput = 4.0\n')
    price = PriceTable.load(prices).price("o4-mini")
    assert price is not None and price.dollars(2006, 300, cached=1920, reasoning=192) == (2006 * 1.0 + 300 * 4.0) / 1e6
    prices.write_text('[models."o4-mini"]\ninput = 1.0\noutput = 4.0\ncached_input = "cheap"\n')
    with pytest.raises(PriceTableError, match="cached_input must be a number"):
        PriceTable.load(prices)


def test_genai_attributes_and_langfuse_usage_details_name_their_parts(tmp_path):
    from pathlib import Path

    from tests.trace.test_import_conventions import span_file

    attrs = {
        "gen_ai.operation.name": "chat",
        "gen_ai.request.model": "gpt-4.1",
        "gen_ai.usage.input_tokens": 1200,
        "gen_ai.usage.output_tokens": 80,
        "gen_ai.usage.cache_read.input_tokens": 1024,  # counted in input_tokens, as the convention says
    }
    end = next(e for e in convert(span_file(tmp_path, attrs)).events if e.kind == "llm_end")
    assert end.usage == {"prompt_tokens": 1200, "completion_tokens": 80, "total_tokens": 1280, "cached_tokens": 1024}
    # Langfuse's usageDetails from Gemini: total = input + output, so the 1,104 thinking tokens are in `output`.
    gemini = Path(__file__).resolve().parents[1] / "data" / "langfuse" / "google-gemini-2025-08-01.json"
    end = next(e for e in convert(gemini).events if e.kind == "llm_end")
    assert end.usage == {"prompt_tokens": 6, "completion_tokens": 2055, "total_tokens": 2061, "reasoning_tokens": 1104}
