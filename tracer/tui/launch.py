"""Opening the debugger: on a trace file (with tutorial stops and breakpoints) or on a live run."""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..debug.options import DEFAULT_OPTIONS, DebuggerOptions
from ..debug.session import build_session
from ..i18n import Message, verbatim
from ..startup import is_trace_write_error
from ..trace.literal_text import scrub
from .app import DebuggerApp

if TYPE_CHECKING:
    from ..debug.framework_live import FrameworkLiveRun
    from ..debug.live_run import LiveRun

__all__ = ["build_session", "open_debugger"]  # build_session lives in session.py; tests import it from here


def _keymap() -> dict[str, str]:
    """LOOPSCOPE_KEYMAP's keys; without one, the keymap module (which imports every screen whose keys can
    be rebound, the runs table's too) is not loaded."""
    if not os.environ.get("LOOPSCOPE_KEYMAP", "").strip():
        return {}
    from .keymap import keymap_from_environment  # late: see the docstring

    return keymap_from_environment()


def open_debugger(
    trace_path: str | os.PathLike[str] | None,
    *,
    options: DebuggerOptions = DEFAULT_OPTIONS,
    stops: Sequence[Any] | None = None,
    title: str | None = None,
    live: LiveRun | FrameworkLiveRun | None = None,
    message: Message | str | None = None,
) -> int:
    """Run the debugger until the user quits; returns the exit code.

    `options` are what the user asked for (DebuggerOptions: prices, --lang, trusted --agent specs,
    --break specs, the playground's --model); what the debugger opens from inside inherits them.
    `stops` are tutorial narration stops (objects with .seq, .title, .text): a Narration pane
    shows the current one and space goes to the next.
    With `live`, events come from that run as the user steps, and trace_path is ignored.
    `message`: the status line's first words, instead of the keys.
    """
    try:
        keymap = _keymap()
    except ValueError as error:
        print(scrub(f"loopscope: LOOPSCOPE_KEYMAP: {error}"), file=sys.stderr)
        return 2
    session = build_session(trace_path, stops=stops, title=title, live=live, options=options)
    said = verbatim(message) if isinstance(message, str) else message
    app = DebuggerApp(session, keymap=keymap, lang=options.lang, said=said or None)
    trace_failure = None
    try:
        code = app.run()
    finally:
        try:
            closed = session.store.close()
        except Exception as error:  # the live run's trace could not be written; the session was fine
            if not is_trace_write_error(error):
                raise
            closed, trace_failure = None, str(error)
        app.close_opened()
    if app.failure:  # these lines may quote a trace or a path: shown literally, as the panes show them
        print(scrub(f"loopscope: {app.failure}"), file=sys.stderr)
    if trace_failure:
        print(scrub(f"loopscope: {trace_failure}"), file=sys.stderr)
        return 1
    if live is not None:
        print(scrub(f"live run recorded to {closed}"))
    return app.return_code if app.return_code is not None else (code or 0)
