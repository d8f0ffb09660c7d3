"""A Say message carries its words: the status line shows the text it brings, whatever the session held."""

from __future__ import annotations

import shutil

from tests.helpers.paths import ROSE
from tests.helpers.pilot_helpers import debugger, settle
from tracer.i18n import verbatim
from tracer.tui.messages import Say


async def test_the_status_line_shows_the_text_a_say_message_carries(tmp_path):
    app = debugger(shutil.copy(ROSE, tmp_path / "rose.jsonl"))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        before = app.screen.status.plain
        app.screen.post_message(Say(verbatim("said by the message itself")))
        await settle(pilot)
        assert "said by the message itself" in app.screen.status.plain
        assert "said by the message itself" not in before
    app.session.store.close()


async def test_a_flows_say_reaches_the_status_line_through_the_message(tmp_path):
    app = debugger(shutil.copy(ROSE, tmp_path / "rose.jsonl"))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        app.screen.stepping.say(verbatim("a flow's words"))
        assert not hasattr(app.session, "message")  # nothing set behind the message's back: the session holds no words
        await settle(pilot)
        assert "a flow's words" in app.screen.status.plain
    app.session.store.close()
