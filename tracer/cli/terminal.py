"""Whether the debugger can be shown: a terminal on stdout, or a browser behind `loopscope serve`."""

from __future__ import annotations

import os
import sys

# textual-serve runs each browser session's command with this driver; stdout is then a pipe to it.
WEB_DRIVER = "textual.drivers.web_driver:WebDriver"


def can_show_debugger() -> bool:
    return sys.stdout.isatty() or os.environ.get("TEXTUAL_DRIVER") == WEB_DRIVER
