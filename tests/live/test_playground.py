"""The playground over real HTTP: `loopscope call` and the debugger's `e` against the fake OpenAI server."""

from __future__ import annotations

import shutil

import pytest
from textual.widgets import TextArea

from tests.helpers.paths import ROSE
from tests.helpers.pilot_helpers import debugger, pane_text, said, settle
from tracer.cli import main
from tracer.tui.screens.playground_screen import PlaygroundScreen

NEW_REPLY = " I now know the final answer.\nFinal Answer: 42 yuan"


def cli(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_call_sends_the_edited_prompt_over_http_and_diffs_the_replies(live_env, capsys, tmp_path):
    live_env.push(NEW_REPLY)
    prompt_file = tmp_path / "prompt.txt"
    prompt_file.write_text("Answer in one line: what do roses cost?")
    code, out, err = cli(
        capsys, "call", str(ROSE), "--at", "1", "--prompt-file", str(prompt_file), "--model", "openai:fake-model"
    )
    assert code == 0, err
    assert [r.prompt for r in live_env.received] == ["Answer in one line: what do roses cost?"]
    assert "answered by openai:fake-model" in out and "── diff ──" in out and "+Final Answer: 42 yuan" in out
    assert "from the endpoint's usage" in out  # the fake server reports usage


def test_call_with_a_changed_prompt_uses_the_configured_model(live_env, capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("LOOPSCOPE_MODEL", "openai:fake-model")
    live_env.push(NEW_REPLY)
    prompt_file = tmp_path / "prompt.txt"
    prompt_file.write_text("again?")
    code, out, _ = cli(capsys, "call", str(ROSE), "--at", "1", "--prompt-file", str(prompt_file))
    assert code == 0 and len(live_env.received) == 1 and "openai:fake-model" in out


def test_call_with_the_same_prompt_replays_and_calls_no_model(live_env, capsys):
    code, out, _ = cli(capsys, "call", str(ROSE), "--at", "2")
    assert code == 0 and live_env.received == []
    assert "answered by the recording (replayed)" in out and "the replies are the same" in out


@pytest.mark.slow
async def test_e_edits_the_prompt_sends_it_shows_the_diff_and_f_forks(live_env, tmp_path):
    trace = shutil.copy(ROSE, tmp_path / "rose_pricing.jsonl")
    live_env.push(NEW_REPLY)
    app = debugger(trace, model="openai:fake-model")
    async with app.run_test(size=(140, 44)) as pilot:
        app.session.goto(1)  # the first llm_start
        await pilot.press("e")
        await settle(pilot, lambda: isinstance(app.screen, PlaygroundScreen))
        box = app.screen.query_one(TextArea)
        assert box.text == app.session.event(1).prompt  # the exact prompt
        await pilot.press("f")  # typed into the editor, not a fork: nothing has been asked yet
        assert isinstance(app.screen, PlaygroundScreen) and box.text.endswith("f")
        box.text = box.text[:-1] + "\nAnswer at once."
        await pilot.press("ctrl+s")
        await settle(pilot, lambda: app.screen.rerun is not None)
        assert live_env.received[-1].prompt.endswith("Answer at once.")  # over real HTTP
        new = pane_text(app, "playground-new")
        assert "Final Answer: 42 yuan" in new and "+Final Answer: 42 yuan" in new
        assert "Action: Search" in pane_text(app, "playground-recorded")
        await pilot.press("f")
        await settle(pilot, lambda: said(app).startswith("forked into"))
        assert app.session.store.header.fork == {"reply": NEW_REPLY}
        assert app.session.event(len(app.session) - 1).kind == "chain_end"
