"""What the user asked for (DebuggerOptions) reaches the screen, and a fork opened inside is shown the same way."""

from __future__ import annotations

import pytest
from textual.widgets import TextArea

from tests.helpers.pilot_helpers import settle
from tracer.cli import main
from tracer.debug.options import DebuggerOptions
from tracer.debug.session import build_session
from tracer.report.cost.prices import PriceTable
from tracer.tui.app import DebuggerApp
from tracer.tui.screens.fork_screen import ForkScreen
from tracer.tui.screens.main_screen import DebuggerScreen

FINAL = " I can answer now.\nFinal Answer: about 31.5 yuan"


@pytest.fixture
def dollar_a_token(tmp_path) -> PriceTable:
    path = tmp_path / "prices.toml"
    path.write_text('[models."scripted"]\ninput = 1000000.0\noutput = 0.0\n', encoding="utf-8")
    return PriceTable.load(path)


def test_debug_hands_its_arguments_down_as_one_value(rose, monkeypatch):
    seen = []

    def run(app: DebuggerApp) -> int:  # stands in for the window
        seen.append((app.session.options, app.requested_lang, [bp.spec for bp in app.session.breakpoints]))
        return 0

    monkeypatch.setattr(DebuggerApp, "run", run)
    monkeypatch.setattr("tracer.cli.debug.can_show_debugger", lambda: True)
    argv = ["debug", str(rose), "--lang", "zh", "--break", "tool=Calculator", "--model", "openai:gpt-4o-mini"]
    assert main(argv) == 0
    ((options, requested, specs),) = seen
    assert options.lang == requested == "zh"
    assert options.call_model == ("openai:gpt-4o-mini", None)
    assert specs == ["tool=Calculator"]


async def test_a_fork_is_priced_worded_and_answered_as_its_parent(rose, tmp_path, monkeypatch, dollar_a_token):
    monkeypatch.chdir(tmp_path)  # forks land in the working directory
    options = DebuggerOptions(prices=dollar_a_token, lang="zh", model="openai:gpt-4o-mini")
    app = DebuggerApp(build_session(rose, options=options))
    async with app.run_test(size=(120, 40)) as pilot:
        parent = app.session
        parent.goto(2)  # the first plan's llm_end
        await pilot.press("f")
        await settle(pilot, lambda: isinstance(app.screen, ForkScreen))
        app.screen.query_one(TextArea).text = FINAL
        await pilot.press("ctrl+s")
        await settle(pilot, lambda: app.session is not parent and isinstance(app.screen, DebuggerScreen))
        fork = app.session
        assert fork.options.call_model == ("openai:gpt-4o-mini", None)  # the playground's model, still there
        assert app.screen.lang == "zh"  # --lang zh: the fork's screen does not fall back to English
        _iteration, run = fork.costs.totals(1)
        assert run.prompt_tokens > 0 and run.dollars == pytest.approx(run.prompt_tokens)  # --prices, still
    parent.store.close()
    app.close_opened()
