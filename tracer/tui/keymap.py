"""Rebinding the debugger's keys by binding id: LOOPSCOPE_KEYMAP="step-forward=j;next-forward=k"."""

from __future__ import annotations

import os

from textual.binding import Binding

from .app import DebuggerApp
from .panes.breakpoints_pane import BreakpointsPane
from .panes.runs_table import RunsTable
from .panes.source_view import SourceView
from .panes.timeline import EventTimeline
from .screens.main_screen import DebuggerScreen
from .screens.runs_screen import RunsScreen

# Whose keys a keymap may rebind: the debugger's screen and app, the panes that take the focus, and the
# runs table (`loopscope runs`).
KEYMAP_OWNERS = (DebuggerScreen, BreakpointsPane, SourceView, EventTimeline, DebuggerApp, RunsScreen, RunsTable)


def binding_ids() -> list[str]:
    """Every rebindable id, from the bindings themselves (so the list cannot drift)."""
    return [
        binding.id
        for owner in KEYMAP_OWNERS
        for binding in owner.BINDINGS
        if isinstance(binding, Binding) and binding.id
    ]


def parse_keymap(text: str) -> dict[str, str]:
    """ "ID=KEY[,KEY];ID=KEY" -> {id: keys}; a one-line ValueError names what is wrong."""
    known = binding_ids()
    keymap: dict[str, str] = {}
    for item in filter(None, (part.strip() for part in text.split(";"))):
        name, equals, keys = item.partition("=")
        if not equals or not name.strip() or not keys.strip():
            raise ValueError(f"keymap entry {item!r} is not ID=KEY (e.g. step-forward=j)")
        if name.strip() not in known:
            raise ValueError(f"no key has the id {name.strip()!r}; ids: {', '.join(known)}")
        keymap[name.strip()] = keys.strip()
    return keymap


def keymap_from_environment() -> dict[str, str]:
    return parse_keymap(os.environ.get("LOOPSCOPE_KEYMAP", ""))
