"""A syrupy extension storing each debugger screenshot as its own .svg file.

Why not pytest-textual-snapshot: it pins syrupy 4 and pytest < 9, and this project runs
pytest 9 with syrupy 5+. syrupy's own single-file SVG extension does the storing; all a
debugger snapshot needs on top is a fixed terminal size and a screen with no clock on it
(the debugger shows none), which the tests take care of.
"""

from __future__ import annotations

from syrupy.extensions.image import SVGImageSnapshotExtension


class DebuggerSVGExtension(SVGImageSnapshotExtension):
    """One file per snapshot under __snapshots__/<test module>/, diffable as text."""
