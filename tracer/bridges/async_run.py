"""Running a framework's coroutine to its end from synchronous code, with or without an event loop already running."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Coroutine
from typing import Any


def run_to_end(coroutine: Coroutine[Any, Any, Any]) -> Any:
    """Run the coroutine: in this thread, or (when an event loop already runs here, as in a notebook or an
    async test) in a thread of its own, since a running loop cannot be waited on from inside."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coroutine)
    outcome: dict[str, Any] = {}

    def in_thread() -> None:
        try:
            outcome["value"] = asyncio.run(coroutine)
        except BaseException as error:  # handed back to the caller's thread
            outcome["error"] = error

    worker = threading.Thread(target=in_thread, name="loopscope-framework-run")
    worker.start()
    worker.join()
    if "error" in outcome:
        raise outcome["error"]
    return outcome.get("value")
