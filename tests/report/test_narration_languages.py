"""The narrator and the ledger in either language: our words from the catalogue, LangChain's lines as it prints them."""

import io
import re

from rich.cells import cell_len
from rich.console import Console

from tests.helpers.paths import FIXTURES
from tracer.report.cost.prices import CallCost, Price
from tracer.report.narration.ledger import LABEL_CELLS, Ledger
from tracer.report.narration.narrator import Narrator
from tracer.report.text.literal import literal
from tracer.report.text.styled_message import styled
from tracer.trace.reader import load_trace


def narrated(name: str, lang: str) -> str:
    buffer = io.StringIO()
    narrator = Narrator(Console(file=buffer, width=200, color_system=None), lang=lang)
    for event in load_trace(FIXTURES / name)[1]:
        narrator(event)
    return buffer.getvalue()


def test_a_chinese_narration_says_our_words_in_chinese_and_langchains_as_printed():
    out = narrated("fallback_rules.jsonl", "zh")
    assert "── 第 1 轮 · plan() 去问 primary ──" in out
    assert "连续失败 3 次后降级为规则：规则 weather → get_weather('Hangzhou')" in out
    assert "> Entering new AgentExecutor chain..." in out and "> Finished chain." in out
    for english in ("round ", "breaker OPEN", "fallback:", "Degraded", "Output:", "Question:"):
        assert english not in out, english


def test_the_english_narration_is_unchanged_by_the_catalogue():
    out = narrated("fallback_rules.jsonl", "en")
    assert "  breaker OPEN for primary (3 failures in 60s; no calls for 30s): ServerError: HTTP 500" in out
    assert "  fallback: primary refused unsent by its open breaker; asking backup the same prompt" in out
    assert not re.search(r"[\u4e00-\u9fff]", out)


def test_text_from_a_run_fills_a_message_as_it_is_never_as_a_template_or_markup():
    said = styled("narration.question", "zh", "dim", question=literal("{answer} [bold]x[/bold] \x1b[2J"))
    assert said.plain == "问题：{answer} [bold]x[/bold] ␛[2J"
    assert [span.style for span in said.spans] == ["dim"]  # the question keeps no style of the words


def test_the_ledger_lines_up_its_counts_in_chinese_by_cells_and_keeps_its_english_outcome():
    ledger = Ledger.of(load_trace(FIXTURES / "fallback_rules.jsonl")[1])
    assert ledger.outcome == "finished" and ledger.degraded_by == "rule 'weather'"
    rows = ledger.lines("zh")
    assert "降级为规则" + " " * (LABEL_CELLS - cell_len("降级为规则")) + "规则 'weather'" in rows
    assert rows[-1] == "结果" + " " * (LABEL_CELLS - 4) + "已完成"
    assert ledger.lines()[-1] == "outcome                      finished"


def test_a_calls_bill_in_either_language_says_why_it_has_no_price_or_what_it_was_priced_as():
    unpriced = CallCost(1, 2, 1, "m[x]", 1234, 56, True, None)
    assert unpriced.describe() == (
        "1,234 prompt + 56 completion tokens, estimated (no usage recorded) · no price"
        " (no price for 'm[x]': add it to a LOOPSCOPE_PRICES file)"
    )
    assert unpriced.describe("zh") == (
        "提示词 1,234 + 补全 56 个 token，估算（没有记录 usage） · 没有价格（'m[x]' 没有价格：把它加进 LOOPSCOPE_PRICES 文件）"
    )
    free = CallCost(1, 2, 1, "scripted", 10, 5, False, Price(0.15, 0.6, "gpt-4o-mini", priced_as="scripted"))
    assert free.describe("zh").endswith("（估算：scripted 不收费，按 gpt-4o-mini 的价格计）")
    assert "from the endpoint's usage · $0.000005 (an estimate: scripted" in free.describe()
