"""Opening the debugger in a Pilot test and waiting for it to settle."""

from __future__ import annotations

import asyncio

from textual.widgets import Input, TabbedContent

from tracer.debug.options import DebuggerOptions
from tracer.tui.app import DebuggerApp
from tracer.tui.launch import build_session
from tracer.tui.panes.source_view import SourceView, is_highlighted
from tracer.tui.panes.status_line import StatusLine
from tracer.tui.panes.text_pane import TextPane


def debugger(path, *, breakpoints=(), agents=(), model=None, **session) -> DebuggerApp:
    """The app on `path` (or a live run), with --break, --agent and --model as `loopscope debug` hands them down."""
    options = DebuggerOptions(breakpoints=tuple(breakpoints), agents=tuple(agents), model=model)
    return DebuggerApp(build_session(path, options=options, **session))


def painting(app) -> bool:
    """True while a pane is still being filled in after its frame was painted: the real locals (a
    worker re-executes the run) or the source's colours (a worker highlights it)."""
    if any(worker.group in ("reenact", "highlight", "filter") and not worker.is_finished for worker in app.workers):
        return True  # still at work, or about to redraw with what it made
    if any(getattr(screen, "reenacting", False) for screen in app.screen_stack):
        return True  # a re-execution was asked for; its worker starts once the frame is painted
    views = [view for screen in app.screen_stack for view in screen.query(SourceView)]
    return any(view.source is not None and view.source.lines and not is_highlighted(view.source) for view in views)


# How long a test waits before it says the debugger never got there. Not a speed target: on a busy
# 2-core machine a re-execution that takes 0.3 s alone took over 10 s, and a broken app still fails.
SETTLE_TIMEOUT = 120.0


async def settle(pilot, condition=lambda: True, timeout: float = SETTLE_TIMEOUT) -> None:
    """Let the app process messages (and workers finish) until `condition()` holds."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    await pilot.pause()
    while painting(pilot.app) or not condition():
        if loop.time() > deadline:
            raise AssertionError("the debugger did not reach the expected state in time")
        await pilot.pause(0.02)


async def until(pilot, condition, timeout: float = SETTLE_TIMEOUT) -> None:
    """Let the app process messages until `condition()` holds, without waiting for panes still filling in."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    await pilot.pause()
    while not condition():
        if loop.time() > deadline:
            raise AssertionError("the debugger did not reach the expected state in time")
        await pilot.pause(0.02)


async def press(pilot, *keys, wait_for_search: bool = False) -> None:
    """Press each key in turn and let the debugger settle after each, as a user waits before the next key.

    `wait_for_search` waits for a search the key started to answer too; off by default because a test that
    holds a search on purpose presses keys while it runs."""
    for key in keys:
        await pilot.press(key)
        await settle(pilot, lambda: not (wait_for_search and searching(pilot.app)))


def status(app: DebuggerApp) -> str:
    """The debugger's status line as plain text."""
    return app.screen.query_one(StatusLine).plain


def screen(app: DebuggerApp):
    return app.screen


def pane_text(app: DebuggerApp, pane_id: str) -> str:
    return app.screen.query_one(f"#{pane_id}", TextPane).plain


def highlighted(app: DebuggerApp) -> tuple[str, int]:
    """(file, line) the source pane highlights."""
    view = app.screen.query_one(SourceView)
    return view.source.path, view.current_line


def active_tab(app: DebuggerApp) -> str:
    return app.screen.query_one(TabbedContent).active


async def answer(pilot, text: str) -> None:
    """Fill the open question's input in one go and press enter (for tests not about typing)."""
    await settle(pilot, lambda: bool(pilot.app.screen.query(Input)))
    pilot.app.screen.query_one(Input).value = text
    await pilot.press("enter")
    await settle(pilot, lambda: not searching(pilot.app))


def searching(app) -> bool:
    """A search (or a filter that reads events) runs in a worker thread; tests wait for it like a
    user waits for the status line."""
    return any(worker.group in ("search", "filter") and not worker.is_finished for worker in app.workers)


def said(app, lang: str = "en") -> str:
    """What the status line of the debugger screen on top says (its message, not the place), in `lang`."""
    from tracer.tui.screens.main_screen import DebuggerScreen

    screens = [screen for screen in app.screen_stack if isinstance(screen, DebuggerScreen)]
    return screens[-1].said.text(lang)
