"""Under --lang zh the debugger's own words are Chinese too, and mixed text wraps between Chinese characters."""

from __future__ import annotations

import re
from itertools import pairwise

from rich.cells import cell_len

from tests.helpers.pilot_helpers import settle
from tracer.tui.app import DebuggerApp
from tracer.tui.flows.tutorials import tutorial_session
from tracer.tui.panes.keys_footer import KeysFooter
from tracer.tui.panes.status_line import StatusLine
from tracer.tui.screens.help_screen import HelpScreen


def _first_unbreakable(line: str) -> str:
    """What a line opens with that could not be split: a Latin word with its quotes and marks, or a character."""
    found = re.match(r"[`'\"(（]*[A-Za-z0-9_.\-]+[`'\")）]*[，。：；、）)]*|.[，。：；、）]*", line)
    return found.group() if found else line[:1]


def _screen_text(app) -> str:
    return app.export_screenshot().replace("&#160;", " ")


async def test_a_chinese_tutorial_has_chinese_pane_titles_footer_status_and_stop_labels():
    app = DebuggerApp(tutorial_session("rose-pricing", 0, "zh"))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = _screen_text(app)
        for words in (
            "时间线",
            "调用栈",
            "讲解",
            "变量",
            "提示词",
            "详情",
            "停靠点 1/18",
            "单步",
            "下一停靠点",
            "向后",
        ):
            assert words in screen, words
        assert " s 单步  n 下一步" in app.screen.query_one(KeysFooter).render().plain
        for english in ("Timeline", "Call stack", "Variables", "Stop 1/18", "next stop"):
            assert english not in screen, english
        await pilot.press("s")
        await settle(pilot)
        status = app.screen.query_one(StatusLine).plain
        assert "事件 1/23" in status and "第 1 轮" in status and "单步 → 事件 1" in status
        assert "llm_start · 规划" in status and "planning" not in status and "全程" in status
        await pilot.press("question_mark")
        await settle(pilot, lambda: isinstance(app.screen, HelpScreen))
        help_text = _screen_text(app)
        assert "按键" in help_text and "移动" in help_text and "沿调用栈向上" in help_text


async def test_the_english_tutorial_keeps_english_words():
    app = DebuggerApp(tutorial_session("rose-pricing", 0, "en"))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = _screen_text(app)
        assert "Timeline" in screen and "Stop 1/18" in screen and "时间线" not in screen


async def test_chinese_narration_breaks_between_characters_not_only_at_spaces():
    app = DebuggerApp(tutorial_session("rose-pricing", 0, "zh"))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        pane = app.screen.query_one("#narration-text")
        width = pane.scrollable_content_region.width
        lines = [
            strip.text.rstrip()
            for strip in pane.query_one(".pane-text").render_lines(pane.query_one(".pane-text").region.reset_offset)
        ]
        body = [line for line in lines if line and not line.startswith("停靠点")]
        # Rich alone leaves a line short before each `invoke`: a line ends early only when what opens the
        # next one (a Chinese character, or a Latin word with its marks) had no room left on it.
        early = [
            (line, after)
            for line, after in pairwise(lines)
            if line
            and after
            and not after.startswith(" ")  # the learner's script: code, one line each
            and cell_len(line) + 1 + cell_len(_first_unbreakable(after)) <= width
        ]
        assert len(body) > 5 and not early, (width, early)


async def test_debug_lang_zh_speaks_chinese_on_any_trace_and_a_bad_language_is_one_line(capsys):
    from tests.helpers.paths import ROSE
    from tracer.cli import main
    from tracer.debug.session import build_session

    session = build_session(ROSE)
    app = DebuggerApp(session, lang="zh")  # what `loopscope debug TRACE --lang zh` asks open_debugger for
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = _screen_text(app)
        assert "时间线" in screen and "调用栈" in screen and "Timeline" not in screen
    assert main(["debug", str(ROSE), "--lang", "fr"]) == 2
    err = capsys.readouterr().err
    assert "unknown language 'fr'" in err and len(err.strip().splitlines()) == 1


async def test_the_variables_and_prompt_panes_speak_chinese_too_but_never_translate_the_run():
    import io

    from rich.console import Console

    from tracer.tui.views.prompt_view import prompt_text
    from tracer.tui.views.variables_view import loop_state

    app = DebuggerApp(tutorial_session("rose-pricing", 0, "zh"))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        session = app.session
        session.goto(9)  # the second plan's reply: a prompt with new scratchpad, and a loop state to show
        header, body = prompt_text(session, "zh")
        assert (
            "第 2 次调用" in header.plain
            and "模板" in header.plain
            and "第 1 次调用（事件 1）之后新增的" in header.plain
        )
        assert "回复（事件 9），原样照录：" in body.plain
        assert "Reply (event" not in body.plain and "call #" not in header.plain
        assert "Observation: " in body.plain  # the prompt itself stays exactly as the model saw it
        table = loop_state(session, "zh")
        console = Console(width=160, height=60, record=True, file=io.StringIO())
        console.print(table)
        shown = console.export_text()
        assert "_call 在这个事件处的变量，由录下的事件重建" in shown and "（这一轮还没有检查）" in shown
        assert "rebuilt from the recorded events" not in shown and "not checked yet" not in shown
        from tracer.tui.views.detail_view import detail_text

        detail = detail_text(session.event(9), session.costs.call_at(9), "zh").plain
        assert "提示词 " in detail and "补全" in detail and "completion tokens" not in detail


async def test_every_box_the_keys_open_speaks_chinese_in_a_chinese_tutorial():
    from tests.helpers.screen_text import allowed_words, foreign_words, screen_rows
    from tracer.tui.panes.source_view import SourceView

    allowed = allowed_words("rose-pricing", "zh")
    app = DebuggerApp(tutorial_session("rose-pricing", 0, "zh"))
    problems = []
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot)
        app.session.goto(2)  # an llm_end: f forks its reply, e edits its call's prompt
        app.screen.refresh_panes()
        for key in ("question_mark", "T", "f", "D", "e", "F", "slash", "colon", "B", "4"):
            await pilot.press(key)
            await settle(pilot)
            problems += [(key, word, row) for word, row in foreign_words(screen_rows(app, (SourceView,)), allowed)]
            if key == "question_mark":  # the help is long: its end too
                for _ in range(8):
                    await pilot.press("space")
                await settle(pilot)
                problems += [(key, w, r) for w, r in foreign_words(screen_rows(app, (SourceView,)), allowed)]
            if key != "4":
                await pilot.press("escape")
                await settle(pilot)
    assert problems == [], "\n".join(f"{key}: {word!r} in {row}" for key, word, row in dict.fromkeys(problems))
