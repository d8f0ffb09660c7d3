"""What the panes say: the prompt's scratchpad and new part, the loop state, narration, and untrusted text."""

from __future__ import annotations

import json
from types import SimpleNamespace

from rich.text import Text
from textual.widgets import TabbedContent

from tests.helpers.pilot_helpers import active_tab, debugger, pane_text, said, settle
from tests.helpers.trace_factory import record, with_search_result
from tracer.debug import event_store
from tracer.tui.launch import build_session
from tracer.tui.panes.call_stack import CallStackPane
from tracer.tui.panes.status_line import StatusLine
from tracer.tui.panes.timeline import EventTimeline
from tracer.tui.views.prompt_view import NEW, SCRATCHPAD, TEMPLATE, prompt_text
from tutorials.rose_pricing import REPLIES

SIZE = (120, 40)
HOSTILE = "[bold red]ALERT[/] \x1b]0;pwned\x07 \x1b[31mred\x1b[0m [link=http://x]y[/link]"


def styled(text: Text, style: str) -> str:
    return "".join(text.plain[span.start : span.end] for span in text.spans if span.style == style)


def test_the_prompt_pane_separates_template_scratchpad_and_what_is_new(rose):
    session = build_session(rose)
    session.goto(18)  # the third plan() call
    header, body = prompt_text(session)
    prompt = session.event(18).prompt
    previous, first = session.event(8).prompt, session.event(1).prompt
    assert "plan() call #3 · event 18" in header.plain and "new since call #2 (event 8)" in header.plain
    assert styled(body, TEMPLATE) == first
    assert styled(body, SCRATCHPAD) == previous[len(first) :]
    assert styled(body, NEW) == prompt[len(previous) :]
    assert styled(body, NEW).startswith(" 从搜索结果可以看到") and "Observation: Answer: 26.25" in styled(body, NEW)


def test_the_prompt_pane_shows_the_calculators_own_call_and_its_reply(rose):
    session = build_session(rose)
    session.goto(14)
    header, body = prompt_text(session)
    assert header.plain.startswith("calculate() call #1 · event 12")
    assert "Reply (event 13), exactly as it came back:" in body.plain
    session.goto(0)
    header, _body = prompt_text(session)
    assert "No model call has happened yet" in header.plain and "the first one is event 1" in header.plain


async def test_the_variables_pane_follows_the_loop(rose):
    app = debugger(rose)
    async with app.run_test(size=SIZE) as pilot:
        # The real locals of _call (the re-executed run): the extend comes after each check.
        expectations = {
            7: [
                "▶ _call()",
                "intermediate_steps  []",
                "output              [AgentStep(action=AgentAction(tool='Search'",
                "is_finish           False",
            ],
            17: [
                "intermediate_steps  [AgentStep(action=AgentAction(tool='Search'",
                "output              [AgentStep(action=AgentAction(tool='Calculator', tool_input='25 * 1.05'",
            ],
            21: ["output              AgentFinish(return_values={'output':", "is_finish           True"],
        }
        for position, lines in expectations.items():
            app.session.goto(position)
            app.screen.refresh_panes()
            await settle(pilot)
            text = pane_text(app, "variables-text")
            for line in lines:
                assert line in text, (position, line)
            assert "name_to_tool_map    {'Calculator': Tool(name='Calculator'), 'Search': Tool(name='Search')}" in text


async def test_tutorial_stops_show_in_the_narration_pane_and_space_walks_them(rose):
    stops = [
        SimpleNamespace(seq=3, title="The first action", text="[bold]not markup[/bold] and \x1b[31m"),
        SimpleNamespace(seq=10, title="The calculator", text="numexpr does the sum"),
    ]
    app = debugger(rose, stops=stops, title="rose tutorial")
    async with app.run_test(size=SIZE) as pilot:
        assert active_tab(app) == "narration"
        assert "has not reached its first stop" in pane_text(app, "narration-text")
        await pilot.press("space")
        await settle(pilot)
        assert app.session.position == 3
        text = pane_text(app, "narration-text")
        assert "Stop 1/2 · The first action" in text and "[bold]not markup[/bold]" in text
        assert "space: next stop (event 10)" in text
        await pilot.press("space")
        await settle(pilot)
        assert app.session.position == 10 and "This is the last stop" in pane_text(app, "narration-text")
        await pilot.press("backspace")
        await settle(pilot)
        assert app.session.position == 3
        app.screen.query_one(TabbedContent).active = "detail"
        await pilot.press("5")
        await settle(pilot)
        assert active_tab(app) == "narration"


async def test_markup_and_escapes_from_tools_are_shown_literally(tmp_path):
    path = record(tmp_path / "hostile.jsonl", REPLIES, with_search_result(HOSTILE))
    app = debugger(path)
    async with app.run_test(size=SIZE) as pilot:
        app.session.goto(5)  # the Search tool_end
        await pilot.press("3")
        await settle(pilot)
        detail = pane_text(app, "detail-text")
        assert "[bold red]ALERT[/]" in detail and "[link=http://x]y[/link]" in detail
        assert "\x1b" not in detail and "␛]0;pwned\\x07" in detail
        row = app.screen.query_one(EventTimeline).render_line(5).text
        assert "→ [bold red]ALE" in row and "\x1b" not in row  # literal, the observation first
        assert "[bold&#160;red]ALERT[/]" in app.export_screenshot()  # SVG writes spaces as &#160;


async def test_a_ten_megabyte_observation_is_cut_for_display_with_a_note(tmp_path):
    huge = "rose prices " * 900_000  # about 10 MB
    path = record(tmp_path / "huge.jsonl", REPLIES, with_search_result(huge))
    app = debugger(path)
    async with app.run_test(size=SIZE) as pilot:
        app.session.goto(5)
        await pilot.press("3")
        await settle(pilot)
        detail = pane_text(app, "detail-text")
        assert "display cut: showing 20,000 of 10,800,000 characters" in detail and len(detail) < 25_000
        app.session.goto(8)
        await pilot.press("2")
        await settle(pilot)
        prompt = pane_text(app, "prompt-text")
        assert "characters not shown" in prompt and len(prompt) < 40_000


async def test_a_truncated_trace_opens_with_a_visible_warning(rose, tmp_path):
    data = rose.read_bytes()
    cut = tmp_path / "cut.jsonl"
    cut.write_bytes(data[: data.rindex(b'"kind":"chain_end"') + 20])
    app = debugger(cut)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert len(app.session) == 22
        assert "the last line is cut off" in app.screen.query_one(StatusLine).plain
        await pilot.press("s")
        await settle(pilot)
        assert "truncated" in str(app.screen.query_one(EventTimeline).border_subtitle)


async def test_a_big_trace_is_indexed_in_the_background_and_waiting_moves_then_run(rose, monkeypatch):
    import threading

    monkeypatch.setattr(event_store, "INDEX_NOW_LIMIT", 10)  # treat the rose run as a big trace
    # Hold the background index until the key is pressed: a 23-event scan can finish before the
    # test looks, and then there would be nothing to wait for.
    release, build_index = threading.Event(), event_store.ReplayStore.build_index

    def held(self):
        assert release.wait(30), "the test never released the index"
        return build_index(self)

    monkeypatch.setattr(event_store.ReplayStore, "build_index", held)
    app = debugger(rose, breakpoints=["tool=Calculator"])
    async with app.run_test(size=SIZE) as pilot:
        try:
            assert not app.session.index_ready
            await pilot.press("c")  # before the index exists: queued, not lost
            await pilot.pause()
            assert app.session.position == 0
        finally:
            release.set()
        await settle(pilot, lambda: app.session.index_ready and not app.screen.busy)
        assert app.session.position == 11 and "stopped at breakpoint #1" in said(app)


async def test_a_broken_line_found_by_the_background_index_ends_the_session_with_its_message(rose, monkeypatch):
    monkeypatch.setattr(event_store, "INDEX_NOW_LIMIT", 10)
    lines = rose.read_text(encoding="utf-8").splitlines()
    lines[6] = "{ not json"
    rose.write_text("\n".join(lines) + "\n", encoding="utf-8")
    app = debugger(rose)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, lambda: app.failure is not None)
    assert app.return_code == 2 and app.failure.endswith(":7: not valid JSON")


async def test_names_in_a_hand_written_trace_cannot_style_the_screen(rose, tmp_path):
    lines = rose.read_text(encoding="utf-8").splitlines()
    event = json.loads(lines[4])  # agent_action, seq 3
    event["frames"][-1] = "[reverse]x\x1b[31m"
    event["source"]["function"] = "[reverse]x\x1b[31m"
    event["source"]["file"] = "[b]evil.py"
    lines[4] = json.dumps(event, ensure_ascii=False)
    crafted = tmp_path / "crafted.jsonl"
    crafted.write_text("\n".join(lines) + "\n", encoding="utf-8")
    app = debugger(crafted)
    async with app.run_test(size=SIZE) as pilot:
        app.session.goto(3)
        app.screen.refresh_panes()
        await pilot.press("3")
        await settle(pilot)
        assert "[reverse]x␛[31m" in app.screen.query_one(CallStackPane).plain
        assert "[b]evil.py:" in str(app.screen.query_one("#source-pane").border_title)
        assert "[reverse]x␛[31m" in pane_text(app, "detail-text")
        assert "\x1b" not in app.export_screenshot()


def test_the_source_pane_only_reads_files_of_the_project():
    from tracer.debug.source_map import read_source

    assert read_source("executor/agent_executor.py").lines
    outside = read_source("../../../../etc/passwd")
    assert outside.lines == () and "is outside" in str(outside.problem)


async def test_a_trace_killed_between_events_opens_as_interrupted(rose, tmp_path):
    cut = tmp_path / "killed.jsonl"
    cut.write_bytes(b"".join(rose.read_bytes().splitlines(keepends=True)[:11]))
    app = debugger(cut)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert len(app.session) == 10
        assert "the run was interrupted" in app.screen.query_one(StatusLine).plain
        assert "truncated" in str(app.screen.query_one(EventTimeline).border_subtitle)


def test_the_prompt_pane_at_a_trim_shows_what_was_dropped_and_what_the_next_call_sends(tmp_path):
    import shutil

    from tests.helpers.paths import FIXTURES
    from tracer.tui.views.budget_view import DROPPED, KEPT, SUMMARY

    def copy(name):  # breakpoint sidecars land in tmp, not in fixtures/
        return shutil.copy(FIXTURES / name, tmp_path / name)

    session = build_session(copy("context_budget_trim.jsonl"))
    session.goto(22)  # context_trimmed
    header, body = prompt_text(session)
    assert "history trimmed (max_tokens) · event 22 · 8 → 6 messages · 499 → 350 tokens" in header.plain
    assert "Lao She Tea House" in styled(body, DROPPED) and "Huxinting" not in styled(body, DROPPED)
    sent = styled(body, KEPT)
    assert sent == session.event(23).prompt and "Lao She Tea House" not in sent and "Taotaoju" in sent
    session = build_session(copy("context_budget_summarize.jsonl"))
    session.goto(24)  # summarized
    header, body = prompt_text(session)
    assert "history summarized" in header.plain
    assert styled(body, SUMMARY).startswith("[user]\nSummary of the earlier steps")
    assert "Lao She Tea House" in styled(body, DROPPED) and "Huxinting Tea House" in styled(body, DROPPED)


def test_real_locals_round_a_floats_noise_and_the_detail_pane_keeps_it_exact():
    from executor.events import LimitReachedEvent
    from tracer.tui.views.detail_view import detail_text
    from tracer.tui.views.variables_view import rounded_floats

    assert rounded_floats("0.010000000000000005") == "0.01"
    assert rounded_floats("[0.30000000000000004, 2.5, 'v1.2345678901']") == "[0.3, 2.5, 'v1.2345678901']"
    assert rounded_floats("12345.678901234") == "12345.678901"
    fields = LimitReachedEvent.model_fields
    assert "elapsed" in fields
    event = LimitReachedEvent(
        seq=3, run_id="r", t=0.010000000000000005, iteration=1, frames=["_call"],
        source={"file": "executor/agent_executor.py", "line": 1, "function": "_call"},
        reason="max_execution_time", iterations=1, elapsed=0.010000000000000005, early_stopping_method="force",
    )  # fmt: skip
    assert "0.010000000000000005" in detail_text(event).plain
