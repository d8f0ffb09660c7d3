"""The debugger shows a score given on one event (an imported LangSmith child run's feedback) at that
event, literally, and nowhere else; the run's own scores stay at its first event and its end."""

from __future__ import annotations

from tests.helpers.langsmith_child_feedback import FIRST_REPLY, SEARCH_END, imported, tree, with_child_feedback
from tests.helpers.pilot_helpers import debugger, pane_text, settle
from tracer.debug.session import build_session
from tracer.tui.views.detail_view import detail_text, run_scores_at


def detail_at(path, position: int) -> str:
    session = build_session(path)
    session.goto(position)
    return detail_text(session.event(), scores=run_scores_at(session)).plain


def test_the_detail_view_shows_a_childs_score_at_its_event_literally(tmp_path):
    out = imported(tmp_path, with_child_feedback(tree()))
    at_tool = detail_at(out, SEARCH_END)
    lines = [line.strip() for line in at_tool.splitlines()]
    here = next(at for at, line in enumerate(lines) if line.startswith("event scores"))
    assert "user_thumb = 0 ✓  from langsmith, 2025-02-10T09:00:00+00:00" in lines[here]
    assert "[bold red]now[/]" in lines[here + 1] and "\x1b" not in at_tool and "\x07" not in at_tool
    assert "correctness" not in at_tool  # the model call's score is not the tool's, nor the run's here
    at_reply = detail_at(out, FIRST_REPLY)
    assert "correctness = 0 ✓" in at_reply and "wrong tool" in at_reply and "user_thumb" not in at_reply
    for position in (1, 3, 4, 6, 7):
        assert "scores" not in detail_at(out, position)
    start = detail_at(out, 0)  # the run's own, as before, and no child's
    assert "correctness = 1 ✓" in start and "correctness = 0" not in start and "event scores" not in start


async def test_the_debugger_shows_the_tools_feedback_at_its_tool_end(tmp_path):
    app = debugger(imported(tmp_path, with_child_feedback(tree())))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("3")  # the Detail tab
        app.session.goto(SEARCH_END - 1)
        await pilot.press("s")
        await settle(pilot, lambda: app.session.position == SEARCH_END)
        detail = pane_text(app, "detail-text")
        assert "tool_end" in detail and "user_thumb = 0 ✓" in detail and "[bold red]now[/]" in detail
