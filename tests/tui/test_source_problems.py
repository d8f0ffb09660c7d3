"""The Source pane says why it shows no source in the debugger's language: a framework's own step is named as
one (not "source not found: (openai-agents)"), and a file's problem is a catalogue message, in Chinese too."""

from __future__ import annotations

import pytest

from tests.helpers.paths import FIXTURES
from tests.helpers.pilot_helpers import settle
from tracer.debug.source_map import read_source, read_user_source
from tracer.tui.app import DebuggerApp
from tracer.tui.launch import build_session
from tracer.tui.panes.source_view import SourceView

SDK_RUN = FIXTURES / "four_loops" / "openai_agents.jsonl"


def test_a_files_problem_is_said_in_the_language_asked():
    missing = read_user_source("nowhere/florist.py")
    assert "source not found: nowhere/florist.py" in missing.problem.text("en")
    assert "找不到源码：nowhere/florist.py" in missing.problem.text("zh")
    assert "不是 Python 文件" in read_user_source("notes.txt").problem.text("zh")
    assert "在" in read_source("../../etc/passwd").problem.text("zh")  # outside the project: not opened


@pytest.mark.parametrize(("lang", "words"), [("en", "a step inside OpenAI Agents SDK"), ("zh", "自己循环里的一步")])
async def test_a_framework_step_is_named_as_one(lang, words, tmp_path):
    copy = tmp_path / SDK_RUN.name
    copy.write_bytes(SDK_RUN.read_bytes())
    app = DebuggerApp(build_session(copy), lang=lang)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        app.session.goto(1)  # llm_start: the SDK's own get_response step
        app.screen.refresh_panes()
        await settle(pilot)
        view = app.screen.query_one(SourceView)
        assert words in view.message and "source not found" not in view.message
        assert "(openai-agents)" not in view.message


async def test_the_reason_wraps_in_a_narrow_pane_instead_of_being_cut(tmp_path):
    copy = tmp_path / SDK_RUN.name
    copy.write_bytes(SDK_RUN.read_bytes())
    app = DebuggerApp(build_session(copy))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.session.goto(1)
        app.screen.refresh_panes()
        await settle(pilot)
        view = app.screen.query_one(SourceView)
        shown = " ".join(view.render_line(y).text.strip() for y in range(view.size.height))
        assert "at a tool's events this pane shows your tool" in " ".join(shown.split()), shown
