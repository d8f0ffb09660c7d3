"""A motion hands up what to say about it (a Message), said in either language; the session keeps no words."""

from __future__ import annotations

import pytest

from tests.helpers.paths import ROSE
from tracer.debug.options import DebuggerOptions
from tracer.debug.session import build_session
from tracer.debug.stepping import Motion
from tracer.i18n import Message


@pytest.fixture
def session(tmp_path):
    import shutil

    opened = build_session(
        shutil.copy(ROSE, tmp_path / "rose.jsonl"), options=DebuggerOptions(breakpoints=("tool_start",))
    )
    if opened.store.index is None:  # a big trace is indexed in the background; this one is not big
        opened.store.index = opened.store.build_index()
    yield opened
    opened.store.close()


def land(session, motion: Motion, direction: int = 1) -> Message:
    search = session.motion(motion, direction)
    return session.land(search.advance(complete=True), motion, direction)


def test_a_motion_says_where_it_landed_in_english_and_in_chinese(session):
    said = land(session, Motion.STEP)
    assert isinstance(said, Message)
    assert (str(said), said.text("zh")) == ("step → event 1", "单步 → 事件 1")
    said = land(session, Motion.CONTINUE)
    assert str(said).startswith("continue: stopped at breakpoint #1 kind=tool_start (hit 1)"), str(said)
    assert said.text("zh").startswith("继续：停在断点 #1 kind=tool_start（命中 1 次）"), said.text("zh")
    said = land(session, Motion.CONTINUE, -1)
    assert (str(said), said.text("zh")) == (
        "continue backwards: reached the first event",
        "继续（向后）：到了第一个事件",
    )


def test_the_session_holds_no_words_and_no_language(session):
    """What the screen shows (its message, its language) is the screen's: a session is debugging state."""
    for screen_state in ("message", "lang", "requested_lang"):
        assert not hasattr(session, screen_state), screen_state
