"""What a newcomer's walk found in the tutorials' text: each note says what is on screen at its stop, and shows what it talks about."""

from __future__ import annotations

import re

import pytest

from executor import AgentExecutor, ScriptedModel, create_react_agent
from tracer.debug.session import build_session
from tracer.trace.reader import load_trace
from tutorials import SCENARIOS
from tutorials.notes_file import LANGUAGES
from tutorials.registry import TUTORIALS
from tutorials.rose_pricing import QUESTION, REPLIES, build_tools

ROSE = SCENARIOS["rose-pricing"]
# Chinese characters and punctuation; a space between two of them is a gap a reader sees as a typo.
CJK_GAP = re.compile(r"[\u3000-\u9fff\uff00-\uffef] [\u3000-\u9fff\uff00-\uffef]")


def _note(tutorial: str, note_id: str):
    return next(note for note in TUTORIALS[tutorial].notes.notes if note.id == note_id)


def _listing(text: str) -> list[str]:
    """The note's own-line lines (code, quotes), as the narration shows them apart from the prose."""
    return [line.strip() for line in text.splitlines() if line.startswith(" ")]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_rose_stop_14_counts_the_steps_the_variables_pane_shows(lang):
    note = _note("rose-pricing", "check-2")
    events = load_trace(ROSE.fixture)[1]
    event = note.anchor.find(events)[0]
    session = build_session(ROSE.fixture, wait_for_locals=True)
    frames = session.store.frames_at(event.seq, wait=True)
    assert frames is not None and frames[-1].function == "_call"  # outermost first: the pane shows the last
    shown = dict(frames[-1].locals)["intermediate_steps"].count("AgentStep(")
    assert shown == 1  # the round's step joins only after the check: extend(output) comes next
    said = {"en": {1: "holds one step", 2: "holds two steps"}, "zh": {1: "只有一步", 2: "里有两步"}}[lang]
    text = note.texts[lang]
    assert said[shown] in text and said[2] not in text
    assert note.pane == "variables"  # the stop opens the pane its count is read from


@pytest.mark.parametrize("lang", LANGUAGES)
def test_rose_stop_3_quotes_what_the_stop_sequence_cut(lang):
    note = _note("rose-pricing", "raw-reply")
    events = load_trace(ROSE.fixture)[1]
    reply = note.anchor.find(events)[0]
    request = next(e for e in events if e.kind == "llm_start" and e.seq < reply.seq)
    scripted = REPLIES[0]
    assert isinstance(scripted, str) and scripted.startswith(reply.text) and scripted != reply.text
    cut = scripted[len(reply.text) :]  # what the model wrote that never came back
    stop = next(marker for marker in request.stop if cut.startswith(marker))
    listing = _listing(note.texts[lang])
    assert reply.text.splitlines()[-1] in listing  # where the reply that came back ends
    assert cut.strip() in listing  # and the line the stop sequence cut, shown on its own
    assert stop.replace("\n", "\\n") in note.texts[lang]


def test_rose_stop_1_shows_the_three_lines_that_call_invoke_and_they_run_the_recorded_run():
    note = _note("rose-pricing", "where-the-loop-hides")
    lines = _listing(note.texts["en"])
    assert lines == _listing(note.texts["zh"]) and len(lines) == 3
    assert "invoke(" in lines[-1] and not any(re.search(r"\b(while|for)\b", line) for line in lines)
    model = ScriptedModel(REPLIES)
    scope = {"create_react_agent": create_react_agent, "AgentExecutor": AgentExecutor}
    scope |= {"model": model, "tools": build_tools(model), "question": QUESTION}
    exec("\n".join(lines[:-1]), scope)
    result = eval(lines[-1], scope)
    recorded = [e for e in load_trace(ROSE.fixture)[1] if e.kind == "chain_end"][-1]
    assert result["output"] == recorded.outputs["output"]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_mcp_search_stop_4_names_the_detail_panes_fields_and_their_values(lang):
    note = _note("mcp-search", "second-path")
    event = note.anchor.find(load_trace(SCENARIOS["mcp-search"].fixture)[1])[0]
    text = note.texts[lang]
    assert "`paths`" in text and "`matched`" in text  # field names as the Detail pane labels them
    assert all(path in text for path in event.paths) and event.matched in text
    assert "pane's paths" not in text and "所以 详情" not in text


def test_no_chinese_note_has_a_space_between_two_chinese_characters():
    gaps = [
        f"{name}:{note.id}: {text[max(0, m.start() - 8) : m.end() + 8]!r}"
        for name, tutorial in TUTORIALS.items()
        for note in tutorial.notes.notes
        for text in (note.titles["zh"], note.texts["zh"])
        for m in CJK_GAP.finditer(text)
    ]
    assert gaps == []
