"""The incremental token counter gives estimate_tokens' number for every text, whatever was counted before."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from tests.runs.conftest import SHIPPED
from tracer.report.cost.tokens import estimate_tokens
from tracer.runs.token_counter import TokenCounter
from tracer.trace.reader import TraceFile

PIECES = st.sampled_from(["Action", ": ", "Search", "\n", "玫瑰花", "价格", "25", "*", "1.05", "_x", "é", " ", "Obs"])


@given(st.lists(st.lists(PIECES, max_size=8), min_size=1, max_size=12))
def test_growing_texts_count_as_estimate_tokens_counts_them_whole(appended):
    counter, text = TokenCounter(), ""
    for pieces in appended:
        text += "".join(pieces)  # a join may fall inside a word ("Obs" + "Search"): counted whole then
        assert counter(text) == estimate_tokens(text)


@given(st.lists(st.text(max_size=30), max_size=20))
def test_unrelated_texts_count_as_estimate_tokens_counts_them(texts):
    counter = TokenCounter()
    assert [counter(text) for text in texts] == [estimate_tokens(text) for text in texts]


def test_every_prompt_and_reply_of_the_fixtures_counts_the_same():
    for path in SHIPPED:
        counter = TokenCounter()
        with TraceFile(path) as trace:
            for event in trace:
                text = getattr(event, "prompt", None) or getattr(event, "text", None)
                if isinstance(text, str):
                    assert counter(text) == estimate_tokens(text), (path.name, event.seq)


def test_a_prompt_that_extends_an_earlier_one_counts_only_the_tail_again(monkeypatch):
    counted: list[str] = []
    real = estimate_tokens
    monkeypatch.setattr("tracer.runs.token_counter.estimate_tokens", lambda text: counted.append(text) or real(text))
    counter = TokenCounter()
    head = "Answer the question. " * 200
    counter(head)
    counter(head + "Thought: search.")
    assert counted == [head, "Thought: search."]
