"""The HTML report: trace text is text, never markup or script; nothing loads from anywhere; secrets stay redacted."""

from __future__ import annotations

import base64
import hashlib
import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from tests.helpers.paths import FIXTURES
from tracer.report.html import trace_page as html_trace
from tracer.report.html.events import SUMMARY_CHARS, summary
from tracer.report.html.page import SCRIPT
from tracer.report.html.trace_page import trace_page
from tracer.trace.reader import load_trace

PLANTED = [
    "<script>window.pwned = 1</script>",
    "</textarea><img src=x onerror=alert(1)>",
    "javascript:alert(document.cookie)",
    '" onmouseover="alert(2)" x="',
    '</details></dd></dl><a href="javascript:alert(3)">click</a>',
    "<style>body{background:url(https://evil.example/x)}</style>",
]
HOSTILE = " ".join(PLANTED)


class Page(HTMLParser):
    """Every element, its attributes, and the text, as a browser would parse them."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.elements: list[tuple[str, dict[str, str | None]]] = []
        self.scripts: list[str] = []
        self.text: list[str] = []
        self._in: str | None = None

    def handle_starttag(self, tag, attrs):
        self.elements.append((tag, dict(attrs)))
        self._in = tag
        if tag == "script":
            self.scripts.append("")

    def handle_startendtag(self, tag, attrs):
        self.elements.append((tag, dict(attrs)))

    def handle_endtag(self, tag):
        self._in = None

    def handle_data(self, data):
        if self._in == "script":
            self.scripts[-1] += data
        else:
            self.text.append(data)

    def details(self) -> dict:
        """The data block's event details, each line resolved to (label, text, linked event, words)."""
        scripts = [attributes for tag, attributes in self.elements if tag == "script"]
        blocks = [n for n, attributes in enumerate(scripts) if attributes.get("type") == "application/json"]
        assert len(blocks) == 1 and scripts[blocks[0]].get("class") == "ev-data"
        found = json.loads(self.scripts[blocks[0]])
        strings = found["s"]
        return {
            anchor: [(strings[e[0]], strings[e[1]], *(e[2:3]), *(strings[w] for w in e[3:4])) for e in entries]
            for anchor, entries in found["e"].items()
        }


def parsed(text: str) -> Page:
    page = Page()
    page.feed(text)
    page.close()
    return page


def hostile_trace(tmp_path: Path) -> Path:
    """The parallel-tools run with the planted text in a tool's output, the model's reply, a tool name,
    a call id, an error message and the question."""
    header, *lines = (FIXTURES / "parallel_tools.jsonl").read_text(encoding="utf-8").splitlines()
    events = [json.loads(line) for line in lines]
    for event in events:
        if event["kind"] == "tool_end":
            event["observation"] = HOSTILE
        if event["kind"] == "llm_end":
            event["text"] = HOSTILE
        if event["kind"] == "tool_error":
            event["message"] = HOSTILE
        if event["kind"] in ("tool_start", "tool_end", "tool_error", "agent_action"):
            event["tool"] = HOSTILE
        if event.get("tool_call_id") == "call_gz":
            event["tool_call_id"] = "javascript:alert(4)"
        if event["kind"] == "chain_start":
            event["inputs"] = {"input": HOSTILE}
    path = tmp_path / "hostile.jsonl"
    path.write_text("\n".join([header, *(json.dumps(e, ensure_ascii=False) for e in events)]) + "\n", encoding="utf-8")
    return path


def test_planted_markup_and_script_are_shown_as_text_and_none_of_it_is_live(tmp_path):
    text = trace_page(hostile_trace(tmp_path))
    page = parsed(text)
    tags = [tag for tag, _ in page.elements]
    # Two script elements, both ours: the script (by the policy's hash) and the details' data block,
    # which no browser runs and in which no <, > or & from the trace is left to end it.
    scripts = [attributes for tag, attributes in page.elements if tag == "script"]
    assert scripts == [{"type": "application/json", "class": "ev-data"}, {}]
    assert page.scripts[1] == SCRIPT and not re.search("[<>&]", page.scripts[0])
    assert not {"img", "textarea", "iframe", "object", "embed", "form", "base", "link"} & set(tags)
    assert tags.count("style") == 1  # ours
    for tag, attributes in page.elements:
        assert not [name for name in attributes if name.startswith("on")], (tag, attributes)
        for name in ("href", "src", "action", "formaction", "xlink:href"):
            value = (attributes.get(name) or "").strip().lower()
            assert not value.startswith("javascript:"), (tag, attributes)
        href = attributes.get("href")
        assert href is None or re.fullmatch(r"#[ab-]*e\d+", href), href  # links go to events on this page
        assert "src" not in attributes
    lines = "".join(page.text)  # the timeline's lines
    details = "".join(str(part) for entries in page.details().values() for entry in entries for part in entry)
    for planted in PLANTED:
        assert planted in lines or planted[: SUMMARY_CHARS // 2] in lines  # shown to the reader, literally
        assert planted in details
    assert "javascript:alert(4)" in details


def test_the_policy_forbids_every_fetch_and_lets_only_our_script_run():
    page = parsed(trace_page(FIXTURES / "rose_pricing.jsonl"))
    metas = [a for tag, a in page.elements if tag == "meta" and a.get("http-equiv") == "Content-Security-Policy"]
    assert len(metas) == 1
    policy = dict(part.strip().split(" ", 1) for part in (metas[0]["content"] or "").split(";"))
    assert policy["default-src"] == "'none'" and policy["base-uri"] == "'none'" and policy["form-action"] == "'none'"
    digest = base64.b64encode(hashlib.sha256(SCRIPT.encode()).digest()).decode()
    assert policy["script-src"] == f"'sha256-{digest}'"
    assert "connect-src" not in policy and "font-src" not in policy  # so default-src 'none' holds for them
    assert "http" not in (metas[0]["content"] or "")
    # no resource from another host anywhere in the page
    assert not re.search(r"(src|href)\s*=\s*[\"']?(https?:)?//", trace_page(FIXTURES / "rose_pricing.jsonl"))


def test_secrets_in_a_trace_are_redacted_on_the_page(tmp_path, monkeypatch):
    secret = "sk-proj-" + "Ab3" * 16
    monkeypatch.setenv("OPENAI_API_KEY", secret)
    header, *lines = (FIXTURES / "rose_pricing.jsonl").read_text(encoding="utf-8").splitlines()
    events = [json.loads(line) for line in lines]
    next(e for e in events if e["kind"] == "tool_end")["observation"] = f"the key is {secret}"
    path = tmp_path / "leaky.jsonl"
    path.write_text("\n".join([header, *(json.dumps(e, ensure_ascii=False) for e in events)]) + "\n", encoding="utf-8")
    text = trace_page(path)
    assert secret not in text and "the key is [REDACTED:" in text


def test_the_page_has_the_timeline_each_events_detail_prompts_replies_and_costs():
    page = parsed(trace_page(FIXTURES / "rose_pricing.jsonl"))
    details = [a["id"] for tag, a in page.elements if tag == "details"]
    assert details == [f"e{n}" for n in range(23)]  # every event of the run
    drawn = page.details()
    assert list(drawn) == details
    fields = {anchor: {entry[0]: entry for entry in entries} for anchor, entries in drawn.items()}
    assert "Action: Search" in fields["e2"]["text"][1]  # a reply
    assert "Question:" in fields["e1"]["prompt"][1]  # the first prompt, whole
    later = next(a for a, f in fields.items() if a != "e1" and "prompt" in f and len(f["prompt"]) == 4)
    assert fields[later]["prompt"][2:] == (1, "this prompt is the prompt of ")  # the earlier one …
    assert "Observation:" in fields[later]["prompt_append"][1]  # … plus what was added
    cost = fields["e2"]["tokens and cost"][1]
    assert "prompt + " in cost and "completion tokens" in cost and "$" in cost
    bars = [a for tag, a in page.elements if tag == "a" and "b" in (a.get("class") or "").split()]
    assert {a["href"] for a in bars} >= {"#e1", "#e4"}  # the first model call and the Search call


def test_a_trace_longer_than_the_limit_keeps_its_first_and_last_events(monkeypatch):
    monkeypatch.setattr(html_trace, "EVENT_LIMIT", 10)
    page = parsed(trace_page(FIXTURES / "rose_pricing.jsonl"))
    details = [a["id"] for tag, a in page.elements if tag == "details"]
    assert details == [f"e{n}" for n in (0, 1, 2, 3, 4, 18, 19, 20, 21, 22)]  # of 23
    assert "13 events left out here" in "".join(page.text)


@pytest.mark.parametrize("path", sorted(FIXTURES.glob("*.jsonl")), ids=lambda p: p.stem)
def test_every_fixture_makes_a_page_with_its_lanes(path):
    page = parsed(trace_page(path))
    lanes = [a for tag, a in page.elements if tag == "div" and a.get("class") == "lane"]
    assert lanes and len(page.details()) > 0


def test_a_lone_surrogate_is_shown_not_called_unreadable(tmp_path):
    header, *lines = (FIXTURES / "tool_error_unhandled.jsonl").read_text(encoding="utf-8").splitlines()
    events = [json.loads(line) for line in lines]
    next(e for e in events if e["kind"] == "tool_error")["message"] = "bad byte \udc80 here"
    path = tmp_path / "surrogate.jsonl"
    path.write_text("\n".join([header, *(json.dumps(e) for e in events)]) + "\n", encoding="utf-8")
    page = parsed(trace_page(path))
    assert "unreadable" not in "".join(page.text)
    assert any("bad byte" in entry[1] for entries in page.details().values() for entry in entries)


def test_a_langgraph_runs_rows_name_its_question_and_answer_not_its_message_lists():
    events = load_trace(FIXTURES / "langchain" / "retry_jitter.jsonl")[1]
    first, last = (json.loads(event.model_dump_json()) for event in (events[0], events[-1]))
    assert summary(first) == "What is the weather like in Beijing today?"
    assert summary(last).startswith("Sorry, I could not get Beijing's weather")
    assert summary({"kind": "chain_start", "inputs": ["not", "a", "dict"]}) == '["not", "a", "dict"]'


def test_every_bar_kind_has_its_colour_in_the_pages_style():
    # The colours are spliced into page.css at a marked comment; when the mark drifted, every bar was
    # drawn transparent and only the browser test (slow) saw it.
    from tracer.report.html.page import STYLE
    from tracer.report.waterfall.picture import COLOURS

    page = trace_page(FIXTURES / "rose_pricing.jsonl")
    for i, colour in enumerate(COLOURS):
        assert f".k{i} {{ background: {colour}; }}" in STYLE
    assert 'class="b k0"' in page and ".k0 { background:" in page
