"""Tokens and dollars per model call: recorded usage wins, the counter estimates, the price table prices."""

from __future__ import annotations

import pytest

from executor.events import LLMEndEvent, LLMStartEvent, SourceRef
from tests.helpers.paths import FIXTURES
from tracer.report.cost.prices import ENV_PRICES, PriceTable, PriceTableError, call_costs
from tracer.report.cost.tokens import estimate_tokens
from tracer.report.narration.ledger import Ledger
from tracer.trace.reader import TraceFile

SOURCE = SourceRef(file="executor/models/chat_model.py", line=1, function="call_model")


def _call(model: str, prompt: str, reply: str, usage=None, iteration: int = 1):
    envelope = {"run_id": "r", "t": 0.0, "iteration": iteration, "frames": ("plan",), "source": SOURCE}
    return [
        LLMStartEvent(seq=0, model=model, prompt=prompt, stop=[], **envelope),
        LLMEndEvent(seq=1, text=reply, usage=usage, duration=0.1, **envelope),
    ]


def test_the_counter_counts_words_by_four_characters_and_cjk_one_by_one():
    assert estimate_tokens("") == 0
    assert estimate_tokens("Action: Search") == 2 + 1 + 2  # "Action", ":", "Search"
    assert estimate_tokens("玫瑰花") == 3
    assert estimate_tokens("a" * 40) == 10
    assert estimate_tokens("25 * 1.05") == 5


def test_recorded_usage_wins_over_the_estimate():
    (call,) = call_costs(
        _call("gpt-4o", "x " * 100, "y", usage={"prompt_tokens": 7, "completion_tokens": 3, "total_tokens": 10}),
        PriceTable.load(),
    )
    assert (call.prompt_tokens, call.completion_tokens, call.estimated) == (7, 3, False)
    assert call.dollars == pytest.approx((7 * 2.50 + 3 * 10.00) / 1e6)
    assert "from the endpoint's usage" in call.describe()


def test_missing_usage_is_estimated_and_says_so():
    (call,) = call_costs(_call("gpt-4o-mini", "hello world", "ok"), PriceTable.load())
    assert call.estimated and call.prompt_tokens == estimate_tokens("hello world")
    assert "estimated" in call.describe()


def test_dated_model_names_take_the_longest_matching_entry():
    prices = PriceTable.load()
    assert prices.price("gpt-4o-mini-2024-07-18").entry == "gpt-4o-mini"
    assert prices.price("gpt-4o-2024-08-06").entry == "gpt-4o"
    assert prices.price("openai:gpt-4.1-nano").entry == "gpt-4.1-nano"
    assert prices.price("gpt-4o-minimal") is None and prices.price("llama3") is None


def test_unpriced_models_say_how_to_price_them():
    (call,) = call_costs(_call("llama3", "p", "r"), PriceTable.load())
    assert call.dollars is None and ENV_PRICES in call.describe()


def test_an_override_file_prices_new_models_and_replaces_shipped_ones(tmp_path, monkeypatch):
    path = tmp_path / "prices.toml"
    path.write_text('[models."llama3"]\ninput = 1.0\noutput = 2.0\n[models."gpt-4o"]\ninput = 0\noutput = 0\n')
    prices = PriceTable.load(path)
    assert prices.price("llama3").input == 1.0
    assert prices.price("gpt-4o").output == 0
    assert prices.price("gpt-4o-mini").input == 0.15


def test_the_users_prices_variable_is_read_by_the_command_not_by_the_table(tmp_path, monkeypatch):
    from tracer.cli.options import price_table

    path = tmp_path / "prices.toml"
    path.write_text('[models."llama3"]\ninput = 1.0\noutput = 2.0\n')
    monkeypatch.setenv(ENV_PRICES, str(path))
    assert PriceTable.load().price("llama3") is None  # below cli/, only what is handed down counts
    assert price_table(None).price("llama3").input == 1.0  # the command reads the user's variable
    other = tmp_path / "other.toml"
    other.write_text('[models."llama3"]\ninput = 5.0\noutput = 6.0\n')
    assert price_table(other).price("llama3").input == 5.0  # --prices wins over the variable


def test_a_malformed_override_is_one_clear_error(tmp_path):
    path = tmp_path / "prices.toml"
    path.write_text('[models."llama3"]\ninput = "cheap"\n')
    with pytest.raises(PriceTableError, match=r"llama3.*needs numbers input and output"):
        PriceTable.load(path)
    path.write_text("not toml [")
    with pytest.raises(PriceTableError, match="price file"):
        PriceTable.load(path)


def test_the_rose_ledger_shows_tokens_and_cost_per_iteration_and_says_it_is_an_estimate():
    with TraceFile(FIXTURES / "rose_pricing.jsonl") as trace:
        events = list(trace)
    ledger = Ledger.of(events)
    lines = "\n".join(ledger.lines())
    assert len(ledger.calls) == 4 and all(call.estimated for call in ledger.calls)
    assert [c.iteration for c in ledger.calls] == [1, 2, 2, 3]  # the calculator's call is in round 2
    for n in (1, 2, 3):
        assert f"tokens, iteration {n}" in lines
    total = sum(c.dollars for c in ledger.calls)
    assert f"${total:.6f} (est.)" in lines and "priced as gpt-4o-mini" in lines
    assert "reported no usage" in lines


def test_a_fallback_that_answered_is_the_model_billed():
    start, end = _call("gpt-4o", "p", "r", usage={"prompt_tokens": 1000, "completion_tokens": 0})
    end = end.model_copy(update={"answered_by": "gpt-4o-mini"})
    (call,) = call_costs([start, end], PriceTable.load())
    assert call.model == "gpt-4o-mini" and call.dollars == pytest.approx(1000 * 0.15 / 1e6)


def test_the_code_point_token_count_matches_the_regex_it_replaced():
    """estimate_tokens tells CJK by code point (a wide regex class was slow to compile); same counts."""
    import math
    import random
    import re

    cjk = "[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff\uac00-\ud7af]"
    pieces, single = re.compile(cjk + r"|[^\W_]+|\S"), re.compile(cjk)

    def by_regex(text: str) -> int:
        return sum(1 if len(p) == 1 or single.match(p) else math.ceil(len(p) / 4) for p in pieces.findall(text))

    rng = random.Random(5)
    alphabet = "ab Z9_-:,.\n玫瑰花ひらカナ・゠한글\u3000é\uff01\u2014"
    for _ in range(20_000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 30)))
        assert estimate_tokens(text) == by_regex(text), text
